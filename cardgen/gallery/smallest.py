"""Turn one edition's prepared faces into the texts it had to set smallest (the element, the card,
the size it was set at against the template's size): the set report's table per edition, where a
translation that barely fits shows before it overflows."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..project.studio import Studio
from ..render.prepared import PreparedFace
from ..render.template import as_length

ROWS = 10  # texts listed per edition


@dataclass(frozen=True)
class SmallText:
    card: str  # the card's id
    name: str  # its name in the edition
    face: str  # the template's name (front, a second face, an `also:` face)
    element: str
    used: float  # the size it is set at, in points
    size: float  # the size the template asks for

    @property
    def ratio(self) -> float:
        return self.used / self.size if self.size else 1.0


@dataclass
class EditionTexts:
    """An edition's smallest texts, smallest against the template's size first."""

    lang: str  # its language ('de')
    name: str  # the language's name ('Deutsch')
    rows: list[SmallText] = field(default_factory=list)
    shrunk: int = 0  # texts set below their template's size, in all


def smallest_texts(studio: Studio, limit: int = ROWS) -> EditionTexts:
    """The texts of `studio`'s edition set below their template's size, smallest first (each
    design's faces once: its front, its own second face, its `also:` faces)."""
    model = studio.model
    eds = model.editions
    lang = model.edition or (eds.default if eds else "")
    found: list[SmallText] = []
    for card in studio.designs(printable=True):
        front, back = studio.prepare(card)
        faces = [front] + ([back] if back is not None and studio.own_back(card) else [])
        faces += [other for other, _ in studio.other_faces(card)]
        for face in faces:
            found += _shrunk(face, card.id, card.name)
    found.sort(key=lambda t: (t.ratio, t.used, t.card, t.face, t.element))
    return EditionTexts(lang, eds.name(lang) if eds else lang, found[:limit], len(found))


def _shrunk(face: PreparedFace, card: str, name: str) -> list[SmallText]:
    out = []
    for op in face.ops:
        if op.type != "text" or op.fit is None:
            continue
        size = as_length(op.props.get("size"), 9.0)
        used = op.fit.layout.size
        if used < size - 1e-6:
            element = str(op.props.get("_id") or "text")
            out.append(SmallText(card, name, face.template.name, element, used, size))
    return out


def as_rows(tables: list[EditionTexts]) -> list[dict[str, object]]:
    """The tables as the report page shows them."""
    return [
        {
            "lang": t.lang,
            "name": t.name,
            "shrunk": t.shrunk,
            "rows": [
                {
                    "card": r.card,
                    "name": r.name,
                    "face": r.face,
                    "element": r.element,
                    "used": f"{r.used:g} pt",
                    "size": f"{r.size:g} pt",
                    "percent": f"{100 * r.ratio:.0f}%",
                }
                for r in t.rows
            ],
        }
        for t in tables
    ]

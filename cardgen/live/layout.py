"""Turn one card's face into what the layout inspector shows of it: every element's box (and the
bleed, trim, safe zone and named boxes) in millimetres, its id, its template `file:line`, the keys
it is written with, the card values it uses, its YAML, and a picture of the face with its bleed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import CardgenError
from ..core.units import to_mm
from ..load.card import Card
from ..load.yamlpatch import Unexpressible, compose, find
from ..project.studio import Studio
from ..render import geometry
from ..render.context import context, is_true
from ..render.elements import CARD_FIELD, ELEMENTS
from ..render.placing import face_frame
from ..render.prepared import PreparedFace
from ..render.template import Element, Template

PX_PER_MM = 12  # the inspector's picture: about 305 dpi, crisp on a high-density screen
_VAR_NAME = re.compile(r"\bvars\.([A-Za-z_]\w*)")
_FIELD_CALL = re.compile(r"\b(?:attrs?|canonical)\(\s*['\"]([A-Za-z_]\w*)['\"]")


@dataclass
class Side:
    """One face of a card as the inspector names it: 0 the front, 1 its back, 2… its `also:`
    faces."""

    card: Card
    which: int
    face: PreparedFace
    label: str


def sides(studio: Studio, card: Card) -> list[tuple[PreparedFace, str]]:
    """Every face the card prints, with the template's bleed, in the inspector's order."""
    front, back = studio.prepare(card)
    shown = [(front, "front")]
    if back is not None:
        shown.append((back, "second face" if studio.own_back(card) else "back (shared)"))
    shown += [(other, f"also: {other.template.name}") for other, _ in studio.other_faces(card)]
    return shown


def side(studio: Studio, card_id: str, which: int) -> Side:
    card = next((c for c in studio.designs() if c.id == card_id), None)
    if card is None or studio.faces.for_card(card) is None:
        raise CardgenError(f"no printed card has the id {card_id[:60]!r}")
    shown = sides(studio, card)
    if not 0 <= which < len(shown):
        raise CardgenError(f"card '{card_id}' has {len(shown)} face(s), not a face {which}")
    face, label = shown[which]
    return Side(card, which, face, label)


def _mm(box: tuple[float, float, float, float]) -> list[float]:
    return [round(to_mm(v), 3) for v in box]


def layout(studio: Studio, found: Side) -> dict[str, Any]:
    """What the inspector shows of one face (lengths in millimetres, trim space, y down)."""
    face, template = found.face, found.face.template
    card = found.card if found.label != "back (shared)" else None
    ctx = context(card or _blank(studio), studio.model, template)
    frame = face_frame(template, ctx, face, found.card)
    drawn = {op.props.get("_n"): op for op in face.ops}
    texts: dict[str, Any] = {}
    elements = []
    for n, element in enumerate(template.elements):
        op = drawn.get(n)
        entry = _element(studio, element, n, texts)
        entry["parent"] = _mm(frame.box(_inside(element, ctx)) or (0, 0, face.width, face.height))
        if op is not None:
            entry["box"] = _mm(op.box) if op.type not in ("line", "polygon") else _bounds(op.props)
        else:
            entry["hidden"] = "not drawn on this card" + (
                "" if is_true(element, ctx) else " (its `when:` is false)"
            )
        entry["uses"] = _uses(element, template, card)
        elements.append(entry)
    return {
        "card": found.card.id,
        "name": found.card.name or found.card.id,
        "which": found.which,
        "label": found.label,
        "template": template.file,
        "size": _mm((0, 0, face.width, face.height))[2:],
        "bleed": round(to_mm(face.bleed), 3),
        "safe": round(to_mm(template.safe), 3),
        "boxes": {name: _mm(box) for name, box in frame.boxes.items()},
        "elements": elements,
        "findings": [f.format() for f in face.findings][:50],
        "px_per_mm": PX_PER_MM,
        # for the page: the template's font families, the card's faces (the face switcher) and
        # the picture's content key (its URL changes exactly when the face does)
        "fonts": list(template.fonts),
        "faces": [label for _, label in sides(studio, found.card)],
        "key": face.picture_key(),
    }


def _inside(element: Element, ctx: dict[str, Any]) -> str:
    value = element.props.get("in")
    return str(value.get(ctx)) if value is not None else "trim"


def _bounds(props: dict[str, Any]) -> list[float]:
    """A line's or polygon's bounding box (its ends or points are in trim space)."""
    if "points" in props:
        xs = [p[0] for p in props["points"]] or [0.0]
        ys = [p[1] for p in props["points"]] or [0.0]
    else:
        xs = [float(props.get("x1") or 0.0), float(props.get("x2") or 0.0)]
        ys = [float(props.get("y1") or 0.0), float(props.get("y2") or 0.0)]
    return _mm((min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))


def _element(studio: Studio, element: Element, n: int, texts: dict[str, Any]) -> dict[str, Any]:
    keys = {}
    for key, value in element.props.items():
        line, column = element.at.get(key, (element.line, element.column))
        raw = value.raw
        keys[key] = {
            "raw": raw if isinstance(raw, (str, int, float, bool)) or raw is None else str(raw),
            "line": line,
            "column": column,
            "computed": value.compiled is not None,
            "key": element.written.get(key, key),  # 'text@fr': the edition's own key
        }
    return {
        "n": n,
        "id": element.id,
        "type": element.type,
        "file": element.file,
        "line": element.line,
        "column": element.column,
        "keys": keys,
        "yaml": _source(studio, element, texts),
        "can": sorted(ELEMENTS.get(element.type, set()) - {"type", "id", "when"}),
    }


def _source(studio: Studio, element: Element, texts: dict[str, Any]) -> str:
    """The element as written in its template file (each file read and composed once)."""
    if element.file not in texts:
        try:
            text = (studio.ws.root / element.file).read_text(encoding="utf-8")
            items = find(compose(text), ("elements",))
        except (OSError, Unexpressible):
            text, items = "", None
        starts = {}
        for node in getattr(items, "value", []):
            starts[(node.start_mark.line + 1, node.start_mark.column + 1)] = node
        texts[element.file] = (text, starts)
    text, starts = texts[element.file]
    node = starts.get((element.line, element.column))
    if node is None:
        return ""
    start = text.rfind("\n", 0, node.start_mark.index) + 1
    return text[start : node.end_mark.index].rstrip()


def _uses(element: Element, template: Template, card: Card | None) -> dict[str, str]:
    """The card's values the element's written values read (through the template's vars too)."""
    texts = [str(v.raw) for v in element.props.values() if isinstance(v.raw, str)]
    seen_vars: set[str] = set()
    names: list[str] = []
    while texts:
        text = texts.pop()
        names += CARD_FIELD.findall(text) + _FIELD_CALL.findall(text)
        for var in _VAR_NAME.findall(text):
            if var not in seen_vars and var in template.vars:
                seen_vars.add(var)
                raw = template.vars[var].raw
                texts.append(str(raw) if raw is not None else "")
    if card is None:
        return {}
    out = {}
    for name in dict.fromkeys(names):
        value = card.id if name == "id" else card.get(name)
        if isinstance(value, list):
            value = ", ".join(map(str, value))
        out[f"card.{name}"] = "" if value is None else str(value)[:200]
    return out


def _blank(studio: Studio) -> Card:
    from ..project.studio import _BLANK

    return _BLANK


def face_png(studio: Studio, face: PreparedFace) -> bytes:
    """The face with its bleed, as the inspector shows it."""
    from ..render.raster import render_pngs

    return next(render_pngs([face], studio.fonts, studio.model, dpi=round(PX_PER_MM * 25.4)))


def template_file(studio: Studio, shown: str) -> Path:
    """The template file an element is written in, as a path inside the workspace's templates/
    (never a link, never outside): the only files the inspector writes."""
    root = (studio.ws.root / "templates").resolve()
    path = studio.ws.root / shown
    try:
        real = path.resolve(strict=True)
    except OSError:
        raise CardgenError(f"{shown} does not exist") from None
    if not real.is_relative_to(root) or path.is_symlink() or not real.is_file():
        raise CardgenError(f"{shown} is not a template file of this workspace")
    if any(p.is_symlink() for p in path.parents if p.is_relative_to(studio.ws.root)):
        raise CardgenError(f"{shown} is reached through a link")
    return real


def parent_size(entry: dict[str, Any], axis: str) -> float:
    """The parent box's width (axis 'h') or height ('v') in millimetres."""
    return float(entry["parent"][2] if axis == "h" else entry["parent"][3])


PLACES = geometry.AXIS

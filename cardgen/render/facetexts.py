"""Turn a prepared face into its texts as drawn: the rectangles each text's glyphs cover (and each
badge's value and label), its ink and printed size, as render.paint lays them (what the contrast
guard measures)."""

from __future__ import annotations

from dataclasses import dataclass

from .fonts import FontSet
from .paint import badge_words, text_lines
from .prepared import Op, PreparedFace
from .values import rgb255

Rect = tuple[float, float, float, float]  # left, top, right, bottom in template space (y down)


@dataclass(frozen=True)
class Text:
    """One text as drawn on a face: its element, where its glyphs stand, its ink and size."""

    n: int  # the element's index in the template
    index: int  # the op's index on the face (what is drawn before it lies beneath it)
    rects: tuple[Rect, ...]
    ink: tuple[int, int, int]
    alpha: float
    size: float
    bold: bool
    what: str  # 'name', or 'badge power's label'


def _bold(stem: str) -> bool:
    return any(w in stem.lower() for w in ("bold", "black", "heavy"))


def face_texts(face: PreparedFace, fonts: FontSet) -> list[Text]:
    """Every text of the face with the rectangles its glyphs cover (capital height over each
    line's baseline), as render.paint lays them."""
    out = []
    for index, op in enumerate(face.ops):
        n = int(op.props.get("_n", -1))
        if op.type == "text" and op.fit is not None and op.family is not None:
            ink = rgb255(op.props.get("color")) or (0, 0, 0)
            alpha = op.props.get("opacity")
            out.append(
                Text(
                    n,
                    index,
                    _text_rects(op, fonts),
                    ink,
                    float(alpha) if alpha not in (None, "") else 1.0,
                    op.fit.layout.size,
                    _bold(op.family.regular),
                    f"'{op.props.get('_id') or 'text'}'",
                )
            )
        elif op.type == "badge":
            out += _badge_texts(op, n, index, face, fonts)
    return [t for t in out if t.rects]


def _text_rects(op: Op, fonts: FontSet) -> tuple[Rect, ...]:
    """The rectangles a text's glyphs cover: capital height over each line's baseline, where
    render.paint draws them (`text_lines`)."""
    assert op.fit is not None and op.family is not None
    cap = fonts.cap_height(op.family.regular, op.fit.layout.size)
    return tuple(
        (x, baseline - cap, x + line.width, baseline)
        for line, x, baseline, _ in text_lines(op)
        if line.width > 0
    )


def _badge_texts(op: Op, n: int, index: int, face: PreparedFace, fonts: FontSet) -> list[Text]:
    """A badge's value and its label, where render.paint draws them (`badge_words`)."""
    x, y, w, h = op.box
    ink = rgb255(op.props.get("color")) or (255, 255, 255)
    name = f"badge '{op.props.get('_id') or 'badge'}'"
    out = []
    text, stem, size, label, lstem, lsize = badge_words(op, face, fonts)
    if text:
        tw, cap = fonts.width(stem, text, size), fonts.cap_height(stem, size)
        cy = y + h / 2 + (h * 0.08 if label else 0)
        rect = (x + (w - tw) / 2, cy - cap / 2, x + (w + tw) / 2, cy + cap / 2)
        out.append(Text(n, index, (rect,), ink, 1.0, size, _bold(stem), f"{name} (its value)"))
    if label:
        tw, cap = fonts.width(lstem, label, lsize), fonts.cap_height(lstem, lsize)
        base = y + h * 0.3
        rect = (x + (w - tw) / 2, base - cap, x + (w + tw) / 2, base)
        out.append(Text(n, index, (rect,), ink, 1.0, lsize, _bold(lstem), f"{name} (its label)"))
    return out

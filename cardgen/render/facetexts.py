"""Turn a prepared face into its texts as drawn: where a fitted text's lines and a badge's words
stand (the one layout render.paint draws), and the rectangles each text's glyphs cover, its ink and
printed size (what the contrast guard measures)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from ..speed.live import is_live
from ..speed.memo import Memo
from . import richtext as rt
from .fonts import FontSet
from .prepared import Op, PreparedFace
from .template import as_length
from .values import rgb255

Rect = tuple[float, float, float, float]  # left, top, right, bottom in template space (y down)


BASELINE = 0.9  # first baseline below the top of a text block, as a fraction of the font size


def text_lines(op: Op) -> list[tuple[rt.Line, float, float, float | None]]:
    """Each line of a fitted text as it is drawn: the line, its left edge and its baseline in
    template space (y down), and the height of the rule drawn above it (None: no rule). The one
    layout of a text's lines: painting and the contrast guard (render.contrast) both read it."""
    assert op.fit is not None
    lay = op.fit.layout
    size, line_h = lay.size, lay.size * lay.leading
    x0, top, w, h = op.box
    valign = op.props.get("valign") or "top"
    if valign == "middle":
        top += max(0.0, (h - lay.height) / 2)
    elif valign == "bottom":
        top += max(0.0, h - lay.height)
    align = op.props.get("align") or "left"
    baseline = top + size * BASELINE
    out: list[tuple[rt.Line, float, float, float | None]] = []
    for i, line in enumerate(lay.lines):
        rule_y = None
        if i > 0:
            baseline += line_h + (size * rt.PARA_GAP if line.paragraph_start else 0.0)
            if lay.rule_after is not None and i == lay.rule_after + 1:
                rule_y = baseline - line_h * 0.5 - size * 0.15
                baseline += size * 0.8
        x = x0 + {"center": (w - line.width) / 2, "right": w - line.width}.get(align, 0.0)
        out.append((line, x, baseline, rule_y))
    return out


def badge_words(
    op: Op, face: PreparedFace, fonts: FontSet
) -> tuple[str, str, float, str, str, float]:
    """A badge's value and label as they are drawn: the value, its font and size (shrunk until it
    fits 86 % of the badge's width), the label, its font and size. The value is centred on the
    badge (lowered by 8 % of its height under a label); the label's baseline is 30 % down it. The
    one layout of a badge's words: painting and the contrast guard (render.contrast) read it."""
    _, _, w, h = op.box
    text = str(op.props.get("text") or "")
    family = face.template.fonts[op.props.get("font") or next(iter(face.template.fonts))]
    stem = family["regular"]
    size = as_length(op.props.get("size"), h * 0.55)
    while size > 4 and fonts.width(stem, text, size) > w * 0.86:
        size -= 0.25
    label = str(op.props.get("label") or "")
    lsize = as_length(op.props.get("label_size"), h * 0.2)
    lstem = face.template.fonts.get(op.props.get("label_font") or "", family)["regular"]
    return text, stem, size, label, lstem, lsize


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


# an op's texts by its key (render.face: the element and all it read, fonts by content) and its
# place on the face: a face laid out again after a template save measures only its changed ops
_TEXTS: Memo[list["Text"]] = Memo(40_000)


def face_texts(face: PreparedFace, fonts: FontSet) -> list[Text]:
    """Every text of the face with the rectangles its glyphs cover (capital height over each
    line's baseline), as render.paint lays them."""
    out: list[Text] = []
    live = is_live()  # a one-off run measures each face once: nothing to remember
    for index, op in enumerate(face.ops):
        if op.type not in ("text", "badge"):
            continue
        if op.key is None or not live:
            out += _op_texts(op, index, face, fonts)
        else:
            made = partial(_op_texts, op, index, face, fonts)
            out += _TEXTS.get((op.key, index, op.props.get("_n")), made)
    return out


def _op_texts(op: Op, index: int, face: PreparedFace, fonts: FontSet) -> list[Text]:
    """The texts one op draws (a text's lines; a badge's value and label) that cover any glyph."""
    n = int(op.props.get("_n", -1))
    if op.type == "badge":
        return [t for t in _badge_texts(op, n, index, face, fonts) if t.rects]
    if op.type != "text" or op.fit is None or op.family is None:
        return []
    alpha = op.props.get("opacity")
    text = Text(
        n,
        index,
        _text_rects(op, fonts),
        rgb255(op.props.get("color")) or (0, 0, 0),
        float(alpha) if alpha not in (None, "") else 1.0,
        op.fit.layout.size,
        _bold(op.family.regular),
        f"'{op.props.get('_id') or 'text'}'",
    )
    return [text] if text.rects else []


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
        rect = label_rect(op.box, fonts.width(lstem, label, lsize), fonts.cap_height(lstem, lsize))
        out.append(Text(n, index, (rect,), ink, 1.0, lsize, _bold(lstem), f"{name} (its label)"))
    return out


def label_rect(box: tuple[float, float, float, float], width: float, cap: float) -> Rect:
    """Where a badge's label of this width and capital height stands: centred, its baseline 30 %
    down the badge (render.paint draws it there)."""
    x, y, w, h = box
    base = y + h * 0.3
    return (x + (w - width) / 2, base - cap, x + (w + width) / 2, base)

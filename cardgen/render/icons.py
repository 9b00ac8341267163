"""Turn cost symbols into reportlab drawings: plain, hybrid or low-ink discs, drawn or as forms."""

from __future__ import annotations

from reportlab.lib.colors import HexColor, white
from reportlab.pdfgen.canvas import Canvas

from ..model.game import GameModel
from . import rl
from .fonts import FontSet
from .lowink import outline as ink_outline
from .pen import ICON_UNIT
from .values import symbol_colours


def draw_icon(
    c: Canvas,
    letter: str,
    cx: float,
    cy: float,
    d: float,
    fonts: FontSet,
    font: str,
    model: GameModel,
    outline: bool = False,
    low_ink: bool = False,
) -> None:
    """A cost symbol: recorded as a use of its form (render.pen) when the face is recorded, else
    drawn."""
    record = getattr(c, "record_icon", None)
    if record is not None:
        record((letter, font, outline, low_ink), cx, cy, d)
        return
    _icon(c, letter, cx, cy, d, fonts, font, model, outline, low_ink)


def define_icon_forms(
    c: Canvas, uses: set[tuple[str, str, bool, bool]], fonts: FontSet, model: GameModel
) -> None:
    """Each cost symbol once as a form (outside any face form: reportlab cannot nest them); faces
    then place it by reference, a few bytes instead of a disc, a letter and their colours every
    time."""
    names: dict[tuple[str, str, bool, bool], str] = {}
    for n, key in enumerate(sorted(uses)):
        letter, font, outline, low = key
        name = f"Icon{n}"
        c.beginForm(name, 0, 0, ICON_UNIT, ICON_UNIT)
        _icon(c, letter, ICON_UNIT / 2, ICON_UNIT / 2, ICON_UNIT, fonts, font, model, outline, low)
        c.endForm()
        names[key] = name
    rl.set_icon_forms(c, names)


def _icon(
    c: Canvas,
    letter: str,
    cx: float,
    cy: float,
    d: float,
    fonts: FontSet,
    font: str,
    model: GameModel,
    outline: bool = False,
    low_ink: bool = False,
) -> None:
    halves = model.cost.halves(letter)
    if low_ink:  # a ring and the letter in the symbol's colour: no filled disc
        fill, _ = symbol_colours(model, halves[0] if halves else letter)
        ring = HexColor(ink_outline(fill.hexval().replace("0x", "#")))
        c.setStrokeColor(ring)
        c.setLineWidth(d * 0.08)
        c.circle(cx, cy, d / 2 - d * 0.04, stroke=1, fill=0)
        size = d * (0.62 if len(letter) == 1 else 0.4 if not halves else 0.34)
        c.setFillColor(ring)
        c.setFont(fonts.name(font), size)
        c.drawCentredString(cx, cy - fonts.cap_height(font, size) / 2, letter)
        return
    if halves:
        _draw_hybrid(c, halves, cx, cy, d, fonts, font, model)
        return
    fill, ink = symbol_colours(model, letter)
    c.setFillColor(fill)
    light = 0.299 * fill.red + 0.587 * fill.green + 0.114 * fill.blue > 0.8
    if light:  # a white symbol would vanish on a light text box: give it a dark rim
        c.setStrokeColor(HexColor("#4a4a4a"))
        c.setLineWidth(d * 0.06)
    elif outline:
        c.setStrokeColor(white)
        c.setLineWidth(d * 0.06)
    c.circle(cx, cy, d / 2, stroke=int(outline or light), fill=1)
    size = d * (0.68 if len(letter) == 1 else 0.5)
    c.setFillColor(ink)
    c.setFont(fonts.name(font), size)
    c.drawCentredString(cx, cy - fonts.cap_height(font, size) / 2, letter)


def _draw_hybrid(
    c: Canvas,
    halves: list[str],
    cx: float,
    cy: float,
    d: float,
    fonts: FontSet,
    font: str,
    model: GameModel,
) -> None:
    """A hybrid symbol ('E/G'): a disc split on the diagonal, each half in its symbol's colour and
    letter."""
    r = d / 2
    for (letter, start), (dx, dy) in zip(
        ((halves[0], 45.0), (halves[1], 225.0)), ((-0.22, 0.2), (0.22, -0.26))
    ):
        fill, ink = symbol_colours(model, letter)
        c.setFillColor(fill)
        c.wedge(cx - r, cy - r, cx + r, cy + r, start, 180, stroke=0, fill=1)
        size = d * (0.42 if len(letter) == 1 else 0.3)
        c.setFillColor(ink)
        c.setFont(fonts.name(font), size)
        c.drawCentredString(
            cx + dx * d, cy + dy * d - fonts.cap_height(font, size) / 2 + size * 0.1, letter
        )
    c.setStrokeColor(white)
    c.setLineWidth(d * 0.05)
    c.line(cx - r * 0.707, cy - r * 0.707, cx + r * 0.707, cy + r * 0.707)

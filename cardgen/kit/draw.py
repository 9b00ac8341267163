"""Turn the kit's drawing needs into canvas calls shared by box nets and token sheets: cut and fold
lines, glue hatching, a face placed at any scale, a label fitted to its room."""

from __future__ import annotations

from typing import Sequence

from reportlab.lib.colors import Color, HexColor, black
from reportlab.pdfgen.canvas import Canvas

from ..core.units import PT_PER_UNIT
from ..render.fonts import FALLBACK, FontSet
from ..render.prepared import PreparedFace

MM = PT_PER_UNIT["mm"]
CUT_WIDTH = 0.5  # pt: solid, black
FOLD_WIDTH = 0.5  # pt: dashed
FOLD_DASH = (2 * MM, 1.5 * MM)
FOLD_GREY = HexColor("#7a7a7a")
GLUE_GREY = HexColor("#b8b8b8")
TITLE_FONT = "Vollkorn-Bold"
LABEL_FONT = "Lato-Bold"
SMALL_FONT = "Lato-Regular"

Point = tuple[float, float]


def path_of(c: Canvas, points: Sequence[Point], scale: float = MM) -> object:
    path = c.beginPath()
    path.moveTo(points[0][0] * scale, points[0][1] * scale)
    for x, y in points[1:]:
        path.lineTo(x * scale, y * scale)
    path.close()
    return path


def cut_lines(c: Canvas, segments: Sequence[tuple[Point, Point]], scale: float = MM) -> None:
    """Solid black lines: where to cut."""
    c.saveState()
    c.setLineWidth(CUT_WIDTH)
    c.setStrokeColor(black)
    c.setLineCap(1)
    for (x1, y1), (x2, y2) in segments:
        c.line(x1 * scale, y1 * scale, x2 * scale, y2 * scale)
    c.restoreState()


def fold_lines(c: Canvas, segments: Sequence[tuple[Point, Point]], scale: float = MM) -> None:
    """Dashed grey lines: where to fold (score them first)."""
    c.saveState()
    c.setLineWidth(FOLD_WIDTH)
    c.setStrokeColor(FOLD_GREY)
    c.setDash(*FOLD_DASH)
    for (x1, y1), (x2, y2) in segments:
        c.line(x1 * scale, y1 * scale, x2 * scale, y2 * scale)
    c.restoreState()


def hatch(c: Canvas, points: Sequence[Point], fonts: FontSet, word: str = "glue") -> None:
    """Diagonal hatching over a glue tab (mm), and the word, so nobody prints art on it."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x1, y1, x2, y2 = min(xs), min(ys), max(xs), max(ys)
    c.saveState()
    c.clipPath(path_of(c, points), stroke=0, fill=0)
    c.setStrokeColor(GLUE_GREY)
    c.setLineWidth(0.4)
    step, h = 3.0, y2 - y1
    k = x1 - h
    while k < x2:  # the diagonal (k + t, y1 + t), kept inside the tab's box
        t1, t2 = max(0.0, x1 - k), min(h, x2 - k)
        if t2 > t1:
            c.line((k + t1) * MM, (y1 + t1) * MM, (k + t2) * MM, (y1 + t2) * MM)
        k += step
    c.restoreState()
    w, h = x2 - x1, y2 - y1
    size = min(7.0, 0.45 * min(w, h) * MM)
    if size >= 4:
        c.saveState()
        c.setFillColor(HexColor("#6b6b6b"))
        c.translate((x1 + w / 2) * MM, (y1 + h / 2) * MM)
        if h > w:
            c.rotate(90)
        label(c, fonts, word.upper(), LABEL_FONT, size, 0, -size / 3, max(w, h) * MM, "centre")
        c.restoreState()


def label(
    c: Canvas,
    fonts: FontSet,
    text: str,
    stem: str,
    size: float,
    x: float,
    y: float,
    room: float,
    align: str = "left",
    least: float = 4.0,
) -> float:
    """Text on one line at (x, y) (points), shrunk to fit `room` wide (not below `least` pt;
    beyond that cut with an ellipsis); a font lacking a character gives way to the fallback.
    Returns the size used."""
    if fonts.missing(stem, text):
        stem = FALLBACK
    while size > least and fonts.width(stem, text, size) > room:
        size -= 0.25
    shown = text
    while len(shown) > 1 and fonts.width(stem, shown, size) > room:
        shown = shown[:-2] + "…"
    c.setFont(fonts.name(stem), size)
    if align == "centre":
        c.drawCentredString(x, y, shown)
    elif align == "right":
        c.drawRightString(x, y, shown)
    else:
        c.drawString(x, y, shown)
    return size


def place_face(c: Canvas, face: PreparedFace, box: tuple[float, float, float, float]) -> None:
    """A defined face (form F<key>) scaled to fit the box (mm: x, y, w, h), centred, clipped to its
    trim."""
    x, y, w, h = box
    scale = min(w * MM / face.width, h * MM / face.height)
    fw, fh = face.width * scale, face.height * scale
    left, bottom = x * MM + (w * MM - fw) / 2, y * MM + (h * MM - fh) / 2
    c.saveState()
    path = c.beginPath()
    path.rect(left, bottom, fw, fh)
    c.clipPath(path, stroke=0, fill=0)
    c.translate(left, bottom)
    c.scale(scale, scale)
    c.translate(-face.bleed, -face.bleed)
    c.doForm(f"F{face.key}")
    c.restoreState()


def ink_for(ground: tuple[int, int, int] | None) -> Color:
    """Black text on a light ground, white on a deep one."""
    if ground is None:
        return black
    r, g, b = ground
    return black if 0.299 * r + 0.587 * g + 0.114 * b > 140 else HexColor("#ffffff")

"""Turn a sheet page's free paper into print marks: crop marks, captions, codes, calibration."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from reportlab.lib.colors import HexColor, black, white
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from ..core.units import to_mm
from . import rl
from .fonts import FontSet
from .geometry import Frame
from .replay import Replayer
from .sheets import MARK_WIDTH, MM, PRINTER_MARGIN, Page, SheetSpec, back_slot
from .stamp import BACK_RAISE, STAMP_SIZE, tab_box, tab_size
from .template import Template
from .templateboxes import fixed_frame

LABEL_FONT = "Lato-Regular"
GREY = HexColor("#6b6b6b")


def _caption_bottom(c: Canvas, fonts: FontSet, page: Page, text: str) -> bool:
    """The whole caption centred in the band below the grid and its marks, 5 mm clear of the paper
    edge."""
    spec, grid = page.spec, page.grid
    top = min(grid.outer[1], grid.trim_box[1] - grid.off_y - grid.mark_y) - 1 * MM
    for size in (6.5, 6.0, 5.5):
        if (
            top - PRINTER_MARGIN >= size
            and stringWidth(text, fonts.name(LABEL_FONT), size)
            <= spec.paper[0] - 2 * PRINTER_MARGIN
        ):
            c.setFont(fonts.name(LABEL_FONT), size)
            c.drawCentredString(spec.paper[0] / 2, PRINTER_MARGIN + 0.25 * size, text)
            return True
    return False


def _caption_sides(c: Canvas, fonts: FontSet, page: Page, parts: list[str]) -> bool:
    """The caption split over the left and right margins, running along the longest stretch between
    marks."""
    spec, grid = page.spec, page.grid
    pw, ph = spec.paper
    x0, _, gw, _ = grid.outer
    stops = sorted(
        {PRINTER_MARGIN, ph - PRINTER_MARGIN}
        | ({y for y in grid.cut_y + grid.fold_y} if grid.mark_x else set())
    )
    start, end = max(zip(stops, stops[1:]), key=lambda s: s[1] - s[0])
    room = end - start - 3 * MM
    cut = min(
        range(1, len(parts) + 1),
        key=lambda i: max(len(" · ".join(parts[:i])), len(" · ".join(parts[i:]))),
    )
    halves = [" · ".join(parts[:cut]), " · ".join(parts[cut:])]
    for size in (6.5, 6.0, 5.5, 5.0):
        if x0 - 1 * MM - 1.05 * size < PRINTER_MARGIN:
            return False
        if all(stringWidth(h, fonts.name(LABEL_FONT), size) <= room for h in halves):
            c.setFont(fonts.name(LABEL_FONT), size)
            for side, half in zip((-1, 1), halves):
                if not half:
                    continue
                c.saveState()
                if side < 0:  # reads bottom to top on the left
                    c.translate(x0 - 1 * MM - 0.25 * size, (start + end) / 2)
                    c.rotate(90)
                else:  # top to bottom on the right
                    c.translate(x0 + gw + 1 * MM + 0.25 * size, (start + end) / 2)
                    c.rotate(-90)
                c.drawCentredString(0, 0, half)
                c.restoreState()
            return True
    return False


def caption(c: Canvas, fonts: FontSet, page: Page, parts: list[str]) -> bool:
    """The page's caption in a margin with room for it, never over a card or a mark, never in the 5
    mm band at the paper's edge that many printers cannot print. False when no margin has room for
    it."""
    c.setFillColor(GREY)
    return _caption_bottom(c, fonts, page, "  ·  ".join(parts)) or _caption_sides(
        c, fonts, page, parts
    )


class CodeTabs:
    """One document's pack codes and versions, each on a white tab so it reads on any ground: on a
    card's back ("back": centred in the `template`'s pack_code box, else near the bottom), or in a
    bottom corner of its front ("right", "left": at that end of the `template`'s stamp box, else
    inside its safe zone): render.stamp's places. Written as operators (one per card of a run:
    thousands on a big sheet); the tab's colours are written once per document, and each tab's
    size and place in its card once per code, side and template (a run prints few codes)."""

    def __init__(self, c: Canvas, fonts: FontSet, text: Replayer | None = None) -> None:
        self.c, self.fonts = c, fonts
        self.text = text or Replayer(c, fonts)
        self.font = fonts.name(LABEL_FONT)
        self._inks: tuple[str, str, str] | None = None
        # (code, side, size, template's id) -> (the words' width, the tab's size, its place, the
        # template, held so that its id stays its own)
        self._tabs: dict[tuple, tuple[float, float, float, tuple[float, float] | None, Any]] = {}
        self._boxes: dict[tuple[float, float, float, float], str] = {}
        self._frames: dict[int, Frame] = {}  # each template's fixed boxes (its id: held in _tabs)

    def draw(
        self,
        code: str,
        trim: tuple[float, float, float, float],
        where: str,
        size: float = STAMP_SIZE,
        template: Template | None = None,
    ) -> None:
        """The tab of `code` on the card whose trim is `trim` (x, y, w, h on the page)."""
        key = (code, where, size, id(template) if template is not None else None)
        found = self._tabs.get(key)
        if found is None:
            words = stringWidth(code, self.font, size)
            w, h = tab_size(words, size)
            place = None
            if template is not None:
                frame = self._frames.get(id(template))
                if frame is None:
                    frame = self._frames[id(template)] = fixed_frame(template)
                place = tab_box(template, w, h, where, frame)[:2]
            found = self._tabs[key] = (words, w, h, place, template)
        words, w, h, place, _ = found
        x, y, tw, th = trim
        if place is not None:
            bx, by = place
            left, bottom = x + bx, y + th - by - h
        else:
            left = {"right": x + tw - w - 1.2 * MM, "left": x + 1.2 * MM}.get(
                where, x + (tw - w) / 2
            )
            bottom = y + (BACK_RAISE if where == "back" else 1.2 * MM)
        if self._inks is None:
            c = self.c
            self._inks = (_ink(c, white, False), _ink(c, GREY, True), _ink(c, black, False))
        paper, edge, ink = self._inks
        box = self._boxes.get((left, bottom, w, h))
        if box is None:
            box = self._boxes[left, bottom, w, h] = _round_box(left, bottom, w, h, 1 * MM)
        tx = left + w / 2 - words / 2
        rl.code(self.c).append(
            f"q\n{paper}\n{edge}\n0.3 w\n{box}\nB*\n{ink}\n"
            f"{self.text.text_code(LABEL_FONT, size, tx, bottom + 0.5 * MM + size * 0.2, code)}\nQ"
        )


def code_tab(
    c: Canvas,
    fonts: FontSet,
    code: str,
    trim: tuple[float, float, float, float],
    where: str,
    size: float = STAMP_SIZE,
    text: Replayer | None = None,
    template: Template | None = None,
) -> None:
    """One code's tab (CodeTabs.draw), for a caller drawing one: a document's many share one
    CodeTabs."""
    CodeTabs(c, fonts, text).draw(code, trim, where, size, template)


def _ink(c: Canvas, colour: Any, stroke: bool) -> str:
    """The operator setting a colour, as the canvas would write it (CMYK on a press canvas)."""
    with rl.captured(c) as lines:
        (c.setStrokeColor if stroke else c.setFillColor)(colour)
    return "\n".join(lines)


def _round_box(x: float, y: float, w: float, h: float, r: float) -> str:
    """A rounded rectangle's path operators, from reportlab's own path object (as canvas.roundRect
    draws it)."""
    path = PDFPathObject()
    path.roundRect(x, y, w, h, r)
    return rl.path_code(path)


def draw_marks(c: Canvas, segs: list[tuple[float, float, float, float]]) -> None:
    if not segs:
        return
    c.saveState()
    c.setLineWidth(MARK_WIDTH)
    c.setStrokeColor(black)
    for seg in segs:
        c.line(*seg)
    c.restoreState()


def _target(c: Canvas, fonts: FontSet, x: float, y: float, scale: bool) -> None:
    """A registration cross; on the back page its arms carry numbered millimetre scales with arrows
    for +x (right) and +y (up), to read how far the back landed from the front's cross."""
    c.setLineWidth(0.3)
    c.circle(x, y, 4 * MM, stroke=1, fill=0)
    c.line(x - 8 * MM, y, x + 8 * MM, y)
    c.line(x, y - 8 * MM, x, y + 8 * MM)
    if not scale:
        return
    for i in range(-7, 8):
        t = (1.6 if i % 5 == 0 else 0.9) * MM
        c.line(x + i * MM, y - t, x + i * MM, y + t)
        c.line(x - t, y + i * MM, x + t, y + i * MM)
    c.setFont(fonts.name(LABEL_FONT), 4.5)
    for i in (-5, 5):  # the long ticks, numbered: below the x scale, left of the y scale
        c.drawCentredString(x + i * MM, y - 3.6 * MM, f"{i:+d}")
        c.drawRightString(x - 2.2 * MM, y + i * MM - 1.5, f"{i:+d}")
    c.setFont(fonts.name(LABEL_FONT), 5.5)
    _arrow(c, x + 8.5 * MM, y, 1, 0)
    c.drawString(x + 12 * MM, y - 2, "+x")
    _arrow(c, x, y + 8.5 * MM, 0, 1)
    c.drawCentredString(x, y + 12.5 * MM, "+y")


def _arrow(c: Canvas, x: float, y: float, dx: int, dy: int) -> None:
    """A 3 mm arrow from (x, y) pointing along (dx, dy)."""
    tip = (x + dx * 3 * MM, y + dy * 3 * MM)
    c.line(x, y, *tip)
    path = c.beginPath()
    path.moveTo(*tip)
    path.lineTo(tip[0] - dx * 1.2 * MM - dy * 0.7 * MM, tip[1] - dy * 1.2 * MM - dx * 0.7 * MM)
    path.lineTo(tip[0] - dx * 1.2 * MM + dy * 0.7 * MM, tip[1] - dy * 1.2 * MM + dx * 0.7 * MM)
    path.close()
    c.drawPath(path, stroke=0, fill=1)


FLIP_BOX = (34 * MM, 14 * MM)


def _flip_box(c: Canvas, fonts: FontSet, x: float, y: float, lines: list[str], fill: str) -> None:
    c.setFillColor(HexColor(fill))
    c.rect(x, y, *FLIP_BOX, stroke=0, fill=1)
    c.setFillColor(white)
    c.setFont(fonts.name(LABEL_FONT), 7)
    for i, text in enumerate(lines):
        c.drawCentredString(x + FLIP_BOX[0] / 2, y + FLIP_BOX[1] - 5 * MM - i * 8.5, text)


def calibration_pages(c: Canvas, fonts: FontSet, spec: SheetSpec) -> None:
    """A front page with a 100 mm ruler, targets and a flip-check box; a back page with numbered
    scales where the targets must land, and two boxes: the one behind the front's box says whether
    the flip mode was right."""
    pw, ph = spec.paper
    points = [
        (pw / 2, ph / 2),
        (pw * 0.2, ph * 0.2),
        (pw * 0.8, ph * 0.2),
        (pw * 0.2, ph * 0.8),
        (pw * 0.8, ph * 0.8),
    ]
    c.setFont(fonts.name(LABEL_FONT), 9)
    c.setFillColor(black)
    c.drawCentredString(
        pw / 2,
        ph - 18 * MM,
        "cardgen calibration — print double-sided at 100 % (no scaling, no fit)",
    )
    c.setFont(fonts.name(LABEL_FONT), 7.5)
    lines = [
        "1. The ruler below must measure exactly 100 mm. If not, your print dialog is scaling the "
        "page.",
        "2. Hold the sheet up to a light. The grey FLIP CHECK box has a box behind it: green means "
        "the flip mode",
        "   is right, red tells you which one to use. Each cross on this side should sit on a "
        "cross of the back side.",
        "3. On the back, read where this side's cross falls on the numbered scale (1 tick = 1 mm, "
        "+ is right / up",
        "   as seen looking at the back), then print with --back-offset DX,DY in mm, with the "
        "opposite signs.",
    ]
    for i, text in enumerate(lines):
        c.drawString(20 * MM, ph - 26 * MM - i * 10, text)
    x0, y0 = (pw - 100 * MM) / 2, ph - 66 * MM  # 100 mm ruler
    c.setLineWidth(0.4)
    c.line(x0, y0, x0 + 100 * MM, y0)
    for i in range(101):
        t = (4 if i % 10 == 0 else 2.5 if i % 5 == 0 else 1.5) * MM
        c.line(x0 + i * MM, y0, x0 + i * MM, y0 + t)
        if i % 10 == 0:
            c.setFont(fonts.name(LABEL_FONT), 6)
            c.drawCentredString(x0 + i * MM, y0 - 3 * MM, str(i))
    c.setStrokeColor(black)
    for x, y in points:
        _target(c, fonts, x, y, scale=False)
    # the flip check: off-centre on both axes, so each flip mode puts its back somewhere else
    box = (pw * 0.62, ph * 0.56, *FLIP_BOX)
    if spec.duplex != "none":
        _flip_box(c, fonts, box[0], box[1], ["FLIP CHECK", "(look through the paper)"], "#8a8a8a")
    c.showPage()
    if spec.duplex == "none":
        return
    c.setFillColor(black)
    c.setFont(fonts.name(LABEL_FONT), 8)
    c.drawCentredString(
        pw / 2,
        ph - 18 * MM,
        f"back side (flip on the {spec.duplex} edge); back offset now "
        f"{to_mm(spec.back_offset[0]):+.1f}, {to_mm(spec.back_offset[1]):+.1f} mm",
    )
    other = "short" if spec.duplex == "long" else "long"
    right = back_slot(box, spec)
    wrong = back_slot(box, replace(spec, duplex=other))
    _flip_box(c, fonts, right[0], right[1], ["FLIP MODE RIGHT", f"{spec.duplex} edge"], "#2e7d32")
    _flip_box(c, fonts, wrong[0], wrong[1], ["WRONG FLIP MODE", f"use --duplex {other}"], "#c0001a")
    for x, y in points:
        bx, by, _, _ = back_slot((x, y, 0, 0), spec)
        c.setStrokeColor(HexColor("#c0001a"))
        c.setFillColor(HexColor("#c0001a"))
        _target(c, fonts, bx, by, scale=True)
    c.setStrokeColor(white)
    c.showPage()

"""Turn faces and copies into print sheets: a centred grid, crop marks in the margins, mirrored duplex backs."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..errors import CardgenError
from ..units import PT_PER_UNIT, to_mm

MM = PT_PER_UNIT["mm"]
MARK_OFFSET = 3 * MM  # crop marks start this far outside the trim (never less than the bleed)
MARK_LENGTH = 5 * MM
MARK_WIDTH = 0.25
PRINTER_MARGIN = 3 * MM  # home printers cannot print closer to the paper edge than about this


@dataclass(frozen=True)
class SheetSpec:
    paper: tuple[float, float]
    card: tuple[float, float]  # trim
    bleed: float
    layout: str = "shared-cut"  # or "gutter"
    gutter: float = 0.0
    crop_marks: bool = True
    duplex: str = "long"  # "long", "short" or "none"
    back_offset: tuple[float, float] = (0.0, 0.0)  # points, applied to back pages only (+x right, +y up)
    calibration: bool = False


@dataclass(frozen=True)
class Slot:
    """One card position: its trim rectangle and the bleed rectangle it may paint (PDF coordinates)."""

    index: int
    trim: tuple[float, float, float, float]
    paint: tuple[float, float, float, float]


@dataclass
class Grid:
    cols: int
    rows: int
    slots: list[Slot]
    cut_x: list[float]
    cut_y: list[float]
    outer: tuple[float, float, float, float]  # painted area of the whole grid (incl. outer bleed)
    mark_x: float  # length of marks in the left/right margins (they mark horizontal cuts)
    mark_y: float  # length of marks in the top/bottom margins (they mark vertical cuts)

    @property
    def per_page(self) -> int:
        return self.cols * self.rows


def _fits(n: int, size: float, bleed: float, gap: float, layout: str) -> float:
    """Width of n cards in a row, including the bleed that is painted."""
    if layout == "gutter":
        return n * (size + 2 * bleed) + (n - 1) * gap
    return n * size + 2 * bleed


def plan_grid(spec: SheetSpec) -> Grid:
    pw, ph = spec.paper
    cw, ch = spec.card
    b, g = spec.bleed, spec.gutter
    offset = max(MARK_OFFSET, b)
    reserve = (offset + 1.5 * MM) if spec.crop_marks else 0.0  # room for at least a short mark
    room_w = pw - 2 * max(PRINTER_MARGIN, reserve - b)
    room_h = ph - 2 * max(PRINTER_MARGIN, reserve - b)
    cols = rows = 0
    while _fits(cols + 1, cw, b, g, spec.layout) <= room_w + 1e-6:
        cols += 1
    while _fits(rows + 1, ch, b, g, spec.layout) <= room_h + 1e-6:
        rows += 1
    if cols == 0 or rows == 0:
        max_bleed = max(0.0, min((room_w - cw) / 2, (room_h - ch) / 2))
        raise CardgenError(
            f"a {to_mm(cw):.1f} x {to_mm(ch):.1f} mm card with {to_mm(b):.1f} mm bleed does not fit on "
            f"{to_mm(pw):.0f} x {to_mm(ph):.0f} mm paper"
            + (f"; it would with bleed ≤ {to_mm(max_bleed):.1f} mm" if max_bleed > 0 else "; use larger paper"))
    gw, gh = _fits(cols, cw, b, g, spec.layout), _fits(rows, ch, b, g, spec.layout)
    x0, y0 = (pw - gw) / 2, (ph - gh) / 2  # centred, so front and back mirror onto each other exactly
    slots: list[Slot] = []
    cut_x: set[float] = set()
    cut_y: set[float] = set()
    for r in range(rows):
        for c in range(cols):
            if spec.layout == "gutter":
                px = x0 + c * (cw + 2 * b + g)
                py = y0 + gh - (r + 1) * (ch + 2 * b) - r * g
                trim = (px + b, py + b, cw, ch)
                paint = (px, py, cw + 2 * b, ch + 2 * b)
            else:
                tx, ty = x0 + b + c * cw, y0 + b + (rows - 1 - r) * ch
                trim = (tx, ty, cw, ch)
                left = b if c == 0 else 0.0
                right = b if c == cols - 1 else 0.0
                bottom = b if r == rows - 1 else 0.0
                top = b if r == 0 else 0.0
                paint = (tx - left, ty - bottom, cw + left + right, ch + top + bottom)
            slots.append(Slot(r * cols + c, trim, paint))
            cut_x.update((round(trim[0], 4), round(trim[0] + cw, 4)))
            cut_y.update((round(trim[1], 4), round(trim[1] + ch, 4)))
    outer = (x0, y0, gw, gh)
    def room(margin: float) -> float:
        return min(MARK_LENGTH, max(0.0, margin + b - offset - PRINTER_MARGIN)) if spec.crop_marks else 0.0

    return Grid(cols, rows, slots, sorted(cut_x), sorted(cut_y), outer, room(x0), room(y0))


def crop_marks(grid: Grid, spec: SheetSpec) -> list[tuple[float, float, float, float]]:
    """Line segments (x1, y1, x2, y2): every cut line gets a mark on both sides, all in the margins."""
    if not spec.crop_marks:
        return []
    x0, y0, gw, gh = grid.outer
    b = spec.bleed
    offset = max(MARK_OFFSET, b)
    trim_left, trim_right = x0 + b, x0 + gw - b
    trim_bottom, trim_top = y0 + b, y0 + gh - b
    segs = []
    if grid.mark_y >= 1.0 * MM:
        for x in grid.cut_x:
            segs.append((x, trim_top + offset, x, trim_top + offset + grid.mark_y))
            segs.append((x, trim_bottom - offset, x, trim_bottom - offset - grid.mark_y))
    if grid.mark_x >= 1.0 * MM:
        for y in grid.cut_y:
            segs.append((trim_left - offset, y, trim_left - offset - grid.mark_x, y))
            segs.append((trim_right + offset, y, trim_right + offset + grid.mark_x, y))
    return segs


def back_slot(rect: tuple[float, float, float, float], spec: SheetSpec) -> tuple[float, float, float, float]:
    """Where a slot's back goes on the following page, for the printer's flip edge."""
    x, y, w, h = rect
    pw, ph = spec.paper
    dx, dy = spec.back_offset
    if spec.duplex == "short":
        return (x + dx, ph - y - h + dy, w, h)
    return (pw - x - w + dx, y + dy, w, h)


@dataclass
class Placement:
    slot: Slot
    front: str  # face key
    back: str | None
    card_id: str


@dataclass
class SheetPlan:
    spec: SheetSpec
    grid: Grid
    pages: list[list[Placement]] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)  # one per page of fronts, e.g. a pack's label

    @property
    def sheets(self) -> int:
        return len(self.pages)


def plan_sheets(items: list[tuple[str, str, str | None]], spec: SheetSpec,
                groups: list[tuple[str, int]] | None = None) -> SheetPlan:
    """Lay (card id, front key, back key) items out page by page. `groups` (label, count) start new pages."""
    grid = plan_grid(spec)
    plan = SheetPlan(spec, grid)
    chunks: list[tuple[str, list[tuple[str, str, str | None]]]] = []
    if groups:
        start = 0
        for label, count in groups:
            chunks.append((label, items[start:start + count]))
            start += count
    else:
        chunks.append(("", items))
    for label, chunk in chunks:
        for p in range(max(1, math.ceil(len(chunk) / grid.per_page))):
            page = chunk[p * grid.per_page:(p + 1) * grid.per_page]
            plan.pages.append([Placement(grid.slots[i], f, bk, cid) for i, (cid, f, bk) in enumerate(page)])
            plan.labels.append(label)
    return plan

"""Turn faces and copies into print sheets: a centred grid, crop marks in the margins, mirrored
duplex backs."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Mapping

from ..core.errors import CardgenError
from ..core.options import Layout
from ..core.units import PT_PER_UNIT, size_name, to_mm

MM = PT_PER_UNIT["mm"]
MARK_OFFSET = 3 * MM  # crop marks start this far outside the trim (never less than the bleed)
MARK_LENGTH = 5 * MM
MARK_MIN = 3 * MM  # a shorter mark is hard to line a ruler up with
MARK_WIDTH = 0.25
PRINTER_MARGIN = 5 * MM  # many home printers cannot print closer to the paper edge than this
GRID_MARGIN = 3 * MM  # a card's outer bleed may reach this close (losing bleed there is harmless)


@dataclass(frozen=True)
class SheetSpec:
    paper: tuple[float, float]
    card: tuple[float, float]  # trim
    bleed: float
    layout: Layout = "shared-cut"
    gutter: float = 0.0
    crop_marks: bool = True
    duplex: str = "long"  # a Duplex; typed str while render/pdfsheets.py flips it as a plain str
    back_offset: tuple[float, float] = (0.0, 0.0)  # points, on back pages only (+x right, +y up)
    calibration: bool = False
    paper_name: str = ""  # as the user gave it ('a4', 'letter'), for messages
    turn: bool = False  # cards lie turned a quarter on the sheet (their long side across)
    all_marks: bool = False  # only a grid with crop marks in all four margins (universal paper)
    limit: tuple[int, int] = (0, 0)  # at most this many columns and rows (0: as many as fit)

    def cell(self) -> tuple[float, float]:
        """What one slot holds on the sheet: a card, or a fold layout's front and back side by
        side; turned, its sides swap."""
        w, h = self.card
        if self.layout == "fold":
            w *= 2
        return (h, w) if self.turn else (w, h)


@dataclass(frozen=True)
class Slot:
    """One card position: its trim rectangle and the bleed rectangle it may paint (PDF
    coordinates)."""

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
    mark_x: float  # length of marks in the left/right margins (they mark horizontal cuts); 0: none
    mark_y: float  # length of marks in the top/bottom margins (they mark vertical cuts); 0: none
    trim_box: tuple[float, float, float, float]  # left, bottom, right, top of the grid's trim
    off_x: float  # how far marks start outside the trim, left/right
    off_y: float
    # a fold layout's fold lines (between each front and the back beside it): x down the sheet,
    # y across it (turned pairs)
    fold_x: list[float] = field(default_factory=list)
    fold_y: list[float] = field(default_factory=list)

    @property
    def per_page(self) -> int:
        return self.cols * self.rows


def _fits(n: int, size: float, bleed: float, gap: float, layout: Layout) -> float:
    """Width of n cards in a row, including the bleed that is painted."""
    if layout == "gutter":
        return n * (size + 2 * bleed) + (n - 1) * gap
    return n * size + 2 * bleed


def plan_grid(spec: SheetSpec) -> Grid:
    pw, ph = spec.paper
    cw, ch = spec.cell()
    b, g = spec.bleed, spec.gutter
    # the grid itself may come as close as 3 mm to the edge (its bleed can be lost there); marks and
    # captions keep PRINTER_MARGIN, and are dropped (with a warning) where the margin has no room
    # for them
    room_w, room_h = pw - 2 * GRID_MARGIN, ph - 2 * GRID_MARGIN

    def fits(
        n: int, size: float, paper: float
    ) -> bool:  # painted area 3 mm, trim 5 mm from the edge
        painted = _fits(n, size, b, g, spec.layout)
        return (
            painted <= paper - 2 * GRID_MARGIN + 1e-6
            and painted - 2 * b <= paper - 2 * PRINTER_MARGIN + 1e-6
        )

    cols = rows = 0
    most_cols, most_rows = spec.limit
    while fits(cols + 1, cw, pw) and (not most_cols or cols < most_cols):
        cols += 1
    while fits(rows + 1, ch, ph) and (not most_rows or rows < most_rows):
        rows += 1
    if cols == 0 or rows == 0:
        trim_fits = cw <= pw - 2 * PRINTER_MARGIN + 1e-6 and ch <= ph - 2 * PRINTER_MARGIN + 1e-6
        max_bleed = max(0.0, min((room_w - cw) / 2, (room_h - ch) / 2)) if trim_fits else 0.0
        raise CardgenError(
            f"a {to_mm(cw):.1f} x {to_mm(ch):.1f} mm card with {to_mm(b):.1f} mm bleed does not "
            "fit on "
            f"{to_mm(pw):.0f} x {to_mm(ph):.0f} mm paper"
            + (
                f"; it would with bleed ≤ {to_mm(max_bleed):.1f} mm"
                if max_bleed > 0
                else "; use larger paper"
            )
        )
    gw, gh = _fits(cols, cw, b, g, spec.layout), _fits(rows, ch, b, g, spec.layout)
    x0, y0 = (
        (pw - gw) / 2,
        (ph - gh) / 2,
    )  # centred, so front and back mirror onto each other exactly
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
    # each margin: marks MARK_MIN..MARK_LENGTH long, 5 mm clear of the paper edge, starting just
    # outside the painted bleed; where that leaves no room, the outer bleed is trimmed (to 1 mm at
    # least) to make some
    trim_box = (x0 + b, y0 + b, x0 + gw - b, y0 + gh - b)
    off_x, mark_x, shown_x = _margin(trim_box[0], b, spec.crop_marks)
    off_y, mark_y, shown_y = _margin(trim_box[1], b, spec.crop_marks)
    outer = (x0 + b - shown_x, y0 + b - shown_y, gw - 2 * (b - shown_x), gh - 2 * (b - shown_y))
    if (shown_x, shown_y) != (b, b):
        slots = [Slot(s.index, s.trim, _clip(s.paint, outer)) for s in slots]
    grid = Grid(
        cols,
        rows,
        slots,
        sorted(cut_x),
        sorted(cut_y),
        outer,
        mark_x,
        mark_y,
        trim_box,
        off_x,
        off_y,
    )
    if spec.layout == "fold":
        folds = sorted({round(s.trim[1 if spec.turn else 0] + spec.card[0], 4) for s in slots})
        (grid.fold_y if spec.turn else grid.fold_x).extend(folds)
    return grid


def plan_marked(spec: SheetSpec) -> tuple[SheetSpec, Grid]:
    """The grid for a spec. A fold layout takes the cards upright or turned, whichever holds more
    (upright on a tie); with `all_marks`, the grid holding the most cards whose four margins all
    have crop marks (else the plain grid, whose missing marks sheet_warnings names)."""
    plain = plan_grid(spec)
    marked = plain.mark_x > 0 and plain.mark_y > 0
    if spec.layout != "fold" and (not spec.all_marks or marked):
        return spec, plain
    best: tuple[SheetSpec, Grid] | None = None
    for turn in (False, True):
        try:
            full = plain if not turn else plan_grid(replace(spec, turn=True))
        except CardgenError:  # turned, it does not fit
            continue
        tried: list[tuple[SheetSpec, Grid | None]] = [(replace(spec, turn=turn), full)]
        if spec.all_marks:
            tried = [
                (replace(spec, turn=turn, limit=(cols, rows)), None)
                for cols in range(full.cols, 0, -1)
                for rows in range(full.rows, 0, -1)
            ]
        for option, grid in tried:
            grid = grid or plan_grid(option)
            if spec.all_marks and not (grid.mark_x > 0 and grid.mark_y > 0):
                continue
            if best is None or grid.per_page > best[1].per_page:
                best = (option, grid)
    return best or (spec, plain)


def _margin(trim_margin: float, bleed: float, marks: bool) -> tuple[float, float, float]:
    """(mark offset from the trim, mark length or 0 for none, outer bleed shown) for one margin."""
    if not marks:
        return 0.0, 0.0, bleed
    room = trim_margin - PRINTER_MARGIN  # between the trim and where the printer stops
    offset = max(MARK_OFFSET, bleed)
    if room - offset >= MARK_MIN - 1e-6:
        return offset, min(MARK_LENGTH, room - offset), bleed
    offset = room - MARK_MIN
    if offset >= min(bleed, 1 * MM) - 1e-6:  # a thinner outer bleed buys the mark its room
        return offset, MARK_MIN, min(bleed, offset)
    return 0.0, 0.0, bleed


def _clip(
    rect: tuple[float, float, float, float], box: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
    x1, y1 = max(rect[0], box[0]), max(rect[1], box[1])
    x2, y2 = min(rect[0] + rect[2], box[0] + box[2]), min(rect[1] + rect[3], box[1] + box[3])
    return (x1, y1, x2 - x1, y2 - y1)


def crop_marks(grid: Grid, spec: SheetSpec) -> list[tuple[float, float, float, float]]:
    """Line segments (x1, y1, x2, y2): every cut line gets a mark on both sides, all in the
    margins."""
    if not spec.crop_marks:
        return []
    trim_left, trim_bottom, trim_right, trim_top = grid.trim_box
    segs = []
    if grid.mark_y > 0:
        for x in grid.cut_x:
            segs.append((x, trim_top + grid.off_y, x, trim_top + grid.off_y + grid.mark_y))
            segs.append((x, trim_bottom - grid.off_y, x, trim_bottom - grid.off_y - grid.mark_y))
    if grid.mark_x > 0:
        for y in grid.cut_y:
            segs.append((trim_left - grid.off_x, y, trim_left - grid.off_x - grid.mark_x, y))
            segs.append((trim_right + grid.off_x, y, trim_right + grid.off_x + grid.mark_x, y))
    return segs


def back_slot(
    rect: tuple[float, float, float, float], spec: SheetSpec
) -> tuple[float, float, float, float]:
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
class Page:
    """One sheet of fronts (and, duplex, its backs): its own grid for its card size, and a label (a
    pack …)."""

    spec: SheetSpec
    grid: Grid
    placements: list[Placement]
    label: str = ""
    code: str = ""  # printed small on every card of the page (a pack's code): cut cards sort


@dataclass
class SheetPlan:
    base: SheetSpec
    pages: list[Page] = field(default_factory=list)

    @property
    def sheets(self) -> int:
        return len(self.pages)

    def grids(self) -> list[tuple[SheetSpec, Grid, int]]:
        """Each card size's (spec, grid, sheets), in the order they first appear."""
        seen: dict[tuple[float, float, float], list] = {}
        for page in self.pages:
            key = (*page.spec.card, page.spec.bleed)
            if key in seen:
                seen[key][2] += 1
            else:
                seen[key] = [page.spec, page.grid, 1]
        return [(s, g, n) for s, g, n in seen.values()]


Item = tuple[str, str, str | None]  # (card id, front face key, back face key)
Size = tuple[tuple[float, float], float]  # (trim width and height, bleed), in points


def plan_sheets(
    items: list[Item],
    base: SheetSpec,
    sizes: Mapping[str, Size] | None = None,
    groups: list[tuple[str, int]] | list[tuple[str, int, str]] | None = None,
) -> SheetPlan:
    """Lay items out page by page: faces of each card size on pages of their own, with that size's
    grid and marks. `sizes` gives each front key's size (default: the base spec's); `groups` (label,
    count) start new pages, e.g. one group per pack; a group's optional third element is a code
    printed on each of its cards."""
    plan = SheetPlan(base)
    grids: dict[Size, tuple[SheetSpec, Grid]] = {}

    def grid_for(size: Size) -> tuple[SheetSpec, Grid]:
        if size not in grids:
            grids[size] = plan_marked(replace(base, card=size[0], bleed=size[1]))
        return grids[size]

    chunks: list[tuple[str, str, list[Item]]] = []
    if groups:
        start = 0
        for group in groups:
            label, count = group[0], group[1]
            chunks.append((label, group[2] if len(group) > 2 else "", items[start : start + count]))  # type: ignore[misc]
            start += count
    else:
        chunks.append(("", "", items))
    default: Size = (base.card, base.bleed)
    for label, code, chunk in chunks:
        by_size: dict[Size, list[Item]] = {}
        for item in chunk:
            by_size.setdefault((sizes or {}).get(item[1], default), []).append(item)
        for size, run in (by_size or {default: []}).items():
            spec, grid = grid_for(size)
            for p in range(max(1, math.ceil(len(run) / grid.per_page))):
                page = run[p * grid.per_page : (p + 1) * grid.per_page]
                plan.pages.append(
                    Page(
                        spec,
                        grid,
                        [
                            Placement(_bled(grid, spec, i, len(page)), f, bk, cid)
                            for i, (cid, f, bk) in enumerate(page)
                        ],
                        label,
                        code,
                    )
                )
    return plan


def _bled(grid: Grid, spec: SheetSpec, i: int, filled: int) -> Slot:
    """Slot `i` of a page holding `filled` cards: a butted card beside an empty slot (right of it
    or below it) paints its bleed on that side too, as on the grid's edge."""
    slot, cols, b = grid.slots[i], grid.cols, spec.bleed
    right = i % cols < cols - 1 and i + 1 >= filled
    below = i // cols < grid.rows - 1 and i + cols >= filled
    if spec.layout == "gutter" or filled >= grid.per_page or not (right or below):
        return slot
    x, y, w, h = slot.paint
    return Slot(slot.index, slot.trim, (x, y - b * below, w + b * right, h + b * below))


def sheet_warnings(plan: SheetPlan) -> list[str]:
    """What this paper and layout cannot give: crop marks 3 mm long and 5 mm clear of the paper
    edge."""
    out = []
    for spec, grid, _ in plan.grids():
        if not spec.crop_marks:
            continue
        missing = [
            what
            for what, length in (
                ("top and bottom (vertical cuts)", grid.mark_y),
                ("left and right (horizontal cuts)", grid.mark_x),
            )
            if length <= 0
        ]
        if missing:
            paper = (
                spec.paper_name
                or f"{to_mm(spec.paper[0]):.0f} x {to_mm(spec.paper[1]):.0f} mm paper"
            )
            out.append(
                f"{size_name(spec.card)} cards, {spec.layout} layout, {paper}: no room for crop "
                "marks "
                f"{to_mm(MARK_MIN):.0f} mm long and {to_mm(PRINTER_MARGIN):.0f} mm from the paper "
                "edge in "
                f"the {' or '.join(missing)} margins, so they have none; cut along the card edges "
                "there, "
                f"or print on paper with more room in those margins"
            )
    return out

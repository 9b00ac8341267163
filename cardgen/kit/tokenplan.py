"""Turn tokens into token sheets' layout: each group of one shape, size and kind in a band of its
own grid (cut marks in the band's margins), bands stacked down a sheet while they fit, so a game's
few tokens of many kinds share sheets."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from ..core.errors import CardgenError
from ..core.options import Paper
from ..render.sheets import Grid, SheetSpec, Slot, plan_marked
from .draw import MM
from .tokens import TOKEN_BLEED, Token, TokenSet

GAP = 2.5 * MM  # between round and hex tokens: room for scissors
CAPTION = 5 * MM  # kept above the bottom margin for the sheet's caption


@dataclass
class Band:
    """One group's tokens on one sheet: its spec (for the whole sheet) and grid (placed)."""

    spec: SheetSpec
    grid: Grid
    tokens: list[Token]


@dataclass
class TokenPage:
    bands: list[Band] = field(default_factory=list)

    @property
    def duplex(self) -> bool:
        return any(b.spec.duplex != "none" for b in self.bands)


def _spec(paper: Paper, token: Token, duplex: bool) -> SheetSpec:
    layout = "fold" if token.fold else "shared-cut" if token.shape == "square" else "gutter"
    return SheetSpec(
        paper.size,
        token.cell,
        TOKEN_BLEED,
        layout,  # type: ignore[arg-type]
        gutter=GAP if layout == "gutter" else 0.0,
        crop_marks=layout != "gutter",
        duplex="long" if duplex else "none",
        paper_name=str(paper),
        all_marks=layout != "gutter",  # squares and fold pairs: always all their cut marks
    )


def _marked(spec: SheetSpec, grid: Grid) -> bool:
    if not spec.crop_marks:
        return True
    return grid.mark_x > 0 and grid.mark_y > 0


def _band(spec: SheetSpec, room: float, count: int) -> tuple[SheetSpec, Grid, float] | None:
    """The lowest band (its height) of at most `room` holding as many of `count` tokens as fit,
    with all its marks; None when not one row fits."""

    def plan(height: float, rows: int) -> tuple[SheetSpec, Grid] | None:
        tried = replace(spec, paper=(spec.paper[0], height), limit=(cols, rows))
        try:
            found, grid = plan_marked(tried)
        except CardgenError:
            return None
        return (found, grid) if grid.rows == rows and _marked(found, grid) else None

    full = None
    try:
        full = plan_marked(replace(spec, paper=(spec.paper[0], room)))
    except CardgenError:
        return None
    found_spec, grid = full
    if not _marked(found_spec, grid):
        return None
    rows = min(grid.rows, math.ceil(count / grid.cols))
    cols = (
        grid.cols if rows > 1 or found_spec.turn else min(grid.cols, count)
    )  # a short row: centred
    low, high = 0.0, room
    best = plan(high, rows)
    if best is None:
        return None
    for _ in range(24):
        middle = (low + high) / 2
        tried = plan(middle, rows)
        if tried is None:
            low = middle
        else:
            high, best = middle, tried
    return best[0], best[1], high


def _shift(grid: Grid, dy: float) -> Grid:
    def rect(r: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        return (r[0], r[1] + dy, r[2], r[3])

    left, bottom, right, top = grid.trim_box
    return replace(
        grid,
        slots=[Slot(s.index, rect(s.trim), rect(s.paint)) for s in grid.slots],
        cut_y=[y + dy for y in grid.cut_y],
        fold_y=[y + dy for y in grid.fold_y],
        outer=rect(grid.outer),
        trim_box=(left, bottom + dy, right, top + dy),
    )


def plan_tokens(found: TokenSet, paper: Paper) -> list[TokenPage]:
    """Bands of tokens down each sheet, in the model's order; a group larger than a sheet goes on
    over the next ones."""
    pw, ph = paper.size
    groups: dict[tuple, list[Token]] = {}
    for token in found.tokens:
        key = (token.shape, token.cell, token.fold, token.back is not None and not token.fold)
        groups.setdefault(key, []).extend([token] * token.copies)
    pages: list[TokenPage] = [TokenPage()]
    top = ph  # where the next band starts, from the bottom
    for (_, _, _, duplex), items in groups.items():
        spec = _spec(paper, items[0], duplex)
        while items:
            made = _band(spec, top - CAPTION, len(items))
            if made is None and pages[-1].bands:
                pages.append(TokenPage())
                top = ph
                continue
            if made is None:
                w, h = spec.card
                raise CardgenError(
                    f"a {w / MM:.0f} x {h / MM:.0f} mm token ({items[0].name}) does not fit on "
                    f"{paper} with its cut marks"
                )
            band_spec, grid, height = made
            taken, items = items[: grid.per_page], items[grid.per_page :]
            grid = _shift(grid, top - height)
            pages[-1].bands.append(Band(replace(band_spec, paper=(pw, ph)), grid, taken))
            top -= height
    return [p for p in pages if p.bands]

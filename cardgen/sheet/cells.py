"""Turn findings about card values into findings that also name the sheet cell each value came from
('cards.xlsx:Spells!D14'), from the small record a pull keeps of which cell holds which field."""

from __future__ import annotations

import bisect
import json
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from ..core.errors import CardgenError, Finding
from ..core.output import write_record
from ..load.card import Catalog

# output/GAME/sheet-cells.json, written by each pull: {"source": shown, "cells": {id: {field:
# cell}}}. A record, not a cache: --no-cache reads and writes it alike, so findings name the same
# cells either way. Plain JSON, read as strings only (a forged one can only mislabel cells, and
# Finding.format escapes what it prints).
RECORD = "sheet-cells.json"


class _Loaded(Protocol):
    catalog: Catalog


def save_cells(output_dir: Path, source: str, cells: dict[str, dict[str, str]]) -> bool:
    """Keep which cell holds which card field, for annotate_cells (False when it cannot be
    written: findings then name no cells)."""
    return write_record(output_dir / RECORD, {"source": source, "cells": cells})


def load_cells(output_dir: Path) -> dict[str, dict[str, str]]:
    try:
        got = json.loads((output_dir / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(got, dict) or not isinstance(got.get("cells"), dict):
        return {}
    cells: dict[str, dict[str, str]] = {}
    for card, fields in got["cells"].items():
        if isinstance(card, str) and isinstance(fields, dict):
            cells[card] = {
                k: v for k, v in fields.items() if isinstance(k, str) and isinstance(v, str)
            }
    return cells


def annotate_cells(
    loaded: Any, findings: list[Finding], cells: dict[str, dict[str, str]] | None = None
) -> list[Finding]:
    """The findings, each about a value that came from the sheet last pulled carrying that value's
    cell: a finding's file and line are matched to the card field whose value stands there (a
    finding about a whole card names its row's first cell). `loaded` is a LoadedGame or a
    CheckResult (anything with a catalog and, for the record, a workspace and game)."""
    if cells is None:
        ws = getattr(loaded, "workspace", None) or getattr(
            getattr(loaded, "loaded", None), "workspace", None
        )
        game = getattr(loaded, "game", None) or getattr(
            getattr(loaded, "loaded", None), "game", None
        )
        if ws is None or game is None:
            return findings
        cells = load_cells(ws.shared_dir(game))
    if not cells:
        return findings
    index: dict[str, tuple[list[int], list[tuple[str, str]]]] = {}
    entries: dict[str, list[tuple[int, str, str]]] = {}
    for card in loaded.catalog.written or loaded.catalog:  # per-language values have cells too
        mine = cells.get(card.id)
        if not mine:
            continue
        spots = entries.setdefault(card.file, [])
        spots.append((card.line, card.id, ""))
        for name, (line, _col) in card.field_locs.items():
            if name in mine:
                spots.append((line, card.id, name))
    for file, spots in entries.items():
        spots.sort()
        index[file] = ([s[0] for s in spots], [(s[1], s[2]) for s in spots])
    out = []
    for f in findings:
        if f.cell is None and f.file in index and f.line:
            lines, what = index[f.file]
            i = bisect.bisect_right(lines, f.line) - 1
            if i >= 0:
                card, name = what[i]
                if f.card in (None, card):
                    # a finding about one field (a required one left empty has no line of its
                    # own) names that field's cell
                    about = (f.about or "").removeprefix("fields.")
                    if f.about and f.card == card and f.about != about and about in cells[card]:
                        name = about
                    cell = cells[card].get(name) or cells[card].get("")
                    if cell:
                        f = replace(f, cell=cell)
        out.append(f)
    return out


def cells_from_sheet(loaded: Any, source: str, shown: str) -> dict[str, dict[str, str]]:
    """Which cell holds which card field, worked out from the sheet itself (the game's declared
    sheet) instead of the record a pull keeps: for annotate_cells(..., cells=…) where no record may
    be read (--no-cache). A sheet that cannot be read gives no cells."""
    from .pull import plan_pull
    from .read import read_tables
    from .settings import sheet_settings
    from .source import read_sources

    ws, game, model = loaded.workspace, loaded.game, loaded.model
    if model is None:
        return {}
    try:
        tables, _ = read_tables(source, shown)
    except CardgenError:
        return {}
    sources, _ = read_sources(ws, game, loaded.catalog.written or loaded.catalog, loaded.findings)
    cards_dir = ws.cards_dir(game)
    plan = plan_pull(
        [t for t in tables if t.name != "_lists"],
        sources,
        model,
        sheet_settings(model),
        cards_dir,
        ws.shown(cards_dir),
    )
    return plan.cells

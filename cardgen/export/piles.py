"""Turn cards into Tabletop Simulator supply piles: one deck per pile (cards grouped by name or by a
declared field), laid out in a grid on the table, the piles a `where` clause sets apart (the basics)
in a block of their own, the cards' `also:` faces (randomizers) a deck each in a row; deck sheets
shared by the piles of one back and size, double-sided cards each with its own back."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from ..model.game import GameModel, matches
from ..project.studio import Studio
from .common import ExportItem, ExportResult
from .ttsparts import _describe, _transform, back_group, deck_sheets, saved_file

# How far apart piles lie on the table, in Tabletop Simulator's units, per card of poker size
# (scale 1): the decks `tts` writes without piles lie 3 units apart, and a poker card is 1.4 times
# as long as it is wide.
PITCH_X, PITCH_Z = 3.0, 4.2
MAX_COLUMNS = 50


@dataclass(frozen=True)
class PileSpec:
    """`tts: piles:` in game.yaml: what makes a pile, which piles lie apart, piles per row."""

    by: str = "name"  # 'name', 'id' or a field: the cards of one pile share its value
    apart: dict[str, Any] = field(default_factory=dict)  # a where clause: the basics
    columns: int | None = None  # piles per row (default: the square root of their number)


def pile_spec(model: GameModel) -> PileSpec | None:
    """The model's `tts: piles:` (None when the game declares no piles: one deck per section, back
    and size, as before). Read defensively: until the model declares the section, a value of the
    wrong shape means its default."""
    section = getattr(model, "tts", None)
    piles = section.get("piles") if isinstance(section, dict) else None
    if piles is True:
        return PileSpec()
    if not isinstance(piles, dict):
        return None
    by = piles.get("by")
    apart = piles.get("apart")
    columns = piles.get("columns")
    return PileSpec(
        by if isinstance(by, str) and by.strip() else "name",
        dict(apart) if isinstance(apart, dict) else {},
        columns
        if isinstance(columns, int) and not isinstance(columns, bool) and columns >= 1
        else None,
    )


def pile_of(spec: PileSpec, item: ExportItem) -> str:
    """The pile a card goes on: its value of the `by` field (a card without one: its own name)."""
    card = item.card
    if spec.by == "id":
        value: Any = card.id
    elif spec.by == "name":
        value = card.name or card.id
    else:
        value = card.get(spec.by)
        if isinstance(value, list):
            value = " ".join(map(str, value))
    text = str(value).strip() if value is not None else ""
    return text or card.name or card.id


def grid(n: int, columns: int | None) -> list[tuple[int, int]]:
    """(column, row) of n piles in rows of `columns` (default: the square root, rounded up)."""
    cols = min(columns or max(1, math.ceil(math.sqrt(n))), MAX_COLUMNS)
    return [(i % cols, i // cols) for i in range(n)]


def export_piles(
    studio: Studio,
    items: list[ExportItem],
    image_url: Callable[[str], str],
    spec: PileSpec,
) -> ExportResult:
    """One deck per pile, on a grid: the piles `apart` selects in a block beyond the others, the
    cards' `also:` faces (randomizers) a deck per template in a row of their own before them.
    Double-sided cards keep their own backs (UniqueBack, a back sheet)."""
    result = ExportResult("tts")
    model = studio.model
    if spec.by not in ("name", "id") and spec.by not in model.fields:
        result.problems.append(
            f"tts: piles: by names '{spec.by}', which is not a field of the model (fields: "
            f"{', '.join(model.fields)}); piles are made by 'name', 'id' or a field"
        )
        return result
    # the deck sheets: each face once, on the sheets of its back (or of its second template, each
    # card with its own back) and size
    sheets: dict[tuple[str, tuple[float, float]], list[ExportItem]] = {}
    for item in items:
        group = sheets.setdefault(
            (back_group(studio, item), (item.front.width, item.front.height)), []
        )
        if all((o.card.id, o.side) != (item.card.id, item.side) for o in group):
            group.append(item)
    sizes = len({size for _, size in sheets})
    slot: dict[tuple[str, str, str], tuple[str, int]] = {}  # (sheet group, id, side) -> its slot
    custom: dict[str, dict[str, Any]] = {}
    next_key = 1
    for (group_key, _), group in sheets.items():
        back_face = group[0].back
        label = "-".join(
            x
            for x in (
                back_face.template.name if back_face else "deck",
                group[0].front.template.name if sizes > 1 else "",
            )
            if x
        )
        made = deck_sheets(studio, group, label, group_key.startswith("own:"), image_url, next_key)
        next_key += len(made.custom)
        result.files += made.files
        custom.update(made.custom)
        for item, at in zip(group, made.slots):
            slot[(group_key, item.card.id, item.side)] = at
    # the piles: by section, back and size, and by value (an `also:` face: by its template), in
    # the order of the print run
    piles: dict[PileKey, list[ExportItem]] = {}
    for item in items:
        value = item.side or pile_of(spec, item)
        size = (item.front.width, item.front.height)
        piles.setdefault((item.section, back_group(studio, item), size, value), []).append(item)
    others = [k for k, its in piles.items() if its[0].side]
    apart = [
        k
        for k, its in piles.items()
        if k not in others and spec.apart and any(_apart(spec, i) for i in its)
    ]
    rest = [k for k in piles if k not in apart and k not in others]
    where = layout(rest, apart, others, spec.columns)
    objects = []
    for k in rest + apart + others:
        section, group_key, (w_pt, h_pt), value = k
        contained, deck_ids, decks = [], [], {}
        for item in piles[k]:
            key, i = slot[(group_key, item.card.id, item.side)]
            decks[key] = custom[key]
            for _ in range(item.copies):
                deck_ids.append(int(key) * 100 + i)
                contained.append(
                    {
                        "Name": "CardCustom",
                        "Nickname": item.card.name or item.card.id,
                        "Description": _describe(studio, item),
                        "CardID": int(key) * 100 + i,
                        "CustomDeck": {key: custom[key]},
                        "Transform": _transform(0, w_pt, h_pt, face_up=True),
                    }
                )
        x, z = where[k]
        transform = {**_transform(x, w_pt, h_pt, face_up=True), "posZ": z}  # a supply: face up
        if len(contained) == 1:  # a pile of one card is a card in Tabletop Simulator
            objects.append({**contained[0], "Transform": transform})
            continue
        objects.append(
            {
                "Name": "DeckCustom",
                "Nickname": f"{value} cards"
                if piles[k][0].side
                else value
                if section == "main"
                else f"{value} ({section})",
                "Description": f"{len(contained)} cards · made with cardgen",
                "Transform": transform,
                "DeckIDs": deck_ids,
                "CustomDeck": decks,
                "ContainedObjects": contained,
            }
        )
    result.files.append(saved_file(studio, objects))
    by = "name" if spec.by in ("name", "id") else f"their {spec.by}"
    result.notes.append(
        f"{len(piles) - len(others)} piles (cards by {by}) on the table: {len(rest)} in a grid"
        + (f", {len(apart)} set apart beyond them" if apart else "")
        + (
            f"; {len(others)} deck{'s' * (len(others) != 1)} of also: faces "
            f"({', '.join(k[3] for k in others)}) in a row before them"
            if others
            else ""
        )
    )
    result.notes.append(
        "images are linked as local files (only you see them in multiplayer): upload them and "
        "export again with --image-base URL for a table others can join"
    )
    return result


PileKey = tuple[str, str, tuple[float, float], str]  # section, sheet group, size, value


def layout(
    rest: list[PileKey], apart: list[PileKey], others: list[PileKey], columns: int | None
) -> dict[PileKey, tuple[float, float]]:
    """Where each pile lies (posX, posZ): the piles in a grid centred on the table, the piles set
    apart in a grid beyond them (larger posZ) and the decks of `also:` faces in a row before them
    (smaller posZ), half a pile's length between the blocks; spaced by the largest card."""
    every = rest + apart + others
    scale_x = max(w / 180.0 for _, _, (w, _), _ in every)
    scale_z = max(h / 252.0 for _, _, (_, h), _ in every)
    pitch_x, pitch_z = PITCH_X * scale_x, PITCH_Z * scale_z
    where: dict[PileKey, tuple[float, float]] = {}
    rest_cells = grid(len(rest), columns)
    rest_rows = 1 + max((r for _, r in rest_cells), default=-1)
    apart_cells = grid(len(apart), columns)
    apart_rows = 1 + max((r for _, r in apart_cells), default=-1)
    other_cells = [(i, 0) for i in range(len(others))]
    for keys, cells, block in (
        (rest, rest_cells, "rest"),
        (apart, apart_cells, "apart"),
        (others, other_cells, "others"),
    ):
        cols = 1 + max((c for c, _ in cells), default=0)
        for k, (c, r) in zip(keys, cells):
            x = (c - (cols - 1) / 2) * pitch_x
            if block == "apart":  # beyond the others, half a pile's length between the blocks
                z = (apart_rows - r + 0.5) * pitch_z
            elif block == "others":  # a row before the grid, as far from it
                z = -(rest_rows + 0.5) * pitch_z
            else:
                z = -r * pitch_z
            where[k] = (round(x, 4), round(z, 4))
    return where


def _apart(spec: PileSpec, item: ExportItem) -> bool:
    return matches(spec.apart, item.card.data)

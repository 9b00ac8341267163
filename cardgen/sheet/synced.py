"""Turn a push or a pull into the record of what a sheet and the card files last agreed on
(output/GAME/sheet-synced.json), and each cell a later pull reads into what it does: take the
sheet's value, keep the card file's newer one, or stop at a conflict.

Without the record a pull could not tell an old value in the sheet from a new one: a value edited in
the YAML after the push went back to the sheet's. A record, not a cache: `--no-cache` reads and
writes it alike. Plain JSON, read as strings only and bounded: a forged one can only make a pull
keep a card's value or stop at a conflict, never write anything the sheet does not hold."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from ..core.errors import Severity
from ..core.output import write_record
from ..load.card import Card
from ..model.game import GameModel
from .columns import canon, to_cell
from .plan import PullPlan, card_finding
from .source import CardFile

RECORD = "sheet-synced.json"
MOST = 64 << 20  # bytes: a larger record is no record cardgen wrote, and is not read
FORMAT = 1
TAKE, KEEP, CONFLICT = "take", "keep", "conflict"


def agreed_values(
    sources: list[CardFile], model: GameModel, separator: str
) -> dict[str, dict[str, str]]:
    """What a push writes of each card's fields, as text (an empty value as ''): the values the
    sheet and the card files agree on once it is written. A card whose id is not its own (two
    cards with one id) is left out: which of them a row stands for is not known."""
    out: dict[str, dict[str, str]] = {}
    for source in sources:
        for sc in source.cards:
            data = sc.card.data
            names = [*model.fields, *(k for k in data if k not in model.fields)]
            out[sc.card.id] = {n: canon(to_cell(data.get(n), separator)[0]) for n in names}
    return only_unique(out, sources)


def only_unique(
    values: dict[str, dict[str, str]], sources: list[CardFile]
) -> dict[str, dict[str, str]]:
    """`values` less the cards whose id two cards share."""
    seen = Counter(sc.card.id for source in sources for sc in source.cards)
    return {card: fields for card, fields in values.items() if seen[card] <= 1}


def load_synced(output_dir: Path, source: str) -> dict[str, dict[str, str]] | None:
    """What the sheet `source` (as findings name it) and the card files last agreed on; None when
    cardgen has no record of it (a sheet of the designer's own, never pushed or pulled here)."""
    sheets = _read(output_dir)
    return sheets.get(source)


def save_synced(output_dir: Path, source: str, values: dict[str, dict[str, str]]) -> bool:
    """Keep what the sheet `source` and the card files now agree on, beside the other sheets'
    records (False when it cannot be written: the next pull then takes the sheet's values)."""
    sheets = _read(output_dir)
    sheets[source] = values
    return write_record(output_dir / RECORD, {"format": FORMAT, "sheets": sheets})


def _read(output_dir: Path) -> dict[str, dict[str, dict[str, str]]]:
    path = output_dir / RECORD
    try:
        if path.stat().st_size > MOST:
            return {}
        got = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(got, dict) or got.get("format") != FORMAT:
        return {}
    sheets = got.get("sheets")
    out: dict[str, dict[str, dict[str, str]]] = {}
    for name, cards in sheets.items() if isinstance(sheets, dict) else []:
        if isinstance(name, str) and isinstance(cards, dict):
            out[name] = {
                card: {k: v for k, v in fields.items() if isinstance(v, str)}
                for card, fields in cards.items()
                if isinstance(card, str) and isinstance(fields, dict)
            }
    return out


def verdict(then: str | None, sheet: str, card: str) -> str:
    """What a pull does with a cell: TAKE the sheet's value when the card file has not changed
    since they agreed on `then` (or there is no record); KEEP the card file's when only it changed;
    a CONFLICT when both changed, to different values."""
    if then is None or card == then or sheet == card:
        return TAKE
    return KEEP if sheet == then else CONFLICT


def judge(
    plan: PullPlan, card: Card, name: str, cell: Any, existing: Any, ref: str, separator: str
) -> bool:
    """Whether the pull goes on with this cell: a value kept or in conflict is a finding (an info,
    an error that stops the pull) and is not written; what the two then agree on is noted in
    `plan.agreed` either way."""
    then = plan.synced.get(card.id, {}).get(name) if plan.synced is not None else None
    sheet, ours = canon(cell), canon(to_cell(existing, separator)[0])
    said = verdict(then, sheet, ours)
    plan.agreed.setdefault(card.id, {})[name] = sheet if said == TAKE else str(then)
    if said == KEEP:
        plan.findings.append(
            card_finding(
                card,
                Severity.INFO,
                "sheet-kept",
                f"'{name}' kept as the card file has it ({_short(ours)}): it changed there since "
                f"the sheet was last pushed or pulled, and the sheet still shows {_short(sheet)}",
                ref,
                "push again to bring the sheet up to date",
            )
        )
    elif said == CONFLICT:
        plan.findings.append(
            card_finding(
                card,
                Severity.ERROR,
                "sheet-conflict",
                f"'{name}' changed in the sheet ({_short(sheet)}) and in the card file "
                f"({_short(ours)}) since they last agreed ({_short(str(then))})",
                ref,
                "make them agree (edit the cell or the card file), then pull again",
            )
        )
    return said == TAKE


def _short(text: str) -> str:
    text = text.replace("\n", " ")
    return repr(text if len(text) <= 40 else text[:39] + "…") if text else "empty"

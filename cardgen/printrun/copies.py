"""Turn a copies choice (one, collation for N players, or a deck list) into (card, count) pairs,
with findings for a bad list and the arithmetic of counts that grow with the players."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import Finding
from ..load.card import Card, Catalog
from ..model.game import GameModel


def deck_copies(
    path: Path, shown: str, catalog: Catalog, model: GameModel
) -> tuple[list[tuple[Card, int]], list[Finding]]:
    """Every card a deck list names (in the model's dialect, every section), with its count, for
    printing."""
    from ..load.decklist import read_deck
    from ..validate.decks import dialect_for, resolve

    resolved, findings = resolve(read_deck(path, shown, dialect_for(model)), catalog)
    out: dict[str, list] = {}
    for e, card in resolved:
        if e.count > 0:
            out.setdefault(card.id, [card, 0])[1] += e.count
    return [(card, n) for card, n in out.values()], findings


def collation_run(
    catalog: Catalog, model: GameModel, players: int | None = None
) -> tuple[list[tuple[Card, int]], list[str]]:
    """The collation's print run for `players` players (default: the model's draft.players, else
    game.players' most, else 1) and, when some cards' copies grow with the players, one summary
    line of the arithmetic ('print run for 4 players: 40 Coin = 7 × 4 players + 12 in the supply;
    …')."""
    from ..model.collation import counted_run, run_arithmetic

    counted = counted_run(catalog, model, players)
    sums = run_arithmetic(counted)
    notes = []
    if sums:
        seats = counted[0].players
        notes.append(
            f"print run for {seats} player{'s' * (seats != 1)} (--players N for another number): "
            + "; ".join(sums)
        )
    return [(c.card, c.copies) for c in counted], notes

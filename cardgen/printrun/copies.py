"""Turn a copies choice (one, collation, or a deck list) into (card, count) pairs, with findings for a bad list."""
from __future__ import annotations

from pathlib import Path

from ..core.errors import Finding
from ..load.card import Card, Catalog
from ..model.game import GameModel


def deck_copies(path: Path, shown: str, catalog: Catalog, model: GameModel) -> tuple[list[tuple[Card, int]],
                                                                                  list[Finding]]:
    """Every card a deck list names (in the model's dialect, every section), with its count, for printing."""
    from ..load.decklist import read_deck
    from ..validate.decks import dialect_for, resolve

    resolved, findings = resolve(read_deck(path, shown, dialect_for(model)), catalog)
    out: dict[str, list] = {}
    for e, card in resolved:
        if e.count > 0:
            out.setdefault(card.id, [card, 0])[1] += e.count
    return [(card, n) for card, n in out.values()], findings

"""Turn a model's collation and a catalog into the print run: each card with its number of copies."""
from __future__ import annotations

from ..load.card import Card, Catalog
from .game import GameModel, RarityCount, Role, assign_groups


def collation_copies(model: GameModel, card: Card, group_rarities: dict[str, RarityCount],
                     group_copies: int | None) -> int:
    rarity = str(model.role_value(card, Role.RARITY) or "").lower()
    for name, counts in group_rarities.items():
        if name.lower() == rarity and counts.copies is not None:
            return counts.copies
    return group_copies if group_copies is not None else 1


def print_run(catalog: Catalog, model: GameModel) -> list[tuple[Card, int]]:
    """One print run as the collation describes it, group by group in the model's order, then every design
    no group selects, once (the validator names them: nothing is left out silently). A group with 0 copies
    prints none of its designs, on purpose. A game without a collation prints each design once."""
    groups = assign_groups(catalog, model.collation)
    rank = {id(g): i for i, g in enumerate(model.collation)}
    seen: set[str] = set()
    out = []
    for card in sorted(catalog, key=lambda c: (rank.get(id(groups[c.order]), len(rank)), c.order)):
        if card.id in seen:
            continue
        seen.add(card.id)
        group = groups[card.order]
        copies = 1 if group is None else collation_copies(model, card, group.rarities, group.copies)
        if copies > 0:
            out.append((card, copies))
    return out

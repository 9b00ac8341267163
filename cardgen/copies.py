"""Turn a copies choice (one, collation, or a deck list) into (card, count) pairs, with findings for a bad list."""
from __future__ import annotations

import re
from pathlib import Path

from .errors import CardgenError, Finding, Severity, did_you_mean
from .model.card import Card, Catalog
from .model.game import GameModel, RarityCount
from .validate.setwide import assign_groups

DECK_LINE = re.compile(r"^\s*(?:-\s*)?(\d+)\s*[xX×]?\s+(.+?)\s*$")


def collation_copies(model: GameModel, card: Card, group_rarities: dict[str, RarityCount],
                     group_copies: int | None) -> int:
    rarity = str(card.get("rarity") or "").lower()
    for name, counts in group_rarities.items():
        if name.lower() == rarity and counts.copies is not None:
            return counts.copies
    return group_copies if group_copies is not None else 1


def print_run(catalog: Catalog, model: GameModel) -> list[tuple[Card, int]]:
    """One print run as the collation describes it, group by group in the model's order; cards in no group
    are left out (the validator says so)."""
    groups = assign_groups(catalog, model.collation)
    rank = {id(g): i for i, g in enumerate(model.collation)}
    seen: set[str] = set()
    out = []
    for card in sorted(catalog, key=lambda c: (rank.get(id(groups[c.order]), len(rank)), c.order)):
        group = groups[card.order]
        if group is None or card.id in seen:
            continue
        seen.add(card.id)
        out.append((card, collation_copies(model, card, group.rarities, group.copies)))
    return out


def read_deck_list(path: Path, shown: str, catalog: Catalog) -> tuple[list[tuple[Card, int]], list[Finding]]:
    """A plain deck list: '3 Name' or '3x Name' per line, '#' comments, other lines as section headers."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CardgenError(f"cannot read deck list {shown}: {exc}") from exc
    out: list[tuple[Card, int]] = []
    findings: list[Finding] = []
    names = [c.name for c in catalog if c.name]
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].rstrip()
        m = DECK_LINE.match(line)
        if not m:
            continue
        count, name = int(m.group(1)), m.group(2)
        card = catalog.find(name)
        if card is None:
            findings.append(Finding(shown, n, 1, Severity.ERROR, "deck-unknown-card", None,
                                    f"no card named '{name}'", did_you_mean(name, names)))
        elif count > 0:
            out.append((card, count))
    return out, findings

"""Turn the collation and the cards into findings about its counts: designs per rarity, cards per
group, cards no group selects."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import replace
from typing import Iterator

from ..core.errors import Finding, Severity
from ..load.card import Card, Catalog
from ..model.collation import card_count
from ..model.game import Role, assign_groups
from . import Context, set_check


@set_check("collation")
def check_collation(catalog: Catalog, ctx: Context) -> Iterator[Finding]:
    """The collation's counts against the cards, tagged as depending on the collation (or, for
    rarity counts without a rarity field, on the field whose role is missing)."""
    rarity = "collation" if ctx.model.role_field(Role.RARITY) else ctx.model.about_role(Role.RARITY)
    for f in _collation(catalog, ctx):
        rarity_based = f.code in ("collation-designs", "collation-no-rarity")
        yield f if f.about else replace(f, about=rarity if rarity_based else "collation")


def _collation(catalog: Catalog, ctx: Context) -> Iterator[Finding]:
    groups = ctx.model.collation
    if not groups:
        return
    assigned = assign_groups(catalog, groups)
    members: dict[str, list[Card]] = defaultdict(list)
    seen_ids: set[str] = set()
    for card in catalog:
        if card.id in seen_ids:
            continue  # a duplicate id is one design, reported elsewhere
        seen_ids.add(card.id)
        group = assigned[card.order]
        if group is not None:
            members[group.name].append(card)
            if group.copies == 0 and not group.rarities:
                yield ctx.at(
                    card,
                    None,
                    Severity.INFO,
                    "not-in-print-run",
                    f"not printed: collation group '{group.name}' has 0 copies",
                )
        elif card_count(ctx.model, card, Role.COPIES) is None and not card_count(
            ctx.model, card, Role.PER_PLAYER
        ):  # its own count prints it, and so do the copies each player gets
            yield ctx.at(
                card,
                None,
                Severity.WARNING,
                "not-in-collation",
                "no collation group selects this card: the print run has it once, outside the "
                "collation's "
                "counts",
                "add a group for it, or one with copies: 0 to leave it out on purpose",
            )
    for group in groups:
        cards = members.get(group.name, [])
        if group.rarities:
            rarity = ctx.model.role_field(Role.RARITY) or ""
            by_rarity = Counter(
                str(c.get(rarity)).lower()
                if c.get(rarity) and not ctx.is_placeholder(c.get(rarity))
                else ""
                for c in cards
            )
            for rarity, want in group.rarities.items():
                have = by_rarity.get(rarity.lower(), 0)
                if want.designs is not None and have != want.designs:
                    yield ctx.at_model(
                        group.loc,
                        Severity.WARNING,
                        "collation-designs",
                        f"{group.name}: {have} {rarity} designs, the collation expects "
                        f"{want.designs}",
                    )
            if by_rarity.get(""):
                yield ctx.at_model(
                    group.loc,
                    Severity.WARNING,
                    "collation-no-rarity",
                    f"{group.name}: {by_rarity['']} of {len(cards)} designs have no rarity",
                )
        elif group.copies is None and group.cards is not None and len(cards) != group.cards:
            yield ctx.at_model(
                group.loc,
                Severity.WARNING,
                "collation-cards",
                f"{group.name}: {group.cards} cards in the collation, {len(cards)} designs "
                f"transcribed, and no copies per design given (each prints once)",
            )
        if (
            group.copies is not None
            and group.cards is not None
            and group.copies * len(cards) != group.cards
        ):
            yield ctx.at_model(
                group.loc,
                Severity.WARNING,
                "collation-cards",
                f"{group.name}: {len(cards)} designs × {group.copies} copies = "
                f"{len(cards) * group.copies} cards, the collation says {group.cards}",
            )
        if group.rarities and group.cards is not None:
            expected = sum((r.designs or 0) * (r.copies or 0) for r in group.rarities.values())
            if expected and expected != group.cards:
                yield ctx.at_model(
                    group.loc,
                    Severity.WARNING,
                    "collation-cards",
                    f"{group.name}: rarities add up to {expected} cards, the collation says "
                    f"{group.cards}",
                )
        if not cards:
            yield ctx.at_model(
                group.loc,
                Severity.WARNING,
                "collation-empty",
                f"{group.name}: no card matches this group",
            )

"""Turn a deal into a simulated pod draft: seats pick with simple bots, packs pass by round, every
pick logged.

The bots (documented in docs/packs.md): a bot scores each card in its pack as
  rarity rank (0 for the model's first rarity, 1 for the next, …) + 2 × commitment,
where commitment is the largest share of the bot's picks so far in one of the card's factions (0
before its first pick), and takes the best. Ties are broken by a tiny random preference per card
(under 0.001), drawn once per draft from the seed, so equal cards are not always taken in pack
order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..load.card import Catalog
from ..model.game import GameModel, Role
from .deal import Deal


@dataclass
class PickRow:
    seat: int
    pack_number: int  # the round, from 1
    pick_number: int  # within the round, from 1
    pick: str
    pack: tuple[str, ...]  # the cards the seat was looking at
    picks: list[str]  # the seat's picks (shared; the pool is its first `before` entries)
    before: int

    @property
    def pool(self) -> list[str]:
        """The seat's picks before this one."""
        return self.picks[: self.before]


@dataclass
class DraftResult:
    deal: Deal
    picks: dict[int, list[str]] = field(default_factory=dict)  # seat -> picks in order
    log: list[PickRow] = field(default_factory=list)


def simulate(
    deal: Deal, model: GameModel, catalog: Catalog, seed: int | None = None
) -> DraftResult:
    seats = deal.players
    rounds = deal.format.packs_per_player
    by_id = catalog.by_id()
    rarity_rank = {}
    if model.rarity_terms():
        rarity_rank = {t.name.lower(): i for i, t in enumerate(model.rarity_terms())}
    cfield = model.role_field(Role.FACTION)
    info: dict[str, tuple[int, tuple[str, ...]]] = {}
    for pack in deal.packs:
        for cid in pack.cards:
            if cid not in info:
                card = by_id.get(cid)
                rank = (
                    rarity_rank.get(str(model.role_value(card, Role.RARITY) or "").lower(), 0)
                    if card
                    else 0
                )
                colours = tuple(map(str, card.values(cfield))) if card and cfield else ()
                info[cid] = (rank, colours)
    rng = random.Random(deal.seed if seed is None else seed)
    # ties are broken by a small random preference per card, drawn once per draft
    score0 = {cid: rank + rng.random() * 1e-3 for cid, (rank, _) in sorted(info.items())}
    colours_of = {cid: colours for cid, (_, colours) in info.items()}
    result = DraftResult(deal, {s: [] for s in range(1, seats + 1)})
    tally: list[dict[str, int]] = [{} for _ in range(seats)]  # seat -> {faction: picks}
    opened = {(p.player, p.round): list(p.cards) for p in deal.packs}
    log = result.log
    for rnd in range(1, rounds + 1):
        direction = deal.format.passes[(rnd - 1) % len(deal.format.passes)]
        packs = [
            opened[(s + 1, rnd)] for s in range(seats)
        ]  # packs[i]: the pack opened by seat i+1
        size = len(packs[0])
        for t in range(size):
            for s in range(seats):
                held = packs[holder(s, t, seats, direction)]
                if not held:
                    continue
                picks = result.picks[s + 1]
                counts = tally[s]
                n = len(picks)
                best, best_score = held[0], -1.0
                for cid in held:
                    score = score0[cid]
                    if n:
                        commit = 0
                        for c in colours_of[cid]:
                            v = counts.get(c, 0)
                            if v > commit:
                                commit = v
                        score += 2.0 * commit / n
                    if score > best_score:
                        best, best_score = cid, score
                log.append(PickRow(s + 1, rnd, t + 1, best, tuple(held), picks, n))
                held.remove(best)
                picks.append(best)
                for c in colours_of[best]:
                    counts[c] = counts.get(c, 0) + 1
    return result


def holder(seat: int, pick: int, seats: int, direction: str) -> int:
    """Which seat opened the pack that `seat` holds at `pick` (both from 0) in a round passed
    `direction`."""
    return (seat - pick) % seats if direction == "left" else (seat + pick) % seats

"""Turn many generated packs into fairness statistics: per-card counts against the exact odds.

The joint tests (which cards come together) are packs.joint's.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Sequence

from ..model.game import written
from ..model.packs import PackFormat
from .deal import SetupSampler, SlotSampler, deal
from .joint import Joint, SlotDraw, Test, chi2_sf, joint_of_counts, slot_joint


@dataclass
class SheetStats:
    sheet: str
    cards: int
    chi2: float
    dof: int
    p: float


@dataclass
class Stats:
    format: str
    mode: str
    trials: int  # packs (slots) or pods (exhaust)
    packs: int
    observed: Counter[str] = field(default_factory=Counter)
    expected: dict[str, float] = field(default_factory=dict)
    sheets: list[SheetStats] = field(default_factory=list)
    duplicate_rate: float = 0.0
    by_round: dict[int, Counter[str]] = field(
        default_factory=dict
    )  # exhaust: a field value per round
    joint: Joint | None = None  # which cards come together (distinct sets, pairs, repeats)


def chi_square(
    observed: Counter[str], expected: dict[str, float], ids: list[str]
) -> tuple[float, int, float]:
    chi2 = sum(
        (observed.get(i, 0) - expected[i]) ** 2 / expected[i] for i in ids if expected[i] > 0
    )
    dof = max(0, sum(1 for i in ids if expected[i] > 0) - 1)
    return chi2, dof, chi2_sf(chi2, dof)


def slot_stats(fmt: PackFormat, packs: int, seed: int, players: int = 8) -> Stats:
    """Draw `packs` packs as `deal` would (pods of `players` seats) and test marginals and joint
    distribution."""
    import random

    sampler: SlotSampler = (SetupSampler if fmt.mode == "setup" else SlotSampler)(
        fmt, random.Random(seed)
    )
    stats = Stats(fmt.name, fmt.mode, packs, packs)
    dup = 0
    observed = stats.observed
    drawn: list[list[SlotDraw]] = []
    for _ in range(packs):
        slots = sampler.slots(sampler.variant())
        drawn.append(list(slots))
        cards = [c for _, got in slots for c in got]
        observed.update(cards)
        if len(set(cards)) != len(cards):
            dup += 1
    stats.joint = slot_joint(fmt, drawn, players) if fmt.unique_in_pack else None
    exact: dict[str, Fraction] = fmt.expected()
    if fmt.rules is not None and fmt.rules.constraints and stats.joint is not None:
        constrained(stats.joint, bool(exact))
    stats.expected = {k: float(v * packs) for k, v in exact.items()}
    stats.duplicate_rate = dup / packs
    for name, sheet in fmt.sheets.items():
        ids = [c.id for c in sheet.cards]
        # a card may sit on several sheets; test each sheet on the cards only it holds, scaled to
        # its own draws
        own = [
            i
            for i in ids
            if sum(1 for s in fmt.sheets.values() if i in {c.id for c in s.cards}) == 1
        ]
        if len(own) > 1 and all(i in stats.expected for i in own):
            chi2, dof, p = chi_square(observed, stats.expected, own)
            stats.sheets.append(SheetStats(name, len(own), chi2, dof, p))
    return stats


def constrained(joint: Joint, known: bool) -> None:
    """Constraints make a setup's pairs other than a simple random sample's (not tested), and the
    consecutive test needs the exact odds (unknown when there are too many setups to count)."""
    for s in joint.slots:
        s.tests = [
            Test("pairs", "the constraints change which cards come together")
            if t.name == "pairs"
            else t
            for t in s.tests
        ]
    if not known:
        joint.tests = [
            Test(t.name, "too many setups to count the exact odds")
            if t.name == "consecutive"
            else t
            for t in joint.tests
        ]


POD_BATCH = 2_000  # pods dealt and counted at a time: bounded memory, numpy-sized work


def exhaust_stats(
    fmt: PackFormat,
    game: str,
    players: int,
    pods: int,
    seed: int,
    rarity_field: str | None = None,
    placeholders: Sequence[str] = (),
    by_id: dict | None = None,
) -> Stats:
    """Deal `pods` pods with the dealer of `cardgen packs` (packs.exhaust), in batches from one
    generator seeded with `seed`: per-card counts against the run's copies, duplicate rate, rarity
    mix per round, joint tests."""
    import numpy as np

    from .exhaust import PodCounts, exhaust_pods, run_items

    deal(
        fmt, game, players, seed
    )  # the same refusals as a real deal: too few cards, a pack forced to repeat
    count = players * fmt.packs_per_player
    ids, items = run_items(fmt, 1)
    rarity = (
        [_rarity(by_id[i].get(rarity_field), placeholders) for i in ids]
        if by_id and rarity_field
        else None
    )
    counts = PodCounts(len(ids), players, rarity)
    rng = np.random.default_rng(seed)
    for start in range(0, pods, POD_BATCH):
        counts.add(exhaust_pods(fmt, items, count, rng, min(POD_BATCH, pods - start))[0])
    stats = Stats(fmt.name, fmt.mode, pods, counts.packs)
    stats.observed = Counter({card: int(n) for card, n in zip(ids, counts.observed.tolist()) if n})
    share = players * fmt.packs_per_player * fmt.pack_size / fmt.run_size
    stats.expected = {c.id: copies * share * pods for c, copies in fmt.pool}
    stats.duplicate_rate = counts.duplicates / max(1, counts.packs)
    stats.by_round = counts.by_round
    chi2, dof, p = chi_square(stats.observed, stats.expected, ids)
    stats.sheets.append(SheetStats("print run", len(ids), chi2, dof, p))
    stats.joint = joint_of_counts(fmt, counts, ids)
    return stats


def _rarity(value: object, placeholders: Sequence[str]) -> str:
    """A card's rarity for the mix table; a placeholder ('[]') is no rarity yet."""
    return written(value, placeholders) or "no rarity"

"""Turn many generated packs into fairness statistics: observed vs exact expected counts, chi-square p-values."""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from .deal import SlotSampler, deal
from .spec import PackFormat


def chi2_sf(x: float, dof: int) -> float:
    """P(X ≥ x) for a chi-square variable: the regularized upper incomplete gamma Q(dof/2, x/2)."""
    if dof <= 0:
        return 1.0
    if x <= 0:
        return 1.0
    a, z = dof / 2.0, x / 2.0
    gln = math.lgamma(a)
    if z < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= z / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-z + a * math.log(z) - gln))
    b = z + 1 - a  # continued fraction for Q (Lentz)
    c = 1 / 1e-300
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-z + a * math.log(z) - gln) * h


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
    by_round: dict[int, Counter[str]] = field(default_factory=dict)  # exhaust: a field value per round


def chi_square(observed: Counter[str], expected: dict[str, float], ids: list[str]) -> tuple[float, int, float]:
    chi2 = sum((observed.get(i, 0) - expected[i]) ** 2 / expected[i] for i in ids if expected[i] > 0)
    dof = max(0, sum(1 for i in ids if expected[i] > 0) - 1)
    return chi2, dof, chi2_sf(chi2, dof)


def slot_stats(fmt: PackFormat, packs: int, seed: int) -> Stats:
    import random

    sampler = SlotSampler(fmt, random.Random(seed))
    stats = Stats(fmt.name, fmt.mode, packs, packs)
    dup = 0
    observed = stats.observed
    for _ in range(packs):
        cards = sampler.pack()
        observed.update(cards)
        if len(set(cards)) != len(cards):
            dup += 1
    exact: dict[str, Fraction] = fmt.expected()
    stats.expected = {k: float(v * packs) for k, v in exact.items()}
    stats.duplicate_rate = dup / packs
    for name, sheet in fmt.sheets.items():
        ids = [c.id for c in sheet.cards]
        # a card may sit on several sheets; test each sheet on the cards only it holds, scaled to its own draws
        own = [i for i in ids if sum(1 for s in fmt.sheets.values() if i in {c.id for c in s.cards}) == 1]
        if len(own) > 1:
            chi2, dof, p = chi_square(observed, stats.expected, own)
            stats.sheets.append(SheetStats(name, len(own), chi2, dof, p))
    return stats


def exhaust_stats(fmt: PackFormat, game: str, players: int, pods: int, seed: int, rarity_field: str = "rarity",
                  by_id: dict | None = None) -> Stats:
    """Deal `pods` pods: per-card counts against the run's copies, duplicate rate, and rarity mix per round."""
    stats = Stats(fmt.name, fmt.mode, pods, 0)
    dup = 0
    share = players * fmt.packs_per_player * fmt.pack_size / fmt.run_size
    for n in range(pods):
        d = deal(fmt, game, players, seed + n)
        for pack in d.packs:
            stats.packs += 1
            stats.observed.update(pack.cards)
            if len(set(pack.cards)) != len(pack.cards):
                dup += 1
            if by_id is not None:
                mix = stats.by_round.setdefault(pack.round, Counter())
                mix.update(str(by_id[c].get(rarity_field) or "no rarity") for c in pack.cards)
    stats.expected = {c.id: copies * share * pods for c, copies in fmt.pool}
    stats.duplicate_rate = dup / max(1, stats.packs)
    ids = list(stats.expected)
    chi2, dof, p = chi_square(stats.observed, stats.expected, ids)
    stats.sheets.append(SheetStats("print run", len(ids), chi2, dof, p))
    return stats

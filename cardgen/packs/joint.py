"""Turn dealt packs into joint tests of which cards come together, beside the per-card counts.

Per-card counts only prove the marginals. A dealer can have exact per-card odds and still deal a
handful of different packs (systematic sampling over a layout reused for many packs does exactly
that), so these tests look at which cards come together: how many different sets a slot gives, how
often each pair of cards shares a pack against its exact expectation, whether a player or a pod
opens the same pack twice, whether a position in the slot favours some cards, and whether
consecutive packs resemble each other.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Sequence

from ..model.packs import PackFormat

if TYPE_CHECKING:
    from .exhaust import PodCounts


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


SlotDraw = tuple[str, Sequence[str]]  # (sheet, the cards one slot drew, in pack order)


@dataclass
class Test:
    """One statistical test: a statistic with its degrees of freedom and p-value (None: not
    applicable)."""

    name: str
    detail: str
    chi2: float = 0.0
    dof: int = 0
    p: float | None = None

    @property
    def passed(self) -> bool:
        return self.p is None or self.p >= 0.001


@dataclass
class SlotJoint:
    sheet: str
    count: int
    cards: int
    draws: int = 0
    distinct: int = 0
    pairs: int = 0  # pairs of the sheet's cards
    pairs_seen: int = 0
    tests: list[Test] = field(default_factory=list)


@dataclass
class Joint:
    packs: int
    distinct_packs: int = 0
    players_with_repeat: int = 0  # seats that opened the same pack twice
    seats: int = 0
    pods_with_repeat: int = 0  # pods in which any pack appears twice
    pods: int = 0
    slots: list[SlotJoint] = field(default_factory=list)
    tests: list[Test] = field(default_factory=list)

    @property
    def all_tests(self) -> list[Test]:
        return self.tests + [t for s in self.slots for t in s.tests]


def repeats(joint: Joint, packs: list[tuple[str, ...]], per_pod: int, per_seat: int) -> None:
    """Count seats and pods that got the same pack twice; packs come pod by pod, seat-major within a
    pod (pack k of a pod belongs to seat k mod players, as `deal` numbers them)."""
    joint.distinct_packs = len(set(packs))
    players = per_pod // per_seat
    for start in range(0, len(packs) - per_pod + 1, per_pod):
        pod = packs[start : start + per_pod]
        joint.pods += 1
        joint.pods_with_repeat += len(set(pod)) != len(pod)
        for seat in range(players):
            mine = pod[seat::players]
            joint.seats += 1
            joint.players_with_repeat += len(set(mine)) != len(mine)


def slot_joint(fmt: PackFormat, packs: list[list[SlotDraw]], players: int = 8) -> Joint:
    """Joint tests of slot packs (each a list of slot draws), for a format whose sheets are
    known."""
    joint = Joint(len(packs))
    per_seat = fmt.packs_per_player
    repeats(
        joint,
        [tuple(sorted(c for _, cards in p for c in cards)) for p in packs],
        players * per_seat,
        per_seat,
    )
    by_slot: dict[tuple[str, int], list[Sequence[str]]] = {}
    for p in packs:
        for sheet, cards in p:
            by_slot.setdefault((sheet, len(cards)), []).append(cards)
    for (sheet_name, k), draws in sorted(by_slot.items()):
        drawn_from = fmt.sheets[sheet_name]
        joint.slots.append(
            _one_slot(sheet_name, k, [c.id for c in drawn_from.cards], drawn_from.weights, draws)
        )
    joint.tests.append(_consecutive_overlap(fmt, packs))
    return joint


def _one_slot(
    name: str, k: int, ids: list[str], weights: list[int], draws: list[Sequence[str]]
) -> SlotJoint:
    n = len(ids)
    out = SlotJoint(
        name, k, n, len(draws), len({tuple(sorted(d)) for d in draws}), n * (n - 1) // 2
    )
    if k < 2 or n < 2:
        return out
    pairs: Counter[tuple[str, str]] = Counter()
    for d in draws:
        pairs.update(combinations(sorted(d), 2))
    out.pairs_seen = len(pairs)
    if len(set(weights)) == 1:
        out.tests.append(_pair_test(ids, k, len(draws), pairs, out.pairs_seen))
    else:
        out.tests.append(
            Test(
                "pairs",
                "unequal weights: exact pair odds have no closed form; "
                f"{out.pairs_seen} of {out.pairs} pairs seen together",
            )
        )
    out.tests.append(_position_test(ids, k, draws))
    return out


def _pair_test(
    ids: list[str], k: int, draws: int, pairs: Counter[tuple[str, str]], seen: int
) -> Test:
    """Pair counts of simple random samples against their exact law. Pairs sharing a card are
    correlated, so the deviations are split as the Johnson scheme splits functions on pairs: a part
    explained by each card's own count (the marginals, tested elsewhere) and the pure pair part,
    whose exact per-draw variance is C(n,2)·p(1-p) less the card part's (k-1)²·k(n-k)/(n(n-2)),
    spread evenly over n(n-3)/2 dimensions."""
    n = len(ids)
    p = k * (k - 1) / (n * (n - 1))
    e = draws * p
    detail = (
        f"pair counts against their exact expectation {e:.2f} "
        f"({seen} of {n * (n - 1) // 2} pairs seen)"
    )
    dims = n * (n - 3) // 2
    var_pairs = (n * (n - 1) / 2 * p * (1 - p) - (k - 1) ** 2 * k * (n - k) / (n * (n - 2))) * draws
    if n < 4 or dims <= 0 or var_pairs <= 1e-12:
        return Test("pairs", detail + "; the slot takes (almost) the whole sheet")
    ordered = sorted(ids)
    dev = {pair: pairs.get(pair, 0) - e for pair in combinations(ordered, 2)}
    rows = dict.fromkeys(ordered, 0.0)
    for (a, b), d in dev.items():
        rows[a] += d
        rows[b] += d
    total = sum(d * d for d in dev.values())
    card_part = sum(((rows[a] + rows[b]) / (n - 2)) ** 2 for a, b in dev)
    stat = max(0.0, total - card_part) / (var_pairs / dims)
    return Test("pairs", detail, stat, dims, chi2_sf(stat, dims))


def _position_test(ids: list[str], k: int, draws: list[Sequence[str]]) -> Test:
    """Does a card's position in its slot depend on the card? Each draw adds a random k × k
    permutation to a cards × positions table, whose deviations have total variance k - 1 per draw:
    n·k(k-1)/(n·k/N) = N(k-1) degrees of freedom (not the (N-1)(k-1) of a contingency table, whose
    margins are estimated)."""
    seen = Counter(c for d in draws for c in d)
    used = [i for i in ids if seen[i]]
    at = Counter((c, t) for d in draws for t, c in enumerate(d))
    stat = sum(
        (at.get((i, t), 0) - seen[i] / k) ** 2 / (seen[i] / k) for i in used for t in range(k)
    )
    dof = len(used) * (k - 1)
    return Test(
        "positions",
        f"which card stands at each of the {k} positions",
        stat,
        dof,
        chi2_sf(stat, dof) if dof > 0 else None,
    )


def _consecutive_overlap(fmt: PackFormat, packs: list[list[SlotDraw]]) -> Test:
    """Independent packs share Σ π_i² cards on average; packs that lean on the one before share
    more."""
    if len(packs) < 3:
        return Test("consecutive", "too few packs")
    expected = sum(float(v) ** 2 for v in fmt.expected().values())
    sets = [{c for _, cards in p for c in cards} for p in packs]
    overlaps = [len(a & b) for a, b in zip(sets, sets[1:])]
    mean = sum(overlaps) / len(overlaps)
    var = sum((o - mean) ** 2 for o in overlaps) / (len(overlaps) - 1) or 1e-12
    z = (mean - expected) / math.sqrt(var / len(overlaps))
    return Test(
        "consecutive",
        f"cards shared by consecutive packs: {mean:.3f} on average, {expected:.3f} expected "
        f"for independent packs (z = {z:.2f})",
        z * z,
        1,
        chi2_sf(z * z, 1),
    )


def exhaust_joint(fmt: PackFormat, pods: list[list[tuple[str, ...]]], players: int) -> Joint:
    """Exhaust deals given as packs of card ids (a pod: its packs in deal order); see
    `joint_of_counts`."""
    import numpy as np

    from .exhaust import PodCounts

    ids = [c.id for c, _ in fmt.pool]
    index = {card: i for i, card in enumerate(ids)}
    counts = PodCounts(len(ids), players)
    if pods:
        counts.add(
            np.array([[[index[c] for c in pack] for pack in pod] for pod in pods], dtype=np.int32)
        )
    return joint_of_counts(fmt, counts, ids)


def joint_of_counts(fmt: PackFormat, counts: PodCounts, ids: list[str]) -> Joint:
    """Exhaust deals: the run is finite, so pairs are tested for exchangeability: two pairs of cards
    with the same copies are dealt together equally often."""
    joint = Joint(
        counts.packs,
        counts.distinct_packs(),
        counts.seats_with_repeat,
        counts.seats,
        counts.pods_with_repeat,
        counts.pods,
    )
    copies = {c.id: n for c, n in fmt.pool}
    index = {card: i for i, card in enumerate(ids)}
    classes: dict[tuple[int, int], list[int]] = {}
    for a, b in combinations(sorted(copies), 2):
        key = (min(copies[a], copies[b]), max(copies[a], copies[b]))
        classes.setdefault(key, []).append(counts.pair_count(index[a], index[b]))
    stat, dof = 0.0, 0
    for together in classes.values():
        mean = sum(together) / len(together)
        if len(together) > 1 and mean > 0:
            stat += sum((c - mean) ** 2 for c in together) / mean
            dof += len(together) - 1
    seen = sum(1 for together in classes.values() for c in together if c)
    total = sum(len(c) for c in classes.values())
    joint.tests.append(
        Test(
            "pairs",
            f"pairs of cards with equal copies dealt together equally often "
            f"({seen} of {total} pairs seen)",
            stat,
            dof,
            chi2_sf(stat, dof) if dof else None,
        )
    )
    return joint


def joint_text(j: Joint, setup: bool = False) -> str:
    lines = [
        "joint distribution (which cards come together):",
        f"  distinct packs: {j.distinct_packs} of {j.packs}",
        f"  seats opening the same pack twice: {j.players_with_repeat} of {j.seats}; "
        f"pods with a repeated pack: {j.pods_with_repeat} of {j.pods}",
    ]
    if setup:  # games, not seats and pods
        lines[1:] = [f"  distinct setups: {j.distinct_packs} of {j.packs} games"]
    for s in j.slots:
        lines.append(
            (
                f"  {s.count} of {s.cards} cards"
                if setup
                else f"  slot {s.sheet} x{s.count} ({s.cards} cards)"
            )
            + f": {s.distinct} distinct sets in {s.draws} {'games' if setup else 'draws'}"
            + (f", {s.pairs_seen} of {s.pairs} pairs seen together" if s.count > 1 else "")
        )
    lines.append(f"  {'test':<22}{'chi-square':>12}{'dof':>7}{'p-value':>10}  verdict")
    for s_name, t in [("", t) for t in j.tests] + [
        ("" if setup else f"{s.sheet} x{s.count} ", t) for s in j.slots for t in s.tests
    ]:
        if setup:  # the same tests, said of games
            t = Test(t.name, t.detail.replace("packs", "games"), t.chi2, t.dof, t.p)
        label = f"{s_name}{t.name}"
        if t.p is None:
            lines.append(f"  {label:<22}{'':>12}{'':>7}{'':>10}  not tested: {t.detail}")
            continue
        verdict = "consistent" if t.passed else "DEVIATES (p < 0.001)"
        lines.append(f"  {label:<22}{t.chi2:>12.1f}{t.dof:>7}{t.p:>10.4f}  {verdict}: {t.detail}")
    return "\n".join(lines) + "\n"

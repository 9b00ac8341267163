"""Turn an exhaust pack format into pods of packs, many pods at a time (numpy), and pods into the
counts the fairness statistics need. `cardgen packs` deals one pod with this code, `--stats` a
hundred thousand.

A pod is a uniformly random permutation of the print run(s), cut into packs in order; with
`unique_in_pack`, each second copy of a card in a pack is swapped with a random card of another pack
where neither swap makes a duplicate (a few swaps per pod). Both steps treat every card alike, so
cards with equal copies are exchangeable (what the pair test checks) and every card of the run is
dealt with its exact odds.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np

from ..core.errors import CardgenError
from ..model.packs import PackFormat

MAX_TRIES = (
    100_000  # random swap attempts for one duplicate before the format is declared undealable
)


def run_items(fmt: PackFormat, runs: int) -> tuple[list[str], Any]:
    """The card ids of the pool, and the run(s) as an array of indices into them (copies side by
    side)."""
    ids = [card.id for card, _ in fmt.pool]
    items = np.repeat(
        np.arange(len(ids), dtype=np.int32), [copies * runs for _, copies in fmt.pool]
    )
    return ids, items


def exhaust_pods(
    fmt: PackFormat,
    items: Any,
    count: int,
    rng: np.random.Generator,
    pods: int,
    separate: bool = True,
) -> tuple[Any, Any]:
    """`pods` independent deals of `count` packs from the run `items`: dealt (pods, count, size) and
    the leftover (pods, rest) as card indices; `separate=False` leaves the copies for
    `separate_copies`."""
    size = fmt.pack_size
    need = count * size
    shuffled = rng.permuted(np.broadcast_to(items, (pods, len(items))), axis=1)
    dealt = np.ascontiguousarray(shuffled[:, :need]).reshape(pods, count, size)
    if separate and fmt.unique_in_pack and count > 1:
        separate_copies(dealt, rng, fmt.name)
    return dealt, shuffled[:, need:]


def separate_copies(dealt: Any, rng: np.random.Generator, name: str) -> None:
    """Swap every second copy of a card out of its pack, in place (the pods stay permutations of the
    deal)."""
    ordered = np.sort(dealt, axis=2)
    twice = (ordered[:, :, 1:] == ordered[:, :, :-1]).any(axis=2)  # (pod, pack): holds a copy twice
    clashing = np.flatnonzero(twice.any(axis=1))
    if not len(clashing):
        return
    draw = random.Random(
        int(rng.integers(2**63))
    ).random  # scalar draws for the swaps: numpy's are slow one by one
    count, size = dealt.shape[1], dealt.shape[2]
    for p in clashing.tolist():
        packs = dealt[p].tolist()
        # a swap never gives a pack a second copy, so only the packs dealt with one are walked (the
        # others would find none: the same swaps, the same draws, in a tenth of the time)
        for a in np.flatnonzero(twice[p]).tolist():
            pack = packs[a]
            for i in range(size):
                x = pack[i]
                if pack.count(x) < 2:
                    continue
                for _ in range(MAX_TRIES):
                    b, j = int(draw() * count), int(draw() * size)
                    y = packs[b][j]
                    if b != a and y not in pack and x not in packs[b]:
                        pack[i], packs[b][j] = y, x
                        break
                else:
                    raise CardgenError(
                        f"pack format '{name}': no way found to keep two copies of a card out of "
                        "one pack; deal more packs or set unique_in_pack: false"
                    )
        dealt[p] = packs


class PodCounts:
    """What the exhaust statistics need from many pods, accumulated batch by batch: per-card counts,
    packs with a duplicate, the rarity mix per round, repeated packs (per seat, per pod, over all),
    and how often each pair of cards shares a pack."""

    def __init__(self, cards: int, players: int, rarity: list[str] | None = None) -> None:
        self.n, self.players = cards, players
        self.observed = np.zeros(cards, dtype=np.int64)
        self.together = np.zeros((cards + 1) ** 2, dtype=np.int64)
        self.duplicates = 0
        self.packs = 0
        self.hashes: list[Any] = []
        self.pods = self.pods_with_repeat = self.seats = self.seats_with_repeat = 0
        self.rarity = rarity
        self.by_round: dict[int, Counter[str]] = {}
        # a pack's identity as a sum of random 64-bit weights per card: order-free, two different
        # packs collide with probability 2^-64
        self._weights = np.random.default_rng(0).integers(1, 2**63, size=cards, dtype=np.uint64)

    def add(self, dealt: Any) -> None:
        pods, count, size = dealt.shape
        n = self.n
        self.packs += pods * count
        self.observed += np.bincount(dealt.ravel(), minlength=n)
        ordered = np.sort(dealt.reshape(pods * count, size), axis=1)
        repeat = ordered[:, 1:] == ordered[:, :-1]
        self.duplicates += int(repeat.any(axis=1).sum())
        distinct = ordered.copy()
        distinct[:, 1:][repeat] = (
            n  # a card counted once per pack, as a set: copies become a sentinel
        )
        first, second = np.triu_indices(size, 1)
        codes = distinct[:, first].astype(np.int64) * (n + 1) + distinct[:, second]
        self.together += np.bincount(codes.ravel(), minlength=(n + 1) ** 2)
        hashes = self._weights[dealt].sum(axis=2)  # (pods, count), wrapping modulo 2^64
        self.hashes.append(hashes.ravel())
        self.pods += pods
        in_pod = np.sort(hashes, axis=1)
        self.pods_with_repeat += int((in_pod[:, 1:] == in_pod[:, :-1]).any(axis=1).sum())
        per_seat = count // self.players
        seats = np.sort(
            hashes[:, : per_seat * self.players].reshape(pods, per_seat, self.players), axis=1
        )
        self.seats += pods * self.players
        self.seats_with_repeat += int((seats[:, 1:, :] == seats[:, :-1, :]).any(axis=1).sum())
        if self.rarity is not None:
            codes_of = sorted(set(self.rarity))
            index = np.array([codes_of.index(r) for r in self.rarity])
            for r in range(count // self.players):
                packs = dealt[:, r * self.players : (r + 1) * self.players, :]
                tally = np.bincount(index[packs.ravel()], minlength=len(codes_of))
                mix = self.by_round.setdefault(r + 1, Counter())
                mix.update({code: int(v) for code, v in zip(codes_of, tally) if v})

    def distinct_packs(self) -> int:
        return int(len(np.unique(np.concatenate(self.hashes)))) if self.hashes else 0

    def pair_count(self, a: int, b: int) -> int:
        lo, hi = min(a, b), max(a, b)
        return int(self.together[lo * (self.n + 1) + hi])

"""Turn a pack format, a player count and a seed into packs: exhaust a finite print run, or sample slot sheets."""
from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field

from ..errors import CardgenError
from .spec import PackFormat

MAX_PLAYERS = 10_000  # far beyond any event; bounds the memory and time a typo could ask for
MAX_PRINT_RUNS = 1_000
RESHUFFLE_EVERY = 1024  # slots mode: a fresh sheet layout every this many packs (marginals are exact for any layout)


@dataclass
class Pack:
    player: int
    round: int
    direction: str
    cards: list[str]


@dataclass
class Deal:
    game: str
    format: PackFormat
    seed: int
    players: int
    print_runs: int
    packs: list[Pack] = field(default_factory=list)
    leftover: list[str] = field(default_factory=list)  # exhaust: cards of the run(s) that no pack holds


def max_players(fmt: PackFormat) -> int:
    return fmt.run_size // (fmt.packs_per_player * fmt.pack_size)


def deal(fmt: PackFormat, game: str, players: int, seed: int, print_runs: int = 1,
         packs_per_player: int | None = None) -> Deal:
    if not 0 < players <= MAX_PLAYERS:
        raise CardgenError(f"--players must be between 1 and {MAX_PLAYERS:,}, not {players}")
    if not 0 < print_runs <= MAX_PRINT_RUNS:
        raise CardgenError(f"--print-runs must be between 1 and {MAX_PRINT_RUNS:,}, not {print_runs}")
    if packs_per_player is not None:
        if not 0 < packs_per_player <= 100:
            raise CardgenError(f"--packs-per-player must be between 1 and 100, not {packs_per_player}")
        fmt.packs_per_player = packs_per_player
    rng = random.Random(seed)
    result = Deal(game, fmt, seed, players, print_runs)
    count = players * fmt.packs_per_player
    if fmt.mode == "exhaust":
        packs, result.leftover = _exhaust(fmt, count, print_runs, rng, players)
    else:
        sampler = SlotSampler(fmt, rng)
        packs = [sampler.pack() for _ in range(count)]
    for k, cards in enumerate(packs):
        rnd = k // players
        direction = fmt.passes[rnd % len(fmt.passes)]
        result.packs.append(Pack(k % players + 1, rnd + 1, direction, cards))
    return result


def _exhaust(fmt: PackFormat, count: int, runs: int, rng: random.Random,
             players: int) -> tuple[list[list[str]], list[str]]:
    per_player = fmt.packs_per_player * fmt.pack_size
    need = count * fmt.pack_size
    total = fmt.run_size * runs
    if need > total:
        most = fmt.run_size // per_player
        runs_needed = -(-need // fmt.run_size)
        raise CardgenError(
            f"{players} players need {need} cards ({fmt.packs_per_player} packs of {fmt.pack_size} each) but "
            f"{'one print run has' if runs == 1 else f'{runs} print runs have'} {total}: one run supports at most "
            f"{most} player{'s' * (most != 1)}; use --print-runs {runs_needed}")
    items = [card.id for card, copies in fmt.pool for _ in range(copies * runs)]
    rng.shuffle(items)
    dealt, leftover = items[:need], sorted(items[need:])
    if not fmt.unique_in_pack:
        return [dealt[i * fmt.pack_size:(i + 1) * fmt.pack_size] for i in range(count)], leftover
    copies = Counter(dealt)
    worst, n = copies.most_common(1)[0]
    if n > count:
        raise CardgenError(f"'{worst}' would be dealt {n} times into {count} packs: some pack would hold two "
                           f"copies; deal more packs or set unique_in_pack: false")
    # lay the dealt cards out with copies side by side, as on a print sheet, and stripe them over the packs:
    # copies then land in different packs by construction; random swaps that keep that true mix the packs
    order = list(copies)
    rng.shuffle(order)
    laid = [card for card in order for _ in range(copies[card])]
    packs: list[list[str]] = [[] for _ in range(count)]
    for j, card in enumerate(laid):
        packs[j % count].append(card)
    members = [set(p) for p in packs]
    size = fmt.pack_size
    for _ in range(4 * need if count > 1 else 0):
        a, b = rng.randrange(count), rng.randrange(count)
        if a == b:
            continue
        i, j = rng.randrange(size), rng.randrange(size)
        x, y = packs[a][i], packs[b][j]
        if x == y or y in members[a] or x in members[b]:
            continue
        packs[a][i], packs[b][j] = y, x
        members[a].discard(x); members[a].add(y)  # noqa: E702
        members[b].discard(y); members[b].add(x)  # noqa: E702
    for p in packs:
        rng.shuffle(p)
    rng.shuffle(packs)
    return packs, leftover


class SlotSampler:
    """Systematic (print-sheet) sampling: on a sheet of total weight W laid out in a row, k draws are the
    cards under k points W apart from a random start. A card of weight w is then in the pack with probability
    exactly k·w/W, and never twice while k·w ≤ W (checked when the format is loaded)."""

    def __init__(self, fmt: PackFormat, rng: random.Random) -> None:
        self.fmt, self.rng = fmt, rng
        self.variant_weights = [v.weight for v in fmt.variants]
        self.plans = []  # per variant: [(sheet name, count)]
        for v in fmt.variants:
            merged: dict[str, int] = {}
            for s in v.slots:
                merged[s.sheet] = merged.get(s.sheet, 0) + s.count
            self.plans.append(list(merged.items()))
        self.made = 0
        self.layouts: dict[str, tuple[list[str], list[int], int]] = {}
        self._memo: dict[tuple[str, int], list[tuple[str, ...] | None]] = {}
        self._relayout()

    def _relayout(self) -> None:
        for name, sheet in self.fmt.sheets.items():
            order = list(range(len(sheet.cards)))
            self.rng.shuffle(order)
            bounds, acc = [], 0
            for i in order:
                acc += sheet.weights[i]
                bounds.append(acc)
            self.layouts[name] = ([sheet.cards[i].id for i in order], bounds, acc)
        self._memo = {}

    def _draw(self, name: str, k: int, start: int) -> tuple[str, ...]:
        """The k cards under the points start + t·W, t < k (rows k·W long, so cards span k·weight)."""
        ids, bounds, total = self.layouts[name]
        return tuple(ids[bisect_right(bounds, (start + t * total) // k)] for t in range(k))

    def pack(self) -> list[str]:
        if self.made and self.made % RESHUFFLE_EVERY == 0:
            self._relayout()
        self.made += 1
        rng = self.rng
        plan = self.plans[0] if len(self.plans) == 1 else \
            self.plans[rng.choices(range(len(self.plans)), self.variant_weights)[0]]
        cards: list[str] = []
        for name, k in plan:
            ids, bounds, total = self.layouts[name]
            if not self.fmt.unique_in_pack:
                cards.extend(rng.choices(ids, cum_weights=bounds, k=k))
                continue
            start = rng.randrange(total)
            # for one layout a pack is a function of its start: remember each slice once
            memo = self._memo.get((name, k))
            if memo is None:
                memo = self._memo[(name, k)] = [None] * total
            got = memo[start]
            if got is None:
                got = memo[start] = self._draw(name, k, start)
            cards.extend(got)
        return cards

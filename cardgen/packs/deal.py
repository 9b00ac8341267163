"""Turn a pack format, a player count and a seed into packs: exhaust a finite print run, or sample
slot sheets; or a setup format, a number of games and a seed into each game's setup."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from ..core.errors import CardgenError
from ..model.packs import PackFormat
from ..model.setup import DEAL_TRIES

MAX_PLAYERS = 10_000  # far beyond any event; bounds the memory and time a typo could ask for
MAX_PRINT_RUNS = 1_000
MAX_GAMES = 100_000


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
    leftover: list[str] = field(
        default_factory=list
    )  # exhaust: cards of the run(s) that no pack holds
    games: int = 0  # setup: the games dealt (each pack is one game's setup, `player` its number)


def deal(
    fmt: PackFormat,
    game: str,
    players: int,
    seed: int,
    print_runs: int = 1,
    packs_per_player: int | None = None,
    games: int | None = None,
) -> Deal:
    """Packs for `players` (exhaust, slots), or `games` setups (setup: `players` is not used)."""
    if fmt.mode == "setup":
        return deal_games(fmt, game, games or 1, seed)
    if not 0 < players <= MAX_PLAYERS:
        raise CardgenError(f"--players must be between 1 and {MAX_PLAYERS:,}, not {players}")
    if not 0 < print_runs <= MAX_PRINT_RUNS:
        raise CardgenError(
            f"--print-runs must be between 1 and {MAX_PRINT_RUNS:,}, not {print_runs}"
        )
    if packs_per_player is not None:
        if not 0 < packs_per_player <= 100:
            raise CardgenError(
                f"--packs-per-player must be between 1 and 100, not {packs_per_player}"
            )
        fmt.packs_per_player = packs_per_player
    result = Deal(game, fmt, seed, players, print_runs)
    count = players * fmt.packs_per_player
    if fmt.mode == "exhaust":
        packs, result.leftover = _exhaust(fmt, count, print_runs, seed, players)
    else:
        sampler = SlotSampler(fmt, random.Random(seed))
        packs = [sampler.pack() for _ in range(count)]
    for k, cards in enumerate(packs):
        rnd = k // players
        direction = fmt.passes[rnd % len(fmt.passes)]
        result.packs.append(Pack(k % players + 1, rnd + 1, direction, cards))
    return result


def _exhaust(
    fmt: PackFormat, count: int, runs: int, seed: int, players: int
) -> tuple[list[list[str]], list[str]]:
    """One pod dealt from the run(s) by packs.exhaust (the code `--stats` tests), from a generator
    seeded here."""
    import numpy as np

    from .exhaust import exhaust_pods, run_items, separate_copies

    per_player = fmt.packs_per_player * fmt.pack_size
    need = count * fmt.pack_size
    total = fmt.run_size * runs
    if need > total:
        most = fmt.run_size // per_player
        runs_needed = -(-need // fmt.run_size)
        raise CardgenError(
            f"{players} players need {need} cards ({fmt.packs_per_player} packs of {fmt.pack_size} "
            "each) but "
            f"{'one print run has' if runs == 1 else f'{runs} print runs have'} {total}: one run "
            "supports at most "
            f"{most} player{'s' * (most != 1)}; use --print-runs {runs_needed}"
        )
    ids, items = run_items(fmt, runs)
    rng = np.random.default_rng(seed)
    dealt, rest = exhaust_pods(fmt, items, count, rng, 1, separate=False)
    if (
        fmt.unique_in_pack and count > 1
    ):  # the shuffle decides how many copies are dealt: more than packs cannot go
        if int(np.bincount(dealt.ravel()).max()) > count:  # named as ever, by the first such card
            card, n = Counter(dealt.ravel().tolist()).most_common(1)[0]
            raise CardgenError(
                f"'{ids[card]}' would be dealt {n} times into {count} packs: some pack would "
                f"hold two copies; deal more packs or set unique_in_pack: false"
            )
        separate_copies(dealt, rng, fmt.name)
    packs = [[ids[i] for i in pack] for pack in dealt[0].tolist()]
    return packs, sorted(ids[i] for i in rest[0].tolist())


class SlotSampler:
    """Draws slot packs, each independently of every other given the seed, with exact per-card odds.

    For each slot a sheet of total weight W gives `count` = k distinct cards, a card of weight w
    being in the pack with probability exactly k·w/W (never twice while k·w ≤ W, checked when the
    format loads):
    - k = 1: one card by weight;
    - every weight equal: k cards uniformly without replacement (simple random sampling), so every
      set of k cards is equally likely;
    - unequal weights: systematic sampling over a layout shuffled afresh for this pack (the k cards
      under points W/k apart from a uniform start), whose inclusion probabilities are k·w/W for any
      layout; the fresh shuffle makes packs independent and gives every pair of cards a positive
      chance together.
    Cards of one slot come in random order."""

    def __init__(self, fmt: PackFormat, rng: random.Random) -> None:
        self.fmt, self.rng = fmt, rng
        self.variant_weights = [v.weight for v in fmt.variants]
        self.plans: list[list[tuple[str, int]]] = []  # per variant: [(sheet name, count)]
        for v in fmt.variants:
            merged: dict[str, int] = {}
            for s in v.slots:
                merged[s.sheet] = merged.get(s.sheet, 0) + s.count
            self.plans.append(list(merged.items()))
        self.sheets: dict[str, tuple[list[str], list[int], list[int], int, bool]] = {}
        for name, sheet in fmt.sheets.items():
            bounds, acc = [], 0
            for w in sheet.weights:
                acc += w
                bounds.append(acc)
            self.sheets[name] = (
                [c.id for c in sheet.cards],
                list(sheet.weights),
                bounds,
                acc,
                len(set(sheet.weights)) == 1,
            )

    def variant(self) -> int:
        if len(self.plans) == 1:
            return 0
        return self.rng.choices(range(len(self.plans)), self.variant_weights)[0]

    def slots(self, variant: int) -> list[tuple[str, Sequence[str]]]:
        """One pack as (sheet, cards drawn from it) per slot of the given variant."""
        return [(name, self.draw(name, k)) for name, k in self.plans[variant]]

    def pack(self) -> list[str]:
        cards: list[str] = []
        for name, k in self.plans[self.variant()]:
            cards += self.draw(name, k)
        return cards

    def draw(self, name: str, k: int) -> list[str]:
        ids, weights, bounds, total, even = self.sheets[name]
        rng = self.rng
        if not self.fmt.unique_in_pack:
            return rng.choices(ids, cum_weights=bounds, k=k)
        if k == 1:
            return [ids[bisect_right(bounds, rng.randrange(total))]]
        if even:
            return rng.sample(ids, k)
        order = rng.sample(range(len(ids)), len(ids))  # a fresh layout for this pack
        start = rng.randrange(
            total
        )  # points at (start + t·W) / k on a row of W, scaled by k to stay whole
        picked: list[str] = []
        t, edge = 0, 0
        point = start
        for i in order:
            edge += weights[i] * k
            while t < k and point < edge:
                picked.append(ids[i])
                t += 1
                point = start + t * total
            if t == k:
                break
        rng.shuffle(picked)
        return picked


class SetupSampler(SlotSampler):
    """A setup is a simple random sample of `pick` designs, drawn again until it meets every
    constraint: uniform over the setups that do (rejection keeps the law exact), each game
    independent of every other given the seed. Its cards come in random order."""

    def slots(self, variant: int) -> list[tuple[str, Sequence[str]]]:
        rules = self.fmt.rules
        for _ in range(DEAL_TRIES):
            got = self.draw("setup", self.fmt.pack_size)
            if rules is None or rules.holds(got):
                return [("setup", got)]
        raise CardgenError(
            f"'{self.fmt.name}': {DEAL_TRIES:,} random setups in a row missed its constraints; "
            "loosen them"
        )

    def pack(self) -> list[str]:
        return list(self.slots(0)[0][1])


def deal_games(fmt: PackFormat, game: str, games: int, seed: int) -> Deal:
    """Games 1..N from one seeded stream: game 3 is the same whether 3 or 30 are dealt."""
    if not 0 < games <= MAX_GAMES:
        raise CardgenError(f"--games must be between 1 and {MAX_GAMES:,}, not {games}")
    sampler = SetupSampler(fmt, random.Random(seed))
    result = Deal(game, fmt, seed, 1, 1, games=games)
    result.packs = [Pack(g, 1, "setup", sampler.pack()) for g in range(1, games + 1)]
    return result

"""Turn a setup pack format (`mode: setup`: deal `pick` of the pool's designs per game, under
constraints) into its pool and checked constraints, with located findings for impossible ones."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any, Sequence

from ..core.errors import CardgenError
from ..load.card import Card
from ..load.yamlio import Loc
from .game import GameModel, matches

SETUP_KEYS = ("mode", "pick", "groups", "exclude_groups", "where", "constraints")
CONSTRAINT_KEYS = ("at_least", "at_most", "where", "field", "min", "max", "per")
FEASIBLE_TRIES = 20_000  # random setups tried at load time before constraints are called impossible
DEAL_TRIES = 100_000  # per setup when dealing
EXACT_LIMIT = 300_000  # steps counting the setups for exact odds under constraints (--stats)


class FormatError(CardgenError):
    """A pack format that cannot be dealt, located at the key that says why."""

    def __init__(self, message: str, loc: Loc | None = None, code: str = "pack-format") -> None:
        super().__init__(message)
        self.loc, self.code = loc, code


@dataclass
class Constraint:
    """'at least 2 with price at most 3', 'at most 1 per expansion': how many of a setup's cards
    may be of a kind (`where`, a field's `min`/`max`), in all or per value of a field (`per`)."""

    at_least: int | None
    at_most: int | None
    where: dict[str, Any] = field(default_factory=dict)
    field: str | None = None
    low: int | None = None
    high: int | None = None
    per: str | None = None
    loc: Loc = (0, 0)

    def describe(self) -> str:
        bits = []
        if self.at_least is not None:
            bits.append(f"at least {self.at_least}")
        if self.at_most is not None:
            bits.append(f"at most {self.at_most}")
        text = " and ".join(bits)
        if self.where:
            text += " of " + ", ".join(f"{k} {v}" for k, v in self.where.items())
        if self.field:
            if self.low is not None and self.high is not None:
                text += f" with {self.field} {self.low}-{self.high}"
            elif self.high is not None:
                text += f" with {self.field} ≤ {self.high}"
            elif self.low is not None:
                text += f" with {self.field} ≥ {self.low}"
        return text + (f" per {self.per}" if self.per else "")

    def keys(self, card: Card) -> tuple[str, ...]:
        """What the card counts towards: () when it does not count, else ('',) or, per a field,
        each of its values."""
        if not matches(self.where, card.data):
            return ()
        if self.field:
            value = card.get(self.field)
            if isinstance(value, bool) or not isinstance(value, int):
                return ()
            if (self.low is not None and value < self.low) or (
                self.high is not None and value > self.high
            ):
                return ()
        if self.per:
            return tuple(str(v) for v in card.values(self.per))
        return ("",)


@dataclass
class Rules:
    """The constraints compiled against one pool: for each, the keys every card counts towards and
    every key that must be checked (so an absent value counts as 0 against `at_least`)."""

    constraints: list[Constraint]
    keys: list[dict[str, tuple[str, ...]]]
    universe: list[list[str]]

    @classmethod
    def of(cls, constraints: list[Constraint], cards: list[Card]) -> Rules:
        keys = [{c.id: k.keys(c) for c in cards} for k in constraints]
        universe = [sorted({key for ks in table.values() for key in ks}) for table in keys]
        return cls(constraints, keys, universe)

    def holds(self, ids: Sequence[str]) -> bool:
        for k, table, keys in zip(self.constraints, self.keys, self.universe):
            got = Counter(key for i in ids for key in table[i])
            for key in keys:
                n = got.get(key, 0)
                if (k.at_least is not None and n < k.at_least) or (
                    k.at_most is not None and n > k.at_most
                ):
                    return False
        return True


def setup_format(
    name: str, spec: dict[str, Any], run: list[tuple[Card, int]], model: GameModel, where: Any
) -> tuple[list[Card], int, Rules]:
    """A setup's pool (the designs of the run, each once whatever its copies), its `pick` and its
    checked constraints: every set of `pick` that meets them is to be equally likely."""
    for key in spec:
        if key not in SETUP_KEYS:
            raise FormatError(
                f"pack format '{name}' (setup) has '{key}': a setup deals games, not packs; "
                f"its keys are {', '.join(SETUP_KEYS)}"
            )
    pick = spec.get("pick")
    if isinstance(pick, bool) or not isinstance(pick, int) or pick <= 0:
        raise FormatError(
            f"pack format '{name}' (setup) needs pick: how many cards each game deals "
            f"(a whole number above 0{'' if pick is None else f', not {pick!r}'})"
        )
    cards = [c for c, _ in run]
    if not cards:
        raise FormatError(f"pack format '{name}' selects no cards")
    rules = Rules.of(load_constraints(spec.get("constraints"), name, model, where), cards)
    check_possible(name, pick, cards, rules)
    return cards, pick, rules


def load_constraints(value: Any, name: str, model: GameModel, where_check: Any) -> list[Constraint]:
    """The format's `constraints:` as Constraint values (shape errors: FormatError at the item)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise FormatError(f"constraints of '{name}' must be a list of mappings, not {value!r}")
    out = []
    for i, item in enumerate(value):
        loc = value.item_loc(i) if hasattr(value, "item_loc") else None
        if not isinstance(item, dict):
            raise FormatError(f"each constraint of '{name}' must be a mapping, not {item!r}", loc)
        for key in item:
            if key not in CONSTRAINT_KEYS:
                raise FormatError(
                    f"unknown key '{key}' in a constraint of '{name}'"
                    f" (keys: {', '.join(CONSTRAINT_KEYS)})",
                    loc,
                )
        counts = [_count(item.get(k), k, name, loc) for k in ("at_least", "at_most")]
        if counts == [None, None]:
            raise FormatError(f"a constraint of '{name}' needs at_least or at_most", loc)
        for key in ("field", "per"):
            fname = item.get(key)
            if fname is not None and fname not in model.fields:
                raise FormatError(
                    f"a constraint of '{name}' names unknown field '{fname}' in '{key}'", loc
                )
        fname = item.get("field")
        if (item.get("min") is not None or item.get("max") is not None) and not fname:
            raise FormatError(f"a constraint of '{name}' has min/max but no 'field'", loc)
        if fname and model.fields[fname].type != "integer":
            raise FormatError(
                f"a constraint of '{name}' bounds field '{fname}', which is not a whole-number "
                "field",
                loc,
            )
        where = where_check(item.get("where"), f"a constraint of '{name}'", model)
        out.append(
            Constraint(
                counts[0],
                counts[1],
                where,
                fname,
                item.get("min"),
                item.get("max"),
                item.get("per"),
                loc or (0, 0),
            )
        )
    return out


def _count(value: Any, key: str, name: str, loc: Loc | None) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise FormatError(
            f"{key} of a constraint of '{name}' must be a whole number 0 or more, not {value!r}",
            loc,
        )
    return value


def check_possible(name: str, pick: int, cards: list[Card], rules: Rules) -> None:
    """Constraints no setup can meet, each a FormatError (code setup-impossible) at its line: one
    at a time by counting, then together by trying FEASIBLE_TRIES random setups (seeded: the same
    answer every time)."""
    n = len(cards)
    if pick > n:
        raise FormatError(
            f"'{name}' picks {pick} cards per game but its pool has only {n} designs",
            code="setup-impossible",
        )
    for k, table, keys in zip(rules.constraints, rules.keys, rules.universe):
        said = f"'{name}': the constraint '{k.describe()}'"
        if k.at_least is not None and k.at_most is not None and k.at_least > k.at_most:
            raise FormatError(f"{said} can never hold", k.loc, "setup-impossible")
        sizes = Counter(key for ks in table.values() for key in ks)
        free = sum(1 for ks in table.values() if not ks)
        if k.at_least:
            for key in keys or [""]:
                have = sizes.get(key, 0)
                if have < k.at_least:
                    which = f" ({k.per} {key})" if k.per else ""
                    raise FormatError(
                        f"{said} asks for {k.at_least} but the pool has only {have} such "
                        f"card{'s' * (have != 1)}{which}",
                        k.loc,
                        "setup-impossible",
                    )
            need = k.at_least * max(1, len(keys))
            if need > pick and not any(len(ks) > 1 for ks in table.values()):
                raise FormatError(
                    f"{said} needs {need} cards, but a setup has {pick}", k.loc, "setup-impossible"
                )
        if k.at_most is not None and not any(len(ks) > 1 for ks in table.values()):
            most = free + sum(min(size, k.at_most) for size in sizes.values())
            if most < pick:
                raise FormatError(
                    f"{said} lets a setup hold at most {most} of the pool's cards, but it picks "
                    f"{pick}",
                    k.loc,
                    "setup-impossible",
                )
    if rules.constraints and first_setup(cards, pick, rules, random.Random(0)) is None:
        raise FormatError(
            f"'{name}': no setup of {FEASIBLE_TRIES:,} tried meets every constraint at once "
            "(each can hold alone, not all together)",
            rules.constraints[0].loc,
            "setup-impossible",
        )


def first_setup(
    cards: list[Card], pick: int, rules: Rules, rng: random.Random, tries: int = FEASIBLE_TRIES
) -> list[str] | None:
    ids = [c.id for c in cards]
    for _ in range(tries):
        got = rng.sample(ids, pick)
        if rules.holds(got):
            return got
    return None


def exact_odds(ids: list[str], pick: int, rules: Rules) -> dict[str, Fraction] | None:
    """Each card's exact chance to be in a setup (uniform over the setups that meet every
    constraint). Cards that every constraint counts alike are interchangeable, so the setups are
    counted by how many of each such type they take (C(size, m) sets for m of a type); None when
    that takes more than EXACT_LIMIT steps."""
    n = len(ids)
    if not rules.constraints:
        return {i: Fraction(pick, n) for i in ids}
    types: dict[tuple[tuple[str, ...], ...], list[str]] = {}
    for i in ids:
        types.setdefault(tuple(table[i] for table in rules.keys), []).append(i)
    kinds = list(types)
    if len(kinds) > 400:
        return None
    sizes = [len(types[t]) for t in kinds]
    rest = [sum(sizes[j:]) for j in range(len(sizes) + 1)]
    total, inside, steps = 0, [0] * len(kinds), 0
    taken: list[int] = []

    def meets() -> bool:
        for c, k in enumerate(rules.constraints):
            got: Counter[str] = Counter()
            for kind, m in zip(kinds, taken):
                for key in kind[c]:
                    got[key] += m
            for key in rules.universe[c]:
                v = got.get(key, 0)
                if (k.at_least is not None and v < k.at_least) or (
                    k.at_most is not None and v > k.at_most
                ):
                    return False
        return True

    def walk(t: int, left: int) -> bool:
        nonlocal total, steps
        steps += 1
        if steps > EXACT_LIMIT:
            return False
        if t == len(kinds):
            if left == 0 and meets():
                w = 1
                for size, m in zip(sizes, taken):
                    w *= comb(size, m)
                total += w
                for j, m in enumerate(taken):
                    inside[j] += w * m
            return True
        if rest[t] < left:
            return True
        for m in range(min(sizes[t], left) + 1):
            taken.append(m)
            done = walk(t + 1, left - m)
            taken.pop()
            if not done:
                return False
        return True

    if not walk(0, pick) or not total:
        return None
    return {i: Fraction(inside[j], sizes[j] * total) for j, t in enumerate(kinds) for i in types[t]}

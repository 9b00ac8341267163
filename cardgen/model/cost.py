"""Turn a cost as written ('BB', '{2}{C}{C}', 'DDD, Mill half your deck') into counted symbols, or say why not."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..load.yamlio import MAX_INT
from .game import CostGrammar

_BRACED = re.compile(r"^(?:\{[^{}]+\})+$")
_BRACE_ITEM = re.compile(r"\{([^{}]+)\}")
_LETTERS = re.compile(r"^[A-Z]+$")


@dataclass
class Cost:
    raw: str
    symbols: Counter[str] = field(default_factory=Counter)
    sequence: list[str] = field(default_factory=list)  # symbols in written order: 'B', 'B', '2', 'X'
    generic: int = 0
    x: int = 0
    clauses: list[str] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (code, message)

    @property
    def total(self) -> int:
        """Mana-value-like size: every symbol counts one, generic counts its number, X counts zero."""
        return sum(self.symbols.values()) + self.generic


_CACHE: dict[tuple[object, str], Cost] = {}


def parse_cost(raw: str, grammar: CostGrammar) -> Cost:
    """A parsed cost; sets repeat their costs, so each distinct cost is parsed once per grammar (treat the
    result as read-only)."""
    key = ((tuple(s.letter for s in grammar.symbols), grammar.generic, grammar.x, grammar.separator, grammar.hybrid),
           raw)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    if len(_CACHE) > 50_000:
        _CACHE.clear()
    cost = _parse(raw, grammar)
    _CACHE[key] = cost
    return cost


def _parse(raw: str, grammar: CostGrammar) -> Cost:
    cost = Cost(raw=raw)
    letters = {s.letter for s in grammar.symbols}
    for part in [p.strip() for p in raw.split(grammar.separator)] if grammar.separator else [raw.strip()]:
        if not part:
            continue
        if _BRACED.match(part):  # '{2}{Sh}{E/G}': numbers, symbols of any length, hybrids
            for item in _BRACE_ITEM.findall(part):
                _add(cost, item.strip(), letters, grammar)
        elif _LETTERS.match(part):
            for letter in part:
                _add(cost, letter, letters, grammar)
        else:
            cost.clauses.append(part)
    return cost


def _add(cost: Cost, item: str, letters: set[str], grammar: CostGrammar) -> None:
    if item.isdecimal():  # not isdigit(): int() refuses '²'
        if not grammar.generic:
            cost.problems.append(("bad-cost", f"generic cost '{{{_short(item)}}}' is not part of this game's cost "
                                              "grammar"))
            return
        if len(item) > len(str(MAX_INT)) or int(item) > MAX_INT:
            cost.problems.append(("bad-cost", f"generic cost '{{{_short(item)}}}' is past {MAX_INT:,}, the largest "
                                              "whole number cardgen reads"))
            return
        cost.generic += int(item)
        cost.sequence.append(item)
    elif item == "X":
        if not grammar.x:
            cost.problems.append(("bad-cost", "X costs are not part of this game's cost grammar"))
            return
        cost.x += 1
        cost.sequence.append("X")
    elif item in letters or grammar.halves(item):
        cost.symbols[item] += 1  # a hybrid counts once, under its own name ('E/G')
        cost.sequence.append(item)
    else:
        known = ", ".join(sorted(letters)) or "none"
        cost.problems.append(("unknown-cost-symbol", f"'{_short(item)}' is not a cost symbol of this game (symbols: {known})"))


def _short(item: str) -> str:
    return item if len(item) <= 24 else f"{item[:20]}…"

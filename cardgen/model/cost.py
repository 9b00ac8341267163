"""Turn a cost as written ('BB', '{2}{C}{C}', 'DDD, Mill half your deck') into counted symbols, or
say why not."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..load.yamlscalar import MAX_INT
from ..speed.memo import Memo
from .words import CostGrammar

_BRACED = re.compile(r"^(?:\{[^{}]+\})+$")
_BRACE_ITEM = re.compile(r"\{([^{}]+)\}")
_LETTERS = re.compile(r"^[A-Z]+$")
_SYMBOLS_AND_DIGITS = re.compile(r"^[0-9A-Z]+$")  # with a digit: '2U', '3', a number run in
_MIXED = re.compile(r"^(?:\{[^{}]+\}|[0-9]+|[A-Z])+$")  # braced and bare items: '{1}R', 'R{E/G}'
_MIXED_ITEM = re.compile(r"\{([^{}]+)\}|([0-9]+|[A-Z])")


@dataclass
class Cost:
    raw: str
    symbols: Counter[str] = field(default_factory=Counter)
    sequence: list[str] = field(
        default_factory=list
    )  # symbols in written order: 'B', 'B', '2', 'X'
    generic: int = 0
    x: int = 0
    clauses: list[str] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (code, message)

    @property
    def total(self) -> int:
        """Mana-value-like size: every symbol counts one, generic counts its number, X counts
        zero."""
        return sum(self.symbols.values()) + self.generic


_PARSED: Memo[Cost] = Memo(50_000)


def cost_text(value: object) -> str:
    """A card's cost value as text: '3' for a whole-number cost of 3, '0' for 0, '' for none."""
    return "" if value is None or isinstance(value, bool) else str(value)


def parse_cost(raw: str, grammar: CostGrammar) -> Cost:
    """A parsed cost; sets repeat their costs, so each distinct cost is parsed once per grammar
    (treat the result as read-only)."""
    key = (
        (
            tuple(s.letter for s in grammar.symbols),
            grammar.generic,
            grammar.x,
            grammar.separator,
            grammar.hybrid,
        ),
        raw,
    )
    return _PARSED.get(key, lambda: _parse(raw, grammar))


def _parse(raw: str, grammar: CostGrammar) -> Cost:
    cost = Cost(raw=raw)
    letters = {s.letter for s in grammar.symbols}
    for part in (
        [p.strip() for p in raw.split(grammar.separator)] if grammar.separator else [raw.strip()]
    ):
        if not part:
            continue
        if _BRACED.match(part):  # '{2}{Sh}{E/G}': numbers, symbols of any length, hybrids
            for item in _BRACE_ITEM.findall(part):
                _add(cost, item.strip(), letters, grammar)
        elif _LETTERS.match(part):
            for letter in part:
                _add(cost, letter, letters, grammar)
        elif _SYMBOLS_AND_DIGITS.match(part):  # '2U': {2}{U}, where generic costs are allowed
            for item in re.findall(r"[0-9]+|[A-Z]", part):
                _add(cost, item, letters, grammar, written=part)
        elif _MIXED.match(part):  # '{1}R': each item, braced or bare, in the order written
            for braced, bare in _MIXED_ITEM.findall(part):
                _add(cost, (braced or bare).strip(), letters, grammar, written=part)
        elif brace := _brace_problem(part):  # '{R}{R': a symbol cut short, not a clause
            cost.problems.append(
                ("bad-cost", f"cost '{_short(part)}' {brace}, so it is not read (nor drawn)")
            )
        else:
            cost.clauses.append(part)
    return cost


def _add(cost: Cost, item: str, letters: set[str], grammar: CostGrammar, written: str = "") -> None:
    if item.isdecimal():  # not isdigit(): int() refuses '²'
        if not grammar.generic:
            within = f" (in '{_short(written)}')" if written and written != item else ""
            cost.problems.append(
                (
                    "bad-cost",
                    f"generic cost '{{{_short(item)}}}'{within} is not part of this game's cost "
                    "grammar",
                )
            )
            return
        if len(item) > len(str(MAX_INT)) or int(item) > MAX_INT:
            cost.problems.append(
                (
                    "bad-cost",
                    f"generic cost '{{{_short(item)}}}' is past {MAX_INT:,}, the largest "
                    "whole number cardgen reads",
                )
            )
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
        same = same_halves(item, grammar)
        if same:
            cost.problems.append(
                (
                    "cost-hybrid-same",
                    f"hybrid '{{{item}}}' has {same} on both halves: it is just '{{{same}}}'",
                )
            )
        cost.symbols[item] += 1  # a hybrid counts once, under its own name ('E/G')
        cost.sequence.append(item)
    else:
        known = ", ".join(sorted(letters)) or "none"
        cost.problems.append(
            (
                "unknown-cost-symbol",
                f"'{_short(item)}' is not a cost symbol of this game (symbols: {known})",
            )
        )


def _brace_problem(part: str) -> str | None:
    """What is wrong with a part's braces ("has a '{' that is never closed"), or None when each
    '{' is closed by a '}', with something between and nothing nested: a clause may name symbols."""
    opened = False
    for i, ch in enumerate(part):
        if ch == "{":
            if opened:
                return "has braces inside braces"
            if part[i + 1 : i + 2] == "}":
                return "has empty braces"
            opened = True
        elif ch == "}":
            if not opened:
                return "has a '}' that no '{' opens"
            opened = False
    return "has a '{' that is never closed" if opened else None


def same_halves(item: str, grammar: CostGrammar) -> str | None:
    """The symbol of a hybrid written with it on both halves ('E' for 'E/E'), else None."""
    halves = grammar.halves(item)
    return halves[0] if halves and halves[0] == halves[1] else None


def _short(item: str) -> str:
    return item if len(item) <= 24 else f"{item[:20]}…"

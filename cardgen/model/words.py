"""The game's words as plain objects: vocabularies (terms with aliases and what they imply), cost
symbols and the cost grammar, keywords."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..load.yamlio import Loc


@dataclass
class Term:
    """One value of a vocabulary (a faction, a kind, a rarity, a tag) and what it implies for a
    card."""

    name: str
    aliases: list[str] = field(default_factory=list)
    requires: list[str] = field(default_factory=list)
    forbids: list[str] = field(default_factory=list)
    warn: str | None = None
    note: str | None = None
    attrs: dict[str, Any] = field(
        default_factory=dict
    )  # colour, letter, description…: free for templates
    loc: Loc = (0, 0)


@dataclass
class Vocabulary:
    name: str
    terms: list[Term]
    open: bool = False  # an open vocabulary accepts new values (reported as info)
    loc: Loc = (0, 0)

    def __post_init__(self) -> None:
        # a value written twice is a model finding (model-duplicate-value): the first one is used
        self._exact: dict[str, Term] = {}
        self._folded: dict[str, Term] = {}
        self._alias: dict[str, Term] = {}
        for t in self.terms:
            self._exact.setdefault(t.name, t)
            self._folded.setdefault(t.name.lower(), t)
            for a in t.aliases:
                self._alias.setdefault(a.lower(), t)

    def lookup(self, value: str) -> tuple[Term | None, str]:
        """(term, how): how is 'exact', 'case' (differs only in case), 'alias', or 'unknown'."""
        if value in self._exact:
            return self._exact[value], "exact"
        folded = value.lower()
        if folded in self._folded:
            return self._folded[folded], "case"
        if folded in self._alias:
            return self._alias[folded], "alias"
        return None, "unknown"

    def names(self) -> list[str]:
        return [t.name for t in self.terms]


@dataclass
class CostSymbol:
    # one capital letter, or up to three characters starting with one (written in braces: {Sh})
    letter: str
    name: str
    icon: str = ""
    color: str = "#444444"
    text_color: str = "#ffffff"
    rules: str = ""
    loc: Loc = (0, 0)
    faction: str | None = None  # the faction this symbol belongs to (cost.match_factions)
    local: dict[str, dict[str, str]] = field(default_factory=dict)  # lang -> name, rules


@dataclass
class CostGrammar:
    symbols: list[CostSymbol] = field(default_factory=list)
    generic: bool = False  # '{2}' means two of any symbol
    x: bool = True  # 'X' allowed
    clauses: str = "info"  # free-text clauses: 'info', 'warning' or 'error'
    separator: str = ","
    hybrid: bool = True  # '{E/G}': one symbol paid with either half
    match_factions: bool = False  # a card's symbols must belong to its factions

    def symbol(self, letter: str) -> CostSymbol | None:
        for s in self.symbols:
            if s.letter == letter:
                return s
        return None

    def halves(self, item: str) -> list[str] | None:
        """'E/G' -> ['E', 'G'] when both halves are symbols of the game (a hybrid symbol), else
        None."""
        parts = item.split("/")
        if not self.hybrid or len(parts) != 2 or not all(self.symbol(p) for p in parts):
            return None
        return parts


@dataclass
class Keyword:
    name: str
    reminder: str | None = None
    rules: str | None = None
    note: str | None = None
    loc: Loc = (0, 0)
    parameter: bool = False  # written with a number after it: 'Scry 2', 'Scry X'
    local: dict[str, dict[str, str]] = field(default_factory=dict)  # lang -> name, reminder, rules
    # in an edition of another language, the name the cards' own language gives it ('Stealth' for
    # 'Tarnung'): a chapter that falls back to the default's text still finds it
    base: str = ""

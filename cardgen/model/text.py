"""Turn card text into atoms: words, cost symbols, glossary keywords, reminder text and bold, for every reader.

The one grammar of card text. Faces (render.richtext), the rulebook (rulebook.content) and the validator
(validate.text) all read text through `tokens`/`parse`, so `Pay [R] … {2}` means the same thing on a card,
in the book and to the checks.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

from .game import GameModel

BOLD, ITALIC = 1, 2
SYMBOL = r"\[(?P<sq>[A-Za-z])\]|\{(?P<br>[A-Za-z0-9]+(?:/[A-Za-z0-9]+)?)\}"  # '[R]', '{2}', '{R}', '{Sh}', '{E/G}'
_SYMBOL = re.compile(SYMBOL)


@dataclass(frozen=True)
class Atom:
    text: str  # the text, or the symbol letter for an icon
    style: int = 0
    icon: bool = False


Word = tuple[Atom, ...]
Paragraph = list[Word]


@dataclass
class RichRules:
    """What the model says about text: symbol letters, whether bare letters are symbols, glossary keywords."""

    letters: tuple[str, ...] = ()
    bare: bool = False
    keywords: tuple[str, ...] = ()
    x: bool = False  # '{X}' is a symbol
    hybrid: bool = False  # '{E/G}' is a symbol

    @classmethod
    def from_model(cls, model: GameModel) -> "RichRules":
        return cls(tuple(s.letter for s in model.cost.symbols), model.bare_symbols,
                   tuple(sorted((k.name for k in model.keywords), key=len, reverse=True)), model.cost.x,
                   model.cost.hybrid)

    def drawable(self, item: str) -> str | None:
        """The symbol a bracketed item ('R' in '[R]', '2' in '{2}') draws as an icon, or None (printed as written)."""
        if item in self.letters:
            return item
        if len(item) == 1 and item.upper() in self.letters:
            return item.upper()
        if "/" in item and self.hybrid:
            halves = [self.drawable(h) or "" for h in item.split("/")]
            return "/".join(halves) if all(h and not h.isdigit() for h in halves) else None
        if item.isdigit() and len(item) <= 2:
            return item
        if self.x and item == "X":
            return item
        return None


@lru_cache(maxsize=64)
def _tokenizer(letters: tuple[str, ...], bare: bool, keywords: tuple[str, ...]) -> re.Pattern[str]:
    """One line of text -> tokens: bold, open, close, sq/br (a bracketed symbol), bare, kw, space, word."""
    parts = [r"(?P<bold>\*\*)", r"(?P<open>\()", r"(?P<close>\))", SYMBOL]
    if bare and letters:
        parts.append(rf"(?<![\w'])(?P<bare>[{''.join(letters)}]+)(?![\w'])")
    if keywords:
        parts.append(r"(?<![\w-])(?P<kw>" + "|".join(re.escape(k) for k in keywords) + r")(?![\w-])")
    parts += [r"(?P<space>[ \t]+)", r"(?P<word>[\w']+|[^\w\s])"]
    return re.compile("|".join(parts))


def _style(base: int, bold: bool, depth: int, extra: int = 0) -> int:
    return base | (BOLD if bold else 0) | (ITALIC if depth else 0) | extra


def parse(text: str, rules: RichRules, base_style: int = 0) -> list[Paragraph]:
    """Card text -> paragraphs of words; a word is a tuple of atoms glued together (e.g. '[B][B]:')."""
    pattern = _tokenizer(rules.letters, rules.bare, rules.keywords)
    paragraphs: list[Paragraph] = []
    for line in text.split("\n"):
        bold, depth = False, 0
        opened: list[bool] = []  # for each open bracket: did it start italic reminder text?
        words: Paragraph = []
        current: list[Atom] = []

        for m in pattern.finditer(line):
            kind = m.lastgroup
            if kind == "space":
                if current:
                    words.append(tuple(current))
                    current = []
            elif kind == "bold":
                bold = not bold
            elif kind == "open":
                # '(reminder text)' is italic; a bracket glued to a word, as in 'effect(s)', is not
                glued = m.start() > 0 and line[m.start() - 1].isalnum()
                opened.append(not glued)
                depth += 0 if glued else 1
                current.append(Atom("(", _style(base_style, bold, depth)))
            elif kind == "close":
                current.append(Atom(")", _style(base_style, bold, depth)))
                if opened and opened.pop():
                    depth = max(0, depth - 1)
            elif kind in ("sq", "br"):
                symbol = rules.drawable(m.group(kind))
                if symbol is not None:
                    current.append(Atom(symbol, _style(base_style, bold, depth), icon=True))
                else:
                    current.append(Atom(m.group(0), _style(base_style, bold, depth)))
            elif kind == "bare":
                current.extend(Atom(ch, _style(base_style, bold, depth), icon=True) for ch in m.group(kind))
            elif kind == "kw":
                current.append(Atom(m.group(kind), _style(base_style, bold, depth, BOLD)))
            else:
                current.append(Atom(m.group(0), _style(base_style, bold, depth)))
        if current:
            words.append(tuple(current))
        paragraphs.append(words)
    while paragraphs and not paragraphs[-1]:
        paragraphs.pop()
    return paragraphs



def symbols(text: str) -> Iterator[tuple[re.Match[str], str]]:
    """Every bracketed symbol in a text, as (match, what is inside): what the validator checks and the
    rulebook turns into icons, found by the same pattern the face tokenizer uses."""
    for m in _SYMBOL.finditer(text):
        yield m, m.group("sq") or m.group("br")

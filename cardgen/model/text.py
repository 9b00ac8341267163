"""Turn card text into atoms: words, cost symbols, glossary keywords, reminder text and bold, for
every reader.

The one grammar of card text. Faces (render.richtext), the rulebook (rulebook.content) and the
validator (validate.text) all read text through `tokens`/`parse`, so `Pay [R] … {2}` means the same
thing on a card, in the book and to the checks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, NamedTuple

from ..speed.memo import memo
from .game import GameModel

BOLD, ITALIC = 1, 2
# '[R]', '{2}', '{R}', '{Sh}', '{E/G}'
SYMBOL = r"\[(?P<sq>[A-Za-z])\]|\{(?P<br>[A-Za-z0-9]+(?:/[A-Za-z0-9]+)?)\}"
_SYMBOL = re.compile(SYMBOL)


class Atom(NamedTuple):
    """A piece of text in one style, or a cost symbol (a tuple: hashed and compared in C, millions
    of times)."""

    text: str  # the text, or the symbol letter for an icon
    style: int = 0
    icon: bool = False


Word = tuple[Atom, ...]
Paragraph = list[Word]


@dataclass
class RichRules:
    """What the model says about text: symbol letters, whether bare letters are symbols, glossary
    keywords, ability labels, and which parentheses hold reminder text."""

    letters: tuple[str, ...] = ()
    bare: bool = False
    keywords: tuple[str, ...] = ()
    x: bool = False  # '{X}' is a symbol
    hybrid: bool = False  # '{E/G}' is a symbol
    labels: tuple[
        str, ...
    ] = ()  # 'Trigger', 'Effect': bold when they open a paragraph ('Trigger: …')
    reminder: str = "after-keyword"  # italic parentheses: "after-keyword", "all" or "none"

    @classmethod
    def from_model(cls, model: GameModel) -> "RichRules":
        return cls(
            tuple(s.letter for s in model.cost.symbols),
            model.bare_symbols,
            # in another edition, the cards' own names too: a text that falls back to the default
            # language's still bolds its keywords
            tuple(
                sorted(
                    dict.fromkeys(n for k in model.keywords for n in (k.name, k.base) if n),
                    key=len,
                    reverse=True,
                )
            ),
            model.cost.x,
            model.cost.hybrid,
            tuple(model.text_labels),
            model.reminder_text,
        )

    def drawable(self, item: str) -> str | None:
        """The symbol a bracketed item ('R' in '[R]', '2' in '{2}') draws as an icon, or None
        (printed as written)."""
        if item in self.letters:
            return item
        if len(item) == 1 and item.upper() in self.letters:
            return item.upper()
        if "/" in item and self.hybrid:
            halves = [self.drawable(h) or "" for h in item.split("/")]
            return "/".join(halves) if all(h and not h.isdigit() for h in halves) else None
        if item.isdecimal() and len(item) <= 2:
            return item
        if self.x and item == "X":
            return item
        return None


@memo(64)
def _tokenizer(letters: tuple[str, ...], bare: bool, keywords: tuple[str, ...]) -> re.Pattern[str]:
    """One line of text -> tokens: bold, open, close, sq/br (a bracketed symbol), bare, kw, space,
    word."""
    parts = [r"(?P<bold>\*\*)", r"(?P<open>\()", r"(?P<close>\))", SYMBOL]
    if bare and letters:
        parts.append(rf"(?<![\w'])(?P<bare>[{''.join(letters)}]+)(?![\w'])")
    if keywords:  # a glossary keyword in any case ('Negate', 'negate'), never inside a longer word
        parts.append(
            r"(?<![\w-])(?P<kw>(?i:" + "|".join(re.escape(k) for k in keywords) + r"))(?![\w'’-])"
        )
    parts += [r"(?P<space>[ \t]+)", r"(?P<word>[\w'’]+|[^\w\s])"]
    return re.compile("|".join(parts))


_TYPOGRAPHY = [
    (re.compile(r"(?<=\w)'(?=\w)"), "’"),  # don't, it's
    (re.compile(r"(?<=s)'(?=\s|$|[.,;:!?)])"), "’"),  # players' (plural possessive)
    (re.compile(r'(^|[\s(\[{—–-])"'), r"\1“"),  # an opening double quote
    (re.compile(r'"'), "”"),
    (
        re.compile(r"(^|[\s(\[{—–-])'(?=[^']*\w')"),
        r"\1‘",
    ),  # an opening single quote, closed later on
    (re.compile(r"'"), "’"),  # else an apostrophe: 'Em, '90s
    (re.compile(r"(^|[\s(/])-(?=\d|X\b)"), r"\1−"),  # -1, -X: a true minus sign
]


def typographic(line: str) -> str:
    """Straight quotes and apostrophes made curly, a hyphen before a number made a minus sign: how
    printed card text and the rulebook show what designers type on a keyboard."""
    if "'" not in line and '"' not in line and "-" not in line:
        return line  # nothing to change (most names and many rules lines)
    for pattern, repl in _TYPOGRAPHY:
        line = pattern.sub(repl, line)
    return line


def _style(base: int, bold: bool, depth: int, extra: int = 0) -> int:
    return base | (BOLD if bold else 0) | (ITALIC if depth else 0) | extra


def parse(text: str, rules: RichRules, base_style: int = 0) -> list[Paragraph]:
    """Card text -> paragraphs of words; a word is a tuple of atoms glued together (e.g.
    '[B][B]:')."""
    pattern = _tokenizer(rules.letters, rules.bare, rules.keywords)
    paragraphs: list[Paragraph] = []
    for line in text.split("\n"):
        line = typographic(line)
        bold, depth = False, 0
        opened: list[bool] = []  # for each open bracket: did it start italic reminder text?
        words: Paragraph = []
        current: list[Atom] = []
        since_keyword = (
            99  # words since the last glossary keyword: '(…)' right after one is its reminder
        )

        for m in pattern.finditer(line):
            kind = m.lastgroup
            if kind == "space":
                if current:
                    words.append(tuple(current))
                    # a keyword's number ('Scry 1', 'Poison X') still belongs to it
                    if since_keyword != 1 or not (
                        "".join(a.text for a in current).strip(":,").isdigit()
                        or current[0].text == "X"
                    ):
                        since_keyword += 1
                    current = []
            elif kind == "bold":
                bold = not bold
            elif kind == "open":
                # reminder text is italic: by default a parenthesis right after a keyword ('Scry 1
                # (look at …)'); never a bracket glued to a word, as in 'effect(s)'
                glued = m.start() > 0 and line[m.start() - 1].isalnum()
                reminder = not glued and (
                    rules.reminder == "all"
                    or rules.reminder == "after-keyword"
                    and since_keyword <= 1
                )
                opened.append(reminder)
                depth += 1 if reminder else 0
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
                current.extend(
                    Atom(ch, _style(base_style, bold, depth), icon=True) for ch in m.group(kind)
                )
            elif kind == "kw":
                current.append(Atom(m.group(kind), _style(base_style, bold, depth, BOLD)))
                since_keyword = 0
            else:
                current.append(Atom(m.group(0), _style(base_style, bold, depth)))
        if current:
            words.append(tuple(current))
        paragraphs.append(_label(words, rules.labels))
    while paragraphs and not paragraphs[-1]:
        paragraphs.pop()
    return paragraphs


def _label(words: Paragraph, labels: tuple[str, ...]) -> Paragraph:
    """A paragraph opening with one of the model's ability labels ('Trigger:') has the label in
    bold."""
    if not labels or not words:
        return words
    head = ""
    for n, word in enumerate(words[:4], 1):
        head += ("" if n == 1 else " ") + "".join(a.text for a in word)
        if head.endswith(":") and head[:-1].casefold() in {lb.casefold() for lb in labels}:
            bolded = [tuple(Atom(a.text, a.style | BOLD, a.icon) for a in w) for w in words[:n]]
            return bolded + words[n:]
    return words


def symbols(text: str) -> Iterator[tuple[re.Match[str], str]]:
    """Every bracketed symbol in a text, as (match, what is inside): what the validator checks and
    the rulebook turns into icons, found by the same pattern the face tokenizer uses."""
    for m in _SYMBOL.finditer(text):
        yield m, m.group("sq") or m.group("br")

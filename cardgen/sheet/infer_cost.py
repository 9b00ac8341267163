"""Turn an inferred game's cost column and the symbols in its texts ('[B]', '{St}') into a cost
grammar: the symbols, whether generic numbers appear, and which fields are rules text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field as _field

from ..model.text import symbols
from .infer import Column, Inferred, as_text

COST_HEADERS = ("cost", "mana", "price", "energy")
SYMBOL = re.compile(r"[A-Z][A-Za-z0-9]{0,2}")  # what game.yaml allows as a symbol's letter
_LETTERS = re.compile(r"[A-Z]+")
_MIXED = re.compile(r"(\d{1,2})([A-Z]+)")
_BRACED = re.compile(r"(?:\{[^{}]+\})+")
_ITEM = re.compile(r"\{([^{}]+)\}")
MAX_SYMBOLS = 12


@dataclass
class CostGuess:
    """The cost grammar a sheet implies: the cost field (if a column reads as costs), the symbols,
    generic numbers, and the text fields whose '[X]' marks were read."""

    field: Column | None = None
    symbols: list[str] = _field(default_factory=list)
    generic: bool = False
    text_fields: list[Column] = _field(default_factory=list)
    why: str = ""


def is_cost_header(col: Column) -> bool:
    return col.field.startswith(COST_HEADERS)


def guess_cost(inferred: Inferred) -> CostGuess:
    """A text column headed like a cost whose values (four in five at least) start with a run of
    capital letters, braced symbols or a number is a `cost` field; its letters, and the capitalised
    '[X]' and '{X}' marks of the rules texts, are the symbols (at most twelve, else none: a sheet
    that writes square brackets for something else)."""
    guess = CostGuess()
    found: dict[str, int] = {}
    texts = [c for c in inferred.columns if c.kind == "text" and c.long]
    for col in texts:
        marks = [item for v in _values(inferred, col) for _, item in symbols(v)]
        if marks:
            guess.text_fields.append(col)
        for item in marks:
            _count(found, item, guess)
    cost = next(
        (c for c in inferred.columns if c.kind == "text" and not c.long and is_cost_header(c)),
        None,
    )
    if cost is not None:
        parts = [_parts(v) for v in _values(inferred, cost)]
        read = [p for p in parts if p is not None]
        if len(read) >= 2 and len(read) * 5 >= len(parts) * 4:  # a few may be clauses alone
            guess.field = cost
            for items in parts:
                for item in items or []:
                    _count(found, item, guess)
    guess.symbols = sorted(found, key=lambda s: (-found[s], s))
    if len(guess.symbols) > MAX_SYMBOLS:
        guess.symbols, guess.field, guess.text_fields = [], None, []
        guess.generic = False
    return guess


def apply_cost(inferred: Inferred) -> CostGuess:
    """Guess the cost grammar and make the cost column a `cost` field."""
    guess = guess_cost(inferred)
    if guess.field is not None:
        guess.field.kind = "cost"
        guess.field.why = "costs: runs of symbols (BB, {2}{C}) and free-text clauses after a comma"
    inferred.cost = guess
    return guess


def _values(inferred: Inferred, col: Column) -> list[str]:
    return [
        as_text(v)  # type: ignore[arg-type]
        for _, cards in inferred.tables
        for c in cards
        if (v := c.get(col.field)) is not None
    ]


def _count(found: dict[str, int], item: str, guess: CostGuess) -> None:
    for half in item.split("/"):
        half = half.strip()
        if half.isdigit():
            guess.generic = True
        elif half.upper() == "X":
            continue  # X is allowed by default
        elif SYMBOL.fullmatch(half):
            found[half] = found.get(half, 0) + 1


def _parts(value: str) -> list[str] | None:
    """The symbols of one cost ('BB', '{2}{C}', '3', 'DDD, Mill half your deck'), or None when it
    does not start like a cost."""
    first, *_ = [p.strip() for p in value.split(",")]
    if first.isdigit():
        return [first]
    if _LETTERS.fullmatch(first):
        return list(first)
    mixed = _MIXED.fullmatch(first)
    if mixed:  # '2R', '4RR': a generic number, then symbols (the cost grammar reads {2}{R})
        return [mixed.group(1), *mixed.group(2)]
    if _BRACED.fullmatch(first):
        return _ITEM.findall(first)
    return None


def symbol_colours(
    letters: list[str], factions: dict[str, str], palette: tuple[tuple[str, str], ...]
) -> dict[str, tuple[str, str]]:
    """Each symbol's colour and why: a faction's colour when the letter is that faction's value or
    the start of exactly one faction's name (R for Red), else the next palette colour no faction
    has."""
    out: dict[str, tuple[str, str]] = {}
    for letter in letters:
        same = [f for f in factions if f.casefold() == letter.casefold()]
        starts = [f for f in factions if f.casefold().startswith(letter.casefold())]
        match = same or (starts if len(starts) == 1 else [])
        if match:
            out[letter] = (factions[match[0]], f"the colour of {match[0]}")
    taken = set(factions.values())  # a symbol of no faction never looks like one
    free = [c for c, _ in palette if c not in taken] or [c for c, _ in palette]
    rest = [letter for letter in letters if letter not in out]
    for n, letter in enumerate(rest):
        out[letter] = (free[n % len(free)], "")
    return out


def cost_yaml(
    guess: CostGuess,
    palette: tuple[tuple[str, str], ...],
    factions: dict[str, str] | None = None,
    rules: tuple[str, ...] = (),
) -> list[str]:
    """The `cost:` and `text:` sections of game.yaml for the guess, with comments (`factions`: the
    faction values' frame colours, which symbols named like a faction take; `rules`: the fields
    the front prints as rules text, where keywords are looked for)."""
    lines: list[str] = []
    if guess.symbols:
        where = []
        if guess.field is not None:
            where.append(f'"{guess.field.header}"')
        where += [f'"{c.header}"' for c in guess.text_fields]
        lines += [
            f"# The symbols written in {' and '.join(where)}: a name and a colour each, to change.",
            "cost:",
            "  symbols:",
        ]
        colours = symbol_colours(guess.symbols, factions or {}, palette)
        for letter in guess.symbols:
            colour, why = colours[letter]
            note = f"  # {why}" if why else ""
            lines.append(f'    - {{letter: {letter}, name: {letter}, color: "{colour}"}}{note}')
        lines.append(f"  generic: {'true' if guess.generic else 'false'}  # numbers such as {{2}}")
        lines.append("")
    marked = [c.field for c in guess.text_fields]
    fields = [*rules, *(f for f in marked if f not in rules)]
    lines.append("text:")
    if fields:
        why = "keywords" + (" and [X] symbols" if marked else "") + " are read here"
        lines.append(f"  fields: [{', '.join(fields)}]  # the rules text: {why}")
    lines.append("  keyword_lines: false  # no glossary yet: see docs/model.md, keywords")
    return lines

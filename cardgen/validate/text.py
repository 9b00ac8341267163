"""Checks of card text against the glossary and cost symbols, and of unfinished (placeholder or
draft) cards."""

from __future__ import annotations

import re
from typing import Iterator, NamedTuple

from ..core.errors import Finding, Severity, did_you_mean
from ..load.card import Card, Catalog
from ..model.cost import same_halves
from ..model.text import symbols
from ..model.words import Keyword
from . import Context, card_check, set_check

_WORD = r"[A-Z][A-Za-z'-]*(?: (?!X\b)[A-Z][A-Za-z'-]*)?"  # 'Scry X' is Scry with a number
_USE = rf"{_WORD}(?: (?:\d+|X))?(?: \([^()]*\))?"  # 'Intercept', 'Whisper 2', 'Veil (…)'
KEYWORD_DEFINITION = re.compile(rf"^({_WORD})(?: (\d+|X))? - (.+)$")  # 'Bleed - When this…'
KEYWORD_LIST = re.compile(rf"^{_USE}(?:, {_USE})*$")  # 'Intercept, Shield'
KEYWORD_USE = re.compile(rf"({_WORD})(?: (\d+|X))?(?: \(([^()]*)\))?")


class KeywordUse(NamedTuple):
    offset: int  # the line of the text
    word: str
    number: str | None  # 'Whisper 2' -> '2'
    reminder: str | None  # 'Bleed - When…' or 'Veil (…)' -> the text
    parenthesised: bool  # the reminder was written in parentheses


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9 ]+", " ", text.lower()).split())


def keyword_lines(text: str) -> Iterator[KeywordUse]:
    """Each keyword a card's text declares: a line of keywords ('Intercept, Whisper 2', 'Veil (…)')
    or a keyword with its reminder ('Bleed - When this damages…')."""
    for offset, line in enumerate(text.splitlines()):
        line = line.strip()
        m = KEYWORD_DEFINITION.match(line)
        if m:
            yield KeywordUse(offset, m.group(1), m.group(2), m.group(3), False)
        elif KEYWORD_LIST.match(line):
            for use in KEYWORD_USE.finditer(line):
                yield KeywordUse(
                    offset, use.group(1), use.group(2), use.group(3), bool(use.group(3))
                )


def _text_fields(card: Card, ctx: Context) -> Iterator[tuple[str, str]]:
    placeholders = ctx.placeholder_fields(card)
    for key in ctx.model.text_fields:
        value = card.get(key)
        if isinstance(value, str) and key not in placeholders:
            yield key, value


@card_check("keywords")
def check_keywords(card: Card, ctx: Context) -> Iterator[Finding]:
    model = ctx.model
    if not model.keyword_lines:
        return
    names = [k.name for k in model.keywords]
    for key, text in _text_fields(card, ctx):
        for use in keyword_lines(text):
            kw = model.keyword(use.word)
            if kw is None:
                if not use.parenthesised:  # 'Draw (…)' may be a sentence
                    yield ctx.at(
                        card,
                        key,
                        Severity.WARNING,
                        "undefined-keyword",
                        f"keyword '{use.word}' is not in the glossary",
                        did_you_mean(use.word, names),
                        about="keywords",
                    )
                continue
            yield from _keyword_form(card, ctx, key, use, kw)


def _keyword_form(
    card: Card, ctx: Context, key: str, use: KeywordUse, kw: Keyword
) -> Iterator[Finding]:
    """A glossary keyword written as the glossary declares it: with a number when it takes one,
    without one when it does not, with reminder text only where the glossary has some."""
    problem, hint = None, None
    if use.number is not None and not kw.parameter:
        problem = (
            f"'{kw.name} {use.number}' has a number, but the glossary's '{kw.name}' takes none"
        )
        hint = f"write '{kw.name}', or declare it with 'parameter: true'"
    elif use.number is None and kw.parameter:
        problem = f"'{kw.name}' is written without the number the glossary's '{kw.name}' takes"
        hint = f"write it as '{kw.name} 2' or '{kw.name} X'"
    elif use.parenthesised and not kw.reminder:
        problem = f"'{kw.name}' is written with reminder text, but the glossary gives it none"
        hint = "add 'reminder:' to the glossary entry, or leave it out of the card"
    if problem:
        yield ctx.at(card, key, Severity.WARNING, "keyword-form", problem, hint, about="keywords")
    if use.reminder and kw.reminder and _norm(use.reminder) != _norm(kw.reminder):
        yield ctx.at(
            card,
            key,
            Severity.INFO,
            "reminder-differs",
            f"reminder text of '{kw.name}' differs from the glossary's",
            f'glossary: "{kw.reminder}"',
            about="keywords",
        )


@card_check("text-symbols")
def check_text_symbols(card: Card, ctx: Context) -> Iterator[Finding]:
    grammar = ctx.model.cost
    letters = {s.letter for s in grammar.symbols}
    for key, text in _text_fields(card, ctx):
        for m, item in symbols(text):
            same = same_halves(item, grammar)
            if same:
                yield ctx.at(
                    card,
                    key,
                    Severity.ERROR,
                    "cost-hybrid-same",
                    f"'{m.group(0)}' in the text has {same} on both halves: it is just "
                    f"'{{{same}}}'",
                    about="costs",
                )
                continue
            if (
                item in letters
                or (grammar.generic and item.isdigit())
                or (grammar.x and item == "X")
                or grammar.halves(item)
            ):
                continue
            if item.upper() in letters:
                yield ctx.at(
                    card,
                    key,
                    Severity.WARNING,
                    "symbol-case",
                    f"'{m.group(0)}' in the text is written in lower case; the symbol is "
                    f"'{item.upper()}'",
                    about="costs",
                )
            else:
                yield ctx.at(
                    card,
                    key,
                    Severity.ERROR,
                    "unknown-cost-symbol",
                    f"'{m.group(0)}' in the text is not a cost symbol of this game",
                    f"symbols: {', '.join(sorted(letters)) or 'none'}",
                    about="costs",
                )


@card_check("unfinished")
def check_unfinished(card: Card, ctx: Context) -> Iterator[Finding]:
    reasons = []
    if ctx.is_draft(card):
        reasons.append(f"marked {ctx.model.draft_field}: {card.get(ctx.model.draft_field or '')}")
    placeholders = ctx.placeholder_fields(card)
    for key, value in card.data.items():
        if key == ctx.model.draft_field or value is None:
            continue
        if key in placeholders:
            shown = value if isinstance(value, str) else ", ".join(map(str, value))
            reasons.append(f"'{key}' is a placeholder ({shown.strip() or 'empty'})")
        elif isinstance(value, str) and any(
            p and p in value for p in ctx.model.placeholders if len(p) > 1
        ):
            reasons.append(f"'{key}' contains a placeholder")
    if reasons:
        hint = (
            None
            if ctx.is_draft(card) or not ctx.model.draft_field
            else f"mark it '{ctx.model.draft_field}: draft'"
        )
        yield ctx.at(
            card,
            None,
            Severity.WARNING,
            "unfinished-card",
            "unfinished card: " + "; ".join(reasons),
            hint,
        )


@set_check("glossary")
def check_glossary(catalog: Catalog, ctx: Context) -> Iterator[Finding]:
    """Glossary entries with no text, and glossary keywords that no card uses."""
    model = ctx.model
    corpus = " ".join(_norm(text) for card in catalog for _, text in _text_fields(card, ctx))
    corpus = f" {corpus} "
    for kw in model.keywords:
        if not (kw.reminder or kw.rules):
            note = f": {kw.note}" if kw.note else ""
            yield ctx.at_model(
                kw.loc,
                Severity.WARNING,
                "keyword-no-text",
                f"glossary keyword '{kw.name}' has neither reminder nor rules text{note}",
                about="keywords",
            )
        names = [kw.name] + ([kw.base] if kw.base else [])  # a text that fell back: its own
        if not any(f" {_norm(n)} " in corpus for n in names):
            yield ctx.at_model(
                kw.loc,
                Severity.INFO,
                "keyword-unused",
                f"no card uses the keyword '{kw.name}'",
                about="keywords",
            )

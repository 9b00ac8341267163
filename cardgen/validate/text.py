"""Checks of card text against the glossary and cost symbols, and of unfinished (placeholder or draft) cards."""
from __future__ import annotations

import re
from typing import Iterator

from ..core.errors import Finding, Severity, did_you_mean
from ..load.card import Card, Catalog
from ..model.text import symbols
from . import Context, card_check, set_check

_WORD = r"[A-Z][A-Za-z'-]*(?: [A-Z][A-Za-z'-]*)?"
KEYWORD_DEFINITION = re.compile(rf"^({_WORD}) - (.+)$")  # 'Bleed - When this damages…'
KEYWORD_LIST = re.compile(rf"^{_WORD}(?:, {_WORD})*$")  # 'Intercept, Shield'


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9 ]+", " ", text.lower()).split())


def keyword_lines(text: str) -> Iterator[tuple[int, str, str | None]]:
    """(line offset, keyword, inline reminder or None) for each keyword a card's text declares."""
    for offset, line in enumerate(text.splitlines()):
        line = line.strip()
        m = KEYWORD_DEFINITION.match(line)
        if m:
            yield offset, m.group(1), m.group(2)
        elif KEYWORD_LIST.match(line):
            for word in line.split(", "):
                yield offset, word, None


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
        for _, word, reminder in keyword_lines(text):
            kw = model.keyword(word)
            if kw is None:
                yield ctx.at(card, key, Severity.WARNING, "undefined-keyword",
                             f"keyword '{word}' is not in the glossary", did_you_mean(word, names))
            elif reminder and kw.reminder and _norm(reminder) != _norm(kw.reminder):
                yield ctx.at(card, key, Severity.INFO, "reminder-differs",
                             f"reminder text of '{kw.name}' differs from the glossary's",
                             f"glossary: \"{kw.reminder}\"")


@card_check("text-symbols")
def check_text_symbols(card: Card, ctx: Context) -> Iterator[Finding]:
    grammar = ctx.model.cost
    letters = {s.letter for s in grammar.symbols}
    for key, text in _text_fields(card, ctx):
        for m, item in symbols(text):
            if item in letters or (grammar.generic and item.isdigit()) or (grammar.x and item == "X") \
                    or grammar.halves(item):
                continue
            if item.upper() in letters:
                yield ctx.at(card, key, Severity.WARNING, "symbol-case",
                             f"'{m.group(0)}' in the text is written in lower case; the symbol is '{item.upper()}'")
            else:
                yield ctx.at(card, key, Severity.ERROR, "unknown-cost-symbol",
                             f"'{m.group(0)}' in the text is not a cost symbol of this game",
                             f"symbols: {', '.join(sorted(letters)) or 'none'}")


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
        elif isinstance(value, str) and any(p and p in value for p in ctx.model.placeholders if len(p) > 1):
            reasons.append(f"'{key}' contains a placeholder")
    if reasons:
        hint = None if ctx.is_draft(card) or not ctx.model.draft_field else f"mark it '{ctx.model.draft_field}: draft'"
        yield ctx.at(card, None, Severity.WARNING, "unfinished-card", "unfinished card: " + "; ".join(reasons), hint)


@set_check("glossary")
def check_glossary(catalog: Catalog, ctx: Context) -> Iterator[Finding]:
    """Glossary entries with no text, and glossary keywords that no card uses."""
    model = ctx.model
    corpus = " ".join(_norm(text) for card in catalog for _, text in _text_fields(card, ctx))
    corpus = f" {corpus} "
    for kw in model.keywords:
        if not (kw.reminder or kw.rules):
            note = f": {kw.note}" if kw.note else ""
            yield ctx.at_model(kw.loc, Severity.WARNING, "keyword-no-text",
                               f"glossary keyword '{kw.name}' has neither reminder nor rules text{note}")
        if f" {_norm(kw.name)} " not in corpus:
            yield ctx.at_model(kw.loc, Severity.INFO, "keyword-unused", f"no card uses the keyword '{kw.name}'")

"""Turn a deck list's main deck and sections into findings: sizes, copies, limits and places."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterator

from ..core.errors import Finding, Severity, did_you_mean
from ..load.card import Card
from ..load.decklist import DeckList, Entry
from ..model.deckrules import DeckRules
from ..model.game import matches


def _f(
    deck: DeckList, line: int, severity: Severity, code: str, message: str, hint: str | None = None
) -> Finding:
    return Finding(deck.file, line, 1, severity, code, None, message, hint)


def _main_entries(
    deck: DeckList, rules: DeckRules, resolved: list[tuple[Entry, Card]]
) -> list[tuple[Entry, Card]]:
    apart = set(rules.sections) | undeclared(deck, rules)
    if rules.character is not None:
        apart |= {rules.character.signature.section, rules.character.extras.section}
    return [(e, c) for e, c in resolved if e.section not in apart]


def _main_rules(
    deck: DeckList, rules: DeckRules, resolved: list[tuple[Entry, Card]]
) -> Iterator[Finding]:
    main = rules.main
    entries = _main_entries(deck, rules, resolved)
    counted = [
        (e, c)
        for e, c in entries
        if not any(matches(w, c.data) for w in rules.separate_decks.values())
    ]
    # sizes count what the list says: a misspelt name is one finding (unknown card), not two
    known = {id(e) for e, _ in resolved}
    unknown = [
        e
        for e in deck.entries
        if id(e) not in known and e.section in {x.section for x, _ in entries} | {"main"}
    ]
    total = sum(e.count for e, _ in counted) + sum(e.count for e in unknown)
    first = min([e.line for e, _ in counted] + [e.line for e in unknown], default=1)
    size, low, high = main.size, main.min, main.max
    if size is not None and total != size:
        yield _f(
            deck,
            first,
            Severity.ERROR,
            "deck-size",
            f"the deck has {total} cards; it must have exactly {size}",
        )
    if low is not None and total < low:
        yield _f(
            deck,
            first,
            Severity.ERROR,
            "deck-size",
            f"the deck has {total} cards; it needs at least {low}",
        )
    if high is not None and total > high:
        yield _f(
            deck,
            first,
            Severity.ERROR,
            "deck-size",
            f"the deck has {total} cards; at most {high} are allowed",
        )
    yield from _outside(deck, counted, main.where, "in the main deck")
    limit = main.max_copies
    if limit:
        by: Counter[str] = Counter()
        lines: dict[str, int] = {}
        for e, c in counted:
            key = c.name.lower() if main.copies_by == "name" else c.id
            by[key] += e.count
            lines.setdefault(key, e.line)
        for key, n in by.items():
            if n > limit:
                yield _f(
                    deck,
                    lines[key],
                    Severity.ERROR,
                    "deck-copies",
                    f"{n} copies of '{key}'; at most {limit} of a card are allowed (counted by "
                    "name)",
                )
    yield from _limits(deck, rules, counted)


def _limits(
    deck: DeckList, rules: DeckRules, counted: list[tuple[Entry, Card]]
) -> Iterator[Finding]:
    """Copy limits for some cards, at most N distinct values of a field, a value all cards share."""
    for limit in rules.copies:
        by: Counter[str] = Counter()
        lines: dict[str, int] = {}
        for e, c in counted:
            if matches(limit.where, c.data):
                by[c.name] += e.count
                lines.setdefault(c.name, e.line)
        for name, n in by.items():
            if n > limit.max:
                yield _f(
                    deck,
                    lines[name],
                    Severity.ERROR,
                    "deck-copies",
                    f"{n} copies of '{name}'; at most {limit.max} of a card with "
                    f"{_describe(limit.where)} "
                    "are allowed",
                )
    for field_name, most in rules.distinct:
        seen: dict[str, int] = {}
        for e, c in counted:
            for value in c.values(field_name):
                seen.setdefault(str(value), e.line)
        if len(seen) > most:
            extra = sorted(seen.items(), key=lambda kv: kv[1])[most]
            yield _f(
                deck,
                extra[1],
                Severity.ERROR,
                "deck-distinct",
                f"{len(seen)} different {field_name} ({', '.join(seen)}); at most {most}",
            )
    for field_name in rules.share:
        common: set[str] | None = None
        for e, c in counted:
            values = {str(v) for v in c.values(field_name)}
            common = values if common is None else common & values
            if not common:
                yield _f(
                    deck,
                    e.line,
                    Severity.ERROR,
                    "deck-share",
                    f"'{c.name}' shares no {field_name} with the cards before it",
                )
                break


def _describe(where: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in where.items())


def _outside(
    deck: DeckList, entries: list[tuple[Entry, Card]], where: dict[str, Any] | None, place: str
) -> Iterator[Finding]:
    """Cards listed in a place (the main deck, a section) whose data does not match that place's
    `where`."""
    for e, c in entries if where else []:
        if not matches(where, c.data):  # type: ignore[arg-type]
            yield _f(
                deck,
                e.line,
                Severity.ERROR,
                "deck-wrong-section",
                f"'{c.name}' cannot be {place} ({_describe(where or {})})",
            )


def _sections(
    deck: DeckList, rules: DeckRules, resolved: list[tuple[Entry, Card]]
) -> Iterator[Finding]:
    for name, spec in rules.sections.items():
        entries = [(e, c) for e, c in resolved if e.section == name]
        written = [e for e in deck.entries if e.section == name]
        total = sum(e.count for e in written)
        line = written[0].line if written else 1
        if spec.count is not None and total != spec.count:
            yield _f(
                deck,
                line,
                Severity.ERROR,
                "deck-section",
                f"{name}: {total} card{'s' * (total != 1)}; it must be exactly {spec.count}",
            )
        yield from _outside(deck, entries, spec.where, f"the {name}")


def declared(rules: DeckRules) -> list[str]:
    """The sections a plain list may have headers for: the main deck, the model's `sections` and
    its `separate_decks`."""
    return list(dict.fromkeys(["main", *rules.sections, *rules.separate_decks]))


def undeclared(deck: DeckList, rules: DeckRules) -> set[str]:
    """Sections the list has headers for that its deck format does not declare."""
    known = set(declared(rules))
    return {section for _, _, section, _ in deck.headers if section not in known}


def unknown_sections(deck: DeckList, rules: DeckRules) -> Iterator[Finding]:
    """A header the deck format does not declare ('Sideboard:' in a game without a sideboard): its
    cards are left out of the main deck, which they would otherwise silently join."""
    names = declared(rules)
    for line, column, section, written in deck.headers:
        if section in names:
            continue
        hint = did_you_mean(section, names)
        yield Finding(
            deck.file,
            line,
            column,
            Severity.ERROR,
            "deck-unknown-section",
            None,
            f"'{written}' is no section of this game's decks (sections: {', '.join(names)}); "
            "its cards are not counted in the main deck",
            hint or "declare it under deck.sections in game.yaml, or remove the header",
        )

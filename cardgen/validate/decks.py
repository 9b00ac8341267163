"""Turn a DeckList and a game's `deck:` rules into findings: sizes, copies, sections, and character
rules.

Rules the data cannot decide (a colour pip the source never gives) are reported as `unverifiable`
info, never as broken rules.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Iterator

from ..core.errors import CardgenError, Finding, Severity, did_you_mean, suggest
from ..load.card import Card, Catalog
from ..load.decklist import DeckList, Dialect, Entry
from ..model.deckrules import DeckRules
from ..model.game import GameModel, matches
from .deckcharacter import _character
from .deckmain import _f, _main_rules, _sections, unknown_sections


def _rules_for(model: GameModel, name: str | None) -> DeckRules:
    """The model's deck rules, or one of its named formats laid over them."""
    rules = model.deck
    if not name:
        return rules
    if name not in rules.formats:
        raise CardgenError(
            suggest(
                f"no deck format '{name}' in {model.name} "
                f"(formats: {', '.join(rules.formats) or 'none'})",
                name,
                list(rules.formats),
            )
        )
    return rules.with_format(name)


def check_deck(
    deck: DeckList,
    model: GameModel,
    catalog: Catalog,
    pool: list[str] | None = None,
    rules_name: str | None = None,
) -> list[Finding]:
    rules = _rules_for(model, rules_name or deck.rules)
    resolved, out = resolve(deck, catalog, model.name)
    if not deck.entries:
        out.append(_f(deck, 1, Severity.ERROR, "deck-empty", "the deck list names no cards"))
    out += list(unknown_sections(deck, rules))
    out += list(_main_rules(deck, rules, resolved))
    out += list(_sections(deck, rules, resolved))
    if rules.character is not None:
        out += list(_character(deck, rules.character, resolved, model))
    if pool is not None:
        out += list(_from_pool(deck, resolved, pool, rules))
    elif rules.from_pool == "draft":
        out.append(
            _f(
                deck,
                1,
                Severity.INFO,
                "deck-pool-unchecked",
                "this game's decks are built from a drafted pool (deck.from_pool: draft), which "
                "was not given",
                "pass --pool with a draft made by 'cardgen draft --format json', and --seat",
            )
        )
    elif rules.from_pool not in (None, "draft"):
        out.append(
            _f(
                deck,
                1,
                Severity.WARNING,
                "deck-pool-unknown",
                f"deck.from_pool is {rules.from_pool!r}; the only pool cardgen knows is 'draft'",
            )
        )
    return sorted(out, key=lambda f: (f.line, f.code))


def resolve(
    deck: DeckList, catalog: Catalog, game: str | None = None
) -> tuple[list[tuple[Entry, Card]], list[Finding]]:
    """Each entry's card, and a finding (with a did-you-mean) for each name the game does not
    have."""
    names = [c.name for c in catalog if c.name]
    resolved: list[tuple[Entry, Card]] = []
    findings = [
        _f(deck, line, Severity.ERROR, code, message) for line, code, message in deck.problems
    ]
    for e in deck.entries:
        card = catalog.find(e.name)
        if card is None:
            where = f" in {game}" if game else ""
            findings.append(
                _f(
                    deck,
                    e.line,
                    Severity.ERROR,
                    "deck-unknown-card",
                    f"no card named '{e.name}'{where}",
                    did_you_mean(e.name, names),
                )
            )
        else:
            resolved.append((e, card))
    return resolved, findings


def _from_pool(
    deck: DeckList, resolved: list[tuple[Entry, Card]], pool: list[str], rules: DeckRules
) -> Iterator[Finding]:
    """deck.from_pool: draft — a deck is built from the cards its player drafted."""
    have = Counter(pool)
    used: Counter[str] = Counter()
    for e, c in resolved:
        if any(matches(w, c.data) for w in rules.separate_decks.values()):
            continue
        used[c.id] += e.count
        if used[c.id] > have[c.id]:
            yield _f(
                deck,
                e.line,
                Severity.ERROR,
                "deck-not-drafted",
                f"{used[c.id]} '{c.name}' in the deck, {have[c.id]} in the drafted pool",
            )


def read_pool(path: Path, seat: int) -> list[str]:
    """A seat's picks from `cardgen draft --format json` output."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        seats = {s["seat"]: s["picks"] for s in data["seats"]}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CardgenError(
            f"{path} is not a draft file from 'cardgen draft --format json': {exc}"
        ) from exc
    if seat not in seats:
        raise CardgenError(
            f"{path} has no seat {seat} (seats: {', '.join(map(str, sorted(seats)))})"
        )
    return list(seats[seat])


def dialect_for(model: GameModel) -> Dialect:
    """How the model says its deck lists are written."""
    rules, character = model.deck, model.deck.character
    return Dialect(
        rules.format,
        tuple(name for name, spec in rules.sections.items() if spec.count == 1),
        character.signature.section if character else "",
        character.extras.section if character else "",
    )

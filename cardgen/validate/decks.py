"""Turn a DeckList and a game's `deck:` rules into findings: sizes, copies, sections, and character rules.

Rules the data cannot decide (a colour pip the source never gives) are reported as `unverifiable`
info, never as broken rules.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

from ..core.errors import CardgenError, Finding, Severity, did_you_mean, suggest
from ..load.card import Card, Catalog
from ..load.decklist import DeckList, Dialect, Entry
from ..model.deckrules import CharacterRules, DeckRules
from ..model.game import GameModel, matches


def _f(deck: DeckList, line: int, severity: Severity, code: str, message: str, hint: str | None = None) -> Finding:
    return Finding(deck.file, line, 1, severity, code, None, message, hint)


def _rules_for(model: GameModel, name: str | None) -> DeckRules:
    """The model's deck rules, or one of its named formats laid over them."""
    rules = model.deck
    if not name:
        return rules
    if name not in rules.formats:
        raise CardgenError(suggest(f"no deck format '{name}' in {model.name} "
                                   f"(formats: {', '.join(rules.formats) or 'none'})", name, list(rules.formats)))
    return rules.with_format(name)


def check_deck(deck: DeckList, model: GameModel, catalog: Catalog, pool: list[str] | None = None,
               rules_name: str | None = None) -> list[Finding]:
    rules = _rules_for(model, rules_name or deck.rules)
    resolved, out = resolve(deck, catalog, model.name)
    if not deck.entries:
        out.append(_f(deck, 1, Severity.ERROR, "deck-empty", "the deck list names no cards"))
    out += list(_main_rules(deck, rules, resolved))
    out += list(_sections(deck, rules, resolved))
    if rules.character is not None:
        out += list(_character(deck, rules.character, resolved, model))
    if pool is not None:
        out += list(_from_pool(deck, resolved, pool, rules))
    elif rules.from_pool == "draft":
        out.append(_f(deck, 1, Severity.INFO, "deck-pool-unchecked",
                      "this game's decks are built from a drafted pool (deck.from_pool: draft), which was not given",
                      "pass --pool with a draft made by 'cardgen draft --format json', and --seat"))
    elif rules.from_pool not in (None, "draft"):
        out.append(_f(deck, 1, Severity.WARNING, "deck-pool-unknown",
                      f"deck.from_pool is {rules.from_pool!r}; the only pool cardgen knows is 'draft'"))
    return sorted(out, key=lambda f: (f.line, f.code))


def resolve(deck: DeckList, catalog: Catalog, game: str | None = None) -> tuple[list[tuple[Entry, Card]],
                                                                              list[Finding]]:
    """Each entry's card, and a finding (with a did-you-mean) for each name the game does not have."""
    names = [c.name for c in catalog if c.name]
    resolved: list[tuple[Entry, Card]] = []
    findings = [_f(deck, line, Severity.ERROR, code, message) for line, code, message in deck.problems]
    for e in deck.entries:
        card = catalog.find(e.name)
        if card is None:
            where = f" in {game}" if game else ""
            findings.append(_f(deck, e.line, Severity.ERROR, "deck-unknown-card", f"no card named '{e.name}'{where}",
                               did_you_mean(e.name, names)))
        else:
            resolved.append((e, card))
    return resolved, findings


def _main_entries(deck: DeckList, rules: DeckRules, resolved: list[tuple[Entry, Card]]) -> list[tuple[Entry, Card]]:
    apart = set(rules.sections)
    if rules.character is not None:
        apart |= {rules.character.signature.section, rules.character.extras.section}
    return [(e, c) for e, c in resolved if e.section not in apart]


def _main_rules(deck: DeckList, rules: DeckRules, resolved: list[tuple[Entry, Card]]) -> Iterator[Finding]:
    main = rules.main
    entries = _main_entries(deck, rules, resolved)
    counted = [(e, c) for e, c in entries if not any(matches(w, c.data) for w in rules.separate_decks.values())]
    # sizes count what the list says: a misspelt name is one finding (unknown card), not two
    known = {id(e) for e, _ in resolved}
    unknown = [e for e in deck.entries if id(e) not in known and e.section in {x.section for x, _ in entries} | {"main"}]
    total = sum(e.count for e, _ in counted) + sum(e.count for e in unknown)
    first = min([e.line for e, _ in counted] + [e.line for e in unknown], default=1)
    size, low, high = main.size, main.min, main.max
    if size is not None and total != size:
        yield _f(deck, first, Severity.ERROR, "deck-size", f"the deck has {total} cards; it must have exactly {size}")
    if low is not None and total < low:
        yield _f(deck, first, Severity.ERROR, "deck-size", f"the deck has {total} cards; it needs at least {low}")
    if high is not None and total > high:
        yield _f(deck, first, Severity.ERROR, "deck-size", f"the deck has {total} cards; at most {high} are allowed")
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
                yield _f(deck, lines[key], Severity.ERROR, "deck-copies",
                         f"{n} copies of '{key}'; at most {limit} of a card are allowed (counted by name)")
    yield from _limits(deck, rules, counted)


def _limits(deck: DeckList, rules: DeckRules, counted: list[tuple[Entry, Card]]) -> Iterator[Finding]:
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
                yield _f(deck, lines[name], Severity.ERROR, "deck-copies",
                         f"{n} copies of '{name}'; at most {limit.max} of a card with {_describe(limit.where)} "
                         "are allowed")
    for field_name, most in rules.distinct:
        seen: dict[str, int] = {}
        for e, c in counted:
            for value in c.values(field_name):
                seen.setdefault(str(value), e.line)
        if len(seen) > most:
            extra = sorted(seen.items(), key=lambda kv: kv[1])[most]
            yield _f(deck, extra[1], Severity.ERROR, "deck-distinct",
                     f"{len(seen)} different {field_name} ({', '.join(seen)}); at most {most}")
    for field_name in rules.share:
        common: set[str] | None = None
        for e, c in counted:
            values = {str(v) for v in c.values(field_name)}
            common = values if common is None else common & values
            if not common:
                yield _f(deck, e.line, Severity.ERROR, "deck-share",
                         f"'{c.name}' shares no {field_name} with the cards before it")
                break


def _describe(where: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in where.items())


def _outside(deck: DeckList, entries: list[tuple[Entry, Card]], where: dict[str, Any] | None,
             place: str) -> Iterator[Finding]:
    """Cards listed in a place (the main deck, a section) whose data does not match that place's `where`."""
    for e, c in entries if where else []:
        if not matches(where, c.data):  # type: ignore[arg-type]
            yield _f(deck, e.line, Severity.ERROR, "deck-wrong-section",
                     f"'{c.name}' cannot be {place} ({_describe(where or {})})")


def _sections(deck: DeckList, rules: DeckRules, resolved: list[tuple[Entry, Card]]) -> Iterator[Finding]:
    for name, spec in rules.sections.items():
        entries = [(e, c) for e, c in resolved if e.section == name]
        written = [e for e in deck.entries if e.section == name]
        total = sum(e.count for e in written)
        line = written[0].line if written else 1
        if spec.count is not None and total != spec.count:
            yield _f(deck, line, Severity.ERROR, "deck-section",
                     f"{name}: {total} card{'s' * (total != 1)}; it must be exactly {spec.count}")
        yield from _outside(deck, entries, spec.where, f"the {name}")


def _character(deck: DeckList, spec: CharacterRules, resolved: list[tuple[Entry, Card]],
               model: GameModel) -> Iterator[Finding]:
    """A herocrafting character, as the model's `deck.character` describes it: the list's groups are values of
    a field (`groups_field`) whose vocabulary says each value's role (`role_attr`): one `primary` group and
    `secondary` groups with card counts, a `signature` card from the primary group, `extras` cards, and
    colour pips (`pips`) the secondary groups share and the extras require. Every name comes from the model."""
    names = {"primary": "primary group", "secondary": "secondary group", "signature": "signature card",
             "extras": "extra card", **spec.names}
    vocab = model.vocab_for(spec.groups_field)
    role_of = {t.name: t.attrs.get(spec.role_attr) for t in vocab.terms} if vocab else {}
    primary, secondary, sig, ext = spec.primary, spec.secondary, spec.signature, spec.extras
    groups = [g for g in deck.sections() if g not in (sig.section, ext.section)]
    primaries = [g for g in groups if role_of.get(g) == primary.role]
    secondaries = [g for g in groups if role_of.get(g) == secondary.role]
    first = {g: next(e.line for e in deck.entries if e.section == g) for g in groups}
    for g in groups:
        if g not in role_of:
            yield _f(deck, first[g], Severity.ERROR, "deck-group",
                     f"'{g}' is neither a {names['primary']} nor a {names['secondary']}", did_you_mean(g, list(role_of)))
    if len(primaries) != primary.count:
        yield _f(deck, first[primaries[1]] if len(primaries) > 1 else 1, Severity.ERROR, "deck-primary",
                 f"{len(primaries)} {names['primary']}s; choose exactly {primary.count}")
    for g in primaries:
        n = sum(e.count for e in deck.entries if e.section == g)
        if primary.cards is not None and n != primary.cards:
            yield _f(deck, first[g], Severity.ERROR, "deck-primary",
                     f"{n} {g} cards; pick exactly {primary.cards} from your {names['primary']}")
    n_secondary = sum(e.count for e in deck.entries if e.section in secondaries)
    if secondary.cards is not None and n_secondary != secondary.cards:
        yield _f(deck, first[secondaries[0]] if secondaries else 1, Severity.ERROR, "deck-secondary",
                 f"{n_secondary} {names['secondary']} cards; pick exactly {secondary.cards} from among your "
                 f"{names['secondary']}s")
    if len(secondaries) > secondary.count:
        yield _f(deck, first[secondaries[secondary.count]], Severity.ERROR, "deck-secondary",
                 f"{len(secondaries)} {names['secondary']}s; choose {secondary.count}")
    elif len(secondaries) < secondary.count:
        yield _f(deck, first[secondaries[0]] if secondaries else 1, Severity.INFO, "deck-unverifiable",
                 f"the list names {len(secondaries)} {names['secondary']}{'s' * (len(secondaries) != 1)} of the "
                 f"{secondary.count} a character chooses; the others are not named, so they cannot be checked")
    for e, c in resolved:
        value = c.get(spec.groups_field)
        if e.section in groups and value and value != e.section:
            yield _f(deck, e.line, Severity.ERROR, "deck-wrong-section", f"'{c.name}' is a {value} card, not {e.section}")
    signature = [(e, c) for e, c in resolved if e.section == sig.section]
    extras = [(e, c) for e, c in resolved if e.section == ext.section]
    sig_written = [e for e in deck.entries if e.section == sig.section]
    if len(sig_written) != sig.count:
        yield _f(deck, 1, Severity.ERROR, "deck-signature",
                 f"{len(sig_written)} {names['signature']}s; a character has exactly {sig.count}")
    for e, c in signature:
        if not matches(sig.where, c.data):
            yield _f(deck, e.line, Severity.ERROR, "deck-signature", f"'{c.name}' is not a {names['signature']}")
        elif primaries and c.get(spec.groups_field) and c.get(spec.groups_field) not in primaries:
            yield _f(deck, e.line, Severity.ERROR, "deck-signature",
                     f"'{c.name}' is the {c.get(spec.groups_field)} {names['signature']}; the {names['primary']} is "
                     f"{primaries[0]}")
    ext_written = [e for e in deck.entries if e.section == ext.section]
    if len(ext_written) != ext.count:
        yield _f(deck, ext_written[0].line if ext_written else 1, Severity.ERROR, "deck-extras",
                 f"{len(ext_written)} {names['extras']}s; pick {ext.count}")
    for e, c in extras:
        if not matches(ext.where, c.data):
            yield _f(deck, e.line, Severity.ERROR, "deck-extras", f"'{c.name}' is not a {names['extras']}")
    written = ext_written or sig_written or deck.entries
    at = written[0].line if written else 1
    yield from _pips(deck, spec, at, primaries, secondaries, extras, names, vocab)
    feats = len(sig_written) + len(ext_written)
    if spec.feats and feats != spec.feats and len(sig_written) == sig.count and len(ext_written) == ext.count:
        yield _f(deck, at, Severity.ERROR, "deck-feats", f"{feats} feats; a character has {spec.feats}")


def _pips(deck: DeckList, spec: CharacterRules, at: int, primaries: list[str], secondaries: list[str],
          extras: list[tuple[Entry, Card]], names: dict[str, str], vocab: Any) -> Iterator[Finding]:
    """Colour pips: checkable only when the model gives every chosen group's pips and each extra's needs."""
    if not spec.pips_attr:
        return
    pips = {t.name: t.attrs.get(spec.pips_attr) for t in (vocab.terms if vocab else [])}
    chosen = primaries + secondaries
    if not all(pips.get(g) for g in chosen):
        yield _f(deck, at, Severity.INFO, "deck-unverifiable",
                 f"the source gives no colour pips for these groups: whether a {names['secondary']} shares a pip "
                 f"with the {names['primary']} cannot be checked")
    else:
        primary_pips = set(pips[primaries[0]] or ()) if primaries else set()
        if spec.secondary.share and not any(primary_pips & set(pips[g] or ()) for g in secondaries):
            yield _f(deck, at, Severity.ERROR, "deck-colours",
                     f"no {names['secondary']} shares a colour pip with the {names['primary']}")
    if extras and not all(c.get(spec.pips_requires) for _, c in extras):
        yield _f(deck, at, Severity.INFO, "deck-unverifiable",
                 f"the source gives no colour-pip requirements for these {names['extras']}s: they cannot be checked")
    elif extras and all(pips.get(g) for g in chosen):
        have = Counter(p for g in chosen for p in pips[g] or ())
        for e, c in extras:
            need = Counter(c.get(spec.pips_requires) or [])
            if any(have[p] < n for p, n in need.items()):
                yield _f(deck, e.line, Severity.ERROR, "deck-colours", f"the character's pips do not meet '{c.name}'")


def _from_pool(deck: DeckList, resolved: list[tuple[Entry, Card]], pool: list[str],
               rules: DeckRules) -> Iterator[Finding]:
    """deck.from_pool: draft — a deck is built from the cards its player drafted."""
    have = Counter(pool)
    used: Counter[str] = Counter()
    for e, c in resolved:
        if any(matches(w, c.data) for w in rules.separate_decks.values()):
            continue
        used[c.id] += e.count
        if used[c.id] > have[c.id]:
            yield _f(deck, e.line, Severity.ERROR, "deck-not-drafted",
                     f"{used[c.id]} '{c.name}' in the deck, {have[c.id]} in the drafted pool")


def read_pool(path: Path, seat: int) -> list[str]:
    """A seat's picks from `cardgen draft --format json` output."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        seats = {s["seat"]: s["picks"] for s in data["seats"]}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CardgenError(f"{path} is not a draft file from 'cardgen draft --format json': {exc}") from exc
    if seat not in seats:
        raise CardgenError(f"{path} has no seat {seat} (seats: {', '.join(map(str, sorted(seats)))})")
    return list(seats[seat])


def dialect_for(model: GameModel) -> Dialect:
    """How the model says its deck lists are written."""
    rules, character = model.deck, model.deck.character
    return Dialect(rules.format, tuple(name for name, spec in rules.sections.items() if spec.count == 1),
                   character.signature.section if character else "", character.extras.section if character else "")

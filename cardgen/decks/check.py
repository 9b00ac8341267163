"""Turn a DeckList and a game's `deck:` rules into findings: sizes, copies, sections, and character rules.

Rules the data cannot decide (an Ivion colour pip the source never gives) are reported as `unverifiable`
info, never as broken rules.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

from ..errors import Finding, Severity, did_you_mean
from ..model.card import Card, Catalog
from ..model.game import GameModel, matches
from .reader import DeckList, Entry


def _f(deck: DeckList, line: int, severity: Severity, code: str, message: str, hint: str | None = None) -> Finding:
    return Finding(deck.file, line, 1, severity, code, None, message, hint)


def check_deck(deck: DeckList, model: GameModel, catalog: Catalog, pool: list[str] | None = None) -> list[Finding]:
    rules: dict[str, Any] = dict(model.deck or {})
    resolved, out = resolve(deck, catalog, model.name)
    if not deck.entries:
        out.append(_f(deck, 1, Severity.ERROR, "deck-empty", "the deck list names no cards"))
    out += list(_main_rules(deck, rules, resolved))
    out += list(_sections(deck, rules, resolved))
    if rules.get("character"):
        out += list(_character(deck, rules["character"], resolved, model))
    if pool is not None:
        out += list(_from_pool(deck, resolved, pool, rules))
    elif rules.get("from_pool") == "draft":
        out.append(_f(deck, 1, Severity.INFO, "deck-pool-unchecked",
                      "this game's decks are built from a drafted pool (deck.from_pool: draft), which was not given",
                      "pass --pool with a draft made by 'cardgen draft --format json', and --seat"))
    elif rules.get("from_pool") not in (None, "draft"):
        out.append(_f(deck, 1, Severity.WARNING, "deck-pool-unknown",
                      f"deck.from_pool is {rules.get('from_pool')!r}; the only pool cardgen knows is 'draft'"))
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


def _main_entries(deck: DeckList, rules: dict[str, Any], resolved: list[tuple[Entry, Card]]) -> list[tuple[Entry, Card]]:
    sections = set((rules.get("sections") or {}).keys())
    character = rules.get("character") and {"ultimate", "traits"}
    return [(e, c) for e, c in resolved if e.section not in sections and not (character and e.section in character)]


def _main_rules(deck: DeckList, rules: dict[str, Any], resolved: list[tuple[Entry, Card]]) -> Iterator[Finding]:
    main = dict(rules.get("main") or {})
    if "min_cards" in rules:
        main.setdefault("min", rules["min_cards"])
    entries = _main_entries(deck, rules, resolved)
    separate = {name: spec.get("where", {}) for name, spec in (rules.get("separate_decks") or {}).items()}
    counted = [(e, c) for e, c in entries if not any(matches(w, c.data) for w in separate.values())]
    # sizes count what the list says: a misspelt name is one finding (unknown card), not two
    known = {id(e) for e, _ in resolved}
    unknown = [e for e in deck.entries if id(e) not in known and e.section in {x.section for x, _ in entries} | {"main"}]
    total = sum(e.count for e, _ in counted) + sum(e.count for e in unknown)
    first = min([e.line for e, _ in counted] + [e.line for e in unknown], default=1)
    size, low, high = main.get("size"), main.get("min"), main.get("max")
    if size is not None and total != size:
        yield _f(deck, first, Severity.ERROR, "deck-size", f"the deck has {total} cards; it must have exactly {size}")
    if low is not None and total < low:
        yield _f(deck, first, Severity.ERROR, "deck-size", f"the deck has {total} cards; it needs at least {low}")
    if high is not None and total > high:
        yield _f(deck, first, Severity.ERROR, "deck-size", f"the deck has {total} cards; at most {high} are allowed")
    yield from _outside(deck, counted, main.get("where"), "in the main deck")
    limit = main.get("max_copies")
    if limit:
        by: Counter[str] = Counter()
        lines: dict[str, int] = {}
        for e, c in counted:
            key = c.name.lower() if main.get("copies_by", "name") == "name" else c.id
            by[key] += e.count
            lines.setdefault(key, e.line)
        for key, n in by.items():
            if n > limit:
                yield _f(deck, lines[key], Severity.ERROR, "deck-copies",
                         f"{n} copies of '{key}'; at most {limit} of a card are allowed (counted by name)")


def _describe(where: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in where.items())


def _outside(deck: DeckList, entries: list[tuple[Entry, Card]], where: dict[str, Any] | None,
             place: str) -> Iterator[Finding]:
    """Cards listed in a place (the main deck, a section) whose data does not match that place's `where`."""
    for e, c in entries if where else []:
        if not matches(where, c.data):  # type: ignore[arg-type]
            yield _f(deck, e.line, Severity.ERROR, "deck-wrong-section",
                     f"'{c.name}' cannot be {place} ({_describe(where or {})})")


def _sections(deck: DeckList, rules: dict[str, Any], resolved: list[tuple[Entry, Card]]) -> Iterator[Finding]:
    for name, spec in (rules.get("sections") or {}).items():
        entries = [(e, c) for e, c in resolved if e.section == name]
        written = [e for e in deck.entries if e.section == name]
        total = sum(e.count for e in written)
        line = written[0].line if written else 1
        want = spec.get("count")
        if want is not None and total != want:
            yield _f(deck, line, Severity.ERROR, "deck-section",
                     f"{name}: {total} card{'s' * (total != 1)}; it must be exactly {want}")
        yield from _outside(deck, entries, spec.get("where"), f"the {name}")


def _character(deck: DeckList, spec: dict[str, Any], resolved: list[tuple[Entry, Card]],
               model: GameModel) -> Iterator[Finding]:
    """Ivion: one Specialization and its Ultimate, Classes sharing a colour pip, Traits the pips meet."""
    vocab = model.vocabularies.get("archetype")
    kind_of = {t.name: t.attrs.get("kind") for t in vocab.terms} if vocab else {}
    groups = [s for s in deck.sections() if s not in ("ultimate", "traits")]
    specs = [g for g in groups if kind_of.get(g) == "specialization"]
    classes = [g for g in groups if kind_of.get(g) == "class"]
    first = {g: next(e.line for e in deck.entries if e.section == g) for g in groups}
    for g in groups:
        if g not in kind_of:
            yield _f(deck, first[g], Severity.ERROR, "deck-archetype", f"'{g}' is neither a Specialization nor a Class",
                     did_you_mean(g, list(kind_of)))
    s_spec, c_spec = spec.get("specialization", {}), spec.get("classes", {})
    if len(specs) != s_spec.get("count", 1):
        yield _f(deck, first[specs[1]] if len(specs) > 1 else 1, Severity.ERROR, "deck-specialization",
                 f"{len(specs)} Specializations; choose exactly {s_spec.get('count', 1)}")
    for g in specs:
        n = sum(e.count for e in deck.entries if e.section == g)
        if "cards" in s_spec and n != s_spec["cards"]:
            yield _f(deck, first[g], Severity.ERROR, "deck-specialization",
                     f"{n} {g} cards; pick exactly {s_spec['cards']} from your Specialization")
    n_class = sum(e.count for e in deck.entries if e.section in classes)
    if "cards" in c_spec and n_class != c_spec["cards"]:
        yield _f(deck, first[classes[0]] if classes else 1, Severity.ERROR, "deck-classes",
                 f"{n_class} Class cards; pick exactly {c_spec['cards']} from among your Classes")
    want_classes = c_spec.get("count", 2)
    if len(classes) > want_classes:
        yield _f(deck, first[classes[want_classes]], Severity.ERROR, "deck-classes",
                 f"{len(classes)} Classes; choose {want_classes}")
    elif len(classes) < want_classes:
        yield _f(deck, first[classes[0]] if classes else 1, Severity.INFO, "deck-unverifiable",
                 f"the list names {len(classes)} Class{'es' * (len(classes) != 1)} of the {want_classes} a character "
                 f"chooses; the other is not named, so it cannot be checked")
    for e, c in resolved:
        arch = c.get("archetype")
        if e.section in groups and arch and arch != e.section:
            yield _f(deck, e.line, Severity.ERROR, "deck-wrong-section", f"'{c.name}' is a {arch} card, not {e.section}")
    ult = [(e, c) for e, c in resolved if e.section == "ultimate"]
    traits = [(e, c) for e, c in resolved if e.section == "traits"]
    ult_written = [e for e in deck.entries if e.section == "ultimate"]
    if len(ult_written) != spec.get("ultimate", {}).get("count", 1):
        yield _f(deck, 1, Severity.ERROR, "deck-feats", f"{len(ult_written)} Ultimates; a character has exactly one")
    for e, c in ult:
        if c.get("category") != "Ultimate":
            yield _f(deck, e.line, Severity.ERROR, "deck-feats", f"'{c.name}' is not an Ultimate")
        elif specs and c.get("archetype") and c.get("archetype") not in specs:
            yield _f(deck, e.line, Severity.ERROR, "deck-feats",
                     f"'{c.name}' is the {c.get('archetype')} Ultimate; the Specialization is {specs[0]}")
    trait_written = [e for e in deck.entries if e.section == "traits"]
    if len(trait_written) != spec.get("traits", {}).get("count", 2):
        yield _f(deck, trait_written[0].line if trait_written else 1, Severity.ERROR, "deck-feats",
                 f"{len(trait_written)} Traits; pick {spec.get('traits', {}).get('count', 2)}")
    for e, c in traits:
        if c.get("category") != "Trait":
            yield _f(deck, e.line, Severity.ERROR, "deck-feats", f"'{c.name}' is not a Trait")
    # colour pips: checkable only when the model knows every archetype's pips and each trait's requirements
    pips = {t.name: t.attrs.get("colors") for t in (vocab.terms if vocab else [])}
    written = trait_written or ult_written or deck.entries
    at = written[0].line if written else 1
    if not all(pips.get(g) for g in specs + classes):
        yield _f(deck, at, Severity.INFO, "deck-unverifiable",
                 "the source gives no colour pips for these archetypes: whether a Class shares a colour pip with the "
                 "Specialization cannot be checked")
    else:
        spec_pips = set(pips[specs[0]] or ()) if specs else set()
        if c_spec.get("share_colour") and not any(spec_pips & set(pips[c] or ()) for c in classes):
            yield _f(deck, at, Severity.ERROR, "deck-colours", "no Class shares a colour pip with the Specialization")
    if traits and not all(c.get("requires_colors") for _, c in traits):
        yield _f(deck, at, Severity.INFO, "deck-unverifiable",
                 "the source gives no colour-pip requirements for these Traits: they cannot be checked")
    elif traits and all(pips.get(g) for g in specs + classes):
        have = Counter(p for g in specs + classes for p in pips[g] or ())
        for e, c in traits:
            need = Counter(c.get("requires_colors") or [])
            if any(have[p] < n for p, n in need.items()):
                yield _f(deck, e.line, Severity.ERROR, "deck-colours", f"the character's pips do not meet '{c.name}'")
    feats = len(ult_written) + len(trait_written)
    if spec.get("feats") and feats != spec["feats"] and len(ult_written) == 1 and len(trait_written) == 2:
        yield _f(deck, at, Severity.ERROR, "deck-feats", f"{feats} Feats; a character has {spec['feats']}")


def _from_pool(deck: DeckList, resolved: list[tuple[Entry, Card]], pool: list[str],
               rules: dict[str, Any]) -> Iterator[Finding]:
    """Power Trip: a deck is built from the cards its player drafted."""
    have = Counter(pool)
    used: Counter[str] = Counter()
    separate = [spec.get("where", {}) for spec in (rules.get("separate_decks") or {}).values()]
    for e, c in resolved:
        if any(matches(w, c.data) for w in separate):
            continue
        used[c.id] += e.count
        if used[c.id] > have[c.id]:
            yield _f(deck, e.line, Severity.ERROR, "deck-not-drafted",
                     f"{used[c.id]} '{c.name}' in the deck, {have[c.id]} in the drafted pool")


def read_pool(path: Path, seat: int) -> list[str]:
    """A seat's picks from `cardgen draft --format json` output."""
    from ..errors import CardgenError

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        seats = {s["seat"]: s["picks"] for s in data["seats"]}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CardgenError(f"{path} is not a draft file from 'cardgen draft --format json': {exc}") from exc
    if seat not in seats:
        raise CardgenError(f"{path} has no seat {seat} (seats: {', '.join(map(str, sorted(seats)))})")
    return list(seats[seat])

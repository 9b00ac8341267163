"""Turn the model's deck rules (the top level and each named format) into findings about their
meaning: fields they name, bounds in order, counts that add up; and the helpers the other meaning
checks share (model/consistency.py)."""

from __future__ import annotations

from typing import Any, Iterator

from ..core.errors import Severity, did_you_mean
from ..load.yamlio import Loc, LocDict, LocList
from .deckrules import deck_rules
from .game import GameModel

Found = tuple[
    Loc, Severity, str, str, "str | None", str
]  # loc, severity, code, message, hint, about


def map_of(value: Any) -> LocDict:
    return value if isinstance(value, LocDict) else LocDict.at((0, 0))


def unknown_field(model: GameModel, name: Any, loc: Loc, what: str, about: str) -> Found | None:
    if not isinstance(name, str) or name in model.fields or name == "id":
        return None
    return (
        loc,
        Severity.ERROR,
        "model-unknown-field",
        f"{what} names field '{name}', which the model does not have; that rule checks nothing",
        did_you_mean(name, list(model.fields)) or f"fields: {', '.join(model.fields)}",
        about,
    )


def check_deck(model: GameModel, deck: LocDict) -> Iterator[Found]:
    yield from _deck_rules(model, deck, "deck")
    formats = deck.get("formats")
    if not isinstance(formats, LocDict):
        return
    top = deck_rules(deck)
    low, high = top.main.min, top.main.max
    top_reversed = low is not None and high is not None and low > high
    for name, chosen in formats.items():
        if not isinstance(chosen, LocDict):
            continue
        where = f"deck format '{name}'"
        own = list(_deck_rules(model, chosen, where))
        yield from own
        merged = top.with_format(name)
        low, high = merged.main.min, merged.main.max
        if not own and not top_reversed and low is not None and high is not None and low > high:
            yield (
                formats.key_loc(name),
                Severity.ERROR,
                "model-bounds-reversed",
                f"{where} with the top-level rules it keeps asks for at least {low} and at most "
                f"{high} cards: no deck is legal",
                "formats override key by key: give the format its own min or max",
                "deck",
            )
        main = map_of(chosen.get("main"))
        drafted = chosen.get("from_pool") == "draft" or name == "draft"
        if drafted and top.main.max_copies and "max_copies" not in main:
            yield (
                formats.key_loc(name),
                Severity.INFO,
                "deck-format-inherits",
                f"{where} keeps the top-level max_copies: {top.main.max_copies} (formats override "
                "key by key), so a drafted deck may hold at most that many copies of a card",
                "write 'main: {max_copies: none}' in the format for no limit",
                "deck",
            )


def _deck_rules(model: GameModel, d: LocDict, where: str) -> Iterator[Found]:
    """One set of deck rules (the top level or a named format), as written."""
    main = map_of(d.get("main"))
    if "min_cards" in d and "min" in main:
        yield (
            d.key_loc("min_cards"),
            Severity.ERROR,
            "model-exclusive",
            f"{where} has both 'min_cards' and 'main.min': main.min ({main['min']}) is used, "
            f"min_cards ({d['min_cards']}) is ignored",
            "keep one of them",
            "deck",
        )
    low = main.get("min", d.get("min_cards"))
    high, size = main.get("max"), main.get("size")
    if low is not None and high is not None and low > high:
        yield (
            main.key_loc("max"),
            Severity.ERROR,
            "model-bounds-reversed",
            f"{where} asks for at least {low} and at most {high} cards: no deck is legal",
            "swap them",
            "deck",
        )
    elif size is not None and (low is not None and size < low or high is not None and size > high):
        bound = f"at least {low}" if low is not None and size < low else f"at most {high}"
        yield (
            main.key_loc("size"),
            Severity.ERROR,
            "model-bounds-reversed",
            f"{where} asks for exactly {size} cards and {bound}: no deck is legal",
            "keep one of them",
            "deck",
        )
    for key in ("distinct", "share"):
        rules = d.get(key)
        if isinstance(rules, LocList):
            for rule in rules:
                if isinstance(rule, LocDict):
                    loc = rule.key_loc("field")
                    hit = unknown_field(model, rule.get("field"), loc, f"{where}.{key}", "deck")
                    if hit:
                        yield hit
    character = d.get("character")
    if isinstance(character, LocDict):
        yield from _character(model, character, where)
        yield from _character_totals(character, main.get("size"), where)


def _character_totals(c: LocDict, size: Any, where: str) -> Iterator[Found]:
    """A character's counts against their totals: feats = signature + extras, and the primary's
    and secondaries' cards = the deck's size."""
    part = {k: map_of(c.get(k)) for k in ("primary", "secondary", "signature", "extras")}
    feats = c.get("feats")
    if feats is not None:
        chosen = part["signature"].get("count", 1) + part["extras"].get("count", 2)
        if feats != chosen:
            yield (
                c.key_loc("feats"),
                Severity.ERROR,
                "model-count-mismatch",
                f"{where}.character.feats is {feats}, but signature and extras count {chosen}; "
                "no list can satisfy both",
                "make feats the signature's and the extras' counts added up",
                "deck",
            )
    primary, secondary = (part[k].get("cards") for k in ("primary", "secondary"))
    if size is not None and primary is not None and secondary is not None:
        total = int(primary) + int(secondary)
    else:
        total = size
    if total != size:
        yield (
            part["secondary"].key_loc("cards"),
            Severity.ERROR,
            "model-count-mismatch",
            f"{where}.character: the primary's {primary} and the secondaries' {secondary} cards "
            f"make {total}, but the main deck's size is {size}: no deck is legal",
            "make the groups' cards add up to main.size",
            "deck",
        )


def _character(model: GameModel, c: LocDict, where: str) -> Iterator[Found]:
    groups = c.get("groups_field")
    hit = unknown_field(
        model, groups, c.key_loc("groups_field"), f"{where}.character.groups_field", "deck"
    )
    if hit:
        yield hit
    pips = c.get("pips")
    if isinstance(pips, LocDict) and "requires" in pips:
        at = pips.key_loc("requires")
        hit = unknown_field(model, pips["requires"], at, f"{where}.character.pips", "deck")
        if hit:
            yield hit
    names = c.get("names")
    if isinstance(names, LocDict):
        words = ("primary", "secondary", "signature", "extras")
        for key in names:
            if key not in words:
                yield (
                    names.key_loc(key),
                    Severity.ERROR,
                    "model-unknown-key",
                    f"{where}.character.names has '{key}', which no message uses; it is ignored",
                    did_you_mean(str(key), words) or f"keys: {', '.join(words)}",
                    "deck",
                )
    vocab = model.vocab_for(groups) if isinstance(groups, str) else None
    attr = c.get("role_attr")
    if vocab is None or not isinstance(attr, str):
        return
    roles = sorted({str(t.attrs[attr]) for t in vocab.terms if attr in t.attrs})
    for part in ("primary", "secondary"):
        group = c.get(part)
        if isinstance(group, LocDict) and isinstance(group.get("role"), str):
            if group["role"] not in roles:
                yield (
                    group.key_loc("role"),
                    Severity.ERROR,
                    "model-unknown-value",
                    f"{where}.character.{part}.role is '{group['role']}', which no value of "
                    f"'{groups}' has as its '{attr}'; no group can be the {part}",
                    did_you_mean(group["role"], roles) or f"{attr}: {', '.join(roles) or 'none'}",
                    "deck",
                )

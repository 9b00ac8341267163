"""Turn a section of game.yaml into checked data: a declared schema (types, ranges, choices, one-line
descriptions) walked once, each mistake a located finding, the value kept only where it is valid.

The sections that tools read later (`deck`, `draft`, `packs`, `limits`) are declared here, so a typo such as
`pack_sise` or `passes: lft` is reported where it stands instead of being read later with a default, and
no stage ever meets a wrong shape. `docs/model.md`'s reference for these sections is generated from the
declarations (`reference()`), and a test fails when it is stale.
"""
from __future__ import annotations

from typing import Any

from ..core import units
from ..load.yamlio import Loc
from .game import FIELD_TYPES, ROLES
from .specs import (
    Anything,
    Bool,
    Colour,
    Int,
    ListOf,
    MapOf,
    Named,
    Open,
    Report,
    Scalar,
    Section,
    Spec,
    Text,
    Unit,
    Vocab,
    Where,
)

SLOT = Section(keys={"sheet": Text("the sheet the slot draws from", required=True),
                     "count": Int("cards drawn from the sheet", low=1, high=1_000)})
PASSES = ListOf("pass direction per round: left or right (one word: every round)",
                item=Text(choices=("left", "right")), one_or_more=True)

WORDS = ListOf(item=Text(), one_or_more=True)
DECK_KEYS: dict[str, Spec] = {}
SECTIONS: dict[str, Spec] = {
    "game": Section("the game itself", required=True, keys={
        "id": Text("a short id (the folder name is used)"), "name": Text("the game's name, printed on cards"),
        "version": Scalar("the rules' version"), "description": Text("one paragraph about the game"),
        "source": Text("where the rules come from"), "sample": Scalar("a note that the content is a sample")}),
    "card": Section("the physical card (templates may override)", keys={
        "size": Unit("trim size: '63mm x 88mm' or poker, poker-eu, bridge, tarot, mini (default 63 x 88 mm)",
                     parse=units.card_size, what="size, each side 10-400 mm"),
        "bleed": Unit("bleed around the trim (default 3 mm)", parse=units.bleed, what="length 0-20 mm"),
        "safe": Unit("safe zone inside the trim (default 3 mm)", parse=units.safe, what="length 0-50 mm"),
        "corner_radius": Unit("rounded corners, for previews", parse=units.length)}),
    "fields": Named("every field a card may have", required=True, item=Section(keys={
        "name": Text("the field's name (in the list form)"),
        "type": Text(f"one of {', '.join(FIELD_TYPES)} (default text)"),
        "vocab": Text("the vocabulary of an enum or list field"),
        "values": WORDS, "required": Bool("a card must have it (drafts: a warning)"),
        "min": Int("smallest whole number", low=-10 ** 9, high=10 ** 9),
        "max": Int("largest whole number", low=-10 ** 9, high=10 ** 9),
        "max_length": Int("most characters (a warning beyond)", low=1, high=10 ** 6),
        "label": Text("how the field is labelled on cards and in reports"),
        "role": Text(f"what the field means to tools: {', '.join(ROLES)}")})),
    "vocabularies": MapOf("named lists of values and what each implies", item=Vocab(term=Open(keys={
        "name": Text("the value", required=True), "aliases": WORDS, "requires": WORDS, "forbids": WORDS,
        "warn": Text("a warning for every card using the value"), "note": Text("a note for people")}))),
    "cost": Section("the cost grammar (docs/model.md)", keys={
        "symbols": ListOf("the cost symbols", item=Section(keys={
            "letter": Text("one capital letter, or up to 3 characters starting with one", required=True),
            "name": Text("its name"), "icon": Text("an icon name for templates"),
            "color": Colour("its colour (default #444444)"), "text_color": Colour("its letter's colour (default #ffffff)"),
            "rules": Text("what it means, for the rulebook"), "faction": Text("the faction it belongs to")})),
        "generic": Bool("allow {2} (default false)"), "x": Bool("allow X (default true)"),
        "hybrid": Bool("allow {E/G} (default true)"), "match_factions": Bool("symbols must match factions"),
        "clauses": Text("severity of free-text clauses (default info)", choices=("info", "warning", "error")),
        "separator": Text("between a cost's parts (default ',')")}),
    "text": Section("how card text is read", keys={
        "keyword_lines": Bool("lines like 'Guard' or 'Poison - …' declare keywords"),
        "bare_symbols": Bool("runs of symbol letters standing alone are symbols"),
        "fields": ListOf("the fields that hold rules text (default: text)", item=Text(), one_or_more=True),
        "labels": ListOf("ability labels printed bold where they open a paragraph ('Trigger:', 'Effect:')",
                         item=Text(), one_or_more=True),
        "reminder": Text("which parentheses are italic reminder text (default after-keyword: right after a "
                         "glossary keyword)", choices=("after-keyword", "all", "none"))}),
    "keywords": Named("the glossary", item=Section(keys={
        "name": Text("the keyword", required=True), "reminder": Text("reminder text"), "rules": Text("rules text"),
        "note": Text("a note for people")})),
    "placeholders": ListOf("values that mean 'not written yet'", item=Text(), one_or_more=True),
    "collation": Named("one print run: groups of designs and copies", item=Section(keys={
        "name": Text("the group's name", required=True), "where": Where("its cards"),
        "cards": Int("cards in the group", high=1_000_000), "copies": Int("copies of each design", high=10_000),
        "rarities": MapOf("designs and copies per rarity", item=Section(keys={
            "designs": Int("designs of that rarity", high=1_000_000),
            "copies": Int("copies of each", high=10_000)}))})),
    "numbering": Section("the collector-number scheme", keys={
        "field": Text("the field holding the number (default number)"),
        "pattern": Text("a regular expression with a named group 'index' ('prefix', 'total' optional)"),
        "unassigned": Text("what a not-yet-numbered card says (default x)"),
        "case_sensitive": Bool("prefixes must match in case (default true)"),
        "required": Bool("cards a prefix selects must have a number"),
        "prefixes": ListOf("the prefixes", item=Section(keys={
            "prefix": Text("the prefix", required=True), "where": Where("its cards"),
            "total": Int("the total printed after the slash", high=1_000_000)}))}),
    "notes": Anything("notes for people; cardgen ignores them"),
    "deck": Section("what a legal deck is (docs/model.md, deck rules)", keys=DECK_KEYS)}
DECK_KEYS.update({
        "format": Text("the deck-list dialect (docs/model.md, deck rules)", choices=("plain", "character")),
        "min_cards": Int("the fewest cards in the main deck", high=100_000),
        "main": Section("the main deck", keys={
            "size": Int("exactly this many cards", high=100_000),
            "min": Int("at least this many cards", high=100_000),
            "max": Int("at most this many cards", high=100_000),
            "max_copies": Int("copies of one card at most", low=1, high=100_000),
            "copies_by": Text("what counts as the same card", choices=("name", "id")),
            "where": Where("cards the main deck may hold")}),
        "sections": MapOf("named sections of a list (sideboard, monster …)", item=Section(keys={
            "count": Int("exactly this many cards", high=100_000), "where": Where("cards the section may hold")})),
        "separate_decks": MapOf("decks kept apart from the main deck (resources)", item=Section(keys={
            "where": Where("cards of that deck")})),
        "from_pool": Text("decks are built from a drafted pool", choices=("draft",)),
        "character": Section("a herocrafting character: groups of cards named by a field's values", keys={
            "groups_field": Text("the field whose values name the list's groups ('<Group> Cards: …')", required=True),
            "role_attr": Text("the vocabulary attribute that says each value's role", required=True),
            "primary": Section("the one main group", keys={
                "role": Text("its role value"), "count": Int("groups chosen", high=100),
                "cards": Int("cards from it", high=100_000)}),
            "secondary": Section("the other groups", keys={
                "role": Text("their role value"), "count": Int("groups chosen", high=100),
                "cards": Int("cards from them together", high=100_000),
                "share": Int("colour pips a secondary group must share with the primary", high=10)}),
            "signature": Section("the character's signature card, from the primary group", keys={
                "section": Text("its name in a list ('<Signature> - …')"), "where": Where("what it is"),
                "count": Int("how many", high=100)}),
            "extras": Section("extra cards chosen alongside", keys={
                "section": Text("their name in a list ('<Extras> - …')"), "where": Where("what they are"),
                "count": Int("how many", high=100)}),
            "pips": Section("colour pips", keys={
                "attr": Text("the vocabulary attribute holding a group's pips"),
                "requires": Text("the card field holding an extra card's pip needs")}),
            "feats": Int("signature and extras together", high=100),
            "names": MapOf("words for messages (primary: …, secondary: …)", item=Text())}),
        "copies": ListOf("copy limits for some cards (one copy of each artifact)", item=Section(keys={
            "where": Where("the cards the limit is for"), "max": Int("copies of each at most", high=100_000)})),
        "distinct": ListOf("at most N distinct values of a field in the main deck", item=Section(keys={
            "field": Text("the field", required=True), "max": Int("distinct values at most", low=1, high=1_000)})),
        "share": ListOf("the main deck's cards share a value of a field", item=Section(keys={
            "field": Text("the field", required=True)})),
})
DECK_KEYS["formats"] = MapOf("named deck formats (constructed, draft …): each overrides the rules above",
                             item=Section(keys={k: v for k, v in DECK_KEYS.items()}))
SECTIONS.update({
    "draft": Section("how a draft runs (docs/packs.md)", keys={
        "pack_size": Int("cards in a pack", low=1, high=1_000),
        "packs_per_player": Int("packs each player opens", low=1, high=100),
        "passes": PASSES,
        "pool": Section("cards any pack may deal", keys={"where": Where("the pool's cards")}),
        "players": Int("players on a draft night (cardgen build)", low=1, high=10_000),
        "seed": Int("the draft night's seed (cardgen build)", high=2 ** 63 - 1),
    }),
    "packs": MapOf("pack formats by name (docs/packs.md)", item=Section(keys={
        "mode": Text("exhaust a print run, or draw from slot sheets", required=True, choices=("exhaust", "slots")),
        "pack_size": Int("cards in a pack", low=1, high=1_000),
        "groups": ListOf("only these collation groups", item=Text()),
        "exclude_groups": ListOf("not these collation groups", item=Text()),
        "where": Where("only these cards"),
        "unique_in_pack": Bool("never two copies of a card in one pack"),
        "packs_per_player": Int("packs each player opens", low=1, high=100),
        "passes": PASSES,
        "sheets": MapOf("slot sheets by name", item=Section(keys={"where": Where("the sheet's cards")})),
        "slots": ListOf("what one pack draws", item=SLOT),
        "variants": ListOf("weighted pack variants", item=Section(keys={
            "weight": Int("relative weight", low=1, high=1_000_000), "slots": ListOf(item=SLOT)})),
    })),
    "limits": MapOf("numbers of the game's rules, for templates and the rulebook", item=Scalar()),
    "draftmancer": Section("how the Draftmancer export names rarities (docs/exports.md)", keys={
        "rarities": MapOf("Draftmancer rarity by the game's rarity", item=Text(
            choices=("common", "uncommon", "rare", "mythic", "special"))),
        "default_rarity": Text("for cards without one (named in the export's notes)",
                               choices=("common", "uncommon", "rare", "mythic", "special")),
    }),
    "cockatrice": Section("how the Cockatrice export presents cards (docs/exports.md)", keys={
        "rows": MapOf("table row by kind: 0 lands, 1 other permanents, 2 creatures, 3 spells (stack, then "
                      "graveyard)", item=Int(high=3)),
        "maintypes": MapOf("Cockatrice main type by kind (default: the kind's own name)", item=Text()),
        "colors": MapOf("Magic colour letters by faction (W, U, B, R, G); unmapped factions get none",
                        item=Text(choices=("W", "U", "B", "R", "G"))),
        "tokens": ListOf("kinds whose cards are tokens", item=Text()),
        "creates": MapOf("token name by the keyword or phrase in a card's text that creates it", item=Text()),
    }),
})


def check_section(name: str, value: Any, loc: Loc, report: Report, model: Any) -> Any:
    """The section as declared: every mistake reported, only valid parts kept (None when nothing is)."""
    return SECTIONS[name].check(value, name, loc, report, model)


def reference() -> str:
    """The Markdown reference of the declared sections, for docs/model.md."""
    lines: list[str] = []

    def walk(spec: Spec, path: str) -> None:
        lines.append(f"| `{path}` | {spec.kind()}{' (required)' if spec.required else ''} | {spec.description} |")
        if isinstance(spec, Section):
            for key, sub in spec.keys.items():
                walk(sub, f"{path}.{key}")
        elif isinstance(spec, MapOf) and isinstance(spec.item, Section):
            for key, sub in spec.item.keys.items():
                walk(sub, f"{path}.NAME.{key}")
        elif isinstance(spec, ListOf) and isinstance(spec.item, Section):
            for key, sub in spec.item.keys.items():
                walk(sub, f"{path}[].{key}")

    for name, spec in SECTIONS.items():
        lines += ["", f"#### `{name}`", "", "| key | value | meaning |", "|---|---|---|"]
        walk(spec, name)
    return "\n".join(lines[1:]) + "\n"

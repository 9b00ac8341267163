"""Turn the declarations of game.yaml's play sections (deck, draft, packs, limits and the exports'
sections) into the specs model/schema.py walks."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..load.yamlio import Loc
from .specs import Bool, Int, Limit, ListOf, MapOf, Report, Scalar, Section, Spec, Text
from .specsets import Where

SLOT = Section(
    keys={
        "sheet": Text("the sheet the slot draws from", required=True),
        "count": Int("cards drawn from the sheet", low=1, high=1_000),
    }
)
RULE = Section(
    keys={
        "at_least": Int("at least this many of the cards it counts", high=1_000),
        "at_most": Int("at most this many of the cards it counts", high=1_000),
        "where": Where("counts only these cards (default: every card)"),
        "field": Text("counts only cards whose whole-number field is within min-max"),
        "min": Int("the field's lowest counted value", low=-(10**9), high=10**9),
        "max": Int("the field's highest counted value", low=-(10**9), high=10**9),
        "per": Text("counts per value of this field ('at most 1 per expansion')"),
    }
)
PASSES = ListOf(
    "pass direction per round: left or right (one word: every round)",
    item=Text(choices=("left", "right"), instead="draft.passes, or left, is used"),
    one_or_more=True,
    instead="draft.passes, or left, is used",
)
DRAFT_PASSES = ListOf(
    "pass direction per round: left or right (one word: every round)",
    item=Text(choices=("left", "right"), instead="that round is left out"),
    one_or_more=True,
    instead="each pack format's own passes, or left, is used",
)

DECK_KEYS: dict[str, Spec] = {}
PLAY_SECTIONS: dict[str, Spec] = {
    "deck": Section("what a legal deck is (docs/model.md, deck rules)", keys=DECK_KEYS),
}
DECK_KEYS.update(
    {
        "format": Text(
            "the deck-list dialect (docs/model.md, deck rules; default plain)",
            choices=("plain", "character"),
        ),
        "min_cards": Int(
            "the fewest cards in the main deck", high=100_000, instead="the deck has no minimum"
        ),
        "main": Section(
            "the main deck",
            keys={
                "size": Int(
                    "exactly this many cards", high=100_000, instead="no exact size is asked"
                ),
                "min": Int(
                    "at least this many cards", high=100_000, instead="the deck has no minimum"
                ),
                "max": Int(
                    "at most this many cards", high=100_000, instead="the deck has no maximum"
                ),
                "max_copies": Limit(
                    "copies of one card at most",
                    low=1,
                    high=100_000,
                    instead="the deck has no copy limit",
                ),
                "copies_by": Text(
                    "what counts as the same card (default name)", choices=("name", "id")
                ),
                "where": Where("cards the main deck may hold"),
            },
        ),
        "sections": MapOf(
            "named sections of a list (sideboard, monster …)",
            item=Section(
                keys={
                    "count": Int(
                        "exactly this many cards", high=100_000, instead="its size is not checked"
                    ),
                    "where": Where("cards the section may hold"),
                }
            ),
        ),
        "separate_decks": MapOf(
            "decks kept apart from the main deck (resources)",
            item=Section(keys={"where": Where("cards of that deck")}),
        ),
        "from_pool": Text("decks are built from a drafted pool", choices=("draft",)),
        "character": Section(
            "a herocrafting character: groups of cards named by a field's values",
            keys={
                "groups_field": Text(
                    "the field whose values name the list's groups ('<Group> Cards: …')",
                    required=True,
                ),
                "role_attr": Text(
                    "the vocabulary attribute that says each value's role", required=True
                ),
                "primary": Section(
                    "the one main group",
                    keys={
                        "role": Text("its role value"),
                        "count": Int("groups chosen (default 1)", high=100),
                        "cards": Int("cards from it", high=100_000),
                    },
                ),
                "secondary": Section(
                    "the other groups",
                    keys={
                        "role": Text("their role value"),
                        "count": Int("groups chosen (default 2)", high=100),
                        "cards": Int("cards from them together", high=100_000),
                        "share": Int(
                            "colour pips a secondary group must share with the primary", high=10
                        ),
                    },
                ),
                "signature": Section(
                    "the character's signature card, from the primary group",
                    keys={
                        "section": Text(
                            "its name in a list ('<Signature> - …'; default signature)"
                        ),
                        "where": Where("what it is"),
                        "count": Int("how many (default 1)", high=100),
                    },
                ),
                "extras": Section(
                    "extra cards chosen alongside",
                    keys={
                        "section": Text("their name in a list ('<Extras> - …'; default extras)"),
                        "where": Where("what they are"),
                        "count": Int("how many (default 2)", high=100),
                    },
                ),
                "pips": Section(
                    "colour pips",
                    keys={
                        "attr": Text("the vocabulary attribute holding a group's pips"),
                        "requires": Text("the card field holding an extra card's pip needs"),
                    },
                ),
                "feats": Int("signature and extras together", high=100),
                "names": MapOf("words for messages (primary: …, secondary: …)", item=Text()),
            },
        ),
        "copies": ListOf(
            "copy limits for some cards (one copy of each artifact)",
            item=Section(
                keys={
                    "where": Where("the cards the limit is for"),
                    "max": Int(
                        "copies of each at most", high=100_000, instead="the limit is left out"
                    ),
                }
            ),
        ),
        "distinct": ListOf(
            "at most N distinct values of a field in the main deck",
            item=Section(
                keys={
                    "field": Text("the field", required=True),
                    "max": Int("distinct values at most (default 1)", low=1, high=1_000),
                }
            ),
        ),
        "share": ListOf(
            "the main deck's cards share a value of a field",
            item=Section(keys={"field": Text("the field", required=True)}),
        ),
    }
)
KEPT = "the top-level deck rule is kept"


def _in_format(key: str, spec: Spec) -> Spec:
    """A deck key as a named format writes it: a value dropped there leaves the top-level rule in
    force (formats override key by key, and `main` key by key too)."""
    if key == "main" and isinstance(spec, Section):
        return replace(spec, keys={k: replace(v, instead=KEPT) for k, v in spec.keys.items()})
    return replace(spec, instead=KEPT)


DECK_KEYS["formats"] = MapOf(
    "named deck formats (constructed, draft …): each overrides the rules above key by key "
    "(`main` too); a key it does not write keeps the top-level rule",
    item=Section(keys={k: _in_format(k, v) for k, v in DECK_KEYS.items()}),
)


@dataclass
class PackFormatSpec(Section):
    """A pack format: what a dropped `pack_size` or `packs_per_player` falls back to depends on the
    format's mode and on the draft section (read before the formats), so the message names the
    value really used, or says that the format cannot be dealt."""

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if not isinstance(value, dict):
            return super().check(value, where, loc, report, model)
        draft = getattr(model, "draft", None)
        size, rounds = getattr(draft, "pack_size", None), getattr(draft, "packs_per_player", None)
        mode = value.get("mode")
        if mode == "slots":
            size_instead = "the slots' sum is used"
        elif mode != "exhaust":
            size_instead = self.keys["pack_size"].instead
        elif size is not None:
            size_instead = f"draft.pack_size, {size}, is used"
        else:
            size_instead = (
                "the format then has no pack size (draft.pack_size is not set either), so it "
                "cannot be dealt"
            )
        rounds_instead = (
            f"draft.packs_per_player, {rounds}, is used"
            if rounds is not None
            else "the default, 3, is used"
        )
        keys = {
            **self.keys,
            "pack_size": replace(self.keys["pack_size"], instead=size_instead),
            "packs_per_player": replace(self.keys["packs_per_player"], instead=rounds_instead),
        }
        return Section.check(replace(self, keys=keys), value, where, loc, report, model)


PLAY_SECTIONS.update(
    {
        "draft": Section(
            "how a draft runs (docs/packs.md)",
            keys={
                "pack_size": Int(
                    "cards in a pack",
                    low=1,
                    high=1_000,
                    instead="each pack format's own pack_size, or its slots' sum, is used",
                ),
                "packs_per_player": Int(
                    "packs each player opens",
                    low=1,
                    high=100,
                    instead="each pack format's own packs_per_player, or 3, is used",
                ),
                "passes": DRAFT_PASSES,
                "pool": Section(
                    "cards any pack may deal", keys={"where": Where("the pool's cards")}
                ),
                "players": Int(
                    "players on a draft night (cardgen build; default: as many as one print run "
                    "supports)",
                    low=1,
                    high=10_000,
                ),
                "seed": Int("the draft night's seed (cardgen build; default 1)", high=2**63 - 1),
            },
        ),
        "packs": MapOf(
            "pack formats by name (docs/packs.md)",
            item=PackFormatSpec(
                keys={
                    "mode": Text(
                        "exhaust a print run, draw from slot sheets, or deal a game's setup",
                        instead="the format cannot be dealt",
                        required=True,
                        choices=("exhaust", "slots", "setup"),
                    ),
                    "pick": Int(
                        "setup: cards (piles) each game deals",
                        low=1,
                        high=1_000,
                        instead="the format cannot be dealt",
                    ),
                    "constraints": ListOf("setup: what every game's cards must meet", item=RULE),
                    "pack_size": Int(
                        "cards in a pack",
                        low=1,
                        high=1_000,
                        instead="draft.pack_size (slots: the slots' sum) is used",
                    ),
                    "groups": ListOf("only these collation groups", item=Text()),
                    "exclude_groups": ListOf("not these collation groups", item=Text()),
                    "where": Where("only these cards"),
                    "unique_in_pack": Bool("never two copies of a card in one pack (default true)"),
                    "packs_per_player": Int(
                        "packs each player opens",
                        low=1,
                        high=100,
                        instead="draft.packs_per_player, or 3, is used",
                    ),
                    "passes": PASSES,
                    "sheets": MapOf(
                        "slot sheets by name",
                        item=Section(keys={"where": Where("the sheet's cards")}),
                    ),
                    "slots": ListOf("what one pack draws", item=SLOT),
                    "variants": ListOf(
                        "weighted pack variants",
                        item=Section(
                            keys={
                                "weight": Int("relative weight", low=1, high=1_000_000),
                                "slots": ListOf(item=SLOT),
                            }
                        ),
                    ),
                }
            ),
        ),
        "limits": MapOf(
            "numbers of the game's rules, for templates and the rulebook", item=Scalar()
        ),
        "sheet": Section(
            "the spreadsheet the designer keeps the cards in (docs/sheets.md)",
            keys={
                "file": Text(
                    "the sheet (.xlsx, .ods, .csv), a path in the workspace: `build --watch` and "
                    "`serve` pull it when it is saved"
                ),
                "key": Text("the column that matches rows to cards (default: id)"),
                "separator": Text("what joins a list field's values in one cell (default ', ')"),
                "columns": MapOf(
                    "a header cardgen cannot match by itself -> the field it holds", item=Text()
                ),
                "new_cards": Section(
                    "which card file a new row goes to",
                    keys={
                        "by": Text("the field whose value picks the file (default: role kind)"),
                        "files": MapOf("that field's value -> card file", item=Text()),
                        "default": Text("the file for rows no rule places (default: cards.yaml)"),
                    },
                ),
            },
        ),
        "tts": Section(
            "how the Tabletop Simulator export lays out the table (docs/exports.md)",
            keys={
                "piles": Section(
                    "one deck per supply pile, in a grid",
                    keys={
                        "by": Text("what makes a pile: name (default), id, or a field"),
                        "apart": Where(
                            "piles of these cards lie in a block of their own (the basics)"
                        ),
                        "columns": Int(
                            "piles per row (default: the square root of their number)",
                            low=1,
                            high=50,
                        ),
                    },
                ),
            },
        ),
        "draftmancer": Section(
            "how the Draftmancer export names rarities (docs/exports.md)",
            keys={
                "rarities": MapOf(
                    "Draftmancer rarity by the game's rarity",
                    item=Text(choices=("common", "uncommon", "rare", "mythic", "special")),
                ),
                "default_rarity": Text(
                    "for cards without one (named in the export's notes)",
                    choices=("common", "uncommon", "rare", "mythic", "special"),
                ),
            },
        ),
        "cockatrice": Section(
            "how the Cockatrice export presents cards (docs/exports.md)",
            keys={
                "rows": MapOf(
                    "table row by kind: 0 lands, 1 other permanents, 2 creatures, 3 spells "
                    "(stack, then graveyard)",
                    item=Int(high=3),
                ),
                "maintypes": MapOf(
                    "Cockatrice main type by kind (default: the kind's own name)", item=Text()
                ),
                "colors": MapOf(
                    "Magic colour letters by faction (W, U, B, R, G); unmapped factions get none",
                    item=Text(choices=("W", "U", "B", "R", "G")),
                ),
                "tokens": ListOf("kinds whose cards are tokens", item=Text()),
                "creates": MapOf(
                    "token name by the keyword or phrase in a card's text that creates it",
                    item=Text(),
                ),
            },
        ),
    }
)

"""Turn a section of game.yaml into checked data: a declared schema (types, ranges, choices,
one-line descriptions) walked once, each mistake a located finding, the value kept only where it is
valid.

The sections that tools read later (`deck`, `draft`, `packs`, `limits`) are declared here, so a typo
such as `pack_sise` or `passes: lft` is reported where it stands instead of being read later with a
default, and no stage ever meets a wrong shape. `docs/model.md`'s reference for these sections is
generated from the declarations (`reference()`), and a test fails when it is stale.
"""

from __future__ import annotations

from typing import Any

from ..core import stock, units
from ..load.cardfile import CARD_FILE_MB, MOST_CARD_FILE_MB
from ..load.yamlio import Loc
from .game import FIELD_TYPES, ROLES
from .guards import GUARDS
from .schema_play import PLAY_SECTIONS
from .specs import (
    Bool,
    Colour,
    Int,
    ListOf,
    MapOf,
    Report,
    Scalar,
    Section,
    Span,
    Spec,
    Text,
    Unit,
)
from .specsets import Anything, Named, Open, Vocab, Where

WORDS = ListOf(item=Text(), one_or_more=True)
TOKEN_SHAPES = ("round", "square", "hex")
SECTIONS: dict[str, Spec] = {
    "game": Section(
        "the game itself",
        required=True,
        keys={
            "id": Text("a short id (the folder name is used)"),
            "name": Text("the game's name, printed on cards"),
            "version": Scalar("the rules' version"),
            "description": Text("one paragraph about the game"),
            "source": Text("where the rules come from"),
            "sample": Scalar("a note that the content is a sample"),
            "players": Span(
                "how many play: a number or a range ('2-4'); a print run holds the most players' "
                "per-player cards unless --players or draft.players says otherwise",
                high=10_000,
            ),
        },
        translatable=("name", "description"),
    ),
    "card": Section(
        "the physical card (templates may override)",
        keys={
            "size": Unit(
                "trim size: '63mm x 88mm' or poker, poker-eu, bridge, tarot, mini, square, "
                "square-large, landscape (default 63 x 88 mm)",
                parse=units.card_size,
                what="size, each side 10-400 mm",
            ),
            "bleed": Unit(
                "bleed around the trim (default 3 mm)", parse=units.bleed, what="length 0-20 mm"
            ),
            "safe": Unit(
                "safe zone inside the trim (default 3 mm)", parse=units.safe, what="length 0-50 mm"
            ),
            "corner_radius": Unit("rounded corners, for previews", parse=units.length),
            "stock": Unit(
                f"what the cards are printed on: a paper weight ('300gsm', its typical thickness "
                f"from cardgen's table) or a thickness ('0.32mm'), for boxes (default "
                f"{stock.DEFAULT_STOCK})",
                parse=stock.stock,
                what="paper weight 60-1,000 g/m² or thickness 0.05-2 mm",
            ),
            "sleeves": Text(
                "the sleeves players put the cards in, sizing their boxes: `fit` (the snuggest "
                "common sleeve, docs/kit.md) or a sleeve's name (default none: unsleeved)",
                choices=("none", "fit", *stock.SLEEVE_NAMES),
            ),
        },
    ),
    "fonts": Section(
        "fonts for every template and the rulebook",
        keys={
            "fallback": ListOf(
                "font files (stems, TrueType) a character no font of a family or of the book has "
                "is looked for in, in order: after a template family's own fallbacks, before "
                "DejaVu Sans",
                item=Text(),
                one_or_more=True,
            ),
        },
    ),
    "fields": Named(
        "every field a card may have",
        required=True,
        item=Section(
            keys={
                "name": Text("the field's name (in the list form)"),
                "type": Text(f"one of {', '.join(FIELD_TYPES)} (default text)"),
                "vocab": Text("the vocabulary of an enum or list field"),
                "values": WORDS,
                "required": Bool("a card must have it (drafts: a warning)"),
                "min": Int("smallest whole number", low=-(10**9), high=10**9),
                "max": Int("largest whole number", low=-(10**9), high=10**9),
                "max_length": Int("most characters (a warning beyond)", low=1, high=10**6),
                "label": Text("how the field is labelled on cards and in reports"),
                "role": Text(f"what the field means to tools: {', '.join(ROLES)}"),
            }
        ),
    ),
    "vocabularies": MapOf(
        "named lists of values and what each implies",
        item=Vocab(
            term=Open(
                keys={
                    "name": Text("the value", required=True),
                    "aliases": WORDS,
                    "requires": WORDS,
                    "forbids": WORDS,
                    "warn": Text("a warning for every card using the value"),
                    "note": Text("a note for people"),
                }
            )
        ),
    ),
    "cost": Section(
        "the cost grammar (docs/model.md)",
        keys={
            "symbols": ListOf(
                "the cost symbols",
                item=Section(
                    keys={
                        "letter": Text(
                            "one capital letter, or up to 3 characters starting with one",
                            required=True,
                        ),
                        "name": Text("its name"),
                        "icon": Text("an icon name for templates"),
                        "color": Colour("its colour (default #444444)"),
                        "text_color": Colour("its letter's colour (default #ffffff)"),
                        "rules": Text("what it means, for the rulebook"),
                        "faction": Text("the faction it belongs to"),
                    },
                    translatable=("name", "rules"),
                ),
            ),
            "generic": Bool("allow {2} (default false)"),
            "x": Bool("allow X (default true)"),
            "hybrid": Bool("allow {E/G} (default true)"),
            "match_factions": Bool("symbols must match factions"),
            "clauses": Text(
                "severity of free-text clauses (default info)", choices=("info", "warning", "error")
            ),
            "separator": Text("between a cost's parts (default ',')"),
        },
    ),
    "text": Section(
        "how card text is read",
        keys={
            "keyword_lines": Bool("lines like 'Guard' or 'Poison - …' declare keywords"),
            "bare_symbols": Bool("runs of symbol letters standing alone are symbols"),
            "fields": ListOf(
                "the fields that hold rules text (default: text and the role: text fields)",
                item=Text(),
                one_or_more=True,
            ),
            "labels": ListOf(
                "ability labels printed bold where they open a paragraph ('Trigger:', 'Effect:')",
                item=Text(),
                one_or_more=True,
            ),
            "reminder": Text(
                "which parentheses are italic reminder text (default after-keyword: right after a "
                "glossary keyword)",
                choices=("after-keyword", "all", "none"),
            ),
        },
        translatable=("labels",),
    ),
    "keywords": Named(
        "the glossary",
        item=Section(
            keys={
                "name": Text("the keyword", required=True),
                "reminder": Text("reminder text"),
                "parameter": Bool(
                    "the keyword is written with a number after it ('Scry 2', 'Scry X'; "
                    "default false)"
                ),
                "rules": Text("rules text"),
                "note": Text("a note for people"),
            },
            translatable=("name", "reminder", "rules"),
        ),
    ),
    "placeholders": ListOf("values that mean 'not written yet'", item=Text(), list_only=True),
    "collation": Named(
        "one print run: groups of designs and copies",
        item=Section(
            keys={
                "name": Text("the group's name", required=True),
                "where": Where("its cards"),
                "cards": Int("cards in the group", high=1_000_000),
                "copies": Int("copies of each design", high=10_000),
                "rarities": MapOf(
                    "designs and copies per rarity",
                    item=Section(
                        keys={
                            "designs": Int("designs of that rarity", high=1_000_000),
                            "copies": Int("copies of each", high=10_000),
                        }
                    ),
                ),
            }
        ),
    ),
    "numbering": Section(
        "the collector-number scheme",
        keys={
            "field": Text("the field holding the number (default number)"),
            "pattern": Text(
                "a regular expression with a named group 'index' ('prefix', 'total' optional)"
            ),
            "unassigned": Text("what a not-yet-numbered card says (default x)"),
            "case_sensitive": Bool("prefixes must match in case (default true)"),
            "required": Bool("cards a prefix selects must have a number"),
            "prefixes": ListOf(
                "the prefixes",
                item=Section(
                    keys={
                        "prefix": Text("the prefix", required=True),
                        "where": Where("its cards"),
                        "total": Int("the total printed after the slash", high=1_000_000),
                    }
                ),
            ),
        },
    ),
    "components": Named(
        "what the box holds besides the cards (tokens, counters, markers): the rulebook's "
        "components list",
        item=Section(
            keys={
                "name": Text(
                    "what it is, as it reads after its count ('Coin tokens')", required=True
                ),
                "count": Int("how many in the box (default 1 without per_player)", high=100_000),
                "per_player": Int("how many more for each player", high=10_000),
                "shape": Text(
                    "a token printed on token sheets (cardgen tokens): its shape",
                    choices=TOKEN_SHAPES,
                ),
                "size": Unit(
                    "the token's size: round its diameter, square its side, hex across the flats "
                    "(default 25 mm, or its template's); `W x H` a rectangular tile",
                    parse=units.token_size,
                    what="length or size, each side 5-300 mm",
                ),
                "template": Text(
                    "its face: a template in templates/GAME/ (default: its name on a plain face)"
                ),
                "back": Text("its back: a template; the token is double-sided"),
                "fold": Bool(
                    "double-sided by folding: front and back side by side, fold and glue (default "
                    "false: a back prints on the sheet's back page)"
                ),
                "data": MapOf("values its templates show as card.KEY", item=Scalar()),
            },
            translatable=("name",),
        ),
    ),
    "editions": Section(
        "one card source in many languages, each built as an edition of its own (docs/editions.md)",
        keys={
            "default": Text(
                "the language the cards' own values are written in (a code: en)", required=True
            ),
            "languages": MapOf(
                "every edition's language by its code (en, de, pt-br)",
                item=Section(
                    keys={
                        "name": Text("the language's own name, naming its edition ('Deutsch')"),
                        "fallback": Text(
                            "where a missing translation is taken from (default: the default "
                            "language)"
                        ),
                    }
                ),
            ),
            "translate": ListOf(
                "the fields written per language on a card (FIELD@LANG: name@de)",
                item=Text(),
                one_or_more=True,
            ),
            "missing": Text(
                "severity of translation-missing, a card printed with a fallback (default warning)",
                choices=("info", "warning", "error"),
            ),
        },
    ),
    "box": Section(
        "the print-and-play box (cardgen box, docs/kit.md)",
        keys={
            "per": Text(
                "a box for each deck: its cards sharing a back (default), the whole game, or each "
                "deck list in decks/GAME/",
                choices=("back", "game", "lists"),
            ),
            "style": Text(
                "tuck: a one-piece tuck box (default); two-piece: a tray and a lid",
                choices=("tuck", "two-piece"),
            ),
            "board": Unit(
                "what the box is printed on, a weight or a thickness (default "
                f"{stock.DEFAULT_STOCK})",
                parse=stock.stock,
                what="paper weight 60-1,000 g/m² or thickness 0.05-2 mm",
            ),
            "slack": Unit(
                "room beyond the stack's depth (default 3 mm, 4 mm sleeved)",
                parse=units.slack,
                what="length 0-30 mm",
            ),
            "sleeve_thickness": Unit(
                "what a sleeve adds to a card's thickness (default 0.12mm)",
                parse=stock.film,
                what="length 0-1 mm",
            ),
        },
    ),
    "guards": GUARDS,
    "notes": Anything("notes for people; cardgen ignores them"),
    "reading": Section(
        "how much of the game's own files cardgen reads (docs/security.md)",
        keys={
            "card_file_mb": Int(
                f"the largest card file read, in MB (default {CARD_FILE_MB}); a larger one is a "
                "`file-too-large` error on that file alone, and the other files print",
                low=1,
                high=MOST_CARD_FILE_MB,
            ),
        },
    ),
    **PLAY_SECTIONS,
}


def check_section(name: str, value: Any, loc: Loc, report: Report, model: Any) -> Any:
    """The section as declared: every mistake reported, only valid parts kept (None when nothing
    is)."""
    return SECTIONS[name].check(value, name, loc, report, model)


def reference() -> str:
    """The Markdown reference of the declared sections, for docs/model.md."""
    lines: list[str] = []

    def walk(spec: Spec, path: str) -> None:
        lines.append(
            f"| `{path}` | {spec.kind()}{' (required)' if spec.required else ''} | "
            f"{spec.description} |"
        )
        if isinstance(spec, Section):
            keys(spec, f"{path}.")
        elif isinstance(spec, MapOf) and isinstance(spec.item, Section):
            keys(spec.item, f"{path}.NAME.")
        elif isinstance(spec, (ListOf, Named)) and isinstance(spec.item, Section):
            keys(spec.item, f"{path}[].")

    def keys(section: Section, prefix: str) -> None:
        for key, sub in section.keys.items():
            walk(sub, f"{prefix}{key}")
            if key in section.translatable:
                lines.append(
                    f"| `{prefix}{key}@LANG` | {sub.kind()} | the same in an edition's language "
                    "(docs/editions.md) |"
                )

    for name, spec in SECTIONS.items():
        lines += ["", f"#### `{name}`", "", "| key | value | meaning |", "|---|---|---|"]
        walk(spec, name)
    return "\n".join(lines[1:]) + "\n"

"""More of the campaign: the issue's own one-typo cases run through the command that is meant
(deck check, packs, rulebook), settings whose fallback must be said, and the mistakes found while
writing the campaign (exclusive declarations, repeated values, duplicate element ids)."""

from __future__ import annotations

from .card_edits import c
from .chapter_edits import r
from .deck_edits import d
from .harness import Edit
from .model_edits import AD, CLEAN, IV, PT, m
from .template_edits import t

EDITS: list[Edit] = [
    m("ad-generic-typo", AD, "  generic: true ", "  genric: true ", "model-unknown-key"),
    m(
        "alias-is-another-value",
        CLEAN,
        "aliases: [Sorcery]",
        "aliases: [Unit]",
        "model-duplicate-value",
        owner="A",
    ),
    m(
        "requires-and-forbids",
        CLEAN,
        "{name: Unit, requires: [power]}",
        "{name: Unit, requires: [power], forbids: [power]}",
        "model-exclusive",
        owner="lead",
        note="new bug: a kind that requires and forbids one field is silent at the model; every "
        "card of the kind is blamed instead",
        forbid=("forbids-field",),
    ),
    m("numbering-no-index-group", CLEAN, r"(?P<index>\d+)/", r"(\d+)/", "model-value"),
    m(
        "numbering-prefix-unknown-vocab-attr",
        CLEAN,
        "{prefix: U, where: {faction: Blue}, total: 1}",
        "{prefix: U, where: {faction: Blu}, total: 1}",
        "model-value",
    ),
    m(
        "iv-hp-min-text",
        IV,
        "hp: {type: integer, min: 1,",
        "hp: {type: integer, min: one,",
        "model-type",
    ),
    m(
        "pt-min-cards-deck-check",
        PT,
        "  min_cards: 25 ",
        "  min_cards: twenty ",
        "model-type",
        args=("deck", "check", "GAME", "ROOT/decks/power-trip/dark-sacrifice.txt"),
        owner="lead",
    ),
    m(
        "pt-pack-size-packs",
        PT,
        "    mode: exhaust\n    pack_size: 15",
        "    mode: exhaust\n    pack_size: fifteen",
        "model-type",
        args=("packs", "GAME", "--seed", "1"),
        owner="lead",
        dline=1,
    ),
    m(
        "pt-pack-size-says-instead",
        PT,
        "    mode: exhaust\n    pack_size: 15",
        "    mode: exhaust\n    pack_size: fifteen",
        "model-type",
        owner="A",
        dline=1,
        message="is used",
    ),
    m(
        "pt-min-cards-says-instead",
        PT,
        "  min_cards: 25 ",
        "  min_cards: twenty ",
        "model-type",
        owner="A",
        message="no minimum|is used",
    ),
    c(
        "cost-integer",
        "cards/clean/cards.yaml",
        "  cost: U\n",
        "  cost: 2\n",
        "wrong-type|bad-cost",
    ),
    c(
        "cost-generic-off",
        "cards/clean/cards.yaml",
        "  cost: U\n",
        "  cost: '{2}{U}'\n",
        "bad-cost",
    ),
    c(
        "pt-list-duplicate",
        "cards/power-trip/dark.yaml",
        "- name: Hulking Demon\n  cost: BB\n  factions: [Dark]",
        "- name: Hulking Demon\n  cost: BB\n  factions: [Dark, Dark]",
        "repeated-value",
        dline=2,
    ),
    c(
        "explicit-id-duplicate",
        "cards/clean/cards.yaml",
        "- name: Tide Caller\n",
        "- name: Tide Caller\n  id: firestorm\n",
        "duplicate-id",
        dline=1,
        also=(18,),
    ),
    c(
        "rulebook-shows-broken-card",
        "cards/clean/cards.yaml",
        "  power: 3\n",
        "  power: 12\n",
        None,
        args=("rulebook", "GAME"),
        owner="lead",
        exit=1,
        message="error",
        note="today: exit 1 and not a word of why",
    ),
    t(
        "element-id-duplicate",
        "templates/clean/front.yaml",
        "{id: panel, type: rect,",
        "{id: ground, type: rect,",
        "template-element|template-duplicate-id",
        owner="lead",
        note="new bug: two elements with one id are silent",
    ),
    t(
        "constant-image-missing",
        "templates/clean/front.yaml",
        'src: "{{ card.art }}", when: "card.art"}',
        'src: "art/frame.png"}',
        "image-missing|template-value",
        severity="warning",
        exit=0,
        owner="lead",
        note="wrong place: a constant src that does not exist is reported on every card, not at "
        "the template's line",
    ),
    t(
        "when-type-error",
        "templates/clean/front.yaml",
        "     when: \"card.power != ''\"}",
        "     when: \"card.power > 'x'\"}",
        "template-error",
        dline=-1,
        also=(15,),
    ),
    t(
        "polygon-point-bad",
        "templates/clean/back.yaml",
        '  - {id: ground, type: rect, box: bleed, fill: "#223344"}',
        '  - {id: ground, type: rect, box: bleed, fill: "#223344"}\n'
        '  - {id: tri, type: polygon, points: ["0mm 0mm", "10mm", "5mm 8mm"], fill: "#ffffff"}',
        "template-value|template-unit",
        dline=1,
    ),
    r(
        "glossary-args",
        "rules/clean/rulebook/cards.md",
        "{{ glossary() }}",
        '{{ glossary("all") }}',
        "rulebook-directive",
    ),
    d(
        "pt-empty-deck",
        "decks/power-trip/dark-sacrifice.txt",
        (
            "2 Hulking Demon\n"
            "2 Die!\n"
            "2 Ghoul\n"
            "1 Black Queen of the Oblivion\n"
            "2 Necrotic Recruiter\n"
            "1 Dark Contract\n"
            "2 Carnage Dancer\n"
            "2 Pain Hedonist\n"
            "1 Corruption\n"
            "2 Toxicologist\n"
            "1 The Dragon Tyrant of Hell\n"
            "2 Willing Pawn\n"
            "2 Tyrant's Supplicant\n"
            "2 Let Me Carve Your Way\n"
            "1 The Goatman\n"
        ),
        "",
        "deck-empty|deck-size",
        line=1,
        also=(0,),
    ),
    d(
        "ad-zero-copies",
        "decks/aether-duel/chaos-burn.txt",
        "- 5x Insight",
        "- 0x Insight",
        "deck-line|deck-count",
    ),
    # --- the words of a finding: what the designer reads must be right
    c(
        "ad-attack-negative-words",
        "cards/aether-duel/monsters.yaml",
        '  attack: 1\n  life: 10\n  set: Sample\n  sample: "yes"\n- name: Glass',
        '  attack: -1\n  life: 10\n  set: Sample\n  sample: "yes"\n- name: Glass',
        "out-of-range",
        owner="lead",
        absent="..None",
        note="new bug: a field with only a minimum says 'the model allows 0..None'",
    ),
    c(
        "rarity-no-close-match-words",
        "cards/clean/cards.yaml",
        "  rarity: rare\n",
        "  rarity: mythic\n",
        "unknown-value",
        owner="lead",
        absent="raritys",
        note="new bug: the list of values is headed 'raritys'",
    ),
    c(
        "sheets-count-words",
        "cards/clean/cards.yaml",
        "  power: 3\n",
        "  power: 12\n",
        None,
        args=("sheets", "GAME"),
        exit=1,
        owner="lead",
        message="1 error",
        absent="1 errors",
        note="new bug: 'findings: 1 errors'",
    ),
    d(
        "iv-class-typo-words",
        "decks/ivion/steward.txt",
        "Warrior Cards:",
        "Warior Cards:",
        "deck-secondary",
        line=1,
        owner="lead",
        absent="Classs",
        note="new bug: 'pick exactly 30 from among your Classs', '0 Classs'",
    ),
    d(
        "iv-signature-words",
        "decks/ivion/steward.txt",
        "Ultimate - Shield Slam.",
        "Ultimate - Strike.",
        "deck-signature",
        owner="lead",
        absent="a Ultimate",
        note="new bug: \"'Strike' is not a Ultimate\"",
    ),
    t(
        "element-type-missing-words",
        "templates/clean/front.yaml",
        "{id: panel, type: rect,",
        "{id: panel,",
        "template-element",
        owner="lead",
        absent="type 'None'",
        note="new bug: an element without a type is 'unknown element type 'None''",
    ),
    r(
        "glossary-args-words",
        "rules/clean/rulebook/cards.md",
        "{{ glossary() }}",
        '{{ glossary("all") }}',
        "rulebook-directive",
        owner="lead",
        absent="glossary_html",
        note="new bug: the message is Python's TypeError, naming cardgen's own function",
    ),
    # --- the fixture workspace's broken games: one more mistake is still one more finding
    m(
        "badmodel-value-twice",
        "rules/badmodel/game.yaml",
        "  faction: [Red]",
        "  faction: [Red, Red]",
        "model-duplicate-value",
        owner="A",
    ),
    r(
        "broken-admonition-typo",
        "rules/broken/rulebook/one.md",
        '{{ keyword("Flying") }}\n',
        '{{ keyword("Flying") }}\n\n!!! warnig "Careful"\n    Text.\n',
        "rulebook-unknown-admonition",
        owner="B",
        dline=2,
    ),
]

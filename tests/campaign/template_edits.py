"""The campaign's template mistakes: unknown keys and types, bad colours, units and choices,
unknown fonts, boxes off the card, unknown names in Jinja, faces.yaml rules, inheritance, sizes."""

from __future__ import annotations

from .harness import Edit, workspace_of

FRONT = "templates/clean/front.yaml"
BACK = "templates/clean/back.yaml"
LFACES = "templates/lantern/faces.yaml"
LFRONT = "templates/lantern/front.yaml"
LBACK = "templates/lantern/back.yaml"
LSPELL = "templates/lantern/spell.yaml"
PFRONT = "templates/power-trip/front.yaml"
PFACES = "templates/power-trip/faces.yaml"
PBACK = "templates/power-trip/back-main.yaml"
SHARED = "templates/_shared/card.yaml"
ACOMMON = "templates/aether-duel/common.yaml"
AMON = "templates/aether-duel/monster.yaml"
AFACES = "templates/aether-duel/faces.yaml"
IFRONT = "templates/ivion/front.yaml"


def t(name: str, file: str, old: str, new: str, code: str | None, **kw: object) -> Edit:
    ws = workspace_of(file)
    return Edit(name, "template", ws, file, old, new, code, **kw)  # type: ignore[arg-type]


EDITS = [
    # --- keys, types, values of elements
    t(
        "element-key-typo",
        FRONT,
        "     min_size: 7pt, valign: middle}",
        "     min_size: 7pt, valing: middle}",
        "template-unknown-key",
    ),
    t(
        "element-type-typo",
        FRONT,
        "{id: panel, type: rect,",
        "{id: panel, type: rectangle,",
        "template-element",
    ),
    t("element-type-missing", FRONT, "{id: panel, type: rect,", "{id: panel,", "template-element"),
    t(
        "colour-short",
        FRONT,
        'radius: 2mm, fill: "#ffffff"}',
        'radius: 2mm, fill: "#fffff"}',
        "template-value",
    ),
    t(
        "colour-name-typo",
        FRONT,
        'radius: 2mm, fill: "#ffffff"}',
        "radius: 2mm, fill: whte}",
        "template-value",
    ),
    t(
        "font-unknown-family",
        FRONT,
        'text: "{{ card.name }}", font: title,',
        'text: "{{ card.name }}", font: titel,',
        "template-font",
    ),
    t(
        "font-file-typo",
        FRONT,
        "  title: {regular: Vollkorn-Bold}",
        "  title: {regular: Vollkorn-Bld}",
        "template-unusable|template-font",
        owner="lead",
        note="new bug: a font file that does not exist is reported at 'templates/clean', no line",
    ),
    t(
        "length-no-unit",
        FRONT,
        "font: title, size: 11pt,",
        "font: title, size: 11,",
        "template-unit",
    ),
    t(
        "length-bad-unit",
        FRONT,
        "{id: panel, type: rect, x: 3mm,",
        "{id: panel, type: rect, x: 3cn,",
        "template-unit",
    ),
    t(
        "box-off-card",
        FRONT,
        "{id: panel, type: rect, x: 3mm, y: 3mm,",
        "{id: panel, type: rect, x: 300mm, y: 3mm,",
        "template-off-card",
    ),
    t(
        "box-name-typo",
        FRONT,
        "{id: ground, type: rect, box: bleed,",
        "{id: ground, type: rect, box: bled,",
        "template-value",
    ),
    t(
        "valign-centre",
        FRONT,
        "     min_size: 7pt, valign: middle}",
        "     min_size: 7pt, valign: center}",
        "template-value",
        dline=-1,
        also=(9,),
    ),
    t(
        "min-size-above-size",
        FRONT,
        "     min_size: 7pt, valign: middle}",
        "     min_size: 14pt, valign: middle}",
        "template-bounds-reversed",
        owner="B",
    ),
    # --- Jinja
    t(
        "jinja-unknown-field",
        FRONT,
        'text: "{{ card.name }}"',
        'text: "{{ card.nam }}"',
        "template-name",
    ),
    t("jinja-syntax", FRONT, 'text: "{{ card.name }}"', 'text: "{{ card.name }"', "template-jinja"),
    t("when-unknown-field", FRONT, 'when: "card.art"}', 'when: "card.artt"}', "template-name"),
    t(
        "when-syntax",
        FRONT,
        "     when: \"card.power != ''\"}",
        '     when: "card.power !="}',
        "template-jinja",
    ),
    t(
        "attr-unknown-key",
        FRONT,
        "attr('faction', 'color', '#777777')",
        "attr('faction', 'colour', '#777777')",
        "template-name",
    ),
    t(
        "attr-unknown-field",
        FRONT,
        "attr('faction', 'color', '#777777')",
        "attr('factions', 'color', '#777777')",
        "template-name",
    ),
    t(
        "filter-typo",
        FRONT,
        'text: "{{ card.power }}"',
        'text: "{{ card.power|uper }}"',
        "template-jinja",
    ),
    # --- YAML of a template
    t(
        "template-yaml-syntax",
        BACK,
        '{id: ground, type: rect, box: bleed, fill: "#223344"}',
        '{id: ground, type: rect, box: bleed, fill: "#223344"',
        "yaml-syntax",
        dline=1,
    ),
    # --- faces.yaml
    t(
        "faces-where-unknown-field",
        LFACES,
        "- {where: {type: Spell},",
        "- {where: {tpye: Spell},",
        "template-where",
    ),
    t(
        "faces-where-unknown-value",
        LFACES,
        "- {where: {type: Spell},",
        "- {where: {type: Spel},",
        "faces-where-unmatched",
        owner="B",
    ),
    t("faces-front-missing", LFACES, "front: spell.yaml,", "front: spel.yaml,", "template-missing"),
    t("faces-back-missing", LFACES, "back: back.yaml}", "back: bak.yaml}", "template-missing"),
    t(
        "pt-faces-where-plural",
        PFACES,
        "- {where: {kinds: Resource},",
        "- {where: {kinds: Resources},",
        "faces-where-unmatched",
        owner="B",
    ),
    t(
        "ad-faces-front-typo",
        AFACES,
        "front: monster.yaml,",
        "front: monstr.yaml,",
        "template-missing",
    ),
    # --- sizes
    t(
        "size-name-typo",
        LBACK,
        "size: tarot\n",
        "size: taro\n",
        "template-unit",
        forbid=("outside-safe-zone", "template-off-card"),
        owner="B",
        note="one finding with a did-you-mean, and no safe-zone warnings from a fallback size",
    ),
    t(
        "back-size-mismatch",
        LBACK,
        "size: tarot\n",
        "size: poker\n",
        "back-size-mismatch",
        owner="B",
        at=LFACES,
        line=4,
        also=(2,),
    ),
    t(
        "spell-back-size-mismatch",
        "templates/lantern/spell-back.yaml",
        "size: 63mm x 88mm",
        "size: 70mm x 120mm",
        "back-size-mismatch",
        owner="B",
        at=LFACES,
        line=3,
        also=(2,),
    ),
    t(
        "lan-text-off-safe",
        LSPELL,
        "{id: name, type: text, x: 5mm, y: 5mm,",
        "{id: name, type: text, x: 1mm, y: 5mm,",
        "outside-safe-zone",
        severity="warning",
    ),
    # --- inheritance
    t(
        "extends-missing",
        PBACK,
        "extends: ../_shared/card.yaml",
        "extends: ../_shared/cards.yaml",
        "template-extends",
    ),
    t(
        "extends-outside",
        PBACK,
        "extends: ../_shared/card.yaml",
        "extends: ../../../card.yaml",
        "template-extends",
    ),
    t(
        "remove-unknown-id",
        AMON,
        "extends: common.yaml\n",
        "extends: common.yaml\nremove: [titel]\n",
        "template-unknown-element",
        owner="B",
        dline=1,
    ),
    t(
        "shared-font-typo",
        SHARED,
        "label: {regular: Lato-Bold,",
        "label: {regular: Lato-Bld,",
        "template-unusable|template-font",
        game="power-trip",
        owner="lead",
        note="new bug: reported at 'templates/power-trip' with no line",
    ),
    t(
        "shared-family-missing",
        SHARED,
        "  small: {regular: Lato-Regular, bold: Lato-Bold}\n",
        "",
        "template-value|template-font",
        game="ivion",
        at=IFRONT,
        line=29,
        also=(32, 35, 112),
        note="reported at the element that uses the family",
    ),
    # --- the bundled games' fronts
    t(
        "pt-vars-typo",
        PFRONT,
        '{id: frame, type: rect, box: bleed, fill: "{{ vars.frame }}"}',
        '{id: frame, type: rect, box: bleed, fill: "{{ vars.frme }}"}',
        "template-name",
    ),
    t(
        "pt-opacity-percent",
        PFRONT,
        '     fill: "{{ vars.frame }}", opacity: 0.22}',
        '     fill: "{{ vars.frame }}", opacity: 22}',
        "template-value",
        also=(57,),
    ),
    t(
        "pt-max-lines-zero",
        PFRONT,
        "    max_lines: 1\n",
        "    max_lines: 0\n",
        "template-value",
        owner="lead",
        note="wrong line: a block-style element's bad value is reported at its first line (26)",
    ),
    t(
        "pt-card-field-typo",
        PFRONT,
        "\"{{ (card.factions + (['TOKEN']",
        "\"{{ (card.faction + (['TOKEN']",
        "template-name",
    ),
    t(
        "ad-width-no-unit",
        ACOMMON,
        'right: "{{ 6 + [cost().sequence|length, 7]|min * 4.3 }}mm"',
        'right: "{{ 6 + [cost().sequence|length, 7]|min * 4.3 }}"',
        "template-unit",
        owner="lead",
        note="new bug: a computed length without a unit is silent (a constant one is an error)",
    ),
    t(
        "ad-align-typo",
        AMON,
        "    align: center\n",
        "    align: centre\n",
        "template-value",
        owner="lead",
        note="wrong line: reported at the element's first line (5)",
    ),
    t(
        "iv-shape-typo",
        IFRONT,
        'w: 11.6mm, h: 11.6mm, shape: circle, fill: "#c7962b"',
        'w: 11.6mm, h: 11.6mm, shape: circel, fill: "#c7962b"',
        "template-value",
    ),
    t(
        "iv-attr-unknown",
        IFRONT,
        "if attr('archetype', 'kind') == 'specialization'",
        "if attr('archetype', 'knd') == 'specialization'",
        "template-name",
    ),
]

"""The campaign's rulebook mistakes: names of cards, keywords and symbols that do not exist,
broken directives and Jinja, unknown admonitions, chapters missing, twice or misnamed, images."""

from __future__ import annotations

from .harness import Edit, workspace_of

BASICS = "rules/clean/rulebook/basics.md"
CARDS = "rules/clean/rulebook/cards.md"
INDEX = "rules/clean/rulebook/index.md"
PCOSTS = "rules/power-trip/rulebook/costs.md"
PINDEX = "rules/power-trip/rulebook/index.md"
AAETHER = "rules/aether-duel/rulebook/aether.md"
AMON = "rules/aether-duel/rulebook/monsters.md"
IINTRO = "rules/ivion/rulebook/introduction.md"
IPARTS = "rules/ivion/rulebook/parts-of-a-card.md"


def r(name: str, file: str, old: str, new: str, code: str | None, **kw: object) -> Edit:
    ws = workspace_of(file)
    return Edit(name, "chapter", ws, file, old, new, code, **kw)  # type: ignore[arg-type]


EDITS = [
    r(
        "card-name-typo",
        CARDS,
        '{{ card("Firestorm") }}',
        '{{ card("Firestrom") }}',
        "rulebook-unknown-card",
    ),
    r(
        "keyword-typo",
        CARDS,
        '{{ keyword("Guard") }}',
        '{{ keyword("Gaurd") }}',
        "rulebook-unknown-keyword",
    ),
    r(
        "anatomy-unknown-element",
        CARDS,
        '{"name": "Name", "rules": "Rules text"}',
        '{"nam": "Name", "rules": "Rules text"}',
        "rulebook-anatomy",
    ),
    r(
        "anatomy-element-not-drawn",  # the front's art has `when:`, false on Ember Guard
        CARDS,
        '{"name": "Name", "rules": "Rules text"}',
        '{"name": "Name", "art": "Art"}',
        "rulebook-anatomy",
        message="element 'art' is not drawn on Ember Guard",
    ),
    r(
        "directive-not-literal",
        CARDS,
        '{{ card("Firestorm") }}',
        "{{ card(Firestorm) }}",
        "rulebook-directive",
    ),
    r("directive-unknown", BASICS, "{{ components() }}", "{{ component() }}", "rulebook-directive"),
    r(
        "jinja-unclosed",
        BASICS,
        "{{ cost_legend() }}",
        "{{ cost_legend() }",
        "rulebook-template",
        owner="B",
    ),
    r(
        "symbol-unknown",
        BASICS,
        "Pay [R] or [U]",
        "Pay [W] or [U]",
        "rulebook-unknown-symbol",
        owner="B",
    ),
    r(
        "hybrid-unknown",
        BASICS,
        "Pay [R] or [U]",
        "Pay {R/W} or [U]",
        "rulebook-unknown-symbol",
        owner="B",
    ),
    r(
        "admonition-typo",
        BASICS,
        '!!! designer "Open question"',
        '!!! designr "Open question"',
        "rulebook-unknown-admonition",
        owner="B",
    ),
    r(
        "front-matter-broken",
        BASICS,
        "title: Basics",
        "title: [Basics",
        "rulebook-front-matter|yaml-syntax",
        also=(1, 3),
    ),
    r(
        "image-missing",
        BASICS,
        "## Setup\n",
        "## Setup\n\n![the table](setup.png)\n",
        "rulebook-image|image-unreadable",
        dline=2,
    ),
    r(
        "active-content",
        BASICS,
        "## Turns\n",
        "## Turns\n\n<script>alert(1)</script>\n",
        "rulebook-active-content",
        dline=2,
    ),
    r(
        "chapter-twice",
        INDEX,
        "chapters: [basics.md, cards.md]",
        "chapters: [basics.md, cards.md, basics.md]",
        "rulebook-chapter-twice",
        owner="B",
    ),
    r(
        "chapter-missing",
        INDEX,
        "chapters: [basics.md, cards.md]",
        "chapters: [basics.md, card.md]",
        "rulebook-chapter-missing",
    ),
    r(
        "chapter-without-md",
        INDEX,
        "chapters: [basics.md, cards.md]",
        "chapters: [basics, cards.md]",
        "rulebook-chapter-missing",
        owner="B",
        message="basics.md",
    ),
    r(
        "chapters-not-a-list",
        INDEX,
        "chapters: [basics.md, cards.md]",
        "chapters: basics.md cards.md",
        "rulebook-chapters|rulebook-front-matter",
    ),
    r(
        "pt-card-typo",
        PCOSTS,
        '{{ card("Cyrus, First of the Gifted") }}',
        '{{ card("Cyrus, First of the Gifed") }}',
        "rulebook-unknown-card",
    ),
    r(
        "pt-chapter-typo",
        PINDEX,
        "  - costs.md\n",
        "  - cost.md\n",
        "rulebook-chapter-missing",
        owner="B",
        message="costs.md",
        note="the did-you-mean over the chapters that exist",
    ),
    r(
        "pt-admonition-typo",
        PCOSTS,
        '!!! designer "Open question"',
        '!!! tipp "Open question"',
        "rulebook-unknown-admonition",
        owner="B",
    ),
    r(
        "ad-legend-broken",
        AAETHER,
        "{{ cost_legend() }}",
        "{{ cost_legend( }}",
        "rulebook-template",
        owner="B",
    ),
    r(
        "ad-card-typo",
        AAETHER,
        '{{ card("Wildfire") }}',
        '{{ card("Wildfir") }}',
        "rulebook-unknown-card",
    ),
    r(
        "ad-anatomy-id",
        AMON,
        '"type-line": "Monster and its alignments"',
        '"typeline": "Monster and its alignments"',
        "rulebook-anatomy",
    ),
    r(
        "iv-admonition-typo",
        IINTRO,
        '!!! tip "Page references"',
        '!!! tipp "Page references"',
        "rulebook-unknown-admonition",
        owner="B",
    ),
    r(
        "iv-anatomy-card-typo",
        IPARTS,
        '{{ anatomy("Warrior\'s Slash",',
        '{{ anatomy("Warriors Slash",',
        "rulebook-unknown-card|rulebook-anatomy",
    ),
]

"""Turn a game name into a minimal new game: a model, three sample cards and templates that validate and build."""
from __future__ import annotations

import re
from pathlib import Path

from ..core.errors import CardgenError
from ..core.output import write_atomic

MODEL = """\
# {title}: the rules model, the single source of truth for this game (see docs/model.md).
game:
  name: {title}
  version: "0.1"
  description: A new game made with cardgen new. Replace this with yours.

card:
  size: 63mm x 88mm
  bleed: 3mm
  safe: 3mm

vocabularies:
  faction:
    - {{name: Sun, color: "#b8620b", light: "#fbeedd"}}
    - {{name: Moon, color: "#3b4f8f", light: "#e2e7f4"}}
  kind:
    - {{name: Creature, requires: [power]}}
    - {{name: Spell, forbids: [power], requires: [text]}}
  rarity:
    - {{name: common, letter: C, color: "#5f5f5f"}}
    - {{name: rare, letter: R, color: "#b8901c"}}

fields:
  name: {{type: text, required: true}}
  cost: {{type: cost}}
  faction: {{type: enum, vocab: faction, required: true, role: faction}}
  kind: {{type: enum, vocab: kind, required: true, role: kind}}
  text: {{type: text, role: text}}
  flavor: {{type: text}}
  power: {{type: integer, min: 0, max: 20, role: attack}}
  rarity: {{type: enum, vocab: rarity, required: true, role: rarity}}
  number: {{type: number, role: number}}

cost:
  symbols:
    - {{letter: S, name: Sun, color: "#d9822b"}}
    - {{letter: M, name: Moon, color: "#3b4f8f"}}

text:
  keyword_lines: true

keywords:
  - {{name: Guard, reminder: Enemies must attack this first.}}

collation:
  - name: Sun
    where: {{faction: Sun}}
    rarities: {{common: {{designs: 2, copies: 3}}, rare: {{designs: 0, copies: 1}}}}
  - name: Moon
    where: {{faction: Moon}}
    rarities: {{common: {{designs: 0, copies: 3}}, rare: {{designs: 1, copies: 1}}}}

numbering:
  pattern: '^(?P<index>\\d+)/(?P<total>\\d+)$'
  prefixes:
    - {{prefix: "", where: {{}}, total: 3}}
"""

CARDS = """\
# Sample cards written by `cardgen new`: replace them with your own.
- name: Dawn Sentinel
  cost: SS
  faction: Sun
  kind: Creature
  text: Guard
  flavor: The first light keeps watch.
  power: 3
  rarity: common
  number: 1/3

- name: Solar Flare
  cost: S
  faction: Sun
  kind: Spell
  text: Deal 2 damage to a creature. If you paid [S][S] more, deal 4 instead.
  rarity: common
  number: 2/3

- name: Tide of Night
  cost: MM
  faction: Moon
  kind: Spell
  text: Return a creature to its owner's hand.
  rarity: rare
  number: 3/3
"""

FACES = """\
# Which front and back each card gets: the first rule whose `where` matches.
- {where: {}, front: front.yaml, back: back.yaml}
"""

FRONT = """\
# Card front (see docs/templates.md). Coordinates from the trim's top-left corner, y downwards.
extends: ../_shared/card.yaml
vars:
  frame: "{{ attr('faction', 'color', '#6d6d6d') }}"
elements:
  - {id: frame, type: rect, box: bleed, fill: "{{ vars.frame }}"}
  - {id: panel, type: rect, x: 2.6mm, y: 2.6mm, w: 57.8mm, h: 82.8mm, radius: 2.4mm,
     fill: "{{ attr('faction', 'light', '#eeeeee') }}"}
  - {id: name, type: text, x: 5mm, y: 4.3mm, w: 38mm, h: 6.6mm, text: "{{ card.name }}", font: title,
     size: 11pt, min_size: 7pt, valign: middle}
  - {id: cost, type: icons, x: 40mm, y: 5.2mm, w: 18mm, h: 4.8mm, cost: "{{ card.cost }}"}
  - {id: art, type: rect, x: 4.4mm, y: 12.4mm, w: 54.2mm, h: 30mm, radius: 1mm, fill: "{{ vars.frame }}",
     opacity: 0.25}
  - {id: type-line, type: text, x: 5mm, y: 44mm, w: 53mm, h: 5mm, text: "{{ card.faction }} {{ card.kind }}",
     font: label, size: 7.5pt, min_size: 5pt, valign: middle}
  - {id: text-box, type: rect, x: 3.8mm, y: 50mm, w: 55.4mm, h: 28mm, radius: 1.4mm, fill: "#fffdf7"}
  - {id: rules, type: text, x: 5.6mm, y: 51.5mm, w: 51.8mm, h: 24.5mm, text: "{{ card.text }}",
     flavor: "{{ card.flavor }}", rich: true, font: body, size: 9pt, min_size: 6pt, valign: middle}
  - {id: power, type: badge, x: 51mm, y: 75mm, w: 9mm, h: 9mm, shape: circle, fill: "{{ vars.frame }}",
     stroke: "#ffffff", text: "{{ card.power }}", font: label, size: 11pt, when: "card.power != ''"}
  - {id: footer, type: text, x: 12mm, y: 80mm, w: 38mm, h: 3.4mm,
     text: "{{ card.number }}  ·  {{ model.name }}", font: small, size: 5.5pt, align: center, valign: middle}
"""

BACK = """\
# Card back: one colour to the cut and no border near the edge, so a back printed 1.5 mm off its front
# (home duplex drift) looks the same on every card.
extends: ../_shared/card.yaml
elements:
  - {id: ground, type: rect, box: bleed, fill: "#2b2b3a"}
  - {id: emblem, type: circle, x: 16.5mm, y: 29mm, w: 30mm, h: 30mm, stroke: "#d9c27a", stroke_width: 1pt}
  - {id: title, type: text, x: 6mm, y: 38mm, w: 51mm, h: 12mm, text: "{{ model.name }}", font: title,
     size: 18pt, min_size: 9pt, align: center, valign: middle, color: "#e8d89a"}
"""

SHARED = """\
# Shared base for card templates: the bundled font families. Game templates extend it and add elements.
fonts:
  body: {regular: CharisSIL-Regular, bold: CharisSIL-Bold, italic: CharisSIL-Italic, bolditalic: CharisSIL-BoldItalic}
  title: {regular: Vollkorn-Bold, bold: Vollkorn-Bold}
  label: {regular: Lato-Bold, bold: Lato-Black}
  small: {regular: Lato-Regular, bold: Lato-Bold}
  icon: {regular: Lato-Black}
elements: []
"""


def scaffold(root: Path, game: str) -> list[Path]:
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", game):
        raise CardgenError(f"'{game}' is not a usable game name: use lower-case letters, digits and '-'")
    files = {
        root / "rules" / game / "game.yaml": MODEL.format(title=game.replace("-", " ").title()),
        root / "cards" / game / "cards.yaml": CARDS,
        root / "templates" / game / "faces.yaml": FACES,
        root / "templates" / game / "front.yaml": FRONT,
        root / "templates" / game / "back.yaml": BACK,
    }
    for path in files:
        if path.exists() or path.parent.exists() and path.parent.name == game and any(path.parent.iterdir()):
            raise CardgenError(f"'{game}' already exists ({path.parent}); choose another name")
    shared = root / "templates" / "_shared" / "card.yaml"
    if not shared.exists():
        files[shared] = SHARED
    (root / "output").mkdir(parents=True, exist_ok=True)
    return [write_atomic(path, text) for path, text in files.items()]

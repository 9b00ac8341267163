"""Turn an inferred game into a front template that shows every field: the name, a cost badge,
facts lines, a rules box and stat badges, placed so nothing overlaps."""

from __future__ import annotations

import json
import math
import re

from .infer import Column, Inferred
from .infer_yaml import colour_field, plan

# Geometry of a 63 x 88 mm card, in mm from the trim's top-left corner (safe zone 3 mm).
LEFT, WIDTH = 5.0, 53.0
FACT_LINE = 3.1  # one facts line at 7 pt


def label(col: Column) -> str:
    """The column's header as a label: the sheet's own words, without template or markup
    characters."""
    text = re.sub(r"\s+", " ", re.sub(r"[{}%#*\[\]\\]", "", col.header)).strip() or col.field
    return text[0].upper() + text[1:] if text.islower() else text


def short(col: Column) -> str:
    """A badge's label: a short header as it is ('ATK', 'HP'), else its initials ('Power Level':
    'PL'), else its first three letters ('Attack': 'ATT')."""
    words = label(col).upper().split()
    if len(words[0]) <= 4:
        return words[0]
    if len(words) == 1:
        return words[0][:3]
    return "".join(w[0] for w in words)[:4]


FOOT = 81.7  # mm: where the stat badges along the foot end, above the footer line
BADGE, WIDEST = 8.2, 10.0  # mm: a foot badge's size, and the most it grows for its label


def foot_badges(labels: list[str]) -> tuple[float, list[str]]:
    """The foot's stat badges' size (mm, one for all) and labels: 8.2 mm, grown up to 10 mm so
    that the widest label (6 pt Lato Bold, the starter's label font) clears the circle's edge
    where it stands (render.guards' badge-label-overflow); a label wider still is cut short."""
    from ..render.fonts import BUNDLED, FontSet
    from ..render.guards import MM, circle_holding, label_clearance

    fonts = FontSet(BUNDLED)
    cap, clear = fonts.cap_height("Lato-Bold", 6.0), 2 * label_clearance()

    def size_for(text: str) -> float:
        return circle_holding(fonts.width("Lato-Bold", text, 6.0) + clear, cap) / MM

    fitted = []
    for text in labels:
        while len(text) > 1 and size_for(text) > WIDEST:
            text = text[:-1]
        fitted.append(text)
    need = max((size_for(t) for t in fitted), default=BADGE)
    return max(BADGE, math.ceil(need * 10 - 1e-6) / 10), fitted


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _present(col: Column) -> str:
    return f"card.{col.field} != ''" + (
        " and card.{0} != []".format(col.field) if col.kind == "list" else ""
    )


def _value(col: Column) -> str:
    """A field's value as the front prints it: an enumeration's value by its name in the edition
    being built (a vocabulary's `name@de`, docs/editions.md), a list's values joined."""
    if col.kind == "list":
        return f"{{{{ card.{col.field}|join(', ') }}}}"
    if col.kind == "enum":
        return f"{{{{ attr('{col.field}', 'name', card.{col.field}) }}}}"
    return f"{{{{ card.{col.field} }}}}"


def _line(col: Column) -> str:
    return f"{{% if {_present(col)} %}}**{label(col)}:** {_value(col)}\n{{% endif %}}"


def _badge(col: Column, x: float, y: float, size: float, font: str, text: str | None) -> list[str]:
    """A round stat badge in the frame colour, drawn only on cards with the value."""
    value = f"{{{{ card.{col.field}{'|upper' if col.kind == 'int-or-x' else ''} }}}}"
    lines = [
        f"  - {{id: {col.field}, type: badge, x: {x}mm, y: {y}mm, w: {size}mm, h: {size}mm,",
        f'     shape: circle, fill: "{{{{ vars.frame }}}}", stroke: "#ffffff", text: "{value}",',
    ]
    if text:  # at the guards' least for a label (docs/guards.md)
        lines.append(f"     label: {_q(text)}, label_size: 6pt,")
    return lines + [f"     font: label, size: {font}, when: {_q(_present(col))}}}"]


def front_yaml(inferred: Inferred) -> str:
    """front.yaml: every field of the model on the card, the longer texts given the most room."""
    where = plan(inferred)
    colour = colour_field(inferred)
    frame = f"{{{{ attr('{colour.field}', 'color', '#55595f') }}}}" if colour else "#55595f"
    light = f"{{{{ attr('{colour.field}', 'light', '#eceef0') }}}}" if colour else "#eceef0"
    out = [
        "# Card front, made by `cardgen new --from` (see docs/templates.md): every field of the",
        "# model has a place. Coordinates from the trim's top-left corner, y downwards.",
        "extends: ../_shared/card.yaml",
        "vars:",
        f"  frame: {_q(frame)}",
        "boxes:",
        "  # where `cardgen sheets --versions` prints the version and a pack code",
        "  stamp: {x: 37mm, y: 82mm, w: 21mm, h: 2.8mm}",
        "elements:",
        '  - {id: frame, type: rect, box: bleed, fill: "{{ vars.frame }}"}',
        "  - {id: panel, type: rect, x: 2.6mm, y: 2.6mm, w: 57.8mm, h: 82.8mm, radius: 2.4mm,",
        f"     fill: {_q(light)}}}",
    ]
    icons = [c for c in where["cost"] if c.kind == "cost"]
    name_w = WIDTH - (21.5 if icons else 10.5 if where["cost"] else 0)
    out += [
        f"  - {{id: name, type: text, x: {LEFT}mm, y: 4mm, w: {name_w:g}mm, h: 7mm,",
        '     text: "{{ card.name }}", font: title, size: 11pt, min_size: 6pt, valign: middle}',
    ]
    for col in where["cost"]:
        if col.kind == "cost":  # symbols drawn as icons, right-aligned
            out.append(
                f"  - {{id: {col.field}, type: icons, x: 37mm, y: 5.1mm, w: 21mm, h: 4.8mm,"
                f' cost: "{{{{ card.{col.field} }}}}", align: right}}'
            )
        else:
            out += _badge(col, 50.2, 3.2, 8.6, "11pt", None)
    top = 12.5
    if where["facts"]:
        # a line each, and room for one to wrap (the facts keep the guards' least size, 7 pt)
        height = min(max((len(where["facts"]) + 0.3) * FACT_LINE, 4.0), 24.0)
        text = "".join(_line(c) for c in where["facts"])
        out += [
            f"  - id: facts  # {', '.join(c.field for c in where['facts'])}",
            "    type: text",
            f"    x: {LEFT}mm",
            f"    y: {top}mm",
            f"    w: {WIDTH}mm",
            f"    h: {height:.1f}mm",
            f"    text: {_q(text)}",
            "    rich: true",
            "    font: small",
            "    size: 7pt",
            "    min_size: 7pt",  # the guards' least for rules text (docs/guards.md)
        ]
        top += height + 1.0
    size, labels = foot_badges([short(c) for c in where["badges"]])  # measured once, used twice
    bottom = round(FOOT - size - 1.0, 1) if where["badges"] else 79.0
    room = bottom - top
    pictures = where["art"]
    if room > 44 or pictures:  # space to spare (or a column of art): a place for art
        # the cards' own pictures get all the rules text leaves (30 mm of it), up to 40 mm; a
        # tinted place without pictures, what 36 mm of text leaves, up to 28 mm
        art = min(max(room - 30, 12.0), 40.0) if pictures else min(room - 36, 28.0)
        out.append(
            f"  - {{id: art, type: rect, x: 4.4mm, y: {top:.1f}mm, w: 54.2mm, h: {art:.1f}mm,"
            ' radius: 1mm, fill: "{{ vars.frame }}", opacity: 0.25}'
        )
        for col in pictures:  # over the tinted place, which shows on a card without art
            out.append(
                f"  - {{id: picture, type: image, x: 4.4mm, y: {top:.1f}mm, w: 54.2mm, "
                f"h: {art:.1f}mm, src: {_q(_value(col))}, fit: cover, when: {_q(_present(col))}}}"
            )
        top += art + 1.5
    out.append(
        f"  - {{id: text-box, type: rect, x: 3.8mm, y: {top:.1f}mm, w: 55.4mm,"
        f' h: {bottom - top:.1f}mm, radius: 1.4mm, fill: "#fffdf7"}}'
    )
    if where["rules"] or where["flavor"] or icons:
        first, more = where["rules"][:1], where["rules"][1:]
        text = _value(first[0]) if first else ""
        if icons:  # a cost's free-text part ('BB, Discard a card') is printed as rules
            clauses = (
                "{% if cost().clauses %}**Cost:** {{ cost().clauses|join(', ') }}\n{% endif %}"
            )
            text = clauses + text
        text += "".join(
            f"{{% if {_present(c)} %}}\n**{label(c)}:** {_value(c)}{{% endif %}}" for c in more
        )
        shows = ", ".join(c.field for c in [*icons, *where["rules"], *where["flavor"]])
        out += [
            f"  - id: rules  # {shows}",
            "    type: text",
            "    x: 5.6mm",
            f"    y: {top + 1.2:.1f}mm",
            "    w: 51.8mm",
            f"    h: {bottom - top - 2.4:.1f}mm",
            f"    text: {_q(text)}",
        ]
        if where["flavor"]:
            out.append(f"    flavor: {_q(_value(where['flavor'][0]))}")
        out += ["    rich: true", "    font: body", "    size: 8.5pt", "    min_size: 7pt"]
    for n, col in enumerate(where["badges"]):
        x = (3.4, 59.0 - size, 4.4 + size, 58.0 - 2 * size)[n]
        out += _badge(col, round(x, 1), round(FOOT - size, 1), size, "10pt", labels[n])
    footer = "{{ model.name }}"
    for col in where["copies"]:
        footer += f"{{% if {_present(col)} %}}  ·  ×{{{{ card.{col.field} }}}}{{% endif %}}"
    out += [
        "  - {id: footer, type: text, x: 6mm, y: 82mm, w: 30mm, h: 2.8mm,",
        f"     text: {_q(footer)}, font: small, size: 6pt, min_size: 6pt,",
        "     valign: middle}",
    ]
    return "\n".join(out) + "\n"

"""Turn one element laid out on one face into the print-quality guards' findings: type printed
below the smallest size a home printer holds, text shrunk well below its size, a cost row that
shrinks card by card, a picture placed at too low a resolution or cropped hard (docs/guards.md)."""

from __future__ import annotations

import math
import re
from typing import Any

from ..core.errors import Finding, Severity
from ..core.units import PT_PER_UNIT
from ..load.card import Card
from ..model.game import GameModel
from ..model.guards import Guards
from . import richtext as rt
from .elements import Element, as_length
from .facetexts import badge_words, label_rect
from .fonts import FontSet
from .prepared import Op, PreparedFace

MM = PT_PER_UNIT["mm"]


def text_guards(
    guards: Guards,
    element: Element,
    face_name: str,
    card: Card,
    at: tuple[str, int, int],
    spec: rt.FitSpec,
    fit: rt.Fit,
    rich: bool,
) -> list[Finding]:
    """A text element's printed size on this face against the smallest for its class (rich text
    is rules text, any other text a label), and how far fitting shrank it (not for a text that
    overflows even so: its `text-overflow` finding names the size it reached)."""
    out = []
    what = element.id or "text"
    printed = fit.layout.size
    least, kind = (guards.rules_size, "rules text") if rich else (guards.label_size, "a label")
    if printed < least - 0.01 and printed >= spec.size - 0.01:  # as written: one finding
        out.append(
            at_element(
                element,
                "size",
                "type-too-small",
                f"'{what}' of {face_name} is set at {printed:g}pt, below the {least:g}pt minimum "
                f"for {kind}: a home printer fills it in",
                f"set its size to {least:g}pt or more (game.yaml's guards: sets the minimum)",
            )
        )
    elif not fit.fits:  # it overflows even so: text-overflow says it, at the size it reached
        pass
    elif printed < least - 0.01:
        out.append(
            Finding(
                *at,
                Severity.WARNING,
                "type-too-small",
                card.id,
                f"'{what}' of {face_name} is shrunk from {spec.size:g}pt to {printed:g}pt to "
                f"fit, below the {least:g}pt minimum for {kind}",
                "shorten the text, give it more room, or raise the element's min_size",
            )
        )
    elif spec.size - printed > guards.shrink + 0.01:
        out.append(
            Finding(
                *at,
                Severity.INFO,
                "text-shrunk",
                card.id,
                f"'{what}' of {face_name} is shrunk from {spec.size:g}pt to {printed:g}pt "
                f"({spec.size - printed:g}pt, more than {guards.shrink:g}pt) to fit",
                "shorten the text, or give the box more room",
            )
        )
    return out


def badge_guards(
    guards: Guards, element: Element, op: Op, face: PreparedFace, fonts: FontSet, face_name: str
) -> list[Finding]:
    """A badge's label printed below the label minimum (its size as painted: `label_size`, or a
    fifth of the badge's height), or wider than its shape (`badge_label_guards`). One finding at
    the element, whatever card shows it."""
    props, box = op.props, op.box
    if not str(props.get("label") or ""):
        return []
    wide = badge_label_guards(element, op, face, fonts, face_name)
    size = as_length(props.get("label_size"), box[3] * 0.2)
    if size >= guards.label_size - 0.01:
        return wide
    how = "its label_size" if props.get("label_size") else "a fifth of its height, the default"
    return [
        at_element(
            element,
            "label_size",
            "type-too-small",
            f"badge '{element.id or 'badge'}' of {face_name} prints its label at {size:.1f}pt "
            f"({how}), below the {guards.label_size:g}pt minimum for a label",
            f"set label_size: {guards.label_size:g}pt or more",
        )
    ] + wide


def badge_label_guards(
    element: Element, op: Op, face: PreparedFace, fonts: FontSet, face_name: str
) -> list[Finding]:
    """A badge's label wider than its shape where the label stands (a circle narrows towards its
    top, a rounded box at its corners): the letters touch or cross the badge's edge and stroke.
    It must keep half the stroke and 0.2 mm clear of the edge on each side. One finding at the
    element, whatever card shows it."""
    _, _, _, label, lstem, lsize = badge_words(op, face, fonts)
    if not label:
        return []
    x, y, w, h = op.box
    width, cap = fonts.width(lstem, label, lsize), fonts.cap_height(lstem, lsize)
    left, top, right, _ = label_rect(op.box, width, cap)
    shape = str(op.props.get("shape") or "circle")
    room = _inside_width(shape, w, h, top - y)
    stroked = op.props.get("stroke") not in (None, "", "none")
    clear = label_clearance(op.props.get("stroke_width"), stroked)
    need = right - left + 2 * clear
    if need <= room + 0.01:
        return []
    return [
        at_element(
            element,
            "label",
            "badge-label-overflow",
            f"badge '{element.id or 'badge'}' of {face_name}: its label '{label}' is "
            f"{(right - left) / MM:.1f} mm wide at {lsize:g}pt, but the "
            f"{shape} is {max(room, 0) / MM:.1f} mm wide at the label's top: the letters "
            "touch or cross its edge",
            (
                f"make it a circle at least {_needed_size(need, h, top - y) / MM:.1f} mm across"
                if shape == "circle"
                else "make the badge wider"
            )
            + ", shorten the label, or lower its label_size (not below the label minimum)",
        )
    ]


def at_element(element: Element, key: str, code: str, message: str, hint: str) -> Finding:
    """A warning at the template element's `key` as written (else at the element): one finding,
    whatever card shows it."""
    line, column = element.at.get(key, (element.line, element.column))
    return Finding(element.file, line, column, Severity.WARNING, code, None, message, hint)


def _inside_width(shape: str, w: float, h: float, down: float) -> float:
    """How wide the badge's drawn shape (render.paint) is `down` from its box's top."""
    if shape == "circle":  # centred, of the box's smaller side
        r = min(w, h) / 2
        d = abs(h / 2 - down)
        return 2 * math.sqrt(r * r - d * d) if d < r else 0.0
    if shape == "shield":  # flat along the top, to 55 % down
        return w
    r = min(w, h) * 0.2  # a rounded box
    if down >= r:
        return w
    return w - 2 * (r - math.sqrt(max(r * r - (r - down) ** 2, 0.0)))


def _needed_size(need: float, h: float, down: float) -> float:
    """The smallest circle whose width at its label's top is `need`, the label keeping its size
    (its capitals as tall as now: 30 % of `h` less `down`)."""
    return circle_holding(need, 0.3 * h - down)


def circle_holding(need: float, cap: float) -> float:
    """The smallest circle badge whose width at its label's top is `need` (clearances included),
    for a label with capitals `cap` tall (its baseline 30 % down the badge, as painted)."""
    size = need
    while size < 4 * need and _inside_width("circle", size, size, 0.3 * size - cap) < need:
        size += 0.05 * MM
    return size


def label_clearance(stroke_width: Any = None, stroked: bool = True) -> float:
    """What a badge's label keeps clear of its shape's edge on each side: 0.2 mm, and half the
    stroke (`stroke_width`, else 0.5 pt) when the badge is stroked."""
    return (as_length(stroke_width, 0.5) / 2 if stroked else 0.0) + 0.2 * MM


def cost_row_guards(
    element: Element, props: dict[str, Any], box: tuple, count: int, face_name: str
) -> list[Finding]:
    """A cost row whose symbols would not fit its box at their size: painting shrinks them on this
    card only, so one card's pips print smaller than another's on the same template."""
    if count < 1:
        return []
    d = as_length(props.get("size"), box[3])
    gap = as_length(props.get("gap"), d * 0.08)
    total = count * d + (count - 1) * gap
    if total <= box[2] + 0.01:
        return []
    shrunk = (box[2] - gap * (count - 1)) / count
    return [
        at_element(
            element,
            "w",
            "cost-row-shrinks",
            f"cost row '{element.id or 'icons'}' of {face_name} is {box[2] / MM:.1f} mm wide: "
            f"{count} symbols at {d / MM:.1f} mm need {total / MM:.1f} mm, so they shrink to "
            f"{shrunk / MM:.1f} mm on those cards and a cost's symbols differ in size from card "
            "to card",
            f"make the row {total / MM:.1f} mm wide or its symbols smaller, for every card",
        )
    ]


def unprinted_clauses(ops: list[Op], model: GameModel, card: Card, face: str) -> list[Finding]:
    """A cost's free-text clause ('Discard a card') that the face's cost row leaves out (a row
    draws symbols only) and none of its texts prints: the card would print another cost than its
    own."""
    rows = [op for op in ops if op.type == "icons" and op.props.get("cost")]
    if not rows:
        return []
    printed = _plain(
        " ".join(
            str(op.props.get(key) or "")
            for op in ops
            if op.type in ("text", "badge")
            for key in ("text", "flavor")
        )
    )
    field = model.cost_field
    line, column = card.loc(field) if field and field in card.data else (card.line, card.column)
    out = []
    for op in rows:
        for clause in model.parsed_cost(str(op.props["cost"])).clauses:
            if _plain(clause) not in printed:
                out.append(
                    Finding(
                        card.file,
                        line,
                        column,
                        Severity.WARNING,
                        "cost-clause-not-printed",
                        card.id,
                        f"the cost's clause '{clause}' is printed nowhere on {face}: its cost "
                        "row draws the symbols only",
                        "print the clauses in a text element, e.g. {{ cost().clauses|join(', ') "
                        "}} (docs/templates.md)",
                    )
                )
    return out


def _plain(text: str) -> str:
    """Text as read, for comparing: its emphasis marks and runs of spaces gone, case folded."""
    return " ".join(re.sub(r"[*_`]", "", text).split()).casefold()


def art_guards(
    guards: Guards,
    src: str,
    pixels: tuple[int, int],
    box: tuple,
    fit: str,
    card: Card,
    at: tuple[int, int],
) -> list[Finding]:
    """A picture's effective resolution at its placed size, the share `cover` cuts away, the
    margin `contain` leaves."""
    iw, ih = pixels
    w, h = box[2], box[3]
    if iw < 1 or ih < 1 or w <= 0 or h <= 0:
        return []
    cover = fit == "cover"
    scale = max(w / iw, h / ih) if cover else min(w / iw, h / ih)  # points per pixel
    dpi = 72 / scale
    out = []
    placed = f"{w / MM:.1f} × {h / MM:.1f} mm"
    if dpi < guards.art_dpi_warning - 0.01:
        error = dpi < guards.art_dpi_error - 0.01
        out.append(
            Finding(
                card.file,
                *at,
                Severity.ERROR if error else Severity.WARNING,
                "art-low-resolution",
                card.id,
                f"image '{src[:80]}' ({iw} × {ih} px) prints at {dpi:.0f} dpi in its "
                f"{placed} box, below "
                + (
                    f"{guards.art_dpi_error:g} dpi: it prints visibly blocky"
                    if error
                    else f"{guards.art_dpi_warning:g} dpi: it prints soft"
                ),
                f"use a picture of at least {w / 72 * guards.art_dpi_warning:.0f} × "
                f"{h / 72 * guards.art_dpi_warning:.0f} px",
            )
        )
    dw, dh = iw * scale, ih * scale
    if cover:
        cut = max(1 - w / dw, 1 - h / dh) * 100
        if cut > guards.cover_crop + 0.01:
            side = "width" if 1 - w / dw > 1 - h / dh else "height"
            out.append(
                Finding(
                    card.file,
                    *at,
                    Severity.WARNING,
                    "art-cropped",
                    card.id,
                    f"image '{src[:80]}' ({iw} × {ih} px) under fit: cover loses {cut:.0f} % of "
                    f"its {side} in its {placed} box (more than {guards.cover_crop:g} %)",
                    "crop the picture to the box's shape, or use fit: contain",
                )
            )
    else:
        empty = max(1 - dw / w, 1 - dh / h) * 100
        if empty > 1:
            side = "left and right" if 1 - dw / w > 1 - dh / h else "above and below"
            out.append(
                Finding(
                    card.file,
                    *at,
                    Severity.INFO,
                    "art-letterboxed",
                    card.id,
                    f"image '{src[:80]}' ({iw} × {ih} px) under fit: contain leaves {empty:.0f} "
                    f"% of its {placed} box empty {side}",
                    "crop the picture to the box's shape, or use fit: cover",
                )
            )
    return out

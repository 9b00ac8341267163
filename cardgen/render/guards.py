"""Turn one element laid out on one face into the print-quality guards' findings: type printed
below the smallest size a home printer holds, text shrunk well below its size, a cost row that
shrinks card by card, a picture placed at too low a resolution or cropped hard (docs/guards.md)."""

from __future__ import annotations

from typing import Any

from ..core.errors import Finding, Severity
from ..core.units import PT_PER_UNIT
from ..load.card import Card
from ..model.guards import Guards
from . import richtext as rt
from .elements import Element, as_length

MM = PT_PER_UNIT["mm"]


def text_guards(
    guards: Guards,
    element: Element,
    face_name: str,
    card: Card,
    at: tuple[int, int],
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
        line, column = element.at.get("size", (element.line, element.column))
        out.append(
            Finding(
                element.file,
                line,
                column,
                Severity.WARNING,
                "type-too-small",
                None,
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
                card.file,
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
                card.file,
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
    guards: Guards, element: Element, props: dict[str, Any], box: tuple, face_name: str
) -> list[Finding]:
    """A badge's label printed below the label minimum (its size as painted: `label_size`, or a
    fifth of the badge's height). One finding at the element, whatever card shows it."""
    if not str(props.get("label") or ""):
        return []
    size = as_length(props.get("label_size"), box[3] * 0.2)
    if size >= guards.label_size - 0.01:
        return []
    line, column = element.at.get("label_size", (element.line, element.column))
    how = "its label_size" if props.get("label_size") else "a fifth of its height, the default"
    return [
        Finding(
            element.file,
            line,
            column,
            Severity.WARNING,
            "type-too-small",
            None,
            f"badge '{element.id or 'badge'}' of {face_name} prints its label at {size:.1f}pt "
            f"({how}), below the {guards.label_size:g}pt minimum for a label",
            f"set label_size: {guards.label_size:g}pt or more",
        )
    ]


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
    line, column = element.at.get("w", (element.line, element.column))
    return [
        Finding(
            element.file,
            line,
            column,
            Severity.WARNING,
            "cost-row-shrinks",
            None,
            f"cost row '{element.id or 'icons'}' of {face_name} is {box[2] / MM:.1f} mm wide: "
            f"{count} symbols at {d / MM:.1f} mm need {total / MM:.1f} mm, so they shrink to "
            f"{shrunk / MM:.1f} mm on those cards and a cost's symbols differ in size from card "
            "to card",
            f"make the row {total / MM:.1f} mm wide or its symbols smaller, for every card",
        )
    ]


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

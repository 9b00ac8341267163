"""Turn a text element fitted on one face into the findings it gives there: a text that wraps past
its `max_lines`, one that overflows its box, characters no font of its chain can draw (at the
card's value that holds them, naming the font file and the `fallback:` line to add)."""

from __future__ import annotations

from typing import Any

from ..core.errors import Finding, Severity
from ..core.units import to_mm
from ..load.card import Card
from . import richtext as rt
from .elements import CARD_FIELD
from .fonts import FontSet
from .glyphadvice import Chains, advice, shown
from .prepared import PreparedFace
from .template import Element

Missing = tuple[list[str], tuple[str, ...]]  # the characters no font has, and the chain tried


def text_findings(
    fonts: FontSet,
    model_file: str,
    element: Element,
    props: dict[str, Any],
    face: PreparedFace,
    card: Card,
    fit: rt.Fit,
    missing: Missing,
    spec: rt.FitSpec,
    box: tuple[float, float, float, float],
) -> list[Finding]:
    """What the text's fit says about it on this face."""
    found: list[Finding] = []
    file, line, column = text_where(element, card)
    what = element.id or "text"
    if fit.wrapped and fit.fits:
        lines = spec.max_lines or 0
        found.append(
            Finding(
                file,
                line,
                column,
                Severity.WARNING,
                "text-wraps",
                card.id,
                f"'{what}' of {face.template.name} does not fit on "
                f"{lines} line{'s' * (lines != 1)} even at {spec.min_size:g}pt: "
                f"it wraps to {len(fit.layout.lines)}",
                "shorten it, or lower the element's min_size",
            )
        )
    if not fit.fits:
        over = fit.layout.overflow or max(0.0, fit.layout.widest - box[2])
        way = "high" if fit.layout.overflow else "wide"
        found.append(
            Finding(
                file,
                line,
                column,
                Severity.ERROR,
                "text-overflow",
                card.id,
                f"text box '{what}' of {face.template.name} overflows: "
                f"{to_mm(over):.1f} mm too {way} at the minimum size {spec.min_size:g}pt",
                "shorten the text or lower the box's min_size",
            )
        )
    if missing[0]:
        found.append(_glyph_finding(fonts, model_file, missing, props, element, face, card))
    return found


def missing_glyphs(fonts: FontSet, blocks: list[list[rt.Paragraph]], family: rt.Family) -> Missing:
    """The characters of the text no font of its chain can draw (each in the style it is set in),
    and the chain that was tried."""
    by_style: dict[int, set[str]] = {}
    order: dict[str, int] = {}
    for block in blocks:
        for paragraph in block:
            for word in paragraph:
                for atom in word:
                    if not atom.icon:
                        by_style.setdefault(atom.style, set()).update(atom.text)
                        order.update((c, len(order)) for c in atom.text if c not in order)
    missing: set[str] = set()
    tried: tuple[str, ...] = ()
    for style in sorted(by_style):
        stem, chars = family.stem(style), "".join(sorted(by_style[style]))
        lacking = fonts.missing(stem, chars, family.fallback, style)
        if lacking and not missing:
            tried = fonts.chain(stem, family.fallback, style)
        missing |= lacking
    return sorted(missing, key=order.__getitem__), tried


def _glyph_finding(
    fonts: FontSet,
    model_file: str,
    missing: Missing,
    props: dict[str, Any],
    element: Element,
    face: PreparedFace,
    card: Card,
) -> Finding:
    """A character no font can draw: at the card's value that holds it, naming the family, the
    chain tried, each character's code point, and the font file and `fallback:` line to add."""
    chars, tried = missing
    name = props.get("font") or next(iter(face.template.fonts))
    at = face.template.font_at.get(name, {}).get("regular")
    chains = Chains(
        model_file,
        fonts.fallback,
        name,
        f"{at[0]}:{at[1]}" if at else None,
        face.template.fallbacks.get(name, ()),
    )
    more = f" and {len(chars) - 8} more" if len(chars) > 8 else ""
    line, column = _value_at(card, chars)
    return Finding(
        card.file,
        line,
        column,
        Severity.ERROR,
        "missing-glyph",
        card.id,
        f"no font of the family '{name}' has {shown(chars[:8])}{more} in "
        f"'{element.id or 'text'}': tried {', '.join(tried)}",
        advice(chars, chains),
    )


def _value_at(card: Card, chars: list[str]) -> tuple[int, int]:
    """Where the card's first value holding one of the characters is written (else the card)."""
    for key, value in card.data.items():
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and any(c in v for c in chars) for v in values):
            return card.loc(key)
    return card.line, card.column


def text_where(element: Element, card: Card) -> tuple[str, int, int]:
    """Where a finding about a text stands: at the card's value it prints (text_at); on a face of
    no card (a shared back), at the element in its template."""
    if not card.file and element.file:
        return element.file, element.line, element.column
    return (card.file, *text_at(element, card))


def text_at(element: Element, card: Card) -> tuple[int, int]:
    """Where a finding about a text's fit or glyphs stands: at the translation it prints, in an
    edition whose card gives one (`text@de`'s line), else at the first of the card's values it
    prints (its `text:`, so a sheet's finding names the cell of that column), else at the card."""
    read = []
    for key in ("text", "flavor"):
        value = element.props.get(key)
        raw = value.raw if value is not None and isinstance(value.raw, str) else ""
        read += CARD_FIELD.findall(raw)
    for name in read if card.translated else ():
        if name in card.translated:
            return card.loc(name)
    for name in read:
        if card.data.get(name) not in (None, "", []):
            return card.loc(name)
    return card.line, card.column

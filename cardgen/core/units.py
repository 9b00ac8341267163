"""Turn physical sizes written with units ('63mm', '0.125in', '9pt') into points; the only place
units are parsed."""

from __future__ import annotations

import re

PT_PER_UNIT = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 72.0 / 2.54, "px": 72.0 / 300.0}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(pt|in|mm|cm)\s*$")

# Paper sizes in points (portrait).
PAPERS: dict[str, tuple[float, float]] = {
    "a4": (595.2756, 841.8898),
    "a3": (841.8898, 1190.5512),
    "a5": (419.5276, 595.2756),
    "letter": (612.0, 792.0),
    "legal": (612.0, 1008.0),
    # A4 and Letter at once: their intersection, 210 mm x 11 in, so one PDF prints on either
    "universal": (595.2756, 792.0),
}

# Card sizes (trim) in points.
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker-eu": (63 * PT_PER_UNIT["mm"], 88 * PT_PER_UNIT["mm"]),
    "poker": (180.0, 252.0),
    "bridge": (57.15 * PT_PER_UNIT["mm"], 88.9 * PT_PER_UNIT["mm"]),
    "tarot": (69.85 * PT_PER_UNIT["mm"], 120.65 * PT_PER_UNIT["mm"]),
    "mini": (44.45 * PT_PER_UNIT["mm"], 63.5 * PT_PER_UNIT["mm"]),
    "square": (180.0, 180.0),  # 2.5 x 2.5 in
    "square-large": (252.0, 252.0),  # 3.5 x 3.5 in
    # poker-eu on its side: vendors print it on their poker product, turned (render/vendors.py)
    "landscape": (88 * PT_PER_UNIT["mm"], 63 * PT_PER_UNIT["mm"]),
}
# The sizes `cardgen new --size` offers: its starter templates are size-relative and fit each.
STARTER_SIZES = ("tarot", "poker", "poker-eu", "bridge", "mini", "square", "landscape")


def mm_text(points: float) -> str:
    """120.65 mm as '120.65', 63.0 mm as '63': millimetres to two decimals, without trailing
    zeros."""
    return f"{round(to_mm(points) + 1e-9, 2):.2f}".rstrip("0").rstrip(".")


def size_name(size: tuple[float, float]) -> str:
    """'tarot (69.85 x 120.65 mm)' for a known card size, else '70 x 120 mm'."""
    w, h = size
    mm = f"{mm_text(w)} x {mm_text(h)} mm"
    for name, (kw, kh) in CARD_SIZES.items():
        if abs(kw - w) < 0.2 and abs(kh - h) < 0.2:
            return f"{name} ({mm})"
    return mm


class UnitError(ValueError):
    """A length without a unit, or with one cardgen does not know."""


def length(value: object) -> float:
    """'63mm' -> 178.58 (points). A bare number is refused: every size in a file carries its
    unit."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise UnitError(f"expected a length such as '3mm' or '0.125in', got {value!r}")
    if isinstance(value, (int, float)):
        if value == 0:
            return 0.0
        raise UnitError(f"length {value!r} has no unit; write e.g. '{value}mm' or '{value}pt'")
    m = _LENGTH.match(value)
    if not m:
        raise UnitError(f"'{value}' is not a length; write e.g. '3mm', '0.125in', '9pt' or '1cm'")
    return float(m.group(1)) * PT_PER_UNIT[m.group(2)]


def size(value: object) -> tuple[float, float]:
    """'63mm x 88mm' or a known name ('poker', 'a4') -> (width, height) in points."""
    if isinstance(value, str):
        key = value.strip().lower()
        if key in CARD_SIZES:
            return CARD_SIZES[key]
        if key in PAPERS:
            return PAPERS[key]
        parts = re.split(r"\s*[x×]\s*", value.strip())
        if len(parts) == 2:
            return length(parts[0]), length(parts[1])
    raise UnitError(
        f"'{value}' is not a size; write 'WIDTHxHEIGHT' with units (e.g. '63mm x 88mm') "
        f"or one of {', '.join(sorted(CARD_SIZES | PAPERS))}"
    )


# Sane ranges (documented in docs/templates.md): outside them a value is a typo, and a print run of
# cards 0.1 mm wide would tile a page with millions of slots.
CARD_SIDE = (10.0 * PT_PER_UNIT["mm"], 400.0 * PT_PER_UNIT["mm"])
PAPER_SIDE = (50.0 * PT_PER_UNIT["mm"], 2000.0 * PT_PER_UNIT["mm"])
MAX_BLEED = 20.0 * PT_PER_UNIT["mm"]
MAX_SAFE = 50.0 * PT_PER_UNIT["mm"]


def _within(points: float, low: float, high: float, what: str) -> float:
    if not low <= points <= high:
        raise UnitError(
            f"{what} of {to_mm(points):g} mm is outside {to_mm(low):g}-{to_mm(high):g} mm"
        )
    return points


def card_size(value: object) -> tuple[float, float]:
    """A card's trim size, each side 10-400 mm."""
    w, h = size(value)
    return _within(w, *CARD_SIDE, "a card width"), _within(h, *CARD_SIDE, "a card height")


def paper(value: object) -> tuple[float, float]:
    """A paper size, each side 50-2000 mm."""
    w, h = size(value)
    return _within(w, *PAPER_SIDE, "a paper width"), _within(h, *PAPER_SIDE, "a paper height")


def token_size(value: object) -> tuple[float, float]:
    """A token's size: one length (a disc's diameter, a square's side, a hex across its flats) or
    'W x H' (a tile), each side 5-300 mm."""
    side = (5.0 * PT_PER_UNIT["mm"], 300.0 * PT_PER_UNIT["mm"])
    w, h = (
        size(value)
        if isinstance(value, str) and re.search(r"[x×]", value)
        else (length(value),) * 2
    )
    return _within(w, *side, "a token width"), _within(h, *side, "a token height")


def slack(value: object) -> float:
    """A box's room beyond its cards, 0-30 mm."""
    return _within(length(value), 0.0, 30.0 * PT_PER_UNIT["mm"], "a box's slack")


def bleed(value: object) -> float:
    """A bleed, 0-20 mm."""
    return _within(length(value), 0.0, MAX_BLEED, "a bleed")


def safe(value: object) -> float:
    """A safe-zone inset, 0-50 mm."""
    return _within(length(value), 0.0, MAX_SAFE, "a safe zone")


def to_mm(points: float) -> float:
    return points / PT_PER_UNIT["mm"]

"""Turn a card's trim size and a print-on-demand vendor into that vendor's matching product canvas
(a landscape card on its portrait product, turned 90 degrees), or a refusal."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import CardgenError, suggest
from ..core.units import mm_text, size_name

IN = 72.0  # points per inch
SCALE_TOLERANCE = 0.03  # a card may be printed up to 3 % larger or smaller to fit a product's trim
ASPECT_TOLERANCE = 0.015  # ... but never stretched: width/height must agree within 1.5 %


@dataclass(frozen=True)
class Product:
    """One card product of a vendor: its name and trim (points)."""

    name: str
    trim: tuple[float, float]


@dataclass(frozen=True)
class Vendor:
    """A print-on-demand shop: its products, its bleed and safe margins and how it wants files."""

    key: str
    title: str
    products: tuple[Product, ...]
    bleed_px: float  # per side, at `dpi` (PNG vendors); DTC works in points
    dpi: int
    safe_px: float  # from the image edge: where the vendor says text may start
    source: str


def _p(name: str, w_in: float, h_in: float) -> Product:
    return Product(name, (w_in * IN, h_in * IN))


# Canvases are the trim at 300 dpi plus the vendor's bleed on each side: The Game Crafter 37.5 px
# (1/8 in: poker 825 x 1125, tarot 900 x 1500, mini 600 x 825, bridge 750 x 1125), MakePlayingCards
# 36 px (poker 822 x 1122). DriveThruCards takes a PDF page of trim + 1/8 in on each side.
COMMON = (
    _p("poker", 2.5, 3.5),
    _p("bridge", 2.25, 3.5),
    _p("tarot", 2.75, 4.75),
    _p("mini", 1.75, 2.5),
    _p("square", 2.5, 2.5),
    _p("square-large", 3.5, 3.5),
)
VENDORS: dict[str, Vendor] = {
    "tgc": Vendor(
        "tgc",
        "The Game Crafter",
        COMMON,
        37.5,
        300,
        75,
        "The Game Crafter templates: trim + 1/8 in bleed per side at 300 dpi (poker 825 x 1125 "
        "px); "
        "keep text 75 px from the image edge",
    ),
    "mpc": Vendor(
        "mpc",
        "MakePlayingCards / PrinterStudio",
        COMMON,
        36,
        300,
        72,
        "MakePlayingCards templates: trim + 36 px (3.048 mm) bleed per side at 300 dpi "
        "(poker 822 x 1122 px)",
    ),
    "dtc": Vendor(
        "dtc",
        "DriveThruCards",
        (
            _p("poker", 2.5, 3.5),
            _p("tarot", 2.75, 4.75),
            _p("mini", 1.75, 2.5),
            _p("square", 2.5, 2.5),
        ),
        37.5,
        300,
        75,
        "DriveThruCards: one PDF per deck, page = trim + 1/8 in bleed per side, back before front",
    ),
}


@dataclass(frozen=True)
class Canvas:
    """What one card size becomes at one vendor: the product, the pixel canvas and trim, and the
    scale."""

    vendor: Vendor
    product: Product
    canvas: tuple[int, int]  # pixels, bleed included
    trim_px: tuple[int, int]
    scale: float  # product trim / card trim (1.0 when the sizes agree exactly)
    # a landscape card on a portrait product: `canvas` and `trim_px` are then the card's way up
    # (what is drawn) and the file the vendor receives is that picture turned 90 degrees (`upload`)
    rotated: bool = False

    @property
    def title(self) -> str:
        return f"{self.vendor.title}, {self.product.name}"

    @property
    def upload(self) -> tuple[int, int]:
        """The pixel size of the file the vendor receives: the product's own canvas."""
        return (self.canvas[1], self.canvas[0]) if self.rotated else self.canvas

    @property
    def bleed_pt(self) -> float:
        return self.vendor.bleed_px / self.vendor.dpi * IN


def vendor(key: str) -> Vendor:
    if key not in VENDORS:
        raise CardgenError(
            suggest(f"unknown vendor '{key}' (vendors: {', '.join(VENDORS)})", key, list(VENDORS))
        )
    return VENDORS[key]


# Which way a landscape card turns onto its portrait product. The front turns clockwise (its top
# edge becomes the right edge), as Squib's `save_png rotate: true` (made for The Game Crafter) and
# most card tools do; the back turns counter-clockwise, so the printed card, held landscape and
# turned over sideways, shows its back upright, as the duplex print sheets do (a vendor prints each
# back so that turning the portrait card over sideways shows it upright). In degrees
# counter-clockwise, as PDF's and Pillow's `rotate` count them.
FRONT_TURN = -90
BACK_TURN = 90


def _match(v: Vendor, w: float, h: float) -> tuple[float, Product] | None:
    best: tuple[float, Product] | None = None
    for product in v.products:
        pw, ph = product.trim
        aspect = abs((w / h) / (pw / ph) - 1)
        scale = max(pw / w, ph / h)
        if aspect <= ASPECT_TOLERANCE and abs(scale - 1) <= SCALE_TOLERANCE:
            if best is None or abs(scale - 1) < abs(best[0] - 1):
                best = (scale, product)
    return best


def product_for(v: Vendor, trim: tuple[float, float]) -> Canvas | str:
    """The vendor's product for a card of this trim (a landscape card: its portrait product, the
    card turned 90 degrees), or why there is none (naming the size and the products)."""
    w, h = trim
    best = _match(v, w, h)
    rotated = best is None and _match(v, h, w) is not None and w != h
    if rotated:
        best = _match(v, h, w)
    if best is None:
        sold = "; ".join(
            f"{p.name} {mm_text(p.trim[0])} x {mm_text(p.trim[1])} mm" for p in v.products
        )
        return (
            f"{v.title} has no product for {size_name(trim)} cards either way up (it sells "
            f"{sold}); a card is never cropped or stretched to fit: give these cards a template "
            "of one of those sizes, or of one turned on its side (a landscape card is printed on "
            "its portrait product, turned 90 degrees)"
        )
    scale, product = best
    tw, th = round(product.trim[0] / IN * v.dpi), round(product.trim[1] / IN * v.dpi)
    b = round(2 * v.bleed_px)
    if rotated:
        return Canvas(v, product, (th + b, tw + b), (th, tw), scale, rotated=True)
    return Canvas(v, product, (tw + b, th + b), (tw, th), scale)


def bleed_for(c: Canvas, trim_pt: tuple[float, float]) -> tuple[float, float]:
    """(pixels per point, bleed in card points) that put a card's trim on the product's trim
    exactly, with enough bleed drawn to cover the canvas (half a pixel spare against rounding)."""
    px_per_pt = max(c.trim_px[0] / trim_pt[0], c.trim_px[1] / trim_pt[1])
    bleed = max(
        (c.canvas[0] / px_per_pt - trim_pt[0]) / 2, (c.canvas[1] / px_per_pt - trim_pt[1]) / 2
    )
    return px_per_pt, bleed + 0.5 / px_per_pt

"""Turn a paper stock ('300gsm', '0.32mm') into its thickness, and a card size into the common
sleeve it fits: the physical facts boxes and the sleeve check are sized from.

Sources (docs/kit.md says the same, with how to override each number):

- Thickness by paper weight. Weight (g/m²) and caliper are related but not fixed: mills differ by
  finish and fibre, so every number here is typical, and `card.stock: 0.31mm` (a caliper measured
  with a micrometer, or read from the paper's data sheet) always wins. Points read: MCG Paper's
  "Paper weights and conversion tables" (mcgpaper.com: 60 g/m² 0.081 mm, 90 g/m² 0.12 mm, 105 g/m²
  0.147 mm); 80 lb cover (216 g/m²) at 10 pt = 0.254 mm and 14 pt = 0.356 mm ≈ 308 g/m² (a paper
  merchant and Wikipedia's caliper table, quoted on ask.metafilter.com/205943); 300 g/m² at 290 µm
  (340 µm recycled) in a supplier's table; printed playing-card stock (MPC's S30, Magic cards) about
  0.30-0.31 mm. cardgen's field notes: 300 g/m² card stock is 0.3-0.35 mm a card.
- Sleeves. Makers name a sleeve by the card size it takes, not its own size (Mayday Games' sleeve
  size finder; Fantasy Flight Supply's and Gamegenic's names follow the same sizes): standard card
  game 63.5 x 88, standard American 56 x 87, mini American 41 x 63, mini European 44 x 68, standard
  European 59 x 92, tarot 70 x 120, square 70 x 70 and 80 x 80, Japanese 59 x 86 mm. A sleeve takes
  a card up to about 1.5 mm wider and 2 mm longer than its name (BCW's "56 x 87 mm" board game
  sleeves are sold for 57.15 x 88.9 mm cards), and a card more than 5 mm smaller on a side swims in
  it.
- A sleeved card is thicker by two layers of film: standard sleeves are about 60 µm each (0.12 mm a
  card); premium ones up to 100 µm (`box.sleeve_thickness` overrides).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .units import PT_PER_UNIT, UnitError, length

MM = PT_PER_UNIT["mm"]

# paper weight (g/m²) -> typical thickness (mm) of smooth card stock; between rows, interpolated
THICKNESS: tuple[tuple[float, float], ...] = (
    (60, 0.081),
    (90, 0.12),
    (120, 0.15),
    (160, 0.19),
    (200, 0.23),
    (216, 0.25),
    (250, 0.28),
    (300, 0.32),
    (350, 0.38),
    (400, 0.43),
    (600, 0.64),
)
DEFAULT_STOCK = "300gsm"  # what cards and boxes are printed on when the model does not say
SLEEVE_FILM = 0.12  # mm a sleeved card is thicker (two layers of ~60 µm film)
WIDER, LONGER = 1.5, 2.0  # mm a sleeve takes beyond its name
LOOSE = 5.0  # mm smaller than a sleeve's name on a side: the card swims in it

_WEIGHT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(gsm|g/m2|g/m²|g)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Stock:
    """A paper stock as written ('300gsm', '0.32mm') and its thickness in mm."""

    written: str
    mm: float
    weight: float | None = None  # g/m², when written as a weight

    def __str__(self) -> str:
        if self.weight is not None:
            return f"{self.written.strip()} ({self.mm:.2f} mm)"
        return f"{self.mm:.2f} mm"


def thickness_of(weight: float) -> float:
    """A paper weight's typical thickness in mm, interpolated in THICKNESS."""
    rows = THICKNESS
    if weight <= rows[0][0]:
        return rows[0][1] * weight / rows[0][0]
    for (w1, t1), (w2, t2) in zip(rows, rows[1:]):
        if weight <= w2:
            return t1 + (t2 - t1) * (weight - w1) / (w2 - w1)
    return rows[-1][1] * weight / rows[-1][0]


def stock(value: object) -> Stock:
    """'300gsm' -> its typical thickness; '0.32mm' or '0.0126in' -> that thickness. 60-1,000 g/m²,
    0.05-2 mm; a thickness in 'pt' is refused (paper points are thousandths of an inch, type
    points 1/72 in)."""
    if isinstance(value, bool) or not isinstance(value, str):
        raise UnitError(
            f"a stock is a paper weight ('300gsm') or a thickness ('0.32mm'), not {value!r}"
        )
    m = _WEIGHT.match(value)
    if m:
        weight = float(m.group(1))
        if not 60 <= weight <= 1000:
            raise UnitError(f"a paper weight of {weight:g} g/m² is outside 60-1,000 g/m²")
        return Stock(value, round(thickness_of(weight), 3), weight)
    if value.strip().lower().endswith("pt"):
        raise UnitError(
            f"'{value}': a stock's thickness in pt is ambiguous (paper points are thousandths of "
            "an inch); write it in mm ('0.32mm') or inches ('0.0126in'), or give the weight "
            "('300gsm')"
        )
    try:
        mm = length(value) / MM
    except UnitError:
        raise UnitError(
            f"'{value}' is not a stock; write a paper weight ('300gsm') or a thickness ('0.32mm')"
        ) from None
    if not 0.05 <= mm <= 2.0:
        raise UnitError(f"a stock {mm:g} mm thick is outside 0.05-2 mm")
    return Stock(value, round(mm, 3))


def film(value: object) -> float:
    """A sleeve's added thickness per card ('0.12mm'), 0-1 mm, in mm."""
    mm = length(value) / MM
    if not 0 <= mm <= 1.0:
        raise UnitError(f"a sleeve thickness of {mm:g} mm a card is outside 0-1 mm")
    return mm


@dataclass(frozen=True)
class Sleeve:
    """A common sleeve size, by the name makers sell it under and the card (mm) it is for."""

    name: str
    width: float
    height: float
    label: str

    def shown(self) -> str:
        return f"{self.label} sleeves ({self.width:g} x {self.height:g} mm)"


SLEEVES: tuple[Sleeve, ...] = (
    Sleeve("standard", 63.5, 88, "standard card game"),
    Sleeve("standard-american", 56, 87, "standard American"),
    Sleeve("mini-american", 41, 63, "mini American"),
    Sleeve("mini-european", 44, 68, "mini European"),
    Sleeve("standard-european", 59, 92, "standard European"),
    Sleeve("japanese", 59, 86, "Japanese"),
    Sleeve("tarot", 70, 120, "tarot"),
    Sleeve("square", 70, 70, "square"),
    Sleeve("large-square", 80, 80, "large square"),
)
SLEEVE_NAMES = tuple(s.name for s in SLEEVES)


def fits(sleeve: Sleeve, card: tuple[float, float]) -> bool:
    """Whether a card (mm, either way round) goes into the sleeve and does not swim in it."""
    short, long_ = sorted(card)
    return (
        sleeve.width - LOOSE <= short <= sleeve.width + WIDER
        and sleeve.height - LOOSE <= long_ <= sleeve.height + LONGER
    )


def sleeve_for(card: tuple[float, float]) -> Sleeve | None:
    """The snuggest common sleeve a card (mm) fits, or None."""
    short, long_ = sorted(card)
    found = [s for s in SLEEVES if fits(s, card)]
    return min(found, key=lambda s: abs(s.width - short) + abs(s.height - long_), default=None)


def sleeve_named(name: str) -> Sleeve | None:
    return next((s for s in SLEEVES if s.name == name), None)


def sleeved_size(card: tuple[float, float], sleeve: Sleeve) -> tuple[float, float]:
    """A sleeved card's outside size (mm, the card's own way round): the sleeve's, which is about
    its name plus the room it gives and its seams (2 mm across, 3 mm along)."""
    w, h = card
    across, along = max(sleeve.width + 2.5, w + 1.0), max(sleeve.height + 3.0, h + 1.0)
    return (across, along) if w <= h else (along, across)

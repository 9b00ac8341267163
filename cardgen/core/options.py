"""Turn the print options' words ('a4', '8.5in x 11in', 'long', 'gutter', 'low') into typed values,
once."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, get_args

from .errors import did_you_mean
from .units import CARD_SIZES, PAPERS, UnitError, mm_text
from .units import paper as paper_size

Duplex = Literal["long", "short", "none"]  # which edge the sheet flips on, or single-sided
# neighbours share a cut line, each card has its own bleed, or (one-sided) each card's back is
# printed beside its front, to fold and glue
Layout = Literal["shared-cut", "gutter", "fold"]
Ink = Literal[
    "normal", "low"
]  # full colour, or a white ground with coloured outlines and type (render.lowink)

DUPLEX: tuple[Duplex, ...] = get_args(Duplex)
LAYOUTS: tuple[Layout, ...] = get_args(Layout)
INKS: tuple[Ink, ...] = get_args(Ink)


@dataclass(frozen=True)
class Paper:
    """A sheet of paper, portrait: a standard one by its name ('a4'), or a size as written ('8.5in x
    11in')."""

    name: str
    width_pt: float
    height_pt: float
    shown: str = field(
        default="", compare=False
    )  # as the user wrote it ('A4'), for messages; default: name

    @property
    def size(self) -> tuple[float, float]:
        return self.width_pt, self.height_pt

    @property
    def standard(self) -> bool:
        return self.name in PAPERS

    def landscape(self) -> tuple[float, float]:
        """(width, height) with the long side across."""
        return max(self.size), min(self.size)

    def mm(self) -> str:
        return f"{mm_text(self.width_pt)} x {mm_text(self.height_pt)} mm"

    def __str__(self) -> str:
        return self.shown or self.name


STANDARD: dict[str, Paper] = {name: Paper(name, w, h) for name, (w, h) in PAPERS.items()}
A4 = STANDARD["a4"]
# not offered by --paper, only the sheet a letter-page booklet is printed on (11 x 17 in)
TABLOID = Paper("tabloid", 792.0, 1224.0)
# not offered for print sheets, only a rulebook's page: half a Letter sheet (5.5 x 8.5 in), the page
# of a booklet printed on Letter
HALF_LETTER = Paper("half-letter", 396.0, 612.0)

_HELP = (
    "write one of a4, letter, legal, a3, a5, universal (fits A4 and Letter), or WIDTHxHEIGHT with "
    "units (e.g. '8.5in x 11in')"
)
_HAS_UNIT = re.compile(r"\d\s*(mm|cm|in|pt)\b")


def parse_paper(text: str) -> Paper:
    """'A4' -> the a4 Paper; '8.5in x 11in' -> that size (each side 50-2000 mm). A word that is no
    paper's name is refused with the names it may have meant (UnitError)."""
    key = text.strip().lower()
    if key in STANDARD:
        known = STANDARD[key]
        return Paper(known.name, known.width_pt, known.height_pt, text)
    if (
        not _HAS_UNIT.search(key) and key not in CARD_SIZES
    ):  # a name, mistyped ('a3x', 'lettr'), not a size
        hint = did_you_mean(key, list(PAPERS))
        raise UnitError(f"'{text}' is not a paper size; {_HELP}" + (f"; {hint}" if hint else ""))
    if any(not side.strip() for side in re.split(r"[x×]", key)):  # '8.5in x': a side is missing
        raise UnitError(f"'{text}' is not a paper size; {_HELP}")
    w, h = paper_size(
        text
    )  # a size, or a card size's name ('tarot'): a sheet that small is allowed
    return Paper(text.strip(), w, h, text)

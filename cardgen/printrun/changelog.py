"""Turn card changes into change-log pages at the front of a print-sheet PDF: each card's old and
new fields side by side, so playtesters know what to swap."""

from __future__ import annotations

from typing import Sequence

from reportlab.lib.colors import HexColor, black
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from ..core.units import PT_PER_UNIT
from ..project.changes import Change, field_text
from ..render.fonts import FontSet

MM = PT_PER_UNIT["mm"]
MARGIN = 15 * MM
SIZE = 7.5
LEAD = SIZE * 1.3
FONT, BOLD = "Lato-Regular", "Lato-Bold"
GREY = HexColor("#6b6b6b")
OLD, NEW = HexColor("#8a1c1c"), HexColor("#1d5e2e")


def _block(card: Change, width: float, fonts: FontSet) -> list[tuple[str, list[str], list[str]]]:
    """The rows of one card's entry: (field, old lines, new lines)."""
    col = (width - 28 * MM) / 2 - 3 * MM
    rows = []
    for name, old, new in card.fields:
        rows.append(
            (
                name,
                simpleSplit(field_text(old), fonts.name(FONT), SIZE, col) or ["—"],
                simpleSplit(field_text(new), fonts.name(FONT), SIZE, col) or ["—"],
            )
        )
    return rows


def draw_changelog(
    c: Canvas,
    fonts: FontSet,
    changes: Sequence[Change],
    ref: str,
    paper: tuple[float, float],
    duplex: bool,
) -> int:
    """Draw the change-log pages (each followed by a blank back when printing double-sided, so the
    sheets after it keep their fronts and backs paired); returns how many pages were drawn."""
    pw, ph = paper
    width = pw - 2 * MARGIN
    pages = 0
    y = 0.0

    def new_page() -> float:
        nonlocal pages
        if pages:
            c.showPage()
            if duplex:
                c.showPage()
        pages += 1
        c.setFillColor(black)
        c.setFont(fonts.name(BOLD), 12)
        c.drawString(
            MARGIN, ph - MARGIN, f"Changes since {ref}" + (" (continued)" if pages > 1 else "")
        )
        c.setFont(fonts.name(FONT), 8)
        c.setFillColor(GREY)
        printed = sum(1 for ch in changes if ch.status != "removed")
        c.drawString(
            MARGIN,
            ph - MARGIN - 12,
            f"{len(changes)} card{'s' * (len(changes) != 1)} added, changed or "
            f"removed; the {printed} printed on the following sheets replace the copies you have",
        )
        return ph - MARGIN - 30

    y = new_page()
    for card in changes:
        rows = _block(card, width, fonts)
        height = 26 + sum(max(len(o), len(n)) * LEAD + 3 for _, o, n in rows)
        if y - min(height, 60) < MARGIN:
            y = new_page()
        c.setFillColor(black)
        c.setFont(fonts.name(BOLD), 9)
        c.drawString(MARGIN, y, f"{card.name}  ({card.card_id})")
        c.setFont(fonts.name(FONT), 8)
        c.setFillColor({"added": NEW, "removed": OLD}.get(card.status, GREY))
        c.drawRightString(pw - MARGIN, y, card.status)
        col_old, col_new = MARGIN + 28 * MM, MARGIN + 28 * MM + (width - 28 * MM) / 2
        y -= 13
        c.setStrokeColor(HexColor("#cccccc"))
        c.setLineWidth(0.4)
        c.line(MARGIN, y + 9, pw - MARGIN, y + 9)
        c.setFont(fonts.name(FONT), 7)
        c.setFillColor(GREY)
        for column, label, version in (
            (col_old, "before", card.versions[0]),
            (col_new, "now", card.versions[1]),
        ):
            if version:
                c.drawString(column, y, f"{label} (printed {version})")
        y -= LEAD + 1
        for name, old, new in rows:
            if y - max(len(old), len(new)) * LEAD < MARGIN:
                y = new_page()
            c.setFont(fonts.name(BOLD), SIZE)
            c.setFillColor(GREY)
            c.drawString(MARGIN, y, name[:24])
            c.setFont(fonts.name(FONT), SIZE)
            for column, lines, ink in ((col_old, old, OLD), (col_new, new, NEW)):
                if (
                    card.status == "added"
                    and column == col_old
                    or card.status == "removed"
                    and column == col_new
                ):
                    continue
                c.setFillColor(ink)
                for i, line in enumerate(lines):
                    c.drawString(column, y - i * LEAD, line)
            y -= max(len(old), len(new)) * LEAD + 3
        y -= 8
    c.showPage()
    if duplex:
        c.showPage()
    return pages

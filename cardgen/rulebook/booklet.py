"""Turn a PDF into a saddle-stitched booklet: pad to a multiple of 4, then two pages per sheet side in fold order."""
from __future__ import annotations

import io

from pypdf import PageObject, PdfReader, PdfWriter, Transformation

from ..core.options import STANDARD, TABLOID, Paper


def booklet_order(pages: int) -> list[tuple[int | None, int | None]]:
    """Sheet sides (left, right) as 0-based page indices; None is a blank page. Fronts and backs alternate."""
    n = -(-pages // 4) * 4
    sides = []
    for i in range(n // 4):
        sides.append((n - 1 - 2 * i, 2 * i))  # front: last, first
        sides.append((2 * i + 1, n - 2 - 2 * i))  # back: second, second-to-last
    return [(a if a < pages else None, b if b < pages else None) for a, b in sides]


# the sheet a booklet of each page size is printed on (landscape): exactly the paper in the tray
SHEETS: dict[str, Paper] = {"a5": STANDARD["a4"], "a4": STANDARD["a3"], "letter": TABLOID}
SHEET_LABELS = {"a4": "A4", "a3": "A3", "tabloid": "tabloid"}  # as the printed note and the summary say it
FLIP = "print double-sided, flip on the SHORT edge, at 100 %; fold in half and staple"


def sheet_for(paper: Paper | str | None, page: tuple[float, float]) -> tuple[str, tuple[float, float]]:
    """The paper a booklet of these pages goes on: the standard sheet twice the page (A5 pages on A4)."""
    from . import PAGES

    name = paper.name if isinstance(paper, Paper) else paper  # a page's name ('a5') from a library caller
    if name is None:  # from the page size
        mm = (page[0] * 25.4 / 72, page[1] * 25.4 / 72)
        name = next((k for k, (_, size) in PAGES.items() if abs(size[0] - mm[0]) < 1 and abs(size[1] - mm[1]) < 1),
                    None)
    if name in SHEETS:
        sheet = SHEETS[name]
        return SHEET_LABELS[sheet.name], sheet.landscape()
    return ("custom", (2 * page[0], page[1]))


def _note(size: tuple[float, float], text: str) -> PageObject:
    """A one-line overlay for the first sheet: how to print, under the back cover, 5 mm from the edge."""
    from importlib import resources

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    if "cardgen-booklet-Lato" not in pdfmetrics.getRegisteredFontNames():  # embedded, never a base-14 font
        path = resources.files("cardgen") / "data" / "fonts" / "Lato-Regular.ttf"
        pdfmetrics.registerFont(TTFont("cardgen-booklet-Lato", str(path)))
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=size, invariant=1, initialFontName="cardgen-booklet-Lato")
    c.setFont("cardgen-booklet-Lato", 6.5)
    c.setFillGray(0.45)
    c.drawCentredString(size[0] / 4, 5 * 72 / 25.4, text)
    c.save()
    return PdfReader(io.BytesIO(buffer.getvalue())).pages[0]


def impose(pdf: bytes, paper: Paper | str | None = None) -> bytes:
    """Two pages per sheet side, in fold order, each centred on its half of the standard sheet; the first sheet
    says how to print it."""
    reader = PdfReader(io.BytesIO(pdf))
    first = reader.pages[0]
    w, h = float(first.mediabox.width), float(first.mediabox.height)
    _, (sw, sh) = sheet_for(paper, (w, h))
    writer = PdfWriter()
    for n, (left, right) in enumerate(booklet_order(len(reader.pages))):
        sheet = PageObject.create_blank_page(width=sw, height=sh)
        for index, half in ((left, 0.0), (right, sw / 2)):
            if index is not None:
                dx, dy = half + (sw / 2 - w) / 2, (sh - h) / 2
                sheet.merge_transformed_page(reader.pages[index], Transformation().translate(dx, dy))
        if n == 0:
            sheet.merge_page(_note((sw, sh), f"cardgen booklet · {FLIP}"))
        writer.add_page(sheet)
    writer.add_metadata({"/Title": str(reader.metadata.title or "") if reader.metadata else "",
                         "/Creator": "cardgen booklet"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()

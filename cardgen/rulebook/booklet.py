"""Turn a PDF into a saddle-stitched booklet: pad to a multiple of 4, then two pages per sheet side
in fold order."""

from __future__ import annotations

import io

from ..core.options import STANDARD, TABLOID, Paper


def booklet_order(pages: int) -> list[tuple[int | None, int | None]]:
    """Sheet sides (left, right) as 0-based page indices; None is a blank page. Fronts and backs
    alternate."""
    n = -(-pages // 4) * 4
    sides = []
    for i in range(n // 4):
        sides.append((n - 1 - 2 * i, 2 * i))  # front: last, first
        sides.append((2 * i + 1, n - 2 - 2 * i))  # back: second, second-to-last
    return [(a if a < pages else None, b if b < pages else None) for a, b in sides]


# the sheet a booklet of each page size is printed on (landscape): exactly the paper in the tray
SHEETS: dict[str, Paper] = {
    "a5": STANDARD["a4"],
    "half-letter": STANDARD["letter"],
    "a4": STANDARD["a3"],
    "letter": TABLOID,
}
SHEET_LABELS = {
    "a4": "A4",
    "a3": "A3",
    "letter": "Letter",
    "tabloid": "tabloid",
}  # as the printed note and the summary say it
FLIP = "print double-sided, flip on the SHORT edge, at 100 %; fold in half and staple"
# a booklet's margins in mm (book.css mirrors them): the inner one, at the fold, is the wider
MARGINS = {
    "a5": (20.0, 15.0),
    "half-letter": (20.0, 15.0),
    "a4": (23.0, 15.0),
    "letter": (23.0, 15.0),
}


def inside_cover(paper: str) -> dict[str, object]:
    """What the book's template prints inside a booklet's front cover: how to print it (never on
    the outside back cover), and its mirrored margins."""
    inner, outer = MARGINS.get(paper, (20.0, 15.0))
    sheet = SHEET_LABELS[SHEETS[paper].name] if paper in SHEETS else "paper twice the page"
    return {
        "inner": inner,
        "outer": outer,
        "steps": [
            f"Print the booklet file on {sheet} sheets, double-sided, flipping on the short edge, "
            "at 100\u00a0% (no “fit to page”).",
            "Keep the sheets in the order they come out of the printer.",
            "Fold the stack in half, the cover outside, and staple twice along the fold.",
        ],
    }


def sheet_for(
    paper: Paper | str | None, page: tuple[float, float]
) -> tuple[str, tuple[float, float]]:
    """The paper a booklet of these pages goes on: the standard sheet twice the page (A5 pages on
    A4)."""
    from . import PAGES

    name = (
        paper.name if isinstance(paper, Paper) else paper
    )  # a page's name ('a5') from a library caller
    if name is None:  # from the page size
        mm = (page[0] * 25.4 / 72, page[1] * 25.4 / 72)
        name = next(
            (
                k
                for k, (_, size) in PAGES.items()
                if abs(size[0] - mm[0]) < 1 and abs(size[1] - mm[1]) < 1
            ),
            None,
        )
    if name in SHEETS:
        sheet = SHEETS[name]
        return SHEET_LABELS[sheet.name], sheet.landscape()
    return ("custom", (2 * page[0], page[1]))


def impose(pdf: bytes, paper: Paper | str | None = None) -> bytes:
    """Two pages per sheet side, in fold order, each centred on its half of the standard sheet (the
    book itself says how to print it, inside its cover: build_rulebook's `booklet`)."""
    from pypdf import PageObject, PdfReader, PdfWriter, Transformation  # only a booklet needs it

    reader = PdfReader(io.BytesIO(pdf))
    first = reader.pages[0]
    w, h = float(first.mediabox.width), float(first.mediabox.height)
    _, (sw, sh) = sheet_for(paper, (w, h))
    writer = PdfWriter()
    for left, right in booklet_order(len(reader.pages)):
        sheet = PageObject.create_blank_page(width=sw, height=sh)
        for index, half in ((left, 0.0), (right, sw / 2)):
            if index is not None:
                dx, dy = half + (sw / 2 - w) / 2, (sh - h) / 2
                sheet.merge_transformed_page(
                    reader.pages[index], Transformation().translate(dx, dy)
                )
        writer.add_page(sheet)
    writer.add_metadata(
        {
            "/Title": str(reader.metadata.title or "") if reader.metadata else "",
            "/Creator": "cardgen booklet",
        }
    )
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()

"""Rulebook: Markdown chapters + the game model + card faces -> HTML (Jinja2) -> PDF
(WeasyPrint)."""

from ..core.options import HALF_LETTER, STANDARD

# the papers a rulebook may be laid out on, by name: the standard ones and half-letter pages
BOOK_PAPERS = {**STANDARD, HALF_LETTER.name: HALF_LETTER}


def _mm(name: str) -> tuple[float, float]:
    paper = BOOK_PAPERS[name]
    return round(paper.width_pt / 72 * 25.4, 1), round(paper.height_pt / 72 * 25.4, 1)


# the papers a rulebook is laid out on (core.options' own, the one paper table), each as its CSS
# @page size and its width and height in mm
PAGES: dict[str, tuple[str, tuple[float, float]]] = {
    name: (css, _mm(name))
    for name, css in (
        ("a4", "A4"),
        ("letter", "letter"),
        ("a5", "A5"),
        ("universal", "210mm 279.4mm"),  # prints on A4 and on Letter at 100 %
        ("half-letter", "5.5in 8.5in"),
    )
}

# book.css lays chapters out in two columns 6.5 mm apart inside 18 mm side margins (a5 and
# half-letter: one column); a chapter's picture is never wider than its column
SIDE_MARGINS, COLUMN_GAP = 36.0, 6.5
ONE_COLUMN = {"a5", "half-letter"}


def text_column(paper: str) -> float:
    """The width in mm of a chapter's text column on `paper`."""
    block = PAGES[paper][1][0] - SIDE_MARGINS
    return block if paper in ONE_COLUMN else round((block - COLUMN_GAP) / 2, 2)

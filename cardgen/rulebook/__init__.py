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


def contents_break(entries: list[int], paper: str) -> int | None:
    """The entry of the contents that begins its second column (`entries`: each chapter's number of
    sections, in order), as WeasyPrint would balance the columns (each chapter kept whole, in the
    fewest lines), given to it so that it lays them out once; None on a one-column paper. A chapter
    takes two half-lines, each section two more, and a half-line below it (book.css)."""
    if paper in ONE_COLUMN or len(entries) < 2:
        return None
    heights = [2 + 2 * sections + 1 for sections in entries]

    def column(part: list[int]) -> int:
        return sum(part) - 1 if part else 0  # the last entry's half-line below: not in it

    tallest = min(max(column(heights[:k]), column(heights[k:])) for k in range(len(heights) + 1))
    return max(k for k in range(len(heights) + 1) if column(heights[:k]) <= tallest)

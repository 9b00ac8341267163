"""Turn chapter lines of card directives into figures (rows of cards at one scale, rounded to whole
lines of the grid), and a laid-out book into better places for them: a figure WeasyPrint pushed to
the next page, leaving a hole (it takes the text after it along), moves below the next paragraph;
and the cover's cards into a fan at their true relative sizes."""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass, field
from typing import Any

from .anatomy import END
from .directives import DIRECTIVE

HOLE = 0.15  # a page whose content ends this share of its text area above the bottom has a hole
_NEXT_BLOCK = re.compile(r"\s*<(p|ul|ol)\b")


def pushed(pages: list[Any]) -> list[str]:
    """The figures (their data-figure numbers) that begin a page while the page before ends with a
    hole (at the foot of its last column): WeasyPrint moved them, and the text after them, to the
    next page."""
    found = []
    for before, page in zip(pages, pages[1:]):
        box = page._page_box
        top = box.content_box_y()
        area = box.height
        figures = [
            b
            for b in box.descendants()
            if getattr(b, "element", None) is not None
            and b.element.get("data-figure")
            and b.element_tag == "div"
            and b.position_y <= top + 30
        ]
        if not figures:
            continue
        previous = before._page_box
        content = [b for b in previous.children if type(b).__name__ != "MarginBox"]
        lines = [b for root in content for b in root.descendants() if type(b).__name__ == "LineBox"]
        # on a page of two columns, the hole is at the foot of the last one
        middle = previous.content_box_x() + previous.width / 2
        last = [b for b in lines if b.position_x >= middle] or lines
        bottom = max(
            (b.position_y + b.margin_height() for b in last), default=previous.content_box_y()
        )
        if previous.content_box_y() + previous.height - bottom > HOLE * area:
            found += [f.element.get("data-figure") for f in figures]
    return list(dict.fromkeys(found))


def displaced(pages: list[Any]) -> list[str]:
    """The first figure (its data-figure number) of each chapter whose title begins a page while the
    page before ends with a hole: the chapter's start could not fill the columns there without the
    figure, which does not fit, so WeasyPrint moved the whole chapter. Floated and deferred (below
    the paragraph after it), it lets the chapter's text fill the page before it."""
    found = []
    for before, page in zip(pages, pages[1:]):
        box = page._page_box
        top = box.content_box_y()
        boxes = list(box.descendants())
        titles = [
            b
            for b in boxes
            if getattr(b, "element", None) is not None
            and b.element_tag == "h1"
            and b.element.get("id")
            and b.position_y <= top + 30
        ]
        if not titles or not _hole(before._page_box):
            continue
        figures = [
            b.element.get("data-figure")
            for b in boxes
            if getattr(b, "element", None) is not None
            and b.element.get("data-figure")
            and b.element_tag == "div"
        ]
        if figures:
            found.append(figures[0])
    return list(dict.fromkeys(found))


def _hole(page: Any) -> bool:
    """Whether a page's content ends this share of its text area above its bottom, in every
    column."""
    content = [b for b in page.children if type(b).__name__ != "MarginBox"]
    lines = [b for root in content for b in root.descendants() if type(b).__name__ == "LineBox"]
    bottom = max((b.position_y + b.margin_height() for b in lines), default=page.content_box_y())
    return page.content_box_y() + page.height - bottom > HOLE * page.height


def floating(html: str, numbers: list[str]) -> str:
    """The book with every row of these figures (a row's number names its figure) floating
    (book.css: .figure.float)."""
    for number in numbers:
        figure = re.escape(number.split("-")[0])
        html = re.sub(
            rf'<div class="(figure cards|anatomy)" (data-figure="{figure}(?:-\d+)?")',
            r'<div class="\1 float" \2',
            html,
        )
    return html


def stranded_titles(pages: list[Any]) -> list[str]:
    """The chapters (their titles' ids) whose title ends a page with no line of the chapter under
    it: WeasyPrint does not keep a title with the columns that follow it."""
    found = []
    for page in pages:
        box = page._page_box
        content = [b for b in box.children if type(b).__name__ != "MarginBox"]
        boxes = [b for root in content for b in root.descendants()]
        lines = [b for b in boxes if type(b).__name__ == "LineBox"]
        for title in boxes:
            element = getattr(title, "element", None)
            if element is None or title.element_tag != "h1" or not element.get("id"):
                continue
            below = title.position_y + title.margin_height()
            if not any(b.position_y >= below - 0.5 for b in lines):
                found.append(element.get("id"))
    return list(dict.fromkeys(found))


def new_page(html: str, ids: list[str]) -> str:
    """The book with each of these chapters starting a page (book.css: .chapter.new-page)."""
    for cid in ids:
        html = re.sub(
            rf'<section class="chapter">(\s*<h1 id="{re.escape(cid)}">)',
            r'<section class="chapter new-page">\1',
            html,
            count=1,
        )
    return html


def defer(html: str, numbers: list[str]) -> str:
    """The book with each of these figures moved below the paragraph or list that follows it, or,
    at a chapter's end, above the paragraph before it (left where it is next to a box or another
    figure)."""
    for number in numbers:
        opening = rf'<div class="(?:figure|anatomy)[^"]*" data-figure="{re.escape(number)}"'
        m = re.search(opening, html)
        if m is None:
            continue
        end = html.find(END, m.start())
        if end < 0:
            continue
        end += len(END)
        # the rows of one figure go together
        while html[end:].lstrip().startswith('<div class="figure') and html.find(END, end) > 0:
            end = html.find(END, end) + len(END)
        figure = html[m.start() : end]
        nxt = _NEXT_BLOCK.match(html, end)
        if nxt is not None:
            close = html.find(f"</{nxt.group(1)}>", nxt.end())
            if close >= 0:
                close += len(nxt.group(1)) + 3
                html = html[: m.start()] + html[end:close] + figure + html[close:]
            continue
        if not html[end:].lstrip().startswith('<div class="chapter-end"'):
            continue
        # the chapter ends here: the figure goes above the paragraph before it instead
        before = html.rfind("<p", 0, m.start())
        if (
            before >= 0
            and "</p>" in html[before : m.start()]
            and "<div" not in html[before : m.start()]
        ):
            html = html[:before] + figure + html[before : m.start()] + html[end:]
    return html


# -- figures: a line of card directives ---------------------------------------------------------

GRID_PT = 13.0  # the book's leading (book.css): a figure takes whole lines of it
# pt above a figure's cards at least, and below its captions: a poker card's row (the card at
# CARD_SCALE, its caption line) and both still take 13 lines, as the row alone did
AIR_PT, BELOW_PT = 5.0, 1.5
ROW = re.compile(r"\s*(?:\{\{\s*card\s*\(.*?\)\s*\}\}\s*)+")


def card_row(line: str) -> list[re.Match[str]] | None:
    """The card directives of a line that holds nothing else (a row of cards), else None."""
    if not ROW.fullmatch(line):
        return None
    found = list(DIRECTIVE.finditer(line))
    return found if found and all(m.group(1) == "card" for m in found) else None


def card_args(raw: str) -> tuple[str | None, str]:
    """The card a directive's arguments name, when they are a literal, and the side it shows
    (front, second, both)."""
    try:
        args: tuple[Any, ...] = ast.literal_eval(f"({raw},)") if raw.strip() else ()
    except (ValueError, SyntaxError):
        return None, "front"
    side = str(args[1]) if len(args) > 1 else "front"
    return (str(args[0]) if args else None), side


@dataclass
class Figure:
    """One figure: its rows of card figures' HTML and their heights in pt (a card row is its tallest
    card and a caption line)."""

    rows: list[str] = field(default_factory=list)
    heights: list[float] = field(default_factory=list)
    out_index: int = 0  # the chapter line that holds its stand-in
    fragment: int = 0  # its stand-in's number
    number: int = 0  # the book's count of figures: each row is data-figure="NUMBER-ROW"

    def html(self) -> str:
        """The figure: each row a float of its own (WeasyPrint splits a float of several rows
        across pages, over the text), its height rounded up to whole lines of the grid, so the text
        below stays on the grid."""
        last = len(self.rows) - 1
        rows = []
        for n, (row, height) in enumerate(zip(self.rows, self.heights)):
            whole = _lines(height + (AIR_PT + BELOW_PT if n == 0 else 0)) * GRID_PT
            # the first row: air above its cards (they touched the line of text above), half of
            # what rounding to whole lines leaves when that is more, a little kept below
            slack = whole - height
            air = min(slack - BELOW_PT, max(AIR_PT, slack / 2)) if n == 0 else 0.0
            rows.append(
                f'<div class="figure cards" data-figure="{self.number}-{n}" '
                f'style="min-height:{whole - air:.1f}pt'
                f"{f'; padding-top:{air:.1f}pt' if air else ''}"
                # a row keeps with the next of its figure where the column has room for both
                f'{"; break-after: avoid" if n < last else ""}">'
                f'<div class="card-row">{row}</div></div>{END}'
            )
        return "".join(rows)


def rows_that_fit(widths: list[float], column: float) -> list[list[int]]:
    """Cards of these widths (mm) in a line, as rows that fit a text column `column` mm wide (the
    row reaches 2 mm beyond it on either side, and each card takes 2 mm on either side: book.css):
    their indexes, in order, as many in each row as fit. A row that wrapped would be taller than
    its figure says, and could be split over two pages."""
    rows: list[list[int]] = [[]]
    taken = 0.0
    for n, width in enumerate(widths):
        if rows[-1] and taken + width + 4 > column + 4 + 0.01:
            rows.append([])
            taken = 0.0
        rows[-1].append(n)
        taken += width + 4
    return rows


def _lines(height: float) -> int:
    return math.ceil(height / GRID_PT - 0.01)


def joins(figure: Figure | None, out: list[str]) -> bool:
    """Whether a row of cards joins the figure before it: only blank lines stand between them."""
    return figure is not None and all(not line.strip() for line in out[figure.out_index + 1 :])


# the cover's fan (book.css): each card's centre, in vw from the page's centre, by how many cards
FAN_CENTRES = {1: (0.0,), 2: (-11.0, 11.0), 3: (-21.0, 0.0, 21.0)}
# vw: the widest and tallest a cover card may be (a poker card is 24 x 33.5), and the fan's middle
FAN_WIDTH, FAN_HEIGHT, FAN_MIDDLE = 30.0, 33.5, 18.25


def cover_styles(sizes: list[tuple[float, float]]) -> list[str]:
    """Each cover card's inline style, so cards of different sizes keep their true relative size (a
    mini card smaller than a poker card beside it): all at one scale, the largest fitting the fan,
    each centred on the fan's middle line. Cards all of one size need none (book.css sizes them),
    and get ''."""
    if len(set(sizes)) <= 1:
        return [""] * len(sizes)
    scale = min(FAN_WIDTH / max(w for w, _ in sizes), FAN_HEIGHT / max(h for _, h in sizes))
    centres = FAN_CENTRES.get(len(sizes), FAN_CENTRES[3])
    return [
        f"width: {w * scale:.2f}vw; margin-left: {centre - w * scale / 2:.2f}vw; "
        f"top: {FAN_MIDDLE - h * scale / 2:.2f}vw"
        for (w, h), centre in zip(sizes, centres)
    ]

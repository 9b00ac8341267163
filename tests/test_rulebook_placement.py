"""Figures a laid-out book moved: a chapter WeasyPrint moved whole to the next page, for want of
room for its first figure, is found, and floating that figure below the next paragraph brings the
chapter back."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.rulebook import text_column
from cardgen.rulebook.placement import defer, displaced, floating, rows_that_fit

CSS = Path(__file__).resolve().parents[1] / "cardgen/data/templates/rulebook/book.css"
WORDS = "The players take turns drawing cards and spending resources on them. " * 6


def _book(filler: int) -> str:
    first = "".join(f"<p>{WORDS}</p>" for _ in range(filler))
    card = (
        '<div class="figure cards" data-figure="1-0" style="min-height:260pt">'
        '<div class="card-row"><span class="card-figure" style="width:40mm">'
        '<span style="display:block;height:250pt;background:#888"></span></span></div></div>'
        "<!-- /figure -->"
    )
    second = f"<p>{WORDS}</p>{card}<p>{WORDS}</p><p>{WORDS}</p>" + "".join(
        f"<p>{WORDS}</p>" for _ in range(6)
    )
    chapters = "".join(
        f'<section class="chapter"><h1 id="ch{n}">Chapter {n}</h1><div class="chapter-body">'
        f'{body}<div class="chapter-end"></div></div></section>'
        for n, body in ((1, first), (2, second))
    )
    return (
        f"<html><head><style>@page {{ size: A4; }} {CSS.read_text()}</style></head>"
        f'<body class="paper-a4"><div class="chapters">{chapters}</div></body></html>'
    )


def _title_pages(document) -> dict[str, int]:  # type: ignore[no-untyped-def]
    found = {}
    for n, page in enumerate(document.pages, 1):
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            if element is not None and box.element_tag == "h1":
                found.setdefault(element.get("id"), n)
    return found


def test_floating_marks_every_row_of_the_figure_and_no_other() -> None:
    html = (
        '<div class="figure cards" data-figure="3-0"></div>'
        '<div class="figure cards" data-figure="3-1"></div>'
        '<div class="figure cards" data-figure="13-0"></div>'
        '<div class="anatomy" data-figure="4"></div>'
    )
    assert floating(html, ["3-0", "4"]) == (
        '<div class="figure cards float" data-figure="3-0"></div>'
        '<div class="figure cards float" data-figure="3-1"></div>'
        '<div class="figure cards" data-figure="13-0"></div>'
        '<div class="anatomy float" data-figure="4"></div>'
    )


def test_a_chapter_moved_whole_for_its_figure_comes_back_with_the_figure_floated() -> None:
    weasyprint = pytest.importorskip("weasyprint")
    html = _book(filler=6)
    first = weasyprint.HTML(string=html).render()
    assert _title_pages(first)["ch2"] == 2  # a hole at the foot of page 1: the chapter moved
    assert displaced(first.pages) == ["1-0"]
    again = weasyprint.HTML(string=defer(floating(html, ["1-0"]), ["1-0"])).render()
    assert _title_pages(again)["ch2"] == 1
    assert displaced(again.pages) == []


def test_a_line_of_cards_too_wide_for_a_column_is_split_into_rows_that_fit() -> None:
    poker, tarot, square = 63 * 0.62, 70 * 0.62, 63.5 * 0.62  # mm at the book's card scale
    a4, a5 = text_column("a4"), text_column("a5")
    assert rows_that_fit([poker, poker], a4) == [[0, 1]]
    assert rows_that_fit([poker, poker, poker], a4) == [[0, 1], [2]]
    assert rows_that_fit([poker, poker, tarot], a4) == [[0, 1], [2]]
    assert rows_that_fit([tarot, square], a4) == [[0], [1]]
    assert rows_that_fit([tarot, square], a5) == [[0, 1]]  # one wide column
    assert rows_that_fit([200.0, poker], a4) == [[0], [1]]  # wider than a column: a row of its own
    assert rows_that_fit([], a4) == [[]]


def _figure(rows: list[list[float]]) -> str:
    """A figure of card rows as rulebook.placement.Figure writes them (cards 88/63 as tall as
    wide, and a caption line)."""
    out = []
    for n, widths in enumerate(rows):
        height = max(w * 88 / 63 for w in widths) * 72 / 25.4 + 13
        cards = "".join(
            f'<span class="card-figure" style="width:{w:.2f}mm"><span style="display:block;'
            f'height:{w * 88 / 63:.2f}mm;background:#888"></span><span class="caption">x</span>'
            "</span>"
            for w in widths
        )
        out.append(
            f'<div class="figure cards" data-figure="1-{n}" style="min-height:{height:.1f}pt">'
            f'<div class="card-row">{cards}</div></div>'
        )
    return "".join(out)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rows_that_fit_lay_out_as_one_line_each_in_the_books_column(paper: str) -> None:
    """rows_that_fit with the paper's column, against book.css as WeasyPrint lays it out: each row
    a line of its own (as tall as its figure says); the same cards as one row wrap, taller."""
    weasyprint = pytest.importorskip("weasyprint")
    widths = [63 * 0.62, 63 * 0.62, 70 * 0.62]

    def heights(figure: str) -> list[tuple[float, float]]:
        html = (
            f"<html><head><style>@page {{ size: {paper}; }} {CSS.read_text()}</style></head>"
            f'<body class="paper-a4"><section class="chapter"><h1 id="ch1">One</h1>'
            f'<div class="chapter-body">{figure}<p>{WORDS}</p><div class="chapter-end"></div>'
            "</div></section></body></html>"
        )
        page = weasyprint.HTML(string=html).render().pages[0]._page_box
        found = []
        for box in page.descendants():
            element = getattr(box, "element", None)
            if element is not None and element.get("data-figure") and box.element_tag == "div":
                wanted = float(element.get("style").split(":")[1].rstrip("pt"))
                found.append((box.height * 0.75, wanted))  # CSS px to pt
        return found

    rows = rows_that_fit(widths, text_column(paper))
    split = heights(_figure([[widths[n] for n in row] for row in rows]))
    assert len(split) == 2 and all(abs(got - wanted) < 1 for got, wanted in split), split
    whole = heights(_figure([widths]))
    assert len(whole) == 1 and whole[0][0] > whole[0][1] + 50, whole  # wrapped: a second line


def test_cover_cards_of_different_sizes_keep_their_true_relative_size() -> None:
    from cardgen.rulebook.placement import FAN_HEIGHT, FAN_WIDTH, cover_styles

    poker, mini, landscape = (178.6, 249.4), (124.7, 178.6), (249.4, 178.6)
    assert cover_styles([poker, poker, poker]) == ["", "", ""]  # book.css's fan, as before
    styles = cover_styles([poker, landscape, mini])
    widths = [float(s.split("width: ")[1].split("vw")[0]) for s in styles]
    assert widths[0] / widths[2] == pytest.approx(poker[0] / mini[0], rel=0.01)
    assert widths[1] / widths[0] == pytest.approx(landscape[0] / poker[0], rel=0.01)
    assert max(widths) <= FAN_WIDTH
    tallest = max(h for _, h in (poker, landscape, mini)) * widths[0] / poker[0]
    assert tallest <= FAN_HEIGHT + 0.01
    # each card centred on its place in the fan: left, middle, right
    lefts = [float(s.split("margin-left: ")[1].split("vw")[0]) for s in styles]
    centres = [left + width / 2 for left, width in zip(lefts, widths)]
    assert centres == pytest.approx([-21.0, 0.0, 21.0], abs=0.01)

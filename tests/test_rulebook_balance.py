"""Column balancing in a few layouts (rulebook.balance.Search, rulebook.columns): the smallest
height that takes everything, as WeasyPrint's own pixel-by-pixel search finds it, the same pages;
and the contents' second column where WeasyPrint would begin it (rulebook.contents_break)."""

from __future__ import annotations

import math

import pytest

from cardgen.rulebook import contents_break
from cardgen.rulebook.balance import Search


def _search(start: float, most: float, fits_from: float, lost: float = math.inf) -> list[float]:
    """The heights a search tries when everything fits from `fits_from` up."""
    search, height, tried = Search(most), start, []
    while True:
        tried.append(height)
        following = search.next(height, height >= fits_from, lost)
        if following is None:
            assert search.fits is not None
            tried.append(search.fits)
            return tried
        if following == Search.GIVE_UP:
            tried.append(following)
            return tried
        height = following


def test_the_search_finds_the_smallest_height_in_few_layouts() -> None:
    # WeasyPrint's own search: 53 layouts, one per pixel from 104 to 156
    tried = _search(104, 900, 156)
    assert tried == [104, 105, 107, 111, 119, 135, 167, 151, 159, 155, 157, 156, 156]


def test_the_search_steps_by_what_a_column_lost() -> None:
    # the space lost says nothing fits below 288 + 20.7: stepped over, as WeasyPrint does
    assert _search(288, 900, 300, lost=20.7) == [288, 308.7, 308.7]


def test_the_first_height_may_be_the_answer() -> None:
    assert _search(300, 900, 250) == [300, 300]


def test_the_search_gives_up_at_the_page_bottom() -> None:
    assert _search(600, 700, math.inf) == [600, 601, 603, 607, 615, 631, 663, 700, Search.GIVE_UP]


@pytest.mark.parametrize(
    ("sections", "paper", "second"),
    [
        # Power Trip: half-lines 7 5 3 3 3 3 3 3 5 3, the columns 17 and 19 high
        ([2, 1, 0, 0, 0, 0, 0, 0, 1, 0], "a4", 4),
        ([0, 0], "letter", 1),
        ([6, 0, 0], "a4", 1),  # a long chapter alone in the first column
        ([0, 0, 6], "a4", 2),
        ([3], "a4", None),  # one chapter: nothing to break
        ([1, 1, 1, 1], "a5", None),  # one column
        ([1, 1, 1, 1], "half-letter", None),
    ],
)
def test_the_contents_break_where_weasyprint_would_balance(
    sections: list[int], paper: str, second: int | None
) -> None:
    assert contents_break(sections, paper) == second


def test_the_columns_are_laid_out_as_weasyprint_lays_them_out() -> None:
    """A page of two balanced columns (headings kept with their text, boxes never split, a float)
    is the same page with cardgen's search as with WeasyPrint's own."""
    import weasyprint
    from weasyprint.layout import block

    from cardgen.rulebook.columns import COPIED_FROM, use_faster_balancing

    if weasyprint.__version__.split(".")[0] not in COPIED_FROM:
        pytest.skip("this WeasyPrint is not one rulebook.columns copies")
    words = "the quick brown fox jumps over the lazy dog and runs away " * 7
    body = "".join(
        f"<h2>Part {n}</h2><p>{words[: 120 + 37 * n]}</p>"
        + ('<div class="box">a box that is never split across columns</div>' * (n % 3 == 0))
        + ('<div class="fig"></div>' * (n == 4))
        for n in range(9)
    )
    html = (
        "<style>@page { size: A5 } div.c { columns: 2; column-fill: balance; line-height: 13pt }"
        "h2 { break-after: avoid; margin: 6.5pt 0 } .box { break-inside: avoid; height: 60pt;"
        "border: 1pt solid } .fig { float: left; width: 100%; height: 90pt }</style>"
        f"<div class='c'>{body}</div><div class='c'>{body[:900]}</div><p>after</p>"
        # a short text and a tall box: WeasyPrint cannot tell what the box needs (one pixel a try)
        f"<div class='c'><p>{words[:90]}</p><div class='box' style='height: 150pt'></div></div>"
    )

    def lines() -> list[tuple[int, float, float]]:
        pages = weasyprint.HTML(string=html).render().pages
        return [
            (n, round(b.position_x, 2), round(b.position_y, 2))
            for n, page in enumerate(pages)
            for b in page._page_box.descendants()
            if type(b).__name__ in ("LineBox", "BlockBox")
        ]

    own = block.columns_layout
    try:
        from weasyprint.layout.column import columns_layout as weasyprints

        block.columns_layout = weasyprints
        expected = lines()
        use_faster_balancing()
        assert block.columns_layout is not weasyprints
        assert lines() == expected
    finally:
        block.columns_layout = own

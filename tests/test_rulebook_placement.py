"""Figures a laid-out book moved: a chapter WeasyPrint moved whole to the next page, for want of
room for its first figure, is found, and floating that figure below the next paragraph brings the
chapter back."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.rulebook.placement import defer, displaced, floating

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

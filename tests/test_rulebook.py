"""Rulebook: a real book (TOC page numbers, outline, glossary), identical bytes, problems marked not fatal."""
from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from cardgen.rulebook.booklet import booklet_order, impose
from cardgen.rulebook.build import build_rulebook
from cardgen.workspace import Workspace

from .conftest import FIXTURE_WS


@pytest.fixture(scope="module")
def book_ws(tmp_path_factory) -> Workspace:
    """A scratch copy: building a book caches faces under the workspace's output/."""
    import shutil


    root = tmp_path_factory.mktemp("book") / "ws"
    shutil.copytree(FIXTURE_WS, root, symlinks=True, ignore=shutil.ignore_patterns("fonts"))
    return Workspace.find(root)


@pytest.fixture(scope="module")
def clean_book(book_ws):
    return build_rulebook(book_ws, "clean")


def _pages(pdf: bytes) -> list[str]:
    return [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]


def test_toc_page_numbers_point_at_their_headings(clean_book) -> None:
    pages = _pages(clean_book.pdf)
    toc = pages[1]
    entries = re.findall(r"^(Basics|Setup|Turns|Cards|Anatomy|Glossary)[ .]*?(\d+)\s*$", toc, re.M)
    assert [e[0] for e in entries] == ["Basics", "Setup", "Turns", "Cards", "Anatomy", "Glossary"]
    for title, number in entries:
        page = pages[int(number) - 1]
        assert re.search(rf"^{title}\s*$", page, re.M), f"{title} is not on page {number}"


def test_outline_has_one_entry_per_chapter_and_section(clean_book) -> None:
    outline = PdfReader(io.BytesIO(clean_book.pdf)).outline
    titles, children = [], []
    for item in outline:
        if isinstance(item, list):
            children.append([c.title for c in item])
        else:
            titles.append(item.title)
    assert titles == ["Basics", "Cards"] and children == [["Setup", "Turns"], ["Anatomy", "Glossary"]]


def test_glossary_lists_every_keyword_and_symbols_and_components(clean_book) -> None:
    text = "\n".join(_pages(clean_book.pdf))
    assert "Guard" in text and "Attackers must attack this first." in text
    assert "Fire" in text and "Water" in text  # the cost legend names each symbol
    assert "Red cards: 1 common × 2, 1 rare × 1" in text.replace("\n", " ")
    assert "designer" in text.lower() and "second player draw" in text and clean_book.findings == []
    assert 'class="sym"' in clean_book.html and clean_book.html.count('class="card"') >= 3


def test_same_sources_same_bytes(clean_book, book_ws) -> None:
    assert build_rulebook(book_ws, "clean").pdf == clean_book.pdf


def test_problems_are_findings_and_visible_markers(book_ws) -> None:
    book = build_rulebook(book_ws, "broken")
    got = [(f.file, f.line, f.code) for f in book.findings]
    assert got == [
        ("rules/broken/rulebook/index.md", 3, "rulebook-chapter-missing"),
        ("rules/broken/rulebook/one.md", 5, "rulebook-unknown-card"),
        ("rules/broken/rulebook/one.md", 7, "rulebook-unknown-keyword"),
        ("rules/broken/rulebook/one.md", 9, "rulebook-directive"),
        ("rules/broken/rulebook/one.md", 11, "rulebook-image"),
        ("rules/broken/rulebook/one.md", 13, "rulebook-directive"),
    ]
    assert book.findings[1].hint == "did you mean 'Ember Guard'?"
    text = "\n".join(_pages(book.pdf))
    assert "no card named 'Ember Gaurd'" in text and "Missing chapter: gone.md" in text


def test_booklet_order_and_imposition(clean_book) -> None:
    assert booklet_order(8) == [(7, 0), (1, 6), (5, 2), (3, 4)]
    assert booklet_order(6) == [(None, 0), (1, None), (5, 2), (3, 4)]
    imposed = PdfReader(io.BytesIO(impose(clean_book.pdf)))
    source = PdfReader(io.BytesIO(clean_book.pdf))
    assert len(imposed.pages) == 2 * -(-len(source.pages) // 4)
    assert float(imposed.pages[0].mediabox.width) == pytest.approx(2 * float(source.pages[0].mediabox.width))


@pytest.mark.parametrize("game", ["aether-duel", "ivion"])
def test_no_html_entity_reaches_the_printed_book(game: str) -> None:
    """Section titles with smart quotes ('“Happen Once” Effects', 'Don’t Roll the Dice!') used to print
    as '&ldquo;…' in the contents: the text of every page is read back from the PDF."""
    from .conftest import REPO

    book = build_rulebook(Workspace.find(REPO), game)
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(book.pdf)).pages)
    assert re.findall(r"&[a-z]+;|&#\d+;", text) == []

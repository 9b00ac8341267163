"""Rulebook: a real book (TOC page numbers, outline, glossary), identical bytes, problems marked not
fatal."""

from __future__ import annotations

import html
import io
import re

import pytest
from pypdf import PdfReader

from cardgen.core.workspace import Workspace
from cardgen.rulebook.booklet import booklet_order, impose
from cardgen.rulebook.build import build_rulebook

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
    assert titles == ["Basics", "Cards"] and children == [
        ["Setup", "Turns"],
        ["Anatomy", "Glossary"],
    ]


def test_glossary_lists_every_keyword_and_symbols_and_components(clean_book) -> None:
    text = "\n".join(_pages(clean_book.pdf))
    assert "Guard" in text and "Attackers must attack this first." in text
    assert "Fire" in text and "Water" in text  # the cost legend names each symbol
    assert "4 Unit cards: 2 Red, 2 Blue" in text and "1 Spell card: Red" in text  # the print run
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
    assert [round(float(v)) for v in imposed.pages[0].mediabox] == [
        0,
        0,
        1191,
        842,
    ]  # A4 pages: exactly A3
    # the outside of the first sheet is the back and the front cover: no printer's note on it
    assert "flip" not in imposed.pages[0].extract_text().lower()


def test_an_a5_booklet_is_printed_on_exact_a4(tmp_path) -> None:
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.rulebook.booklet import impose

    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(419.53, 595.28))  # CSS A5: 148 x 210 mm
    for n in range(5):
        c.drawString(50, 50, f"page {n + 1}")
        c.showPage()
    c.save()
    imposed = PdfReader(io.BytesIO(impose(buffer.getvalue(), "a5")))
    assert len(imposed.pages) == 4  # 5 pages padded to 8: two sheets, both sides
    assert [round(float(v) * 25.4 / 72) for v in imposed.pages[0].mediabox] == [0, 0, 297, 210]


@pytest.fixture(scope="module")
def bundled_books() -> dict[str, object]:
    from .conftest import REPO

    return {
        game: build_rulebook(Workspace.find(REPO), game)
        for game in ("power-trip", "aether-duel", "ivion")
    }


@pytest.mark.parametrize("game", ["power-trip", "aether-duel", "ivion"])
def test_printed_text_has_no_entity_no_literal_cost_token_and_no_straight_quote_in_prose(
    bundled_books, game
) -> None:
    """Every page's text is read back from the PDF: no '&ldquo;' (titles used to print so in the
    contents), no '[B]' or '{1}' printed as typed (designer's notes and tip boxes used to), and no
    straight quote in prose (code blocks quote the designer's raw card template and are left as
    written)."""
    book = bundled_books[game]
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(book.pdf)).pages)  # type: ignore[attr-defined]
    assert re.findall(r"&[a-z]+;|&#\d+;", text) == []
    assert re.findall(r"\{[A-Za-z0-9/]+\}|\[[A-Za-z]\]", text) == []
    prose = re.sub(r"<pre>.*?</pre>|<code>.*?</code>", "", book.html, flags=re.S)  # type: ignore[attr-defined]
    prose = re.sub(r"<style>.*?</style>|<[^>]+>", " ", prose, flags=re.S)
    prose = re.sub(r"data:[^\s\"]+", "", prose)
    assert [m for m in re.findall(r".{0,20}['\"].{0,20}", html.unescape(prose))] == []


@pytest.mark.parametrize(
    "game,chapter", [("power-trip", "anatomy.md"), ("ivion", "parts-of-a-card.md")]
)
def test_anatomy_numbers_are_the_chapters_own_list(bundled_books, game: str, chapter: str) -> None:
    """One source: the figure's callouts carry the numbers of the chapter's numbered list, every
    item has one, and the figure prints no legend of its own that could disagree with the text."""
    from cardgen.rulebook.anatomy import ordered_list

    from .conftest import REPO

    book = bundled_books[game]
    source = (REPO / "rules" / game / "rulebook" / chapter).read_text()
    items = ordered_list(
        source, source.index("anatomy(") and source[: source.index("anatomy(")].count("\n")
    )
    figure = re.search(r'<div class="anatomy"[^>]*>.*?</svg></div>(.*?)</div>', book.html, re.S)  # type: ignore[attr-defined]
    assert figure is not None and "anatomy-legend" not in figure.group(0)
    numbers = sorted({int(n) for n in re.findall(r"<text [^>]*>(\d+)</text>", figure.group(0))})
    assert numbers == list(range(1, len(items) + 1)) and len(items) in (5, 9)
    assert not [f for f in book.findings if f.code == "rulebook-anatomy"]  # type: ignore[attr-defined]


def test_anatomy_callouts_stay_outside_the_card(bundled_books) -> None:
    """Brackets and numbers stand in the gutters: nothing is drawn over the card's text or icons."""
    from cardgen.rulebook.anatomy import GUTTER

    for book in bundled_books.values():
        for svg in re.findall(r'<svg class="callouts".*?</svg>', book.html, re.S):  # type: ignore[attr-defined]
            width = float(re.search(r'viewBox="0 0 ([\d.]+)', svg).group(1))  # type: ignore[union-attr]
            card = (GUTTER, width - GUTTER)
            xs = [
                float(v)
                for v in re.findall(r"[MHL ]([\d.]+),", svg) + re.findall(r"H([\d.]+)", svg)
            ]
            xs += [float(v) for v in re.findall(r'cx="([\d.]+)"', svg)]
            assert xs and all(x <= card[0] + 0.01 or x >= card[1] - 0.01 for x in xs)


@pytest.mark.parametrize("game", ["power-trip", "aether-duel", "ivion"])
def test_no_page_under_a_third_full_except_chapter_ends_and_the_cover(
    bundled_books, game: str
) -> None:
    """How far down each page its content reaches (rasterised), against the running header that
    names the chapter: a page may be short only when the next page starts another chapter."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(bundled_books[game].pdf)  # type: ignore[attr-defined]
    reader = PdfReader(io.BytesIO(bundled_books[game].pdf))  # type: ignore[attr-defined]

    def running_header(page) -> str:  # the text in the page's top band: the chapter's name
        found: list[str] = []
        top = float(page.mediabox.height) * 0.92
        page.extract_text(
            visitor_text=lambda text, cm, tm, *_: (
                found.append(text) if tm[5] * cm[3] + cm[5] > top else None
            )
        )
        return "".join(found).strip()

    headers = [running_header(page) for page in reader.pages]
    short = []
    for i in range(1, len(pdf) - 1):
        image = pdf[i].render(scale=20 / 72).to_pil().convert("L")
        w, h = image.size
        top, bottom = int(h * 0.08), int(h * 0.9)  # between the running header and the page number
        rows = [y for y in range(top, bottom) if image.crop((0, y, w, y + 1)).getextrema()[0] < 200]
        filled = (rows[-1] - top) / (bottom - top) if rows else 0.0
        if filled < 1 / 3 and headers[i] == headers[i + 1]:
            short.append((i + 1, round(filled, 2), headers[i]))
    assert short == []


BOOK_PAGES = {
    "power-trip": (1, 4, 5),
    "aether-duel": (1, 3, 4),
    "ivion": (1, 3, 7),
}  # cover, figures (anatomy, card rows, symbols), prose in two columns


@pytest.mark.parametrize("game", list(BOOK_PAGES))
def test_three_pages_of_each_book_match_their_goldens(
    bundled_books, regen: bool, game: str
) -> None:
    """The cover, an anatomy or card page and a page of prose with icons, at 40 dpi, reviewed as
    images."""
    import pypdfium2 as pdfium

    from .goldens import check_golden

    pdf = pdfium.PdfDocument(bundled_books[game].pdf)  # type: ignore[attr-defined]
    for number in BOOK_PAGES[game]:
        image = pdf[number - 1].render(scale=40 / 72).to_pil().convert("RGB")
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        check_golden(f"book-{game}-p{number}.png", buffer.getvalue(), regen)


def test_build_reuses_the_rulebook_until_one_of_its_inputs_changes(scratch_ws, monkeypatch) -> None:
    from cardgen.jobs import rulebook as job
    from cardgen.project.studio import open_studio

    built: list[str] = []
    real = job.build_rulebook

    def counting(ws, game, paper, studio=None, wait=True):  # type: ignore[no-untyped-def]
        built.append(game)
        return real(ws, game, paper, studio=studio, wait=wait)

    monkeypatch.setattr(job, "build_rulebook", counting)
    studio = open_studio(scratch_ws, "clean")
    first = job.cached_rulebook(scratch_ws, "clean", "a4", studio)
    again = job.cached_rulebook(scratch_ws, "clean", "a4", studio)
    assert built == ["clean"] and again.pdf == first.pdf and again.findings == first.findings
    chapter = next((scratch_ws.root / "rules" / "clean" / "rulebook").glob("*.md"))
    chapter.write_text(chapter.read_text() + "\nOne more sentence.\n")
    changed = job.cached_rulebook(scratch_ws, "clean", "a4", studio)
    assert built == ["clean", "clean"] and changed.pdf != first.pdf
    assert len(list((scratch_ws.output_dir("clean") / ".cache").glob("rulebook-*"))) == 1


def test_the_same_workspace_in_another_folder_makes_the_same_book(tmp_path) -> None:
    """rulebook.pdf names no folder: face pictures by the digest of their bytes, the workspace's
    own files (fonts, chapter pictures, in Markdown and in raw HTML) from a stand-in folder, where
    WeasyPrint would name each picture after its URL. The book's HTML names those files by their
    real URLs (so a browser finds them) and differs in that alone."""
    import shutil

    from PIL import Image

    from cardgen.render.fonts import BUNDLED

    books = []
    for where in ("one", "two/deeper"):
        root = tmp_path / where / "ws"
        shutil.copytree(FIXTURE_WS, root, symlinks=True, ignore=shutil.ignore_patterns("fonts"))
        (root / "fonts").mkdir()
        shutil.copy(BUNDLED / "Lato-Regular.ttf", root / "fonts" / "Lato-Regular.ttf")
        chapter = root / "rules" / "clean" / "rulebook" / "basics.md"
        Image.new("RGB", (40, 30), (200, 10, 10)).save(chapter.parent / "red.png")
        Image.new("RGB", (40, 30), (10, 10, 200)).save(chapter.parent / "blue.png")
        chapter.write_text(chapter.read_text() + '\n![red](red.png)\n\n<img src="blue.png">\n')
        books.append((root, build_rulebook(Workspace.find(root), "clean")))
    (one, first), (two, second) = books
    assert [f.format() for f in first.findings] == [f.format() for f in second.findings]
    assert first.pdf == second.pdf
    assert first.html != second.html
    assert first.html.replace(one.resolve().as_uri(), "") == second.html.replace(
        two.resolve().as_uri(), ""
    )
    images = [
        name
        for page in PdfReader(io.BytesIO(first.pdf)).pages
        for name in (page["/Resources"].get("/XObject") or {})
    ]
    assert len(set(images)) >= 3  # the faces and both pictures are in it


def test_chapter_pictures_print_at_their_own_resolution_within_the_column(tmp_path) -> None:
    """A 300 dpi picture 600 px wide prints 50.8 mm wide (not 600 / 96 in); one 1500 px wide at
    300 dpi (127 mm) is wider than A4's 83.75 mm text column: a warning at its line, and printed at
    the column's width; on A5 (one 112 mm column) too. A picture without a resolution is read at
    96 dpi, as CSS does."""
    import shutil

    from PIL import Image

    root = tmp_path / "ws"
    shutil.copytree(FIXTURE_WS, root, symlinks=True, ignore=shutil.ignore_patterns("fonts"))
    chapter = root / "rules" / "clean" / "rulebook" / "basics.md"
    Image.new("RGB", (600, 300), (200, 10, 10)).save(chapter.parent / "fine.png", dpi=(300, 300))
    Image.new("RGB", (1500, 300), (10, 10, 200)).save(chapter.parent / "wide.png", dpi=(300, 300))
    Image.new("RGB", (96, 30), (10, 150, 10)).save(chapter.parent / "plain.png")
    before = chapter.read_text()
    line = before.count("\n") + 4  # the line of ![wide](wide.png)
    chapter.write_text(before + "\n![fine](fine.png)\n\n![wide](wide.png)\n\n![plain](plain.png)\n")
    where = "rules/clean/rulebook/basics.md"
    for paper, column in (("a4", 83.75), ("a5", 112.0)):
        book = build_rulebook(Workspace.find(root), "clean", paper=paper)
        wide = [f for f in book.findings if f.code == "rulebook-image-too-wide"]
        assert [(f.file, f.line, str(f.severity), f.message) for f in wide] == [
            (
                where,
                line,
                "warning",
                "image 'wide.png' is 127.0 mm wide at its own resolution; the text column is "
                f"{column:.1f} mm: it is printed scaled down to the column",
            )
        ]
        widths = re.findall(r'alt="(\w+)" style="display: block; width: ([\d.]+)mm"', book.html)
        assert widths == [("fine", "50.80"), ("wide", f"{column:.2f}"), ("plain", "25.40")]

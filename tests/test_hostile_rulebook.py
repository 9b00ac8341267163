"""Hostile rulebook chapters: raw HTML with scripts is cleaned (each removal a located finding, none
of it runs in Chromium, the PDF and the HTML book both clean, the bundled books unchanged), deep,
long and slow Markdown is cut at a located limit (never exit 3 or an unbounded run), and a byte that
is not UTF-8 is located."""

from __future__ import annotations

import html
import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardgen.core.workspace import Workspace
from cardgen.project.studio import open_studio
from cardgen.rulebook import limits
from cardgen.rulebook.build import build_rulebook
from cardgen.rulebook.lint import rulebook_findings

from .conftest import FIXTURE_WS, REPO, TESTS

GAME = "clean"
PLANTED = TESTS / "fixtures" / "hostile_rulebook"
FRONT = b"---\ntitle: Hostile\n---\n"  # a chapter's body starts on line 4
CODES = ("rulebook-active-content", "rulebook-html-unsupported")


def make_book(root: Path, chapters: dict[str, bytes], index: bytes | None = None) -> Workspace:
    """The fixture workspace copied to `root`, its game's rulebook made of `chapters` (in order)."""
    shutil.copytree(FIXTURE_WS, root, symlinks=True, ignore=shutil.ignore_patterns("fonts"))
    folder = root / "rules" / GAME / "rulebook"
    for old in folder.glob("*.md"):
        old.unlink()
    listed = ", ".join(chapters).encode()
    (folder / "index.md").write_bytes(
        index or b"---\ntitle: Hostile\nchapters: [" + listed + b"]\n---\n\nThe intro.\n"
    )
    for name, text in chapters.items():
        (folder / name).write_bytes(text)
    return Workspace.find(root)


def where(findings, *codes: str) -> list[tuple[str, str, int]]:  # type: ignore[no-untyped-def]
    return sorted((f.code, f.file, f.line) for f in findings if not codes or f.code in codes)


# --- no active content
# --------------------------------------------------------------------------------------

SCRIPTS = "rules/clean/rulebook/scripts.md"
MIXED = "rules/clean/rulebook/mixed.md"
EXPECTED = sorted(
    [
        ("rulebook-active-content", SCRIPTS, line)
        for line in (7, 9, 11, 13, 15, 17, 19, 21, 23, 23, 25, 27, 29, 31, 33, 45, 47)
    ]
    + [
        ("rulebook-html-unsupported", SCRIPTS, 35),
        ("rulebook-html-unsupported", SCRIPTS, 35),
        ("rulebook-active-content", MIXED, 5),
        ("rulebook-active-content", MIXED, 9),
    ]
)


@pytest.fixture(scope="module")
def planted(tmp_path_factory):  # type: ignore[no-untyped-def]
    """The planted chapters' book, built and written (output/clean/rulebook.pdf and .html)."""
    from cardgen.jobs.rulebook import run_rulebook

    ws = make_book(
        tmp_path_factory.mktemp("planted") / "ws",
        {name: (PLANTED / name).read_bytes() for name in ("scripts.md", "mixed.md")},
    )
    result = run_rulebook(ws, GAME, html=True)
    return ws, result.findings


def test_each_removal_is_a_finding_at_the_chapter_line_that_wrote_it(planted) -> None:  # type: ignore[no-untyped-def]
    ws, findings = planted
    assert where(findings, *CODES) == EXPECTED
    by_line = {(f.line, f.column): f for f in findings if f.file == SCRIPTS}
    assert by_line[(7, 1)].message.startswith("<script> removed from the book")
    assert by_line[(9, 33)].message == "onerror= removed from <img>: an event handler is a script"
    assert by_line[(13, 19)].message.startswith(
        "javascript: address removed from <a href>"
    )  # a Markdown link
    assert by_line[(15, 13)].message.startswith(
        "javascript: address removed"
    )  # 'jav&#x09;ascript:'
    assert (
        by_line[(31, 26)].message == "onclick= removed from <h2>: an event handler is a script"
    )  # {: onclick=…}
    assert by_line[(45, 1)].message.startswith("<body onload=…> removed")
    assert {str(f.severity) for f in findings if f.code == "rulebook-active-content"} == {"error"}
    assert {str(f.severity) for f in findings if f.code == "rulebook-html-unsupported"} == {
        "warning"
    }


def test_validate_finds_what_the_build_finds(planted) -> None:  # type: ignore[no-untyped-def]
    ws, findings = planted
    assert where(rulebook_findings(open_studio(ws, GAME)), *CODES) == EXPECTED


def test_the_html_book_and_the_pdf_carry_no_active_content(planted) -> None:  # type: ignore[no-untyped-def]
    from tinyhtml5 import parse

    ws, _ = planted
    book = (ws.output_dir(GAME) / "rulebook.html").read_text()
    document = parse(book, namespace_html_elements=False)
    tags = [el.tag for el in document.iter() if isinstance(el.tag, str)]
    assert [
        t
        for t in tags
        if t
        in ("script", "iframe", "object", "embed", "form", "button", "svg", "math", "base", "link")
    ] == []
    # the book template's own, and the content security policy cardgen adds
    # (sanitise.without_scripts)
    assert (
        tags.count("style") == 1 and tags.count("meta") == 3 and "Content-Security-Policy" in book
    )
    attributes = [(el.tag, k, v) for el in document.iter() for k, v in el.attrib.items()]
    assert [a for a in attributes if str(a[1]).lower().startswith("on")] == []
    assert [a for a in attributes if "script:" in str(a[2]).lower()] == []
    assert "window.pwned" not in book  # not even as text: each went with its element or attribute
    pdf = (ws.output_dir(GAME) / "rulebook.pdf").read_bytes()
    reader = PdfReader(io.BytesIO(pdf))
    uris = [
        annot.get_object()["/A"].get("/URI")
        for page in reader.pages
        for annot in page.get("/Annots", [])
        if "/A" in annot.get_object()
    ]
    assert [u for u in uris if u is not None] == ["https://example.com/rules"]
    catalog = dict(reader.trailer["/Root"].get_object())  # type: ignore[attr-defined,call-overload]
    assert "/OpenAction" not in catalog and "/JavaScript" not in str(catalog.get("/Names", {}))


def test_what_the_designer_may_write_is_kept(planted) -> None:  # type: ignore[no-untyped-def]
    ws, _ = planted
    book = html.unescape((ws.output_dir(GAME) / "rulebook.html").read_text())
    for kept in (
        '<span class="note">a span</span>',
        '<abbr title="hit points">HP</abbr>',
        "<kbd>Tab</kbd>",
        '<a href="https://example.com/rules">link</a>',
        '<a href="#ch1">jump</a>',
        '<details open=""><summary>More</summary>Details stay.</details>',
        "A heading</h2>",
        '<th style="text-align: left;">Left</th>',
        '<td style="text-align: right;">1</td>',
        "<p>old markup and <span>a styled span</span>.</p>",
        "<b>paragraph</b> of raw HTML.</p>",
        "A forged stand-in names no HTML of cardgen’s.",
    ):
        assert kept in book, kept
    mixed = book[book.index('<h1 id="ch2">') :]
    assert (
        '<span class="card-figure" style="width:39.06mm"><img class="card" '
        'src="data:image/png;base64,' in mixed
    )  # cardgen's own
    assert (
        'class="sym"' in mixed and '<dl class="glossary">' in mixed and "data-cardgen" not in book
    )


CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_no_planted_script_runs_in_chromium(planted, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The HTML book opened in headless Chromium, its links and buttons clicked: nothing a chapter
    planted runs. The same chapters as plain Markdown (no sanitiser) run in the same browser, so the
    probe can see a script."""
    import markdown

    playwright = pytest.importorskip("playwright.sync_api")

    ws, _ = planted
    source = "\n".join(
        (PLANTED / name).read_text().split("---\n", 2)[2] for name in ("scripts.md", "mixed.md")
    )
    control = tmp_path / "control.html"
    control.write_text(
        "<!DOCTYPE html><html><head><title>Hostile</title></head><body>"
        + markdown.markdown(source, extensions=["attr_list", "tables"])
        + "</body></html>"
    )

    def probe(url: str) -> tuple[str, object]:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            try:
                page = browser.new_page()
                page.goto(url)
                page.wait_for_timeout(300)
                for target in ("#js", "#tab", "text=a Markdown link", "#go", "text=A heading"):
                    if page.locator(target).count():
                        page.locator(target).first.click(timeout=2000, no_wait_after=True)
                page.wait_for_timeout(300)
                return page.title(), page.evaluate(
                    "window.pwned === undefined ? null : window.pwned"
                )
            finally:
                browser.close()

    title, ran = probe(control.as_uri())
    assert isinstance(ran, list) and {"script", "onerror", "javascript-link"} <= set(ran)
    assert probe((ws.output_dir(GAME) / "rulebook.html").as_uri()) == ("Hostile", None)


@pytest.fixture(scope="module")
def bundled_copy(tmp_path_factory) -> Workspace:
    root = tmp_path_factory.mktemp("bundled") / "ws"
    for folder in ("rules", "cards", "templates", "decks"):
        shutil.copytree(REPO / folder, root / folder)
    return Workspace.find(root)


@pytest.mark.parametrize("game", ["power-trip", "aether-duel", "ivion"])
def test_the_bundled_books_are_the_same_with_the_sanitiser(
    bundled_copy, monkeypatch, game: str
) -> None:
    """The bundled rulebooks hold no active content: cleaned, the same PDF bytes and the same HTML
    (but for how its characters are spelled, &rsquo; or ’) as without the sanitiser, and no
    finding."""
    from cardgen.rulebook import content

    clean = content.clean
    monkeypatch.setattr(content, "clean", lambda text, file, line, source: (text, []))
    plain = build_rulebook(bundled_copy, game)
    monkeypatch.setattr(content, "clean", clean)
    cleaned = build_rulebook(bundled_copy, game)
    assert cleaned.findings == [] and cleaned.pdf == plain.pdf
    assert cleaned.html != plain.html and html.unescape(cleaned.html) == html.unescape(plain.html)


# --- limits
# --------------------------------------------------------------------------------------------------

DEEP = {
    "quotes.md": FRONT + b">" * 5000 + b" deep\n",
    "steps.md": FRONT + b"".join(b"> " * i + b"q\n" for i in range(1, 5001)),
    "list.md": FRONT + b"".join(b"    " * i + b"- item\n" for i in range(800)),
    "divs.md": FRONT
    + b"Before.\n\n"
    + (b"<div>" * 100 + b"\n") * 50
    + b"x"
    + (b"</div>" * 100 + b"\n") * 50,
}
BIG = {
    "table.md": FRONT
    + b"| a | b |\n|---|---|\n"
    + b"".join(b"| %d | x |\n" % i for i in range(20000)),
    "paragraphs.md": FRONT
    + b"".join(b"Paragraph %d with some words.\n\n" % i for i in range(5000)),
    "brackets.md": FRONT
    + b"Fine.\n\n"
    + (b"[" * 60 + b"\n") * 200,  # 12,000 '[' in a paragraph took 20 s
    "tags.md": FRONT
    + b"Fine.\n\n"
    + b"<x " * 3300
    + b"\n"
    + (b"words " * 11 + b"\n") * 2600,  # '<x' read to the end
    "emphasis.md": FRONT
    + (b"*a " * 20 + b"\n") * 100
    + b"b"
    + (b" c*" * 20 + b"\n") * 100,  # recursed at 990
}


@pytest.mark.parametrize(
    "name,code,line,later",
    [
        ("quotes.md", "rulebook-too-deep", 4, True),
        ("steps.md", "rulebook-too-deep", 4 + limits.NESTING, True),
        ("list.md", "rulebook-too-deep", 4 + limits.NESTING, True),
        ("divs.md", "rulebook-too-deep", 6, True),
        ("table.md", "rulebook-table-too-big", 6 + limits.TABLE_ROWS, True),
        ("paragraphs.md", "rulebook-too-long", 4 + limits.CHAPTER_LINES, True),
        ("brackets.md", "rulebook-too-deep", 6, True),
        (
            "tags.md",
            "rulebook-too-slow",
            6,
            False,
        ),  # the work is the book's: what follows is left out too
        ("emphasis.md", "rulebook-too-deep", 4, True),
    ],
)
def test_a_chapter_past_a_limit_is_cut_at_a_located_finding(
    tmp_path, name: str, code: str, line: int, later: bool
) -> None:
    ws = make_book(
        tmp_path / "ws", {name: {**DEEP, **BIG}[name], "after.md": FRONT + b"The next chapter.\n"}
    )
    book = build_rulebook(ws, GAME)
    assert where(book.findings) == [(code, f"rules/clean/rulebook/{name}", line)]
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(book.pdf)).pages)
    assert "The rest of this chapter is left out" in text and ("The next chapter." in text) == later
    assert (
        book.pages < 100
    )  # bounded work: the 20,000-row table and the 5,000 paragraphs were 592 and 176 pages


def test_deep_chapters_exit_1_from_the_command_line(tmp_path) -> None:
    """What was a RecursionError (exit 3) is a finding (exit 1); a generous timeout guards against a
    hang."""
    ws = make_book(tmp_path / "ws", DEEP)
    done = subprocess.run(
        [sys.executable, "-m", "cardgen", "--root", str(ws.root), "rulebook", GAME],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr
    out = done.stdout + done.stderr
    assert "internal error" not in out and out.count("error[rulebook-too-deep]") == 4


def test_at_the_limits_the_book_is_built_whole(tmp_path) -> None:
    """The deepest nesting allowed, with the deepest raw HTML allowed inside it, lays out
    (WeasyPrint recurses once per level) and loses nothing."""
    lines = [b"    " * i + b"- level %d" % i for i in range(limits.NESTING - 1)]
    inner = b"<span>" * limits.HTML_DEPTH + b"innermost" + b"</span>" * limits.HTML_DEPTH
    lines.append(b"    " * (limits.NESTING - 1) + b"- " + inner)
    quotes = b"> " * limits.NESTING + b"quoted\n"
    tables = (
        b"<table><tr><td>" * (limits.HTML_DEPTH // 3)
        + b"cell"
        + b"</td></tr></table>" * (limits.HTML_DEPTH // 3)
    )
    ws = make_book(
        tmp_path / "ws",
        {"deep.md": FRONT + b"\n".join(lines) + b"\n\n" + quotes + b"\n" + tables + b"\n"},
    )
    book = build_rulebook(ws, GAME)
    assert book.findings == []
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(book.pdf)).pages)
    assert "innermost" in text and "quoted" in text and "cell" in text


def test_whatever_the_estimates_miss_the_finished_html_is_cut_before_weasyprint_recurses(
    tmp_path, monkeypatch
) -> None:
    """The limits on the Markdown are estimates; the finished chapter's depth is checked exactly as
    well (here with the raw HTML limit lifted, so 150 nested list items reach it)."""
    monkeypatch.setattr(limits, "HTML_DEPTH", 10_000)
    nested = b"<ul><li>" * 150 + b"bottom" + b"</li></ul>" * 150
    ws = make_book(
        tmp_path / "ws",
        {"nested.md": FRONT + b"Top.\n\n" + nested + b"\n", "after.md": FRONT + b"After.\n"},
    )
    book = build_rulebook(ws, GAME)
    assert where(book.findings) == [("rulebook-too-deep", "rules/clean/rulebook/nested.md", 4)]
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(book.pdf)).pages)
    assert "Top." in text and "After." in text and "bottom" not in text and "left out" in text


def test_a_short_chapter_is_never_read_as_a_file_name(tmp_path) -> None:
    """tinyhtml5 opens a string under 200 characters that names a file; the sanitiser hands it a
    stream (this one, '<p>ééé…</p>', was an OSError: a file name too long)."""
    ws = make_book(tmp_path / "ws", {"short.md": FRONT + "é".encode() * 150 + b"\n"})
    assert rulebook_findings(open_studio(ws, GAME)) == []


def test_a_chapter_of_many_removals_reports_the_first_ones_and_counts_the_rest(tmp_path) -> None:
    ws = make_book(tmp_path / "ws", {"many.md": FRONT + b"<script>x()</script>\n\n" * 60})
    found = where(rulebook_findings(open_studio(ws, GAME)))
    assert found == sorted(
        [("rulebook-active-content", "rules/clean/rulebook/many.md", 4 + 2 * n) for n in range(50)]
        + [("rulebook-active-content", "rules/clean/rulebook/many.md", 4 + 2 * 49)]
    )


def test_the_books_elements_are_bounded(tmp_path) -> None:
    """Symbols are the costliest thing to lay out: past the book's element limit the rest is left
    out, at a located finding (found by validate without typesetting)."""
    ws = make_book(tmp_path / "ws", {"symbols.md": FRONT + (b"[R]" * 16 + b"\n\n") * 1999})
    per_line = 2 * 16 + 1  # sixteen icons (a disc and its letter each) and the line's paragraph
    assert where(rulebook_findings(open_studio(ws, GAME))) == [
        (
            "rulebook-too-long",
            "rules/clean/rulebook/symbols.md",
            4 + 2 * (limits.ELEMENTS // per_line),
        )
    ]


def test_the_whole_book_is_bounded_too(tmp_path) -> None:
    """Chapters each within their limits, together past the book's: later chapters are left out,
    once."""
    chapter = FRONT + b"Words in a line.\n\n" * 1999  # 3,999 lines of body (the last one empty)
    ws = make_book(tmp_path / "ws", {f"c{n}.md": chapter for n in range(7)})
    left = (
        limits.BOOK_LINES - 2 - 5 * 3999
    )  # after the introduction's two lines and five whole chapters
    assert where(rulebook_findings(open_studio(ws, GAME))) == [
        ("rulebook-too-long", "rules/clean/rulebook/c5.md", 4 + left)
    ]


def test_a_book_of_too_many_chapters_prints_the_first_ones(tmp_path) -> None:
    names = b", ".join(b"c%d.md" % n for n in range(limits.CHAPTERS + 100))
    ws = make_book(
        tmp_path / "ws",
        {},
        index=b"---\ntitle: Hostile\nchapters: [" + names + b"]\n---\n\nIntro.\n",
    )
    found = where(rulebook_findings(open_studio(ws, GAME)))
    assert found.count(("rulebook-too-long", "rules/clean/rulebook/index.md", 3)) == 1
    assert (
        found.count(("rulebook-chapter-missing", "rules/clean/rulebook/index.md", 3))
        == limits.CHAPTERS
    )
    assert len(found) == limits.CHAPTERS + 1


# --- encoding
# ------------------------------------------------------------------------------------------------


def test_a_latin1_byte_is_located_and_the_rest_of_the_book_built(tmp_path) -> None:
    ws = make_book(
        tmp_path / "ws",
        {
            "one.md": FRONT + b"First line.\nCaf\xe9 au lait.\nLast line.\n",
            "two.md": FRONT + b"The second chapter.\n",
        },
    )
    book = build_rulebook(ws, GAME)
    assert [(f.code, f.file, f.line, f.column) for f in book.findings] == [
        ("not-utf8", "rules/clean/rulebook/one.md", 5, 4)
    ]
    assert book.findings[0].message == "byte 0xe9 is not UTF-8; the book prints \ufffd in its place"
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(book.pdf)).pages)
    assert "au lait." in text and "Last line." in text and "The second chapter." in text


def test_a_latin1_index_names_its_file_and_is_exit_1(tmp_path) -> None:
    index = b"---\ntitle: Hostile\nchapters: [one.md]\n---\n\nThe caf\xe9 intro.\n"
    ws = make_book(tmp_path / "ws", {"one.md": FRONT + b"One.\n"}, index=index)
    done = subprocess.run(
        [sys.executable, "-m", "cardgen", "--root", str(ws.root), "rulebook", GAME],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr
    assert (
        "rules/clean/rulebook/index.md:6:8: error[not-utf8] byte 0xe9 is not UTF-8"
        in done.stdout + done.stderr
    )


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Chromium at /usr/bin/chromium")
def test_a_workspaces_own_book_template_runs_no_script_either(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """book.html.j2 is the workspace's own page, not a chapter, so it is not sanitised: the HTML
    book carries a content security policy instead, and a script the template holds does not run in
    Chromium."""
    from cardgen.jobs.rulebook import run_rulebook

    playwright = pytest.importorskip("playwright.sync_api")
    ws = make_book(tmp_path / "ws", {"a.md": b"---\ntitle: A\n---\n\nRules.\n"})
    bundled = REPO / "cardgen" / "data" / "templates" / "rulebook" / "book.html.j2"
    own = ws.templates_dir(GAME) / "rulebook" / "book.html.j2"
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_text(
        bundled.read_text().replace(
            "</body>",
            "<script>window.pwned = 'template'</script>"
            "<img src=x onerror=\"window.pwned = 'onerror'\"></body>",
        )
    )
    run_rulebook(ws, GAME, html=True)
    html = (ws.output_dir(GAME) / "rulebook.html").read_text()
    assert (
        "window.pwned = 'template'" in html
        and "Content-Security-Policy" in html.split("<body", 1)[0]
    )
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto((ws.output_dir(GAME) / "rulebook.html").as_uri())
            page.wait_for_timeout(300)
            assert page.evaluate("window.pwned === undefined ? null : window.pwned") is None
            assert page.evaluate("document.compatMode") == "CSS1Compat"  # still standards mode
        finally:
            browser.close()

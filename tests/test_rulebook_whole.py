"""Rulebook chapters tell the whole truth: symbols the game lacks, broken directive braces, unknown
boxes, chapters listed twice or without '.md', and pictures that cannot be shown, each at the
chapter's line."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.core.workspace import Workspace
from cardgen.project.studio import open_studio
from cardgen.rulebook.lint import rulebook_findings

BOOK = Path("rules/clean/rulebook")


def _edit(ws: Workspace, name: str, old: str, new: str) -> None:
    path = ws.root / BOOK / name
    text = path.read_text()
    assert old in text, (name, old)
    path.write_text(text.replace(old, new, 1))


def _found(ws: Workspace) -> list[tuple[str, int, int, str]]:
    return [(f.file, f.line, f.column, f.code) for f in rulebook_findings(open_studio(ws, "clean"))]


def test_the_fixture_book_has_no_findings(scratch_ws: Workspace) -> None:
    assert _found(scratch_ws) == []


def test_symbols_the_game_does_not_have(scratch_ws: Workspace) -> None:
    _edit(scratch_ws, "basics.md", "Pay [R] or [U]", "Pay [W] or {R/W} or {R/U} or [r] or {2}")
    findings = rulebook_findings(open_studio(scratch_ws, "clean"))
    assert [(f.file, f.line, f.column, f.code) for f in findings] == [
        (f"{BOOK}/basics.md", 5, 5, "rulebook-unknown-symbol"),
        (f"{BOOK}/basics.md", 5, 12, "rulebook-unknown-symbol"),
    ]
    assert findings[0].message == "'[W]' is no symbol of Clean Test Game; it prints as written"
    assert findings[0].hint == "its symbols: R, U"


def test_symbols_in_code_and_links_are_left_alone(scratch_ws: Workspace) -> None:
    _edit(
        scratch_ws,
        "basics.md",
        "## Setup",
        "    [W] in a code block\n\n```\n{W}\n```\n\nSee [A](#setup) and [B][1].\n\n"
        "[1]: #setup\n\n## Setup",
    )
    assert _found(scratch_ws) == []


@pytest.mark.parametrize(
    "written,column",
    [("{{ cost_legend() }", 1), ("{ cost_legend() }}", 1), ("see {% if x %}", 5)],
)
def test_broken_directive_braces(scratch_ws: Workspace, written: str, column: int) -> None:
    _edit(scratch_ws, "basics.md", "{{ cost_legend() }}", written)
    findings = rulebook_findings(open_studio(scratch_ws, "clean"))
    assert [(f.file, f.line, f.column, f.code) for f in findings] == [
        (f"{BOOK}/basics.md", 14, column, "rulebook-template")
    ]
    assert findings[0].hint == "a directive is written {{ name(…) }}, e.g. {{ cost_legend() }}"


def test_an_unknown_box(scratch_ws: Workspace) -> None:
    _edit(scratch_ws, "basics.md", '!!! designer "Open question"', '!!! tipp "Open question"')
    findings = rulebook_findings(open_studio(scratch_ws, "clean"))
    assert [(f.file, f.line, f.column, f.code) for f in findings] == [
        (f"{BOOK}/basics.md", 16, 5, "rulebook-unknown-admonition")
    ]
    assert findings[0].message == "unknown box '!!! tipp'; it prints as a plain box"
    assert findings[0].hint == "did you mean 'tip'?"


def test_a_box_styled_by_the_games_own_style_sheet_is_known(scratch_ws: Workspace) -> None:
    _edit(scratch_ws, "basics.md", '!!! designer "Open question"', '!!! rule "Open question"')
    assert [c for *_, c in _found(scratch_ws)] == ["rulebook-unknown-admonition"]
    css = scratch_ws.templates_dir("clean") / "rulebook" / "book.css"
    css.parent.mkdir(parents=True, exist_ok=True)
    css.write_text(
        (Path(__file__).parents[1] / "cardgen/data/templates/rulebook/book.css").read_text()
        + "\n.admonition.rule { border-left-color: #333; }\n"
    )
    assert _found(scratch_ws) == []


def test_a_chapter_listed_twice_is_printed_once(scratch_ws: Workspace) -> None:
    _edit(
        scratch_ws,
        "index.md",
        "chapters: [basics.md, cards.md]",
        "chapters:\n  - basics.md\n  - cards.md\n  - basics.md",
    )
    findings = rulebook_findings(open_studio(scratch_ws, "clean"))
    assert [(f.file, f.line, f.column, f.code) for f in findings] == [
        (f"{BOOK}/index.md", 8, 1, "rulebook-chapter-twice")
    ]
    assert findings[0].message == (
        "chapter 'basics.md' is listed twice (first at line 6); the book prints it once"
    )
    from cardgen.rulebook.source import read_book

    book, _ = read_book(scratch_ws, "clean", "Clean")
    assert [c.file for c in book.chapters] == [f"{BOOK}/basics.md", f"{BOOK}/cards.md"]


@pytest.mark.parametrize(
    "listed,hint",
    [
        ("cards", "the file is 'cards.md': write it with '.md'"),
        ("basic.md", "did you mean 'basics.md'?"),
        ("notes.md", "the file is 'notes': write it without '.md'"),
    ],
)
def test_a_missing_chapter_says_how_it_is_probably_meant(
    scratch_ws: Workspace, listed: str, hint: str
) -> None:
    (scratch_ws.root / BOOK / "notes").write_text("---\ntitle: Notes\n---\nSome notes.\n")
    _edit(scratch_ws, "index.md", "chapters: [basics.md, cards.md]", f"chapters: [{listed}]")
    findings = rulebook_findings(open_studio(scratch_ws, "clean"))
    assert [(f.file, f.line, f.code) for f in findings] == [
        (f"{BOOK}/index.md", 5, "rulebook-chapter-missing")
    ]
    assert findings[0].hint == hint


def test_a_picture_that_is_no_picture_is_found_at_its_chapter_line(scratch_ws: Workspace) -> None:
    (scratch_ws.root / BOOK / "map.png").write_text("not a picture")
    _edit(scratch_ws, "basics.md", "## Setup", "![the map](map.png)\n\n## Setup")
    findings = rulebook_findings(open_studio(scratch_ws, "clean"))
    assert [(f.file, f.line, f.column, f.code) for f in findings] == [
        (f"{BOOK}/basics.md", 7, 1, "image-unreadable")
    ]
    assert findings[0].message.startswith("image 'map.png' is not a picture cardgen can read")


def test_a_missing_picture_in_raw_html_is_found_at_its_chapter_line(scratch_ws: Workspace) -> None:
    """It was `rulebook-fetch-refused` at index.md line 0: the refused URL is absolute, the chapter
    names it relative to itself."""
    from cardgen.rulebook.build import build_rulebook

    _edit(scratch_ws, "basics.md", "## Setup", '<img src="pics/gone.png" alt="x">\n\n## Setup')
    book = build_rulebook(scratch_ws, "clean")
    assert [(f.file, f.line, f.column, f.code) for f in book.findings] == [
        (f"{BOOK}/basics.md", 7, 1, "image-missing")
    ]
    assert book.findings[0].message == (
        f"the rulebook shows {BOOK}/pics/gone.png, which does not exist"
    )

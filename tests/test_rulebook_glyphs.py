"""The rulebook checks glyphs too: a chapter character no font of the book's font stacks has is a
located missing-glyph error (not a box in the PDF and exit 0); the game's fallback chain joins every
stack, and without one the book's style is left as it was."""

from __future__ import annotations

import io
import shutil

from pypdf import PdfReader

from cardgen.core.workspace import Workspace
from cardgen.jobs.rulebook import run_rulebook
from cardgen.project.studio import open_studio
from cardgen.rulebook.glyphs import BUNDLED_STYLE, named_fonts, with_fallbacks
from cardgen.rulebook.lint import rulebook_findings

from .conftest import TESTS

BASICS = "rules/clean/rulebook/basics.md"
SHUFFLE = "Shuffle your deck. Draw five cards."


def _write(ws: Workspace, path: str, old: str, new: str) -> None:
    file = ws.root / path
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def _fallback(ws: Workspace) -> None:
    (ws.root / "fonts").mkdir(exist_ok=True)
    shutil.copy(TESTS / "fixtures" / "fonts" / "TinyFallback.ttf", ws.root / "fonts")
    _write(ws, "rules/clean/game.yaml", "card:\n", "fonts:\n  fallback: [TinyFallback]\ncard:\n")


def test_a_character_no_font_of_the_book_has_is_located(scratch_ws: Workspace) -> None:
    _write(scratch_ws, BASICS, SHUFFLE, "Shuffle your deck (the 竜 deck 🎲). Draw five cards.")
    found = rulebook_findings(open_studio(scratch_ws, "clean"))
    assert [(f.file, f.line, f.column, f.code) for f in found] == [(BASICS, 9, 24, "missing-glyph")]
    assert found[0].message == (
        "no font of the book has '竜' (U+7ADC), '🎲' (U+1F3B2): tried Lato-Bold, "
        "CharisSIL-Regular, CharisSIL-Bold, CharisSIL-Italic, Vollkorn-Bold, Lato-Black, "
        "DejaVuSans; it would print as a box"
    )
    assert found[0].hint == (
        "copy DroidSansFallbackFull.ttf (Chinese and Japanese: Debian's fonts-droid-fallback, "
        "/usr/share/fonts/truetype/droid/) and Symbola_hint.ttf (symbols and emoji: Debian's "
        "fonts-symbola, /usr/share/fonts/truetype/ancient-scripts/) into fonts/, and write "
        "'fallback: [DroidSansFallbackFull, Symbola_hint]' under 'fonts:' in rules/clean/game.yaml"
    )
    # `cardgen rulebook` lists it and fails (before: a box in the PDF, exit 0)
    result = run_rulebook(scratch_ws, "clean")
    assert [f.line for f in result.findings if f.code == "missing-glyph"] == [9]


def test_many_lines_are_reported_five_at_a_time(scratch_ws: Workspace) -> None:
    _write(scratch_ws, BASICS, SHUFFLE, SHUFFLE + "\n\n竜\n\n竜\n\n竜\n\n竜\n\n竜 🐉\n\n竜\n\n竜")
    found = rulebook_findings(open_studio(scratch_ws, "clean"))
    assert [f.line for f in found] == [11, 13, 15, 17, 19]
    assert found[-1].message.endswith("(and so would 2 more lines of this chapter)")
    assert "'🐉' (U+1F409)" in found[-1].message


def test_the_fallback_chain_joins_the_book_and_prints_the_glyphs(scratch_ws: Workspace) -> None:
    _fallback(scratch_ws)
    _write(scratch_ws, BASICS, SHUFFLE, "Shuffle your deck (the 竜 deck 🎲). Draw five cards.")
    studio = open_studio(scratch_ws, "clean")
    assert rulebook_findings(studio) == []
    result = run_rulebook(scratch_ws, "clean", studio=studio, html=True)
    assert not [f for f in result.findings if f.code == "missing-glyph"]
    book = (scratch_ws.output_dir("clean") / "rulebook.html").read_text(encoding="utf-8")
    assert 'font-family: "CharisSIL-Regular", "TinyFallback", "DejaVuSans", serif;' in book
    seen: list[tuple[str, str]] = []

    def visit(text: str, cm: object, tm: object, font: dict | None, size: float) -> None:
        if font is not None and "竜" in text:
            seen.append((str(font["/BaseFont"]).split("+")[-1], text.replace("\x00", "")))

    pdf = (scratch_ws.output_dir("clean") / "rulebook.pdf").read_bytes()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        page.extract_text(visitor_text=visit)
    assert seen and all(font == "TinyFallback" for font, _ in seen), seen


def test_a_templates_own_chain_serves_the_book_too(scratch_ws: Workspace) -> None:
    (scratch_ws.root / "fonts").mkdir()
    shutil.copy(TESTS / "fixtures" / "fonts" / "TinyFallback.ttf", scratch_ws.root / "fonts")
    _write(
        scratch_ws,
        "templates/clean/front.yaml",
        "  title: {regular: Vollkorn-Bold}",
        "  title: {regular: Vollkorn-Bold, fallback: [TinyFallback]}",
    )
    _write(scratch_ws, BASICS, SHUFFLE, "Shuffle the 竜 deck.")
    assert rulebook_findings(open_studio(scratch_ws, "clean")) == []


def test_font_stacks_gain_the_chain_before_a_generic_family_and_nothing_else_changes() -> None:
    css = (
        '@font-face { font-family: "Own"; src: url(own.ttf); }\n'
        'html { font-family: "CharisSIL-Regular", serif; font-size: 10pt; }\n'
        'h1 { font: 24pt "Vollkorn-Bold"; }\n'
        "pre { font-family: DejaVuSans !important; }\n"
        "em { font-family: inherit; } small { font: caption; }\n"
    )
    assert with_fallbacks(css, ()) == css
    assert with_fallbacks(css, ("TinyFallback",)) == (
        '@font-face { font-family: "Own"; src: url(own.ttf); }\n'
        'html { font-family: "CharisSIL-Regular", "TinyFallback", "DejaVuSans", serif; '
        "font-size: 10pt; }\n"
        'h1 { font: 24pt "Vollkorn-Bold", "TinyFallback", "DejaVuSans"; }\n'
        'pre { font-family: DejaVuSans, "TinyFallback", "DejaVuSans" !important; }\n'
        "em { font-family: inherit; } small { font: caption; }\n"
    )
    assert named_fonts(css) == ["CharisSIL-Regular", "Vollkorn-Bold", "DejaVuSans"]
    bundled = BUNDLED_STYLE.read_text(encoding="utf-8")
    assert set(named_fonts(bundled)) >= {"CharisSIL-Regular", "Vollkorn-Bold", "DejaVuSans"}

"""index.md's `words:`: the book's own words (headings, the components list's phrases) in the
book's language, English where one is not given, and a located warning for a word cardgen does not
print or one that drops a placeholder (the editions fixture's German book is sample content)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from cardgen.rulebook.bookwords import ENGLISH, read_words
from cardgen.rulebook.components import Amount

from .conftest import TESTS

EDITIONS = TESTS / "fixtures" / "editions"
HEAD = [
    "---",
    "title: Glut und Flut",
    "words:",
    "  contnets: Inhalt",
    "  designs: Motive",
    "  kind_cards: '{kind}-Karten'",
    "---",
]


def test_the_words_given_replace_the_english_and_the_rest_stay() -> None:
    findings: list = []
    words = read_words(
        {"kind_cards": "{kind}-Karten", "per_player": "pro Person"}, "index.md", HEAD, findings
    )
    assert findings == []
    assert words.said("kind_cards", kind="Einheit") == "Einheit-Karten"
    assert words.said("kind_card", kind="Einheit") == "Einheit card"  # not given: English
    assert Amount(12, 2).said("Karte", "Karten", words) == "12 Karten and 2 pro Person"
    assert words.get("contents") == "Contents" and words.get("no such word", "x") == "x"


def test_an_unknown_word_or_a_dropped_placeholder_is_a_located_warning() -> None:
    findings: list = []
    words = read_words(
        {"contnets": "Inhalt", "designs": "Motive", "kind_cards": "{kind}-Karten"},
        "rules/g/rulebook/de/index.md",
        HEAD,
        findings,
    )
    assert [(f.file, f.line, str(f.severity), f.code) for f in findings] == [
        ("rules/g/rulebook/de/index.md", 4, "warning", "rulebook-front-matter"),
        ("rules/g/rulebook/de/index.md", 5, "warning", "rulebook-front-matter"),
    ]
    assert "'contnets'" in findings[0].message and findings[0].hint == "did you mean 'contents'?"
    assert "must hold {n}" in findings[1].message
    assert words.said("designs", n=3) == "3 designs"  # the English is printed
    assert words.said("kind_cards", kind="Zauber") == "Zauber-Karten"
    assert set(ENGLISH) >= {"rules", "contents", "gallery"}  # the headings' words as before


def test_validate_reports_a_misspelt_word_at_its_line(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(EDITIONS, root)
    index = root / "rules" / "editions" / "rulebook" / "de" / "index.md"
    index.write_text(
        index.read_text(encoding="utf-8").replace("  per_player:", "  per_playr:"), "utf-8"
    )
    done = subprocess.run(
        [sys.executable, "-m", "cardgen", "--root", str(root), "validate", "editions"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    line = next(
        n
        for n, text in enumerate(index.read_text(encoding="utf-8").splitlines(), 1)
        if "per_playr" in text
    )
    assert done.returncode == 0, done.stdout + done.stderr  # a warning: the data has no error
    assert f"rules/editions/rulebook/de/index.md:{line}:1: warning[rulebook-front-matter]" in (
        done.stdout
    ), done.stdout
    assert "did you mean 'per_player'?" in done.stdout


def test_a_designer_notes_label_is_a_css_string_nothing_in_it_can_end() -> None:
    from cardgen.rulebook.bookwords import BookWords

    assert BookWords().css() == ""  # the style sheet's own label stays
    css = BookWords({"designer_note": 'Note "x" </style>'}).css()
    assert css == (
        '.admonition.designer .admonition-title::before { content: "Note\\20 \\22 x\\22 \\20 '
        '\\3c \\2f style\\3e \\20 \\b7 \\20 "; }\n'
    )

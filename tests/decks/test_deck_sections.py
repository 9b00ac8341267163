"""A section header the deck format does not declare is an error, and its cards stay out of the
main deck (they were silently merged into it)."""

from __future__ import annotations

from pathlib import Path

from cardgen.core.workspace import Workspace
from cardgen.jobs.deck import check_deck_file
from cardgen.load.decklist import read_deck

from ..conftest import REPO

WS = Workspace.find(REPO)
AETHER = (REPO / "decks" / "aether-duel" / "chaos-burn.txt").read_text()
POWER = (REPO / "decks" / "power-trip" / "dark-sacrifice.txt").read_text()


def _check(tmp_path: Path, game: str, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "deck.txt"
    path.write_text(text)
    return check_deck_file(WS, game, path)[1]


def test_headers_are_recorded_where_they_are_written(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    path.write_text("Card List:\n3 Ghoul\n  [Side Board]\n2 Die!\n")
    deck = read_deck(path, "deck.txt")
    assert deck.headers == [(1, 1, "main", "Card List"), (3, 3, "side board", "Side Board")]
    assert [(e.section, e.line) for e in deck.entries] == [("main", 2), ("side board", 4)]


def test_a_sideboard_in_a_game_without_one_is_an_error_not_part_of_the_deck(
    tmp_path: Path,
) -> None:
    text = POWER + "Sideboard:\n2 Ghoul\n"
    findings = _check(tmp_path, "power-trip", text)
    line = text.count("\n") - 1
    assert [(f.line, f.column, str(f.severity), f.code) for f in findings] == [
        (1, 1, "info", "deck-pool-unchecked"),
        (line, 1, "error", "deck-unknown-section"),
    ]
    assert findings[1].message == (
        "'Sideboard' is no section of this game's decks (sections: main, resource); its cards "
        "are not counted in the main deck"
    )
    assert findings[1].hint == "declare it under deck.sections in game.yaml, or remove the header"


def test_cards_under_an_undeclared_header_are_not_counted_in_the_main_deck(
    tmp_path: Path,
) -> None:
    # a sixth Insight in the main deck would break the five-copy limit
    text = AETHER.replace("Sideboard:", "Extras:\n- 1x Insight\nSideboard:")
    findings = _check(tmp_path, "aether-duel", text)
    assert [(f.line, f.code) for f in findings] == [(15, "deck-unknown-section")]
    assert "(sections: main, monster, sideboard)" in findings[0].message
    merged = _check(
        tmp_path, "aether-duel", AETHER.replace("Sideboard:", "- 1x Insight\nSideboard:")
    )
    assert [f.code for f in merged] == ["deck-copies"]


def test_a_misspelt_declared_section_has_a_did_you_mean(tmp_path: Path) -> None:
    text = AETHER.replace("Sideboard:", "Sidebaord:")
    findings = _check(tmp_path, "aether-duel", text)
    assert [(f.line, f.code) for f in findings] == [
        (1, "deck-section"),  # the declared sideboard now has no cards
        (15, "deck-unknown-section"),
    ]
    assert findings[0].message == "sideboard: 0 cards; it must be exactly 20"
    assert findings[1].hint == "did you mean 'sideboard'?"


def test_declared_headers_are_fine(tmp_path: Path) -> None:
    assert [f.code for f in _check(tmp_path, "aether-duel", AETHER)] == []
    text = "[Main]\n" + POWER.replace("2 Hulking Demon", "Resource:\n2 Hulking Demon", 1)
    assert [f.code for f in _check(tmp_path, "power-trip", text)] == ["deck-pool-unchecked"]

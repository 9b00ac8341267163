"""The words of card and deck findings, as a designer reads them: a range with only a minimum, the
values of a vocabulary, the model's own names for a character's parts (never inflected by
cardgen: no 'Classs', no 'a Ultimate'), a kind's contradictory rule blamed on the model alone."""

from __future__ import annotations

from pathlib import Path

from cardgen.core.workspace import Workspace
from cardgen.jobs.deck import check_deck_file
from cardgen.project.check import check_game

from ..conftest import REPO

CARDS = "cards/clean/cards.yaml"
MODEL = "rules/clean/game.yaml"


def _edit(ws: Workspace, file: str, old: str, new: str) -> None:
    path = ws.root / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _said(ws: Workspace) -> list[tuple[str, str, str | None]]:
    return [(f.code, f.message, f.hint) for f in check_game(ws, "clean").findings]


def test_a_range_is_said_in_words_whichever_bounds_the_model_gives(scratch_ws: Workspace) -> None:
    _edit(scratch_ws, CARDS, "  power: 3\n", "  power: 12\n")
    assert ("out-of-range", "'power' is 12; the model allows 0 to 9", None) in _said(scratch_ws)
    _edit(scratch_ws, MODEL, "{type: integer, min: 0, max: 9", "{type: integer, min: 0")
    assert _said(scratch_ws) == []
    _edit(scratch_ws, CARDS, "  power: 12\n", "  power: -1\n")
    assert _said(scratch_ws) == [
        ("out-of-range", "'power' is -1; the model allows at least 0", None)
    ]


def test_an_unknown_value_lists_the_values_without_a_made_up_plural(scratch_ws: Workspace) -> None:
    _edit(scratch_ws, CARDS, "  rarity: rare\n", "  rarity: mythic\n")
    said = [s for s in _said(scratch_ws) if s[0] == "unknown-value"]
    assert said == [("unknown-value", "unknown rarity 'mythic'", "values of rarity: common, rare")]


def test_a_kind_that_requires_and_forbids_a_field_blames_no_card(scratch_ws: Workspace) -> None:
    _edit(
        scratch_ws,
        MODEL,
        "{name: Unit, requires: [power]}",
        "{name: Unit, requires: [power], forbids: [power]}",
    )
    found = check_game(scratch_ws, "clean").findings
    assert [(f.file, f.code) for f in found] == [(MODEL, "model-exclusive")]


STEWARD = (REPO / "decks" / "ivion" / "steward.txt").read_text(encoding="utf-8")


def _deck(tmp_path: Path, *changes: tuple[str, str]) -> list[tuple[int, str, str]]:
    text = STEWARD
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "deck.txt"
    path.write_text(text, encoding="utf-8")
    _, findings = check_deck_file(Workspace.find(REPO), "ivion", path)
    return [(f.line or 0, f.code, f.message) for f in findings if f.severity.name == "ERROR"]


def test_a_character_deck_speaks_with_the_models_names_uninflected(tmp_path: Path) -> None:
    assert _deck(tmp_path, ("Warrior Cards:", "Warior Cards:")) == [
        (1, "deck-secondary", "0 cards from Class groups; pick exactly 30 from them in all"),
        (
            7,
            "deck-group",
            "'Warior' is no value of 'archetype', so no Specialization or Class group",
        ),
    ]  # and not one deck-wrong-section per card of the misspelt group
    assert _deck(tmp_path, ("Ultimate - Shield Slam.", "Ultimate - Strike.")) == [
        (3, "deck-signature", "'Strike' is not one of the Ultimate cards")
    ]
    assert _deck(tmp_path, ("Traits - Strike, Hold.", "Traits - Strike, Hold, Icicle.")) == [
        (3, "deck-extras", "3 Trait cards; pick 2")
    ]
    assert _deck(tmp_path, ("3 Hammer Strike", "2 Hammer Strike"))[0] == (
        5,
        "deck-primary",
        "14 Steward cards; pick exactly 15 from your Specialization group",
    )

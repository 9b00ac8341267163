"""Card checks that depend on the model's meaning: reversed bounds blamed once on the model, hybrid
costs under match_factions, keywords against their declared forms, numbers past their total; and
root-cause tagging: one typo in game.yaml, one model error, every consequence tagged like it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.core.errors import Finding, Severity
from cardgen.core.workspace import Workspace
from cardgen.project.check import check_game

from ..conftest import TESTS

LANTERN = TESTS / "fixtures" / "lantern"

MORE_LANTERN_CARDS = """- name: Tide Stone
  suits: [Tides, Stones]
  type: Ally
  cost: "{T/G}{St}"
  text: |-
    Whisper 2
    Veil (It cannot be targeted.)
    Scry
    Scry 1 (Look at that many cards.)
    Scry X, Murmur 2
  number: LC-004
- name: Ember Echo
  suits: [Embers]
  type: Spell
  cost: "{E/E}"
  text: "Pay {E/E}: gain 1."
  number: LC-005
"""
LANTERN_GLOSSARY = """text: {keyword_lines: true}
keywords:
  - {name: Whisper, reminder: Only you may look.}
  - {name: Veil, rules: It cannot be targeted.}
  - {name: Scry, parameter: true, reminder: Look at that many cards.}
"""


def _lantern(tmp_path: Path) -> Workspace:
    root = tmp_path / "lantern"
    shutil.copytree(LANTERN, root)
    return Workspace.find(root)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def _found(ws: Workspace, game: str) -> list[tuple[str, int, str | None, str]]:
    return [(f.file, f.line, f.card, f.code) for f in check_game(ws, game).findings]


def test_reversed_field_bounds_are_one_model_error_not_one_per_card(
    scratch_ws: Workspace,
) -> None:
    _edit(
        scratch_ws.model_path("clean"),
        "min: 0, max: 9, role: attack",
        "min: 9, max: 1, role: attack",
    )
    assert _found(scratch_ws, "clean") == [
        ("rules/clean/game.yaml", 23, None, "model-bounds-reversed")
    ]


def test_hybrids_keywords_and_numbers_against_the_model(tmp_path: Path) -> None:
    ws = _lantern(tmp_path)
    model = ws.model_path("lantern")
    _edit(model, "{prefix: LC, where: {}}", "{prefix: LC, where: {}, total: 3}")
    model.write_text(model.read_text() + LANTERN_GLOSSARY)
    cards = ws.cards_dir("lantern") / "cards.yaml"
    cards.write_text(cards.read_text() + MORE_LANTERN_CARDS)
    results = check_game(ws, "lantern").findings
    assert [(f.line, f.card, f.code) for f in results] == [
        (10, "tidecaller", "cost-faction"),  # the fixture's own: {E} on a Tides card
        (20, "tide-stone", "cost-hybrid-faction"),
        (21, "tide-stone", "keyword-form"),
        (21, "tide-stone", "keyword-form"),
        (21, "tide-stone", "keyword-form"),
        (21, "tide-stone", "undefined-keyword"),  # 'Murmur 2': no such keyword ('Scry X' is fine)
        (27, "tide-stone", "number-over-total"),
        (31, "ember-echo", "cost-hybrid-same"),
        (32, "ember-echo", "cost-hybrid-same"),
        (33, "ember-echo", "number-over-total"),
        (30, None, "number-over-total"),
    ]
    messages = [f.message for f in results]
    assert "hybrid '{T/G}' makes the card Groves as well; the card is Stones, Tides" in messages
    assert "'Whisper 2' has a number, but the glossary's 'Whisper' takes none" in messages
    assert "'Veil' is written with reminder text, but the glossary gives it none" in messages
    assert "'Scry' is written without the number the glossary's 'Scry' takes" in messages
    assert "hybrid '{E/E}' has E on both halves: it is just '{E}'" in messages
    assert "'LC-005' is number 5, past the total of prefix 'LC', 3" in messages
    assert "prefix 'LC' numbers 5 cards, but its total is 3" in messages
    assert {f.about for f in results if f.code == "keyword-form"} == {"keywords"}


def _new(before: list[Finding], after: list[Finding]) -> list[Finding]:
    seen = {(f.file, f.line, f.code, f.card, f.message) for f in before}
    return [f for f in after if (f.file, f.line, f.code, f.card, f.message) not in seen]


@pytest.mark.parametrize(
    "game, old, new, about, consequences",
    [
        ("clean", "\nkeywords:", "\nkeywrods:", "keywords", {"undefined-keyword"}),
        ("lantern", "role: faction", "role: fction", "fields.suits", {"cost-faction"}),
        ("lantern", "generic: true", "genric: true", "costs", {"bad-cost"}),
    ],
)
def test_one_typo_in_the_model_is_one_error_and_its_consequences_carry_its_part(
    scratch_ws: Workspace,
    tmp_path: Path,
    game: str,
    old: str,
    new: str,
    about: str,
    consequences: set[str],
) -> None:
    ws = scratch_ws if game == "clean" else _lantern(tmp_path)
    before = check_game(ws, game).findings
    _edit(ws.model_path(game), old, new)
    added = _new(before, check_game(ws, game).findings)
    model_errors = [
        f for f in added if f.file.startswith("rules/") and f.severity is Severity.ERROR
    ]
    cards = [f for f in added if f.card is not None]
    assert len(model_errors) == 1, [f.format() for f in model_errors]
    assert model_errors[0].about == about
    assert cards and {f.code for f in cards} == consequences
    assert {f.about for f in cards} == {about}, [f.format() for f in cards]

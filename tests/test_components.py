"""The rulebook's components list, made from the print run (cards by kind and faction, copies and
per-player copies, double-sided cards, other faces, card sizes) and game.yaml's `components:`; an
empty list is a finding."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.core.errors import Severity
from cardgen.core.workspace import Workspace
from cardgen.project.check import check_game
from cardgen.project.studio import open_studio
from cardgen.rulebook.build import build_rulebook
from cardgen.rulebook.components import component_rows

from .conftest import FIXTURE_WS, TESTS


def _rows(root: Path, game: str) -> list[str]:
    return [head + tail for head, tail in component_rows(open_studio(Workspace.find(root), game))]


@pytest.mark.parametrize(
    "fixture,rows",
    [
        (
            "ruins",  # double-sided Ruins, randomizers (also:), basics by collation group
            [
                "6 Basic cards: 4 Coin, 2 Shack",
                "4 Action cards: 2 each of Village, Smithy",
                "3 Ruin cards, double-sided: Old Mill, Fallen Tower, Sunken Well",
                "2 randomizer cards (one per Action design)",
            ],
        ),
        (
            "market",  # copies and per-player copies on the cards, a kingdom by collation group
            [
                "12 Treasure cards and 7 per player: Coin",
                "8 Victory cards and 3 per player: Shack",
                "120 Kingdom cards: 10 each of 12 designs",
            ],
        ),
        (
            "supply",  # landscape and mini cards name their size, the commonest said first
            [
                "Card size: poker-eu, 63 × 88 mm, unless a line names another",
                "20 Basic cards: 12 Coin, 8 Shack",
                "30 Action cards: 10 each of Village, Smithy, Market",
                "2 Location cards (landscape, 88 × 63 mm): Harbor, Watchtower",
                "1 Event card (mini, 44.45 × 63.5 mm): Feast Day",
            ],
        ),
    ],
)
def test_the_list_comes_from_the_print_run(fixture: str, rows: list[str]) -> None:
    assert _rows(TESTS / "fixtures" / fixture, fixture) == rows


def test_factions_break_a_kind_down() -> None:
    assert _rows(FIXTURE_WS, "clean") == ["4 Unit cards: 2 Red, 2 Blue", "1 Spell card: Red"]


def _scratch(tmp_path: Path, model_tail: str) -> Workspace:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE_WS, root, symlinks=True, ignore=shutil.ignore_patterns("fonts"))
    ws = Workspace.find(root)
    model = ws.model_path("clean")
    model.write_text(model.read_text() + model_tail)
    return ws


def test_declared_components_follow_the_cards(tmp_path: Path) -> None:
    ws = _scratch(
        tmp_path,
        "components:\n"
        "  - {name: Damage counters, count: 40}\n"
        "  - First player marker\n"
        "  - {name: Life dial, per_player: 1}\n"
        "  - {name: Coin tokens, count: 20, per_player: 5}\n",
    )
    assert check_game(ws, "clean").findings == []
    assert _rows(ws.root, "clean")[2:] == [
        "40 Damage counters",
        "1 First player marker",
        "1 Life dial per player",
        "20 Coin tokens and 5 per player",
    ]
    book = build_rulebook(ws, "clean")
    assert "40 Damage counters" in book.html and "1 Life dial per player" in book.html


def test_a_components_mistake_is_located(tmp_path: Path) -> None:
    ws = _scratch(
        tmp_path,
        "components:\n"
        "  - {name: Damage counters, count: many}\n"
        "  - {count: 3}\n"
        "  - {name: Tokens, count: 0}\n"
        "  - {name: Dice, cout: 2}\n",
    )
    found = [(f.line, f.code, f.severity.name.lower()) for f in check_game(ws, "clean").findings]
    model_lines = ws.model_path("clean").read_text().splitlines()
    first = model_lines.index("components:") + 1
    assert (first + 1, "model-type", "error") in found  # 'many' is no count
    assert (first + 2, "model-missing", "error") in found  # a component needs a name
    assert (first + 3, "model-value", "warning") in found  # 0: left out of the list
    assert (first + 4, "model-unknown-key", "error") in found  # with did-you-mean 'count'
    assert len(found) == 4  # each said once


def test_an_empty_list_is_a_finding_never_a_silent_gap(tmp_path: Path) -> None:
    ws = _scratch(tmp_path, "")
    model = ws.model_path("clean")
    text = model.read_text()
    start, end = text.index("collation:"), text.index("numbering:")
    model.write_text(
        text[:start] + "collation:\n  - {name: None, where: {}, copies: 0}\n" + text[end:]
    )
    book = build_rulebook(ws, "clean")
    (finding,) = [f for f in book.findings if f.code == "rulebook-components-empty"]
    assert (finding.file, finding.line) == ("rules/clean/rulebook/basics.md", 5)
    assert "the components list is empty" in finding.message
    assert "the components list is empty" in book.html


def test_a_glossary_of_no_keywords_is_a_finding_at_its_line(tmp_path: Path) -> None:
    ws = _scratch(tmp_path, "")
    model = ws.model_path("clean")
    text = model.read_text()
    start, end = text.index("keywords:"), text.index("collation:")
    model.write_text(text[:start] + text[end:])
    chapter = ws.root / "rules" / "clean" / "rulebook" / "cards.md"
    chapter.write_text(chapter.read_text().replace(' Use {{ keyword("Guard") }} wisely.', ""))
    book = build_rulebook(ws, "clean")
    (finding,) = [f for f in book.findings if f.code == "rulebook-glossary-empty"]
    assert (finding.file, finding.line, finding.severity) == (
        "rules/clean/rulebook/cards.md",
        13,
        Severity.WARNING,
    )
    assert "the glossary is empty" in book.html


def test_cards_only_in_the_players_decks_are_counted_once_per_player() -> None:
    """'4 Starter cards per player: 1 Courier Satchel, 3 Copper Coin' (the designer's trial #4
    read '…: Courier Satchel, 3 per player Copper Coin')."""
    from types import SimpleNamespace

    from cardgen.rulebook.components import Amount, Kind, kind_row

    model = SimpleNamespace(role_field=lambda role: None)
    satchel, coin = (
        SimpleNamespace(name=n, id=n.lower()) for n in ("Courier Satchel", "Copper Coin")
    )
    starter = Kind("", Amount(0, 4), [(satchel, Amount(0, 1)), (coin, Amount(0, 3))])
    assert kind_row(model, starter, None, False) == (  # type: ignore[arg-type]
        "4 cards per player",
        ": 1 Courier Satchel, 3 Copper Coin",
    )
    mixed = Kind("", Amount(13, 3), [(satchel, Amount(1, 0)), (coin, Amount(12, 3))])
    assert kind_row(model, mixed, None, False)[1] == (  # type: ignore[arg-type]
        ": Courier Satchel, 12 + 3 per player Copper Coin"
    )

"""Per-card counts (the copies and per-player roles) make the print run, with exact findings.

The games in tests/fixtures/market are sample content written for these tests."""

from __future__ import annotations

import pytest

from cardgen.core.errors import CardgenError
from cardgen.core.workspace import Workspace
from cardgen.model.collation import count_findings, counted_run, print_run
from cardgen.printrun.copies import collation_run
from cardgen.project.loaded import load_game

from ..conftest import REPO, TESTS

MARKET = TESTS / "fixtures" / "market"


@pytest.fixture(scope="module")
def market():
    return load_game(Workspace.find(MARKET), "market")


def test_counts_and_collation_groups_make_the_run(market) -> None:
    run = dict((c.id, n) for c, n in print_run(market.catalog, market.model))
    assert run["bakery"] == 10  # no count: the Kingdom group's copies
    assert run["coin"] == 12 + 7  # its count, plus one starting deck (draft.players unset: 1)
    assert run["shack"] == 8 + 3
    assert sum(run.values()) == 12 * 10 + 19 + 11


def test_players_scale_the_starting_decks_and_say_the_arithmetic(market) -> None:
    run, notes = collation_run(market.catalog, market.model, 4)
    counts = dict((c.id, n) for c, n in run)
    assert counts["coin"] == 40 and counts["shack"] == 20 and counts["bakery"] == 10
    assert notes == [
        "print run for 4 players (--players N for another number): "
        "40 Coin = 7 × 4 players + 12 in the supply; 20 Shack = 3 × 4 players + 8 in the supply"
    ]
    one = counted_run(market.catalog, market.model, 1)
    assert [c.arithmetic() for c in one if c.per_player][0] == (
        "19 Coin = 7 × 1 player + 12 in the supply"
    )


@pytest.mark.parametrize(
    ("written", "seats", "finding"),
    [
        ("2-4", 4, None),  # the box holds the most players' starting decks
        ("2 – 3", 3, None),
        ("3", 3, None),
        ("2", 2, None),
        ("4-2", 1, "model-value"),  # dropped, said where it stands: the run is for 1
        ("two", 1, "model-type"),
        ("0", 1, "model-value"),
    ],
)
def test_game_players_sets_the_print_runs_players(
    tmp_path, written: str, seats: int, finding: str | None
) -> None:
    import shutil

    shutil.copytree(MARKET, tmp_path / "ws")
    model = tmp_path / "ws" / "rules" / "market" / "game.yaml"
    text = model.read_text(encoding="utf-8")
    model.write_text(text.replace("game:\n", f"game:\n  players: {written}\n", 1))
    loaded = load_game(Workspace.find(tmp_path / "ws"), "market")
    found = [(f.file, f.line, f.code) for f in loaded.findings]
    assert found == ([("rules/market/game.yaml", 4, finding)] if finding else [])  # its line
    counts = dict((c.id, n) for c, n in print_run(loaded.catalog, loaded.model))
    assert counts["coin"] == 12 + 7 * seats
    # asked for on the command line, the players are those asked for
    asked = dict((c.id, n) for c, n in print_run(loaded.catalog, loaded.model, 1))
    assert asked["coin"] == 12 + 7


@pytest.mark.parametrize("players", [0, -1, 10_001])
def test_players_out_of_range_is_a_usage_error(market, players: int) -> None:
    with pytest.raises(CardgenError, match="--players must be between 1 and 10,000"):
        print_run(market.catalog, market.model, players)


def test_the_sample_game_has_no_count_findings(market) -> None:
    assert count_findings(market.model, market.catalog) == []
    assert [f for f in market.findings] == []


def test_counts_written_wrong_are_located_findings() -> None:
    loaded = load_game(Workspace.find(MARKET), "badcount")
    found = [
        (f.file, f.line, f.column, str(f.severity), f.code, f.card)
        for f in count_findings(loaded.model, loaded.catalog)
    ]
    assert found == [
        ("rules/badcount/game.yaml", 11, 3, "error", "model-role-type", None),
        ("cards/badcount/cards.yaml", 4, 3, "error", "copies-value", "negative"),
        ("cards/badcount/cards.yaml", 7, 3, "error", "copies-value", "huge"),
        ("cards/badcount/cards.yaml", 13, 3, "warning", "copies-disagree", "disagrees"),
    ]
    messages = {f.card: f.message for f in count_findings(loaded.model, loaded.catalog)}
    assert messages["disagrees"] == (
        "'qty' says 12 copies, collation group 'Kingdom' says 10; the card's 12 are printed"
    )
    # a count dropped as invalid leaves the card to the collation (Basics gives no number: once);
    # the per-player role on a text field is not read at all
    run = dict((c.id, n) for c, n in print_run(loaded.catalog, loaded.model, 3))
    assert run == {"agrees": 10, "disagrees": 12, "plain": 10, "negative": 1, "huge": 1, "words": 1}


def test_bundled_games_have_no_counts_so_their_runs_are_the_collations() -> None:
    loaded = load_game(Workspace.find(REPO), "power-trip")
    run = print_run(loaded.catalog, loaded.model, 7)  # players change nothing without per-player
    assert (len(run), sum(n for _, n in run)) == (212, 288)
    assert collation_run(loaded.catalog, loaded.model, 7)[1] == []

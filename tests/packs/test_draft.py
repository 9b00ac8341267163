"""Pod draft simulation: every dealt card picked once, full pools, packs passed by the stated
rule."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.core.workspace import Workspace
from cardgen.model.packs import load_format
from cardgen.packs.deal import deal
from cardgen.packs.draft import holder, simulate
from cardgen.project.loaded import load_game

from ..conftest import REPO


@pytest.fixture(scope="module")
def drafted():
    loaded = load_game(Workspace.find(REPO), "power-trip")
    fmt = load_format(loaded.model, loaded.catalog)
    d = deal(fmt, "power-trip", 4, 99)
    return d, simulate(d, loaded.model, loaded.catalog)


def test_every_dealt_card_is_picked_exactly_once(drafted) -> None:
    d, result = drafted
    dealt = Counter(c for p in d.packs for c in p.cards)
    picked = Counter(c for picks in result.picks.values() for c in picks)
    assert picked == dealt
    assert all(len(picks) == 3 * 15 for picks in result.picks.values())


def test_packs_move_by_the_passing_rule(drafted) -> None:
    d, result = drafted
    opened = {(p.player, p.round): p.cards for p in d.packs}
    for row in result.log:
        direction = d.format.passes[row.pack_number - 1]
        source = holder(row.seat - 1, row.pick_number - 1, d.players, direction) + 1
        pack = opened[(source, row.pack_number)]
        assert set(row.pack) <= set(pack) and len(row.pack) == 15 - row.pick_number + 1
        assert row.pick in row.pack


def test_left_rule_matches_the_field_notes() -> None:
    assert [holder(0, t, 8, "left") for t in range(9)] == [0, 7, 6, 5, 4, 3, 2, 1, 0]
    assert holder(2, 8, 8, "left") == holder(
        2, 0, 8, "left"
    )  # picks t and t + 8 come from one pack
    assert [holder(0, t, 8, "right") for t in range(3)] == [0, 1, 2]


def test_draft_cli_csv_and_json_are_replayable() -> None:
    runner = CliRunner()
    base = ["--root", str(REPO), "draft", "power-trip", "--players", "3", "--seed", "4"]
    out = runner.invoke(main, base + ["--format", "csv"]).stdout
    assert out == runner.invoke(main, base + ["--format", "csv"]).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 3 * 45 and set(rows[0]) == {
        "seed",
        "seat",
        "pack_number",
        "pick_number",
        "pick",
        "pack",
        "pool",
    }
    data = json.loads(runner.invoke(main, base + ["--format", "json"]).stdout)
    assert [len(s["picks"]) for s in data["seats"]] == [45, 45, 45]

"""Setup formats (mode: setup) deal each game's setup, seeded, fair and worded as setup.

The games in tests/fixtures/market are sample content written for these tests."""

from __future__ import annotations

import csv
import io
import json
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.core.workspace import Workspace
from cardgen.model.packs import format_findings, load_format
from cardgen.packs.deal import SetupSampler, deal
from cardgen.packs.stats import slot_stats
from cardgen.project.loaded import load_game

from ..conftest import TESTS

MARKET = TESTS / "fixtures" / "market"


@pytest.fixture(scope="module")
def market():
    loaded = load_game(Workspace.find(MARKET), "market")
    return loaded, load_format(loaded.model, loaded.catalog, "kingdom")


def _ok(ids, by_id) -> bool:
    cheap = sum(1 for i in ids if by_id[i].get("price") <= 3)
    per = Counter(by_id[i].get("expansion") for i in ids)
    return cheap >= 2 and max(per.values()) <= 3


def test_every_game_meets_the_constraints_and_replays(market) -> None:
    loaded, fmt = market
    by_id = loaded.catalog.by_id()
    d = deal(fmt, "market", 4, 7, games=200)  # players mean nothing to a setup
    assert d.games == 200 and [p.player for p in d.packs] == list(range(1, 201))
    assert all(len(set(p.cards)) == len(p.cards) == 5 for p in d.packs)
    assert all(_ok(p.cards, by_id) for p in d.packs)
    again = deal(fmt, "market", 1, 7, games=3)
    assert [p.cards for p in again.packs] == [p.cards for p in d.packs[:3]]  # game 3 is game 3
    assert [p.cards for p in deal(fmt, "market", 1, 8, games=3).packs] != [
        p.cards for p in again.packs
    ]


def test_setups_are_uniform_over_the_sets_that_meet_the_constraints(market) -> None:
    """The exact odds counted by enumeration are what the sampler gives, and every valid set is
    reachable: 570 of C(12, 5) = 792 sets meet both constraints."""
    loaded, fmt = market
    by_id = loaded.catalog.by_id()
    ids = [c.id for c in fmt.sheets["setup"].cards]
    valid = [s for s in combinations(ids, 5) if _ok(s, by_id)]
    assert len(valid) == 570
    exact = fmt.expected()
    assert exact["bakery"] == Fraction(sum("bakery" in s for s in valid), 570) == Fraction(49, 114)
    sampler = SetupSampler(fmt, random.Random(3))
    seen = Counter(frozenset(sampler.pack()) for _ in range(20_000))
    assert len(seen) == 570  # each set is 35 draws on average: all seen
    stats = slot_stats(fmt, 20_000, 3, 1)
    assert [(s.sheet, s.cards, s.p >= 0.001) for s in stats.sheets] == [("setup", 12, True)]
    assert stats.joint is not None and all(t.passed for t in stats.joint.all_tests)


def test_a_format_without_constraints_is_a_simple_random_sample() -> None:
    loaded = load_game(Workspace.find(MARKET), "market")
    fmt = load_format(loaded.model, loaded.catalog, "events")
    assert set(fmt.expected().values()) == {Fraction(3, 12)}
    stats = slot_stats(fmt, 5_000, 1, 1)
    assert stats.joint is not None
    assert [t.name for s in stats.joint.slots for t in s.tests if t.p is not None] == [
        "pairs",
        "positions",
    ]


def test_setup_formats_written_wrong_are_located_findings() -> None:
    loaded = load_game(Workspace.find(MARKET), "badsetup")
    assert loaded.findings == []  # the schema accepts them all: only dealing can tell
    found = [
        (f.line, f.column, f.code, f.about)
        for f in format_findings(loaded.model, loaded.catalog, loaded.findings)
    ]
    assert found == [
        (24, 3, "setup-impossible", "packs.toomany"),
        (30, 9, "setup-impossible", "packs.never"),
        (36, 9, "setup-impossible", "packs.cheap"),
        (42, 9, "setup-impossible", "packs.spread"),
        (48, 9, "setup-impossible", "packs.together"),
        (50, 3, "pack-format", "packs.passing"),
        (55, 9, "pack-format", "packs.unknown"),
        (56, 3, "pack-format", "packs.nopick"),
        (57, 3, "pack-format", "packs.slotty"),
    ]
    messages = [f.message for f in format_findings(loaded.model, loaded.catalog)]
    assert messages[3] == (
        "'spread': the constraint 'at most 1 per expansion' lets a setup hold at most 2 of the "
        "pool's cards, but it picks 5"
    )
    assert messages[4].startswith("'together': no setup of 20,000 tried meets every constraint")


def _run(*args: str):
    return CliRunner().invoke(main, ["--root", str(MARKET), "packs", "market", *args])


def test_setups_are_worded_as_setup_in_text_csv_and_json() -> None:
    text = _run("--seed", "1", "--games", "3")
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    assert lines[0] == "market: setups for 3 games, 5 of 12 cards each (format kingdom, seed 1)"
    assert lines[1] == "every game: at least 2 with price ≤ 3; at most 3 per expansion"
    assert [line.split(":")[0] for line in lines[3:6]] == ["Game 1", "Game 2", "Game 3"]
    assert "(price " in lines[3] and (", Base)" in lines[3] or ", Harbor)" in lines[3])
    for word in ("Player", "round", "pass ", "packs for", "draft"):
        assert word not in text.output
    rows = list(
        csv.reader(io.StringIO(_run("--seed", "1", "--games", "3", "--format", "csv").output))
    )
    assert rows[0] == ["seed", "game", "position", "card_id", "card_name"]
    assert [r[1] for r in rows[1:16]] == ["1"] * 5 + ["2"] * 5 + ["3"] * 5
    out = _run("--seed", "1", "--games", "2", "--format", "json").output
    data = json.loads(out[: out.rindex("}") + 1])
    assert (data["mode"], data["games"], data["pick"], len(data["pool"])) == ("setup", 2, 5, 12)
    assert [s["game"] for s in data["setups"]] == [1, 2]
    assert data["setups"][0]["cards"] == [r[3] for r in rows[1:6]]


def test_pack_options_on_a_setup_and_games_on_packs_are_usage_errors() -> None:
    wrong = _run("--players", "4")
    assert wrong.exit_code == 2
    assert "it deals games, so --players means nothing; use --games N" in wrong.output
    packs = CliRunner().invoke(
        main, ["--root", str(TESTS / "fixtures" / "ws"), "packs", "clean", "--games", "2"]
    )
    assert packs.exit_code == 2 and "--games is for setup formats" in packs.output
    draft = CliRunner().invoke(main, ["--root", str(MARKET), "draft", "market"])
    assert draft.exit_code == 2 and "there is nothing to draft" in draft.output


def test_the_setup_sheets_say_game_and_seed(tmp_path) -> None:
    import pypdfium2 as pdfium

    got = _run("--seed", "2", "--games", "2", "--sheets", "--out", str(tmp_path))
    assert got.exit_code == 0, got.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "setups-2.csv",
        "setups-2.json",
        "setups-2.pdf",
        "setups-2.txt",
    ]
    pdf = pdfium.PdfDocument(str(tmp_path / "setups-2.pdf"))
    text = " ".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert "game 1 · seed 2" in text and "game 2 · seed 2" in text
    assert "G2 · seed 2" in text and "player" not in text.lower()


def _cards(n: int) -> list:
    from cardgen.load.card import Card

    return [
        Card(f"c{i}", {"price": i % 6, "expansion": "ABC"[i % 3]}, "cards.yaml", i + 1, 1, order=i)
        for i in range(n)
    ]


def test_exact_odds_count_types_not_sets() -> None:
    """Counted by how many of each interchangeable type a setup takes: the same as listing every
    set on a small pool, and exact on a pool whose sets are far too many to list."""
    from cardgen.model.setup import Constraint, Rules, exact_odds

    rules = [Constraint(2, None, field="price", high=2), Constraint(None, 2, per="expansion")]
    small = _cards(12)
    table = Rules.of(rules, small)
    ids = [c.id for c in small]
    valid = [s for s in combinations(ids, 5) if table.holds(s)]
    listed = {i: Fraction(sum(i in s for s in valid), len(valid)) for i in ids}
    assert exact_odds(ids, 5, table) == listed
    big = _cards(30)  # C(30, 10) = 30,045,015 sets
    rules = [Constraint(2, None, field="price", high=2), Constraint(None, 4, per="expansion")]
    odds = exact_odds([c.id for c in big], 10, Rules.of(rules, big))
    assert odds is not None and sum(odds.values()) == 10  # a setup holds exactly 10 cards
    assert odds["c0"] == odds["c6"] != odds["c5"]  # same type, same odds


def test_where_selects_the_pool_in_a_game_without_a_collation(scratch_ws: Workspace) -> None:
    """A game with no collation (every game `new --from` makes): a format's `where:` and
    draft.pool still select its cards (they were ignored: every design was dealt)."""
    model = scratch_ws.model_path("clean")
    text = model.read_text()
    start, end = text.index("collation:\n"), text.index("numbering:\n")
    text = text[:start] + text[end:]
    text = text.replace(
        "  pod:\n    mode: exhaust\n",
        "  spells:\n    mode: setup\n    pick: 1\n    where: {kind: Spell}\n"
        "  units:\n    mode: exhaust\n    pack_size: 1\n    where: {kind: Unit}\n"
        "  pod:\n    mode: exhaust\n",
    )
    model.write_text(text)
    loaded = load_game(scratch_ws, "clean")
    assert not loaded.model.collation
    kind = {c.id: c.get("kind") for c in loaded.catalog.cards}
    spells = deal(load_format(loaded.model, loaded.catalog, "spells"), "spells", 1, 3, games=20)
    assert {kind[c] for p in spells.packs for c in p.cards} == {"Spell"}
    units = load_format(loaded.model, loaded.catalog, "units")
    assert {kind[card.id] for card, _ in units.pool} == {"Unit"}
    everyone = load_format(loaded.model, loaded.catalog, "pod")
    assert {kind[card.id] for card, _ in everyone.pool} == {"Unit", "Spell"}

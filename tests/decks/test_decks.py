"""Deck lists in every format: the seed's sample decks are legal, and each broken rule gives its
finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.core.workspace import Workspace
from cardgen.jobs.deck import check_deck_file

from ..conftest import REPO

WS = Workspace.find(REPO)
STEWARD = (REPO / "decks" / "ivion" / "steward.txt").read_text()
AETHER = (REPO / "decks" / "aether-duel" / "chaos-burn.txt").read_text()
POWER = (REPO / "decks" / "power-trip" / "dark-sacrifice.txt").read_text()


def codes(tmp_path: Path, game: str, text: str, **kw) -> list[tuple[str, str]]:
    path = tmp_path / "deck.txt"
    path.write_text(text)
    _, findings = check_deck_file(WS, game, path, **kw)
    return [(str(f.severity), f.code) for f in findings]


@pytest.mark.parametrize("name", ["steward", "winterborn"])
def test_seed_sample_decks_break_no_stated_rule(tmp_path: Path, name: str) -> None:
    got = codes(tmp_path, "ivion", (REPO / "decks" / "ivion" / f"{name}.txt").read_text())
    assert (
        got == [("info", "deck-unverifiable")] * 3
    )  # colour pips, trait requirements, the unnamed class


@pytest.mark.parametrize(
    "change,expected",
    [
        (("3 Hammer Strike", "2 Hammer Strike"), ["deck-primary", "deck-size"]),
        (("1 Intimidate.", "1 Intimidate, 1 Duck."), ["deck-secondary", "deck-size"]),
        (("Ultimate - Shield Slam.", "Ultimate - Winterburst."), ["deck-signature"]),
        (("Traits - Strike, Hold.", "Traits - Strike, Hold, Icicle."), ["deck-extras"]),
        (("3 Tenacity", "3 Tenacty"), ["deck-unknown-card"]),
        (("1 Dismember", "1 Avalanche"), ["deck-wrong-section"]),
        (
            ("1 Intimidate.\n", "1 Intimidate.\n\nWinterborn Cards: 3 Snowclutch.\n"),
            ["deck-primary", "deck-size"],
        ),
        (("Ultimate - Shield Slam.", "Ultimate - Strike."), ["deck-signature"]),
    ],
)
def test_ivion_illegal_variants(
    tmp_path: Path, change: tuple[str, str], expected: list[str]
) -> None:
    text = STEWARD.replace(*change, 1)
    assert text != STEWARD
    got = [c for s, c in codes(tmp_path, "ivion", text) if s == "error"]
    assert sorted(set(got)) == expected


@pytest.mark.parametrize(
    "change,expected",
    [
        (
            ("- 4x Last Stand", "- 6x Last Stand"),
            ["deck-copies", "deck-size"],
        ),  # 6 copies; 52 cards is fine, so…
        (("- 4x Last Stand", "- 3x Last Stand"), ["deck-size"]),
        (("Monster: Ember Wyrm\n", ""), ["deck-section"]),
        (("Monster: Ember Wyrm", "Monster: Cinder Burst"), ["deck-wrong-section"]),
        (("- 4x Aether Siphon", "- 3x Aether Siphon"), ["deck-section"]),
        (("- 5x Quick Study", "- 4x Quick Study\n- 1x Hollow Shade"), ["deck-wrong-section"]),
        (
            ("- 5x Quick Study", "- 3x Insight\n- 2x Quick Study"),
            ["deck-copies"],
        ),  # 8 Insight across two lines
        (("- 5x Insight", "- 5x Insigt"), ["deck-unknown-card"]),
    ],
)
def test_aether_illegal_variants(
    tmp_path: Path, change: tuple[str, str], expected: list[str]
) -> None:
    text = AETHER.replace(*change, 1)
    assert text != AETHER
    got = sorted({c for s, c in codes(tmp_path, "aether-duel", text) if s == "error"})
    if expected == ["deck-copies", "deck-size"]:
        expected = ["deck-copies"]  # 52 cards is still at least 50
    assert got == expected


def test_power_trip_size_and_pool(tmp_path: Path) -> None:
    # the model says decks come from a drafted pool: without one, that part is unverifiable (info)
    assert codes(tmp_path, "power-trip", POWER.replace("2 Die!", "1 Die!")) == [
        ("info", "deck-pool-unchecked"),
        ("error", "deck-size"),
    ]
    draft = tmp_path / "draft.json"
    draft.write_text(json.dumps({"seats": [{"seat": 1, "picks": ["hulking-demon"] * 2 + ["die"]}]}))
    got = codes(
        tmp_path, "power-trip", "3 Hulking Demon\n1 Die!\n21 Dark Resource\n", pool=draft, seat=1
    )
    # three Hulking Demons from a pool of two; and resources are a separate deck, so only 4 main
    # cards
    assert got == [("error", "deck-not-drafted"), ("error", "deck-size")]


def test_cli_exit_codes_and_json(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(
        main, ["--root", str(REPO), "deck", "check", "ivion", str(REPO / "decks/ivion/steward.txt")]
    )
    assert ok.exit_code == 0 and "legal" in ok.output
    bad = tmp_path / "bad.txt"
    bad.write_text(AETHER.replace("- 5x Insight", "- 9x Insight"))
    out = runner.invoke(
        main, ["--root", str(REPO), "deck", "check", "aether-duel", str(bad), "--format", "json"]
    )
    data = json.loads(out.stdout)
    assert out.exit_code == 1 and data["findings"][0]["code"] == "deck-copies"
    assert data["findings"][0]["line"] == 13 and data["findings"][0]["file"].endswith("bad.txt")
    missing = runner.invoke(
        main, ["--root", str(REPO), "deck", "check", "ivion", str(tmp_path / "nope.txt")]
    )
    assert missing.exit_code == 2 and "no deck list" in missing.output


def test_sheets_print_exactly_the_deck(tmp_path: Path) -> None:
    deck = str(REPO / "decks/aether-duel/chaos-burn.txt")
    out = CliRunner().invoke(
        main,
        [
            "--root",
            str(REPO),
            "sheets",
            "aether-duel",
            "--deck",
            deck,
            "--out",
            str(tmp_path / "d.pdf"),
        ],
    )
    assert out.exit_code == 0 and "71 copies of 17 designs" in out.output
    # a deck file given as an argument used to be ignored silently; now it is a usage error
    ignored = CliRunner().invoke(main, ["--root", str(REPO), "sheets", "aether-duel", deck])
    assert ignored.exit_code == 2 and "unexpected extra argument" in ignored.output.lower()
    lost = CliRunner().invoke(
        main, ["--root", str(REPO), "sheets", "aether-duel", "--copies", "deck"]
    )
    assert lost.exit_code == 2 and "--copies deck needs --deck FILE" in lost.output

"""Power Trip's card files are a faithful transcription of the seed: counts, numbers, names and
texts."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.core.workspace import Workspace
from cardgen.project.check import check_game

from .conftest import REPO, SEEDS, needs_shared

SEED = SEEDS / "000_cb8ebdbe67f23816.txt"
needs_seed = needs_shared(SEED)


def _card_section() -> list[str]:
    lines = [ln.strip() for ln in SEED.read_text(encoding="utf-8").splitlines()]
    start = lines.index("Hulking Demon - BB")
    return [s for s in lines[start : lines.index("Figure out the fae situation")] if s]


@pytest.fixture(scope="module")
def result():
    return check_game(Workspace.find(REPO), "power-trip")


def test_cards_per_file(result) -> None:
    per_file = Counter(c.file.rsplit("/", 1)[-1] for c in result.catalog)
    assert per_file == {
        "dark.yaml": 47,
        "light.yaml": 47,
        "mind.yaml": 45,
        "body.yaml": 45,
        "dual.yaml": 22,
        "tokens.yaml": 2,
        "resources.yaml": 4,
        "life.yaml": 1,
    }


def test_cards_per_faction(result) -> None:
    factions = Counter(
        "/".join(c.values("factions")) or "-"
        for c in result.catalog
        if "Resource" not in c.values("kinds")
    )
    # cards with no type line (untitled drafts, Chameleon, "Spirit", the Life card) have no faction:
    # "-"
    assert factions == {
        "Dark": 39,
        "Light": 46,
        "Mind": 47,
        "Body": 41,
        "-": 14,
        "Light/Dark": 2,
        "Light/Mind": 2,
        "Mind/Body": 7,
        "Dark/Body": 6,
        "Dark/Mind": 3,
        "Light/Body": 2,
    }


@needs_seed
def test_collector_numbers_match_the_seed(result) -> None:
    seed_numbers = Counter(
        s for s in _card_section() if re.fullmatch(r"[A-Za-z]+(\d+|x)/(\d+|x)", s)
    )
    yaml_numbers = Counter(c.get("number") for c in result.catalog if c.get("number"))
    assert yaml_numbers == seed_numbers


@needs_seed
def test_every_transcribed_line_is_in_the_seed(result) -> None:
    seed_lines = set(SEED.read_text(encoding="utf-8").splitlines())
    seed_lines = {s.strip() for s in seed_lines}
    for card in result.catalog:
        for key in ("text", "flavor"):
            for line in str(card.get(key) or "").splitlines():
                assert line in seed_lines, (card.id, key, line)
        if card.get("cost"):
            assert f"{card.name} - {card.get('cost')}" in seed_lines, card.id


@needs_seed
def test_every_seed_name_is_transcribed(result) -> None:
    names = Counter(c.name for c in result.catalog)
    section = _card_section()
    heads = [section[0]] + [section[i + 1] for i, s in enumerate(section[:-1]) if s in ("==", "=")]
    for head in heads:
        name = head.rsplit(" - ", 1)[0] if head.startswith('"') else head.split(" - ", 1)[0]
        assert names[name.removesuffix(" ==")] >= 1, head


def test_show_hulking_demon() -> None:
    out = (
        CliRunner()
        .invoke(main, ["--root", str(REPO), "show", "power-trip", "Hulking Demon"])
        .output
    )
    fields = {
        line.split()[0]: line.split()[1] for line in out.splitlines()[1:] if line.startswith("  ")
    }
    assert fields == {
        "name": "Hulking",
        "cost": "BB",
        "factions": "Dark",
        "kinds": "Entity",
        "ap": "5",
        "hp": "3",
        "rarity": "common",
        "number": "D1/40",
    }


def test_validator_reports_the_seeds_real_problems(result) -> None:
    codes = Counter(f.code for f in result.findings)
    # problems the seed really has, one example each
    expected = {
        "duplicate-id": "brick",
        "number-duplicate": "brilliance",
        "unknown-value": "mind-messer",
        "undefined-keyword": "body-resource",
        "symbol-case": "silent-psychic",
        "number-missing": "astronomers",
        "value-alias": "dark-contract",
        "requires-field": "combat-analyzer",
    }
    for code, card in expected.items():
        assert any(f.code == code and f.card == card for f in result.findings), code
    assert codes["unfinished-card"] == 23
    # nothing that only a transcription slip would cause
    assert not {
        "unknown-field",
        "wrong-type",
        "yaml-syntax",
        "bad-cost",
        "unknown-cost-symbol",
        "check-crashed",
    } & set(codes)


@pytest.mark.parametrize("game", ["power-trip", "aether-duel", "ivion"])
def test_docs_summary_is_current(game: str) -> None:
    from cardgen.jobs.findings import validate_game
    from cardgen.project.check import findings_summary

    result = validate_game(Workspace.find(REPO), game)
    expected = findings_summary(result, f"cardgen validate {game} --format summary")
    assert (REPO / "docs" / f"{game}.md").read_text(encoding="utf-8") == expected, (
        f"regenerate: cardgen validate {game} --format summary > docs/{game}.md"
    )

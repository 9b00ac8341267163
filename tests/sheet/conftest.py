"""Shared helpers of the sheet tests: a private copy of a game's workspace, and the sheet command
group run as cardgen runs it."""

from __future__ import annotations

import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cardgen.cli.core import _Group
from cardgen.cli.sheet import sheet

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
# every bundled game and every fixture game with cards: (the workspace holding it)
GAMES = {
    "power-trip": ROOT,
    "aether-duel": ROOT,
    "ivion": ROOT,
    "lantern": FIXTURES / "lantern",
    "clean": FIXTURES / "ws",
    "broken": FIXTURES / "ws",
    "badmodel": FIXTURES / "ws",
    "supply": FIXTURES / "supply",
    "market": FIXTURES / "market",
    "badsetup": FIXTURES / "market",
    "badcount": FIXTURES / "market",
    "ruins": FIXTURES / "ruins",
    "deckbuilder": FIXTURES / "deckbuilder",
    "editions": FIXTURES / "editions",
}


def copy_game(game: str, dest: Path) -> Path:
    """dest holding rules/GAME and cards/GAME (and the shared templates) of a bundled or fixture
    game."""
    src = GAMES[game]
    for part in ("rules", "cards"):
        shutil.copytree(src / part / game, dest / part / game)
    return dest


def card_bytes(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted((root / "cards").rglob("*"))
        if p.is_file()
    }


@click.group(cls=_Group)
@click.option("--root")
@click.pass_context
def cardgen(ctx: click.Context, root: str | None) -> None:
    ctx.obj = root


cardgen.add_command(sheet)


@pytest.fixture
def run():
    """Run `cardgen --root ROOT sheet ARGS…`: (exit code, output)."""

    def go(root: Path, *args: str) -> tuple[int, str]:
        result = CliRunner().invoke(cardgen, ["--root", str(root), "sheet", *args])
        return result.exit_code, result.output

    return go

"""What every benchmark shares: a row of results (what, deck, measured, target), printed as a table
by hand or as JSON for `bench/readme.py`, which rewrites the README's benchmark table from all of
them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass
class Row:
    what: str  # the benchmark and what is measured
    deck: str  # the deck (input) it was measured on
    measured: str
    target: str = ""


def report(rows: list[Row]) -> None:
    """A table on the terminal; with --json, the rows for bench/readme.py."""
    if "--json" in sys.argv:
        print(json.dumps([asdict(r) for r in rows]))
        return
    width = max(len(r.what) for r in rows) + 2
    for r in rows:
        print(f"{r.what:<{width}}{r.measured:>28}  {r.target:<24}  [{r.deck}]")


def without_json(argv: list[str]) -> list[str]:
    """The command-line arguments a benchmark parses itself (--json is report's)."""
    return [a for a in argv if a != "--json"]


def scratch_workspace(tmp: str | Path) -> Path:
    """A copy of the repository's games (rules, cards, templates) to edit and build in."""
    root = Path(tmp) / "ws"
    for part in ("rules", "cards", "templates"):
        shutil.copytree(REPO / part, root / part)
    return root


def compiled(code_root: Path) -> None:
    """The tree's cardgen compiled to bytecode first, as an installed cardgen is: where
    PYTHONDONTWRITEBYTECODE is set, every run would otherwise compile every module it imports
    (about 0.3 s of cpu) and time that instead."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(code_root / "cardgen")],
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""},
    )


@contextmanager
def worktree(revision: str) -> Iterator[Path]:
    """Another revision of this repository checked out beside it (a git worktree), removed after."""
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "other"
        subprocess.run(
            ["git", "-C", str(REPO), "worktree", "add", "-q", "--detach", str(other), revision],
            check=True,
        )
        try:
            yield other
        finally:
            subprocess.run(
                ["git", "-C", str(REPO), "worktree", "remove", "--force", str(other)], check=False
            )

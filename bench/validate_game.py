"""Benchmark (run by hand): `cardgen validate GAME`, whole process, median of paired runs, side by
side with another revision of cardgen (a git worktree), so a shared, noisy machine compares ratios,
not times.

Usage: python bench/validate_game.py [GAME] [--against REV] [--runs N]   (defaults: power-trip,
HEAD~1, 9)"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from common import Row, report, without_json, worktree  # noqa: E402


def once(code_root: Path, game: str) -> float:
    started = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.path.insert(0, sys.argv[1]); from cardgen.cli.main import run; "
            "sys.argv = ['cardgen', '--root', sys.argv[2], 'validate', sys.argv[3]]; run()",
            str(code_root),
            str(REPO),
            game,
        ],
        capture_output=True,
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="power-trip")
    parser.add_argument("--against", default="HEAD~1")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args(without_json(sys.argv[1:]))
    with worktree(args.against) as other:
        ours, theirs = [], []
        for _ in range(args.runs):  # paired: each round runs both, so load affects them alike
            theirs.append(once(other, args.game))
            ours.append(once(REPO, args.game))
    a, b = statistics.median(theirs), statistics.median(ours)
    report(
        [
            Row(
                f"`validate_game`: `cardgen validate`, paired against revision {args.against}",
                f"{args.game} with its templates and rulebook",
                f"{b:.3f} s vs {a:.3f} s ({b / a:.2f}x)",
                "≤ 1.10x",
            )
        ]
    )


if __name__ == "__main__":
    main()

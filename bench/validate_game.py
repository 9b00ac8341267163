"""Benchmark (run by hand): `cardgen validate GAME`, whole process, median of paired runs, side by side with
another revision of cardgen (a git worktree), so a shared, noisy machine compares ratios, not times.

Usage: python bench/validate_game.py [GAME] [--against REV] [--runs N]   (defaults: power-trip, HEAD~1, 9)"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def once(code_root: Path, game: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); from cardgen.cli import run; "
                    "sys.argv = ['cardgen', '--root', sys.argv[2], 'validate', sys.argv[3]]; run()",
                    str(code_root), str(REPO), game], capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="power-trip")
    parser.add_argument("--against", default="HEAD~1")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "other"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "-q", "--detach", str(other), args.against],
                       check=True)
        try:
            ours, theirs = [], []
            for _ in range(args.runs):  # paired: each round runs both, so load affects them alike
                theirs.append(once(other, args.game))
                ours.append(once(REPO, args.game))
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(other)], check=False)
    a, b = statistics.median(theirs), statistics.median(ours)
    print(f"{'cardgen validate ' + args.game + ', whole process':<44}{'median':>10}")
    print(f"{args.against:<44}{a:>9.3f}s")
    print(f"{'this checkout':<44}{b:>9.3f}s")
    print(f"{'ratio':<44}{b / a:>9.2f}x  (target ≤ 1.10)")


if __name__ == "__main__":
    main()

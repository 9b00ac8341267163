"""Benchmark (run by hand): whole `cardgen` commands, warm, side by side with another revision (a
git worktree), paired run by run, so a shared, noisy machine compares ratios, not times.

Each revision gets a workspace of its own (a copy of the repository's games): caches and outputs
never mix. Every command runs once to warm up, then `--runs` times alternately; the table gives
the medians and their ratio (this revision over the other).

Usage: python bench/paired.py [--against REV] [--runs N] [--game GAME] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from common import Row, report, scratch_workspace, without_json, worktree  # noqa: E402

# what is timed: a name, then the command line after `cardgen --root WS`
COMMANDS: dict[str, list[str]] = {
    "validate": ["validate", "{game}"],
    "sheets": ["sheets", "{game}"],
    "build": ["build", "{game}"],
    "rulebook": ["rulebook", "{game}"],
    "packs": ["packs", "{game}", "--seed", "1"],
    "png": ["export", "{game}", "--png"],
}

# the entry point moved with the house (cardgen.cli:run before, cardgen.cli.main:run after)
LAUNCH = (
    "import sys; sys.path.insert(0, sys.argv[1]); sys.argv = ['cardgen', *sys.argv[2:]]\n"
    "try:\n    from cardgen.cli.main import run\n"
    "except ImportError:\n    from cardgen.cli import run\n"
    "run()"
)


def once(code_root: Path, ws: Path, args: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", LAUNCH, str(code_root), "--root", str(ws), *args],
        capture_output=True,
        text=True,
    )
    took = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"{code_root}: {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", default="HEAD~1")
    parser.add_argument("--ours", help="a revision to measure instead of the working tree")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--game", default="power-trip")
    parser.add_argument("--only", nargs="*", choices=list(COMMANDS))
    args = parser.parse_args(without_json(sys.argv[1:]))
    chosen = args.only or list(COMMANDS)
    rows = []
    with ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        other = stack.enter_context(worktree(args.against))
        ours = stack.enter_context(worktree(args.ours)) if args.ours else REPO
        ours_ws, theirs_ws = scratch_workspace(Path(tmp) / "a"), scratch_workspace(Path(tmp) / "b")
        for name in chosen:
            command = [a.format(game=args.game) for a in COMMANDS[name]]
            once(other, theirs_ws, command), once(ours, ours_ws, command)  # warm up
            mine, theirs = [], []
            for _ in range(args.runs):  # paired: each round runs both, so load hits both alike
                theirs.append(once(other, theirs_ws, command))
                mine.append(once(ours, ours_ws, command))
            a, b = statistics.median(theirs), statistics.median(mine)
            rows.append(
                Row(
                    f"`{' '.join(command)}`, warm, {args.ours or 'this tree'} paired against "
                    f"{args.against}",
                    f"{args.game} (the repository's copy)",
                    f"{b:.2f} s vs {a:.2f} s ({b / a:.2f}x)",
                    "≤ 1.10x",
                )
            )
    report(rows)


if __name__ == "__main__":
    main()

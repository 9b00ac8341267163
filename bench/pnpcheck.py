"""Benchmark (run by hand): `cardgen pnp-check GAME`, the publishing check reading the
print-and-play set back from its files (every page's content parsed, the card PDFs rasterised for
their toner), side by side with another revision, paired run by run: wall and cpu of the whole
process. Each revision checks the set it wrote itself (a build first, untimed); issue 35's cold
build runs this check once. Prints a table.

Usage: python bench/pnpcheck.py [--against REV] [--runs N] [--game GAME]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from common import Row, compiled, report, scratch_workspace, without_json, worktree  # noqa: E402
from firstbuild import launched  # noqa: E402


def run(code_root: Path, ws: Path, args: list[str], said: list[str]) -> tuple[float, float]:
    """One run of cardgen from `code_root`: wall and cpu seconds, and what it printed."""
    took, cpu, out = launched(code_root, ws, args)
    said.append(out)
    return took, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", default="main")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--game", default="power-trip")
    args = parser.parse_args(without_json(sys.argv[1:]))
    with ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        other = stack.enter_context(worktree(args.against))
        compiled(other)
        compiled(REPO)
        ours_ws, theirs_ws = scratch_workspace(Path(tmp) / "a"), scratch_workspace(Path(tmp) / "b")
        for code, ws in ((other, theirs_ws), (REPO, ours_ws)):
            run(code, ws, ["build", args.game, "--no-png"], [])  # the set to check
        mine: list[tuple[float, float]] = []
        theirs: list[tuple[float, float]] = []
        loads: list[float] = []
        ours_said: list[str] = []
        theirs_said: list[str] = []
        for _ in range(args.runs):  # paired: each round runs both, so load hits both alike
            loads.append(os.getloadavg()[0])
            theirs.append(run(other, theirs_ws, ["pnp-check", args.game], theirs_said))
            mine.append(run(REPO, ours_ws, ["pnp-check", args.game], ours_said))
        loads.append(os.getloadavg()[0])
    same = ours_said == theirs_said
    rows = []
    for what, pick in (("wall", 0), ("cpu", 1)):
        a = statistics.median(t[pick] for t in theirs)
        b = statistics.median(m[pick] for m in mine)
        ratios = sorted(m[pick] / t[pick] for m, t in zip(mine, theirs))
        rows.append(
            Row(
                f"`pnp-check {args.game}`, {what}, this tree against {args.against}"
                + ("" if same else " (the checklists differ!)"),
                f"{args.game} (the repository's copy); load average "
                f"{min(loads):.1f}–{max(loads):.1f} on {os.cpu_count()} cores",
                f"{b:.2f} s vs {a:.2f} s ({b / a:.2f}x; paired ratios "
                + " ".join(f"{r:.2f}" for r in ratios)
                + ")",
            )
        )
    report(rows)


if __name__ == "__main__":
    main()

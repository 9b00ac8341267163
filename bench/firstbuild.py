"""Benchmark (run by hand): the first build a newcomer sees, `cardgen build GAME` cold (no output/,
so no cache), side by side with another revision, paired run by run, with the cpu time of every
process the build started (forked typesetters and pools included) and the machine's load.

A forked helper that outlives its parent is reparented to this process (a child subreaper, Linux),
which waits for it, so its cpu time is counted too. Target (issue 35): ≤ 3 s wall on 2 cores.

Usage: python bench/firstbuild.py [--against REV] [--runs N] [--game GAME] [--command build ...]
"""

from __future__ import annotations

import argparse
import ctypes
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from common import Row, compiled, report, scratch_workspace, without_json, worktree  # noqa: E402
from paired import LAUNCH  # noqa: E402

PR_SET_CHILD_SUBREAPER = 36


def subreaper() -> bool:
    """Become the reaper of every orphaned descendant (Linux), so its cpu time counts."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def once(code_root: Path, ws: Path, args: list[str]) -> tuple[float, float]:
    """One cold run: wall and cpu seconds (user + system, every process it started)."""
    shutil.rmtree(ws / "output", ignore_errors=True)
    took, cpu, _ = launched(code_root, ws, args)
    return took, cpu


def launched(code_root: Path, ws: Path, args: list[str]) -> tuple[float, float, str]:
    """One run of cardgen from `code_root` on workspace `ws`: wall and cpu seconds (every process
    it started, helpers it left behind included) and what it printed."""
    before = os.times()
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", LAUNCH, str(code_root), "--root", str(ws), *args],
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),
    )
    took = time.perf_counter() - started
    while True:  # the helpers it left behind, reparented here: wait for their ends
        try:
            os.wait()
        except ChildProcessError:
            break
    after = os.times()
    if done.returncode not in (0, 1):
        raise SystemExit(f"{code_root}: {' '.join(args)} exited {done.returncode}: {done.stderr}")
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return took, cpu, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", default="main")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--game", default="power-trip")
    parser.add_argument("--command", nargs="*", default=["build"])
    args = parser.parse_args(without_json(sys.argv[1:]))
    reaping = subreaper()
    command = [*args.command, args.game]
    with ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        other = stack.enter_context(worktree(args.against))
        compiled(other), compiled(REPO)
        ours_ws, theirs_ws = scratch_workspace(Path(tmp) / "a"), scratch_workspace(Path(tmp) / "b")
        mine, theirs, loads = [], [], []
        for _ in range(args.runs):  # paired: each round runs both, so load hits both alike
            loads.append(os.getloadavg()[0])
            theirs.append(once(other, theirs_ws, command))
            mine.append(once(REPO, ours_ws, command))
        loads.append(os.getloadavg()[0])
    rows = []
    for what, pick in (("wall", 0), ("cpu", 1)):
        a = statistics.median(t[pick] for t in theirs)
        b = statistics.median(t[pick] for t in mine)
        ratios = sorted(m[pick] / t[pick] for m, t in zip(mine, theirs))
        rows.append(
            Row(
                f"`{' '.join(command)}`, cold, {what}{'' if reaping else ' (helpers not counted)'}"
                f", this tree against {args.against}",
                f"{args.game} (the repository's copy); load average "
                f"{min(loads):.1f}–{max(loads):.1f} on {os.cpu_count()} cores",
                f"{b:.2f} s vs {a:.2f} s ({b / a:.2f}x; paired ratios "
                + " ".join(f"{r:.2f}" for r in ratios)
                + ")",
                "≤ 3 s wall on 2 cores" if pick == 0 else "",
            )
        )
    report(rows)


if __name__ == "__main__":
    main()

"""Benchmark (run by hand): `cardgen sheet pull` of a 1,000-row sheet (CSV, XLSX, ODS), then
validating the game (the one call `sheet pull` makes), warm (in one process, after a first run),
median of N; and the pushes to each format.

With `--against REV`, each of those is timed side by side with another revision (a git worktree):
a child process per revision and round, alternately (each warm, then the median of --runs), so a
shared, noisy machine compares ratios, not times.

And a saved 300-row sheet declared in game.yaml: how long until `sheets --watch` has written the
print sheets PDF.

Usage: python bench/sheet.py [--rows N] [--runs N] [--watch-rows N] [--against REV] [--rounds N]
       (defaults: 1000, 5, 300, none, 5)"""

from __future__ import annotations

import argparse
import csv
import io
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO))

from common import Row, report, without_json, worktree  # noqa: E402

from cardgen.core.workspace import Workspace  # noqa: E402
from cardgen.jobs.sheet import pull_sheet, push_sheet  # noqa: E402


def workspace(tmp: Path, rows: int) -> Workspace:
    """The clean fixture game with `rows` cards in four files."""
    root = tmp / "ws"
    shutil.copytree(REPO / "tests/fixtures/ws/rules/clean", root / "rules/clean")
    folder = root / "cards/clean"
    folder.mkdir(parents=True)
    per = rows // 4
    for f in range(4):
        lines = []
        for i in range(per):
            n = f * per + i
            faction = "Red" if n % 2 else "Blue"
            lines.append(
                f"# card {n}\n- name: Card {n}\n  cost: {'R' * (1 + n % 3)}\n  faction: {faction}\n"
                f"  kind: Unit\n  text: |-\n    Guard\n    When this enters, deal {n % 4} damage.\n"
                f"  power: {n % 9}\n  rarity: common\n"
            )
        (folder / f"set{f}.yaml").write_text("\n".join(lines), encoding="utf-8")
    return Workspace(root)


def edited_csv(ws: Workspace, cells: int) -> Path:
    """The pushed CSV with `cells` power values changed."""
    sheet = ws.root / "cards.csv"
    push_sheet(ws, "clean", sheet)
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8-sig"), newline="")))
    column = [h.removesuffix(" *") for h in rows[0]].index("power")
    for r in range(1, cells + 1):
        rows[r * 7][column] = str((int(rows[r * 7][column]) + 1) % 9)
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    edited = ws.root / "edited.csv"
    edited.write_text(out.getvalue(), encoding="utf-8", newline="")
    return edited


def save_to_pdf(tmp: Path, rows: int, saves: int) -> list[float]:
    """Seconds from each save of the game's declared sheet (one cell edited) to the print sheets
    written by `cardgen sheets --watch` (file times: the sheet's against the PDF's)."""
    ws = workspace(tmp, rows)
    shutil.copytree(REPO / "tests/fixtures/ws/templates/clean", ws.root / "templates/clean")
    sheet = ws.root / "cards.csv"
    push_sheet(ws, "clean", sheet)
    model = ws.model_path("clean")
    model.write_text(model.read_text() + "sheet:\n  file: cards.csv\n")
    command = [sys.executable, "-m", "cardgen", "--root", str(ws.root), "sheets", "clean"]
    subprocess.run(command, capture_output=True, cwd=tmp)  # the caches a first run leaves
    pdf = ws.output_dir("clean") / "sheets.pdf"
    log = tmp / "watch.log"
    took = []
    with log.open("w") as out:
        proc = subprocess.Popen(
            [*command, "--watch"], stdout=out, stderr=subprocess.STDOUT, cwd=tmp
        )
        try:
            deadline = time.monotonic() + 60
            while "watching" not in log.read_text() and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(0.5)
            for i in range(saves):
                before = pdf.stat().st_mtime_ns
                text = sheet.read_text(encoding="utf-8-sig")
                sheet.write_text(
                    text.replace("When this enters, deal", f"When this enters ({i}), deal", 1)
                    if i == 0
                    else text.replace(f"({i - 1})", f"({i})", 1),
                    encoding="utf-8",
                )
                deadline = time.monotonic() + 30
                while pdf.stat().st_mtime_ns == before and time.monotonic() < deadline:
                    time.sleep(0.01)
                took.append((pdf.stat().st_mtime_ns - sheet.stat().st_mtime_ns) / 1e9)
                time.sleep(1.0)
        finally:
            proc.terminate()
            proc.wait(10)
    return took


def timed(fn, runs: int) -> float:  # type: ignore[no-untyped-def]
    fn()  # warm: imports, caches
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


# one revision's push or pull, warm, in a child process: the median of RUNS, printed as JSON
CHILD = """
import json, statistics, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from cardgen.core.workspace import Workspace
from cardgen.jobs.sheet import pull_sheet, push_sheet
ws, op, target, runs = Workspace(Path(sys.argv[2])), sys.argv[3], sys.argv[4], int(sys.argv[5])
def go():
    if op == "push":
        push_sheet(ws, "clean", Path(target))
    else:
        pull_sheet(ws, "clean", target)
go()
times = []
for _ in range(runs):
    started = time.perf_counter()
    go()
    times.append(time.perf_counter() - started)
print(json.dumps(statistics.median(times)))
"""


def child(code: Path, ws: Workspace, op: str, target: Path, runs: int) -> float:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(code), str(ws.root), op, str(target), str(runs)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(json.loads(done.stdout.strip().splitlines()[-1]))


def paired(
    other: Path, ours: Workspace, theirs: Workspace, op: str, fmt: str, runs: int, rounds: int
) -> tuple[float, float]:
    """(this tree, the other revision): medians over `rounds` alternating rounds of children. A
    pull reads the same sheet (pushed by this tree) in both."""
    mine, their = [], []
    for _ in range(rounds):
        for code, ws, out in ((other, theirs, their), (REPO, ours, mine)):
            target = (ws if op == "push" else ours).root / f"cards.{fmt}"
            out.append(child(code, ws, op, target, runs))
    return statistics.median(mine), statistics.median(their)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--watch-rows", type=int, default=300)
    parser.add_argument("--against", help="a revision to time side by side with this tree")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(without_json(sys.argv[1:]))
    deck = f"clean fixture model, {args.rows} cards in 4 files"
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        ws = workspace(Path(tmp), args.rows)
        if args.against:
            theirs = workspace(Path(tmp) / "theirs", args.rows)
            with worktree(args.against) as other:
                for op, target in (("push", ""), ("pull", "≤ 1 s warm")):
                    for fmt in ("csv", "xlsx", "ods"):
                        if op == "push":
                            push_sheet(theirs, "clean", theirs.root / f"cards.{fmt}")
                        mine, their = paired(other, ws, theirs, op, fmt, args.runs, args.rounds)
                        what = f"sheet {op} {'--to ' * (op == 'push')}.{fmt}"
                        rows.append(
                            Row(
                                f"{what}{' + validate' * (op == 'pull')}, warm, paired against "
                                f"{args.against} ({args.rounds} rounds)",
                                deck,
                                f"{mine:.2f} s vs {their:.2f} s ({mine / their:.2f}x)",
                                target,
                            )
                        )
            report(rows)
            return
        for fmt in ("csv", "xlsx", "ods"):
            target = ws.root / f"cards.{fmt}"
            seconds = timed(lambda t=target: push_sheet(ws, "clean", t), args.runs)
            rows.append(Row(f"sheet push --to .{fmt}", deck, f"{seconds:.2f} s", ""))
        for fmt in ("csv", "xlsx", "ods"):
            sheet = str(ws.root / f"cards.{fmt}")
            seconds = timed(lambda s=sheet: pull_sheet(ws, "clean", s), args.runs)
            rows.append(
                Row(
                    f"sheet pull .{fmt} (no change) + validate",
                    deck,
                    f"{seconds:.2f} s",
                    "≤ 1 s warm",
                )
            )
        edited = edited_csv(ws, 10)
        original = {p: p.read_bytes() for p in (ws.root / "cards/clean").glob("*.yaml")}

        def pull_edits() -> None:
            for path, data in original.items():
                path.write_bytes(data)
            _, plan = pull_sheet(ws, "clean", str(edited))
            assert len(plan.changes) == 10, plan.changes

        seconds = timed(pull_edits, args.runs)
        rows.append(
            Row(
                "sheet pull .csv (10 cells) + write + validate",
                deck,
                f"{seconds:.2f} s",
                "≤ 1 s warm",
            )
        )
        took = save_to_pdf(Path(tmp) / "watch", args.watch_rows, args.runs)
        rows.append(
            Row(
                "`sheets --watch`: the print sheets PDF written after a save of the declared "
                f"sheet (one cell), median of {len(took)}",
                f"clean fixture model, {args.watch_rows} cards, cards.csv declared in game.yaml",
                f"{statistics.median(took):.2f} s (worst {max(took):.2f} s)",
                "≤ 1 s",
            )
        )
    report(rows)


if __name__ == "__main__":
    main()

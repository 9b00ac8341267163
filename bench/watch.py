"""Benchmark: `cardgen sheets power-trip --watch` and `build … --watch` on a scratch copy: how long
after a card file is saved the outputs are written (the loop's own report, which counts from the
file's modification time). Targets: a card save ≤ 0.2 s (issue 18); a template save ≤ 0.5 s for
the sheets, ≤ 1.5 s for everything but the rulebook (issue 30). Run by hand; prints a table.

    .venv/bin/python bench/watch.py [--against REV] [--rows template|card|all]
                                    [--command sheets|build|all]

With --against, each row is measured on that revision too (a git worktree), the two runs one after
the other, and both figures shown side by side (the machine may be shared: compare the ratio; the
deck column ends with the 1-minute load average before, between and after the two runs)."""

from __future__ import annotations

import argparse
import os
import re
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


def _reported(log: Path, saves: int, limit: float = 120.0) -> None:
    """Wait until the loop has reported the rebuilds of `saves` saves (and a rulebook it said is
    being typeset), so that each save is measured alone however slow the machine is."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        text = log.read_text()
        if len(re.findall(r"after the save(?:, its findings [0-9.]+ s)?; watching", text)) >= saves:
            return
        time.sleep(0.1)


FINDINGS: list[float] = []  # seconds from a save to the findings, where they came after the PDF


def after_saves(
    command: str, file: str, text: str, folder: str = "cards", code: Path = REPO
) -> list[tuple[float, float | None]]:
    """Seconds from each of five saves of a card file (an edit of `text` in it; `folder`:
    "templates" for a template) to the written outputs, as `cardgen COMMAND --watch` reports them,
    and to the typeset rulebook when it had to be typeset again. `code`: the tree whose cardgen
    runs."""
    launch = [sys.executable, "-c", LAUNCH, str(code)]
    with tempfile.TemporaryDirectory() as tmp:
        root = scratch_workspace(tmp)
        subprocess.run(
            [*launch, "--root", str(root), command, "power-trip"],
            capture_output=True,
            cwd=tmp,
        )  # the caches a designer's first run leaves
        log = Path(tmp) / "watch.log"
        with log.open("w") as out:
            proc = subprocess.Popen(
                [*launch, "--root", str(root), command, "power-trip", "--watch"],
                cwd=tmp,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
            try:
                deadline = time.monotonic() + 180
                while "watching" not in log.read_text() and time.monotonic() < deadline:
                    time.sleep(0.1)
                time.sleep(0.5)
                cards = root / folder / "power-trip" / file
                time.sleep(8 if folder == "templates" else 0)  # the loop's warm-up, once
                before = text
                for i in range(5):
                    now = cards.read_text()
                    if folder == "templates":  # a value changed: a colour's digit, a length's
                        after = before[:-3] + str(i) + before[-2:]
                        cards.write_text(now.replace(before, after, 1))
                        before = after
                    else:
                        cards.write_text(
                            now.replace(text, f"{text} ({i})", 1)
                            if i == 0
                            else now.replace(f"({i - 1})", f"({i})", 1)
                        )
                    _reported(log, i + 1)  # on a loaded machine a rebuild may outlast the pause
                    time.sleep(3 if command == "build" else 1.5)
            finally:
                proc.terminate()
                proc.wait(10)
        # each save: "written X s after the save; watching…", or first "…; the rulebook is being
        # typeset…" and then the line of the typeset book: (everything else, the book) in seconds
        # (a live sheet run writes its PDF before its findings: "written X s after the save, its
        # findings Y s; …": X is the PDF's, and Y is kept in FINDINGS)
        after: list[tuple[float, float | None]] = []
        for seconds, findings, then in re.findall(
            r"written ([0-9.]+) s after the save(?:, its findings ([0-9.]+) s)?; (\w+)",
            log.read_text(),
        ):
            if findings:
                FINDINGS.append(float(findings))
            if after and after[-1][1] == -1.0:
                after[-1] = (after[-1][0], float(seconds))
            else:
                after.append((float(seconds), -1.0 if then == "the" else None))
        if not after:
            raise SystemExit("the watch loop reported no rebuild:\n" + log.read_text()[-2000:])
    return after


SCENARIOS = (  # (command, what is written, file saved, text edited in it, what the file is)
    ("sheets", "the print sheets PDF", "front.yaml", 'paper: "#fffcf4"', "the front template"),
    ("build", "everything but the rulebook", "front.yaml", "h: 5.6mm", "the front template"),
    ("sheets", "the print sheets PDF", "dark.yaml", "Kill an Entity", "a card"),
    (
        "build",
        "everything (validation, sheets, PNGs, gallery, report, rulebook, packs)",
        "light.yaml",
        "Deal 1 damage",
        "a card the rulebook does not show",
    ),
    (
        "build",
        "everything but the rulebook",
        "dark.yaml",
        "Kill an Entity",
        "a card the rulebook shows",
    ),
)


def shown(after: list[tuple[float, float | None]]) -> tuple[str, str | None]:
    """'0.42 s (worst 0.51 s)' for the outputs, and for the book typeset again (or None)."""
    first = [a for a, _ in after]
    books = [b for _, b in after if b is not None and b >= 0]
    book = f"{statistics.median(books):.2f} s (worst {max(books):.2f} s)" if books else None
    return f"{statistics.median(first):.2f} s (worst {max(first):.2f} s)", book


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", default=None, help="a revision to measure beside this tree")
    parser.add_argument("--rows", choices=("template", "card", "all"), default="all")
    parser.add_argument(
        "--command", choices=("sheets", "build", "all"), default="all", help="only its rows"
    )
    args = parser.parse_args(without_json(sys.argv[1:]))
    rows = []
    with ExitStack() as stack:
        other = stack.enter_context(worktree(args.against)) if args.against else None
        if other is not None:
            compiled(other), compiled(REPO)
        for command, what, file, text, edited in SCENARIOS:
            folder = "templates" if file == "front.yaml" else "cards"
            if args.rows != "all" and (args.rows == "template") != (folder == "templates"):
                continue
            if args.command not in ("all", command):
                continue
            load = [os.getloadavg()[0]]  # the machine is shared: its load beside each figure
            FINDINGS.clear()
            mine, book = shown(after_saves(command, file, text, folder))
            if FINDINGS:
                mine += f", its findings {statistics.median(FINDINGS):.2f} s"
            load.append(os.getloadavg()[0])
            theirs, their_book = (
                shown(after_saves(command, file, text, folder, other)) if other else (None, None)
            )
            load += [os.getloadavg()[0]] if other else []
            deck = "Power Trip, 288 cards, load " + "/".join(f"{x:.1f}" for x in load)
            target = "≤ 0.2 s"
            if folder == "templates":
                target = "≤ 0.5 s" if command == "sheets" else "≤ 1.5 s"
            against = f" vs {args.against} {theirs}" if theirs else ""
            rows.append(
                Row(
                    f"`{command} --watch`: {what} written after a save of {edited} (median of 5)",
                    deck,
                    mine + against,
                    target,
                )
            )
            if book or their_book:
                rows.append(
                    Row(
                        f"`{command} --watch`: then the rulebook, typeset again, written after "
                        "that save (median of 5)",
                        "Power Trip, 288 cards, 18-page book",
                        f"{book}" + (f" vs {args.against} {their_book}" if other else ""),
                        "WeasyPrint's layout",
                    )
                )
    report(rows)


if __name__ == "__main__":
    main()

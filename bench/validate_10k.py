"""Benchmark: validate a synthetic game of 10,000 distinct cards with templates, so every face is
laid out and checked. Whole process cold (no face cache) and warm (the cache a previous run kept),
and the library's load and check without faces. Targets (issue 18): ≤ 2 s cold, ≤ 1 s warm on 2
cores. Run by hand; prints a table."""

from __future__ import annotations

import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from common import Row, report  # noqa: E402

CARDS = 10_000


def make_workspace(root: Path) -> None:
    shutil.copytree(REPO / "tests" / "fixtures" / "ws" / "rules" / "clean", root / "rules" / "big")
    shutil.copytree(
        REPO / "tests" / "fixtures" / "ws" / "templates" / "clean", root / "templates" / "big"
    )
    (root / "output").mkdir()  # as after a first build: validating then keeps the face cache
    model = root / "rules" / "big" / "game.yaml"
    text = model.read_text().replace("designs: 1, copies: 2", f"designs: {CARDS // 4}, copies: 2")
    text = text.replace(
        "rare: {designs: 1, copies: 1}", f"rare: {{designs: {CARDS // 4}, copies: 1}}"
    )
    text = text.replace("total: 2}", f"total: {CARDS // 2}}}").replace(
        "total: 1}", f"total: {CARDS // 2}}}"
    )
    model.write_text(text)
    cards = root / "cards" / "big"
    cards.mkdir(parents=True)
    per_file = 500
    for f in range(CARDS // per_file):
        lines = []
        for i in range(per_file):
            n = f * per_file + i
            faction, prefix = ("Red", "R") if n % 2 == 0 else ("Blue", "U")
            unit = n % 3 != 0
            name = {0: "Tide Caller", 1: "Ember Guard", 2: "Firestorm"}.get(
                n, f"Card {n:05d}"
            )  # in the rulebook
            lines += [
                f"- name: {name}",
                f"  cost: {'RU'[n % 2] * (1 + n % 4)}",
                f"  faction: {faction}",
                f"  kind: {'Unit' if unit else 'Spell'}",
                "  text: |-\n    Guard\n    When this enters, deal 1 damage to a unit. Pay [R] to "
                "draw a card.",
                *([f"  power: {n % 8}"] if unit else []),
                f"  rarity: {'common' if n % 4 < 2 else 'rare'}",
                f"  number: {prefix}{n // 2 + 1}/{CARDS // 2}",
            ]
        (cards / f"set-{f:02d}.yaml").write_text("\n".join(lines) + "\n")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_workspace(root)
        sys.path.insert(0, str(REPO))
        from cardgen.core.workspace import Workspace
        from cardgen.project.check import check_game

        ws = Workspace.find(root)
        times = []
        for _ in range(5):
            t = time.perf_counter()
            result = check_game(ws, "big")
            times.append(time.perf_counter() - t)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

        def whole_process() -> tuple[float, int]:
            t = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, "-m", "cardgen", "--root", str(root), "validate", "big"],
                capture_output=True,
                text=True,
            )
            return time.perf_counter() - t, proc.returncode

        shutil.rmtree(root / "output" / "big", ignore_errors=True)
        cold, code = whole_process()
        warm = statistics.median(whole_process()[0] for _ in range(3))
        deck = (
            f"{len(result.catalog):,} distinct generated cards with the fixture game's templates "
            "and rulebook "
            f"({len(result.findings)} findings, exit {code})"
        )
        report(
            [
                Row(
                    "`validate_10k`: load and check, library (no faces), median of 5",
                    deck,
                    f"{statistics.median(times):.2f} s ({peak:.0f} MB peak)",
                ),
                Row(
                    "`validate_10k`: `cardgen validate`, every face laid out, cold / warm (face "
                    "cache)",
                    deck,
                    f"{cold:.2f} s / {warm:.2f} s",
                    "≤ 2 s cold, ≤ 1 s warm",
                ),
            ]
        )


if __name__ == "__main__":
    main()

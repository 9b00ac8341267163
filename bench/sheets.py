"""Benchmark: print sheets. Whole-process times (median of 5) for the Power Trip print run and for
300 synthetic poker cards on A4 3 x 3, a rebuild after one card changes, PNG export speed, and PDF
size per unique face. Targets (issue 4): print run ≤ 0.8 s; 300 cards ≥ 10x faster than protograf's
8.7 s anchor; rebuild ≤ 0.3 s. Run by hand; prints a table."""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from common import Row, report, scratch_workspace  # noqa: E402


def timed(args: list[str], root: Path, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "cardgen", "--root", str(root), *args], capture_output=True
        )
        if (
            done.returncode > 1
        ):  # 1 only says the game's data has errors (Power Trip's do); the output is written
            raise SystemExit(done.stderr.decode())
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def synthetic(root: Path, n: int = 300) -> None:
    shutil.copytree(
        REPO / "tests" / "fixtures" / "ws" / "rules" / "clean", root / "rules" / "synth"
    )
    shutil.copytree(
        REPO / "tests" / "fixtures" / "ws" / "templates" / "clean", root / "templates" / "synth"
    )
    shutil.copytree(REPO / "templates" / "_shared", root / "templates" / "_shared")
    (root / "fonts").mkdir()
    (root / "cards" / "synth").mkdir(parents=True)
    lines = []
    for i in range(n):
        lines += [
            f"- name: Synthetic {i:03d}",
            f"  cost: {'RU'[i % 2] * (1 + i % 3)}",
            f"  faction: {'Red' if i % 2 == 0 else 'Blue'}",
            "  kind: Unit",
            f'  text: "Guard\\nWhen this enters, deal {i % 5} damage. Pay [R] to draw {i % 3} '
            'cards."',
            f"  power: {i % 9}",
        ]
    (root / "cards" / "synth" / "cards.yaml").write_text("\n".join(lines) + "\n")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ws = scratch_workspace(tmp)
        (ws / "fonts").mkdir()
        out = Path(tmp) / "s.pdf"
        run = timed(["sheets", "power-trip", "--out", str(out)], ws)
        size = out.stat().st_size
        dark = ws / "cards" / "power-trip" / "dark.yaml"
        dark.write_text(dark.read_text().replace("Kill an Entity.", "Kill an Entity!", 1))
        rebuild = timed(["sheets", "power-trip", "--out", str(out)], ws, runs=1)
        synth = Path(tmp) / "synth"
        synthetic(synth)
        s300 = timed(
            [
                "sheets",
                "synth",
                "--copies",
                "one",
                "--duplex",
                "none",
                "--out",
                str(Path(tmp) / "y.pdf"),
            ],
            synth,
        )
        t = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "cardgen",
                "--root",
                str(ws),
                "export",
                "power-trip",
                "--png",
                "--out",
                str(Path(tmp) / "png"),
            ],
            check=True,
            capture_output=True,
        )
        png_s = time.perf_counter() - t
        pngs = len(list((Path(tmp) / "png").glob("*.png")))
        subprocess.run(
            [sys.executable, "-m", "cardgen", "--root", str(ws), "build", "power-trip"],
            capture_output=True,
        )
        build_warm = timed(["build", "power-trip"], ws, runs=3)
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", "import cardgen.cli.main, reportlab.pdfgen.canvas"], check=True
        )
        imports = time.perf_counter() - t
    faces = pngs  # every unique face (fronts and backs), as the PNG export writes them
    pt = "Power Trip, 288 cards, 212 designs (no art)"
    report(
        [
            Row(
                "`sheets`: print run with duplex backs, face cache warm",
                pt,
                f"{run:.2f} s ({imports:.2f} s of it Python and imports)",
                "≤ 0.8 s",
            ),
            Row("`sheets`: rebuild after one card changed", pt, f"{rebuild:.2f} s", "≤ 0.3 s"),
            Row(
                "`sheets`: one of each, no duplex",
                "300 of cardgen's own synthetic poker cards (one-line texts)",
                f"{s300:.2f} s",
                "≤ 0.87 s",
            ),
            Row(
                "`export --png` at 300 dpi, 2 cores, no PNG cache",
                f"Power Trip, {pngs} faces",
                f"{png_s:.2f} s: {pngs / png_s:.0f} faces/s",
                "≥ 100 faces/s",
            ),
            Row(
                "`cardgen build`, second run (faces, PNGs and the rulebook from the cache)",
                pt,
                f"{build_warm:.2f} s",
                "≤ 3 s",
            ),
            Row(
                "`sheets`: PDF size per unique face", pt, f"{size / faces / 1024:.1f} KB", "≤ 20 KB"
            ),
        ]
    )


if __name__ == "__main__":
    main()

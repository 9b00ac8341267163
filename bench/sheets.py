"""Benchmark: print sheets. Whole-process times (median of 5) for the Power Trip print run and for 300 synthetic
poker cards on A4 3 x 3, a rebuild after one card changes, PNG export speed, and PDF size per unique face.
Targets (issue 4): print run ≤ 0.8 s; 300 cards ≥ 10x faster than protograf's 8.7 s anchor; rebuild ≤ 0.3 s.
Run by hand; prints a table."""
from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def timed(args: list[str], root: Path, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "cardgen", "--root", str(root), *args], capture_output=True)
        if done.returncode > 1:  # 1 only says the game's data has errors (Power Trip's do); the output is written
            raise SystemExit(done.stderr.decode())
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def synthetic(root: Path, n: int = 300) -> None:
    shutil.copytree(REPO / "tests" / "fixtures" / "ws" / "rules" / "clean", root / "rules" / "synth")
    shutil.copytree(REPO / "tests" / "fixtures" / "ws" / "templates" / "clean", root / "templates" / "synth")
    shutil.copytree(REPO / "templates" / "_shared", root / "templates" / "_shared")
    (root / "fonts").mkdir()
    (root / "cards" / "synth").mkdir(parents=True)
    lines = []
    for i in range(n):
        lines += [f"- name: Synthetic {i:03d}", f"  cost: {'RU'[i % 2] * (1 + i % 3)}",
                  f"  faction: {'Red' if i % 2 == 0 else 'Blue'}", "  kind: Unit",
                  f"  text: \"Guard\\nWhen this enters, deal {i % 5} damage. Pay [R] to draw {i % 3} cards.\"",
                  f"  power: {i % 9}"]
    (root / "cards" / "synth" / "cards.yaml").write_text("\n".join(lines) + "\n")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        for part in ("rules", "cards", "templates"):
            shutil.copytree(REPO / part, ws / part)
        (ws / "fonts").mkdir()
        out = Path(tmp) / "s.pdf"
        run = timed(["sheets", "power-trip", "--out", str(out)], ws)
        size = out.stat().st_size
        dark = ws / "cards" / "power-trip" / "dark.yaml"
        dark.write_text(dark.read_text().replace("Kill an Entity.", "Kill an Entity!", 1))
        rebuild = timed(["sheets", "power-trip", "--out", str(out)], ws, runs=1)
        synth = Path(tmp) / "synth"
        synthetic(synth)
        s300 = timed(["sheets", "synth", "--copies", "one", "--duplex", "none", "--out", str(Path(tmp) / "y.pdf")], synth)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cardgen", "--root", str(ws), "export", "power-trip", "--png", "--out",
                        str(Path(tmp) / "png")], check=True, capture_output=True)
        png_s = time.perf_counter() - t
        pngs = len(list((Path(tmp) / "png").glob("*.png")))
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import cardgen.cli, reportlab.pdfgen.canvas"], check=True)
        imports = time.perf_counter() - t
    faces = 199 + 2
    print(f"{'what':<58}{'result':>12}{'target':>12}")
    print(f"{'Power Trip print run, fronts + duplex backs (whole process)':<58}{run:>10.2f} s{'≤ 0.8 s':>12}")
    print(f"{'  of which Python + imports':<58}{imports:>10.2f} s")
    print(f"{'rebuild after one card changed (whole process)':<58}{rebuild:>10.2f} s{'≤ 0.3 s':>12}")
    print(f"{'300 synthetic poker cards, A4 3 x 3 (whole process)':<58}{s300:>10.2f} s{'≤ 0.87 s':>12}")
    print(f"{'PNG export at 300 dpi, 2 cores':<58}{pngs / png_s:>8.1f} /s ({pngs} faces)")
    print(f"{'PDF size per unique face (no art)':<58}{size / faces / 1024:>9.1f} KB{'≤ 20 KB':>12}")


if __name__ == "__main__":
    main()

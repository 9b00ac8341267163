"""Benchmark: build the Power Trip rulebook (whole process), cold (no face or figure cache) and
warm, and with the card gallery appendix. Targets: Power Trip's rulebook cold in ≤ 3 s on 2 cores
(issue 17); the 32-page book with the gallery in ≤ 4 s (issue 18). Run by hand."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

from pypdf import PdfReader

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from common import Row, report  # noqa: E402


def run(*args: str) -> tuple[float, float, int]:
    """Wall and cpu seconds (the process's user + system) of one `rulebook`, and its pages."""
    out = Path("/tmp/cardgen-bench-rulebook.pdf")
    before = os.times()
    t = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardgen",
            "--root",
            str(REPO),
            "rulebook",
            "power-trip",
            "--out",
            str(out),
            *args,
        ],
        capture_output=True,
    )
    if done.returncode > 1:  # 1: the book was built with findings
        raise SystemExit(done.stderr.decode())
    took = time.perf_counter() - t
    after = os.times()
    cpu = (
        after.children_user - before.children_user + after.children_system - before.children_system
    )
    return took, cpu, len(PdfReader(io.BytesIO(out.read_bytes())).pages)


def main() -> None:
    import ctypes.util

    subset = "HarfBuzz" if ctypes.util.find_library("harfbuzz-subset") else "fontTools (slower)"
    import shutil

    got = {}
    for label, args, cold in (
        ("Power Trip rulebook, cold (no cache)", (), True),
        ("Power Trip rulebook, warm", (), False),
        ("... with the gallery appendix (+214 faces)", ("--gallery",), False),
        ("... with the gallery appendix, again (warm)", ("--gallery",), False),
    ):
        if cold:
            shutil.rmtree(REPO / "output" / "power-trip" / ".cache", ignore_errors=True)
        got[label] = run(*args)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import weasyprint"], check=True)
    imports = time.perf_counter() - t
    (cold, cold_cpu, pages), (warm, _, _), (gallery, _, gpages), (again, _, _) = got.values()
    report(
        [
            Row(
                "`rulebook`: cold (no cache) / warm",
                f"Power Trip, {pages} pages, 12 figures (subsetter: {subset})",
                f"{cold:.2f} s ({cold_cpu:.2f} s cpu) / {warm:.2f} s "
                f"(WeasyPrint's import {imports:.2f} s)",
                "cold ≤ 3 s",
            ),
            Row(
                "`rulebook --gallery`: first run (214 gallery pictures made) / again",
                f"Power Trip, {gpages} pages",
                f"{gallery:.2f} s / {again:.2f} s",
                "≤ 4 s",
            ),
        ]
    )


if __name__ == "__main__":
    main()

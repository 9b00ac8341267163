"""Benchmark: build the Power Trip rulebook (whole process) with and without the card gallery appendix.
Target: a 30-page rulebook with 10 embedded card faces in ≤ 5 s. Run by hand; prints a table."""
from __future__ import annotations

import io
import subprocess
import sys
import time
from pathlib import Path

from pypdf import PdfReader

REPO = Path(__file__).resolve().parents[1]


def run(*args: str) -> tuple[float, int, int]:
    out = Path("/tmp/cardgen-bench-rulebook.pdf")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cardgen", "--root", str(REPO), "rulebook", "power-trip", "--out", str(out),
                    *args], check=True, capture_output=True)
    took = time.perf_counter() - t
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    images = sum(len(p.images) for p in reader.pages)
    return took, len(reader.pages), images


def main() -> None:
    import ctypes.util

    subset = "HarfBuzz" if ctypes.util.find_library("harfbuzz-subset") else "fontTools (slower)"
    print(f"font subsetter: {subset}")
    print(f"{'book':<40}{'pages':>7}{'images':>8}{'seconds':>9}")
    for label, args in (("Power Trip rulebook", ()), ("... with the card gallery appendix", ("--gallery",))):
        took, pages, images = run(*args)
        print(f"{label:<40}{pages:>7}{images:>8}{took:>9.2f}")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import weasyprint"], check=True)
    print(f"{'(of which importing WeasyPrint)':<55}{time.perf_counter() - t:>9.2f}")


if __name__ == "__main__":
    main()

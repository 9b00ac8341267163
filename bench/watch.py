"""Benchmark: `cardgen sheets power-trip --watch` on a scratch copy: how long after a card file is saved the new
PDF is written (the loop's own report, which counts from the file's modification time). Target (issue 18):
≤ 0.2 s. Run by hand; prints a table."""
from __future__ import annotations

import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from common import Row, report, scratch_workspace  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = scratch_workspace(tmp)
        log = Path(tmp) / "watch.log"
        with log.open("w") as out:
            proc = subprocess.Popen([sys.executable, "-m", "cardgen", "--root", str(root), "sheets", "power-trip",
                                     "--watch"], stdout=out, stderr=subprocess.STDOUT)
            try:
                deadline = time.monotonic() + 60
                while "watching" not in log.read_text() and time.monotonic() < deadline:
                    time.sleep(0.1)
                time.sleep(0.5)
                dark = root / "cards" / "power-trip" / "dark.yaml"
                for i in range(5):
                    text = dark.read_text()
                    dark.write_text(text.replace("Kill an Entity", f"Kill an Entity ({i})", 1) if i == 0 else
                                    text.replace(f"({i - 1})", f"({i})", 1))
                    time.sleep(1.5)
            finally:
                proc.terminate()
                proc.wait(10)
        after = [float(s) for s in re.findall(r"written ([0-9.]+) s after the save", log.read_text())]
    if not after:
        raise SystemExit("the watch loop reported no rebuild:\n" + log.read_text()[-2000:])
    report([Row("`sheets --watch`: PDF written after a card file is saved (median of the rebuilds)",
                "Power Trip, 288 cards", f"{statistics.median(after):.2f} s ({len(after)} saves, worst "
                f"{max(after):.2f} s)", "≤ 0.2 s")])


if __name__ == "__main__":
    main()

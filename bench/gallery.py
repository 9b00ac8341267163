"""Benchmark: the live gallery's rebuild after one Power Trip card changes (target: the page shows
it ≤ 1 s). Run by hand; prints a table. Works on a scratch copy of the workspace."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from common import Row, report, scratch_workspace  # noqa: E402

from cardgen.core.workspace import Workspace  # noqa: E402
from cardgen.live.serve import LiveGallery  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = scratch_workspace(tmp)
        ws = Workspace.find(root)
        live = LiveGallery(
            ws, "power-trip", root / "output" / "power-trip" / "gallery", lambda m: None
        )
        t = time.perf_counter()
        live.rebuild()
        cold = time.perf_counter() - t
        dark = root / "cards" / "power-trip" / "dark.yaml"
        times = []
        for i in range(5):
            text = dark.read_text()
            dark.write_text(
                text.replace("Kill an Entity.", f"Kill an Entity. ({i})", 1).replace(
                    f"({i - 1})", ""
                )
                if i
                else text.replace("Kill an Entity.", "Kill an Entity. (0)", 1)
            )
            t = time.perf_counter()
            live.rebuild()
            times.append(time.perf_counter() - t)
        times.sort()
        report(
            [
                Row(
                    "`gallery`: live rebuild after one card is edited, median of 5 (+ watcher "
                    "settle and page poll)",
                    "Power Trip",
                    f"{times[2]:.2f} s (+ 0.35 s); first build {cold:.2f} s",
                    "≤ 1 s",
                )
            ]
        )


if __name__ == "__main__":
    main()

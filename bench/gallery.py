"""Benchmark: the live gallery's rebuild after one Power Trip card changes (target: the page shows it ≤ 1 s).
Run by hand; prints a table. Works on a scratch copy of the workspace."""
from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cardgen.gallery.serve import LiveGallery  # noqa: E402
from cardgen.workspace import Workspace  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        for part in ("rules", "cards", "templates"):
            shutil.copytree(REPO / part, root / part)
        ws = Workspace.find(root)
        live = LiveGallery(ws, "power-trip", root / "output" / "power-trip" / "gallery", lambda m: None)
        t = time.perf_counter()
        live.rebuild()
        cold = time.perf_counter() - t
        dark = root / "cards" / "power-trip" / "dark.yaml"
        times = []
        for i in range(5):
            text = dark.read_text()
            dark.write_text(text.replace("Kill an Entity.", f"Kill an Entity. ({i})", 1).replace(f"({i - 1})", "")
                            if i else text.replace("Kill an Entity.", "Kill an Entity. (0)", 1))
            t = time.perf_counter()
            live.rebuild()
            times.append(time.perf_counter() - t)
        times.sort()
        print(f"{'what':<52}{'seconds':>9}")
        print(f"{'first build (212 faces rendered)':<52}{cold:>9.2f}")
        print(f"{'rebuild after editing one card (median of 5)':<52}{times[2]:>9.2f}")
        print(f"{'+ watcher settle (0.05 s) and page poll (0.3 s), worst case':<52}{times[2] + 0.35:>9.2f}")


if __name__ == "__main__":
    main()

"""Benchmark: the layout inspector on `cardgen serve power-trip` (a scratch copy): from an edit sent
(an element moved 0.1 mm) to the new face's layout and picture received, as the page asks for them.
Target (issue 30): ≤ 0.5 s. Run by hand; prints a table.

    .venv/bin/python bench/inspector.py [--edits 8] [--against REV]

With --against, the edits are timed on that revision too (a git worktree), one run after the
other, both figures side by side with the 1-minute load average before, between and after.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
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


def call(port: int, method: str, path: str, body: object = None, token: str = "") -> object:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json", "X-Cardgen-Token": token}
    data = None if body is None else json.dumps(body).encode()
    conn.request(method, path, body=data, headers=headers if method == "POST" else {})
    answer = conn.getresponse()
    raw = answer.read()
    conn.close()
    if (answer.getheader("Content-Type") or "").startswith("application/json"):
        return json.loads(raw)
    return raw


def edits_timed(edits: int, code: Path = REPO) -> list[float]:
    """Seconds from each of `edits` edits sent (the name bar moved 0.1 mm, then back) to the new
    face's layout and picture received, on `cardgen serve power-trip` run from the tree `code`."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        root = scratch_workspace(tmp)
        command = [sys.executable, "-c", LAUNCH, str(code), "--root", str(root), "serve"]
        server = subprocess.Popen(
            [*command, "power-trip", "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    token = call(port, "GET", "/api/token")["token"]  # type: ignore[index]
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
            card = "hulking-demon"
            page = f"card={card}&face=0"
            layout = call(port, "GET", f"/api/layout?{page}")
            n = next(e["n"] for e in layout["elements"] if e["id"] == "name-bar")  # type: ignore[index]
            call(port, "GET", f"/api/face?{page}")
            time.sleep(10)  # the first gallery build and the warm-up behind it
            took = []
            for i in range(edits):
                step = 0.1 if i % 2 == 0 else -0.1
                started = time.perf_counter()
                answer = call(
                    port,
                    "POST",
                    "/api/edit",
                    {"card": card, "face": 0, "n": n, "edges": {"left": step, "right": step}},
                    token,
                )
                if "written" not in answer:  # type: ignore[operator]
                    raise SystemExit(f"the edit was refused: {answer}")
                call(port, "GET", f"/api/layout?{page}")
                call(port, "GET", f"/api/face?{page}&v={i}")
                took.append(time.perf_counter() - started)
                time.sleep(2.5)  # the gallery's own rebuild behind it
        finally:
            server.terminate()
            server.wait(10)
    return took


def shown(took: list[float]) -> str:
    return f"{statistics.median(took):.2f} s (worst {max(took):.2f} s)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--edits", type=int, default=8)
    parser.add_argument("--against", default=None, help="a revision to measure beside this tree")
    args = parser.parse_args(without_json(sys.argv[1:]))
    with ExitStack() as stack:
        other = stack.enter_context(worktree(args.against)) if args.against else None
        if other is not None:
            compiled(other), compiled(REPO)
        load = [os.getloadavg()[0]]  # the machine is shared: its load beside the figures
        mine = shown(edits_timed(args.edits))
        load.append(os.getloadavg()[0])
        if other is not None:
            mine += f" vs {args.against} {shown(edits_timed(args.edits, other))}"
            load.append(os.getloadavg()[0])
    report(
        [
            Row(
                "layout inspector: an element moved, until the new face's layout and picture "
                f"are back (median of {args.edits})",
                "Power Trip, 288 cards (the face of one), load "
                + "/".join(f"{x:.1f}" for x in load),
                mine,
                "≤ 0.5 s",
            )
        ]
    )


if __name__ == "__main__":
    main()

"""Stress: `cardgen serve`'s page under load while cards change. Fifty clients on loopback each load
the page and then every image it shows, over and over, while card files are edited and the gallery
rebuilt; counts the image requests of a served page that got 404 (target: 0). Run by hand on a
scratch copy of the workspace:

    .venv/bin/python bench/serve_load.py [--clients 50] [--rebuilds 12] [--pause 1.0] [--game
    power-trip]
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from common import Row, report, scratch_workspace, without_json  # noqa: E402

from cardgen.core.workspace import Workspace  # noqa: E402
from cardgen.live.serve import LiveGallery, listen  # noqa: E402

DATA = re.compile(r'<script type="application/json" id="data">(.*?)</script>', re.S)


def load_page(port: int, seen: Counter[str], versions: set[str]) -> None:
    """One visit: the page, then each image it names (as a browser that shows them all)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/")
        resp = conn.getresponse()
        body = resp.read().decode()
    finally:
        conn.close()
    match = DATA.search(body)
    if resp.status != 200 or match is None:
        seen[f"page {resp.status}"] += 1
        return
    data = json.loads(match.group(1))
    versions.add(data["version"])
    seen[f"page of {len(data['cards'])} cards"] += 1
    for card in data["cards"]:
        if card["image"]:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                conn.request("GET", "/" + card["image"])
                resp = conn.getresponse()
                resp.read()
                seen[f"image {resp.status}"] += 1
            finally:
                conn.close()


def edit(originals: dict[Path, str], n: int) -> None:
    """Change a stat of the first few cards of every card file (so their faces change), differently
    each time."""
    for path, text in originals.items():
        path.write_text(
            re.sub(
                r"(\n  (?:ap|hp|power): )(\d+)\n",
                lambda m: f"{m[1]}{int(m[2]) + n + 1}\n",
                text,
                count=3,
            )
        )


def run(game: str, clients: int, rebuilds: int, pause: float) -> tuple[Counter[str], int, float]:
    with tempfile.TemporaryDirectory() as tmp:
        root = scratch_workspace(tmp)
        ws = Workspace.find(root)
        out = ws.output_dir(game) / "gallery"
        live = LiveGallery(ws, game, out, lambda m: None)
        live.rebuild()
        server = listen(out, "127.0.0.1", 0)
        port = server.server_address[1]
        threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        seen: Counter[str] = Counter()
        versions: set[str] = set()
        done = threading.Event()

        def client() -> None:
            while not done.is_set():
                load_page(port, seen, versions)

        threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
        started = time.perf_counter()
        for t in threads:
            t.start()
        originals = {p: p.read_text() for p in sorted(ws.cards_dir(game).glob("*.yaml"))}
        for n in range(rebuilds):
            edit(originals, n)
            live.rebuild()
            time.sleep(pause)
        done.set()
        for t in threads:
            t.join(timeout=60)
        took = time.perf_counter() - started
        server.shutdown()
        server.server_close()
        return seen, len(versions), took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--rebuilds", type=int, default=12)
    parser.add_argument("--game", default="power-trip")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between edits")
    args = parser.parse_args(without_json(sys.argv[1:]))
    seen, versions, took = run(args.game, args.clients, args.rebuilds, args.pause)
    images = sum(n for k, n in seen.items() if k.startswith("image"))
    missing = seen["image 404"]
    print(dict(seen), f"{versions} page versions seen in {took:.1f} s", file=sys.stderr)
    report(
        [
            Row(
                f"`serve`: image requests of a served page that got 404, {args.clients} clients, "
                f"{args.rebuilds} rebuilds while cards change",
                args.game,
                f"{missing} of {images} ({100 * missing / max(images, 1):.1f} %)",
                "0",
            )
        ]
    )


if __name__ == "__main__":
    main()

"""Benchmark: slot-mode packs per second and 8-seat 3 × 15 pod drafts with bots per second (one
core). Targets: ≥ 100,000 fifteen-card packs/s; ≥ 500 drafts/s; `packs power-trip --stats 100000` ≤
10 s (issue 18). Run by hand; prints a table."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from common import Row, report  # noqa: E402

from cardgen.core.workspace import Workspace  # noqa: E402
from cardgen.load.card import Card  # noqa: E402
from cardgen.model.packs import PackFormat, Sheet, Slot, Variant, load_format  # noqa: E402
from cardgen.packs.deal import SlotSampler, deal  # noqa: E402
from cardgen.packs.draft import simulate  # noqa: E402
from cardgen.project.loaded import load_game  # noqa: E402


def booster() -> PackFormat:
    def cards(prefix: str, n: int) -> list[Card]:
        return [Card(f"{prefix}{i}", {"name": f"{prefix}{i}"}, "x", 1, 1) for i in range(n)]

    sheets = {
        "common": Sheet("common", cards("c", 101), [2] * 101),
        "uncommon": Sheet("uncommon", cards("u", 80), [1] * 80),
        "rare": Sheet("rare", cards("r", 60), [2] * 53 + [1] * 7),
    }
    return PackFormat(
        "booster",
        "slots",
        15,
        sheets=sheets,
        variants=[Variant(1, [Slot("common", 10), Slot("uncommon", 4), Slot("rare", 1)])],
    )


def main() -> None:
    fmt = booster()
    sampler = SlotSampler(fmt, random.Random(1))
    n = 200_000
    t = time.perf_counter()
    for _ in range(n):
        sampler.pack()
    packs_per_s = n / (time.perf_counter() - t)

    loaded = load_game(Workspace.find(REPO), "power-trip")
    pt = load_format(loaded.model, loaded.catalog)
    t = time.perf_counter()
    deals = [deal(pt, "power-trip", 4, s) for s in range(200)]
    deal_s = 200 / (time.perf_counter() - t)
    eight = load_format(loaded.model, loaded.catalog)
    t = time.perf_counter()
    drafts = 0
    for s in range(100):
        d = deal(
            eight, "power-trip", 4, s, print_runs=2
        )  # 8 seats would need 2 runs of the transcribed set
        d.players  # noqa: B018
        simulate(d, loaded.model, loaded.catalog)
        drafts += 1
    four_seat = drafts / (time.perf_counter() - t)
    d8 = deal(eight, "power-trip", 8, 0, print_runs=2)
    t = time.perf_counter()
    for _ in range(50):
        simulate(d8, loaded.model, loaded.catalog)
    eight_seat = 50 / (time.perf_counter() - t)
    import subprocess

    t = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "cardgen",
            "--root",
            str(REPO),
            "packs",
            "power-trip",
            "--stats",
            "100000",
            "--seed",
            "1",
        ],
        check=True,
        capture_output=True,
    )
    stats_s = time.perf_counter() - t
    report(
        [
            Row(
                "`packs`: 15-card slot packs per second, one core, every pack independent",
                "bench booster: 10 of 101 commons, 4 of 80 uncommons, 1 of 60 rares",
                f"{packs_per_s:,.0f}",
                "≥ 100,000",
            ),
            Row(
                "`packs`: exhaust deals per second (4 seats × 3 packs), one core",
                "Power Trip's print run",
                f"{deal_s:,.0f}",
            ),
            Row(
                "`packs`: 8-seat 3 × 15 pod drafts with bots per second",
                "Power Trip, two print runs",
                f"{eight_seat:,.0f} ({four_seat:,.0f} deal + draft at 4 seats)",
                "≥ 500",
            ),
            Row(
                "`packs power-trip --stats 100000`: fairness statistics of 100,000 pods",
                "Power Trip's print run, 4 seats",
                f"{stats_s:.1f} s",
                "≤ 10 s",
            ),
        ]
    )
    assert deals


if __name__ == "__main__":
    main()

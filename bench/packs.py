"""Benchmark: slot-mode packs per second and 8-seat 3 × 15 pod drafts with bots per second (one core).
Targets: ≥ 100,000 fifteen-card packs/s; ≥ 500 drafts/s; `packs power-trip --stats 100000` ≤ 10 s (issue 18).
Run by hand; prints a table."""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cardgen.model.card import Card  # noqa: E402
from cardgen.packs.deal import SlotSampler, deal  # noqa: E402
from cardgen.packs.draft import simulate  # noqa: E402
from cardgen.packs.spec import PackFormat, Sheet, Slot, Variant, load_format  # noqa: E402
from cardgen.workspace import Workspace, load_game  # noqa: E402


def booster() -> PackFormat:
    def cards(prefix: str, n: int) -> list[Card]:
        return [Card(f"{prefix}{i}", {"name": f"{prefix}{i}"}, "x", 1, 1) for i in range(n)]

    sheets = {"common": Sheet("common", cards("c", 101), [2] * 101), "uncommon": Sheet("uncommon", cards("u", 80), [1] * 80),
              "rare": Sheet("rare", cards("r", 60), [2] * 53 + [1] * 7)}
    return PackFormat("booster", "slots", 15, sheets=sheets,
                      variants=[Variant(1, [Slot("common", 10), Slot("uncommon", 4), Slot("rare", 1)])])


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
        d = deal(eight, "power-trip", 4, s, print_runs=2)  # 8 seats would need 2 runs of the transcribed set
        d.players  # noqa: B018
        simulate(d, loaded.model, loaded.catalog)
        drafts += 1
    four_seat = drafts / (time.perf_counter() - t)
    d8 = deal(eight, "power-trip", 8, 0, print_runs=2)
    t = time.perf_counter()
    for _ in range(50):
        simulate(d8, loaded.model, loaded.catalog)
    eight_seat = 50 / (time.perf_counter() - t)
    print(f"{'what':<52}{'result':>14}{'target':>12}")
    print(f"{'slots: 15-card packs per second (10C/4U/1R)':<52}{packs_per_s:>14,.0f}{'≥ 100,000':>12}")
    print(f"{'exhaust: Power Trip 4-player deals per second':<52}{deal_s:>14,.0f}{'':>12}")
    print(f"{'draft: 8-seat 3 × 15 pod drafts with bots per second':<52}{eight_seat:>14,.0f}{'≥ 500':>12}")
    print(f"{'deal + draft, 4 seats, per second':<52}{four_seat:>14,.0f}{'':>12}")
    import subprocess

    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cardgen", "--root", str(REPO), "packs", "power-trip", "--stats", "100000",
                    "--seed", "1"], check=True, capture_output=True)
    stats_s = time.perf_counter() - t
    print(f"{'packs power-trip --stats 100000, whole process (s)':<52}{stats_s:>14.2f}{'≤ 10':>12}")
    assert deals


if __name__ == "__main__":
    main()

"""Benchmark: one large card file (8, 25 and 50 MB of generated cards, about 200 bytes a card) read
into a catalog by `load.cards.read_cards`, each in a fresh process without cache: seconds (wall and
cpu) and peak resident memory; and a hostile file (16 MB of one-letter list items, values the
bound refuses). Target (issue 35): read, never refused below the 64 MB default, memory bounded.
Run by hand; prints a table. `--sizes 8,25` to choose."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from common import Row, report, without_json  # noqa: E402

CARD = (
    "- name: Big Card {n:06d}\n  cost: RR\n  faction: Red\n  kind: Unit\n  text: |-\n    Guard\n"
    "    When this enters, deal 1 damage to a unit. Pay [R] to draw a card.\n  power: {p}\n"
    "  rarity: common\n  number: R{m}/99999\n"
)

MEASURE = """
import json, resource, sys, time
from pathlib import Path
from cardgen.load.cards import read_cards
root = Path(sys.argv[1])
wall, cpu = time.perf_counter(), time.process_time()
catalog, findings = read_cards("big", root / "cards" / "big", root)
print(json.dumps([time.perf_counter() - wall, time.process_time() - cpu,
    resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, len(catalog.cards),
    sorted({f.code for f in findings})]))
"""


def write_cards(path: Path, mb: float) -> int:
    """Cards up to `mb` megabytes in one file; their count."""
    out, size, n = [], 0, 0
    while size < mb * 1024 * 1024:
        block = CARD.format(n=n, p=n % 8, m=n + 1)
        out.append(block)
        size += len(block)
        n += 1
    path.write_text("".join(out))
    return n


def measure(root: Path) -> list:
    proc = subprocess.run(
        [sys.executable, "-c", MEASURE, str(root)],
        capture_output=True,
        text=True,
        check=True,
        env={"CARDGEN_NO_CACHE": "1", "PATH": "/usr/bin:/bin"},
    )
    return json.loads(proc.stdout)


def main() -> None:
    args = without_json(sys.argv[1:])
    sizes = [8, 25, 50]
    if "--sizes" in args:
        sizes = [int(s) for s in args[args.index("--sizes") + 1].split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        folder = root / "cards" / "big"
        folder.mkdir(parents=True)
        for mb in sizes:
            write_cards(folder / "set.yaml", mb)
            wall, cpu, peak, cards, codes = measure(root)
            rows.append(
                Row(
                    f"`card_files`: one {mb} MB card file read (one process)",
                    f"{cards:,} generated cards in one file",
                    f"{wall:.1f} s ({cpu:.1f} s cpu), {peak:,.0f} MB peak",
                    "read; memory ≤ 40× the file",
                )
            )
        dense = "- [" + ",".join(["a"] * 1000) + "]\n"
        (folder / "set.yaml").write_text(dense * (16 * 1024 * 1024 // len(dense) + 1))
        wall, cpu, peak, cards, codes = measure(root)
        rows.append(
            Row(
                "`card_files`: 16 MB of one-letter list items (hostile)",
                "8 million values in one file",
                f"{wall:.1f} s ({cpu:.1f} s cpu), {peak:,.0f} MB peak, "
                + (", ".join(codes) or "read"),
                "refused with a finding",
            )
        )
    report(rows)


if __name__ == "__main__":
    main()

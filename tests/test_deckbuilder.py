"""The deckbuilder fixture game (tests/fixtures/deckbuilder, sample content written for the tests):
supply piles, a setup randomizer, starting decks, quantities, landscape and mini cards,
double-sided Ruins, randomizer cards, a reference card and tokens. It validates with no finding and
builds (exit 0); its print sheets, PNG faces and rulebook are read back here, its exports in
tests/export/test_deckbuilder_exports.py."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from cardgen.core.workspace import Workspace
from cardgen.project.studio import Studio, open_studio

from .conftest import TESTS

DECKBUILDER = TESTS / "fixtures" / "deckbuilder"
RESTORED_GREEN = (0x2F, 0x6B, 0x3A)  # a Ruin's Restored side
# the print run for the model's 4 players (draft.players): copies of each design
RUN = {
    **{
        name: 10
        for name in (
            "Bakery",
            "Well",
            "Mill",
            "Smithy",
            "Chapel",
            "Market",
            "Pier",
            "Lighthouse",
            "Smuggler",
            "Ferry",
            "Harbor Master",
            "Dock",
        )
    },
    "Old Mill": 2,
    "Fallen Tower": 2,
    "Sunken Well": 2,
    "Coin": 12 + 7 * 4,
    "Shack": 8 + 3 * 4,
    "Turn Order": 1 * 4,
    "Harbor": 1,
    "Watchtower": 1,
    "Feast Day": 1,
    "Tithe": 1,
}
RUINS = ("Old Mill", "Fallen Tower", "Sunken Well")
# a face placed by reference (a form) or drawn on the page in marked content (placed once)
PLACED = re.compile(rb"1 0 0 1 (-?[\d.]+) (-?[\d.]+) cm\s*(?:/FormXob\.F|/cgFace <</Key \()(\w+)")


@dataclass
class Built:
    root: Path
    stdout: str
    studio: Studio

    @property
    def out(self) -> Path:
        return self.root / "output" / "deckbuilder"


def cardgen(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardgen", "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """A scratch copy of the fixture built as a designer would: `cardgen build` with the exports."""
    root = tmp_path_factory.mktemp("deckbuilder") / "ws"
    shutil.copytree(DECKBUILDER, root)
    done = cardgen(root, "build", "deckbuilder", "--exports", "tts,tgc,mpc,dtc")
    assert done.returncode == 0, done.stdout + done.stderr
    return Built(root, done.stdout, open_studio(Workspace.find(root), "deckbuilder"))


def test_it_validates_with_zero_findings(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(DECKBUILDER, root)
    done = cardgen(root, "validate", "deckbuilder")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "deckbuilder: 22 designs in 1 file: 0 errors, 0 warnings, 0 info"


def test_the_build_says_what_it_made(built: Built) -> None:
    assert (
        (built.out / "validation.txt").read_text().strip().endswith("0 errors, 0 warnings, 0 info")
    )
    lines = built.stdout
    assert "194 copies of 22 designs and 12 other faces (also:) on 25 sheets" in lines
    assert "41 PNG faces (34 fronts, 3 second faces, 4 backs)" in lines
    assert (
        "print run for 4 players (--players N for another number): 40 Coin = 7 × 4 players + 12 "
        "in the supply; 20 Shack = 3 × 4 players + 8 in the supply; 4 Turn Order = 1 × 4 players"
    ) in lines
    assert lines.count("print run for 4 players") == 1  # said once, not again by each export
    assert "setups: 1 game, seed 1" in lines
    assert "2 Location cards rotated to poker portrait" in lines


def _faces(studio: Studio) -> tuple[dict[str, str], dict[str, str], dict[str, tuple[float, float]]]:
    """Each face's key -> what it is ('Coin', 'Old Mill:second', 'Bakery:randomizer'), each front's
    key -> its back's key, and each face's drawn size with its bleed (points)."""
    name: dict[str, str] = {}
    back_of: dict[str, str] = {}
    size: dict[str, tuple[float, float]] = {}
    for card in studio.designs(printable=True):
        pairs = [(studio.prepare(card), "")] + [(p, ":also") for p in studio.other_faces(card)]
        for (front, back), side in pairs:
            label = card.name + (f":{front.template.name}" if side else "")
            name[front.key] = label
            assert back is not None
            back_of[front.key] = back.key
            own = studio.own_back(card) and not side
            name.setdefault(
                back.key, f"{card.name}:second" if own else f"back:{back.template.name}"
            )
            for face in (front, back):
                size[face.key] = (face.width + 2 * face.bleed, face.height + 2 * face.bleed)
    return name, back_of, size


def test_sheets_put_each_cards_own_back_behind_it(built: Built) -> None:
    reader = PdfReader(built.out / "sheets.pdf")
    assert len(reader.pages) == 2 * 25  # each sheet's fronts, then its backs
    name, back_of, size = _faces(built.studio)
    fronts: Counter[str] = Counter()
    for index in range(0, len(reader.pages), 2):
        front_page, back_page = reader.pages[index], reader.pages[index + 1]
        width = float(front_page.mediabox.width)
        placed = [
            (float(x), float(y), key.decode())
            for x, y, key in PLACED.findall(front_page.get_contents().get_data())
        ]
        behind = {
            (round(float(x), 2), round(float(y), 2)): key.decode()
            for x, y, key in PLACED.findall(back_page.get_contents().get_data())
        }
        assert placed and len(behind) == len(placed)
        for x, y, key in placed:
            # long-edge duplex: the back page is mirrored left to right
            mirrored = (round(width - x - size[key][0], 2), round(y, 2))
            assert behind[mirrored] == back_of[key], (index, name[key], name[behind[mirrored]])
            fronts[name[key]] += 1
    assert {n: c for n, c in fronts.items() if ":" not in n} == RUN
    assert sorted(n for n in fronts if n.endswith(":randomizer")) == sorted(
        f"{n}:randomizer" for n, c in RUN.items() if c == 10
    )
    assert set(fronts.values()) - {1} == set(RUN.values()) - {1}  # randomizers once each
    seconds = {back_of[k] for k, n in name.items() if n in RUINS}
    assert sorted(name[k] for k in seconds) == sorted(f"{n}:second" for n in RUINS)
    texts = [" ".join((p.extract_text() or "").split()) for p in reader.pages]
    ruins_back = next(t for t in texts if "Restored Mill" in t)
    assert ruins_back.count("Restored Mill") == ruins_back.count("Restored Well") == 2
    assert "88 x 63 mm" in texts[47] and "mini (44.45 x 63.5 mm)" in texts[49]


def test_png_export_writes_one_image_per_side(built: Built) -> None:
    pngs = sorted(p.name for p in (built.out / "png").glob("*.png"))
    assert len(pngs) == 41
    fronts = [n for n in pngs if not n.startswith("back-") and not n.endswith("-back.png")]
    assert len(fronts) == 22 + 12  # every design, and each kingdom card's randomizer
    assert sorted(n for n in pngs if n.endswith("-back.png") and not n.startswith("back-")) == [
        "fallen-tower-back.png",
        "old-mill-back.png",
        "sunken-well-back.png",
    ]
    assert [n for n in pngs if n.startswith("back-")] == [
        "back-back.png",
        "back-event-back.png",
        "back-location-back.png",
        "back-randomizer-back.png",
    ]
    assert "bakery-randomizer.png" in pngs and "turn-order.png" in pngs
    sizes = {}
    for name in ("harbor.png", "old-mill.png", "old-mill-back.png", "tithe.png"):
        with Image.open(built.out / "png" / name) as im:
            sizes[name] = im.size
            if name == "old-mill-back.png":
                assert im.convert("RGB").getpixel((10, 10)) == RESTORED_GREEN
    assert sizes["harbor.png"] == (1111, 815)  # 94 x 69 mm at 300 dpi: landscape, its own way up
    assert sizes["old-mill.png"] == sizes["old-mill-back.png"] == (815, 1111)
    assert sizes["tithe.png"] == (596, 821)  # mini
    restored = {
        (built.out / "png" / f"{n}-back.png").read_bytes() for n in ("old-mill", "sunken-well")
    }
    assert len(restored) == 2  # each card's own second face


def test_the_rulebook_lists_the_box_from_the_print_run(built: Built) -> None:
    reader = PdfReader(built.out / "rulebook.pdf")
    text = " ".join(" ".join((p.extract_text() or "") for p in reader.pages).split())
    for row in (
        "12 Treasure cards and 7 per player: Coin",
        "8 Victory cards and 3 per player: Shack",
        "120 Action cards: 10 each of 12 designs",
        "6 Ruin cards, double-sided: 2 each of Old Mill, Fallen Tower, Sunken Well",
        "2 Location cards (landscape, 88 × 63 mm): Har",  # hyphenated at the line's end
        "2 Event cards (mini, 44.45 × 63.5 mm): Feast Day, Tithe",
        "1 Reference card per player: Turn Order",
        "12 randomizer cards (one per Action design)",
        "30 Coin tokens",
        "1 Victory marker per player",
    ):
        assert row in text, row

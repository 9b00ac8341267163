"""Double-sided cards in the exports: Tabletop Simulator's per-card backs (UniqueBack, a back sheet
in the faces' grid) read back as its save format describes it, a back image per card for The Game
Crafter, each card's own back beside its front on DriveThruCards' pages."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image
from pypdf import PdfReader

from cardgen.core.workspace import Workspace
from cardgen.jobs.export import make_export

from ..conftest import TESTS
from .test_piles import read_save

RUINS = TESTS / "fixtures" / "ruins"  # sample deckbuilder: Ruins with a Restored side, randomizers
RESTORED_GREEN = (0x2F, 0x6B, 0x3A)
SHARED_BLUE = (0x2A, 0x3B, 0x6B)


def _files(target: str, **kw: Any) -> dict[str, Any]:
    result = make_export(Workspace.find(RUINS), "ruins", target, **kw)
    assert result.problems == [] and result.refused == []
    return {f.relpath: f.data for f in result.files}


RUINS_NAME = "Ruins and Relics (sample written for cardgen's tests)"


def _pixel(png: bytes, x: int, y: int) -> tuple[int, int, int]:
    with Image.open(io.BytesIO(png)) as im:
        return im.convert("RGB").getpixel((x, y))  # type: ignore[return-value]


def test_tts_gives_double_sided_cards_a_back_sheet_of_their_own_backs() -> None:
    files = _files("tts", image_base="https://example.org/ruins")
    objects = read_save(files["ruins.json"], files)
    assert [(o["Name"], o["cards"]) for o in objects] == [
        ("DeckCustom", ["Coin"] * 4 + ["Shack"] * 2 + ["Village"] * 2 + ["Smithy"] * 2),
        ("DeckCustom", ["Old Mill", "Fallen Tower", "Sunken Well"]),
        ("DeckCustom", ["Village", "Smithy"]),  # the randomizers (also:), one of each
    ]
    assert [o["Nickname"] for o in objects] == [
        f"{RUINS_NAME} — Basic, Action",  # the cards' kinds, as a player reads them
        f"{RUINS_NAME} — Ruin",
        f"{RUINS_NAME} — randomizer: Action",
    ]
    shared, ruins, randomizers = (o["CustomDeck"] for o in objects)
    assert [d["UniqueBack"] for d in randomizers.values()] == [False]
    assert [d["UniqueBack"] for d in shared.values()] == [False]
    ((key, deck),) = ruins.items()
    assert deck["UniqueBack"] is True
    back_sheet = deck["BackURL"].rsplit("/", 1)[1]
    assert back_sheet == f"restored-backs-{key}.png"
    face_sheet = files[deck["FaceURL"].rsplit("/", 1)[1]]
    backs = files[back_sheet]
    cols, rows = deck["NumWidth"], deck["NumHeight"]
    assert (cols, rows) == (2, 2)  # three Ruins and the hidden card: no bigger than needed
    with Image.open(io.BytesIO(backs)) as im, Image.open(io.BytesIO(face_sheet)) as faces:
        assert im.size == faces.size  # the same grid
        w, h = im.width // cols, im.height // rows
        at = [((i % cols) * w, (i // cols) * h) for i in range(3)]
        slots = [im.crop((x, y, x + w, y + h)).tobytes() for x, y in at]
    assert len(set(slots)) == 3  # three different Restored sides, one per card
    # slot i of the back sheet is card i's own back: its Restored side, green, for the three Ruins
    for x, y in at:
        assert _pixel(backs, x + w // 2, y + 3) == RESTORED_GREEN
    # the card IDs point at those slots
    assert [c["CardID"] % 100 for c in objects[1]["ContainedObjects"]] == [0, 1, 2]
    assert _pixel(files[shared["1"]["BackURL"].rsplit("/", 1)[1]], 5, 5) == SHARED_BLUE


def test_tgc_writes_a_back_per_double_sided_card_and_names_it_in_the_manifest() -> None:
    files = _files("tgc")
    rows = [line.split(",") for line in files["manifest.csv"].splitlines()]
    assert [r[:2] for r in rows[1:]] == [
        ["fronts/coin.png", "backs/back.png"],
        ["fronts/shack.png", "backs/back.png"],
        ["fronts/village.png", "backs/back.png"],
        ["fronts/smithy.png", "backs/back.png"],
        ["fronts/old-mill.png", "backs/old-mill.png"],
        ["fronts/fallen-tower.png", "backs/fallen-tower.png"],
        ["fronts/sunken-well.png", "backs/sunken-well.png"],
        ["fronts/village-randomizer.png", "backs/randomizer-back.png"],
        ["fronts/smithy-randomizer.png", "backs/randomizer-back.png"],
    ]
    assert [r[2:4] for r in rows[-2:]] == [
        ["1", "Village (randomizer)"],
        ["1", "Smithy (randomizer)"],
    ]
    assert _pixel(files["backs/old-mill.png"], 400, 10) == RESTORED_GREEN
    assert files["backs/old-mill.png"] != files["backs/sunken-well.png"]


def test_dtc_pages_pair_each_card_with_its_own_back() -> None:
    files = _files("dtc", press=False)
    reader = PdfReader(io.BytesIO(files["ruins-drivethrucards.pdf"]))
    pages = [" ".join(page.extract_text().split()) for page in reader.pages]
    assert len(pages) == 2 * (13 + 2)  # a back and a front for each copy and each randomizer
    assert pages[:2] == ["", "Coin 0 Basic +1 coin."]  # the shared back: no text
    assert pages[-4:] == ["", "Village Randomizer · 3", "", "Smithy Randomizer · 4"]
    # each Ruin's page is preceded by its own Restored side (DriveThruCards: back before front)
    assert [page.split(" Restored Ruin")[0].split(" 1 Ruin")[0] for page in pages[-10:-4]] == [
        "Restored Mill",
        "Old Mill",
        "Restored Tower",
        "Fallen Tower",
        "Restored Well",
        "Sunken Well",
    ]

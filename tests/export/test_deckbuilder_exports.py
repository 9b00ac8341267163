"""The deckbuilder fixture's exports read back (tests/fixtures/deckbuilder, sample content written
for the tests): Tabletop Simulator supply piles with each double-sided card's own back and the
randomizers a deck of their own, print-on-demand files with both sides of every card paired, exact
quantities and landscape cards turned, and `--players` scaling them as it scales the sheets."""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from pypdf import PdfReader

from cardgen.core.errors import CardgenError
from cardgen.core.workspace import Workspace
from cardgen.jobs.export import make_export
from cardgen.printrun.printing import SheetOptions, choose_cards
from cardgen.project.studio import open_studio

from ..conftest import TESTS
from ..test_deckbuilder import RUINS, RUN
from .test_piles import read_save

DECKBUILDER = TESTS / "fixtures" / "deckbuilder"
RESTORED_GREEN = (0x2F, 0x6B, 0x3A)
KINGDOM = [name for name, n in RUN.items() if n == 10]


def _export(target: str, **kw: Any) -> tuple[dict[str, Any], list[str]]:
    result = make_export(Workspace.find(DECKBUILDER), "deckbuilder", target, **kw)
    assert result.problems == [] and result.refused == []
    return {f.relpath: f.data for f in result.files}, result.notes


def _pixel(png: bytes, x: int, y: int) -> tuple[int, int, int]:
    with Image.open(io.BytesIO(png)) as im:
        return im.convert("RGB").getpixel((x, y))  # type: ignore[return-value]


def _piles(players: int | None = None) -> tuple[dict[str, Any], dict[str, dict[str, Any]], list]:
    files, notes = _export("tts", image_base="https://example.org/db", players=players)
    objects = read_save(files["deckbuilder.json"], files)
    return files, {o["Nickname"]: o for o in objects}, notes


def test_tts_piles_give_double_sided_cards_their_own_backs() -> None:
    files, piles, notes = _piles()
    assert {name: len(o["cards"]) for name, o in piles.items()} == {
        **RUN,
        "randomizer cards": 12,
    }
    seen = set()
    for ruin in RUINS:
        pile = piles[ruin]
        assert pile["cards"] == [ruin, ruin]
        ((key, deck),) = pile["CustomDeck"].items()
        assert deck["UniqueBack"] is True
        back_sheet = deck["BackURL"].rsplit("/", 1)[1]
        assert back_sheet == f"restored-front-backs-{key}.png"  # a back sheet, not one image
        slot = pile["ContainedObjects"][0]["CardID"] % 100
        with Image.open(io.BytesIO(files[back_sheet])) as sheet:
            w, h = sheet.width // 10, sheet.height // 7
            cell = sheet.crop(((slot % 10) * w, (slot // 10) * h, (slot % 10 + 1) * w, h))
            seen.add(cell.tobytes())
            assert cell.convert("RGB").getpixel((w // 2, 3)) == RESTORED_GREEN
    assert len(seen) == 3  # three Ruins, three different Restored sides
    # the shared backs stay one image each; no back image shared by the Ruins
    assert piles["Coin"]["CustomDeck"]["1"]["UniqueBack"] is False
    assert sorted(files) == [
        "back-front-back.png",
        "back-front-sheet-1.png",
        "deckbuilder.json",
        "event-back-event-back.png",
        "event-back-event-sheet-4.png",
        "location-back-location-back.png",
        "location-back-location-sheet-3.png",
        "randomizer-back-randomizer-back.png",
        "randomizer-back-randomizer-sheet-5.png",
        "restored-front-backs-2.png",
        "restored-front-sheet-2.png",
    ]


def test_tts_piles_keep_the_randomizers_as_a_deck_apart() -> None:
    _, piles, notes = _piles()
    deck = piles["randomizer cards"]
    assert deck["Name"] == "DeckCustom" and deck["cards"] == KINGDOM  # one per kingdom card
    ((_, custom),) = deck["CustomDeck"].items()
    assert custom["BackURL"].endswith("/randomizer-back-randomizer-back.png")
    nearest = max(o["Transform"]["posZ"] for n, o in piles.items() if n != "randomizer cards")
    assert (
        deck["Transform"]["posZ"]
        < min(o["Transform"]["posZ"] for n, o in piles.items() if n != "randomizer cards")
        < nearest
    )  # in a row before the kingdom, the basics beyond it
    assert piles["Coin"]["Transform"]["posZ"] == nearest
    assert (
        "22 piles (cards by name) on the table: 20 in a grid, 2 set apart beyond them; 1 deck of "
        "also: faces (randomizer) in a row before them"
    ) in notes


def _manifest(files: dict[str, Any]) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(files["manifest.csv"])))


@pytest.mark.parametrize("target,canvas", [("tgc", (825, 1125)), ("mpc", (822, 1122))])
def test_png_vendors_pair_both_sides_count_exactly_and_turn_landscapes(
    target: str, canvas: tuple[int, int]
) -> None:
    files, notes = _export(target)
    rows = _manifest(files)
    cards = {r["name"]: r for r in rows if "(" not in r["name"]}
    assert {n: int(r["quantity"]) for n, r in cards.items()} == RUN
    others = [r for r in rows if "(" in r["name"]]
    assert [r["name"] for r in others] == [f"{n} (randomizer)" for n in KINGDOM]
    assert {(r["back"], r["quantity"]) for r in others} == {("backs/randomizer-back.png", "1")}
    for row in rows:  # every front has its back, and both are files of the export
        assert row["front"] in files and row["back"] in files
    for ruin in RUINS:  # each double-sided card's own back
        back = cards[ruin]["back"]
        assert back == f"backs/{ruin.lower().replace(' ', '-')}.png"
        assert _pixel(files[back], canvas[0] // 2, 10) == RESTORED_GREEN
    assert len({files[cards[r]["back"]] for r in RUINS}) == 3
    for name in ("Harbor", "Watchtower"):  # landscape: turned onto the portrait canvas
        for side in ("front", "back"):
            with Image.open(io.BytesIO(files[cards[name][side]])) as im:
                assert im.size == canvas and im.width < im.height
        assert cards[name]["product"] == "poker"
    assert cards["Tithe"]["product"] == "mini"
    assert any(n.startswith("2 Location cards rotated to poker portrait") for n in notes)


def test_drivethrucards_pages_pair_sides_count_exactly_and_turn_landscapes() -> None:
    files, notes = _export("dtc", press=False)
    poker = PdfReader(io.BytesIO(files["deckbuilder-drivethrucards.pdf"]))
    mini = PdfReader(io.BytesIO(files["deckbuilder-drivethrucards-mini.pdf"]))
    poker_copies = sum(n for name, n in RUN.items() if name not in ("Feast Day", "Tithe"))
    assert len(poker.pages) == 2 * (poker_copies + 12)  # a back and a front per copy
    assert len(mini.pages) == 2 * 2
    for page in [*poker.pages, *mini.pages]:  # every page portrait, landscape cards turned
        assert float(page.mediabox.width) < float(page.mediabox.height)
    texts = [" ".join((p.extract_text() or "").split()) for p in poker.pages]
    fronts = [t for t in texts[1::2]]
    for ruin, restored in zip(RUINS, ("Restored Mill", "Restored Tower", "Restored Well")):
        at = [i for i, t in enumerate(texts) if t.startswith(ruin)]
        assert len(at) == 2 and all(texts[i - 1].startswith(restored) for i in at)
    assert sum(t.startswith("Coin ") for t in fronts) == RUN["Coin"]
    harbor = next(i for i, t in enumerate(texts) if t.startswith("Harbor 4"))
    # drawn turned a quarter: the front clockwise (cm 0 -s s 0), its back, the page before it,
    # counter-clockwise (cm 0 s -s 0)
    turns = []
    for index in (harbor - 1, harbor):
        content = poker.pages[index].get_contents().get_data().decode("latin-1")
        ((a, b, c, d),) = re.findall(
            r"(\S+) (\S+) (\S+) (\S+) \S+ \S+ cm\s*(?:/FormXob|/cgFace)", content
        )
        assert float(a) == float(d) == 0 and float(b) == -float(c)
        turns.append("clockwise" if float(b) < 0 else "counter-clockwise")
    assert turns == ["counter-clockwise", "clockwise"]
    assert any(n.startswith("2 Location cards rotated to poker portrait") for n in notes)


def _run(players: int | None) -> dict[str, int]:
    studio = open_studio(Workspace.find(DECKBUILDER), "deckbuilder")
    chosen, _, _ = choose_cards(studio, SheetOptions(players=players))
    return {card.name: n for card, n in chosen}


@pytest.mark.parametrize("players", [2, 5])
def test_players_scale_the_exports_as_they_scale_the_sheets(players: int) -> None:
    sheets = _run(players)
    assert sheets["Coin"] == 12 + 7 * players and sheets["Turn Order"] == players
    _, piles, notes = _piles(players)
    assert {n: len(o["cards"]) for n, o in piles.items() if n != "randomizer cards"} == sheets
    assert notes[0].startswith(f"print run for {players} players")
    files, _ = _export("tgc", players=players)
    rows = _manifest(files)
    assert {r["name"]: int(r["quantity"]) for r in rows if "(" not in r["name"]} == sheets
    files, _ = _export("dtc", press=False, players=players)
    pages = len(PdfReader(io.BytesIO(files["deckbuilder-drivethrucards.pdf"])).pages)
    assert pages == 2 * (sum(sheets.values()) - 2 + 12)  # the mini Events have their own PDF
    assert _run(None) == RUN  # without --players: the model's draft.players (4)


def test_build_players_reach_its_exports(tmp_path: Path) -> None:
    from cardgen.jobs.build import BuildOptions, build_game

    root = tmp_path / "ws"
    shutil.copytree(DECKBUILDER, root)
    opts = BuildOptions(png=False, rulebook=False, exports=("tts", "cockatrice"), players=3)
    result = build_game(Workspace.find(root), "deckbuilder", opts)
    assert not result.failed()
    assert sum(n.startswith("print run for 3 players") for n in result.notes) == 1  # said once
    folder = root / "output" / "deckbuilder" / "export" / "tts"
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    objects = read_save(files["deckbuilder.json"].decode(), files)
    counts = {o["Nickname"]: len(o["cards"]) for o in objects}
    assert counts["Coin"] == 12 + 7 * 3 and counts["Turn Order"] == 3 and counts["Shack"] == 17


def test_players_is_refused_where_it_means_nothing(tmp_path: Path) -> None:
    with pytest.raises(CardgenError, match="--players scales the print run"):
        make_export(Workspace.find(DECKBUILDER), "deckbuilder", "cockatrice", players=2)
    root = tmp_path / "ws"
    shutil.copytree(DECKBUILDER, root)
    for args in (
        ["--png", "--players", "2"],
        ["--to", "cockatrice", "--players", "2"],
        ["--to", "tts", "--players", "2", "--deck", "x.txt"],
        ["--to", "tts", "--players", "0"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "cardgen", "--root", str(root), "export", "deckbuilder", *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 2 and "--players" in done.stderr, (args, done.stderr)
    assert not (root / "output").exists()

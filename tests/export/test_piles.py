"""Supply piles in Tabletop Simulator: one deck per pile in a grid, the basics set apart, the saved
object read back as Tabletop Simulator's save format describes it."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from cardgen.core.workspace import Workspace
from cardgen.export.piles import PileSpec, pile_spec
from cardgen.jobs.export import make_export
from cardgen.project.studio import Studio, open_studio

from ..conftest import TESTS

SUPPLY = TESTS / "fixtures" / "supply"  # sample deckbuilder: basics, kingdom, Locations, Events
TRANSFORM = ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")
CUSTOM_DECK = {
    "FaceURL": str,
    "BackURL": str,
    "NumWidth": int,
    "NumHeight": int,
    "BackIsHidden": bool,
    "UniqueBack": bool,
    "Type": int,
}


def read_save(text: str, files: dict[str, Any]) -> list[dict[str, Any]]:
    """The saved object read as Tabletop Simulator reads it (its SaveState and ObjectState classes,
    Knowledge Base 'Save File Format'; CustomDeckData in typed-tabletop-simulator): every object a
    CardCustom with a CardID or a DeckCustom whose DeckIDs are its ContainedObjects' CardIDs in
    order; CardID = CustomDeck key x 100 + the card's index on that sheet, the key present in the
    card's and its deck's CustomDeck, the index short of the sheet's last (hidden) slot; images that
    are files of the export. Returns the objects, each with its cards' nicknames."""
    saved = json.loads(text)
    assert isinstance(saved["SaveName"], str) and isinstance(saved["ObjectStates"], list)
    objects = []
    for obj in saved["ObjectStates"]:
        assert all(isinstance(obj["Transform"][k], (int, float)) for k in TRANSFORM)
        cards = obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj]
        assert obj["Name"] in ("DeckCustom", "CardCustom")
        if obj["Name"] == "DeckCustom":
            assert obj["DeckIDs"] == [c["CardID"] for c in cards]
        for card in cards:
            key, index = divmod(card["CardID"], 100)
            for where in (card["CustomDeck"], obj["CustomDeck"]):
                sheet = where[str(key)]
                assert all(isinstance(sheet[k], t) for k, t in CUSTOM_DECK.items())
                assert index < sheet["NumWidth"] * sheet["NumHeight"] - 1
                for url in (sheet["FaceURL"], sheet["BackURL"]):
                    assert url.rsplit("/", 1)[1] in files
        objects.append({**obj, "cards": [c["Nickname"] for c in cards]})
    return objects


def _studio(piles: object) -> Studio:
    studio = open_studio(Workspace.find(SUPPLY), "supply")
    studio.model.tts = {"piles": piles}  # each test its own `tts:` section, as the model reads it
    return studio


def _export(tmp_path: Path, piles: object) -> tuple[dict[str, Any], list[dict[str, Any]], list]:
    result = make_export(
        Workspace.find(SUPPLY), "supply", "tts", studio=_studio(piles), folder=tmp_path
    )
    files = {f.relpath: f.data for f in result.files}
    objects = read_save(str(files["supply.json"]), files) if "supply.json" in files else []
    return files, objects, result.notes + result.problems


def test_one_deck_per_pile_on_a_grid_with_the_basics_apart(tmp_path: Path) -> None:
    files, objects, notes = _export(
        tmp_path, {"by": "name", "apart": {"type": "Basic"}, "columns": 3}
    )
    piles = {o["Nickname"]: o for o in objects}
    counts = {name: len(o["cards"]) for name, o in piles.items()}
    assert counts == {  # the print run's copies, each pile of one card
        "Village": 10,
        "Smithy": 10,
        "Market": 10,
        "Harbor": 1,
        "Watchtower": 1,
        "Feast Day": 1,
        "Coin": 12,
        "Shack": 8,
    }
    assert all(set(o["cards"]) == {name} for name, o in piles.items())
    assert {o["Name"] for n, o in piles.items() if counts[n] == 1} == {"CardCustom"}
    ids: dict[int, str] = {}
    for o in objects:  # one CardID, one card, across the whole save
        for c in o.get("ContainedObjects", [o]):
            assert ids.setdefault(c["CardID"], c["Nickname"]) == c["Nickname"]
    at = {n: (o["Transform"]["posX"], o["Transform"]["posZ"]) for n, o in piles.items()}
    scale = {n: (o["Transform"]["scaleX"], o["Transform"]["scaleZ"]) for n, o in piles.items()}
    assert len(set(at.values())) == len(at)  # no two piles on one spot
    # a supply lies face up (rotZ 0), every card of it too; a deck to draw from lies face down
    assert {o["Transform"]["rotZ"] for o in piles.values()} == {0.0}
    assert {c["Transform"]["rotZ"] for o in objects for c in o.get("ContainedObjects", [])} == {0.0}
    kingdom = [n for n in at if n not in ("Coin", "Shack")]
    assert len({at[n][0] for n in kingdom}) == 3  # three columns, as declared
    assert min(at["Coin"][1], at["Shack"][1]) > max(at[n][1] for n in kingdom)  # beyond them
    assert at["Coin"][1] == at["Shack"][1]  # the basics in a row of their own
    # neighbours lie a pile's width or length apart, as wide or long as the larger card needs (a
    # card of poker size, scale 1: 3 x 4.2 units, the spacing of the decks without piles)
    for a in at:
        for b in at:
            if a < b:
                dx, dz = abs(at[a][0] - at[b][0]), abs(at[a][1] - at[b][1])
                wide = 3.0 * max(scale[a][0], scale[b][0])
                long = 4.2 * max(scale[a][1], scale[b][1])
                assert dx >= wide - 1e-3 or dz >= long - 1e-3, (a, b)
    # one set of deck sheets per back and size, each design once, shared by its piles
    sheets = sorted(k for k in files if "-sheet-" in k)
    assert len(sheets) == 3
    with Image.open(io.BytesIO(files[sheets[0]])) as im:  # 5 poker designs and the hidden card
        w, h = im.width // 3, im.height // 2  # in 3 x 2: no bigger than the deck needs
        assert abs(w / h - 63 / 88) < 0.02
        used = [im.getpixel(((i % 3) * w + w // 2, (i // 3) * h + h // 2)) for i in range(6)]
    assert all(p != (0, 0, 0) for p in used)
    assert "8 piles (cards by name) on the table: 6 in a grid, 2 set apart beyond them" in notes


def test_piles_by_a_declared_field(tmp_path: Path) -> None:
    _, objects, _ = _export(tmp_path, {"by": "type"})
    counts = Counter({o["Nickname"]: len(o["cards"]) for o in objects})
    # the one Event is a pile of one card: a card object, named as the card
    assert counts == {"Basic": 20, "Action": 30, "Location": 2, "Feast Day": 1}


def test_a_pile_field_the_model_lacks_is_refused(tmp_path: Path) -> None:
    files, objects, problems = _export(tmp_path, {"by": "kingdom"})
    assert files == {} and objects == []
    assert any("piles: by names 'kingdom', which is not a field" in p for p in problems)


def test_without_piles_the_decks_are_as_before(tmp_path: Path) -> None:
    result = make_export(Workspace.find(SUPPLY), "supply", "tts", folder=tmp_path)
    files = {f.relpath: f.data for f in result.files}
    objects = read_save(str(files["supply.json"]), files)
    assert [len(o["cards"]) for o in objects] == [50, 2, 1]  # one deck per back and size
    save = json.loads(files["supply.json"])
    assert {o["Transform"]["rotZ"] for o in save["ObjectStates"]} == {180.0}  # decks: face down


@pytest.mark.parametrize(
    "section,expected",
    [
        (None, None),
        ({}, None),
        ({"piles": True}, PileSpec()),
        ({"piles": "yes"}, None),
        ({"piles": {"by": 3, "apart": [1], "columns": 0}}, PileSpec()),
        (
            {"piles": {"by": "type", "apart": {"type": "Basic"}, "columns": 5}},
            PileSpec("type", {"type": "Basic"}, 5),
        ),
    ],
)
def test_the_piles_declaration_is_read_with_safe_defaults(section: object, expected) -> None:
    class Model:
        tts = section

    assert pile_spec(Model()) == expected  # type: ignore[arg-type]

"""Exports: TTS sheets and saved object, Cockatrice XML against its schema, Draftmancer parsed back,
POD canvases."""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from cardgen.core.errors import CardgenError
from cardgen.core.workspace import Workspace
from cardgen.export import cockatrice, draftmancer, ttsparts
from cardgen.jobs.export import make_export, run_export
from cardgen.model.packs import load_format
from cardgen.project.loaded import load_game

from ..conftest import FIXTURE_WS, REPO, TESTS, needs_shared

XSD = REPO.parent / "shared" / "external" / "cockatrice" / "cards-v4.xsd"


def _fake_pngs(faces, fonts, model, **kw):
    for _ in faces:
        buf = io.BytesIO()
        Image.new("RGB", (20, 28), "#888").save(buf, format="PNG")
        yield buf.getvalue()


def files(result) -> dict[str, bytes | str]:
    return {f.relpath: f.data for f in result.files}


def test_tts_sheets_grid_hidden_slot_and_saved_object(monkeypatch) -> None:
    monkeypatch.setattr(
        ttsparts, "PER_SHEET", 2
    )  # three designs then span two sheets, as 70+ cards would
    result = make_export(Workspace.find(FIXTURE_WS), "clean", "tts")
    out = files(result)
    sheets = sorted(k for k in out if "-sheet-" in k)
    assert sheets == ["back-sheet-1.png", "back-sheet-2.png"]
    saved = json.loads(out["clean.json"])
    deck = saved["ObjectStates"][0]
    assert sorted(deck["CustomDeck"]) == ["1", "2"]
    # a small deck's sheet is no bigger than it needs: 2 faces and the hidden card in 2 x 2
    assert [(v["NumWidth"], v["NumHeight"]) for v in deck["CustomDeck"].values()] == [(2, 2)] * 2
    for name in sheets:
        with Image.open(io.BytesIO(out[name])) as im:
            assert im.width <= 4096 and im.width % 2 == 0 and im.height % 2 == 0
            w, h = im.width // 2, im.height // 2
            hidden = im.crop((w, h, 2 * w, 2 * h)).resize((8, 8)).getpixel((4, 4))
            empty = im.crop((0, h, w, 2 * h)).getpixel((w // 2, h // 2))
            after = im.crop((w, 0, 2 * w, h)).getpixel((w // 2, h // 2))  # after sheet 2's face
            assert hidden != (0, 0, 0) and empty == (0, 0, 0)  # the last slot holds the back
            assert name == "back-sheet-1.png" or after == (0, 0, 0)  # no stray copy of the back
    # Tabletop Simulator loads web URLs and absolute paths only: local files as file:// URIs
    assert all(
        v["FaceURL"].startswith("file:///")
        and v["FaceURL"].rsplit("/", 1)[1] in out
        and v["BackURL"].rsplit("/", 1)[1] in out
        for v in deck["CustomDeck"].values()
    )
    assert Counter(deck["DeckIDs"]) == {
        100: 2,
        101: 1,
        200: 2,
    }  # the print run: copies by collation
    names = {c["Nickname"] for c in deck["ContainedObjects"]}
    assert names == {"Ember Guard", "Firestorm", "Tide Caller"}
    assert all(str(c["CardID"] // 100) in c["CustomDeck"] for c in deck["ContainedObjects"])


def test_tts_decks_keep_sections_apart_with_ids_unique_across_the_save(tmp_path) -> None:
    """TTS: CardID = CustomDeck key x 100 + slot, and keys must differ between the decks of one
    save; a deck list's sideboard is a deck of its own; hosted images with --image-base; a tarot
    card is scaled."""
    deck = REPO / "decks" / "aether-duel" / "chaos-burn.txt"
    result = make_export(
        Workspace.find(REPO), "aether-duel", "tts", deck=deck, image_base="https://example.org/c"
    )
    saved = json.loads(files(result)["aether-duel.json"])
    objects = saved["ObjectStates"]
    keys = [k for o in objects for k in (o.get("CustomDeck") or {})]
    assert len(keys) == len(set(keys))
    ids = [
        o["CardID"] if o["Name"] == "CardCustom" else i
        for o in objects
        for i in o.get("DeckIDs", [o.get("CardID")])
    ]
    by_id = {}
    for o in objects:
        for c in o.get("ContainedObjects", [o]):
            assert by_id.setdefault(c["CardID"], c["Nickname"]) == c["Nickname"]  # one id, one card
    sizes = sorted(len(o.get("DeckIDs", [1])) for o in objects)
    assert sizes == [1, 20, 50]  # monster, sideboard and main deck apart (not 70 in one deck)
    assert len(ids) == 71
    assert all(
        v["FaceURL"].startswith("https://example.org/c/")
        for o in objects
        for v in (o.get("CustomDeck") or {}).values()
    )
    lantern = make_export(
        Workspace.find(TESTS / "fixtures" / "lantern"), "lantern", "tts", folder=tmp_path
    )
    scale = json.loads(files(lantern)["lantern.json"])["ObjectStates"][0]["Transform"]
    assert scale["scaleX"] == round(69.85 / 63.5, 4) and scale["scaleZ"] == round(120.65 / 88.9, 4)
    spell = json.loads(files(lantern)["lantern.json"])["ObjectStates"][
        1
    ]  # the poker-size spells: a deck of their own
    assert spell["Nickname"] == "Tidecaller" and spell["Transform"]["scaleX"] == round(63 / 63.5, 4)
    for name, data in files(lantern).items():  # Tabletop Simulator's limit on a deck sheet
        if name.endswith(".png"):
            assert max(Image.open(io.BytesIO(data)).size) <= 4096, name


@needs_shared(XSD)
@pytest.mark.parametrize("game", ["power-trip", "aether-duel", "ivion"])
def test_cockatrice_xml_validates_against_the_schema(monkeypatch, game: str) -> None:
    import xmlschema

    monkeypatch.setattr(cockatrice, "render_pngs", _fake_pngs)
    result = make_export(Workspace.find(REPO), game, "cockatrice")
    out = files(result)
    xml_name = next(k for k in out if k.endswith(".xml"))
    schema = xmlschema.XMLSchema(str(XSD))
    schema.validate(out[xml_name])
    doc = schema.to_dict(out[xml_name])
    cards = doc["cards"]["card"]
    pictures = {k for k in out if k.startswith("pics/CUSTOM/")}
    assert len(pictures) == len(cards)
    for card in cards:
        assert card["set"][0]["@picurl"] in pictures
    if game == "power-trip":
        demon = next(c for c in cards if c["name"] == "Hulking Demon")
        assert demon["set"][0]["@num"] == "D1/40" and demon["set"][0]["@rarity"] == "common"
        # Cockatrice finds pics/CUSTOM/<name without *<>:"\?>.png (its picture loader's rule)
        raguel = next(c for c in cards if c["name"] == '"Raguel" - ET.0027')
        assert raguel["set"][0]["@picurl"] == "pics/CUSTOM/Raguel - ET.0027.png"
        # rows come from the model's cockatrice: section (Cockatrice's importer: 3 = spells), no
        # Magic colours
        rows = {c["name"]: c["tablerow"] for c in cards}
        kinds = {c["name"]: (c.get("prop") or {}).get("maintype") for c in cards}
        assert rows["Hulking Demon"] == 2 and all(
            rows[n] == 3 for n, k in kinds.items() if k in ("Spell", "Trick")
        )
        assert all("colors" not in (c.get("prop") or {}) for c in cards)
        brick = next(c for c in cards if c["name"] == "Brick")
        assert brick["token"] is True or brick["token"] == 1
        assert any(
            r.get("$") == "Brick" or r == "Brick" for c in cards for r in c.get("related", [])
        )
        assert not any(
            c["name"] in ("[]", "[under construction]") or "[Rarity]" in str(c) for c in cards
        )


# Draftmancer's slot line grammar (its parseLine): an optional count, a name without '(' or '+',
# then optionally ' (SET)' with SET in \w+ and a collector number without spaces or '+', then an
# optional foil flag.
DRAFTMANCER_LINE = re.compile(
    r"^(?:(\d+)\s+)?([^(+\v\n]+?)(?:\s\((\w+)\)(?:\s+([^+\s]+))?)?(?:\s+\+?(F))?\s*$"
)
DRAFTMANCER_RARITIES = {
    "common",
    "uncommon",
    "rare",
    "mythic",
    "special",
}  # anything else rejects the list


def parse_draftmancer(text: str) -> tuple[dict, list[dict], dict[str, tuple[int | None, Counter]]]:
    """The list as Draftmancer reads it: slot lines matched by (set, collector number) to the custom
    cards, so the counts are keyed by card id (the collector number cardgen writes)."""
    sections = re.split(r"^\[(.+?)\]\s*$", text, flags=re.M)[1:]
    settings, custom, slots = {}, [], {}
    for header, body in zip(sections[::2], sections[1::2]):
        if header == "Settings":
            settings = json.loads(body)
        elif header == "CustomCards":
            custom = json.loads(body)
        else:
            m = re.match(r"(\w+)(?:\((\d+)\))?$", header)
            counts = Counter()
            for line in body.strip().splitlines():
                m2 = DRAFTMANCER_LINE.match(line)
                assert m2 and m2.group(3) == "custom" and not m2.group(5), (
                    line
                )  # by id, never read as a foil
                counts[m2.group(4)] += int(m2.group(1))
            slots[m.group(1)] = (int(m.group(2)) if m.group(2) else None, counts)
    return settings, custom, slots


def test_draftmancer_list_parses_back_to_the_model(monkeypatch) -> None:
    monkeypatch.setattr(draftmancer, "render_pngs", _fake_pngs)
    ws = Workspace.find(REPO)
    out = files(make_export(ws, "power-trip", "draftmancer"))
    settings, custom, slots = parse_draftmancer(out["power-trip.draftmancer.txt"])
    loaded = load_game(ws, "power-trip")
    fmt = load_format(loaded.model, loaded.catalog)
    # an exhaust run is a finite pool (no withReplacement), copies never share a pack
    # (duplicateProtection)
    assert settings["boostersPerPlayer"] == 3 and settings["withReplacement"] is False
    assert settings["duplicateProtection"] is True
    assert list(slots) == ["MainSlot"] and slots["MainSlot"][0] == 15
    assert slots["MainSlot"][1] == Counter(
        {c.id: n for c, n in fmt.pool}
    )  # the same copies as cardgen's run
    assert {c["collector_number"] for c in custom} == set(slots["MainSlot"][1])
    assert all(c["rarity"] in DRAFTMANCER_RARITIES for c in custom)
    assert not any(c["name"] in ("[]", "[under construction]") for c in custom)
    assert all(
        c["image_uris"]["en"].startswith("images/")
        and c["image_uris"]["en"][0:] in {f"images/{Path(k).name}" for k in out}
        for c in custom
    )


def test_draftmancer_slots_and_layouts(monkeypatch) -> None:
    monkeypatch.setattr(draftmancer, "render_pngs", _fake_pngs)
    out = files(make_export(Workspace.find(FIXTURE_WS), "clean", "draftmancer"))
    settings, _, slots = parse_draftmancer(out["clean.draftmancer.txt"])
    assert settings["layouts"] == {"layout1": {"weight": 1, "slots": {"common": 1, "rare": 1}}}
    # slot sheets are weights that never run out (withReplacement), and no pack holds two copies
    assert settings["withReplacement"] is True and settings["duplicateProtection"] is True
    assert slots == {
        "common": (None, Counter({"ember-guard": 2, "tide-caller": 2})),
        "rare": (None, Counter({"firestorm": 1})),
    }


def test_draftmancer_refuses_names_it_cannot_read(monkeypatch, scratch_ws) -> None:
    from click.testing import CliRunner

    from cardgen.cli.main import main

    monkeypatch.setattr(draftmancer, "render_pngs", _fake_pngs)
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Firestorm", "name: Firestorm (+1)"))
    folder = scratch_ws.root / "output" / "dm"
    result = CliRunner().invoke(
        main,
        [
            "--root",
            str(scratch_ws.root),
            "export",
            "clean",
            "--to",
            "draftmancer",
            "--out",
            str(folder),
        ],
    )
    assert (
        result.exit_code == 1
        and "export-rejected" in result.output
        and "Firestorm (+1)" in result.output
    )
    assert not folder.exists()  # a list Draftmancer would reject is never written


@pytest.mark.parametrize("target,size", [("tgc", (825, 1125)), ("mpc", (822, 1122))])
def test_print_on_demand_canvases_and_manifest(target: str, size: tuple[int, int]) -> None:
    out = files(make_export(Workspace.find(FIXTURE_WS), "clean", target))
    pngs = [k for k in out if k.endswith(".png")]
    assert sorted(pngs) == [
        "backs/back.png",
        "fronts/ember-guard.png",
        "fronts/firestorm.png",
        "fronts/tide-caller.png",
    ]
    for k in pngs:
        with Image.open(io.BytesIO(out[k])) as im:
            assert im.size == size and round(im.info["dpi"][0]) == 300
    rows = out["manifest.csv"].splitlines()
    assert rows[0] == "front,back,quantity,name,product"
    assert "fronts/ember-guard.png,backs/back.png,2,Ember Guard,poker" in rows


LANTERN = TESTS / "fixtures" / "lantern"  # tarot allies and relics, poker-size (63 x 88 mm) spells


@pytest.mark.parametrize(
    "target,tarot,poker", [("tgc", (900, 1500), (825, 1125)), ("mpc", (897, 1497), (822, 1122))]
)
def test_each_card_size_gets_its_own_vendor_canvas(
    target: str, tarot: tuple[int, int], poker: tuple[int, int]
) -> None:
    """The Game Crafter and MakePlayingCards sell tarot cards on their own canvas (trim + the
    vendor's bleed at 300 dpi): a tarot card is never squeezed onto the poker canvas, which would
    crop its top and bottom."""
    out = files(make_export(Workspace.find(LANTERN), "lantern", target))
    sizes = {k: Image.open(io.BytesIO(v)).size for k, v in out.items() if k.endswith(".png")}
    assert sizes == {
        "fronts/ashgrove-warden.png": tarot,
        "fronts/stone-idol.png": tarot,
        "backs/back.png": tarot,
        "fronts/tidecaller.png": poker,
        "backs/spell-back.png": poker,
    }
    rows = out["manifest.csv"].splitlines()
    assert "fronts/tidecaller.png,backs/spell-back.png,1,Tidecaller,poker" in rows
    assert "fronts/stone-idol.png,backs/back.png,1,Stone Idol,tarot" in rows


def test_a_size_the_vendor_does_not_sell_is_refused_never_cropped(tmp_path: Path) -> None:
    """The 80 x 80 mm spells are left out and named (the vendor sells that size neither way up);
    the tarot cards are still exported (tests/export/test_orientation.py has the rest)."""
    ws = tmp_path / "ws"
    import shutil

    shutil.copytree(LANTERN, ws)
    spell = ws / "templates" / "lantern" / "spell.yaml"
    spell.write_text(spell.read_text().replace("size: 63mm x 88mm", "size: 80mm x 80mm"))
    back = ws / "templates" / "lantern" / "spell-back.yaml"
    back.write_text(back.read_text().replace("size: 63mm x 88mm", "size: 80mm x 80mm"))
    for target in ("tgc", "mpc", "dtc"):
        result = make_export(Workspace.find(ws), "lantern", target)
        assert result.problems == [] and [f.code for f in result.refused] == ["export-size-refused"]
        message = result.refused[0].message
        assert "80 x 80 mm" in message and "tarot 69.85 x 120.65 mm" in message, message
        assert "(Tidecaller)" in message
        assert not any("tidecaller" in f.relpath for f in result.files)
        assert any("stone-idol" in f.relpath or "tarot" in f.relpath for f in result.files)


def test_drivethrucards_one_pdf_per_product() -> None:
    out = files(make_export(Workspace.find(LANTERN), "lantern", "dtc"))
    tarot = PdfReader(io.BytesIO(out["lantern-drivethrucards-tarot.pdf"]))
    poker = PdfReader(io.BytesIO(out["lantern-drivethrucards.pdf"]))
    assert len(tarot.pages) == 4 and len(poker.pages) == 2  # back and front of each card
    for page in tarot.pages:  # 2.75 x 4.75 in trim + 1/8 in bleed
        assert [round(float(v), 2) for v in page.mediabox] == [0, 0, 216, 360]
        assert [round(float(v), 2) for v in page.trimbox] == [9, 9, 207, 351]
    assert [round(float(v), 2) for v in poker.pages[0].mediabox] == [0, 0, 198, 270]


def test_drivethrucards_pdf_boxes_and_order() -> None:
    out = files(make_export(Workspace.find(FIXTURE_WS), "clean", "dtc"))
    reader = PdfReader(io.BytesIO(out["clean-drivethrucards.pdf"]))
    assert len(reader.pages) == 10  # five cards, each its back then its front
    for page in reader.pages:
        assert [round(float(v), 2) for v in page.mediabox] == [0, 0, 198, 270]
        assert [round(float(v), 2) for v in page.trimbox] == [9, 9, 189, 261]
        assert [round(float(v), 2) for v in page.bleedbox] == [0, 0, 198, 270]
    texts = [p.extract_text() for p in reader.pages[:2]]
    assert "Ember Guard" not in texts[0] and "Ember Guard" in texts[1]


def test_unknown_target_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(CardgenError, match="did you mean 'cockatrice'"):
        run_export(Workspace.find(FIXTURE_WS), "clean", "cockatrise", out=tmp_path / "x")
    assert not (tmp_path / "x").exists()

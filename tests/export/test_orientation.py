"""Landscape cards at print shops: a card whose turned size is a vendor's product goes on that
product's portrait canvas, turned 90 degrees (front clockwise, back counter-clockwise); an export
with cards of a size the vendor does not sell writes the others and names those."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader

from cardgen.core.units import length
from cardgen.core.units import size as card_size
from cardgen.core.workspace import Workspace
from cardgen.jobs.export import make_export, run_png_export
from cardgen.printrun.pngs import PngOptions
from cardgen.render.vendors import VENDORS, product_for

from ..conftest import TESTS

SUPPLY = TESTS / "fixtures" / "supply"  # sample deckbuilder: poker, landscape 88 x 63 mm, mini
FRONT_BAND = (0x1D, 0x5E, 0x3A)  # the dark band along the top edge of a Location's front
BACK_BAND = (0x5E, 0x1D, 0x3A)  # ... and of its back

# The vendors' own canvases for a poker card (their templates): The Game Crafter 825 x 1125 px,
# MakePlayingCards 822 x 1122 px, DriveThruCards a 2.75 x 3.75 in page (198 x 270 pt).
POKER_CANVAS = {"tgc": (825, 1125), "mpc": (822, 1122)}
DTC_POKER_PAGE = [0, 0, 198, 270]


def files(result) -> dict[str, bytes | str]:
    return {f.relpath: f.data for f in result.files}


def _size(mm: str) -> tuple[float, float]:
    w, h = mm.split(" x ")
    return length(w), length(h)


@pytest.mark.parametrize("key", ["tgc", "mpc", "dtc"])
def test_a_landscape_poker_card_is_the_poker_product_turned(key: str) -> None:
    v = VENDORS[key]
    upright = product_for(v, _size("63mm x 88mm"))
    turned = product_for(v, _size("88mm x 63mm"))
    assert not isinstance(upright, str) and not isinstance(turned, str)
    assert product_for(v, card_size("landscape")) == turned  # the size's name: poker-eu on its side
    assert turned.product == upright.product and turned.rotated and not upright.rotated
    assert turned.upload == upright.canvas  # the file the vendor receives: its portrait canvas
    assert turned.canvas == (upright.canvas[1], upright.canvas[0])  # drawn the card's way up
    if key in POKER_CANVAS:
        assert upright.canvas == POKER_CANVAS[key]
    square = product_for(v, _size("63.5mm x 63.5mm"))
    assert not isinstance(square, str) and not square.rotated and square.product.name == "square"
    refused = product_for(v, _size("80mm x 80mm"))
    assert (
        isinstance(refused, str) and "either way up" in refused and "turned on its side" in refused
    )


def _band_side(png: bytes, band: tuple[int, int, int]) -> str:
    """Which edge of the picture the band lies along: top, right, bottom or left."""
    with Image.open(io.BytesIO(png)) as im:
        rgb = im.convert("RGB")
        w, h = rgb.size
        probes = {
            "top": (w // 2, h // 20),
            "right": (w - w // 20, h // 2),
            "bottom": (w // 2, h - h // 20),
            "left": (w // 20, h // 2),
        }
        seen: dict[str, tuple[int, ...]] = {k: tuple(rgb.getpixel(xy)) for k, xy in probes.items()}  # type: ignore[arg-type]
        near = [k for k, px in seen.items() if sum(abs(a - b) for a, b in zip(px, band)) < 40]
    assert len(near) == 1, near
    return near[0]


@pytest.mark.parametrize("target", ["tgc", "mpc"])
def test_png_vendors_get_landscape_cards_turned_onto_the_portrait_canvas(target: str) -> None:
    result = make_export(Workspace.find(SUPPLY), "supply", target)
    out = files(result)
    assert result.problems == [] and result.refused == []
    for name in ("fronts/harbor.png", "backs/location-back.png", "fronts/village.png"):
        with Image.open(io.BytesIO(out[name])) as im:  # type: ignore[arg-type]
            assert im.size == POKER_CANVAS[target] and round(im.info["dpi"][0]) == 300, name
    with Image.open(io.BytesIO(out["fronts/feast-day.png"])) as im:  # type: ignore[arg-type]
        assert im.size[0] < im.size[1]  # the mini Event on the mini product, upright
    # the front turned clockwise (its top edge on the right), the back counter-clockwise: the card,
    # held landscape and turned over sideways, shows its back upright
    assert _band_side(out["fronts/harbor.png"], FRONT_BAND) == "right"  # type: ignore[arg-type]
    assert _band_side(out["backs/location-back.png"], BACK_BAND) == "left"  # type: ignore[arg-type]
    rows = str(out["manifest.csv"]).splitlines()
    assert "fronts/harbor.png,backs/location-back.png,1,Harbor,poker" in rows
    assert any(
        note.startswith("2 Location cards rotated to poker portrait") for note in result.notes
    )


def test_drivethrucards_pages_turn_landscape_cards_back_and_front() -> None:
    result = make_export(Workspace.find(SUPPLY), "supply", "dtc", press=False)
    out = files(result)
    poker = out["supply-drivethrucards.pdf"]
    reader = PdfReader(io.BytesIO(poker))  # type: ignore[arg-type]
    # 12 Coins, 8 Shacks, 3 x 10 kingdom cards, then the 2 Locations: each card's back, then front
    assert len(reader.pages) == 2 * (12 + 8 + 30 + 2)
    for page in reader.pages:
        assert [round(float(v), 2) for v in page.mediabox] == DTC_POKER_PAGE
        assert [round(float(v), 2) for v in page.trimbox] == [9, 9, 189, 261]
    assert "Harbor" in (reader.pages[101].extract_text() or "")
    doc = pdfium.PdfDocument(poker)
    pictures = []
    for index in (100, 101):
        buf = io.BytesIO()
        doc[index].render(scale=1).to_pil().save(buf, format="PNG")
        pictures.append(buf.getvalue())
    doc.close()
    assert _band_side(pictures[0], BACK_BAND) == "left"  # Harbor's back, counter-clockwise
    assert _band_side(pictures[1], FRONT_BAND) == "right"  # then its front, clockwise
    assert len(PdfReader(io.BytesIO(out["supply-drivethrucards-mini.pdf"])).pages) == 2  # type: ignore[arg-type]
    assert any(
        note.startswith("2 Location cards rotated to poker portrait") for note in result.notes
    )


def _with_square_events(tmp_path: Path) -> Workspace:
    """The sample game with its Events made 80 x 80 mm: a size no vendor here sells either way."""
    root = tmp_path / "ws"
    shutil.copytree(SUPPLY, root)
    for name in ("event.yaml", "event-back.yaml"):
        path = root / "templates" / "supply" / name
        path.write_text(path.read_text().replace("size: 44.45mm x 63.5mm", "size: 80mm x 80mm"))
    return Workspace.find(root)


@pytest.mark.parametrize("target", ["tgc", "mpc", "dtc"])
def test_cards_of_an_unsold_size_are_left_out_and_named_the_rest_written(
    tmp_path: Path, target: str
) -> None:
    result = make_export(_with_square_events(tmp_path), "supply", target)
    assert result.problems == []  # the export is written ...
    assert [f.code for f in result.refused] == ["export-size-refused"]  # ... and one error names
    refusal = result.refused[0]
    assert refusal.file == "templates/supply/event.yaml"
    assert f"{target}: 1 card left out (Feast Day)" in refusal.message
    assert "80 x 80 mm" in refusal.message and "either way up" in refusal.message
    out = files(result)
    if target == "dtc":
        assert sorted(out) == ["supply-drivethrucards.pdf"]
    else:
        assert "fronts/harbor.png" in out and "fronts/feast-day.png" not in out
        assert "Feast Day" not in str(out["manifest.csv"])


def test_png_preset_writes_the_rest_and_names_the_cards_left_out(tmp_path: Path) -> None:
    ws = _with_square_events(tmp_path)
    folder = tmp_path / "png"
    result = run_png_export(ws, "supply", PngOptions(preset="tgc"), folder)
    assert [f.code for f in result.findings] == ["export-size-refused"]
    assert "Feast Day" in result.findings[0].message
    assert not (folder / "feast-day.png").exists()
    with Image.open(folder / "harbor.png") as im:
        assert im.size == POKER_CANVAS["tgc"]
    assert _band_side((folder / "harbor.png").read_bytes(), FRONT_BAND) == "right"
    assert _band_side((folder / "back-location-back.png").read_bytes(), BACK_BAND) == "left"
    assert any("2 Location cards rotated to poker portrait" in n for n in result.notes)


def test_every_card_refused_still_writes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(SUPPLY, root)
    for path in (root / "templates" / "supply").glob("*.yaml"):
        text = path.read_text()
        for size in ("63mm x 88mm", "88mm x 63mm", "44.45mm x 63.5mm"):
            text = text.replace(f"size: {size}", "size: 80mm x 80mm")
        path.write_text(text)
    result = make_export(Workspace.find(root), "supply", "tgc")
    assert result.files == [] and result.refused == []
    assert len(result.problems) == 1 and "80 x 80 mm" in result.problems[0]


def test_export_job_writes_the_rest_and_exits_1(tmp_path):  # type: ignore[no-untyped-def]
    from cardgen.jobs.export import run_export

    result = run_export(_with_square_events(tmp_path), "supply", "tgc", out=tmp_path / "tgc")
    assert [f.code for f in result.findings] == ["export-size-refused"]
    assert result.failed()
    assert (tmp_path / "tgc/fronts/harbor.png").exists()
    assert not (tmp_path / "tgc/fronts/feast-day.png").exists()

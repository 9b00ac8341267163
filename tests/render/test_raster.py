"""PNG export: exact vendor canvases, recorded DPI, identical bytes, and one low-resolution
golden."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from cardgen.core.errors import CardgenError
from cardgen.core.workspace import Workspace
from cardgen.printrun.pngs import PngOptions, export_pngs
from cardgen.project.studio import open_studio
from cardgen.render.raster import render_pngs

from ..conftest import FIXTURE_WS, TESTS

GOLDEN = TESTS / "goldens" / "clean-firestorm-72dpi.png"
FAILED = TESTS / "output" / "goldens"  # ignored by git


@pytest.fixture(scope="module")
def studio():
    return open_studio(Workspace.find(FIXTURE_WS), "clean")


@pytest.mark.parametrize(
    "name,size", [("tgc", (825, 1125)), ("mpc", (822, 1122)), ("tgc-poker", (825, 1125))]
)
def test_presets_give_exact_canvases(tmp_path, studio, name: str, size: tuple[int, int]) -> None:
    result = export_pngs(
        studio, PngOptions(preset=name, only="card.name == 'Tide Caller'"), tmp_path
    )
    assert sorted(p.path.name for p in result.outputs) == ["back-back.png", "tide-caller.png"]
    for out in result.outputs:
        with Image.open(out.path) as im:
            assert im.size == size
            assert round(im.info["dpi"][0]) == 300


def test_unknown_preset(tmp_path, studio) -> None:
    with pytest.raises(CardgenError, match="did you mean 'tgc'"):
        export_pngs(studio, PngOptions(preset="tgx"), tmp_path)


def test_png_bytes_are_reproducible_and_match_the_golden(studio, regen: bool) -> None:
    card = studio.check.catalog.find("Firestorm")
    face, _ = studio.prepare(card)
    first = next(iter(render_pngs([face], studio.fonts, studio.model, dpi=72, workers=1)))
    again = next(iter(render_pngs([face], studio.fonts, studio.model, dpi=72, workers=1)))
    assert first == again
    if regen:
        GOLDEN.write_bytes(first)
    assert GOLDEN.exists(), (
        "no golden yet: run pytest --regen-goldens and look at the image before committing it"
    )
    got = Image.open(io.BytesIO(first)).convert("RGB")
    want = Image.open(GOLDEN).convert("RGB")
    assert got.size == want.size == (196, 267)
    diff = ImageChops.difference(got, want).convert("L")
    changed = sum(diff.histogram()[49:])
    if changed >= 0.01 * got.size[0] * got.size[1]:
        FAILED.mkdir(
            parents=True, exist_ok=True
        )  # what a reviewer needs: the picture, and where it differs
        got.save(FAILED / f"actual-{GOLDEN.name}")
        diff.point(lambda v: 255 if v > 48 else 0).save(FAILED / f"diff-{GOLDEN.name}")
    assert changed < 0.01 * got.size[0] * got.size[1], (
        f"{changed} pixels differ; see {FAILED}/actual-{GOLDEN.name} and diff-{GOLDEN.name}; "
        "rerun with --regen-goldens if intended"
    )


@pytest.mark.parametrize("dpi", [72, 150, 300, 301, 302])
def test_faces_drawn_straight_into_png_rows_are_the_bytes_of_the_image_encoded(
    studio, dpi: int
) -> None:
    """render_pngs draws each page into PNG rows (raster.page_png): the same bytes as the page
    drawn as an image and encoded by png_bytes, at widths of every remainder modulo 4 (rows
    of 4-byte-aligned and unaligned lengths)."""
    import pypdfium2 as pdfium

    from cardgen.render.raster import faces_pdf, page_png, png_bytes

    faces = [studio.prepare(card)[0] for card in studio.designs(printable=True)[:3]]
    doc = pdfium.PdfDocument(faces_pdf(faces, studio.fonts, studio.model))
    for i in range(len(faces)):
        image = doc[i].render(scale=dpi / 72, draw_annots=False, rev_byteorder=True).to_pil()
        assert page_png(doc[i], dpi / 72, dpi) == png_bytes(image, dpi)
    assert list(render_pngs(faces, studio.fonts, studio.model, dpi=dpi, workers=1)) == [
        png_bytes(
            doc[i].render(scale=dpi / 72, draw_annots=False, rev_byteorder=True).to_pil(), dpi
        )
        for i in range(len(faces))
    ]
    doc.close()

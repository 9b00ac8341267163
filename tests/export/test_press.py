"""Press-ready PDF (DriveThruCards asks for PDF/X-1a:2003: CMYK, no transparency, an output intent,
TrimBox and BleedBox, fonts embedded, total ink at most 240 %), read back with pypdf, never with our
own writer."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image, ImageCms
from pypdf import PdfReader
from pypdf.generic import IndirectObject, StreamObject

from cardgen.core.workspace import Workspace
from cardgen.jobs.export import make_export
from cardgen.render.prepared import Op, PreparedFace
from cardgen.render.press import cmyk_of, flatten

COLOUR_OPS = re.compile(
    rb"(?:^|\s)((?:-?[\d.]+\s+){1,4})(rg|RG|k|K|g|G|sc|SC|scn|SCN|cs|CS)(?=\s|$)"
)


@pytest.fixture(scope="module")
def press_pdf(tmp_path_factory) -> PdfReader:
    """The sample workspace's DTC export, with a translucent picture on one card and a 50 % opaque
    element."""
    import shutil

    from ..conftest import FIXTURE_WS

    root = tmp_path_factory.mktemp("press") / "ws"
    shutil.copytree(FIXTURE_WS, root)
    art = Image.new("RGBA", (60, 40), (40, 90, 200, 255))
    art.paste(
        (0, 0, 0, 0), (0, 0, 30, 40)
    )  # half transparent: it must be composited, never an SMask
    art.save(root / "cards" / "clean" / "art.png")
    cards = root / "cards" / "clean" / "cards.yaml"
    cards.write_text(
        cards.read_text().replace(
            "- name: Tide Caller\n", "- name: Tide Caller\n  art: cards/clean/art.png\n"
        )
    )
    front = root / "templates" / "clean" / "front.yaml"
    front.write_text(
        front.read_text().rstrip("\n")
        + '\n  - {id: veil, type: rect, x: 5mm, y: 60mm, w: 20mm, h: 10mm, fill: "#c0392b", '
        "opacity: 0.5}\n"
    )
    made = make_export(Workspace.find(root), "clean", "dtc")
    data = next(f.data for f in made.files if f.relpath.endswith(".pdf"))
    assert isinstance(data, bytes)
    return PdfReader(io.BytesIO(data))


def _objects(reader: PdfReader) -> list[object]:
    """Every object of the file, from its cross-reference table."""
    return [
        reader.get_object(IndirectObject(num, gen, reader))
        for gen, entries in reader.xref.items()
        for num in entries
    ]


def test_version_output_intent_and_info_keys(press_pdf: PdfReader) -> None:
    assert press_pdf.pdf_header == "%PDF-1.4"  # PDF/X-1a:2003 is based on PDF 1.4
    intent = press_pdf.trailer["/Root"]["/OutputIntents"][0].get_object()
    assert (
        intent["/S"] == "/GTS_PDFX"
        and intent["/OutputConditionIdentifier"]
        and intent["/RegistryName"]
    )
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4
    icc = ImageCms.getOpenProfile(io.BytesIO(profile.get_data()))
    assert icc.profile.xcolor_space.strip() == "CMYK"
    info = press_pdf.trailer["/Info"].get_object()
    assert (
        info["/GTS_PDFXVersion"] == "PDF/X-1:2003"
        and info["/Trapped"] == "/False"
        and info["/Title"]
    )


def test_every_page_has_trim_and_bleed_boxes(press_pdf: PdfReader) -> None:
    for page in press_pdf.pages:
        assert [round(float(v), 2) for v in page.trimbox] == [9, 9, 189, 261]
        assert [round(float(v), 2) for v in page.bleedbox] == [0, 0, 198, 270]


def test_cmyk_only_no_transparency_ink_within_240(press_pdf: PdfReader) -> None:
    streams = images = 0
    for obj in _objects(press_pdf):
        if not isinstance(obj, StreamObject):
            continue
        if obj.get("/Subtype") == "/Image":
            images += 1
            assert (
                obj["/ColorSpace"] == "/DeviceCMYK" and "/SMask" not in obj and "/Mask" not in obj
            )
            continue
        if (
            "/N" not in obj and "/Length1" not in obj
        ):  # page contents and forms (not the profile, not fonts)
            data = obj.get_data()
            for numbers, op in COLOUR_OPS.findall(data):
                assert op in (b"k", b"K", b"g", b"G"), (
                    f"{op!r}: only CMYK (or grey) colour in PDF/X-1a"
                )
                if op in (b"k", b"K"):
                    assert sum(float(v) for v in numbers.split()) <= 2.4 + 1e-3
            streams += 1
        for key in ("/SMask", "/Group"):
            assert key not in obj
    assert streams > 5 and images == 1
    for obj in _objects(press_pdf):
        if isinstance(obj, dict) and obj.get("/Type") == "/ExtGState":
            assert (
                float(obj.get("/ca", 1)) == 1
                and float(obj.get("/CA", 1)) == 1
                and "/SMask" not in obj
            )
    for page in press_pdf.pages:
        for font in _fonts(page):
            descriptor = (
                font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
                if "/DescendantFonts" in font
                else font["/FontDescriptor"]
            )
            assert "/FontFile2" in descriptor.get_object()


def _fonts(page) -> list:
    found = []
    for form in page["/Resources"].get("/XObject", {}).values():
        form = form.get_object() if isinstance(form, IndirectObject) else form
        for font in form.get("/Resources", {}).get("/Font", {}).values():
            found.append(font.get_object())
    return found


def test_flattening_mixes_a_translucent_shape_with_what_is_beneath() -> None:
    face = PreparedFace(
        "k",
        None,
        100.0,
        100.0,
        0.0,
        [  # type: ignore[arg-type]
            Op("rect", (0, 0, 100, 100), {"fill": "#0000ff"}),
            Op("rect", (10, 10, 20, 20), {"fill": "#ff0000", "opacity": 0.5}),
            Op(
                "rect", (200, 200, 5, 5), {"fill": "#ff0000", "opacity": 0.25}
            ),  # over nothing: the paper
        ],
    )
    flat = flatten(face)
    assert [op.props.get("fill") for op in flat.ops] == ["#0000ff", "#800080", "#ffbfbf"]
    assert all("opacity" not in op.props for op in flat.ops) and flat.key != face.key


def test_black_and_greys_print_with_black_ink_only() -> None:
    assert cmyk_of((0, 0, 0)) == (0, 0, 0, 1.0)
    assert cmyk_of((255, 255, 255)) == (0, 0, 0, 0.0)
    c, m, y, k = cmyk_of((192, 57, 43))
    assert c + m + y + k <= 2.4 + 1e-3 and m > 0.6 and y > 0.6


def test_no_press_keeps_rgb_and_press_is_for_dtc_only() -> None:
    from cardgen.core.errors import CardgenError

    from ..conftest import FIXTURE_WS

    made = make_export(Workspace.find(FIXTURE_WS), "clean", "dtc", press=False)
    data = next(f.data for f in made.files if f.relpath.endswith(".pdf"))
    assert (
        isinstance(data, bytes)
        and "/OutputIntents" not in PdfReader(io.BytesIO(data)).trailer["/Root"]
    )
    with pytest.raises(CardgenError, match="goes with --to dtc"):
        make_export(Workspace.find(FIXTURE_WS), "clean", "tgc", press=True)

"""Print sheets as data (slots, marks, mirrored backs) and as PDF structure (pypdf)."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from pypdf import PdfReader

from cardgen.core.errors import CardgenError
from cardgen.core.units import CARD_SIZES, PAPERS
from cardgen.core.workspace import Workspace
from cardgen.printrun.printing import SheetOptions, choose_cards, sheet_bytes
from cardgen.project.studio import open_studio
from cardgen.render.sheets import MM, SheetSpec, back_slot, crop_marks, plan_grid

from ..placed import placed_faces

POKER_EU = CARD_SIZES["poker-eu"]


def spec(paper: str = "a4", layout: str = "shared-cut", bleed: float = 3 * MM, **kw) -> SheetSpec:
    return SheetSpec(PAPERS[paper], POKER_EU, bleed, layout, **kw)


def test_a4_shared_cut_is_3_by_3_with_the_known_margins() -> None:
    grid = plan_grid(spec())
    assert (grid.cols, grid.rows) == (3, 3)
    left = min(s.trim[0] for s in grid.slots)
    bottom = min(s.trim[1] for s in grid.slots)
    assert round(left / MM, 2) == 10.5 and round(bottom / MM, 2) == 16.5


def test_gutter_layout_keeps_every_bleed_and_says_what_fits() -> None:
    grid = plan_grid(spec(layout="gutter"))
    assert (grid.cols, grid.rows) == (2, 3)
    for a in grid.slots:
        for b in grid.slots:
            if a is not b:  # painted bleeds never overlap
                ax, ay, aw, ah = a.paint
                bx, by, bw, bh = b.paint
                assert (
                    ax + aw <= bx + 1e-6
                    or bx + bw <= ax + 1e-6
                    or ay + ah <= by + 1e-6
                    or by + bh <= ay + 1e-6
                )


def test_paper_smaller_than_a_card_suggests_a_bleed() -> None:
    tiny = SheetSpec((74 * MM, 100 * MM), POKER_EU, 3 * MM)  # the trim must stay 5 mm from the edge
    with pytest.raises(CardgenError, match=r"bleed ≤ 2\.5 mm"):
        plan_grid(tiny)
    with pytest.raises(CardgenError, match=r"use larger paper"):
        plan_grid(SheetSpec((70 * MM, 95 * MM), POKER_EU, 3 * MM))


@pytest.mark.parametrize("layout", ["shared-cut", "gutter"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_stay_in_the_margins(layout: str, paper: str) -> None:
    s = spec(paper, layout)
    grid = plan_grid(s)
    marks = crop_marks(grid, s)
    assert marks
    for x1, y1, x2, y2 in marks:
        for slot in grid.slots:
            px, py, pw, ph = slot.paint
            inside_x = px + 1e-6 < max(x1, x2) and min(x1, x2) < px + pw - 1e-6
            inside_y = py + 1e-6 < max(y1, y2) and min(y1, y2) < py + ph - 1e-6
            assert not (inside_x and inside_y), "a mark crosses a card's bleed"
        assert min(x1, x2) >= 3 * MM - 1e-6 and max(x1, x2) <= s.paper[0] - 3 * MM + 1e-6
        assert min(y1, y2) >= 3 * MM - 1e-6 and max(y1, y2) <= s.paper[1] - 3 * MM + 1e-6
        assert abs(x1 - x2) <= 5 * MM + 1e-6 and abs(y1 - y2) <= 5 * MM + 1e-6


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_backs_mirror_onto_their_fronts(duplex: str) -> None:
    s = spec(duplex=duplex)
    grid = plan_grid(s)
    pw, ph = s.paper
    for slot in grid.slots:
        x, y, w, h = slot.trim
        bx, by, bw, bh = back_slot(slot.trim, s)
        # flip the back page the way the printer does, and the centres must coincide within 0.1 mm
        fx, fy = (
            (pw - (bx + bw / 2), by + bh / 2)
            if duplex == "long"
            else (bx + bw / 2, ph - (by + bh / 2))
        )
        assert abs(fx - (x + w / 2)) < 0.1 * MM and abs(fy - (y + h / 2)) < 0.1 * MM
    moved = back_slot(grid.slots[0].trim, spec(duplex=duplex, back_offset=(2 * MM, -1 * MM)))
    assert moved[0] - back_slot(grid.slots[0].trim, s)[0] == pytest.approx(2 * MM)


@pytest.fixture(scope="module")
def clean_pdf() -> tuple[bytes, int]:
    from ..conftest import FIXTURE_WS

    studio = open_studio(Workspace.find(FIXTURE_WS), "clean")
    opts = SheetOptions(copies="collation")
    chosen, _, _ = choose_cards(studio, opts)
    run = sheet_bytes(studio, opts, chosen)
    pdf, sheets = run.pdf, run.sheets
    return pdf, sheets


def test_pdf_structure(clean_pdf: tuple[bytes, int]) -> None:
    pdf, sheets = clean_pdf
    reader = PdfReader(io.BytesIO(pdf))
    assert sheets == 1 and len(reader.pages) == 2  # a page of fronts, then its backs
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    placed = placed_faces(reader.pages[0])
    # 5 cards of 3 designs: each face drawn once, a face placed twice as a form placed by reference
    assert len(placed) == 5 and len({key for key, _, _ in placed}) == 3
    again = {key for key, _, form in placed if form}
    assert again and again == {
        key for key, _, _ in placed if [k for k, *_ in placed].count(key) > 1
    }
    xobjects = reader.pages[0]["/Resources"]["/XObject"]
    fonts = set()
    for resources in [reader.pages[0]["/Resources"]] + [
        xobjects[f"/FormXob.F{key}"].get_object()["/Resources"] for key in again
    ]:
        for font in resources["/Font"].values():
            font = font.get_object()
            fonts.add(font["/BaseFont"])
            descriptor = (
                font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
                if "/DescendantFonts" in font
                else font["/FontDescriptor"]
            )
            assert "/FontFile2" in descriptor.get_object()  # embedded TrueType
    assert fonts and all("+" in name for name in fonts)  # subset, never a base-14 font
    text = reader.pages[0].extract_text()
    assert "Ember Guard" in text and "print at 100 %" in text


def test_same_input_same_bytes(clean_pdf: tuple[bytes, int]) -> None:
    from ..conftest import FIXTURE_WS

    studio = open_studio(Workspace.find(FIXTURE_WS), "clean")
    opts = SheetOptions(copies="collation")
    chosen, _, _ = choose_cards(studio, opts)
    assert sheet_bytes(studio, opts, chosen).pdf == clean_pdf[0]


def test_blank_slots_get_no_backs(clean_pdf: tuple[bytes, int]) -> None:
    reader = PdfReader(io.BytesIO(clean_pdf[0]))
    content = reader.pages[1].get_contents().get_data().decode("latin-1")
    assert (
        content.count(" Do") == 5
    )  # five cards placed: five backs, the other four slots stay blank


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_calibration_shows_at_a_glance_whether_the_flip_mode_was_right(duplex: str) -> None:
    import re

    from ..conftest import FIXTURE_WS

    studio = open_studio(Workspace.find(FIXTURE_WS), "clean")
    opts = SheetOptions(copies="collation", calibration=True, duplex=duplex)
    chosen, _, _ = choose_cards(studio, opts)
    reader = PdfReader(io.BytesIO(sheet_bytes(studio, opts, chosen).pdf))
    pw, ph = (float(v) for v in reader.pages[0].mediabox[2:])

    def boxes(index: int) -> list[tuple[float, ...]]:
        content = reader.pages[index].get_contents().get_data().decode("latin-1")
        found = [
            tuple(float(v) for v in m)
            for m in re.findall(r"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re f", content)
        ]
        return [b for b in found if abs(b[2] - 34 * MM) < 0.01]

    (front,) = boxes(0)
    back = boxes(1)
    right, wrong = back
    x, y, w, h = front
    behind = (
        (pw - x - w, y) if duplex == "long" else (x, ph - y - h)
    )  # where the paper flip puts it
    assert (round(right[0], 2), round(right[1], 2)) == (round(behind[0], 2), round(behind[1], 2))
    assert (round(wrong[0], 2), round(wrong[1], 2)) != (round(behind[0], 2), round(behind[1], 2))
    text = reader.pages[1].extract_text()
    other = "short" if duplex == "long" else "long"
    assert "FLIP MODE RIGHT" in text and f"use --duplex {other}" in text
    assert (
        "+5" in text and "-5" in text and "+x" in text and "+y" in text
    )  # numbered scales with directions


def test_low_ink_keeps_the_layout_for_a_fraction_of_the_toner() -> None:
    import pypdfium2 as pdfium

    from cardgen.render.lowink import low_ink

    from ..conftest import REPO

    studio = open_studio(Workspace.find(REPO), "power-trip")
    cards = [
        (studio.check.catalog.find(name), 3)
        for name in ("Hulking Demon", "Chameleon", "Dark Resource")
    ]

    def sheet(ink: str) -> tuple[bytes, float]:
        from PIL import ImageStat

        pdf = sheet_bytes(studio, SheetOptions(ink=ink), cards).pdf
        pages = [
            page.render(scale=30 / 72).to_pil().convert("L") for page in pdfium.PdfDocument(pdf)
        ]
        return pdf, sum(1 - ImageStat.Stat(page).mean[0] / 255 for page in pages) / len(pages)

    (normal, normal_ink), (low, low_ink_cover) = sheet("normal"), sheet("low")
    assert (
        low_ink_cover < 0.25 * normal_ink
    )  # toner, fronts and backs: the dark frames and grounds are gone
    texts = [PdfReader(io.BytesIO(pdf)).pages[0].extract_text() for pdf in (normal, low)]
    assert texts[0] == texts[1]  # the same words in the same places: layout and fitting untouched
    face, _ = studio.prepare(cards[0][0])
    twin = low_ink(face)
    assert twin.key != face.key and [op.box for op in twin.ops if op.type == "text"] == [
        op.box for op in face.ops if op.type == "text"
    ]
    assert not [op for op in twin.ops if op.type in ("rect", "circle") and op.props.get("fill")]
    # the edge low_ink gives its copy without reading its ops is the one its ops make
    for card in studio.designs(printable=True):
        for made in studio.prepare(card):
            if made is not None:
                copy = low_ink(made)
                assert copy.edge() == (255, 255, 255)
                assert replace(copy).edge() == (255, 255, 255), card.id  # worked out from the ops


def test_a_low_ink_copy_has_a_white_edge_whatever_it_drew() -> None:
    """Every kind of op that fills, at the cut or covering the card: none is left filled."""
    from cardgen.render.lowink import low_ink
    from cardgen.render.prepared import Op, PreparedFace

    from ..conftest import FIXTURE_WS

    studio = open_studio(Workspace.find(FIXTURE_WS), "clean")
    template = studio.faces.rules[0].front
    w, h = template.size
    ops = [
        Op("rect", (0, 0, w, h), {"fill": "#202020"}),
        Op("image", (0, 0, w / 2, h / 2), {"path": "art.png"}),
        Op("circle", (w - 10, 0, 20, 20), {"fill": "#ff0000"}),
        Op("polygon", (0, h - 10, 30, 20), {"fill": "#00ff00"}),
        Op("rect", (0, 0, w, 12), {"fill": "#0000ff", "opacity": 1}),
        Op("badge", (0, 0, 20, 20), {"fill": "#333333"}),
        Op("line", (0, 0, w, 0), {"stroke": "#eeeeee"}),
    ]
    face = PreparedFace("k", template, w, h, 9.0, ops)
    assert face.edge() is None
    copy = low_ink(face)
    assert copy.edge() == replace(copy).edge() == (255, 255, 255)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_a_cut_card_turned_over_sideways_shows_its_back_upright(duplex: str) -> None:
    """A short-edge flip turns the sheet end over end: each back is printed upside down on its page
    so that the cut card, turned over sideways, shows it upright, as a long-edge print does. Read
    back: the whole matrix each back is drawn with, and where its centre lands."""
    from pypdf.generic import ContentStream

    from ..conftest import FIXTURE_WS

    studio = open_studio(Workspace.find(FIXTURE_WS), "clean")
    opts = SheetOptions(copies="collation", duplex=duplex)
    chosen, _, _ = choose_cards(studio, opts)
    reader = PdfReader(io.BytesIO(sheet_bytes(studio, opts, chosen).pdf))
    page = reader.pages[1]
    ctm, stack, seen = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0], [], []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, C, D, E, F = ctm
            ctm = [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
                   e * A + f * C + E, e * B + f * D + F]  # fmt: skip
        elif op == b"Do" and str(operands[0]).startswith("/FormXob.F"):
            seen.append([round(v, 3) for v in ctm[:4]])
    assert len(seen) == 5
    upright, upside_down = [1.0, 0.0, 0.0, 1.0], [-1.0, 0.0, -0.0, -1.0]
    want = upright if duplex == "long" else upside_down
    assert all([v + 0.0 for v in m] == [v + 0.0 for v in want] for m in seen)


@pytest.mark.parametrize("layout", ["shared-cut", "gutter"])
def test_a_card_beside_an_empty_slot_keeps_its_bleed_on_that_side(layout: str) -> None:
    """The last page holds 5 cards of 9 (3 x 3): butted cards paint their bleed on the grid's
    outside and, now, towards an empty slot too (right of slot 4, below slots 2, 3 and 4); a
    full page and the gutter layout (every card its own bleed) are as before."""
    from cardgen.render.sheets import plan_sheets

    s = spec(layout=layout)
    grid = plan_grid(s)
    assert grid.per_page == (9 if layout == "shared-cut" else 6)
    items = [(f"c{i}", f"f{i}", None) for i in range(grid.per_page + 5)]
    full, tail = plan_sheets(items, s).pages
    assert [p.slot for p in full.placements] == grid.slots
    b = 3 * MM
    grown = {}
    for p, slot in zip(tail.placements, grid.slots):
        (x, y, w, h), (x0, y0, w0, h0) = p.slot.paint, slot.paint
        assert p.slot.trim == slot.trim and x == x0 and y + h == pytest.approx(y0 + h0)
        grown[slot.index] = (round((w - w0) / b, 6), round((y0 - y) / b, 6))
    if layout == "gutter":
        assert set(grown.values()) == {(0, 0)}
    else:  # (right, below) in bleeds
        assert grown == {0: (0, 0), 1: (0, 0), 2: (0, 1), 3: (0, 1), 4: (1, 1)}

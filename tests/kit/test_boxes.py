"""Boxes: the nets fold (geometrically, a quarter turn at every fold line) into boxes whose inside
is within 0.5 mm of what each deck needs; the PDF's dashed and solid lines are the nets' folds and
cuts; too-large nets are split or refused with a finding; the stock and sleeve tables."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from cardgen.core.options import STANDARD
from cardgen.core.stock import SLEEVE_FILM, sleeve_for, sleeved_size, stock, thickness_of
from cardgen.core.units import UnitError
from cardgen.core.workspace import Workspace
from cardgen.kit.boxes import BoxOptions, plan_boxes
from cardgen.kit.boxpdf import write_boxes
from cardgen.kit.net import Net, extent, fold
from cardgen.kit.pdfread import read_pdf
from cardgen.kit.tuck import split_tuck, tray, tuck_box
from cardgen.project.studio import open_studio

from ..conftest import REPO

MM = 72 / 25.4
UNIVERSAL = STANDARD["universal"]


def inside(net: Net) -> tuple[float, float, float]:
    """Fold the net and measure the box it makes: the distance between opposite walls' mid-planes
    less one board thickness (half a thickness on each wall's inner face)."""
    folded = fold(net)
    t = net.board
    if net.root == "back":  # a tuck box: the cards stand between the sides, under the lid
        left, right = extent(folded["side-left"], 0), extent(folded["side-right"], 0)
        back, front = extent(folded["back"], 2), extent(folded["front"], 2)
        lid, bottom = extent(folded["lid"], 1), extent(folded["bottom"], 1)
        assert left[0] == pytest.approx(left[1]) and front[0] == pytest.approx(front[1])
        width = right[0] - left[0] - t
        depth = back[0] - front[0] - t
        height = lid[0] - bottom[0] - t
        return width, height, depth
    west, east = extent(folded["wall-west"], 0), extent(folded["wall-east"], 0)
    south, north = extent(folded["wall-south"], 1), extent(folded["wall-north"], 1)
    base = extent(folded["base"], 2)
    top = min(extent(folded[w], 2)[0] for w in ("wall-west", "wall-east", "wall-south"))
    return east[0] - west[0] - t, north[0] - south[0] - t, base[0] - top - t / 2


def closed(net: Net) -> None:
    """Every panel of a folded tuck box lies on the box: the glue tab against the front's inside,
    the tuck flaps inside the front and the back, the dust flaps under the lid."""
    folded = fold(net)
    assert set(folded) == {p.name for p in net.panels}  # every panel is reached by a fold
    front_z = extent(folded["front"], 2)[0]
    back_z = extent(folded["back"], 2)[0]
    for name in ("glue", "tuck"):
        assert extent(folded[name], 2) == pytest.approx((front_z, front_z))
    assert extent(folded["bottom-tuck"], 2) == pytest.approx((back_z, back_z))
    lid = extent(folded["lid"], 1)[0]
    for name in ("dust-left", "dust-right"):
        assert extent(folded[name], 1) == pytest.approx((lid, lid))
    xs = extent(folded["back"], 0)
    glue_x = extent(folded["glue"], 0)
    assert xs[0] - 1e-6 <= glue_x[0] and glue_x[1] <= xs[1] + 1e-6  # inside the front's width


@pytest.mark.parametrize(
    "inner, board",
    [
        ((64.5, 89.0, 22.2), 0.32),  # a 60-card poker deck
        ((64.5, 89.0, 3.6), 0.32),  # two cards
        ((89.5, 64.0, 10.0), 0.3),  # landscape cards
        ((71.35, 121.65, 40.0), 0.5),  # tarot on thick board
        ((64.5, 89.0, 76.0), 0.32),  # 228 cards: split in two
    ],
)
def test_a_tuck_box_folds_to_the_inside_its_deck_needs(
    inner: tuple[float, float, float], board: float
) -> None:
    net = tuck_box(inner, board)
    for got, want in zip(inside(net), inner):
        assert abs(got - want) <= 0.5
    closed(net)
    one, two = split_tuck(net)
    assert {p.name for p in one.panels} | {p.name for p in two.panels} == {
        p.name for p in net.panels
    } | {"glue-back"}
    for piece in (one, two):
        fold(piece)  # each piece folds on its own
    assert one.panel("side-left") == net.panel("side-left")


@pytest.mark.parametrize("inner", [(65.1, 90.1, 16.0), (46.0, 65.0, 4.0), (72.0, 122.0, 60.0)])
def test_a_tray_and_its_lid_fold_to_their_insides(inner: tuple[float, float, float]) -> None:
    t = 0.32
    base = tray(inner, t, "tray", "", notch=True)
    for got, want in zip(inside(base), inner):
        assert abs(got - want) <= 0.5
    lid_inner = (inner[0] + 2 * t + 0.8, inner[1] + 2 * t + 0.8, inner[2] + t)
    lid = tray(lid_inner, t, "lid", "front", notch=False)
    got = inside(lid)
    assert all(abs(a - b) <= 0.5 for a, b in zip(got, lid_inner))
    outer_tray = (inner[0] + 2 * t, inner[1] + 2 * t)
    assert got[0] > outer_tray[0] and got[1] > outer_tray[1]  # the lid slides over the tray


@pytest.fixture(scope="module")
def bundled() -> dict[str, object]:
    ws = Workspace.find(REPO)
    return {game: open_studio(ws, game) for game in ("power-trip", "aether-duel", "ivion")}


@pytest.mark.parametrize("game", ["power-trip", "aether-duel", "ivion"])
@pytest.mark.parametrize("style", ["tuck", "two-piece"])
def test_each_bundled_decks_box_holds_it(bundled: dict, game: str, style: str) -> None:
    plan = plan_boxes(bundled[game], UNIVERSAL, BoxOptions(style=style))
    assert plan.boxes
    for box in plan.boxes:
        w, h, d = box.stack
        assert d == pytest.approx(box.deck.cards * 0.32, abs=0.01)  # 300 gsm: 0.32 mm a card
        for net in box.nets if style == "tuck" else box.nets[:1]:
            got = inside(net)
            assert all(abs(a - b) <= 0.5 for a, b in zip(got, box.inner)), (box.deck.name, got)
            assert got[0] >= w and got[1] >= h and got[2] >= d  # the cards go in
    if game == "power-trip":
        main = next(b for b in plan.boxes if b.deck.name == "main")
        if style == "tuck":  # 228 cards: 76 mm deep, too big for one sheet, made in two pieces
            assert len(main.pieces) == 2 and not plan.findings
        else:  # a tray 218 mm wide: more than a sheet; refused, and said
            assert main.refused and [f.code for f in plan.findings] == ["box-too-large"]
        return
    assert not plan.findings and all(b.pieces for b in plan.boxes)


def test_the_pdf_draws_each_nets_folds_dashed_and_cuts_solid(bundled: dict) -> None:
    studio = bundled["aether-duel"]
    plan = plan_boxes(studio, UNIVERSAL, BoxOptions())
    read = read_pdf(write_boxes(studio, plan))
    assert len(read.pages) == len(plan.pages)
    for page, nets in zip(read.pages, plan.pages):
        assert page.size == pytest.approx(UNIVERSAL.size)
        dashed = {_key(ln) for ln in page.lines if ln.dashed and ln.width == 0.5}
        solid = {_key(ln) for ln in page.lines if not ln.dashed and ln.width == 0.5}
        for net in nets:
            design = net.design
            assert design is not None

            def on_page(p: tuple[float, float], m: tuple = net.frame) -> tuple[float, float]:  # type: ignore[type-arg]
                x, y = p
                return ((m[0] * x + m[2] * y + m[4]) * MM, (m[1] * x + m[3] * y + m[5]) * MM)

            for p1, p2 in design.fold_lines():
                assert _key_of(on_page(p1), on_page(p2)) in dashed
            for p1, p2 in design.cut_lines():
                assert _key_of(on_page(p1), on_page(p2)) in solid
        for ln in page.lines:  # every line 5 mm inside the page: it prints on A4 and Letter
            assert (
                min(ln.x1, ln.x2) >= 5 * MM - 0.1
                and max(ln.x1, ln.x2) <= page.size[0] - 5 * MM + 0.1
            )
            assert (
                min(ln.y1, ln.y2) >= 5 * MM - 0.1
                and max(ln.y1, ln.y2) <= page.size[1] - 5 * MM + 0.1
            )


def test_the_box_measured_on_the_page_holds_its_deck(bundled: dict) -> None:
    """From the PDF's own coordinates alone: the dashed lines down the net are the four vertical
    folds (front|side|back|side|glue), the middle two of the four wall-wide dashed lines across
    it the bottom's and the lid's; their spacing, less the board, is the inside the deck needs."""
    studio = bundled["aether-duel"]
    plan = plan_boxes(studio, UNIVERSAL, BoxOptions())
    read = read_pdf(write_boxes(studio, plan))
    boxes = {id(p): box for box in plan.boxes for p in box.pieces}
    for page, nets in zip(read.pages, plan.pages):
        (net,) = nets
        assert not net.turned
        box = boxes[id(net.design)]
        t = box.nets[0].board
        down = [ln for ln in page.lines if ln.dashed and abs(ln.x1 - ln.x2) < 0.01]
        across = [ln for ln in page.lines if ln.dashed and abs(ln.y1 - ln.y2) < 0.01]
        tall = max(abs(ln.y2 - ln.y1) for ln in down)
        xs = sorted({round(ln.x1, 2) for ln in down if abs(abs(ln.y2 - ln.y1) - tall) < 0.01})
        assert len(xs) == 4
        wide = max(abs(ln.x2 - ln.x1) for ln in across)  # a wall's width: lid, bottom, tucks
        ys = sorted({round(ln.y1, 2) for ln in across if abs(abs(ln.x2 - ln.x1) - wide) < 0.01})
        assert len(ys) == 4  # bottom tuck | bottom | (the walls) | lid | lid tuck
        side, back, other = (xs[1] - xs[0]) / MM, (xs[2] - xs[1]) / MM, (xs[3] - xs[2]) / MM
        height = (ys[2] - ys[1]) / MM
        got = (back - t, height - t, side - t)
        assert all(abs(a - b) <= 0.5 for a, b in zip(got, box.inner)), (got, box.inner)
        assert abs(other - side) < 0.01


def _key_of(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, ...]:
    return tuple(round(v, 1) + 0.0 for v in (*min(a, b), *max(a, b)))


def _key(ln: object) -> tuple[float, ...]:
    return _key_of((ln.x1, ln.y1), (ln.x2, ln.y2))  # type: ignore[attr-defined]


def test_a_deck_too_big_for_any_box_is_a_finding(bundled: dict) -> None:
    plan = plan_boxes(bundled["power-trip"], STANDARD["a5"], BoxOptions())
    refused = [b for b in plan.boxes if b.refused]
    assert refused and not any(b.pieces for b in refused)
    (finding,) = [f for f in plan.findings if f.code == "box-too-large"]
    assert finding.file == "rules/power-trip/game.yaml" and finding.line > 0
    assert "main box (228 cards" in finding.message and "a5 prints on" in finding.message
    assert "in two" in finding.message  # even split in two pieces
    assert finding.hint and "two-piece" in finding.hint


def test_sleeves_and_stock_size_the_box(bundled: dict) -> None:
    studio = bundled["ivion"]
    bare = plan_boxes(studio, UNIVERSAL, BoxOptions()).boxes[0]
    sleeved = plan_boxes(studio, UNIVERSAL, BoxOptions(sleeves="fit", stock="350gsm")).boxes[0]
    assert sleeved.sleeve is not None and sleeved.sleeve.name == "standard"
    assert sleeved.card_mm == pytest.approx(0.38 + SLEEVE_FILM)
    assert sleeved.inner[0] == pytest.approx(66.0 + 1.5) and sleeved.inner[1] == pytest.approx(
        91 + 1
    )
    assert sleeved.inner[2] > bare.inner[2] + 53 * 0.15


def test_the_stock_table() -> None:
    assert thickness_of(300) == pytest.approx(0.32)
    assert thickness_of(275) == pytest.approx(0.30)
    assert stock("0.35mm").mm == pytest.approx(0.35) and stock("300 gsm").weight == 300
    for bad in ("12pt", "50gsm", "thick", "3mm"):
        with pytest.raises(UnitError):
            stock(bad)


@pytest.mark.parametrize(
    "card, sleeve",
    [
        ((63, 88), "standard"),
        ((63.5, 88.9), "standard"),
        ((88, 63), "standard"),  # landscape: the same sleeve turned
        ((57.15, 88.9), "standard-american"),  # bridge cards, as BCW's 56 x 87 sleeves take
        ((44.45, 63.5), "mini-european"),
        ((41, 63), "mini-american"),
        ((69.85, 120.65), "tarot"),
        ((70, 70), "square"),
        ((59, 86), "japanese"),
        ((100, 150), None),
        ((30, 30), None),
    ],
)
def test_the_sleeve_a_card_fits(card: tuple[float, float], sleeve: str | None) -> None:
    found = sleeve_for(card)
    assert (found.name if found else None) == sleeve
    if found:
        outside = sleeved_size(card, found)
        assert outside[0] > card[0] and outside[1] > card[1]


def test_the_box_pdf_is_reproducible(bundled: dict) -> None:
    studio = bundled["ivion"]
    plan = plan_boxes(studio, UNIVERSAL, BoxOptions())
    one, two = write_boxes(studio, plan), write_boxes(studio, plan)
    assert one == two and len(PdfReader(io.BytesIO(one)).pages) == 1


def test_a_named_sleeve_the_cards_do_not_fit_is_a_warning_and_not_used(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import shutil

    from cardgen.jobs.findings import all_findings

    from ..conftest import FIXTURE_WS

    root = tmp_path / "ws"
    shutil.copytree(FIXTURE_WS, root, ignore=shutil.ignore_patterns("fonts"))
    model = root / "rules" / "clean" / "game.yaml"
    model.write_text(
        model.read_text().replace("  safe: 3mm\n", "  safe: 3mm\n  sleeves: tarot\n", 1)
    )
    studio = open_studio(Workspace.find(root), "clean")
    (misfit,) = [f for f in all_findings(studio) if f.code.startswith("sleeve")]
    assert (misfit.code, misfit.file, misfit.line) == ("sleeve-misfit", "rules/clean/game.yaml", 5)
    assert "standard card game sleeves (63.5 x 88 mm) fit them" in (misfit.hint or "")
    (box,) = plan_boxes(studio, UNIVERSAL, BoxOptions(per="game")).boxes
    assert box.sleeve is None and box.inner[:2] == (64.5, 89.0)  # sized for them unsleeved


def test_validate_reports_what_the_default_print_runs_boxes_find(
    bundled: dict, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """The boxes' findings are among validate's (build reported a box it does not make, which
    validate did not list): on A4 power-trip's boxes are all made; were the default paper A5, its
    main box would be too large, and validate would say so."""
    from cardgen.core import options
    from cardgen.jobs.findings import beyond_faces

    studio = bundled["power-trip"]
    assert not [f for f in beyond_faces(studio) if f.code == "box-too-large"]
    monkeypatch.setattr(options, "A4", STANDARD["a5"])
    (finding,) = [f for f in beyond_faces(studio) if f.code == "box-too-large"]
    assert "main box (228 cards" in finding.message


def test_a_command_reports_the_boxes_it_made_not_the_default_runs(
    bundled: dict, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """A box too large for validate's default paper but made on the command's (build, box
    --paper) is not reported; one too large for the command's paper is reported once."""
    from cardgen.core import options
    from cardgen.jobs.findings import all_findings, with_own_boxes

    studio = bundled["power-trip"]
    monkeypatch.setattr(options, "A4", STANDARD["a5"])  # the default run's main box: too large
    found = all_findings(studio)
    assert [f.code for f in found].count("box-too-large") == 1
    made = plan_boxes(studio, STANDARD["a3"], BoxOptions())
    assert not [f for f in with_own_boxes(found, made.findings) if f.code == "box-too-large"]
    small = plan_boxes(studio, STANDARD["a5"], BoxOptions())
    again = [f for f in with_own_boxes(found, small.findings) if f.code == "box-too-large"]
    assert len(again) == 1 and "main box (228 cards" in again[0].message

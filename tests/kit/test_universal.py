"""--paper universal (210 mm x 11 in, A4 and Letter at once) read back from the PDF: every card's
trim and every crop mark lies inside what both papers print, wherever a printer puts the page on
either; each card's cut lines are marked in the margins on all four sides; duplex backs and the
one-sided fold layout land where they must."""

from __future__ import annotations

import pytest

from cardgen.core.options import STANDARD
from cardgen.core.workspace import Workspace
from cardgen.kit.pdfread import PdfRead, read_pdf
from cardgen.kit.pnpcheck import _trim, fit_problems
from cardgen.printrun.printing import SheetOptions, choose_cards, sheet_bytes
from cardgen.project.studio import Studio, open_studio

from ..conftest import REPO, TESTS

MM = 72 / 25.4
UNIVERSAL = STANDARD["universal"]
PAPERS = {"a4": STANDARD["a4"].size, "letter": STANDARD["letter"].size}


@pytest.fixture(scope="module")
def studios() -> dict[str, Studio]:
    return {
        "power-trip": open_studio(Workspace.find(REPO), "power-trip"),
        "deckbuilder": open_studio(
            Workspace.find(TESTS / "fixtures" / "deckbuilder"), "deckbuilder"
        ),
    }


def faces(studio: Studio) -> list[tuple[float, float, float]]:
    return [(t.size[0], t.size[1], t.bleed) for t in studio.faces.templates.values()]


def sheets(studio: Studio, **options: object) -> tuple[PdfRead, str]:
    opts = SheetOptions(paper=UNIVERSAL, **options)  # type: ignore[arg-type]
    chosen, _, _ = choose_cards(studio, opts)
    run = sheet_bytes(studio, opts, chosen)
    return read_pdf(run.pdf), run.described


def placements(
    page_size: tuple[float, float], paper: tuple[float, float]
) -> list[tuple[float, float]]:
    """Where a printer may put a page on a paper at 100 %: centred, or in the top-left corner."""
    (pw, ph), (w, h) = page_size, paper
    return [((w - pw) / 2, (h - ph) / 2), (0.0, h - ph)]


def inside_printable(rect: tuple[float, float, float, float], page: tuple[float, float]) -> bool:
    """Inside the 5 mm-inset printable area of A4 and of Letter, however either holds the page."""
    x1, y1, x2, y2 = rect
    for paper in PAPERS.values():
        for dx, dy in placements(page, paper):
            if not (
                x1 + dx >= 5 * MM - 0.1
                and y1 + dy >= 5 * MM - 0.1
                and x2 + dx <= paper[0] - 5 * MM + 0.1
                and y2 + dy <= paper[1] - 5 * MM + 0.1
            ):
                return False
    return True


@pytest.mark.parametrize("game", ["power-trip", "deckbuilder"])
def test_every_card_and_its_marks_print_on_a4_and_on_letter(studios: dict, game: str) -> None:
    studio = studios[game]
    read, described = sheets(studio)
    assert "universal" in described
    known = faces(studio)
    cards = 0
    for n, page in enumerate(read.pages):
        assert page.size == pytest.approx(UNIVERSAL.size)
        marks = [ln for ln in page.lines if not ln.dashed]
        for ln in marks:
            box = (min(ln.x1, ln.x2), min(ln.y1, ln.y2), max(ln.x1, ln.x2), max(ln.y1, ln.y2))
            assert inside_printable(box, page.size), (n, ln)
        fronts = n % 2 == 0  # duplex: each sheet's fronts, then its backs
        for form in page.forms:
            trim = _trim(form, known)
            assert trim is not None and inside_printable(trim, page.size), (n, trim)
            if not fronts:
                continue
            cards += 1
            x1, y1, x2, y2 = trim
            # the card's cuts are marked in all four margins: its vertical edges above and
            # below the grid, its horizontal edges left and right of it
            for x in (x1, x2):
                above = [m for m in marks if abs(m.x1 - x) < 0.01 and abs(m.x2 - x) < 0.01]
                assert {m.y1 > y2 for m in above} == {True, False}, (n, x)
            for y in (y1, y2):
                beside = [m for m in marks if abs(m.y1 - y) < 0.01 and abs(m.y2 - y) < 0.01]
                assert {m.x1 > x2 for m in beside} == {True, False}, (n, y)
    assert not fit_problems("sheets", read, known)
    copies = sum(n for _, n in choose_cards(studio, SheetOptions(paper=UNIVERSAL))[0])
    assert cards >= copies  # every copy (and the also: faces) is on a page


def test_universal_poker_sheets_hold_eight_turned_cards_with_all_marks(studios: dict) -> None:
    read, described = sheets(studios["power-trip"])
    assert "288 copies of 212 designs on 36 sheets of 2 x 4 turned, universal" in described
    assert len(read.pages) == 72  # 36 sheets, duplex
    front, back = read.pages[0], read.pages[1]
    assert len(front.forms) == 8
    pw = front.size[0]
    mirrored = sorted(
        (round(pw - f.painted[2], 2), round(f.painted[1], 2)) for f in front.forms
    )  # a long-edge flip puts each back at x' = W - x - w
    assert mirrored == sorted((round(f.painted[0], 2), round(f.painted[1], 2)) for f in back.forms)
    for form in front.forms:  # turned a quarter counter-clockwise; the backs the other way
        assert form.matrix[:4] == pytest.approx((0.0, 1.0, -1.0, 0.0))
    for form in back.forms:
        assert form.matrix[:4] == pytest.approx((0.0, -1.0, 1.0, 0.0))


def test_the_one_sided_version_prints_each_back_beside_its_front(studios: dict) -> None:
    studio = studios["power-trip"]
    read, described = sheets(studio, layout="fold")
    assert "fold (one-sided" in described and "duplex" not in described
    known = faces(studio)
    page = read.pages[0]
    trims = [_trim(f, known) for f in page.forms]
    assert len(trims) == 8  # 4 cards, each a front and a back
    folds = [ln for ln in page.lines if ln.dashed]
    assert folds
    for front, back in zip(trims[0::2], trims[1::2]):
        assert front is not None and back is not None
        # turned pairs: the back above its front, sharing the fold line
        assert back[1] == pytest.approx(front[3]) and back[0] == pytest.approx(front[0])
        fold_y = front[3]
        assert any(abs(ln.y1 - fold_y) < 0.01 and abs(ln.y2 - fold_y) < 0.01 for ln in folds)
    assert not fit_problems("one-sided", read, known)

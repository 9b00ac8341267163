"""Print-sheet geometry read back from the PDF: a two-size game on A4 and Letter, both layouts.
Placements, crop-mark lengths and their distance to the paper edge, captions inside the printable
area."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import pytest
from pypdf import PdfReader

from cardgen.core.units import PT_PER_UNIT
from cardgen.core.workspace import Workspace
from cardgen.printrun.printing import SheetOptions, choose_cards, sheet_bytes
from cardgen.project.studio import open_studio

from ..conftest import TESTS

MM = PT_PER_UNIT["mm"]
EDGE = 5 * MM  # nothing but card bleed closer to the paper edge than this
NUM = r"(-?[\d.]+)"


@dataclass
class Sheet:
    forms: list[
        tuple[float, float, float, float, str]
    ]  # x, y of the form origin, form width, height, name
    clips: list[tuple[float, float, float, float]]
    marks: list[tuple[float, float, float, float]]
    captions: list[tuple[bool, float, float]]


def read_sheet(reader: PdfReader, index: int) -> Sheet:
    page = reader.pages[index]
    content = page.get_contents().get_data().decode("latin-1")
    xobjects = page["/Resources"]["/XObject"]
    forms = []
    for x, y, name in re.findall(rf"1 0 0 1 {NUM} {NUM} cm\s*/(\S+) Do", content):
        bbox = [float(v) for v in xobjects["/" + name].get_object()["/BBox"]]
        forms.append((float(x), float(y), bbox[2] - bbox[0], bbox[3] - bbox[1], name))
    clips = [
        tuple(map(float, m)) for m in re.findall(rf"n {NUM} {NUM} {NUM} {NUM} re W\* n", content)
    ]
    marks = [tuple(map(float, m)) for m in re.findall(rf"n {NUM} {NUM} m {NUM} {NUM} l S", content)]
    captions = []  # (rotated, x, y) of each caption's origin on the page
    for rot, tx, ty, x, y in re.findall(
        rf"(?:(0 -?1 -?1 0) {NUM} {NUM} cm\s+)?BT 1 0 0 1 {NUM} {NUM} Tm", content
    ):
        captions.append((True, float(tx), float(ty)) if rot else (False, float(x), float(y)))
    return Sheet(forms, clips, marks, captions)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def lantern():
    return open_studio(Workspace.find(TESTS / "fixtures" / "lantern"), "lantern")


@pytest.mark.parametrize("layout", ["shared-cut", "gutter"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_two_card_sizes_each_on_their_own_grid_with_marks_that_print(
    lantern, paper: str, layout: str
) -> None:
    opts = SheetOptions(paper=paper, layout=layout, copies="one")
    chosen, _, _ = choose_cards(lantern, opts)
    chosen = [
        (card, 5) for card, _ in chosen
    ]  # 10 tarot and 5 poker-size cards: full and partial pages
    run = sheet_bytes(lantern, opts, chosen)
    reader = PdfReader(io.BytesIO(run.pdf))
    pw, ph = (float(v) for v in reader.pages[0].mediabox[2:])
    bleed = 3 * MM
    sizes_seen = set()
    placed = 0
    for index in range(0, len(reader.pages), 2):  # fronts; the backs follow each
        sheet = read_sheet(reader, index)
        sizes = {(round(w, 2), round(h, 2)) for _, _, w, h, _ in sheet.forms}
        assert len(sizes) == 1, "one card size per sheet"
        w, h = sizes.pop()
        trim = (w - 2 * bleed, h - 2 * bleed)
        sizes_seen.add((round(trim[0] / MM, 2), round(trim[1] / MM, 2)))
        trims = [
            (x + bleed, y + bleed, x + bleed + trim[0], y + bleed + trim[1])
            for x, y, *_ in sheet.forms
        ]
        placed += len(trims)
        for i, a in enumerate(trims):
            assert (
                a[0] >= EDGE - 0.01
                and a[1] >= EDGE - 0.01
                and a[2] <= pw - EDGE + 0.01
                and a[3] <= ph - EDGE + 0.01
            )
            for b in trims[i + 1 :]:  # cards never overlap
                assert (
                    a[2] <= b[0] + 0.01
                    or b[2] <= a[0] + 0.01
                    or a[3] <= b[1] + 0.01
                    or b[3] <= a[1] + 0.01
                )
        for x1, y1, x2, y2 in sheet.marks:
            length = abs(x2 - x1) + abs(y2 - y1)
            assert 3 * MM - 0.01 <= length <= 5 * MM + 0.01
            for x, y in ((x1, y1), (x2, y2)):
                assert EDGE - 0.01 <= x <= pw - EDGE + 0.01 and EDGE - 0.01 <= y <= ph - EDGE + 0.01
            for cx, cy, cw, ch in sheet.clips:  # never over a card's painted area
                assert (
                    max(x1, x2) <= cx + 0.01
                    or min(x1, x2) >= cx + cw - 0.01
                    or max(y1, y2) <= cy + 0.01
                    or min(y1, y2) >= cy + ch - 0.01
                )

        def unmarked(cuts: set[float], marks: set[float]) -> set[float]:
            return {c for c in cuts if not any(abs(c - m) < 0.05 for m in marks)}

        cuts_x = unmarked(
            {v for t in trims for v in (t[0], t[2])},
            {x1 for x1, y1, x2, y2 in sheet.marks if x1 == x2},
        )
        cuts_y = unmarked(
            {v for t in trims for v in (t[1], t[3])},
            {y1 for x1, y1, x2, y2 in sheet.marks if y1 == y2},
        )
        size_text = f"{trim[0] / MM:.2f}".rstrip("0").rstrip(".")
        warned = [wn for wn in run.warnings if size_text in wn]
        if not any("top and bottom" in wn for wn in warned):
            assert not cuts_x, "every vertical cut is marked"
        if not any("left and right" in wn for wn in warned):
            assert not cuts_y, "every horizontal cut is marked"
        assert sheet.captions, "every sheet says what it is"
        for rotated, x, y in sheet.captions:
            if not rotated:  # at the bottom: the baseline clears the edge band by the descent
                assert y >= EDGE
            else:  # along a side: the glyphs' height stays out of the edge band
                assert EDGE + 0.75 * 6.5 <= x <= pw - EDGE - 0.75 * 6.5
    assert placed == 15
    assert sizes_seen == {(69.85, 120.65), (63.0, 88.0)}


def test_letter_says_which_marks_it_cannot_print(lantern) -> None:
    opts = SheetOptions(paper="letter", copies="one")
    chosen, _, _ = choose_cards(lantern, opts)
    run = sheet_bytes(lantern, opts, chosen)
    assert [w for w in run.warnings if "crop marks" in w] == [
        "poker-eu (63 x 88 mm) cards, shared-cut layout, letter: no room for crop marks 3 mm long "
        "and 5 mm from "
        "the paper edge in the top and bottom (vertical cuts) margins, so they have none; cut "
        "along the card "
        "edges there, or print on paper with more room in those margins"
    ]
    assert (
        "(1 of 2 x 2 tarot (69.85 x 120.65 mm), 1 of 3 x 3 poker-eu (63 x 88 mm))" in run.described
    )


def test_shared_cut_warns_when_neighbours_meet_with_different_colours(lantern) -> None:
    chosen, _, _ = choose_cards(lantern, SheetOptions(copies="one"))
    tarot = [
        (card, 1) for card, _ in chosen if card.get("type") != "Spell"
    ]  # red and grey frames side by side
    assert [lantern.prepare(card)[0].edge() for card, _ in tarot] == [
        (0xC0, 0x39, 0x2B),
        (0x6D, 0x6D, 0x6D),
    ]
    shared = sheet_bytes(lantern, SheetOptions(copies="one"), tarot)
    assert [
        w
        for w in shared.warnings
        if w.startswith("shared-cut: 1 pair of neighbouring cards on 1 sheet")
    ]
    gutter = sheet_bytes(lantern, SheetOptions(copies="one", layout="gutter"), tarot)
    assert not [w for w in gutter.warnings if "shared-cut" in w]
    same = sheet_bytes(lantern, SheetOptions(copies="one"), [tarot[0], tarot[0]])
    assert not [w for w in same.warnings if "shared-cut" in w]

"""The accessibility guards read from faces and templates: text against what is drawn beneath it
(WCAG contrast, from the rasterised face), a faction told by colour alone, the version stamp's
place; each with its exact finding, and a clean case without it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from cardgen.core.errors import Finding
from cardgen.core.workspace import Workspace
from cardgen.jobs.findings import validate_game
from cardgen.project.studio import open_studio
from cardgen.render.contrast import ratio
from cardgen.render.sheetmarks import code_tab
from cardgen.render.stamp import tab_box
from cardgen.speed.cache import set_enabled

CODES = ("low-contrast", "colour-only", "stamp-placement")
FRONT = "templates/clean/front.yaml"


def _findings(ws: Workspace) -> list[Finding]:
    return [f for f in validate_game(ws, "clean").findings if f.code in CODES]


def _shown(findings: list[Finding]) -> list[tuple[str, int, int, str, str, str | None, str]]:
    return [
        (f.file, f.line, f.column, f.severity.name.lower(), f.code, f.card, f.message)
        for f in findings
    ]


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


FACTION_WORD = (
    '  - {id: faction, type: text, x: 5mm, y: 78.2mm, w: 30mm, h: 3mm, text: "{{ card.faction }}", '
    "font: body, size: 7pt}\n"
)


def test_the_wcag_ratio_is_the_one_the_standard_gives() -> None:
    assert round(ratio((0, 0, 0), (255, 255, 255)), 2) == 21.0
    assert round(ratio((255, 255, 255), (0xBD, 0xB6, 0xA6)), 2) == 2.02  # Ivion's old chips
    assert ratio((0x77, 0x77, 0x77), (255, 255, 255)) < 4.5 < ratio((0x76, 0x76, 0x76), (255,) * 3)


def test_the_clean_front_gives_no_accessibility_finding(
    scratch_ws: Workspace,
) -> None:
    assert _findings(scratch_ws) == []


def test_pale_rules_text_on_white_is_low_contrast_at_the_element(scratch_ws: Workspace) -> None:
    _edit(
        scratch_ws.root / FRONT,
        "rich: true, font: body,",
        'rich: true, color: "#aaaaaa", font: body,',
    )
    assert _shown(_findings(scratch_ws)) == [
        (
            FRONT,
            12,
            101,
            "warning",
            "low-contrast",
            None,
            "'rules' of front (#aaaaaa) on #ffffff beneath it: contrast 2.3:1, below 4.5:1 for "
            "text, on 2 cards (ember-guard, firestorm)",
        )
    ]


def test_bold_type_from_fourteen_eighteenths_of_large_type_is_large(
    scratch_ws: Workspace,
) -> None:
    """#949494 on white is 3.0:1: enough for the 11 pt bold name, large type from 10.9 pt bold;
    too little once large type starts at 18 pt (bold from 14 pt)."""
    _edit(
        scratch_ws.root / FRONT,
        "font: title, size: 11pt,",
        'font: title, size: 11pt, color: "#949494",',
    )
    assert _findings(scratch_ws) == []
    _edit(scratch_ws.model_path("clean"), "fields:", "guards: {large_type: 18}\nfields:")
    assert _shown(_findings(scratch_ws)) == [
        (
            FRONT,
            8,
            111,
            "warning",
            "low-contrast",
            None,
            "'name' of front (#949494) on #ffffff beneath it: contrast 3.0:1, below 4.5:1 for "
            "text, on 3 cards (ember-guard, firestorm, tide-caller)",
        )
    ]


def test_text_on_a_dark_ground_is_measured_against_the_ground(scratch_ws: Workspace) -> None:
    """The badge's value in its default white, on a pale badge: measured against the badge, not
    the panel (its bold 12.5 pt value is large type)."""
    _edit(
        scratch_ws.root / FRONT,
        'text: "{{ card.power }}", font: title,',
        'text: "{{ card.power }}", fill: "#dddddd", font: title,',
    )
    assert _shown(_findings(scratch_ws)) == [
        (
            FRONT,
            14,
            5,
            "warning",
            "low-contrast",
            None,
            "badge 'power' (its value) of front (#ffffff) on #dddddd beneath it: contrast "
            "1.4:1, below 3:1 for large type, on 2 cards (ember-guard, tide-caller)",
        )
    ]


def test_the_contrast_cache_gives_what_the_plain_path_gives(scratch_ws: Workspace) -> None:
    _edit(
        scratch_ws.root / FRONT,
        "rich: true, font: body,",
        'rich: true, color: "#aaaaaa", font: body,',
    )
    (scratch_ws.root / "output").mkdir()
    set_enabled(False)
    try:
        plain = _findings(scratch_ws)
    finally:
        set_enabled(True)
    cold = _findings(scratch_ws)
    assert list((scratch_ws.output_dir("clean") / ".cache").glob("contrast-*"))
    warm = _findings(scratch_ws)
    assert plain == cold == warm and any(f.code == "low-contrast" for f in plain)


def test_a_faction_shown_only_by_colour_is_a_warning_at_the_colour(scratch_ws: Workspace) -> None:
    _edit(scratch_ws.root / FRONT, FACTION_WORD, "")
    assert _shown(_findings(scratch_ws)) == [
        (
            FRONT,
            6,
            42,
            "warning",
            "colour-only",
            None,
            "front: 'faction' reaches the face only as colour ('ground' fill from its 'color'): "
            "no text, badge or picture names it, so a colour-blind player, or a greyscale print, "
            "cannot tell Red from Blue apart",
        )
    ]


def test_a_template_drawn_for_one_faction_only_tells_nothing_by_its_colour(
    scratch_ws: Workspace,
) -> None:
    """faces.yaml gives the faction's colour-only front to Red cards only: its colour tells no
    faction from another, so no finding; drawn for Red and Blue by two rules, it is one again."""
    _edit(scratch_ws.root / FRONT, FACTION_WORD, "")
    faces = scratch_ws.root / "templates" / "clean" / "faces.yaml"
    red = "- {where: {faction: Red}, front: front.yaml, back: back.yaml}\n"
    plain = (
        (scratch_ws.root / FRONT)
        .read_text()
        .replace("{{ attr('faction', 'color', '#777777') }}", "#777777")
    )
    (scratch_ws.root / "templates" / "clean" / "plain.yaml").write_text(plain)
    faces.write_text(red + "- {where: {}, front: plain.yaml, back: back.yaml}\n")
    assert _findings(scratch_ws) == []
    faces.write_text(red + "- {where: {faction: Blue}, front: front.yaml, back: back.yaml}\n")
    assert [f.code for f in _findings(scratch_ws)] == ["colour-only"]


def test_a_faction_named_through_a_var_counts_as_named(scratch_ws: Workspace) -> None:
    _edit(scratch_ws.root / FRONT, FACTION_WORD, "")
    _edit(
        scratch_ws.root / FRONT, "elements:", 'vars:\n  side: "{{ card.faction|upper }}"\nelements:'
    )
    _edit(
        scratch_ws.root / FRONT,
        "  - {id: power,",
        "  - {id: side, type: badge, x: 5mm, y: 78.2mm, w: 12mm, h: 3mm, shape: rect, "
        'text: "{{ vars.side }}",'
        " font: body, size: 6pt}\n  - {id: power,",
    )
    assert [f.code for f in _findings(scratch_ws)] == []


def test_a_stamp_box_across_the_panel_and_the_safe_line_is_a_warning(
    scratch_ws: Workspace,
) -> None:
    _edit(
        scratch_ws.root / FRONT, "stamp: {x: 5mm, bottom: 3.5mm,", "stamp: {x: 1mm, bottom: 1.5mm,"
    )
    assert _shown(_findings(scratch_ws)) == [
        (
            FRONT,
            1,
            9,
            "warning",
            "stamp-placement",
            None,
            "front: its stamp box (40.0 × 3.1 mm at 1.0, 83.4 mm) crosses the 3.0 mm safe line, "
            "the edge of 'panel': a version stamp or pack code printed there sits across a frame "
            "or covers the face's words",
        )
    ]


def test_without_a_stamp_box_the_corners_inside_the_safe_zone_are_checked(
    scratch_ws: Workspace,
) -> None:
    """The clean front's bottom right corner holds its power badge."""
    _edit(
        scratch_ws.root / FRONT, "boxes: {stamp: {x: 5mm, bottom: 3.5mm, w: 40mm, h: 3.1mm}}", "#"
    )
    assert _shown(_findings(scratch_ws)) == [
        (
            FRONT,
            1,
            1,
            "warning",
            "stamp-placement",
            None,
            "front: the stamp's right corner (10.0 × 3.1 mm at 50.0, 81.9 mm) crosses the edge "
            "of 'power': a version stamp or pack code printed there sits across a frame or "
            "covers the face's words",
        )
    ]


def test_the_stamp_is_drawn_in_the_box_the_template_declares(scratch_ws: Workspace) -> None:
    """The version at the left end of the stamp box, the pack code at its right end: read back
    from the PDF, both inside the box."""
    studio = open_studio(scratch_ws, "clean")
    template = studio.faces.rules[0].front
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(300, 300))
    trim = (20.0, 30.0, *template.size)
    code_tab(c, studio.fonts, "#3f9a1c", trim, "left", template=template)
    code_tab(c, studio.fonts, "P7", trim, "right", template=template)
    c.save()
    seen: list[tuple[str, float, float]] = []

    def visit(text: str, cm: list, tm: list, font: object, size: object) -> None:
        if text.strip():
            seen.append((text.strip(), tm[4] + cm[4], tm[5] + cm[5]))

    PdfReader(io.BytesIO(buffer.getvalue())).pages[0].extract_text(visitor_text=visit)
    mm = 72 / 25.4
    x, y, w, h = 5 * mm, template.size[1] - 3.5 * mm - 3.1 * mm, 40 * mm, 3.1 * mm
    left, bottom = trim[0] + x, trim[1] + trim[3] - y - h  # the box on the page, y up
    assert [t for t, _, _ in seen] == ["#3f9a1c", "P7"]
    for _, tx, ty in seen:
        assert left < tx < left + w and bottom < ty < bottom + h
    assert seen[0][1] < left + 2 * mm and seen[1][1] > left + w - 8 * mm
    assert tab_box(template, 30, 8, "left")[0] == x


BACK = "templates/clean/back.yaml"


def test_a_back_whose_emblem_crosses_the_pack_codes_place_is_a_warning(
    scratch_ws: Workspace,
) -> None:
    """The clean game deals packs, whose sheets print each pack's code centred near the bottom
    of the backs: a back's emblem there is named; a `pack_code` box clear of it is not."""
    back = scratch_ws.root / BACK
    back.write_text(
        back.read_text()
        + "  - {id: emblem, type: rect, x: 10mm, y: 72mm, w: 20mm, h: 10mm, fill: '#aa8800'}\n"
    )
    assert _shown(_findings(scratch_ws)) == [
        (
            BACK,
            1,
            1,
            "warning",
            "stamp-placement",
            None,
            "back: the pack code's place (10.0 × 3.1 mm at 26.5, 78.9 mm) crosses the edge of "
            "'emblem': the pack code a pack's sheets print on the back sits across a frame or "
            "covers the face's words",
        )
    ]
    back.write_text("boxes: {pack_code: {x: 20mm, y: 8mm, w: 23mm, h: 3.1mm}}\n" + back.read_text())
    assert _findings(scratch_ws) == []


def test_a_back_no_pack_deals_is_not_checked_for_the_pack_code(scratch_ws: Workspace) -> None:
    """Blue cards get a back of their own with an emblem where a pack code would go; the pack
    formats deal Red cards: no pack code is ever printed behind a Blue card, so no warning. The
    same back behind Red cards is one."""
    root = scratch_ws.root
    game = root / "rules" / "clean" / "game.yaml"
    _edit(game, "    mode: slots\n", "    mode: slots\n    where: {faction: Red}\n")
    _edit(game, "    mode: exhaust\n", "    mode: exhaust\n    where: {faction: Red}\n")
    emblem = "  - {id: emblem, type: rect, x: 10mm, y: 72mm, w: 20mm, h: 10mm, fill: '#aa8800'}\n"
    back = root / BACK
    (root / "templates/clean/blue-back.yaml").write_text(back.read_text() + emblem)
    faces = root / "templates/clean/faces.yaml"
    faces.write_text(
        "- {where: {faction: Blue}, front: front.yaml, back: blue-back.yaml}\n"
        "- {where: {}, front: front.yaml, back: back.yaml}\n"
    )
    assert _findings(scratch_ws) == []
    faces.write_text(
        "- {where: {faction: Red}, front: front.yaml, back: blue-back.yaml}\n"
        "- {where: {}, front: front.yaml, back: back.yaml}\n"
    )
    assert [(f.file, f.code) for f in _findings(scratch_ws)] == [
        ("templates/clean/blue-back.yaml", "stamp-placement")
    ]


def test_a_backs_pack_code_is_drawn_centred_in_its_pack_code_box(scratch_ws: Workspace) -> None:
    back = scratch_ws.root / BACK
    back.write_text("boxes: {pack_code: {x: 20mm, y: 8mm, w: 23mm, h: 3.1mm}}\n" + back.read_text())
    studio = open_studio(scratch_ws, "clean")
    template = studio.faces.rules[0].back
    assert template is not None
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(300, 300))
    trim = (20.0, 30.0, *template.size)
    code_tab(c, studio.fonts, "P3 R1", trim, "back", template=template)
    c.save()
    seen: list[tuple[float, float]] = []

    def visit(text: str, cm: list, tm: list, font: object, size: object) -> None:
        if text.strip():
            seen.append((tm[4] + cm[4], tm[5] + cm[5]))

    PdfReader(io.BytesIO(buffer.getvalue())).pages[0].extract_text(visitor_text=visit)
    mm = 72 / 25.4
    left, top = trim[0] + 20 * mm, trim[1] + trim[3] - 8 * mm  # the box on the page, y up
    ((tx, ty),) = seen
    assert left < tx < left + 23 * mm and top - 3.1 * mm < ty < top
    centre = tab_box(template, 30, 8, "back")
    assert abs(centre[0] + 15 - (20 * mm + 11.5 * mm)) < 0.01


@pytest.mark.parametrize("where", ["face_images", "paint_op"])
def test_a_background_that_cannot_be_drawn_is_a_finding_not_a_crash(
    scratch_ws: Workspace, monkeypatch, where: str
) -> None:
    # no background rasterised at all, or each one failing as it is drawn (render.raster)
    import cardgen.render.raster as raster

    def broken(*args: object) -> None:
        raise ValueError("no PDFium here")

    monkeypatch.setattr(raster, where, broken)
    found = [
        f for f in validate_game(scratch_ws, "clean").findings if f.code.startswith("contrast")
    ]
    assert [(f.line, f.message) for f in found] == [
        (line, f"the contrast of '{name}' could not be measured: no PDFium here")
        for line, name in ((8, "name"), (12, "rules"), (14, "power"), (16, "faction"))
    ]

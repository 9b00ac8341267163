"""Size-relative geometry: lengths as expressions of the card, the parent box and named boxes;
anchors; the findings a template's geometry gives, each at its key; a template laid out for
another size."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.core.workspace import Workspace
from cardgen.project.studio import open_studio
from cardgen.render import geometry
from cardgen.render.faces import load_faces

from ..conftest import TESTS

MM = 72 / 25.4
ART = (4 * MM, 12 * MM, 55 * MM, 25 * MM)
FRAME = geometry.Frame(63 * MM, 88 * MM, 3 * MM, 3 * MM, {"art": ART})
TRIM = (0.0, 0.0, 63 * MM, 88 * MM)


@pytest.mark.parametrize(
    ("text", "axis", "mm"),
    [
        ("3mm", None, 3),
        ("0.5in", None, 12.7),
        ("50%", "h", 31.5),
        ("50%", "v", 44),
        ("100% - 6mm", "h", 57),
        ("card.w / 2", None, 31.5),
        ("card.h - 2 * safe", None, 82),
        ("(card.h - 88mm) * 0.5 + 24.8mm", None, 24.8),
        ("art.bottom + 1mm", "v", 38),
        ("art.cx", None, 31.5),
        ("-bleed", None, -3),
        ("bleed.right", None, 66),
        ("safe.h", None, 82),
        ("2 * 3mm - 1mm", None, 5),
        ("12.4mm+24.8mm", None, 37.2),
        ("max(0mm, card.h - 100mm)", None, 0),
        ("min(10mm, 5% + 1mm, art.h)", "h", 4.15),
        ("max(art.bottom, 30mm) + 1mm", None, 38),
    ],
)
def test_lengths_are_read_and_measured(text: str, axis: str | None, mm: float) -> None:
    value, is_length = geometry.evaluate(geometry.parse(text), FRAME, TRIM, axis)
    assert is_length and value == pytest.approx(mm * MM)


@pytest.mark.parametrize(
    ("text", "key", "said"),
    [
        ("3mm * 2mm", "w", "two lengths cannot be multiplied"),
        ("3mm + 2", "w", "cannot be added"),
        ("6mm / 0", "w", "divided by zero"),
        ("10mm / 2mm", "w", "divided by a number, not by a length"),
        ("(3mm + 2mm", "w", "'(' is never closed"),
        ("3mm +", "w", "ends where a length or number should be"),
        ("card", "w", "'card' is a box: say which part"),
        ("art.top", "y", "has no part 'top'"),
        ("3 mm mm", "w", "left over"),
        ("4%", "size", "percentage"),
        ("max(3mm, 2)", "w", "lengths and plain numbers"),
        ("min(3mm", "w", "never closed"),
    ],
)
def test_a_length_that_cannot_be_read_says_why(text: str, key: str, said: str) -> None:
    problem = geometry.check(text, key, {"art": None})
    if problem is None:  # read, but wrong when measured
        with pytest.raises(geometry.GeometryError, match=said):
            geometry.length_of(text, FRAME, TRIM, geometry.AXIS.get(key))
    else:
        assert said in problem


def test_a_box_that_does_not_exist_is_named() -> None:
    assert geometry.check("panel.bottom + 1mm", "y", {"art": None}) == (
        "names 'panel', which is no box (boxes: card, trim, bleed, safe, art)"
    )


@pytest.mark.parametrize(
    ("props", "box"),
    [
        ({"x": "3mm", "w": "10mm", "y": "4mm", "h": "5mm"}, (3, 4, 10, 5)),
        ({"x": "3mm", "right": "3mm", "y": "4mm", "bottom": "4mm"}, (3, 4, 57, 80)),
        ({"w": "10mm", "right": "3mm", "h": "5mm", "bottom": "4mm"}, (50, 79, 10, 5)),
        ({"x": "center", "w": "21mm", "y": "center", "h": "8mm"}, (21, 40, 21, 8)),
        ({"x": "center", "right": "10mm", "y": "2mm", "h": "50%"}, (10, 2, 43, 44)),
    ],
)
def test_anchors_place_the_element(props: dict[str, str], box: tuple[float, ...]) -> None:
    assert geometry.place(props, FRAME, TRIM) == pytest.approx(tuple(v * MM for v in box))


def test_a_box_that_works_out_negative_says_so_at_its_key() -> None:
    with pytest.raises(geometry.GeometryError, match="negative height") as caught:
        geometry.place({"x": "0mm", "w": "1mm", "y": "0mm", "h": "card.h - 100mm"}, FRAME, TRIM)
    assert caught.value.key == "h"
    placed = geometry.place(
        {"x": "0mm", "w": "1mm", "y": "0mm", "h": "max(0mm, card.h - 100mm)"}, FRAME, TRIM
    )
    assert placed[3] == 0


def test_inside_a_box_positions_and_percentages_are_the_box_s() -> None:
    art = FRAME.box("art")
    assert art is not None
    placed = geometry.place({"x": "50%", "w": "50%", "y": "0mm", "h": "100%"}, FRAME, art)
    assert placed == pytest.approx((31.5 * MM, 12 * MM, 27.5 * MM, 25 * MM))


def test_three_of_an_axis_is_one_too_many() -> None:
    with pytest.raises(geometry.GeometryError, match="one is too many") as caught:
        geometry.place(
            {"x": "1mm", "w": "2mm", "right": "3mm", "y": "0mm", "h": "1mm"}, FRAME, TRIM
        )
    assert caught.value.key == "right"


# --- in templates -------------------------------------------------------------------------------

LANTERN = TESTS / "fixtures" / "lantern"
T = "templates/lantern"
FRONT = (
    "fonts:\n"
    "  body: {regular: CharisSIL-Regular, bold: CharisSIL-Bold}\n"
    "boxes:\n"
    "  art: {x: 5mm, y: 12mm, right: 5mm, h: 40%}\n"
    "  caption: {in: art, x: 0mm, bottom: 0mm, w: 100%, h: 6mm}\n"
    "elements:\n"
    "  - {id: ground, type: rect, box: bleed, fill: '#222222'}\n"
    "  - {id: frame, type: rect, box: art, fill: '#444444'}\n"
    "  - {id: half, type: rect, in: art, x: 50%, y: 0mm, w: 50%, h: 100%, fill: '#555555'}\n"
    "  - {id: name, type: text, x: 6mm, y: 4mm, right: 6mm, h: 6mm, text: '{{ card.name }}',"
    " font: body}\n"
    "  - {id: note, type: text, box: caption, text: x, font: body}\n"
    "  - {id: rules, type: text, x: 6mm, y: art.bottom + 2mm, right: 6mm, bottom: 12mm,"
    " text: '{{ card.text }}', font: body, size: 9pt, min_size: 6pt}\n"
    "  - {id: foot, type: text, x: center, w: 30mm, bottom: 4mm, h: 4mm, text: x, font: body,"
    " size: 7pt}\n"
)


def _lantern(tmp_path: Path, front: str, size: str = "tarot") -> Workspace:
    root = tmp_path / "ws"
    shutil.copytree(LANTERN, root)
    (root / T / "front.yaml").write_text(front)
    (root / T / "back.yaml").write_text(  # a back that fits every size: centred
        "fonts:\n  body: {regular: CharisSIL-Regular}\nelements:\n"
        "  - {id: ground, type: rect, box: bleed, fill: '#2b2b3a'}\n"
        "  - {id: mark, type: text, x: center, y: center, w: 30mm, h: 10mm, text: L, font: body}\n"
    )
    model = root / "rules" / "lantern" / "game.yaml"
    model.write_text(model.read_text().replace("size: tarot", f"size: {size}"))
    return Workspace.find(root)


def _findings(ws: Workspace) -> list[tuple[str, int, int, str, str]]:
    from cardgen.project.loaded import load_game

    loaded = load_game(ws, "lantern")
    _, found = load_faces(ws, "lantern", loaded.model)
    # where a version stamp would go is not what these templates are about (test_guards_face.py)
    return [
        (f.file, f.line, f.column, str(f.severity), f.code)
        for f in found
        if f.code != "stamp-placement"
    ]


@pytest.mark.parametrize("size", ["tarot", "poker", "mini", "88mm x 63mm"])
def test_a_size_relative_template_fits_every_size(tmp_path: Path, size: str) -> None:
    ws = _lantern(tmp_path, FRONT, size)
    assert _findings(ws) == []
    studio = open_studio(ws, "lantern")
    card = studio.designs()[0]
    face, _ = studio.prepare(card)
    assert face.findings == []
    boxes = {op.props["_id"]: op.box for op in face.ops}
    w, h = face.width, face.height
    assert boxes["frame"] == pytest.approx((5 * MM, 12 * MM, w - 10 * MM, 0.4 * h))
    assert boxes["half"][0] == pytest.approx(5 * MM + (w - 10 * MM) / 2)
    assert boxes["note"][1] + boxes["note"][3] == pytest.approx(12 * MM + 0.4 * h)
    assert boxes["foot"] == pytest.approx(((w - 30 * MM) / 2, h - 8 * MM, 30 * MM, 4 * MM))
    rules = boxes["rules"]
    assert rules[1] == pytest.approx(14 * MM + 0.4 * h) and rules[1] + rules[3] == pytest.approx(
        h - 12 * MM
    )


ABSOLUTE = (
    "# laid out for poker\n"
    "fonts:\n"
    "  body: {regular: CharisSIL-Regular, bold: CharisSIL-Bold}\n"
    "elements:\n"
    "  - {id: ground, type: rect, box: bleed, fill: '#222222'}\n"
    "  - {id: panel, type: rect, x: 2.6mm, y: 2.6mm, w: 57.8mm, h: 82.8mm, fill: '#eeeeee'}\n"
    "  - {id: name, type: text, x: 6mm, y: 4mm, w: 51mm, h: 6mm, text: '{{ card.name }}',"
    " font: body}\n"
    "  - {id: foot, type: text, x: 6mm, y: 80mm, w: 51mm, h: 4mm, text: x, font: body,"
    " size: 7pt}\n"
)


def test_a_template_laid_out_for_poker_used_at_tarot_is_found(tmp_path: Path) -> None:
    ws = _lantern(tmp_path, ABSOLUTE, "tarot")
    assert _findings(ws) == [(f"{T}/front.yaml", 6, 5, "warning", "template-size-mismatch")]
    from cardgen.project.loaded import load_game

    _, found = load_faces(ws, "lantern", load_game(ws, "lantern").model)
    assert found[0].message == (
        "template 'front' is used at tarot (69.85 x 120.65 mm), but its elements, placed in "
        "millimetres from the corner, reach 60.4 x 85.4 mm: it looks laid out for poker-eu "
        "(63 x 88 mm), leaving an empty band"
    )


def test_the_same_template_at_its_own_size_is_not(tmp_path: Path) -> None:
    assert _findings(_lantern(tmp_path / "a", ABSOLUTE, "63mm x 88mm")) == []
    said = ABSOLUTE.replace("fonts:", "size: poker-eu\nfonts:", 1)
    assert _findings(_lantern(tmp_path / "b", said, "63mm x 88mm")) == []


def test_a_file_saying_tarot_with_a_poker_fronts_numbers_is_found(tmp_path: Path) -> None:
    """The likeliest mistake: a poker front's numbers copied into a file that says `size: tarot`
    (before, its saying so was trusted and the card printed with an empty band)."""
    said = ABSOLUTE.replace("fonts:", "size: tarot\nfonts:", 1)
    assert _findings(_lantern(tmp_path, said, "tarot")) == [
        (f"{T}/front.yaml", 7, 5, "warning", "template-size-mismatch")
    ]


def test_a_file_laid_out_at_another_size_than_its_child_is_found(tmp_path: Path) -> None:
    ws = _lantern(tmp_path, ABSOLUTE.replace("fonts:", "size: poker-eu\nfonts:", 1), "tarot")
    (ws.root / T / "big.yaml").write_text("extends: front.yaml\nsize: tarot\n")
    faces = ws.root / T / "faces.yaml"
    faces.write_text(faces.read_text().replace("front: front.yaml", "front: big.yaml"))
    assert ("templates/lantern/big.yaml", 1, 1, "warning", "template-size-mismatch") in _findings(
        ws
    )


@pytest.mark.parametrize(
    ("element", "line", "column", "code", "said"),
    [
        ("{id: a, type: rect, box: arts, fill: red}", 8, 25, "template-value", "no box"),
        ("{id: a, type: rect, in: nowhere, x: 0mm, y: 0mm, w: 1mm, h: 1mm}", 8, 25, "", ""),
        ("{id: a, type: rect, x: 1mm, y: panel.bottom, w: 1mm, h: 1mm}", 8, 33, "", "no box"),
        ("{id: a, type: text, x: 9mm, y: 9mm, w: 9mm, h: 9mm, size: 5%, text: x}", 8, 57, "", ""),
        ("{id: a, type: rect, x: 1mm, y: 1mm, h: 1mm}", 8, 5, "template-missing", "needs w"),
        ("{id: a, type: rect, x: center, y: 1mm, h: 1mm}", 8, 5, "template-missing", "centre it"),
        ("{id: a, type: rect, right: 1mm, bottom: 1mm}", 8, 5, "template-missing", "w and h"),
    ],
)
def test_a_geometry_mistake_is_found_at_its_key(
    tmp_path: Path, element: str, line: int, column: int, code: str, said: str
) -> None:
    front = FRONT.split("  - {id: frame")[0] + f"  - {element}\n"
    ws = _lantern(tmp_path, front)
    from cardgen.project.loaded import load_game

    _, found = load_faces(ws, "lantern", load_game(ws, "lantern").model)
    assert [(f.line, f.column) for f in found] == [(line, column)], found
    if code:
        assert found[0].code == code and said in found[0].message, found[0]


def test_a_box_in_a_box_not_yet_defined_is_found(tmp_path: Path) -> None:
    front = FRONT.replace(
        "  art: {x: 5mm", "  early: {in: art, x: 0mm, y: 0mm, w: 1mm, h: 1mm}\n  art: {x: 5mm"
    )
    assert _findings(_lantern(tmp_path, front)) == [
        (f"{T}/front.yaml", 4, 11, "error", "template-value")
    ]

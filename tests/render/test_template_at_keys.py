"""Template mistakes found once, where they are written: missing font files (with their stand-in),
bad constant values, lengths computed without a unit, an id used twice, a constant picture that
does not exist, an element without a type."""

from __future__ import annotations

from pathlib import Path

from cardgen.core.errors import Severity
from cardgen.core.workspace import Workspace
from cardgen.project.loaded import load_game
from cardgen.project.studio import open_studio
from cardgen.render.template import load_template
from cardgen.render.values import typed

BOX = "x: 1mm, y: 1mm, w: 20mm, h: 5mm"


def _load(ws: Workspace, text: str, name: str = "t.yaml"):  # type: ignore[no-untyped-def]
    path = ws.templates_dir("clean") / name
    path.write_text(text, encoding="utf-8")
    model = load_game(ws, "clean").model
    assert model is not None
    return load_template(path, lambda p: p.name, model, root=ws.root)


def _where(findings) -> list[tuple[int, int, str]]:  # type: ignore[no-untyped-def]
    return [(f.line, f.column, f.code) for f in findings]


def test_a_constant_value_is_reported_once_at_its_key_and_dropped(scratch_ws: Workspace) -> None:
    template, findings = _load(
        scratch_ws,
        "fonts: {body: CharisSIL-Regular}\nelements:\n"
        "  - id: name\n    type: text\n    x: 1mm\n    y: 1mm\n    w: 20mm\n    h: 5mm\n"
        "    text: hi\n    max_lines: 0\n    align: centre\n"
        f"  - {{id: dot, type: badge, {BOX}, text: x, label: y, label_font: bdy}}\n",
    )
    assert _where(findings) == [
        (10, 5, "template-value"),
        (11, 5, "template-value"),
        (12, 80, "template-value"),
    ]
    assert [f.message for f in findings] == [
        "element 'name': max_lines is 0, outside 1-100",
        "element 'name': align is 'centre'; it must be left, center, right",
        "element 'dot': label_font names font family 'bdy', which the template does not define",
    ]
    name, dot = template.elements
    assert "max_lines" not in name.props and "align" not in name.props  # the defaults stand in
    assert "label_font" not in dot.props and name.props["text"].raw == "hi"


def test_a_length_computed_without_a_unit_is_an_error_at_its_key(scratch_ws: Workspace) -> None:
    template, findings = _load(
        scratch_ws,
        "vars: {wide: 40, narrow: '30mm', pick: \"{{ 20 if card.cost else 30 }}\"}\n"
        "elements:\n"
        "  - id: a\n    type: rect\n    x: 1mm\n    y: 1mm\n    h: 5mm\n"
        '    w: "{{ 51 - [cost().sequence|length, 7]|min * 4.3 }}"\n'
        '  - {id: b, type: rect, x: 1mm, y: 1mm, h: 5mm, w: "{{ vars.wide }}"}\n'
        '  - {id: c, type: rect, x: 1mm, y: 1mm, h: 5mm, w: "{{ vars.pick }}"}\n'
        # these print a unit: no finding
        '  - {id: d, type: rect, x: 1mm, y: 1mm, h: 5mm, w: "{{ 51 - 4.3 }}mm"}\n'
        '  - {id: e, type: rect, x: 1mm, y: 1mm, h: 5mm, w: "{{ vars.narrow }}"}\n'
        "  - {id: f, type: rect, x: 1mm, y: 1mm, h: 5mm,"
        " w: \"{{ '26mm' if card.cost else '31mm' }}\"}\n",
    )
    assert _where(findings) == [
        (8, 5, "template-unit"),
        (9, 49, "template-unit"),
        (10, 49, "template-unit"),
    ]
    assert findings[0].message == "element 'a': w computes a number without a unit"
    assert findings[0].hint == (
        'write the unit after the expression: w: "{{ 51 - [cost().sequence|length, 7]|min * 4.3 '
        '}}mm"'
    )
    kept = {e.id: "w" in e.props for e in template.elements}
    assert kept == {"a": False, "b": False, "c": False, "d": True, "e": True, "f": True}


def test_a_computed_length_that_prints_a_bare_number_is_a_bad_value_when_drawn(
    scratch_ws: Workspace,
) -> None:
    template, _ = _load(scratch_ws, f"elements:\n  - {{type: rect, {BOX}}}\n")
    props = {"w": "47.3", "h": "5mm", "x": "0", "y": "-2.5mm"}
    assert list(typed(props, template)) == [
        (
            "w",
            "is '47.3', a number without a unit: write one after the expression, "
            'e.g. "{{ … }}mm"',
        ),
    ]
    assert props == {"h": "5mm", "x": "0", "y": "-2.5mm"}  # zero needs no unit


def test_an_id_written_twice_is_an_error_and_both_elements_are_drawn(
    scratch_ws: Workspace,
) -> None:
    template, findings = _load(
        scratch_ws,
        "elements:\n"
        "  - {id: ground, type: rect, box: bleed, fill: red}\n"
        "  - {id: ground, type: rect, box: trim, fill: blue}\n",
    )
    assert _where(findings) == [(3, 6, "template-duplicate-id")]
    assert findings[0].message == (
        "two elements have the id 'ground' (the first at line 2); both are drawn"
    )
    assert [e.props["fill"].raw for e in template.elements] == ["red", "blue"]


def test_an_element_without_a_type_says_so(scratch_ws: Workspace) -> None:
    _, findings = _load(scratch_ws, f"elements:\n  - {{id: panel, {BOX}}}\n  - {{{BOX}}}\n")
    assert [(f.line, f.code, f.message) for f in findings] == [
        (2, "template-element", "element 'panel' has no 'type'"),
        (3, "template-element", "element has no 'type'"),
    ]
    assert findings[0].hint and findings[0].hint.startswith("add one of the types: rect, circle")


def test_a_constant_picture_that_does_not_exist_is_one_warning_until_it_is_added(
    scratch_ws: Workspace,
) -> None:
    text = f"elements:\n  - {{id: frame, type: image, {BOX}, src: art/frame.png}}\n"
    _, findings = _load(scratch_ws, text)
    assert [(f.line, f.column, f.severity, f.code, f.message) for f in findings] == [
        (
            2,
            63,
            Severity.WARNING,
            "image-missing",
            "element 'frame': image 'art/frame.png' does not exist",
        )
    ]
    (scratch_ws.root / "art").mkdir(exist_ok=True)
    (scratch_ws.root / "art" / "frame.png").write_bytes(b"a picture")
    _, findings = _load(scratch_ws, text)  # the same template file, kept: the picture decides
    assert findings == []


def _front_with(ws: Workspace, old: str, new: str) -> Path:
    front = ws.templates_dir("clean") / "front.yaml"
    text = front.read_text(encoding="utf-8")
    assert text.count(old) == 1
    front.write_text(text.replace(old, new), encoding="utf-8")
    return front


def test_a_font_file_that_does_not_exist_is_located_and_stood_in_for(
    scratch_ws: Workspace,
) -> None:
    _front_with(scratch_ws, "title: {regular: Vollkorn-Bold}", "title: {regular: Vollkorn-Bld}")
    studio = open_studio(scratch_ws, "clean")  # no longer refused: the faces still print
    found = [f for f in studio.template_findings if f.code == "template-font"]
    assert [(f.file, f.line, f.column, f.severity) for f in found] == [
        ("templates/clean/front.yaml", 4, 11, Severity.ERROR)
    ]
    assert found[0].message == (
        "font family 'title' names 'Vollkorn-Bld', which is no font file in fonts/ or among "
        "cardgen's own: DejaVuSans stands in for it"
    )
    assert found[0].hint == "did you mean 'Vollkorn-Bold'?"
    assert found[0].about == "templates/clean/front.yaml"
    template = studio.faces.templates["front.yaml"]
    assert template.fonts["title"] == dict.fromkeys(
        ("regular", "bold", "italic", "bolditalic"), "DejaVuSans"
    )
    assert all(rule.front is template for rule in studio.faces.rules)
    card = studio.check.catalog.find("Firestorm")
    assert card is not None
    front, _ = studio.prepare(card)
    name = next(op for op in front.ops if op.props.get("_id") == "name")
    assert name.family is not None and name.family.regular == "DejaVuSans"


def test_a_missing_bold_file_falls_back_to_its_familys_regular(scratch_ws: Workspace) -> None:
    _front_with(scratch_ws, "bold: CharisSIL-Bold,", "bold: CharisSIL-Bolt,")
    studio = open_studio(scratch_ws, "clean")
    found = [f for f in studio.template_findings if f.code == "template-font"]
    assert [(f.line, f.column) for f in found] == [(3, 38)]
    assert found[0].message.endswith("CharisSIL-Regular stands in for it")
    body = studio.faces.templates["front.yaml"].fonts["body"]
    assert body["bold"] == "CharisSIL-Regular" and body["italic"] == "CharisSIL-Italic"

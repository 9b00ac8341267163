"""Templates: located findings for bad input, extends, and card text never evaluated."""

from __future__ import annotations

from pathlib import Path

from cardgen.core.workspace import Workspace
from cardgen.project.loaded import load_game
from cardgen.project.studio import open_studio
from cardgen.render.context import context
from cardgen.render.template import load_template


def _load(tmp_path: Path, ws: Workspace, text: str, name: str = "t.yaml"):
    path = tmp_path / name
    path.write_text(text)
    model = load_game(ws, "clean").model
    return load_template(path, lambda p: p.name, model)


def test_bad_elements_are_located_findings(tmp_path: Path, fixture_ws: Workspace) -> None:
    template, findings = _load(
        tmp_path,
        fixture_ws,
        """elements:
  - {type: rectangle, x: 0mm, y: 0mm, w: 1mm, h: 1mm}
  - {type: rect, x: 0mm, y: 0mm, w: 1mm, h: 1mm, colour: red}
  - {type: text, x: 3, y: 0mm, w: 1mm, h: 1mm, text: hi}
  - {type: text, x: 0mm, y: 0mm, w: 1mm, h: 1mm, text: "{{ card.name", font: body}
  - {type: rect, w: 1mm}
""",
    )
    assert [(f.line, f.code) for f in findings] == [
        (2, "template-element"),
        (3, "template-unknown-key"),
        (4, "template-unit"),
        (5, "template-jinja"),
        (5, "template-font"),
        (6, "template-missing"),
    ]
    assert "did you mean 'rect'?" in (findings[0].hint or "")


def test_extends_overrides_by_id(tmp_path: Path, fixture_ws: Workspace) -> None:
    (tmp_path / "base.yaml").write_text(
        "fonts: {body: CharisSIL-Regular}\nelements:\n"
        "  - {id: a, type: rect, box: trim, fill: red}\n"
        "  - {id: b, type: rect, box: trim, fill: blue}\n"
    )
    template, findings = _load(
        tmp_path,
        fixture_ws,
        "extends: base.yaml\nremove: [b]\nelements:\n"
        "  - {id: a, type: rect, box: bleed, fill: green}\n"
        "  - {id: c, type: circle, box: safe}\n",
    )
    assert findings == []
    assert [
        (e.id, e.props.get("fill").raw if "fill" in e.props else None) for e in template.elements
    ] == [("a", "green"), ("c", None)]
    assert template.fonts["body"]["bold"] == "CharisSIL-Regular"


def test_card_text_with_jinja_is_never_evaluated(scratch_ws: Workspace) -> None:
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(
        cards.read_text().replace(
            "text: Deal 2 damage to each unit. Pay [R] more to deal 3 instead.",
            'text: "{{ 7 * 7 }} {% for x in range(3) %}x{% endfor %}"',
        )
    )
    studio = open_studio(scratch_ws, "clean")
    card = studio.check.catalog.find("Firestorm")
    front, _ = studio.prepare(card)
    rules = next(op for op in front.ops if op.type == "text" and "{{" in str(op.props.get("text")))
    assert rules.props["text"].startswith("{{ 7 * 7 }}")


def test_context_resolves_vocabulary_attributes(fixture_ws: Workspace) -> None:
    loaded = load_game(fixture_ws, "clean")
    template, _ = load_template(fixture_ws.templates_dir("clean") / "front.yaml", str, loaded.model)
    ctx = context(loaded.catalog.find("Tide Caller"), loaded.model, template)
    assert ctx["attr"]("faction", "color") == "#33a"
    assert ctx["card"].text == "" and ctx["card"].power == 1


def test_missing_or_outside_art_is_a_warning_and_a_placeholder(scratch_ws: Workspace) -> None:
    from PIL import Image

    Image.new("RGB", (700, 330), "#3366aa").save(scratch_ws.root / "cards" / "clean" / "ok.png")
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    text = cards.read_text()
    text = text.replace(
        "- name: Ember Guard\n", "- name: Ember Guard\n  art: cards/clean/missing.png\n"
    )
    text = text.replace("- name: Firestorm\n", "- name: Firestorm\n  art: ../../../etc/passwd\n")
    text = text.replace("- name: Tide Caller\n", "- name: Tide Caller\n  art: cards/clean/ok.png\n")
    cards.write_text(text)
    studio = open_studio(scratch_ws, "clean")
    got = {}
    for card in studio.cards:
        face, _ = studio.prepare(card)
        got[card.id] = (
            [(f.code, f.line, f.message) for f in face.findings],
            next(op.props for op in face.ops if op.type == "image"),
        )
    assert got["ember-guard"][0] == [
        ("image-missing", 2, "image 'cards/clean/missing.png' does not exist")
    ]
    assert "missing" in got["ember-guard"][1]  # drawn as a visible placeholder
    assert (
        got["firestorm"][0][0][0] == "image-missing"
        and "outside the workspace" in got["firestorm"][0][0][2]
    )
    assert got["tide-caller"][0] == [] and got["tide-caller"][1]["path"].endswith("ok.png")


def test_names_a_template_uses_must_exist(tmp_path: Path, fixture_ws: Workspace) -> None:
    template, findings = _load(
        tmp_path,
        fixture_ws,
        """vars:
  frame: "{{ attr('faction', 'colr', '#777') }}"
elements:
  - {type: text, x: 0mm, y: 0mm, w: 9mm, h: 9mm, text: "{{ card.rnak }}"}
  - {type: rect, x: 0mm, y: 0mm, w: 9mm, h: 9mm, fill: "{{ vars.fram }}", when: "card.powr > 2"}
  - {type: rect, x: 0mm, y: 0mm, w: 9mm, h: 9mm, fill: "{{ attr('factoin', 'color') }}"}
  - {type: rect, x: 90mm, y: 0mm, w: 9mm, h: 9mm, fill: "#ffffff"}
""",
    )
    got = [(f.line, f.code, f.message, f.hint) for f in findings]
    assert (
        2,
        "template-name",
        "attr('faction', 'colr'): no value of 'faction' has 'colr'",
        "did you mean 'color'?",
    ) in got
    assert any(
        g[:3] == (4, "template-name", "'card.rnak' is not a field of this game") for g in got
    )
    assert (
        5,
        "template-name",
        "'vars.fram' is not a var of this template",
        "did you mean 'frame'?",
    ) in got
    assert (
        5,
        "template-name",
        "'card.powr' is not a field of this game",
        "did you mean 'power'?",
    ) in got
    assert (
        6,
        "template-name",
        "attr() names field 'factoin', which the model does not have",
        "did you mean 'faction'?",
    ) in got
    assert any(line == 7 and code == "template-off-card" for line, code, _, _ in got)


def test_text_stats_and_costs_must_stay_in_the_safe_zone(
    tmp_path: Path, fixture_ws: Workspace
) -> None:
    from cardgen.render.faces import _safe_zone

    template, findings = _load(
        tmp_path,
        fixture_ws,
        """size: 63mm x 88mm
safe: 3mm
fonts: {body: CharisSIL-Regular}
elements:
  - {id: ap, type: badge, x: 2.2mm, y: 74mm, w: 9.6mm, h: 9.6mm, text: "1", font: body}
  - {id: name, type: text, x: 3mm, y: 3mm, w: 57mm, h: 6mm, text: hi, font: body}
  - {id: cost, type: icons, x: 50mm, y: 3mm, w: 11mm, h: 5mm, cost: "{1}"}
  - {id: ground, type: rect, box: bleed}
""",
    )
    assert findings == []
    assert [(f.line, f.code, f.message) for f in _safe_zone(template)] == [
        (
            5,
            "outside-safe-zone",
            "stat element 'ap' is 2.2 mm from the trim, inside the 3.0 mm safe zone: a miscut "
            "or a vendor's safe line can cut it",
        ),
        (
            7,
            "outside-safe-zone",
            "cost element 'cost' is 2.0 mm from the trim, inside the 3.0 mm safe zone: a "
            "miscut or a vendor's safe line can cut it",
        ),
    ]


def test_the_bundled_templates_keep_everything_in_the_safe_zone() -> None:
    from ..conftest import REPO

    for game in ("power-trip", "aether-duel", "ivion"):
        studio = open_studio(Workspace.find(REPO), game)
        assert not [f for f in studio.template_findings if f.code == "outside-safe-zone"], game


def test_a_back_border_that_would_show_duplex_drift_is_a_warning(
    tmp_path: Path, fixture_ws: Workspace
) -> None:
    from cardgen.render.faces import _drift_borders

    template, findings = _load(
        tmp_path,
        fixture_ws,
        """size: 63mm x 88mm
fonts: {body: CharisSIL-Regular}
elements:
  - {id: ground, type: rect, box: bleed, fill: "#222222"}
  - {id: border, type: rect, x: 4.5mm, y: 4.5mm, w: 54mm, h: 79mm, stroke: "#c9a227"}
  - {id: emblem, type: rect, x: 20mm, y: 30mm, w: 23mm, h: 23mm, stroke: "#c9a227"}
  - {id: rule, type: line, x1: 15mm, y1: 80mm, x2: 48mm, y2: 80mm, stroke: "#c9a227"}
""",
        name="back.yaml",
    )
    assert findings == []
    assert [(f.line, f.code) for f in _drift_borders(template)] == [
        (5, "back-border"),
        (7, "back-border"),
    ]
    assert "4.5 mm inside the trim" in _drift_borders(template)[0].message


def test_a_bad_max_lines_is_a_template_value_finding(scratch_ws: Workspace) -> None:
    """max_lines takes a whole number of lines; anything else was ignored silently before."""
    import json

    from click.testing import CliRunner

    from cardgen.cli.main import main

    front = scratch_ws.templates_dir("clean") / "front.yaml"
    text = front.read_text()
    for value, problem in (
        ("1.5", "is '1.5', not a whole number"),
        ("two", "is 'two', not a whole number"),
        ("0", "is 0, outside 1-100"),
        ("-1", "is -1, outside 1-100"),
    ):
        front.write_text(
            text.replace(
                "font: title, size: 11pt,", f"font: title, size: 11pt, max_lines: {value},", 1
            )
        )
        out = CliRunner().invoke(
            main, ["--root", str(scratch_ws.root), "validate", "clean", "--format", "json"]
        )
        found = [f for f in json.loads(out.output)["findings"] if f["code"] == "template-value"]
        assert found and all(
            f["message"] == f"element 'name': max_lines {problem}" for f in found
        ), (value, found)
        assert found[0]["file"] == "templates/clean/front.yaml" and found[0]["line"] == 8
    front.write_text(
        text.replace("font: title, size: 11pt,", "font: title, size: 11pt, max_lines: 2,", 1)
    )
    out = CliRunner().invoke(
        main, ["--root", str(scratch_ws.root), "validate", "clean", "--format", "json"]
    )
    assert not [f for f in json.loads(out.output)["findings"] if f["code"] == "template-value"]

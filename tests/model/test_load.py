"""The game model loader: a broken model gives located findings, never an exception."""

from __future__ import annotations

from pathlib import Path

from cardgen.core.workspace import Workspace
from cardgen.model.load import load_model


def test_clean_model_loads(fixture_ws: Workspace) -> None:
    model, findings = load_model(fixture_ws.model_path("clean"), "game.yaml", "clean")
    assert findings == [] and model is not None
    assert list(model.fields) == [
        "name",
        "cost",
        "faction",
        "kind",
        "text",
        "power",
        "rarity",
        "number",
        "art",
    ]
    assert model.vocabularies["kind"].lookup("sorcery")[1] == "alias"
    assert [s.letter for s in model.cost.symbols] == ["R", "U"]
    assert model.collation[0].rarities["common"].copies == 2


def test_broken_model_findings(fixture_ws: Workspace) -> None:
    model, findings = load_model(fixture_ws.model_path("badmodel"), "game.yaml", "badmodel")
    assert model is not None
    assert [(f.line, f.code) for f in findings] == [
        (3, "model-unknown-key"),
        (5, "model-field-type"),
        (6, "model-unknown-vocab"),
        (10, "model-unknown-field"),
        (13, "model-value"),
        (16, "model-duplicate"),
        (17, "model-unknown-field"),  # numbering reads 'number', a field the model lacks
        (18, "model-value"),
        (20, "model-unit"),
        (21, "model-unit"),
    ]
    assert "did you mean 'text'?" in (findings[1].hint or "")


def test_missing_sections_and_wrong_shapes(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text("game: {name: X}\nkeywords: {Guard: 3}\n")
    model, findings = load_model(path, "game.yaml", "x")
    assert model is not None
    assert [(f.line, f.code) for f in findings] == [(1, "model-missing-section"), (2, "model-type")]
    path.write_text("- just\n- a list\n")
    model, findings = load_model(path, "game.yaml", "x")
    assert model is None and [f.code for f in findings] == ["model-type"]

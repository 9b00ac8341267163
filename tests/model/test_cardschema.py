"""The JSON Schema of a game's card files agrees with the validator: it accepts every bundled card
that validates without errors, and rejects what the validator calls an error (checked with the
jsonschema package, as the YAML language server would)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from cardgen.cli.main import main
from cardgen.core.workspace import Workspace
from cardgen.jobs.findings import validate_game
from cardgen.model.cardschema import card_schema

from ..conftest import FIXTURE_WS, REPO

GAMES = [(REPO, "power-trip"), (REPO, "aether-duel"), (REPO, "ivion"), (FIXTURE_WS, "clean")]


@pytest.mark.parametrize("root,game", GAMES)
def test_schema_accepts_every_card_without_errors(root, game: str) -> None:
    result = validate_game(Workspace.find(root), game)
    assert result.model is not None
    schema = card_schema(result.model)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    failing = {f.card for f in result.findings if f.card and str(f.severity) == "error"}
    clean = [c for c in result.catalog if c.id not in failing]
    assert len(clean) > 0
    rejected = [
        (c.id, next(validator.iter_errors([json.loads(json.dumps(c.data))])).message)
        for c in clean
        if not validator.is_valid([json.loads(json.dumps(c.data))])
    ]
    assert rejected == []


def test_schema_rejects_what_the_validator_calls_errors() -> None:
    model = validate_game(Workspace.find(FIXTURE_WS), "clean").model
    assert model is not None
    validator = Draft202012Validator(card_schema(model))
    good = {"name": "X", "faction": "Red", "kind": "Unit", "power": 2}
    assert validator.is_valid([good])
    assert validator.is_valid(
        [{**good, "faction": "red"}]
    )  # a case slip is a warning, not an error
    for bad in (
        {**good, "faction": "Purple"},
        {**good, "power": "two"},
        {**good, "power": 12},
        {**good, "colour": "Red"},
        {"name": "X", "kind": "Unit"},
        {**good, "id": "../x"},
    ):
        assert not validator.is_valid([bad]), bad


def test_schema_command_writes_the_file_and_the_editor_line(tmp_path) -> None:
    out = tmp_path / "cards.schema.json"
    result = CliRunner().invoke(
        main, ["--root", str(FIXTURE_WS), "schema", "clean", "--out", str(out)]
    )
    assert result.exit_code == 0 and "# yaml-language-server: $schema=" in result.output
    assert json.loads(out.read_text())["items"]["properties"]["faction"]

"""Turn a game's model into its card-file JSON Schema on disk, and tell the designer how editors
find it."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..core.errors import ModelUnusable
from ..core.output import JobResult, Output, write_atomic
from ..core.workspace import Workspace
from ..model.cardschema import card_schema
from ..model.load import load_model


def write_card_schema(ws: Workspace, game: str, out: Path | None = None) -> JobResult:
    ws.check_game(game)
    model, findings = load_model(ws.model_path(game), ws.shown(ws.model_path(game)), game)
    if model is None:
        raise ModelUnusable(game, findings, ws.shown(ws.model_path(game)))
    path = out or ws.output_dir(game) / "cards.schema.json"
    text = json.dumps(card_schema(model), indent=2, ensure_ascii=False) + "\n"
    result = JobResult(
        [Output(write_atomic(path, text), "JSON Schema of the card files")], findings
    )
    relative = Path(os.path.relpath(path.resolve(), ws.cards_dir(game).resolve())).as_posix()
    result.notes += [
        "add this first line to each card file (VS Code with the YAML extension, and other editors "
        "using the",
        "YAML language server, then check cards as you type):  # yaml-language-server: "
        f"$schema={relative}",
    ]
    return result

"""Turn a game's `sheet:` settings (declared here as data, read from the model once game.yaml's
schema has the section) into typed SheetSettings, with the defaults a game without them gets."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import CardgenError
from ..model.game import GameModel, Role

# The `sheet:` section of game.yaml, as model/schema.py would declare it (the lead adds it there):
# every key optional, each with what it says.
SHEET_SECTION: dict[str, Any] = {
    "file": "the designer's sheet: a path in the workspace (cards.xlsx, cards.ods, cards.csv) or a "
    "published-CSV http(s) address; `build --watch` and `serve` pull it when it is saved",
    "key": "the column that matches rows to cards (default: id; without an id column, the name)",
    "separator": "what joins a list field's values in one cell (default ', '; ';' also works)",
    "columns": "a mapping of header -> field for headers cardgen cannot match by itself",
    "new_cards": {
        "by": "the field whose value picks the file a new row goes to (default: the field with "
        "role kind)",
        "files": "a mapping of that field's value -> card file (relative to cards/GAME/)",
        "default": "the file for rows no rule places (default: cards.yaml)",
    },
}


@dataclass
class SheetSettings:
    file: str | None = None
    key: str = "id"
    separator: str = ", "
    columns: dict[str, str] = field(default_factory=dict)
    new_by: str | None = None
    new_files: dict[str, str] = field(default_factory=dict)
    new_default: str = "cards.yaml"


def sheet_settings(model: GameModel, raw: Any = None) -> SheetSettings:
    """The game's sheet settings: `raw` (the model's `sheet:` section as read), else the model's
    own attribute once it has one, else the defaults."""
    if raw is None:
        raw = getattr(model, "sheet", None)
    settings = SheetSettings(new_by=model.role_field(Role.KIND))
    if not isinstance(raw, dict):
        return settings
    if isinstance(raw.get("file"), str):
        settings.file = raw["file"]
    if isinstance(raw.get("key"), str) and raw["key"].strip():
        settings.key = raw["key"].strip()
    if isinstance(raw.get("separator"), str) and raw["separator"].strip():
        settings.separator = raw["separator"]
    if isinstance(raw.get("columns"), dict):
        settings.columns = {str(k): str(v) for k, v in raw["columns"].items()}
    rule = raw.get("new_cards")
    if isinstance(rule, dict):
        if isinstance(rule.get("by"), str):
            settings.new_by = rule["by"]
        if isinstance(rule.get("files"), dict):
            settings.new_files = {str(k): str(v) for k, v in rule["files"].items()}
        if isinstance(rule.get("default"), str):
            settings.new_default = rule["default"]
    return settings


def card_file_name(name: str) -> str:
    """A card file's path relative to cards/GAME/ as a rule or a sheet names it, checked: no way out
    of the folder, a .yaml name."""
    name = name.strip().replace("\\", "/")
    if not name.endswith((".yaml", ".yml")):
        name += ".yaml"
    parts = name.split("/")
    if (
        name.startswith("/")
        or any(p in ("", ".", "..") for p in parts)
        or re.search(r'[<>:"|?*\x00-\x1f]', name)
    ):
        raise CardgenError(f"'{name}' cannot name a card file (it must stay inside cards/GAME/)")
    return name


def sheet_name(rel: str) -> str:
    """The sheet a card file becomes in a workbook: its path without '.yaml', '/' as '~' (a sheet
    name holds at most 31 characters and none of []:*?/\\)."""
    stem = re.sub(r"\.ya?ml$", "", rel).replace("/", "~")
    return re.sub(r"[\[\]:*?/\\]", "_", stem)[:31]

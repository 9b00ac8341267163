"""`cardgen new --from` a sheet written in two languages ('Name (DE)', 'Text [de]', 'Type (DE)'):
the game gets editions, the cards FIELD@LANG, a vocabulary its names per language, and `sheet
pull` of the same sheet changes nothing. The sheets here are sample content written for the
tests."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.core.workspace import Workspace
from cardgen.jobs.new import scaffold_from_sheet
from cardgen.jobs.sheet import pull_sheet
from cardgen.project.loaded import load_game
from cardgen.sheet.infer_editions import language_code

SHEET = (
    "Name,Name (DE),Type,Type (DE),Cost,Attack (ATK),Text,Text [de]\n"
    "Fire Bolt,Feuerstoß,Spell,Zauber,1,,Deal 2 damage to a unit or a player.,"
    "Füge einer Einheit oder einem Spieler 2 Schaden zu.\n"
    "Stone Wall,Steinmauer,Unit,Einheit,2,1,Blocks one attack each turn and never moves.,"
    "Blockt jede Runde einen Angriff und bewegt sich nie.\n"
    "Healing Rain,,Spell,Zauber,3,,Heal 3 damage from each of your units.,\n"
    "Sea Serpent,Seeschlange,Unit,Einheit,4,3,Cannot be blocked by weaker units.,"
    "Kann nicht von schwächeren Einheiten geblockt werden.\n"
    "Ember Imp,Glutkobold,Unit,Einheit,1,1,Dies at the end of your turn.,"
    "Stirbt am Ende deines Zuges.\n"
)


def _made(tmp_path: Path, text: str = SHEET) -> tuple[Path, list[str]]:
    root = tmp_path / "studio"
    root.mkdir()
    sheet = root / "bil.csv"
    sheet.write_text(text, encoding="utf-8")
    result = scaffold_from_sheet(root, "bil", sheet)
    assert result.findings == []
    return root, result.notes


def test_language_columns_become_editions_not_fields(tmp_path: Path) -> None:
    root, notes = _made(tmp_path)
    model = yaml.safe_load((root / "rules/bil/game.yaml").read_text(encoding="utf-8"))
    assert model["editions"] == {
        "default": "en",
        "languages": {"en": {"name": "EN"}, "de": {"name": "DE"}},
        "translate": ["name", "text"],
    }
    assert list(model["fields"]) == ["name", "type", "cost", "attack_atk", "text"]
    named = {t["name"]: t["name@de"] for t in model["vocabularies"]["type"]}
    assert named == {"Unit": "Einheit", "Spell": "Zauber"}
    cards = yaml.safe_load((root / "cards/bil/bil.yaml").read_text(encoding="utf-8"))
    assert list(cards[0]) == ["id", "name", "name@de", "type", "cost", "text", "text@de"]
    assert cards[1]["name@de"] == "Steinmauer" and "name@de" not in cards[2]
    assert any("read as translations (Name (DE), Type (DE), Text [de])" in n for n in notes)
    assert load_game(Workspace(root), "bil").findings == []
    done = CliRunner().invoke(main, ["--root", str(root), "validate", "bil"])
    assert done.exit_code == 0, done.output
    assert "warning[translation-missing] healing-rain [de edition]" in done.output  # no German
    assert "0 errors, 1 warning, 0 info" in done.output


def test_pulling_the_same_sheet_changes_nothing(tmp_path: Path) -> None:
    root, _ = _made(tmp_path)
    before = (root / "cards/bil/bil.yaml").read_bytes()
    result, _ = pull_sheet(Workspace(root), "bil", str(root / "bil.csv"))
    assert (root / "cards/bil/bil.yaml").read_bytes() == before
    assert [(f.code, f.cell, str(f.severity)) for f in result.findings] == [
        ("sheet-vocab-column", "bil.csv:D1", "info")
    ]
    edited = (root / "bil.csv").read_text(encoding="utf-8").replace("Steinmauer", "Steinwall")
    (root / "bil.csv").write_text(edited, encoding="utf-8")
    pull_sheet(Workspace(root), "bil", str(root / "bil.csv"))
    cards = yaml.safe_load((root / "cards/bil/bil.yaml").read_text(encoding="utf-8"))
    assert cards[1]["name@de"] == "Steinwall"


def test_a_language_column_needs_a_base_column_and_a_real_language(tmp_path: Path) -> None:
    assert language_code("DE") == "de" and language_code("pt_BR") == "pt-br"
    assert language_code("HP") is None and language_code("XX") is None
    root, notes = _made(tmp_path, "Name,Lore (DE),Power (HP)\nA,Alt,3\nB,Neu,4\n")
    model = yaml.safe_load((root / "rules/bil/game.yaml").read_text(encoding="utf-8"))
    assert "editions" not in model  # no 'Lore' column: 'Lore (DE)' is a field of its own
    assert list(model["fields"]) == ["name", "lore_de", "power_hp"]
    assert not any("translations" in n for n in notes)


def test_an_enumeration_whose_translations_disagree_stays_a_field(tmp_path: Path) -> None:
    rows = ["A,Spell,Zauber", "B,Spell,Spruch", "C,Unit,Einheit", "D,Unit,Einheit", "E,Spell,X"]
    root, _ = _made(tmp_path, "Name,Type,Type (DE)\n" + "\n".join(rows) + "\n")
    model = yaml.safe_load((root / "rules/bil/game.yaml").read_text(encoding="utf-8"))
    assert model["fields"]["type"]["type"] == "enum"
    assert "editions" not in model and "type_de" in model["fields"]

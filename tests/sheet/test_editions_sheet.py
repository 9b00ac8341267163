"""A game with editions in a spreadsheet (tests/fixtures/editions, sample content): push writes a
column per language beside each translated field (`name@de`), pull reads them back into the card's
`FIELD@LANG` keys, in place; a language the game lacks is an unknown column."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from cardgen.core.workspace import Workspace
from cardgen.jobs.sheet import pull_sheet, push_sheet

from .conftest import card_bytes, copy_game

TIDE = "cards/editions/tide.yaml"


def rows(sheet: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8-sig"), newline="")))


def write(sheet: Path, table: list[list[str]]) -> None:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(table)
    sheet.write_text(out.getvalue(), encoding="utf-8", newline="")


def test_a_column_per_language_beside_its_field(tmp_path: Path) -> None:
    root = copy_game("editions", tmp_path / "ws")
    push_sheet(Workspace(root), "editions", tmp_path / "c.csv")
    header = rows(tmp_path / "c.csv")[0]
    assert header == [
        "id", "file", "name *", "name@de", "faction *", "kind *", "cost", "text", "text@de",
        "flavor", "flavor@de", "power", "rarity", "copies",
    ]  # fmt: skip


def test_german_cells_are_pulled_into_their_keys(tmp_path: Path) -> None:
    root = copy_game("editions", tmp_path / "ws")
    ws = Workspace(root)
    tide = root / TIDE
    tide.write_text(tide.read_text(encoding="utf-8").replace("  name@de: Sog\n", ""), "utf-8")
    sheet = tmp_path / "c.csv"
    push_sheet(ws, "editions", sheet)
    table = rows(sheet)
    at = {name: i for i, name in enumerate(table[0])}
    by_id = {row[0]: row for row in table[1:]}
    by_id["harbour-guard"][at["name@de"]] = "Hafenwächterin"
    by_id["undertow"][at["name@de"]] = "Sog"
    table[0][at["text@de"]] = "Text (DE)"  # a designer's own header for the German text
    write(sheet, table)
    result, plan = pull_sheet(ws, "editions", str(sheet))
    assert [(c.line, c.card, c.field, c.new) for c in plan.changes] == [
        (16, "harbour-guard", "name@de", "Hafenwächterin"),
        (27, "undertow", "name@de", "Sog"),
    ]
    text = tide.read_text(encoding="utf-8")
    assert "- name: Undertow\n  name@de: Sog\n  faction: Tide\n" in text  # beside its field
    assert "  name@de: Hafenwächterin\n" in text
    assert [f for f in result.findings if f.severity > 1] == []
    before = card_bytes(root)
    again = tmp_path / "again.csv"
    push_sheet(ws, "editions", again)
    _, second = pull_sheet(ws, "editions", str(again))
    assert second.changes == [] and card_bytes(root) == before


def test_a_column_of_a_language_the_game_lacks_is_unknown(tmp_path: Path) -> None:
    root = copy_game("editions", tmp_path / "ws")
    ws = Workspace(root)
    sheet = tmp_path / "c.csv"
    push_sheet(ws, "editions", sheet)
    table = rows(sheet)
    table[0][table[0].index("name@de")] = "name@deu"
    table[0][table[0].index("flavor@de")] = "Power (DE)"
    write(sheet, table)
    before = card_bytes(root)
    result, plan = pull_sheet(ws, "editions", str(sheet))
    found = [(f.code, f.cell, f.message, f.hint) for f in result.findings if f.severity > 1]
    assert found == [
        (
            "sheet-unknown-column",
            f"{sheet}:K1",
            "column 'Power (DE)' is for 'power' in language 'de', and 'power' is not translated, "
            "so its values would be lost",
            "translated fields: name, text, flavor (editions.translate)",
        ),
        (
            "sheet-unknown-column",
            f"{sheet}:D1",
            "column 'name@deu' is for language 'deu', which the game has no edition in, so its "
            "values would be lost",
            "did you mean 'de'?",
        ),
    ]
    assert plan.writes == {} and card_bytes(root) == before

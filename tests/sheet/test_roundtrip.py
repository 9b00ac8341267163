"""Push then pull leaves every card file byte-identical, for every bundled and fixture game in all
three formats; pull -> push -> pull is stable; the same cards give the same sheet bytes."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path

import pytest

from cardgen.core.workspace import Workspace
from cardgen.jobs.sheet import _load, pull_sheet, push_sheet
from cardgen.sheet.push import _vocab, build_tables
from cardgen.sheet.settings import sheet_settings
from cardgen.sheet.source import read_sources

from .conftest import GAMES, card_bytes, copy_game


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_push_then_pull_changes_no_byte(game: str, fmt: str, tmp_path: Path) -> None:
    root = copy_game(game, tmp_path / "ws")
    ws = Workspace(root)
    before = card_bytes(root)
    sheet = tmp_path / f"cards.{fmt}"
    push_sheet(ws, game, sheet)
    result, plan = pull_sheet(ws, game, str(sheet))
    model, loaded = _load(ws, game)
    sources, _ = read_sources(ws, game, loaded.source, loaded.findings)
    assert plan.rows == sum(len(s.cards) for s in sources if s.readable) > 0  # every card read
    assert plan.changes == []
    assert plan.writes == {}
    assert [f for f in plan.findings if f.code.startswith("sheet-") and f.severity > 1] == []
    assert card_bytes(root) == before
    again = tmp_path / f"again.{fmt}"
    push_sheet(ws, game, again)
    assert again.read_bytes() == sheet.read_bytes()  # same cards, same bytes


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_workbook_entries_carry_no_clock(fmt: str, tmp_path: Path) -> None:
    root = copy_game("lantern", tmp_path / "ws")
    push_sheet(Workspace(root), "lantern", tmp_path / f"c.{fmt}")
    with zipfile.ZipFile(tmp_path / f"c.{fmt}") as z:
        assert {i.date_time for i in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        if fmt == "xlsx":
            core = z.read("docProps/core.xml").decode()
            assert "2000-01-01T00:00:00Z</dcterms:modified>" in core
        else:
            assert z.infolist()[0].filename == "mimetype"
            assert z.infolist()[0].compress_type == zipfile.ZIP_STORED


def test_skipped_files_are_named_and_untouched(tmp_path: Path) -> None:
    root = copy_game("broken", tmp_path / "ws")
    ws = Workspace(root)
    before = card_bytes(root)
    result = push_sheet(ws, "broken", tmp_path / "b.csv")
    skipped = sorted(f.file for f in result.findings if f.code == "sheet-file-skipped")
    assert skipped == [
        "cards/broken/bomb.yaml",
        "cards/broken/dupkey.yaml",
        "cards/broken/latin1.yaml",
        "cards/broken/mapping.yaml",
        "cards/broken/syntax.yaml",
    ]
    pull_sheet(ws, "broken", str(tmp_path / "b.csv"), prune=True)
    assert card_bytes(root) == before


def _edits(ws: Workspace, game: str, one_table: bool) -> tuple[str, str, list[Edit]]:
    """Cells a designer edits in the first card row of the pushed sheet: a text field made
    multi-line, a whole-number field changed within its range, a bare number in the cost column
    (the generic cost), another value of an enumeration; each as (table, row, column, cell value,
    the value the YAML then holds, the field's type)."""
    model, loaded = _load(ws, game)
    settings = sheet_settings(model)
    sources, _ = read_sources(ws, game, loaded.source, loaded.findings)
    tables, _ = build_tables(sources, model, settings, one_table)
    table = next(t for t in tables if t.rows)
    row, ident = 0, str(table.rows[0][0])
    edits: list[Edit] = []
    for c, column in enumerate(table.columns):
        spec, have = column.spec, table.rows[row][c]
        if spec is None or column.field == "name":
            continue
        kinds = [e[5] for e in edits]
        if spec.type == "text" and "text" not in kinds:
            edits.append(
                (table.name, row, c, "Line one.\nLine two.", "Line one.\nLine two.", "text")
            )
        elif spec.type == "integer" and "integer" not in kinds:
            low = spec.minimum if spec.minimum is not None else 0
            high = spec.maximum if spec.maximum is not None else low + 9
            new = low if have != low else min(low + 1, high)
            if new != have:
                edits.append((table.name, row, c, new, new, "integer"))
        elif spec.type == "cost" and "cost" not in kinds:
            edits.append((table.name, row, c, 4, "{4}", "cost"))
        elif spec.type == "enum" and "enum" not in kinds:
            other = [v for v in _vocab(model, spec) if v != have] or ["Edited"]
            edits.append((table.name, row, c, other[0], other[0], "enum"))
    return ident, table.name, edits


Edit = tuple[str, int, int, object, object, str]


def _apply(sheet: Path, edits: list[Edit]) -> None:
    """The edits made in the sheet's own format, as a spreadsheet program would save them."""
    if sheet.suffix == ".csv":
        rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8-sig"), newline="")))
        for _table, r, c, value, _held, _kind in edits:
            rows[r + 1][c] = str(value)
        out = io.StringIO()
        csv.writer(out, lineterminator="\r\n").writerows(rows)
        sheet.write_text(out.getvalue(), encoding="utf-8", newline="")
    elif sheet.suffix == ".xlsx":
        import openpyxl

        book = openpyxl.load_workbook(sheet)
        for table, r, c, value, _held, _kind in edits:
            book[table].cell(r + 2, c + 1, value)
        book.save(sheet)
    else:
        from odfdo import Document

        doc = Document(sheet)
        for table, r, c, value, _held, _kind in edits:
            found = doc.body.get_table(name=table)
            assert found is not None
            found.set_value((c, r + 1), value)
        doc.save(sheet)


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_pull_push_pull_is_stable_after_edits(game: str, fmt: str, tmp_path: Path) -> None:
    """k edited cells change k values; pushing the result and pulling that changes nothing."""
    root = copy_game(game, tmp_path / "ws")
    ws = Workspace(root)
    sheet = tmp_path / f"a.{fmt}"
    push_sheet(ws, game, sheet)
    ident, _, edits = _edits(ws, game, fmt == "csv")
    assert edits, "no field to edit"
    _apply(sheet, edits)
    _, first = pull_sheet(ws, game, str(sheet))
    assert [(c.card, c.action in ("set", "add")) for c in first.changes] == [(ident, True)] * len(
        edits
    ), first.findings
    _, loaded = _load(ws, game)
    card = next(c for c in loaded.source if c.id == ident)
    columns = {e[2]: e for e in edits}
    assert [card.get(c.field or "") for c in first.changes] == [
        columns[e][4] for e in sorted(columns)
    ]
    after_first = card_bytes(root)
    again = tmp_path / f"b.{fmt}"
    push_sheet(ws, game, again)
    _, second = pull_sheet(ws, game, str(again))
    assert second.changes == [] and card_bytes(root) == after_first


def test_ods_cells_edited_in_a_spreadsheet_program(tmp_path: Path) -> None:
    from odfdo import Document

    root = copy_game("lantern", tmp_path / "ws")
    ws = Workspace(root)
    sheet = root / "c.ods"
    push_sheet(ws, "lantern", sheet)
    doc = Document(sheet)
    table = doc.body.tables[0]
    header = [str(v).removesuffix(" *") for v in table.get_row_values(0)]
    table.set_value((header.index("suits"), 2), "Embers; Tides")  # ';' joins values too
    table.set_value((header.index("name"), 3), "Renamed")
    doc.save(sheet)
    before = card_bytes(root)
    _, plan = pull_sheet(ws, "lantern", str(sheet))
    assert [(c.field, c.new, c.cell) for c in plan.changes] == [
        ("suits", "[Embers, Tides]", f"c.ods:cards!{chr(65 + header.index('suits'))}3"),
        ("name", "Renamed", f"c.ods:cards!{chr(65 + header.index('name'))}4"),
        ("id", "stone-idol", "c.ods:cards!A4"),  # renamed, the card keeps its row's id
    ]
    after = card_bytes(root)
    changed = [k for k in before if before[k] != after[k]]
    assert changed == ["cards/lantern/cards.yaml"]
    old, new = before[changed[0]].decode().splitlines(), after[changed[0]].decode().splitlines()
    assert new.count("- id: stone-idol") == 1
    new.remove("- id: stone-idol")
    assert len(old) == len(new) and sum(a != b for a, b in zip(old, new)) == 2


def test_ods_text_keeps_every_space(tmp_path: Path) -> None:
    """Runs of spaces, leading and trailing spaces and tabs are written as ODF spaces (<text:s/>,
    <text:tab/>), which a spreadsheet program keeps (it collapses raw runs of spaces), and read
    back exactly."""
    root = copy_game("clean", tmp_path / "ws")
    cards = root / "cards/clean/cards.yaml"
    odd = ["two  spaces", " lead", "trail ", "tab\there", "  both  \n next   line", "<&>"]
    cards.write_text(
        cards.read_text(encoding="utf-8")
        + "".join(
            f"- name: Odd {n}\n  kind: Spell\n  faction: Red\n  text: {json.dumps(t)}\n"
            for n, t in enumerate(odd)
        ),
        encoding="utf-8",
    )
    ws = Workspace(root)
    before = card_bytes(root)
    sheet = tmp_path / "c.ods"
    push_sheet(ws, "clean", sheet)
    with zipfile.ZipFile(sheet) as z:
        content = z.read("content.xml").decode()
    for written in (
        "<text:p>two <text:s/>spaces</text:p>",
        "<text:p><text:s/>lead</text:p>",
        "<text:p>trail<text:s/></text:p>",
        "<text:p>tab<text:tab/>here</text:p>",
        '<text:p><text:s text:c="2"/>both<text:s text:c="2"/></text:p>'
        '<text:p><text:s/>next <text:s text:c="2"/>line</text:p>',
        "<text:p>&lt;&amp;&gt;</text:p>",
    ):
        assert written in content
    _, plan = pull_sheet(ws, "clean", str(sheet))
    assert plan.changes == [] and card_bytes(root) == before

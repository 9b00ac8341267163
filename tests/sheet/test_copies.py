"""The sheet's copies column in every case: a `role: copies` field's own column (edited and pulled
like any other, a `role: per-player` field's too), the field an older collation reads the counts
from, else a `copies` column showing what the collation prints (read only)."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from cardgen.core.workspace import Workspace
from cardgen.jobs.sheet import pull_sheet, push_sheet
from cardgen.load.card import Catalog
from cardgen.model.collation import counted_run
from cardgen.project.loaded import load_game

from .conftest import ROOT, card_bytes


def market(tmp_path: Path, game: str = "market") -> Workspace:
    root = tmp_path / "ws"
    for part in ("rules", "cards"):
        shutil.copytree(ROOT / "tests/fixtures/market" / part / game, root / part / game)
    return Workspace(root)


def read_csv(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline="")))


def write_csv(path: Path, rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8", newline="")
    return str(path)


def printed(ws: Workspace, game: str) -> dict[str, int]:
    loaded = load_game(ws, game)
    assert loaded.model is not None
    run = counted_run(Catalog(game, list(loaded.catalog)), loaded.model)
    return {c.card.id: c.copies for c in run}


def test_a_copies_role_field_is_the_copies_column(tmp_path: Path) -> None:
    ws = market(tmp_path)
    sheet = ws.root / "m.csv"
    push_sheet(ws, "market", sheet)
    rows = read_csv(sheet)
    header = rows[0]
    assert header == [
        "id",
        "file",
        "name *",
        "kind *",
        "expansion",
        "price",
        "text",
        "qty",  # role: copies: the card's own count in one print run
        "start",  # role: per-player: its column too, no third column of computed copies
    ]
    by_id = {r[0]: dict(zip(header, r)) for r in rows[1:]}
    assert (by_id["coin"]["qty"], by_id["coin"]["start"]) == ("12", "7")
    assert (by_id["bakery"]["qty"], by_id["bakery"]["start"]) == ("", "")  # the collation's 10
    assert printed(ws, "market")["coin"] == 19  # 12 in the supply + 7 for the one player


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods"])
def test_an_edited_count_is_pulled_and_round_trips(tmp_path: Path, fmt: str) -> None:
    ws = market(tmp_path)
    sheet = ws.root / f"m.{fmt}"
    push_sheet(ws, "market", sheet)
    edits = {("coin", "qty"): 15, ("coin", "start"): 5, ("bakery", "qty"): 4}
    if fmt == "csv":
        rows = read_csv(sheet)
        for (card, name), value in edits.items():
            row = next(r for r in rows if r[0] == card)
            row[rows[0].index(name)] = str(value)
        write_csv(sheet, rows)
    elif fmt == "xlsx":
        import openpyxl

        book = openpyxl.load_workbook(sheet)
        page = book["cards"]
        header = [c.value for c in page[1]]
        for (card, name), value in edits.items():
            r = next(r for r in range(2, page.max_row + 1) if page.cell(r, 1).value == card)
            page.cell(r, header.index(name) + 1, value)
        book.save(sheet)
    else:
        from odfdo import Document

        doc = Document(sheet)
        table = doc.body.tables[0]
        header = [str(v) for v in table.get_row_values(0)]
        ids = [str(v) for v in table.get_column_values(0)]
        for (card, name), value in edits.items():
            table.set_value((header.index(name), ids.index(card)), value)
        doc.save(sheet)
    _, plan = pull_sheet(ws, "market", str(sheet))
    assert [(c.card, c.field, c.old, c.new, c.action) for c in plan.changes] == [
        ("coin", "qty", "12", "15", "set"),
        ("coin", "start", "7", "5", "set"),
        ("bakery", "qty", "(unset)", "4", "add"),
    ]
    text = (ws.cards_dir("market") / "cards.yaml").read_text(encoding="utf-8")
    assert "  qty: 15\n  start: 5\n" in text
    assert "- name: Bakery\n  kind: Kingdom\n  expansion: Base\n  price: 2\n" in text
    assert "  text: A sample action.\n  qty: 4\n- name: Well\n" in text  # in model order
    copies = printed(ws, "market")
    assert (copies["coin"], copies["bakery"], copies["well"]) == (20, 4, 10)
    after = card_bytes(ws.root)
    again = ws.root / f"again.{fmt}"
    push_sheet(ws, "market", again)  # the new counts are in the sheet
    _, second = pull_sheet(ws, "market", str(again))
    assert second.changes == [] and card_bytes(ws.root) == after


def test_a_copies_header_names_the_copies_field(tmp_path: Path) -> None:
    """A sheet of the designer's own, headed `Copies` (or `Quantity`), edits the copies field."""
    ws = market(tmp_path)
    sheet = write_csv(
        ws.root / "own.csv",
        [["Name", "Kind", "Price", "Copies", "Per Player"]]
        + [["Coin", "Treasure", "0", "20", "7"], ["Shack", "Victory", "2", "8", "3"]],
    )
    (ws.root / "rules/market/game.yaml").write_text(
        (ws.root / "rules/market/game.yaml")
        .read_text(encoding="utf-8")
        .replace("role: per-player}", "role: per-player, label: Per Player}"),
        encoding="utf-8",
    )
    _, plan = pull_sheet(ws, "market", sheet)
    assert [(c.card, c.field, c.new, c.cell) for c in plan.changes] == [
        ("coin", "qty", "20", "own.csv:D2"),
    ]
    assert not [f for f in plan.findings if f.code == "sheet-copies-differ"]


def test_a_count_of_the_wrong_type_is_only_a_column(tmp_path: Path) -> None:
    """badcount: `start` has role: per-player but is text (a model error; the print run does not
    read it): a text column; `qty` is still the copies column."""
    ws = market(tmp_path, "badcount")
    sheet = ws.root / "b.csv"
    push_sheet(ws, "badcount", sheet)
    header = read_csv(sheet)[0]
    assert header[-2:] == ["qty", "start"] and "copies" not in header
    before = card_bytes(ws.root)
    _, plan = pull_sheet(ws, "badcount", str(sheet))
    assert plan.changes == [] and card_bytes(ws.root) == before


def test_an_older_collation_by_count_makes_its_field_the_copies_column(tmp_path: Path) -> None:
    """A game made by an earlier `new --from`: one collation group per count of a `qty` field."""
    ws = market(tmp_path)
    model = ws.root / "rules/market/game.yaml"
    text = model.read_text(encoding="utf-8")
    text = text.replace("qty: {type: integer, min: 0, role: copies}", "qty: {type: integer}")
    text = text.replace("start: {type: integer, min: 0, role: per-player}", "start: {type: text}")
    text = text.split("collation:")[0] + (
        "collation:\n"
        "  - {name: 8 copies, where: {qty: 8}, copies: 8}\n"
        "  - {name: 12 copies, where: {qty: 12}, copies: 12}\n"
    )
    model.write_text(text, encoding="utf-8")
    sheet = ws.root / "o.csv"
    push_sheet(ws, "market", sheet)
    header = read_csv(sheet)[0]
    assert header[-2:] == ["qty", "start"] and "copies" not in header


def test_without_a_copies_field_the_column_shows_the_collation(tmp_path: Path) -> None:
    """No field holds the copies: a `copies` column says what one print run has by the collation
    (not counting per-player copies); changing it writes nothing and warns."""
    ws = market(tmp_path)
    model = ws.root / "rules/market/game.yaml"
    model.write_text(
        model.read_text(encoding="utf-8").replace(
            "qty: {type: integer, min: 0, role: copies}", "qty: {type: integer, min: 0}"
        ),
        encoding="utf-8",
    )
    sheet = ws.root / "c.csv"
    push_sheet(ws, "market", sheet)
    rows = read_csv(sheet)
    assert rows[0][-3:] == ["qty", "start", "copies"]
    shown = {r[0]: r[-1] for r in rows[1:]}
    # Coin: in the Basics group (no copies: one), besides its 7 per player; Bakery: Kingdom's 10
    assert (shown["coin"], shown["bakery"]) == ("1", "10")
    assert printed(ws, "market")["coin"] == 8
    next(r for r in rows if r[0] == "coin")[-1] = "19"
    before = card_bytes(ws.root)
    _, plan = pull_sheet(ws, "market", write_csv(sheet, rows))
    differ = [f for f in plan.findings if f.code == "sheet-copies-differ"]
    assert [(f.card, f.cell, f.message) for f in differ] == [
        (
            "coin",
            "c.csv:J2",
            "the sheet says 19 copies; the collation prints 1 (besides the 'start' column's "
            "copies per player)",
        )
    ]
    assert plan.changes == [] and card_bytes(ws.root) == before

"""A pull never undoes an edit made in a card file since the sheet was pushed (the designer's trial
#4: 'edit in the sheet on Monday and in the YAML on Tuesday' put Monday's value back): a value
changed only in the YAML is kept, one changed in both is a conflict that writes nothing.

The game in tests/fixtures/market is sample content written for these tests."""

from __future__ import annotations

from pathlib import Path

from cardgen.core.workspace import Workspace
from cardgen.jobs.sheet import pull_sheet, push_sheet
from cardgen.sheet.synced import CONFLICT, KEEP, TAKE, verdict

from .test_copies import market, read_csv, write_csv


def edit_cells(sheet: Path, edits: dict[tuple[str, str], str]) -> None:
    rows = read_csv(sheet)
    for (card, name), value in edits.items():
        row = next(r for r in rows if r[0] == card)
        row[rows[0].index(name)] = value
    write_csv(sheet, rows)


def bakery_price(ws: Workspace, price: int) -> None:
    """The Bakery's price edited in the YAML (from 2)."""
    path = ws.cards_dir("market") / "cards.yaml"
    text = path.read_text(encoding="utf-8")
    old = "- name: Bakery\n  kind: Kingdom\n  expansion: Base\n  price: 2\n"
    assert text.count(old) == 1
    path.write_text(text.replace(old, old.replace("price: 2", f"price: {price}")), encoding="utf-8")


def test_the_verdicts() -> None:
    assert verdict(None, "sheet", "card") == TAKE  # no record: the sheet's, as before
    assert verdict("3", "4", "3") == TAKE  # only the sheet changed
    assert verdict("3", "3", "5") == KEEP  # only the card file changed
    assert verdict("3", "5", "5") == TAKE  # both the same: nothing to write
    assert verdict("3", "4", "5") == CONFLICT


def test_an_edit_in_the_yaml_since_the_push_is_kept(tmp_path: Path) -> None:
    ws = market(tmp_path)
    sheet = ws.root / "m.csv"
    push_sheet(ws, "market", sheet)
    bakery_price(ws, 3)  # Tuesday, in the YAML: the Bakery
    edit_cells(sheet, {("coin", "qty"): "15"})  # Monday's sheet, another cell
    result, plan = pull_sheet(ws, "market", str(sheet))
    assert [(c.card, c.field, c.new) for c in plan.changes] == [("coin", "qty", "15")]
    kept = [f for f in result.findings if f.code == "sheet-kept"]
    assert [(f.card, f.severity.name) for f in kept] == [("bakery", "INFO")]
    assert "'price' kept as the card file has it ('3')" in kept[0].message
    text = (ws.cards_dir("market") / "cards.yaml").read_text(encoding="utf-8")
    assert "  price: 3\n" in text and "  qty: 15\n" in text
    # the record moved on: the sheet, pulled again, still leaves the YAML's price alone
    _, again = pull_sheet(ws, "market", str(sheet))
    assert again.changes == []
    # the sheet's cell changed now too, to another value: a conflict, until they agree
    edit_cells(sheet, {("bakery", "price"): "4"})
    result, _ = pull_sheet(ws, "market", str(sheet))
    assert [f.card for f in result.findings if f.code == "sheet-conflict"] == ["bakery"]
    # pushed again, the sheet shows 3: a later edit of the cell is taken
    push_sheet(ws, "market", sheet)
    edit_cells(sheet, {("bakery", "price"): "4"})
    _, later = pull_sheet(ws, "market", str(sheet))
    assert [(c.card, c.field, c.old, c.new) for c in later.changes] == [
        ("bakery", "price", "3", "4")
    ]


def test_an_edit_in_both_is_a_conflict_and_nothing_is_written(tmp_path: Path) -> None:
    ws = market(tmp_path)
    sheet = ws.root / "m.csv"
    push_sheet(ws, "market", sheet)
    bakery_price(ws, 3)
    edit_cells(sheet, {("bakery", "price"): "5", ("coin", "qty"): "15"})
    before = (ws.cards_dir("market") / "cards.yaml").read_bytes()
    result, _ = pull_sheet(ws, "market", str(sheet))
    assert result.failed()
    (conflict,) = [f for f in result.findings if f.code == "sheet-conflict"]
    assert conflict.card == "bakery" and "('5')" in conflict.message and "('3')" in conflict.message
    assert (ws.cards_dir("market") / "cards.yaml").read_bytes() == before


def test_a_sheet_cardgen_never_saw_is_pulled_as_it_says(tmp_path: Path) -> None:
    """No record of the sheet (the designer's own, or the record deleted): its values win, as
    before."""
    ws = market(tmp_path)
    sheet = ws.root / "m.csv"
    push_sheet(ws, "market", sheet)
    (ws.shared_dir("market") / "sheet-synced.json").unlink()
    bakery_price(ws, 3)
    _, plan = pull_sheet(ws, "market", str(sheet))
    assert [(c.card, c.field, c.old, c.new) for c in plan.changes] == [
        ("bakery", "price", "3", "2")
    ]

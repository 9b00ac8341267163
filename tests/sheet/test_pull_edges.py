"""Pulls at the edges of what card files and sheets hold: cards written inside { } (`- {name: Coin,
price: 0}`) edited from the sheet like any others (a value replaced in place, a text over several
lines double-quoted, an emptied cell removing its field and comma, a filled one adding `, key:
value` in model order, a renamed card keeping its id; the rest of each line as it was); a sheet too
large or too wide to read is that one finding."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
import yaml

from cardgen.core.workspace import Workspace
from cardgen.jobs.sheet import pull_sheet, push_sheet
from cardgen.load.yamledit import Editor, locate
from cardgen.sheet.read import MAX_ROWS

from .conftest import card_bytes, copy_game


def test_flow_cards_take_every_kind_of_edit(tmp_path: Path) -> None:
    root = copy_game("ruins", tmp_path / "ws")
    ws = Workspace(root)
    sheet = root / "r.csv"
    push_sheet(ws, "ruins", sheet)
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8-sig"), newline="")))
    header = [h.removesuffix(" *") for h in rows[0]]
    by_id = {r[0]: r for r in rows[1:]}

    def edit(card: str, name: str, value: str) -> None:
        by_id[card][header.index(name)] = value

    edit("coin", "back_name", "Gold")  # added after text, in model order
    edit("shack", "price", "")  # removed with its comma
    edit("village", "text", "")  # the last field removed with the comma before it
    edit("smithy", "name", "Smithy II")  # renamed: its id written first
    edit("old-mill", "text", "Pay 3 coins.\nFlip this card.")  # over two lines: double-quoted
    edit("fallen-tower", "price", "2")
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    sheet.write_text(out.getvalue(), encoding="utf-8", newline="")
    _, plan = pull_sheet(ws, "ruins", str(sheet))
    assert [(c.card, c.field, c.action) for c in plan.changes] == [
        ("coin", "back_name", "add"),
        ("shack", "price", "unset"),
        ("village", "text", "unset"),
        ("smithy", "name", "set"),
        ("smithy", "id", "add"),
        ("old-mill", "text", "set"),
        ("fallen-tower", "price", "set"),
    ]
    assert not [f for f in plan.findings if f.code.startswith("sheet-")]
    text = (root / "cards/ruins/cards.yaml").read_text(encoding="utf-8")
    assert text.splitlines() == [
        "# Sample cards written for cardgen's tests (not a real game).",
        '- {name: Coin, type: Basic, price: 0, text: "+1 coin.", back_name: Gold}',
        '- {name: Shack, type: Basic, text: "1 point."}',
        "- {name: Village, type: Action, price: 3}",
        '- {id: smithy, name: Smithy II, type: Action, price: 4, text: "+3 cards."}',
        '- {name: Old Mill, type: Ruin, price: 1, text: "Pay 3 coins.\\nFlip this card.",',
        '   back_name: Restored Mill, back_text: "+2 coins."}',
        '- {name: Fallen Tower, type: Ruin, price: 2, text: "Pay 4 coins: flip this card.",',
        '   back_name: Restored Tower, back_text: "+1 card. +1 action."}',
        '- {name: Sunken Well, type: Ruin, price: 1, text: "Pay 2 coins: flip this card.",',
        '   back_name: Restored Well, back_text: "Gain a Coin."}',
    ]
    assert yaml.safe_load(text)[4]["text"] == "Pay 3 coins.\nFlip this card."
    after = card_bytes(root)
    again = root / "again.csv"
    push_sheet(ws, "ruins", again)
    _, second = pull_sheet(ws, "ruins", str(again))
    assert second.changes == [] and card_bytes(root) == after


def test_flow_values_are_written_as_a_flow_mapping_holds_them() -> None:
    """Text with commas, braces or ': ' is quoted there; a list is `[a, b]`; fields added after
    the same one keep the order they were added in."""
    located = locate("- {name: A, kind: x}  # a comment\n")
    assert located is not None
    card = located.cards[0]
    assert card is not None
    editor = Editor(located)
    editor.replace(card, "name", "B: one, two {three}")
    editor.add(card, "tags", ["a", "b, c"], "kind")
    editor.add(card, "power", 3, "kind")
    assert editor.result() == (
        "- {name: 'B: one, two {three}', kind: x, tags: [a, 'b, c'], power: 3}  # a comment\n"
    )


def _wide_book(path: Path, columns: int) -> None:
    """A workbook (XLSX or ODS) whose one tab has a header of `columns` columns and one card."""
    header = ["name", *(f"c{i}" for i in range(1, columns))]
    if path.suffix == ".xlsx":
        import openpyxl

        book = openpyxl.Workbook()
        page = book.active
        assert page is not None
        page.title = "cards"
        page.append(header)
        page.append(["Orb"])
        book.save(path)
        return
    from odfdo import Document, Row, Table

    doc = Document("spreadsheet")
    doc.body.clear()
    table = Table("cards")
    for values in (header, ["Orb"]):
        row = Row()
        row.set_values(values)
        table.append(row)
    doc.body.append(table)
    doc.save(path)


@pytest.mark.parametrize("name", ["long.csv", "wide.csv", "wide.xlsx", "wide.ods"])
def test_a_sheet_too_large_or_too_wide_is_that_finding_alone(name: str, tmp_path: Path) -> None:
    """No `sheet-empty` beside it: the sheet has rows, cardgen does not read them."""
    root = copy_game("clean", tmp_path / "ws")
    sheet = root / name
    if name == "long.csv":
        sheet.write_text("name\n" + "card\n" * (MAX_ROWS + 1))
    elif name == "wide.csv":
        sheet.write_text(",".join(f"c{i}" for i in range(300)) + "\n" + "x," * 299 + "x\n")
    else:
        _wide_book(sheet, 300)
    before = card_bytes(root)
    result, plan = pull_sheet(Workspace(root), "clean", str(sheet))
    tab = "" if name.endswith(".csv") else "cards!"
    want = (
        ("sheet-too-large", f"{name}:A{MAX_ROWS + 2}")
        if name == "long.csv"
        else ("sheet-too-wide", f"{name}:{tab}IW1")
    )
    assert [(f.code, f.cell) for f in result.findings] == [want]
    assert result.failed() and plan.writes == {} and card_bytes(root) == before

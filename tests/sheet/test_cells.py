"""Findings about values that came from a sheet name their cell, in text and in JSON; `sheet pull`
prints each change as file:line:col old → new and exits by the findings."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import openpyxl

from cardgen.core.errors import Finding, Severity
from cardgen.core.workspace import Workspace
from cardgen.jobs.findings import validate_game
from cardgen.jobs.sheet import push_sheet
from cardgen.sheet.cells import annotate_cells

from .conftest import ROOT, card_bytes


def lantern(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    for part in ("rules", "cards"):
        shutil.copytree(ROOT / "tests/fixtures/lantern" / part / "lantern", root / part / "lantern")
    return root


def edited_workbook(root: Path) -> tuple[Path, str]:
    sheet = root / "cards.xlsx"
    push_sheet(Workspace(root), "lantern", sheet)
    book = openpyxl.load_workbook(sheet)
    page = book["cards"]
    header = [str(c.value).removesuffix(" *") for c in page[1]]
    column = header.index("suits") + 1
    page.cell(3, column, "Moonz")  # a suit the model does not have
    book.save(sheet)
    return sheet, f"{page.cell(3, column).column_letter}3"


def test_findings_name_the_cell_in_text_and_json(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    root = lantern(tmp_path)
    sheet, where = edited_workbook(root)
    code, out = run(root, "pull", "lantern", str(sheet))
    assert code == 1, out
    change = [line for line in out.splitlines() if " → " in line]
    assert len(change) == 1 and change[0].startswith("cards/lantern/cards.yaml:")
    assert change[0].endswith(f"→ [Moonz]  [cards.xlsx:cards!{where}]")
    bad = [line for line in out.splitlines() if "error[unknown-value]" in line]
    assert len(bad) == 1 and "unknown suit 'Moonz'" in bad[0]
    assert bad[0].endswith(f"[cards.xlsx:cards!{where}]")
    # validate, and any later command, names the same cell from the pull's record
    found = annotate_cells(
        validate_game(Workspace(root), "lantern"),
        validate_game(Workspace(root), "lantern").findings,
    )
    assert {f.cell for f in found if f.code == "unknown-value"} == {f"cards.xlsx:cards!{where}"}


def test_json_lists_changes_and_cells(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    root = lantern(tmp_path)
    sheet, where = edited_workbook(root)
    before = card_bytes(root)
    code, out = run(root, "pull", "lantern", str(sheet), "--dry-run", "--format", "json")
    data = json.loads(out)
    # a dry run validates the cards as they would be, and exits by what it finds
    assert code == 1 and card_bytes(root) == before
    assert [(c["field"], c["new"], c["cell"], c["action"]) for c in data["changes"]] == [
        ("suits", "[Moonz]", f"cards.xlsx:cards!{where}", "set")
    ]
    assert data["written"] == []
    assert [(f["code"], f["cell"]) for f in data["findings"] if f["code"] == "unknown-value"] == [
        ("unknown-value", f"cards.xlsx:cards!{where}")
    ]


def test_sheet_findings_carry_cells_in_json(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    root = lantern(tmp_path)
    sheet = root / "bad.csv"
    sheet.write_text("id,Nmae,cost\nx,Orb,1\n")
    code, out = run(root, "pull", "lantern", str(sheet), "--format", "json")
    data = json.loads(out)
    assert code == 1
    sheet_findings = [f for f in data["findings"] if f["code"].startswith("sheet-unknown")]
    assert [(f["code"], f["cell"], f["hint"]) for f in sheet_findings] == [
        ("sheet-unknown-column", "bad.csv:B1", "did you mean 'name'?")
    ]


def test_without_a_record_nothing_changes(tmp_path: Path) -> None:
    root = lantern(tmp_path)
    result = validate_game(Workspace(root), "lantern")
    f = Finding("cards/lantern/cards.yaml", 3, 3, Severity.ERROR, "x", None, "m")
    assert annotate_cells(result, [f]) == [f] and annotate_cells(result, [f])[0].cell is None


def test_push_and_bad_arguments(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    root = lantern(tmp_path)
    code, out = run(root, "push", "lantern", "--to", str(root / "c.ods"))
    # written, and counted: the fixture's one card error (tidecaller's cost) makes it exit 1
    assert code == 1 and "c.ods" in out and "cards in 1 sheet" in out
    assert "and 1 error in the cards it is made from" in out
    code, out = run(root, "push", "lantern", "--to", str(root / "c.txt"))
    assert code == 2 and "cardgen writes .csv, .xlsx or .ods sheets" in out
    code, out = run(root, "pull", "lantern", str(root / "missing.xlsx"))
    assert code == 2 and "no such file" in out and "Traceback" not in out


def test_cells_from_the_sheet_itself(tmp_path: Path) -> None:
    from cardgen.project.loaded import load_game
    from cardgen.sheet.cells import cells_from_sheet

    root = lantern(tmp_path)
    sheet, where = edited_workbook(root)
    loaded = load_game(Workspace(root), "lantern")
    cells = cells_from_sheet(loaded, str(sheet), "cards.xlsx")
    card = loaded.catalog.cards[1]
    assert cells[card.id]["suits"] == f"cards.xlsx:cards!{where}"
    assert cells[card.id][""] == "cards.xlsx:cards!A3"
    assert cells_from_sheet(loaded, str(root / "missing.xlsx"), "x") == {}


def test_a_declared_sheet_outside_the_workspace_is_refused(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from cardgen.core.errors import CardgenError
    from cardgen.jobs import sheet as job
    from cardgen.sheet import settings

    root = lantern(tmp_path)
    assert job.pull_declared(Workspace(root), "lantern") is None  # no sheet declared
    real = settings.sheet_settings

    def declared(model, raw=None):  # type: ignore[no-untyped-def]
        return real(model, {"file": "../../outside.csv"})

    monkeypatch.setattr(job, "sheet_settings", declared)
    with pytest.raises(CardgenError, match="outside the workspace"):
        job.pull_declared(Workspace(root), "lantern")

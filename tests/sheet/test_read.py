"""Sheets as designers export them become located cells: CSV in its dialects, XLSX formulas as their
saved values, ODS from LibreOffice, a published CSV over http; bad input is a finding or one line
(exit 2), never a traceback."""

from __future__ import annotations

import http.server
import threading
import zipfile
from pathlib import Path

import pytest

from cardgen.core.errors import CardgenError
from cardgen.sheet.read import MAX_ROWS, read_tables


def values(tables):  # type: ignore[no-untyped-def]
    return [[[c.value for c in row] for row in [t.header, *t.rows]] for t in tables]


def test_csv_dialects(tmp_path: Path) -> None:
    comma = tmp_path / "g.csv"  # Google Sheets: UTF-8, no BOM, CRLF inside quoted cells
    comma.write_bytes(b'Name,Text\r\nOrb,"Line one\r\nLine two"\r\n,\r\nRune,x\r\n')
    tables, findings = read_tables(comma, "g.csv")
    assert values(tables) == [[["Name", "Text"], ["Orb", "Line one\nLine two"], ["Rune", "x"]]]
    assert [c.ref for c in tables[0].rows[1]] == ["g.csv:A4", "g.csv:B4"]  # the blank row counts
    assert findings == []
    excel = tmp_path / "e.csv"  # Excel in a comma-decimal locale: BOM and ';'
    excel.write_bytes("\ufeffName;Cost\r\nÉlan;3\r\n".encode())
    assert values(read_tables(excel, "e.csv")[0]) == [[["Name", "Cost"], ["Élan", "3"]]]
    old = tmp_path / "w.csv"  # Excel's plain 'CSV' on Windows: cp1252
    old.write_bytes("Name\r\nCafé\r\n".encode("cp1252"))
    tables, findings = read_tables(old, "w.csv")
    assert values(tables) == [[["Name"], ["Café"]]]
    assert [f.code for f in findings] == ["sheet-encoding"]


def test_xlsx_formulas_read_as_saved_values(tmp_path: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    page = book.active
    page.title = "Spells"
    page.append(["name", "cost", "total"])
    page.append(["Orb", 2, "=B2*2"])
    page.append(["Rune", 3, "='[1]Other'!A1"])
    path = tmp_path / "c.xlsx"
    book.save(path)  # never opened in a spreadsheet program: no saved values
    tables, findings = read_tables(path, "c.xlsx")
    assert values(tables) == [[["name", "cost", "total"], ["Orb", 2, None], ["Rune", 3, None]]]
    assert [(f.code, f.cell) for f in findings] == [
        ("sheet-formula-no-value", "c.xlsx:Spells!C2"),
        ("sheet-external-formula", "c.xlsx:Spells!C3"),
        ("sheet-formula-no-value", "c.xlsx:Spells!C3"),
    ]


def test_ods_paragraphs_repeats_and_cached_formulas(tmp_path: Path) -> None:
    from odfdo import Cell, Document, Paragraph, Row, Table

    doc = Document("spreadsheet")
    doc.body.clear()
    table = Table("My Cards")
    table.append(Row())
    head = Row()
    for text in ("name", "text", "power"):
        head.append(Cell(text, cell_type="string"))
    table.append(head)
    row = Row()
    row.append(Cell("Orb", cell_type="string"))
    text = Cell("x", cell_type="string")
    text.clear()
    text.set_attribute("office:value-type", "string")
    for line in ("First line", "Second  line"):
        text.append(Paragraph(line))
    row.append(text)
    row.append(Cell(4, formula="of:=2*2"))
    row.append(Cell(None, repeated=16000))
    table.append(row)
    table.append(Row(repeated=1_048_000))
    doc.body.append(table)
    path = tmp_path / "c.ods"
    doc.save(path)
    tables, findings = read_tables(path, "c.ods")
    assert values(tables) == [[["name", "text", "power"], ["Orb", "First line\nSecond  line", 4]]]
    assert tables[0].rows[0][2].ref == "c.ods:'My Cards'!C3"
    assert findings == []


def test_too_many_rows_or_columns_are_findings(tmp_path: Path) -> None:
    long = tmp_path / "long.csv"
    long.write_text("name\n" + "card\n" * 200_000)
    tables, findings = read_tables(long, "long.csv")
    assert tables == [] and [f.code for f in findings] == ["sheet-too-large"]
    assert f"{MAX_ROWS:,}" in findings[0].message
    wide = tmp_path / "wide.csv"
    wide.write_text(",".join(f"c{i}" for i in range(500)) + "\n")
    tables, findings = read_tables(wide, "wide.csv")
    assert tables == [] and [(f.code, f.cell) for f in findings] == [
        ("sheet-too-wide", "wide.csv:IW1")
    ]


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("c.xlsx", b"PK\x03\x04 not really a zip", "damaged workbook"),
        ("c.xlsx", b"name,cost\n", "is not a .xlsx workbook"),
        ("c.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a sheet"),
        ("c.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "old binary Excel"),
        ("c.png", b"\x89PNG", "not a sheet cardgen reads"),
    ],
)
def test_bad_files_are_one_line(tmp_path: Path, name: str, data: bytes, message: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(CardgenError, match=message):
        read_tables(path, name)


def test_a_zip_that_is_not_a_workbook_and_a_damaged_part(tmp_path: Path) -> None:
    path = tmp_path / "c.xlsx"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(CardgenError, match="not an XLSX or ODS"):
        read_tables(path, "c.xlsx")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("xl/workbook.xml", "<not xml")
    with pytest.raises(CardgenError, match="damaged workbook"):
        read_tables(path, "c.xlsx")


def test_missing_folder_and_locked_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(CardgenError, match="no such file"):
        read_tables(tmp_path / "nope.csv", "nope.csv")
    with pytest.raises(CardgenError, match="is a folder"):
        read_tables(tmp_path, "cards")
    locked = tmp_path / "locked.xlsx"
    locked.write_bytes(b"PK")

    def denied(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "open", denied)
    with pytest.raises(CardgenError, match="locked in a spreadsheet program"):
        read_tables(locked, "locked.xlsx")


@pytest.fixture
def server(tmp_path: Path):  # type: ignore[no-untyped-def]
    (tmp_path / "pub.csv").write_bytes(b"name,cost\r\nOrb,2\r\n")
    (tmp_path / "page.html").write_bytes(b"<html>sign in</html>")

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            super().__init__(*args, directory=str(tmp_path), **kwargs)

        def log_message(self, *args) -> None:  # type: ignore[no-untyped-def]
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_a_published_csv_is_fetched(server: str) -> None:
    tables, findings = read_tables(f"{server}/pub.csv", "pub")
    assert values(tables) == [[["name", "cost"], ["Orb", "2"]]] and findings == []
    assert tables[0].rows[0][1].ref == "pub:B2"
    with pytest.raises(CardgenError, match="answered 404"):
        read_tables(f"{server}/missing.csv", "x")
    with pytest.raises(CardgenError, match="gives a web page, not a sheet"):
        read_tables(f"{server}/page.html", "x")
    with pytest.raises(CardgenError, match="only http:// and https://"):
        read_tables("ftp://127.0.0.1/pub.csv", "x")


DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("name", ["lantern-libreoffice.xlsx", "lantern-libreoffice.ods"])
def test_a_workbook_saved_by_libreoffice(name: str, tmp_path: Path) -> None:
    """The lantern cards pushed, given a formula column ('# name length', notes) and a formula in
    the text of the second card, then saved by LibreOffice Calc 7 (which saves the values)."""
    from cardgen.core.workspace import Workspace
    from cardgen.jobs.sheet import pull_sheet

    from .conftest import copy_game

    root = copy_game("lantern", tmp_path / "ws")
    (root / name).write_bytes((DATA / name).read_bytes())
    result, plan = pull_sheet(Workspace(root), "lantern", str(root / name))
    assert [c.format() for c in plan.changes] == [
        f"cards/lantern/cards.yaml:11:3 text: (unset) → Draw 2 cards.  [{name}:cards!F3]"
    ]
    assert [f for f in plan.findings if f.code.startswith("sheet-") and f.severity > 0] == []


def test_a_workbook_never_saved_by_a_spreadsheet_program(tmp_path: Path) -> None:
    from cardgen.core.workspace import Workspace
    from cardgen.jobs.sheet import pull_sheet

    from .conftest import card_bytes, copy_game

    root = copy_game("lantern", tmp_path / "ws")
    name = "lantern-never-saved.xlsx"
    (root / name).write_bytes((DATA / name).read_bytes())
    before = card_bytes(root)
    result, plan = pull_sheet(Workspace(root), "lantern", str(root / name))
    # the notes column's formulas (column I) stop nothing; the text's does
    assert [(f.code, f.cell) for f in plan.findings if f.code.startswith("sheet-formula")] == [
        ("sheet-formula-no-value", f"{name}:cards!F3")
    ]
    assert result.failed() and card_bytes(root) == before


def _with_entity(data: bytes, part: str, tag: bytes, placeholder: bytes, secret: Path) -> bytes:
    """The workbook with an external entity naming a local file put in place of a cell's text."""
    import io

    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            payload = source.read(info.filename)
            if info.filename == part:
                doctype = f'<!DOCTYPE x [<!ENTITY xxe SYSTEM "file://{secret}">]>'.encode()
                at = payload.index(tag)
                payload = payload[:at] + doctype + payload[at:]
                payload = payload.replace(placeholder, b"&xxe;")
            target.writestr(info, payload)
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_a_workbook_cannot_read_a_local_file(fmt: str, tmp_path: Path) -> None:
    """An external entity (XXE) in a hostile workbook never brings a file of the machine in."""
    import io

    import openpyxl

    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    if fmt == "xlsx":
        book = openpyxl.Workbook()
        book.active.append(["name"])
        book.active.append(["PLACEHOLDER"])
        buffer = io.BytesIO()
        book.save(buffer)
        data = _with_entity(
            buffer.getvalue(), "xl/worksheets/sheet1.xml", b"<worksheet", b"PLACEHOLDER", secret
        )
    else:
        from odfdo import Cell, Document, Row, Table

        doc = Document("spreadsheet")
        doc.body.clear()
        table = Table("cards")
        for text in ("name", "PLACEHOLDER"):
            row = Row()
            row.append(Cell(text, cell_type="string"))
            table.append(row)
        doc.body.append(table)
        buffer = io.BytesIO()
        doc.save(buffer)
        data = _with_entity(
            buffer.getvalue(), "content.xml", b"<office:document-content", b"PLACEHOLDER", secret
        )
    path = tmp_path / f"x.{fmt}"
    path.write_bytes(data)
    try:
        tables, _ = read_tables(path, f"x.{fmt}")
    except CardgenError as exc:
        assert "TOP-SECRET" not in exc.message
    else:
        assert "TOP-SECRET" not in repr(tables)


def _book(path: Path, rows: list[list[object]], merged: list[str]) -> Path:
    import openpyxl

    book = openpyxl.Workbook()
    page = book.active
    page.title = "Cards"
    for row in rows:
        page.append(row)
    for where in merged:
        page.merge_cells(where)
    book.save(path)
    return path


TITLED = [
    ["Mygame card list v3", None, None, None],
    ["Name", "Cost", "Type", "Text"],
    ["Orb", "2", "Spell", "Draw."],
    ["Rune", "3", "Unit", "Guard."],
]


def test_a_title_row_above_the_header_is_skipped(tmp_path: Path) -> None:
    book = _book(tmp_path / "t.xlsx", TITLED, ["A1:D1"])  # merged across the header's width
    flat = tmp_path / "t.csv"  # the same exported as CSV: the merge is gone, the title stays
    flat.write_text("".join(",".join(v or "" for v in row) + "\n" for row in TITLED))
    for path, cell in ((book, "t.xlsx:Cards!A1"), (flat, "t.csv:A1")):
        tables, findings = read_tables(path, path.name)
        assert values(tables) == [[r for r in TITLED[1:]]]
        assert tables[0].rows[0][0].ref == cell.replace("A1", "A3")
        assert [(f.code, f.severity, f.cell) for f in findings] == [("sheet-title-row", 0, cell)]
        assert "row 1 ('Mygame card list v3') looks like a title" in findings[0].message
    one = tmp_path / "one.csv"  # one column: its header is no title
    one.write_text("Name\nOrb\nRune\n")
    assert read_tables(one, "one.csv") == ([read_tables(one, "one.csv")[0][0]], [])
    assert values(read_tables(one, "one.csv")[0]) == [[["Name"], ["Orb"], ["Rune"]]]


def test_a_merged_header_cell_is_named(tmp_path: Path) -> None:
    rows = [["Name", "Attack / Health", None], ["Orb", 2, 3], ["Rune", 1, 1]]
    tables, findings = read_tables(_book(tmp_path / "m.xlsx", rows, ["B1:C1"]), "m.xlsx")
    assert [(f.code, f.cell) for f in findings] == [("sheet-merged-header", "m.xlsx:Cards!B1")]
    assert "'Attack / Health' is merged across B1:C1" in findings[0].message
    assert findings[0].hint == "unmerge B1:C1 and give each column its own header"
    flat = tmp_path / "m.csv"
    flat.write_text("Name,Attack / Health,\nOrb,2,3\nRune,1,1\n")
    assert [(f.code, f.cell) for f in read_tables(flat, "m.csv")[1]] == [
        ("sheet-no-header", "m.csv:C2")
    ]
    two = [["Name", "Stats", None], [None, "Attack", "Health"], ["Orb", 2, 3]]
    _, findings = read_tables(_book(tmp_path / "two.xlsx", two, ["B1:C1"]), "two.xlsx")
    assert [(f.code, f.cell) for f in findings] == [("sheet-merged-header", "two.xlsx:Cards!B1")]
    assert findings[0].message == (
        "the header is two rows: 'Stats' is merged across B1:C1 over 'Attack', 'Health' in the "
        "row below; cardgen reads one header row"
    )


def test_an_ods_merged_header_cell_is_named(tmp_path: Path) -> None:
    from odfdo import Cell, Document, Row, Table

    doc = Document("spreadsheet")
    doc.body.clear()
    table = Table("Cards")
    head = Row()
    head.append(Cell("Name", cell_type="string"))
    merged = Cell("Attack / Health", cell_type="string")
    merged.set_attribute("table:number-columns-spanned", "2")
    head.append(merged)
    head.append(Cell(None))
    table.append(head)
    row = Row()
    for v in ("Orb", 2, 3):
        row.append(Cell(v))
    table.append(row)
    doc.body.append(table)
    doc.save(tmp_path / "m.ods")
    _, findings = read_tables(tmp_path / "m.ods", "m.ods")
    assert [(f.code, f.cell) for f in findings] == [("sheet-merged-header", "m.ods:Cards!B1")]

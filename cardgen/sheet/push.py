"""Turn a game's card files into a sheet: CSV, or an XLSX or ODS workbook with one sheet per card
file, the model as data validation (drop-downs, number ranges, required columns, frozen header),
byte-identical for the same cards."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from dataclasses import dataclass, field

from ..core.errors import CardgenError, Finding, Severity
from ..load.card import Catalog
from ..model.collation import base_copies
from ..model.game import FieldSpec, GameModel, assign_groups
from .columns import (
    canon,
    copies_holder,
    field_header,
    field_order,
    fold,
    header_names,
    to_cell,
)
from .grid import Value, column_letter
from .settings import SheetSettings
from .source import CardFile

LISTS = "_lists"  # the hidden sheet holding the vocabularies a drop-down offers
SPARE_ROWS = 500  # rows below the cards that keep the validation, for cards added in the sheet
FIXED_TIME = (1980, 1, 1, 0, 0, 0)


@dataclass
class Column:
    header: str
    field: str | None  # None: the id, file or copies column
    spec: FieldSpec | None = None


@dataclass
class SheetTable:
    name: str
    columns: list[Column]
    rows: list[list[Value]] = field(default_factory=list)


def build_tables(
    sources: list[CardFile], model: GameModel, settings: SheetSettings, one_table: bool
) -> tuple[list[SheetTable], list[Finding]]:
    """The tables a push writes: one per card file (or one for all, with a file column, for CSV)."""
    findings: list[Finding] = []
    readable = [s for s in sources if s.readable]
    extra: list[str] = []
    known = field_order(model)  # the fields, each translated one with a column per language
    for source in readable:
        for sc in source.cards:
            extra += [k for k in sc.card.data if k not in known and k not in extra]
    extra = [k for k in extra if k != "id"]
    columns = [Column("id", None)] + ([Column("file", None)] if one_table else [])
    names = header_names(model, extra, settings)
    holder = copies_holder(model)  # a field holding the copies is the copies column
    for name, spec in model.fields.items():
        if name == "id":
            continue
        header = field_header(spec, names, settings)
        if fold(header) == "copies" and holder is None:
            header = name  # the copies column's own header
        columns.append(Column(header + (" *" if spec.required else ""), name, spec))
        columns += [  # its values per language ('name@de'), beside it
            Column(f"{header}@{key.split('@', 1)[1]}", key, spec)
            for key in known[known.index(name) + 1 :]
            if key.startswith(f"{name}@")
        ]
    columns += [Column(k, k) for k in extra]
    if holder is None and not any(fold(c.header) == "copies" for c in columns):
        columns.append(Column("copies", None))  # the collation's copies, for reading
    catalog = Catalog(model.id, [sc.card for s in readable for sc in s.cards])
    groups = assign_groups(catalog, model.collation)
    tables: dict[str, SheetTable] = {}
    for source in readable:
        name = "cards" if one_table else source.sheet
        if not one_table and (name in tables or name == LISTS):
            raise CardgenError(
                f"two card files would make the same sheet '{name}' ({source.shown}); rename one"
            )
        table = tables.setdefault(name, SheetTable(name, columns))
        for sc in source.cards:
            card = sc.card
            row: list[Value] = []
            for column in columns:
                if column.header == "id" and column.field is None:
                    row.append(card.id)
                elif column.header == "file" and column.field is None:
                    row.append(source.rel)
                elif column.field is None:
                    row.append(base_copies(model, card, groups.get(card.order))[0])
                else:
                    value, why = to_cell(card.data.get(column.field), settings.separator)
                    row.append(value)
                    if why:
                        line, col = card.loc(column.field)
                        findings.append(
                            Finding(
                                card.file,
                                line,
                                col,
                                Severity.INFO,
                                "sheet-not-expressible",
                                card.id,
                                f"'{column.field}' is written in the sheet as YAML text ({why}); "
                                "a pull leaves it as it is",
                                "edit this value in the YAML file",
                            )
                        )
            table.rows.append(row)
    if one_table and not tables:
        tables["cards"] = SheetTable("cards", columns)
    return list(tables.values()), findings


def csv_bytes(tables: list[SheetTable]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for table in tables[:1]:
        writer.writerow([c.header for c in table.columns])
        for row in table.rows:
            writer.writerow([canon(v) for v in row])
    return ("\ufeff" + out.getvalue()).encode("utf-8")  # the BOM: Excel then reads it as UTF-8


def _vocab(model: GameModel, spec: FieldSpec | None) -> list[str]:
    if spec is None or spec.type not in ("enum", "list"):
        return []
    vocab = model.vocabularies.get(spec.vocab) if spec.vocab else None
    return vocab.names() if vocab else []


def xlsx_bytes(tables: list[SheetTable], model: GameModel) -> bytes:
    import datetime as dt

    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.worksheet.datavalidation import DataValidation

    book = Workbook()
    book.remove(book.active)
    lists = book.create_sheet(LISTS)
    lists.sheet_state = "hidden"
    ranges: dict[str, str] = {}
    for name, spec in ((c.field, c.spec) for c in tables[0].columns if c.spec) if tables else ():
        values = _vocab(model, spec)
        if values and name:
            col = column_letter(len(ranges))
            lists.cell(1, len(ranges) + 1, name)
            for r, v in enumerate(values, 2):
                lists.cell(r, len(ranges) + 1, v).data_type = "s"
            ranges[name] = f"{LISTS}!${col}$2:${col}${len(values) + 1}"
    bold, required = Font(bold=True), PatternFill("solid", fgColor="FFE8C0")
    wrap = Alignment(wrap_text=True, vertical="top")
    for table in tables:
        sheet = book.create_sheet(table.name)
        for c, column in enumerate(table.columns, 1):
            cell = sheet.cell(1, c, column.header)
            cell.font = bold
            if column.spec is not None and column.spec.required:
                cell.fill = required
        for r, row in enumerate(table.rows, 2):
            for c, value in enumerate(row, 1):
                if value is None:
                    continue
                cell = sheet.cell(r, c, value)
                if isinstance(value, str):
                    cell.data_type = "s"  # '=…' is text here, never a formula
                    if "\n" in value:
                        cell.alignment = wrap
        sheet.freeze_panes = "B2"
        for c, width in enumerate(_widths(table), 1):
            sheet.column_dimensions[column_letter(c - 1)].width = width
        last = len(table.rows) + 1 + SPARE_ROWS
        for c, column in enumerate(table.columns, 1):
            _validate(
                sheet,
                DataValidation,
                column,
                ranges,
                f"{column_letter(c - 1)}2:{column_letter(c - 1)}{last}",
            )
    book.active = 1 if len(book.worksheets) > 1 else 0
    fixed = dt.datetime(2000, 1, 1)
    book.properties.created = book.properties.modified = fixed
    book.properties.creator = book.properties.lastModifiedBy = "cardgen"
    buffer = io.BytesIO()
    book.save(buffer)
    return fixed_zip(buffer.getvalue())


def _widths(table: SheetTable) -> list[int]:
    """Each column's width in characters: its longest line, between 6 and 60."""
    out = []
    for c, column in enumerate(table.columns):
        lines = [len(column.header) + 2]
        for row in table.rows:
            if row[c] is not None:
                lines += [len(line) for line in canon(row[c]).split("\n")]
        out.append(min(60, max(6, max(lines) + 1)))
    return out


def _validate(sheet, DataValidation, column: Column, ranges: dict[str, str], where: str) -> None:  # type: ignore[no-untyped-def]
    spec = column.spec
    if spec is None:
        return
    check = None
    if column.field in ranges:
        check = DataValidation(type="list", formula1=ranges[column.field], allow_blank=True)
        check.errorStyle = "warning" if spec.type == "enum" else "information"
        check.error = f"not a value of {spec.vocab}"
        check.showErrorMessage = True
    elif spec.type == "integer":
        low = spec.minimum if spec.minimum is not None else -(2**31)
        high = spec.maximum if spec.maximum is not None else 2**31 - 1
        check = DataValidation(
            type="whole",
            operator="between",
            formula1=str(low),
            formula2=str(high),
            allow_blank=True,
        )
        check.errorStyle = "warning"
        check.error = f"a whole number from {low} to {high}"
        check.showErrorMessage = True
    elif spec.required:
        check = DataValidation(type="textLength", operator="greaterThan", formula1="0")
    if check is None:
        return
    if spec.required:
        check.promptTitle, check.prompt = column.header.rstrip(" *"), "required"
        check.showInputMessage = True
    sheet.add_data_validation(check)
    check.add(where)


def fixed_zip(data: bytes) -> bytes:
    """The same archive with every entry dated 1980-01-01, so the same cards give the same
    bytes."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            fixed = zipfile.ZipInfo(info.filename, FIXED_TIME)
            fixed.compress_type = info.compress_type
            fixed.external_attr = info.external_attr
            payload = source.read(info.filename)
            if info.filename == "docProps/core.xml":  # openpyxl stamps the time of saving
                payload = re.sub(
                    rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>2000-01-01T00:00:00Z", payload
                )
            target.writestr(fixed, payload)
    return out.getvalue()

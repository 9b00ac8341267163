"""Turn XLSX and ODS workbooks (openpyxl, odfdo) into tables of located cells: formulas as their
saved values, repeated ODS rows and cells expanded, findings for what cannot be read as meant."""

from __future__ import annotations

import datetime as dt
import decimal
import io
import re
import zipfile
from typing import Iterable, Iterator

from ..core.errors import CardgenError, Finding, Severity
from .grid import MAX_COLUMNS, MAX_ROWS, Cell, Table, Value, blank, cell_ref, column_letter
from .header import Merge, headless, is_title, xlsx_merges

_EXTERNAL = re.compile(r"\[\d+\]|'?(?:file|https?):|\.xlsx?\]|\.ods'?#", re.I)
_FORMULA = re.compile(rb"<(?:\w+:)?f[ >/]")  # a formula cell in a worksheet's XML
_ERRORS = {"#N/A", "#REF!", "#VALUE!", "#DIV/0!", "#NAME?", "#NUM!", "#NULL!", "Err:502", "#CALC!"}


class SheetReader:
    """Reads one sheet's bytes into tables, collecting findings located by cell."""

    def __init__(self, shown: str) -> None:
        self.shown = shown
        self.findings: list[Finding] = []

    def problem(
        self,
        code: str,
        message: str,
        ref: str | None,
        *,
        hint: str | None = None,
        error: bool = True,
    ) -> None:
        severity = Severity.ERROR if error else Severity.WARNING
        self.findings.append(
            Finding(self.shown, 0, 0, severity, code, None, message, hint, cell=ref)
        )

    def table(
        self,
        name: str,
        sheet: str | None,
        rows: Iterable[tuple[int, list[Value]]],
        merges: list[Merge] | None = None,
    ) -> Table | None:
        """A table from (row index, values): the first row with a value is the header (unless it
        is a title over the header: one filled cell, then a row of headers); blank rows are
        skipped; None when the table holds nothing."""
        header: list[Cell] | None = None
        out: list[list[Cell]] = []
        wide = False
        letters: list[str] = []
        prefix = ""
        pending: tuple[int, list[Value]] | None = None  # a first row that may be a title
        header_row = 0
        for r, values in rows:
            if len(out) >= MAX_ROWS:
                self.problem(
                    "sheet-too-large",
                    f"sheet '{name or self.shown}' has more than {MAX_ROWS:,} rows; cardgen reads "
                    f"at most {MAX_ROWS:,} cards a sheet",
                    cell_ref(self.shown, sheet, r, 0),
                    hint="split the set into several sheets",
                )
                return None
            cells = values
            while cells and blank(cells[-1]):
                cells.pop()
            if not cells:
                continue
            if header is None and pending is None and sum(not blank(v) for v in cells) == 1:
                pending = (r, cells)
                continue
            if header is None and pending is not None and is_title(pending[1], cells):
                self._title(pending, sheet, r)
                pending = None
            if header is None:
                r_head, head = pending or (r, cells)
                spans = [m[3] + 1 for m in merges or [] if m[0] <= r_head <= m[2]]
                head = head + [None] * (max(spans, default=0) - len(head))  # merged to its end
                if len(head) > MAX_COLUMNS:
                    self.problem(
                        "sheet-too-wide",
                        f"the header row has {len(head)} columns; cardgen reads at most "
                        f"{MAX_COLUMNS}",
                        cell_ref(self.shown, sheet, r_head, MAX_COLUMNS),
                        hint="a card has one column per field: delete the columns past the last",
                    )
                    return None
                header = [
                    Cell(cell_ref(self.shown, sheet, r_head, c), v) for c, v in enumerate(head)
                ]
                letters = [column_letter(c) for c in range(len(head))]
                prefix = header[0].ref[: -len(f"A{r_head + 1}")]
                header_row = r_head
                if pending is None:
                    continue
                pending = None  # the held row was the header: this one is the first card
            if len(cells) > len(header) and not wide:
                wide = True
                self.problem(
                    "sheet-no-header",
                    "this column has values but no header, so cardgen cannot tell which field "
                    "they are",
                    cell_ref(self.shown, sheet, r, len(cells) - 1),
                    hint="name the column after a field, or start its header with '#' for notes",
                )
            cells = cells[: len(header)] + [None] * (len(header) - len(cells))
            number = str(r + 1)
            out.append([Cell(prefix + letters[c] + number, v) for c, v in enumerate(cells)])
        if header is None and pending is not None:  # one row only: the header
            r_head, head = pending
            header = [Cell(cell_ref(self.shown, sheet, r_head, c), v) for c, v in enumerate(head)]
        if header is None:
            return None
        for code, message, ref, hint in headless(header, out, merges or [], header_row):
            self.problem(code, message, ref, hint=hint)
        across = [m for m in merges or [] if m[0] <= header_row <= m[2] and m[3] > m[1]]
        merged = {c for m in across for c in range(m[1], m[3] + 1)}
        return Table(name, header, out, merged)

    def _title(self, title: tuple[int, list[Value]], sheet: str | None, header_row: int) -> None:
        r, cells = title
        c, text = next((c, v) for c, v in enumerate(cells) if not blank(v))
        self.findings.append(
            Finding(
                self.shown,
                0,
                0,
                Severity.INFO,
                "sheet-title-row",
                None,
                f"row {r + 1} ({str(text).strip()[:40]!r}) looks like a title, not the header: it "
                f"is skipped, and row {header_row + 1} is read as the header",
                "if it is the header, give every column a header in that row",
                cell=cell_ref(self.shown, sheet, r, c),
            )
        )

    # -- CSV ---------------------------------------------------------------------------------

    def xlsx(self, data: bytes) -> list[Table]:
        import openpyxl

        xml = _sheet_xml(data)
        formulas = self._xlsx_formulas(data) if _FORMULA.search(xml) else {}
        merges = xlsx_merges(data) if b"mergeCell" in xml else {}
        try:
            book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        except Exception as exc:  # openpyxl raises many types for a damaged part
            raise CardgenError(f"{self.shown} is a damaged workbook: {_why(exc)}") from None
        tables: list[Table] = []
        try:
            for sheet in book.worksheets:
                if getattr(sheet, "sheet_state", "visible") != "visible":
                    continue
                mine = formulas.get(sheet.title, {})
                rows = self._xlsx_rows(sheet, mine)
                table = self.table(
                    sheet.title, sheet.title, enumerate(rows), merges.get(sheet.title)
                )
                if table:
                    tables.append(table)
        except CardgenError:
            raise
        except Exception as exc:
            raise CardgenError(f"{self.shown} is a damaged workbook: {_why(exc)}") from None
        finally:
            book.close()
        return tables

    def _xlsx_rows(
        self, sheet: object, formulas: dict[tuple[int, int], str]
    ) -> Iterator[list[Value]]:
        for r, row in enumerate(sheet.iter_rows(min_row=1, min_col=1, values_only=True)):  # type: ignore[attr-defined]
            values = [_plain(v) for v in row]
            for c, v in enumerate(values):
                formula = formulas.get((r, c))
                if formula is not None:
                    values[c] = self._formula(sheet.title, r, c, formula, v)  # type: ignore[attr-defined]
            yield values

    def _formula(self, sheet: str | None, r: int, c: int, formula: str, value: Value) -> Value:
        ref = cell_ref(self.shown, sheet, r, c)
        if _EXTERNAL.search(formula):
            self.problem(
                "sheet-external-formula",
                f"the formula {formula[:60]} refers to another file; cardgen uses the value it "
                "had when the sheet was last saved",
                ref,
                hint="paste the values instead, or keep the linked file open when saving",
                error=False,
            )
        if value is None:
            self.problem(
                "sheet-formula-no-value",
                f"the formula {formula[:60]} has no saved value (the file was never opened and "
                "saved in a spreadsheet program)",
                ref,
                hint="open the file in Excel, LibreOffice or Google Sheets and save it again",
            )
        elif isinstance(value, str) and value in _ERRORS:
            self.problem("sheet-formula-error", f"the formula {formula[:60]} gives {value}", ref)
        return value

    def _xlsx_formulas(self, data: bytes) -> dict[str, dict[tuple[int, int], str]]:
        """Each sheet's formula cells (row, column) -> formula, read in a second pass: openpyxl
        gives either formulas or their saved values, not both."""
        import openpyxl

        try:
            book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False)
        except Exception:  # the values pass reports a damaged workbook
            return {}
        out: dict[str, dict[tuple[int, int], str]] = {}
        try:
            for sheet in book.worksheets:
                found: dict[tuple[int, int], str] = {}
                for r, row in enumerate(sheet.iter_rows(min_row=1, min_col=1, values_only=True)):
                    if r > MAX_ROWS + 1000:
                        break
                    for c, v in enumerate(row):
                        if isinstance(v, str) and v.startswith("="):
                            found[(r, c)] = v
                        elif v is not None and type(v).__name__ in (
                            "ArrayFormula",
                            "DataTableFormula",
                        ):
                            found[(r, c)] = str(getattr(v, "text", "") or "=…")
                out[sheet.title] = found
        except Exception:
            return out
        finally:
            book.close()
        return out

    # -- ODS ---------------------------------------------------------------------------------

    def ods(self, data: bytes) -> list[Table]:
        from odfdo import Document

        try:
            doc = Document(io.BytesIO(data))
            found = doc.body.tables
        except Exception as exc:
            raise CardgenError(f"{self.shown} is a damaged workbook: {_why(exc)}") from None
        tables: list[Table] = []
        for sheet in found:
            name = sheet.name or ""
            merges: list[Merge] = []  # filled as the rows are read
            table = self.table(name, name, self._ods_rows(sheet, name, merges), merges)
            if table:
                tables.append(table)
        return tables

    def _ods_rows(
        self, sheet: object, name: str, merges: list[Merge]
    ) -> Iterator[tuple[int, list[Value]]]:
        """Rows with repeats expanded, except trailing empty ones (a saved sheet often ends in a
        million repeated empty rows); cells likewise. Merged cells are added to `merges`."""
        r = 0
        for row in sheet.get_elements("table:table-row"):  # type: ignore[attr-defined]
            repeat = int(row.get_attribute("table:number-rows-repeated") or 1)
            values: list[Value] = []
            for cell in row.get_elements("table:table-cell|table:covered-table-cell"):
                times = int(cell.get_attribute("table:number-columns-repeated") or 1)
                value = self._ods_value(cell, name, r, len(values))
                across = int(cell.get_attribute("table:number-columns-spanned") or 1)
                down = int(cell.get_attribute("table:number-rows-spanned") or 1)
                if (across > 1 or down > 1) and len(merges) < MAX_COLUMNS:
                    merges.append((r, len(values), r + down - 1, len(values) + across - 1))
                if blank(value) and times > MAX_COLUMNS:
                    times = 1
                if len(values) + times > MAX_COLUMNS * 4:
                    times = max(1, MAX_COLUMNS * 4 - len(values))
                values.extend([value] * min(times, MAX_COLUMNS * 4))
            if all(blank(v) for v in values):
                r += repeat
                continue
            for _ in range(min(repeat, MAX_ROWS + 2000)):
                yield r, list(values)
                r += 1

    def _ods_value(self, cell: object, name: str, r: int, c: int) -> Value:
        get = cell.get_attribute  # type: ignore[attr-defined]
        kind = get("office:value-type")
        formula = get("table:formula")
        value: Value
        if kind in ("float", "percentage", "currency"):
            value = _number(get("office:value"))
        elif kind == "boolean":
            value = str(get("office:boolean-value")).lower() == "true"
        elif kind == "date":
            value = str(get("office:date-value") or "")
        elif kind == "time":
            value = str(get("office:time-value") or "")
        elif kind == "string":
            value = _ods_text(cell)
        else:
            value = None
        if formula:
            value = self._formula(name, r, c, str(formula), value)
        return value


def _ods_text(cell: object) -> str:
    """A string cell's text: its paragraphs joined by line breaks, as a spreadsheet shows it."""
    paragraphs = cell.get_elements("text:p")  # type: ignore[attr-defined]
    if not paragraphs:
        return str(cell.get_attribute("office:string-value") or "")  # type: ignore[attr-defined]
    return "\n".join(
        p.inner_text if hasattr(p, "inner_text") else p.text_recursive for p in paragraphs
    )


def _number(raw: object) -> int | float | None:
    if raw is None:
        return None
    try:
        number = decimal.Decimal(str(raw))
    except decimal.InvalidOperation:
        return None
    if number == number.to_integral_value() and abs(number) < 2**53:
        return int(number)
    return float(number)


def _plain(value: object) -> Value:
    """A cell value as plain data: dates as ISO text, decimals as numbers, whole floats as ints."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() and abs(value) < 2**53 else value
    if isinstance(value, decimal.Decimal):
        return _number(value)
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value)
    return str(value)


def _sheet_xml(data: bytes) -> bytes:
    """The worksheets' XML of an XLSX, concatenated (only to see whether any formula is there)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return b"".join(z.read(n) for n in z.namelist() if n.startswith("xl/worksheets/sheet"))
    except (zipfile.BadZipFile, OSError, KeyError, ValueError, EOFError):
        return b""


def _why(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:160]

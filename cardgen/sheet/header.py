"""Turn a sheet's first rows and its merged cells into findings about its header: a title row
above the header (skipped), a header cell merged across columns, a header of two rows, a column
with values but no header."""

from __future__ import annotations

import html
import io
import re
import zipfile

from .grid import Cell, Value, blank, column_letter

Merge = tuple[int, int, int, int]  # first row, first column, last row, last column (0-based)

_SHEET = re.compile(r"<(?:\w+:)?sheet\b[^>]*>")
_ATTR = re.compile(r'([\w:]+)="([^"]*)"')
_REL = re.compile(r"<(?:\w+:)?Relationship\b[^>]*>")
_MERGE = re.compile(r'<(?:\w+:)?mergeCell\b[^>]*\bref="([A-Z]{1,3})(\d+):([A-Z]{1,3})(\d+)"')
MAX_XML = 64 * 1024 * 1024  # a worksheet part larger than this is not searched for merges


def xlsx_merges(data: bytes) -> dict[str, list[Merge]]:
    """Each worksheet's merged ranges, by sheet name, read from the workbook's XML (openpyxl's
    read-only mode does not keep them); a part that cannot be read gives none."""
    out: dict[str, list[Merge]] = {}
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            book = z.read("xl/workbook.xml").decode("utf-8", "replace")
            rels = z.read("xl/_rels/workbook.xml.rels").decode("utf-8", "replace")
            targets = {}
            for tag in _REL.findall(rels):
                attrs = dict(_ATTR.findall(tag))
                target = attrs.get("Target", "")
                path = target.lstrip("/") if target.startswith("/") else "xl/" + target
                targets[attrs.get("Id", "")] = path
            names = set(z.namelist())
            for tag in _SHEET.findall(book):
                attrs = dict(_ATTR.findall(tag))
                rid = next((v for k, v in attrs.items() if k.endswith(":id")), "")
                part = targets.get(rid, "")
                if part not in names or z.getinfo(part).file_size > MAX_XML:
                    continue
                xml = z.read(part).decode("utf-8", "replace")
                found = [
                    (int(r0) - 1, _index(c0), int(r1) - 1, _index(c1))
                    for c0, r0, c1, r1 in _MERGE.findall(xml)
                ]
                if found:
                    out[html.unescape(attrs.get("name", ""))] = found
    except (zipfile.BadZipFile, OSError, KeyError, ValueError, EOFError):
        return {}
    return out


def _index(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n - 1


def is_title(cells: list[Value], following: list[Value]) -> bool:
    """A first row that is a title over the header: one filled cell, followed by a row of two
    headers or more (texts)."""
    filled = [v for v in cells if not blank(v)]
    heads = [v for v in following if not blank(v)]
    return len(filled) == 1 and len(heads) >= 2 and all(isinstance(v, str) for v in heads)


def range_text(merge: Merge) -> str:
    r0, c0, r1, c1 = merge
    return f"{column_letter(c0)}{r0 + 1}:{column_letter(c1)}{r1 + 1}"


def headless(
    header: list[Cell], rows: list[list[Cell]], merges: list[Merge], header_row: int
) -> list[tuple[str, str, str, str]]:
    """(code, message, cell, hint) for every column with values but no header: a header cell
    merged across it (and a second header row under a merged one) named as such."""
    out: list[tuple[str, str, str, str]] = []
    told: set[Merge] = set()
    for index, cell in enumerate(header):
        if not blank(cell.value):
            continue
        first = next((row[index] for row in rows if not blank(row[index].value)), None)
        if first is None:
            continue
        merge = next(
            (m for m in merges if m[0] <= header_row <= m[2] and m[1] <= index <= m[3]), None
        )
        if merge is None:
            out.append(
                (
                    "sheet-no-header",
                    "this column has values but no header, so cardgen cannot tell which field "
                    "they are",
                    first.ref,
                    "name the column after a field, or start its header with '#' for notes",
                )
            )
            continue
        if merge in told:
            continue
        told.add(merge)
        where = range_text(merge)
        title = str(header[merge[1]].value or "").strip()
        under = [
            str(rows[0][c].value).strip()
            for c in range(merge[1], merge[3] + 1)
            if rows and c < len(rows[0]) and isinstance(rows[0][c].value, str)
        ]
        ref = header[merge[1]].ref  # the merged cell's own, where its title is
        if rows and len(under) == merge[3] - merge[1] + 1:
            message = (
                f"the header is two rows: '{title}' is merged across {where} over "
                f"{', '.join(repr(u) for u in under)} in the row below; cardgen reads one header "
                "row"
            )
            hint = f"unmerge {where} and put every column's name in the first row"
        else:
            message = (
                f"the header '{title}' is merged across {where}, so the columns it covers but "
                "the first have values and no header of their own"
            )
            hint = f"unmerge {where} and give each column its own header"
        out.append(("sheet-merged-header", message, ref, hint))
    return out

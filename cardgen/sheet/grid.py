"""Turn positions in a sheet into the names a designer reads ('cards.xlsx:Spells!D14'): the Cell and
Table a sheet is read into, column letters, and the limits of what cardgen reads."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

Value = str | int | float | bool | None

MAX_ROWS = 20_000  # rows of one table; a card set is far smaller
MAX_COLUMNS = 256  # columns of a header row
# findings about a table left unread as a whole (its rows are not "no rows": the sheet is not empty)
TABLE_UNREAD = frozenset({"sheet-too-large", "sheet-too-wide"})


@dataclass(frozen=True)
class Cell:
    """One cell as the designer reads it: where it is ('cards.xlsx:Spells!D14') and its value."""

    ref: str
    value: Value


@dataclass
class Table:
    """One sheet of a workbook (a CSV file is one table named ''): its header row and its rows."""

    name: str
    header: list[Cell]
    rows: list[list[Cell]] = field(default_factory=list)
    merged: set[int] = field(default_factory=set)  # columns under a header cell merged across


def column_letter(index: int) -> str:
    """0 -> 'A', 25 -> 'Z', 26 -> 'AA'."""
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(65 + rest) + out
    return out


def cell_ref(shown: str, sheet: str | None, row: int, col: int) -> str:
    """'cards.xlsx:Spells!D14' (row and col 0-based); a CSV has no sheet: 'cards.csv:D14'."""
    where = f"{column_letter(col)}{row + 1}"
    if sheet is None:
        return f"{shown}:{where}"
    name = sheet if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", sheet) else quote_sheet(sheet)
    return f"{shown}:{name}!{where}"


def quote_sheet(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"


def blank(value: Value) -> bool:
    """An empty cell, or one holding only spaces."""
    return value is None or (isinstance(value, str) and not value.strip())

"""Turn a spreadsheet (CSV, XLSX, ODS, a Google Sheets download or a published-CSV URL) into tables
of located cells, with findings for what cannot be read as a designer meant it."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from pathlib import Path

from ..core.errors import CardgenError, Finding
from .books import SheetReader
from .grid import MAX_COLUMNS, MAX_ROWS, Cell, Table, Value, blank, cell_ref, column_letter

__all__ = ["Cell", "Table", "Value", "cell_ref", "column_letter", "read_tables", "fetch_url"]
__all__ += ["MAX_ROWS", "MAX_COLUMNS", "blank"]

MAX_BYTES = 50 * 1024 * 1024  # a sheet file (or download) larger than this is not read
MAX_UNPACKED = 400 * 1024 * 1024  # a workbook whose parts unpack past this is refused (zip bomb)
URL_TIMEOUT = 20.0  # seconds for a published-CSV download

SHEET_SUFFIXES = (".csv", ".tsv", ".txt", ".xlsx", ".xlsm", ".ods")
_DELIMITERS = ",;\t|"


def read_tables(source: Path | str, shown: str) -> tuple[list[Table], list[Finding]]:
    """Every table of a sheet file or published-CSV URL. A file that is not a sheet, cannot be read
    or is damaged raises CardgenError (one line, exit 2); what is wrong inside a readable sheet
    (too many rows, a formula with no saved value) is findings."""
    if isinstance(source, str) and re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", source):
        data, kind = fetch_url(source)
    else:
        path = Path(source)
        data = _read_file(path, shown)
        kind = _kind(path.suffix.lower(), data, shown)
    reader = _Reader(shown)
    if kind == "csv":
        tables = reader.csv(data)
    elif kind == "xlsx":
        tables = reader.xlsx(data)
    else:
        tables = reader.ods(data)
    return tables, reader.findings


def _read_file(path: Path, shown: str) -> bytes:
    try:
        if path.is_dir():
            raise CardgenError(f"{shown} is a folder, not a sheet file")
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise CardgenError(
                f"{shown} is {size / 1048576:.0f} MB; cardgen reads sheets up to "
                f"{MAX_BYTES // 1048576} MB"
            )
        with path.open("rb") as fh:
            return fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise CardgenError(f"{shown}: no such file") from None
    except PermissionError:
        raise CardgenError(
            f"{shown}: permission denied (is it open and locked in a spreadsheet program?)"
        ) from None
    except OSError as exc:
        raise CardgenError(f"{shown}: cannot read it: {exc.strerror or exc}") from None


def _kind(suffix: str, data: bytes, shown: str) -> str:
    """'csv', 'xlsx' or 'ods', from the bytes first (a download may be misnamed), then the name."""
    if data.startswith(b"PK\x03\x04"):
        return _zip_kind(data, shown)
    if suffix == ".xls" or data.startswith(b"\xd0\xcf\x11\xe0"):
        raise CardgenError(
            f"{shown} is an old binary Excel workbook (.xls); save it as .xlsx, .ods or .csv"
        )
    if suffix in (".xlsx", ".xlsm", ".ods"):
        raise CardgenError(f"{shown} is not a {suffix} workbook (it is not a zip archive)")
    if suffix not in ("", ".csv", ".tsv", ".txt"):
        raise CardgenError(
            f"{shown} is not a sheet cardgen reads (CSV, XLSX or ODS, or a published-CSV URL)"
        )
    return "csv"


def _zip_kind(data: bytes, shown: str) -> str:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = set(z.namelist())
            unpacked = sum(i.file_size for i in z.infolist())
            mimetype = z.read("mimetype")[:100] if "mimetype" in names else b""
    except (zipfile.BadZipFile, OSError, KeyError, ValueError, EOFError) as exc:
        raise CardgenError(f"{shown} is a damaged workbook: {exc}") from None
    if unpacked > MAX_UNPACKED:
        raise CardgenError(
            f"{shown} unpacks to {unpacked / 1048576:.0f} MB; cardgen reads workbooks up to "
            f"{MAX_UNPACKED // 1048576} MB unpacked"
        )
    if "xl/workbook.xml" in names:
        return "xlsx"
    if mimetype.strip() == b"application/vnd.oasis.opendocument.spreadsheet":
        return "ods"
    raise CardgenError(f"{shown} is a zip archive but not an XLSX or ODS workbook")


class _Reader(SheetReader):
    """A sheet reader that also reads CSV text."""

    def csv(self, data: bytes) -> list[Table]:
        text = self._decode(data)
        if "\x00" in text:
            raise CardgenError(f"{self.shown} is not a sheet: it holds binary data")
        first = text.split("\n", 1)[0]
        unquoted = re.sub(r'"[^"]*"', "", first)
        delimiter = max(_DELIMITERS, key=lambda d: (unquoted.count(d), d == ","))
        if not unquoted.count(delimiter):
            delimiter = ","
        try:
            rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
            table = self.table("", None, enumerate([_csv_value(v) for v in row] for row in rows))
        except csv.Error as exc:
            raise CardgenError(f"{self.shown} is not a readable CSV file: {exc}") from None
        return [table] if table else []

    def _decode(self, data: bytes) -> str:
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            pass
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            raise CardgenError(
                f"{self.shown} is neither UTF-8 nor Windows-1252 text: not a CSV file cardgen reads"
            ) from None
        self.problem(
            "sheet-encoding",
            "the file is not UTF-8; read as Windows-1252 (Excel's 'CSV' on Windows)",
            None,
            hint="save as 'CSV UTF-8' to be sure of accented letters",
            error=False,
        )
        return text

    # -- XLSX --------------------------------------------------------------------------------


def _csv_value(text: str) -> Value:
    if text == "":
        return None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def fetch_url(url: str) -> tuple[bytes, str]:
    """A published sheet's bytes and kind ('csv', 'xlsx' or 'ods'): http(s) only, with a timeout
    and a size cap; a redirect to anything but http(s) is refused."""
    import urllib.error
    import urllib.request
    from urllib.parse import urlparse

    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise CardgenError(f"{url}: only http:// and https:// addresses are fetched")

    class _Redirects(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
            if urlparse(newurl).scheme not in ("http", "https"):
                raise CardgenError(f"{url}: redirected to {newurl[:80]}, which is not http(s)")
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    opener = urllib.request.build_opener(_Redirects)
    request = urllib.request.Request(url, headers={"User-Agent": "cardgen"})
    try:
        with opener.open(request, timeout=URL_TIMEOUT) as response:
            data = response.read(MAX_BYTES + 1)
            ctype = str(response.headers.get("Content-Type", "")).lower()
    except urllib.error.HTTPError as exc:
        raise CardgenError(f"{url}: the server answered {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise CardgenError(f"{url}: cannot fetch it: {reason}") from None
    if len(data) > MAX_BYTES:
        raise CardgenError(f"{url}: the download is larger than {MAX_BYTES // 1048576} MB")
    if "html" in ctype and not data.startswith(b"PK"):
        raise CardgenError(
            f"{url}: the address gives a web page, not a sheet (publish the sheet as CSV: "
            "File → Share → Publish to web → CSV)"
        )
    suffix = Path(parsed.path).suffix.lower()
    return data, _kind(suffix if suffix in SHEET_SUFFIXES else ".csv", data, url)

"""Turn push tables into an ODS workbook (odfdo): one sheet per card file, multi-line cells as
paragraphs, drop-downs and number ranges as content validations, a frozen header row, fixed
bytes."""

from __future__ import annotations

import io
import re
from xml.sax.saxutils import escape, quoteattr

from ..model.game import GameModel
from .grid import Value, column_letter
from .push import SheetTable, _vocab, _widths, fixed_zip

_SPLIT = (  # a frozen first row and first column, as LibreOffice writes it in settings.xml
    ("VerticalSplitMode", "short", 2),
    ("VerticalSplitPosition", "int", 1),
    ("HorizontalSplitMode", "short", 2),
    ("HorizontalSplitPosition", "int", 1),
    ("ActiveSplitRange", "short", 2),
    ("PositionRight", "int", 1),
    ("PositionBottom", "int", 1),
)
_ITEMS = "".join(
    f'<config:config-item config:name="{n}" config:type="{t}">{v}</config:config-item>'
    for n, t, v in _SPLIT
)
_MAP = '<config:config-item-map-named config:name="Tables">'
_HEAD, _HEAD_REQUIRED = "cardgen-head", "cardgen-head-required"  # header cells: bold, shaded
_FILL = '<style:table-cell-properties fo:background-color="#ffe8c0"/>'


def ods_bytes(tables: list[SheetTable], model: GameModel) -> bytes:
    from odfdo import Document, Element, Style

    doc = Document("spreadsheet")
    body = doc.body
    body.clear()
    validations: list[str] = []
    names: dict[int, str] = {}  # column index -> validation name
    if tables:
        for c, column in enumerate(tables[0].columns):
            spec = column.spec
            if spec is None:
                continue
            values = _vocab(model, spec)
            if values:
                items = ";".join('"' + v.replace('"', '""') + '"' for v in values)
                condition = f"of:cell-content-is-in-list({items})"
                kind = "warning" if spec.type == "enum" else "information"
            elif spec.type == "integer":
                low = spec.minimum if spec.minimum is not None else -(2**31)
                high = spec.maximum if spec.maximum is not None else 2**31 - 1
                condition = (
                    f"of:cell-content-is-whole-number() and cell-content-is-between({low};{high})"
                )
                kind = "warning"
            else:
                continue
            name = f"cardgen{c + 1}"
            names[c] = name
            validations.append(
                f"<table:content-validation table:name={quoteattr(name)} "
                f'table:condition={quoteattr(condition)} table:allow-empty-cell="true" '
                f"table:base-cell-address={quoteattr('.' + column_letter(c) + '2')} "
                f'table:display-list="unsorted">'
                f'<table:error-message table:display="true" table:message-type="{kind}">'
                f"<text:p>{escape(column.header)}: not a value of the model</text:p>"
                "</table:error-message></table:content-validation>"
            )
    if validations:
        body.append(
            Element.from_tag(
                '<table:content-validations xmlns:table="urn:oasis:names:tc:opendocument:xmlns:'
                'table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">'
                + "".join(validations)
                + "</table:content-validations>"
            )
        )
    for name, fill in ((_HEAD, ""), (_HEAD_REQUIRED, _FILL)):
        doc.insert_style(
            Element.from_tag(
                f'<style:style style:family="table-cell" style:name="{name}">{fill}'
                '<style:text-properties fo:font-weight="bold"/></style:style>'
            ),  # type: ignore[arg-type]
            automatic=True,
        )
    widths: dict[int, str] = {}
    for table in tables:
        sizes = _widths(table)
        for width in sizes:
            if width not in widths:
                widths[width] = f"cardgen-w{width}"
                style = Style("table-column", name=widths[width], width=f"{width * 0.21:.2f}cm")
                doc.insert_style(style, automatic=True)
        # the table as XML text, parsed once: building it cell by cell with odfdo's objects
        # (each cell parsed from a tag, then cloned into its row) took 2 s for 1,000 cards
        body.append(Element.from_tag(_table_xml(table, [widths[w] for w in sizes], names)))
    _freeze(doc, [t.name for t in tables])
    doc.meta.language = "en-US"  # the template's own is fr-FR (spell checking)
    doc.meta.generator = "cardgen"
    buffer = io.BytesIO()
    doc.save(buffer)
    return fixed_zip(buffer.getvalue())


_SPACES = re.compile(r"^ +| +$| {2,}")


def _paragraph(line: str) -> str:
    """One line as an ODF paragraph: runs of spaces as <text:s/> (a spreadsheet program collapses
    them otherwise), tabs as <text:tab/>, a carriage return as a character reference."""

    def spaces(match: re.Match[str]) -> str:
        run = match.group()
        keep = "" if match.start() == 0 or match.end() == len(line) else " "
        count = len(run) - len(keep)
        return keep + ("<text:s/>" if count == 1 else f'<text:s text:c="{count}"/>')

    text = _SPACES.sub(spaces, escape(line)).replace("\t", "<text:tab/>").replace("\r", "&#13;")
    return f"<text:p>{text}</text:p>"


def _cell_xml(value: Value, attrs: str = "") -> str:
    """One cell: a string as text paragraphs (one per line), a number or a truth value typed."""
    if value is None:
        return f"<table:table-cell{attrs}/>"
    if isinstance(value, bool):
        word = "true" if value else "false"
        typed = (
            'office:value-type="boolean" calcext:value-type="boolean" '
            f'office:boolean-value="{word}"'
        )
        return f"<table:table-cell {typed}{attrs}><text:p>{word}</text:p></table:table-cell>"
    if isinstance(value, (int, float)):
        number = str(value)
        typed = (
            'office:value-type="float" calcext:value-type="float" '
            f'office:value="{number}" calcext:value="{number}"'
        )
        return f"<table:table-cell {typed}{attrs}><text:p>{number}</text:p></table:table-cell>"
    lines = "".join(_paragraph(line) for line in value.split("\n"))
    typed = 'office:value-type="string" calcext:value-type="string"'
    return f"<table:table-cell {typed}{attrs}>{lines}</table:table-cell>"


def _table_xml(table: SheetTable, widths: list[str], names: dict[int, str]) -> str:
    """One sheet as ODF XML: its columns' widths, the header row (bold; shaded when required), the
    cards, and (when some column validates) 500 spare rows that keep the validation."""
    out = [f"<table:table table:name={quoteattr(table.name)}>"]
    out += [f'<table:table-column table:style-name="{style}"/>' for style in widths]
    out.append("<table:table-row>")
    for column in table.columns:
        head = _HEAD_REQUIRED if column.spec and column.spec.required else _HEAD
        out.append(_cell_xml(column.header, f' table:style-name="{head}"'))
    out.append("</table:table-row>")
    checks = [
        f" table:content-validation-name={quoteattr(names[c])}" if c in names else ""
        for c in range(len(table.columns))
    ]
    for cells in table.rows:
        out.append("<table:table-row>")
        out += [_cell_xml(value, checks[c]) for c, value in enumerate(cells)]
        out.append("</table:table-row>")
    if names:
        out.append('<table:table-row table:number-rows-repeated="500">')
        out += [_cell_xml(None, check) for check in checks]
        out.append("</table:table-row>")
    out.append("</table:table>")
    return "".join(out)


def _freeze(doc: object, names: list[str]) -> None:
    """Freeze each sheet's header row (and the id column): LibreOffice keeps this in
    settings.xml."""
    part = doc.get_part("settings.xml")  # type: ignore[attr-defined]
    xml = part.serialize().decode("utf-8")
    entries = "".join(
        f"<config:config-item-map-entry config:name={quoteattr(n)}>{_ITEMS}"
        "</config:config-item-map-entry>"
        for n in names
    )
    tables = f"{_MAP}{entries}</config:config-item-map-named>"
    xml, count = re.subn(
        re.escape(_MAP) + r".*?</config:config-item-map-named>",
        lambda _: tables,
        xml,
        flags=re.S,
    )
    if not count:
        xml = re.sub(
            r"(<config:config-item-map-entry>)",
            lambda m: m.group(1) + tables,
            xml,
            count=1,
        )
    doc.set_part("settings.xml", xml.encode("utf-8"))  # type: ignore[attr-defined]

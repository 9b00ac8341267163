"""Turn located YAML documents and findings into plain data (tuples of str, int, float, bool, None)
and back.

The caches keep only plain data (speed.cache: marshal, never pickle), so the located mappings and
lists that yamlio builds travel as tagged tuples. YAML data never holds a tuple, so a tuple is
always a tag:
(0, line, column, keys, key locations, values) is a mapping, (1, line, column, item locations,
values) a list, (2, n) the n-th container again (an anchor used twice is one object, as the parser
built it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.errors import Finding, Severity
from .yamlio import LocDict, LocList, YamlDoc

_SCALARS = (str, int, float, bool, type(None))


def finding_to_plain(f: Finding) -> tuple:
    return (
        f.file,
        f.line,
        f.column,
        int(f.severity),
        f.code,
        f.card,
        f.message,
        f.hint,
        f.cell,
        f.about,
        f.edition,
    )


def finding_from_plain(t: Any) -> Finding:
    file, line, column, severity, code, card, message, hint, cell, about, edition = t
    return Finding(
        file, line, column, Severity(severity), code, card, message, hint, cell, about, edition
    )


def findings_to_plain(findings: list[Finding]) -> tuple:
    return tuple(finding_to_plain(f) for f in findings)


def findings_from_plain(items: Any) -> list[Finding]:
    return [finding_from_plain(t) for t in items]


def doc_to_plain(doc: YamlDoc) -> tuple:
    """A YamlDoc as plain data; raises ValueError for a value no YAML parse gives (never kept,
    then)."""
    return (
        str(doc.path),
        doc.shown,
        doc.text,
        findings_to_plain(doc.findings),
        _encode(doc.data, {}),
    )


def doc_from_plain(t: Any) -> YamlDoc:
    path, shown, text, findings, data = t
    return YamlDoc(Path(path), shown, _decode(data, []), findings_from_plain(findings), text)


def _encode(value: Any, seen: dict[int, int]) -> Any:
    if isinstance(value, _SCALARS):
        return value
    if id(value) in seen:
        return (2, seen[id(value)])
    if isinstance(value, LocDict):
        seen[id(value)] = len(seen)
        keys = tuple(value)
        if not all(type(k) is str for k in keys):
            raise ValueError("a mapping key that is not text")
        return (
            0,
            *value.loc,
            keys,
            tuple(value.key_locs.get(k, value.loc) for k in keys),
            tuple(_encode(value[k], seen) for k in keys),
        )
    if isinstance(value, LocList):
        seen[id(value)] = len(seen)
        return (1, *value.loc, tuple(value.item_locs), tuple(_encode(v, seen) for v in value))
    raise ValueError(f"a {type(value).__name__} in a parsed card file")


def _decode(value: Any, table: list[Any]) -> Any:
    if type(value) is not tuple:
        return value
    tag = value[0]
    if tag == 2:
        return table[value[1]]
    if tag == 0:
        out = LocDict()
        table.append(out)
        _, line, column, keys, key_locs, values = value
        out.loc, out.key_locs = (line, column), dict(zip(keys, key_locs))
        for k, v in zip(keys, values):
            out[k] = v if type(v) is not tuple else _decode(v, table)
        return out
    items = LocList()
    table.append(items)
    _, line, column, item_locs, values = value
    items.loc, items.item_locs = (line, column), list(item_locs)
    items.extend(v if type(v) is not tuple else _decode(v, table) for v in values)
    return items

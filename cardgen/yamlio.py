"""Turn YAML bytes into plain data that remembers where it came from: every mapping key and list item keeps
its line and column; duplicate keys, alias bombs, bad encodings and syntax errors become findings."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import Finding, Severity

try:  # the C parser is several times faster; constructors stay ours either way
    _BaseLoader: type = yaml.CSafeLoader  # type: ignore[attr-defined]
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _BaseLoader = yaml.SafeLoader

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_EXPANDED_NODES = 2_000_000
Loc = tuple[int, int]  # 1-based line, 1-based column


class LocDict(dict):
    """A mapping that knows where it and each of its keys stand in the source."""

    loc: Loc = (0, 0)
    key_locs: dict[str, Loc]

    def key_loc(self, key: str) -> Loc:
        return self.key_locs.get(key, self.loc)


class LocList(list):
    """A sequence that knows where it and each of its items stand in the source."""

    loc: Loc = (0, 0)
    item_locs: list[Loc]

    def item_loc(self, index: int) -> Loc:
        return self.item_locs[index] if 0 <= index < len(self.item_locs) else self.loc


def _mark(node: yaml.Node) -> Loc:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Loader(_BaseLoader):  # type: ignore[misc, valid-type]
    def __init__(self, stream: str, problems: list[tuple[Loc, str, str]]) -> None:
        super().__init__(stream)
        self.problems = problems


def _construct_map(loader: _Loader, node: yaml.MappingNode) -> LocDict:
    result = LocDict()
    result.loc = _mark(node)
    result.key_locs = {}
    loader.flatten_mapping(node)  # honour '<<' merge keys
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool)) and key is not None:
            loader.problems.append((_mark(key_node), "yaml-key", "a mapping key must be a plain value"))
            continue
        key = str(key) if not isinstance(key, str) else key
        if key in result.key_locs and result.key_locs[key] != _mark(key_node):
            first = result.key_locs[key]
            loader.problems.append(
                (_mark(key_node), "duplicate-key", f"key '{key}' appears twice in this mapping (first at line {first[0]})")
            )
            continue
        result.key_locs[key] = _mark(key_node)
        result[key] = loader.construct_object(value_node, deep=True)
    return result


def _construct_seq(loader: _Loader, node: yaml.SequenceNode) -> LocList:
    result = LocList(loader.construct_object(child, deep=True) for child in node.value)
    result.loc = _mark(node)
    result.item_locs = [_mark(child) for child in node.value]
    return result


def _construct_timestamp_as_text(loader: _Loader, node: yaml.ScalarNode) -> str:
    return str(node.value)  # card data never means a date; '2024-01-01' stays text


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_map)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_seq)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp_as_text)


def _expanded_size(root: yaml.Node, limit: int) -> int:
    """Nodes the document would have with every alias expanded, stopping early past the limit."""
    memo: dict[int, int] = {}
    active: set[int] = set()

    def walk(node: yaml.Node) -> int:
        key = id(node)
        if key in memo:
            return memo[key]
        if key in active:  # a recursive alias: infinite when expanded
            return limit + 1
        active.add(key)
        total = 1
        if isinstance(node, yaml.SequenceNode):
            for child in node.value:
                total += walk(child)
                if total > limit:
                    break
        elif isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                total += walk(k) + walk(v)
                if total > limit:
                    break
        active.discard(key)
        memo[key] = total
        return total

    return walk(root)


@dataclass
class YamlDoc:
    path: Path
    shown: str  # the path as findings show it (relative to the workspace)
    data: Any = None
    findings: list[Finding] = field(default_factory=list)
    text: str = ""


def load_yaml(path: Path, shown: str, *, max_bytes: int = MAX_FILE_BYTES) -> YamlDoc:
    """Read one YAML file; never raises for bad content, reports it as findings instead."""
    doc = YamlDoc(path=path, shown=shown)

    def problem(code: str, message: str, line: int = 0, column: int = 0, hint: str | None = None) -> YamlDoc:
        doc.findings.append(Finding(shown, line, column, Severity.ERROR, code, None, message, hint))
        return doc

    try:
        size = path.stat().st_size
        if size > max_bytes:
            return problem(
                "file-too-large",
                f"file is {size / 1048576:.1f} MB; card and model files are limited to {max_bytes // 1048576} MB",
                hint="split the set into several files",
            )
        raw = path.read_bytes()
    except OSError as exc:
        return problem("unreadable-file", f"cannot read file: {exc.strerror or exc}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return problem("not-utf8", f"byte 0x{raw[exc.start]:02x} is not UTF-8", line, column, "save the file as UTF-8")
    doc.text = text
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        doc.findings.append(Finding(shown, 1, 1, Severity.WARNING, "empty-file", None, "file holds no data"))
        return doc
    problems: list[tuple[Loc, str, str]] = []
    loader = _Loader(text, problems)
    try:
        node = loader.get_single_node()
        if node is None:
            doc.findings.append(Finding(shown, 1, 1, Severity.WARNING, "empty-file", None, "file holds no data"))
            return doc
        if _expanded_size(node, MAX_EXPANDED_NODES) > MAX_EXPANDED_NODES:
            return problem(
                "alias-bomb",
                f"aliases expand this document past {MAX_EXPANDED_NODES:,} values (or into a loop)",
                *_mark(node),
                hint="use fewer nested aliases",
            )
        doc.data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        reason = exc.problem or exc.context or "syntax error"
        return problem("yaml-syntax", f"YAML syntax error: {reason}", line, column)
    except yaml.YAMLError as exc:
        return problem("yaml-syntax", f"YAML error: {exc}")
    except RecursionError:
        return problem("yaml-syntax", "document nests too deeply")
    finally:
        loader.dispose()
    for (line, column), code, message in problems:
        doc.findings.append(Finding(shown, line, column, Severity.ERROR, code, None, message))
    return doc

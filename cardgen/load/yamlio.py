"""Turn YAML bytes into plain data that remembers where it came from: every mapping key and list item keeps
its line and column; duplicate keys, alias bombs, bad encodings and syntax errors become findings."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..core.errors import Finding, Severity

try:  # the C parser composes nodes fast; scalar typing is left to _scalar below
    _Parser: type = yaml.CBaseLoader  # type: ignore[attr-defined]
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Parser = yaml.BaseLoader

_DEFAULT_TAGS = {yaml.ScalarNode: "tag:yaml.org,2002:str", yaml.SequenceNode: "tag:yaml.org,2002:seq",
                 yaml.MappingNode: "tag:yaml.org,2002:map"}


class _BaseLoader(_Parser):  # type: ignore[misc, valid-type]
    def resolve(self, kind: type, value: object, implicit: object) -> str:
        # called by the composer for every untagged node; the generic resolver costs a third of a load
        return _DEFAULT_TAGS[kind]

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_EXPANDED_NODES = 2_000_000
MAX_INT = 2**53 - 1  # the largest whole number a float, JSON and JavaScript hold exactly
Loc = tuple[int, int]  # 1-based line, 1-based column


class LocDict(dict):
    """A mapping that knows where it and each of its keys stand in the source."""

    loc: Loc = (0, 0)
    key_locs: dict[str, Loc]

    def key_loc(self, key: str) -> Loc:
        return self.key_locs.get(key, self.loc)

    @classmethod
    def at(cls, loc: Loc, key_locs: dict[str, Loc] | None = None) -> LocDict:
        """An empty mapping standing at loc."""
        out = cls()
        out.loc, out.key_locs = loc, dict(key_locs or {})
        return out

    def put(self, key: str, value: Any, loc: Loc) -> None:
        self[key] = value
        self.key_locs[key] = loc


class LocList(list):
    """A sequence that knows where it and each of its items stand in the source."""

    loc: Loc = (0, 0)
    item_locs: list[Loc]

    def item_loc(self, index: int) -> Loc:
        return self.item_locs[index] if 0 <= index < len(self.item_locs) else self.loc

    @classmethod
    def at(cls, loc: Loc) -> LocList:
        """An empty sequence standing at loc."""
        out = cls()
        out.loc, out.item_locs = loc, []
        return out

    def put(self, value: Any, loc: Loc) -> None:
        self.append(value)
        self.item_locs.append(loc)


def _mark(node: yaml.Node) -> Loc:
    return node.start_mark.line + 1, node.start_mark.column + 1


# YAML 1.1 core scalars, as PyYAML's SafeLoader types them (timestamps stay text: card data never means a date)
_NULL = {"", "~", "null", "Null", "NULL"}
_BOOL = {"yes": True, "Yes": True, "YES": True, "true": True, "True": True, "TRUE": True, "on": True, "On": True,
         "ON": True, "no": False, "No": False, "NO": False, "false": False, "False": False, "FALSE": False,
         "off": False, "Off": False, "OFF": False}
_INT = re.compile(r"[-+]?(?:0|[1-9][0-9_]*)$")
_INT_OTHER = re.compile(r"[-+]?(?:0b[0-1_]+|0[0-7_]+|0x[0-9a-fA-F_]+|[1-9][0-9_]*(?::[0-5]?[0-9])+)$")
_FLOAT = re.compile(r"[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?$|[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?$"
                    r"|[-+]?\.(?:inf|Inf|INF)$|\.(?:nan|NaN|NAN)$")
_FIRST = set("0123456789-+.~nNtTfFyYoO")
_SAFE = yaml.SafeLoader("")


def _scalar(node: yaml.ScalarNode) -> Any:
    value = node.value
    if node.tag != "tag:yaml.org,2002:str":
        return _explicit(node)
    if node.style:  # quoted or block scalars are text
        return value
    if not value:
        return None
    if value[0] not in _FIRST:
        return value
    if value in _NULL:
        return None
    if value in _BOOL:
        return _BOOL[value]
    if _INT.match(value):
        return _bounded(int(value.replace("_", "")) if len(value) <= 40 else MAX_INT + 1)
    if _INT_OTHER.match(value) or _FLOAT.match(value):
        return _bounded(_SAFE.construct_object(yaml.ScalarNode(_SAFE.resolve(yaml.ScalarNode, value, (True, False)),
                                                               value)))
    return value


def _bounded(value: Any) -> Any:
    """A whole number no larger than JSON, charts and exports keep exactly (0x + 5,000 f would be one)."""
    if type(value) is int and not -MAX_INT <= value <= MAX_INT:
        raise OverflowError(f"it is past {MAX_INT:,}, the largest whole number cardgen reads")
    return value


def _explicit(node: yaml.ScalarNode) -> Any:
    """An explicitly tagged scalar (!!int "3"); anything but the core types stays text."""
    if node.tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
                    "tag:yaml.org,2002:null"):
        try:
            return _bounded(_SAFE.construct_object(yaml.ScalarNode(node.tag, node.value)))
        except yaml.YAMLError:
            return node.value
    return node.value


class _Builder:
    """Builds LocDict/LocList/scalars from composed nodes; shared (aliased) nodes are built once."""

    def __init__(self, problems: list[tuple[Loc, str, str]]) -> None:
        self.problems = problems
        self.memo: dict[int, Any] = {}
        self.shared = False  # a node was reached twice: aliases are in use

    def build(self, node: yaml.Node) -> Any:
        key = id(node)
        if key in self.memo:
            self.shared = True
            return self.memo[key]
        if isinstance(node, yaml.ScalarNode):
            try:
                return _scalar(node)
            except (ValueError, OverflowError) as exc:  # '!!int abc', or an integer of thousands of digits
                shown = node.value if len(node.value) <= 24 else node.value[:20] + "…"
                self.problems.append((_mark(node), "yaml-value", f"'{shown}' cannot be read as a number: "
                                      f"{str(exc).split(';')[0][:80]}"))
                return node.value
        if isinstance(node, yaml.SequenceNode):
            out = LocList()
            self.memo[key] = out
            out.loc = _mark(node)
            out.item_locs = [_mark(child) for child in node.value]
            out.extend(self.build(child) for child in node.value)
            return out
        result = LocDict()
        self.memo[key] = result
        result.loc = _mark(node)
        result.key_locs = {}
        for key_node, value_node in self._pairs(node):
            k = self.build(key_node)
            if isinstance(k, (list, dict)):
                self.problems.append((_mark(key_node), "yaml-key", "a mapping key must be a plain value"))
                continue
            k = k if isinstance(k, str) else ("null" if k is None else str(k).lower() if isinstance(k, bool) else str(k))
            if k in result.key_locs:
                if result.key_locs[k] != _mark(key_node):
                    first = result.key_locs[k]
                    self.problems.append((_mark(key_node), "duplicate-key",
                                          f"key '{k}' appears twice in this mapping (first at line {first[0]})"))
                continue
            result.key_locs[k] = _mark(key_node)
            result[k] = self.build(value_node)
        return result

    def _pairs(self, node: yaml.MappingNode) -> list[tuple[yaml.Node, yaml.Node]]:
        """The mapping's pairs with '<<' merge keys expanded (own keys first, so they win)."""
        own, merged = [], []
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == "<<" and not k.style:
                self.shared = True
                sources = v.value if isinstance(v, yaml.SequenceNode) else [v]
                for src in sources:
                    if isinstance(src, yaml.MappingNode):
                        merged.extend(self._pairs(src))
                    else:
                        self.problems.append((_mark(src), "yaml-merge", "'<<' must merge a mapping"))
            else:
                own.append((k, v))
        keys = {k.value for k, _ in own if isinstance(k, yaml.ScalarNode)}
        return own + [(k, v) for k, v in merged if not (isinstance(k, yaml.ScalarNode) and k.value in keys)]


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
        children = node.value if isinstance(node, yaml.SequenceNode) else (
            [n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode) else [])
        for child in children:
            total += walk(child)
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
    return _parse(doc, text)


def parse_yaml(text: str, shown: str, first_line: int = 1) -> YamlDoc:
    """YAML that is part of another file (a rulebook chapter's front matter), guarded like a file and located
    from `first_line` of that file."""
    doc = _parse(YamlDoc(path=Path(shown), shown=shown), "\n" * (first_line - 1) + text)
    doc.text = text
    return doc


_NON_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what YAML counts as the end of a line


def text_loc(text: str, offset: int) -> Loc:
    """The 1-based line and column of a character of the text, counting lines as YAML does."""
    line, start = 1, 0
    for m in _BREAK.finditer(text, 0, offset):
        line, start = line + 1, m.end()
    return line, offset - start + 1


def text_offset(text: str, loc: Loc) -> int | None:
    """The index in the text of a 1-based line and column (as YAML counts them), or None past its end."""
    line, start = 1, 0
    if loc[0] > 1:
        for m in _BREAK.finditer(text):
            line, start = line + 1, m.end()
            if line == loc[0]:
                break
        else:
            return None
    at = start + loc[1] - 1
    return at if 0 <= at <= len(text) and line == loc[0] else None


def char_name(ch: str) -> str:
    """'U+200B ZERO WIDTH SPACE': a character that may not show, named so that it can be found."""
    import unicodedata

    kind = unicodedata.category(ch)
    name = unicodedata.name(ch, "") or ("(a control character)" if kind == "Cc" else f"(category {kind})")
    return f"U+{ord(ch):04X} {name}"


_ITEM = re.compile(r"^-(?: |$)", re.M)  # a top-level sequence item's first line


def sequence_pieces(text: str, pieces: int) -> list[tuple[int, str]] | None:
    """A file holding one top-level block sequence (a list of cards), cut before items' first lines into
    `pieces` runs of whole items to parse apart: (first line number, text) each. None where cutting could
    change what the file means: anchors (an alias may name one in another piece), document markers or
    directives, or a file that does not start as a block sequence. A piece that fails to parse (or is not a
    list) means parsing the whole file instead (`join_pieces`), so a mistake is reported as usual."""
    if pieces < 2 or "&" in text or _MARKERS.search(text) or _OTHER_BREAKS.search(text):
        return None
    first = next((ln for ln in text.split("\n") if ln.strip() and not ln.lstrip().startswith("#")), "")
    starts = [m.start() for m in _ITEM.finditer(text)]
    if not _ITEM.match(first) or not starts:
        return None
    cuts = sorted({min(starts, key=lambda at: abs(at - len(text) * k // pieces)) for k in range(1, pieces)})
    bounds = [0, *[c for c in cuts if c > 0], len(text)]
    if len(bounds) < 3:
        return None
    return [(text.count("\n", 0, a) + 1, text[a:b]) for a, b in zip(bounds, bounds[1:])]


_MARKERS = re.compile(r"^(?:---|\.\.\.|%)", re.M)
_OTHER_BREAKS = re.compile("\r(?!\n)|[\x85\u2028\u2029]")  # line breaks to YAML that "\n" does not count


def join_pieces(path: Path, shown: str, text: str, docs: list[YamlDoc]) -> YamlDoc | None:
    """The file's parse from its pieces' (sequence_pieces), or None when one of them is not a clean list."""
    if any(d.findings or not isinstance(d.data, list) for d in docs):
        return None
    data = LocList.at(docs[0].data.loc)
    for d in docs:
        for index, value in enumerate(d.data):
            data.put(value, d.data.item_loc(index))
    return YamlDoc(path=path, shown=shown, data=data, text=text)


def _parse(doc: YamlDoc, text: str) -> YamlDoc:
    shown = doc.shown

    def problem(code: str, message: str, line: int = 0, column: int = 0, hint: str | None = None) -> YamlDoc:
        doc.findings.append(Finding(shown, line, column, Severity.ERROR, code, None, message, hint))
        return doc

    doc.text = text
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        doc.findings.append(Finding(shown, 1, 1, Severity.WARNING, "empty-file", None, "file holds no data"))
        return doc
    problems: list[tuple[Loc, str, str]] = []
    loader = _BaseLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            doc.findings.append(Finding(shown, 1, 1, Severity.WARNING, "empty-file", None, "file holds no data"))
            return doc
        if ("&" in text or "<<" in text) and _expanded_size(node, MAX_EXPANDED_NODES) > MAX_EXPANDED_NODES:
            return problem(
                "alias-bomb",
                f"aliases expand this document past {MAX_EXPANDED_NODES:,} values (or into a loop)",
                *_mark(node),
                hint="use fewer nested aliases",
            )
        doc.data = _Builder(problems).build(node)
    except yaml.reader.ReaderError as exc:  # a character YAML forbids; the reader counts bytes, so find it here
        bad = _NON_PRINTABLE.search(text)
        at = bad.start() if bad else min(exc.position, len(text))
        point = ord(bad.group()) if bad else exc.character if isinstance(exc.character, int) else 0
        return problem("yaml-syntax", f"YAML syntax error: character {char_name(chr(point))} is not allowed in YAML",
                       *text_loc(text, at), hint="delete it; pasted text often brings such characters")
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

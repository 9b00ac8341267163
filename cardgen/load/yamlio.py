"""Turn YAML bytes into plain data that remembers where it came from: every mapping key and list
item keeps its line and column; duplicate keys, alias bombs, bad encodings and syntax errors become
findings."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..core.errors import Finding, Severity
from .yamlscalar import _scalar
from .yamltext import (
    _NON_PRINTABLE,
    Loc,
    char_name,
    text_loc,
)

try:  # the C parser composes nodes fast; scalar typing is left to _scalar below
    _Parser: type = yaml.CBaseLoader  # type: ignore[attr-defined]
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Parser = yaml.BaseLoader

# what a whole input file that could not be read is reported as: whatever finding says a card, a
# deck entry or a rule is missing may follow from it, so it is listed before them
UNREAD_CODES = frozenset(
    {
        "yaml-syntax",
        "not-utf8",
        "not-a-list",
        "alias-bomb",
        "file-too-large",
        "file-too-many-values",
        "unreadable-file",
    }
)

_DEFAULT_TAGS = {
    yaml.ScalarNode: "tag:yaml.org,2002:str",
    yaml.SequenceNode: "tag:yaml.org,2002:seq",
    yaml.MappingNode: "tag:yaml.org,2002:map",
}


class _BaseLoader(_Parser):  # type: ignore[misc, valid-type]
    def resolve(self, kind: type, value: object, implicit: object) -> str:
        # called by the composer for every untagged node; the generic resolver costs a third of a
        # load
        return _DEFAULT_TAGS[kind]


MAX_FILE_BYTES = 8 * 1024 * 1024  # game.yaml and other files read whole; card files: cardfile.py
MAX_EXPANDED_NODES = 2_000_000  # values aliases may add to a document (each use of an anchor)


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


def plain(value: Any) -> Any:
    """Located mappings and lists as plain ones, all the way down (for dumping, comparing and
    hashing values without their source locations)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def _mark(node: yaml.Node, first_line: int = 1) -> Loc:
    return node.start_mark.line + first_line, node.start_mark.column + 1


# YAML 1.1 core scalars, as PyYAML's SafeLoader types them (timestamps stay text: card data never
# means a date)
class _Builder:
    """Builds LocDict/LocList/scalars from composed nodes; shared (aliased) nodes are built once."""

    def __init__(self, problems: list[tuple[Loc, str, str]], first_line: int = 1) -> None:
        self.problems = problems
        self.memo: dict[int, Any] = {}
        self.shared = False  # a node was reached twice: aliases are in use
        self.first_line = first_line
        self.values = 0  # values built (each mapping, list and scalar once)

    def _mark(self, node: yaml.Node) -> Loc:
        return node.start_mark.line + self.first_line, node.start_mark.column + 1

    def build(self, node: yaml.Node) -> Any:
        key = id(node)
        if key in self.memo:
            self.shared = True
            return self.memo[key]
        self.values += 1
        if isinstance(node, yaml.ScalarNode):
            try:
                return _scalar(node)
            except (
                ValueError,
                OverflowError,
            ) as exc:  # '!!int abc', or an integer of thousands of digits
                shown = node.value if len(node.value) <= 24 else node.value[:20] + "…"
                self.problems.append(
                    (
                        self._mark(node),
                        "yaml-value",
                        f"'{shown}' cannot be read as a number: {str(exc).split(';')[0][:80]}",
                    )
                )
                return node.value
        if isinstance(node, yaml.SequenceNode):
            out = LocList()
            self.memo[key] = out
            out.loc = self._mark(node)
            out.item_locs = [self._mark(child) for child in node.value]
            out.extend(self.build(child) for child in node.value)
            return out
        result = LocDict()
        self.memo[key] = result
        result.loc = self._mark(node)
        result.key_locs = {}
        for key_node, value_node in self._pairs(node):
            k = self.build(key_node)
            if isinstance(k, (list, dict)):
                self.problems.append(
                    (self._mark(key_node), "yaml-key", "a mapping key must be a plain value")
                )
                continue
            k = sys.intern(  # one string per field name, however many cards (and in the cache)
                k
                if isinstance(k, str)
                else ("null" if k is None else str(k).lower() if isinstance(k, bool) else str(k))
            )
            if k in result.key_locs:
                if result.key_locs[k] != self._mark(key_node):
                    first = result.key_locs[k]
                    self.problems.append(
                        (
                            self._mark(key_node),
                            "duplicate-key",
                            f"key '{k}' appears twice in this mapping (first at line {first[0]})",
                        )
                    )
                continue
            result.key_locs[k] = self._mark(key_node)
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
                        self.problems.append(
                            (self._mark(src), "yaml-merge", "'<<' must merge a mapping")
                        )
            else:
                own.append((k, v))
        keys = {k.value for k, _ in own if isinstance(k, yaml.ScalarNode)}
        return own + [
            (k, v) for k, v in merged if not (isinstance(k, yaml.ScalarNode) and k.value in keys)
        ]


def _alias_values(root: yaml.Node, limit: int) -> int:
    """Values the document's aliases add when expanded (each use of an anchor after its first adds
    the anchored value's whole expanded size), stopping early past the limit; a document's own
    values do not count, so a large file with one anchor is no bomb."""
    memo: dict[int, int] = {}
    active: set[int] = set()
    added = 0

    def walk(node: yaml.Node) -> int:
        nonlocal added
        key = id(node)
        if key in memo:
            added += memo[key]
            return memo[key]
        if key in active:  # a recursive alias: infinite when expanded
            added = limit + 1
            return limit + 1
        active.add(key)
        total = 1
        children = (
            node.value
            if isinstance(node, yaml.SequenceNode)
            else (
                [n for pair in node.value for n in pair]
                if isinstance(node, yaml.MappingNode)
                else []
            )
        )
        for child in children:
            total += walk(child)
            if added > limit:
                break
        active.discard(key)
        memo[key] = total
        return total

    walk(root)
    return added


@dataclass
class YamlDoc:
    path: Path
    shown: str  # the path as findings show it (relative to the workspace)
    data: Any = None
    findings: list[Finding] = field(default_factory=list)
    text: str = ""
    values: int = 0  # values built (mappings, lists and scalars; an anchored one once)


def load_yaml(path: Path, shown: str, *, max_bytes: int = MAX_FILE_BYTES) -> YamlDoc:
    """Read one YAML file; never raises for bad content, reports it as findings instead."""
    doc, text = read_text(path, shown, max_bytes)
    return doc if text is None else parse_into(doc, text)


def read_text(
    path: Path,
    shown: str,
    max_bytes: int,
    limit: str = "card and model files are limited to {mb} MB",
    hint: str = "split the set into several files",
) -> tuple[YamlDoc, str | None]:
    """A file's document (holding the finding that stopped it) and its text, or None for the text
    when it is too large (`limit` says the bound), unreadable or not UTF-8."""
    doc = YamlDoc(path=path, shown=shown)

    def problem(
        code: str, message: str, line: int = 0, column: int = 0, hint: str | None = None
    ) -> tuple[YamlDoc, None]:
        doc.findings.append(Finding(shown, line, column, Severity.ERROR, code, None, message, hint))
        return doc, None

    try:
        size = path.stat().st_size
        if size > max_bytes:
            said = limit.format(mb=f"{max_bytes / 1048576:g}")
            return problem("file-too-large", f"file is {size / 1048576:.1f} MB; {said}", hint=hint)
        raw = path.read_bytes()
    except OSError as exc:
        return problem("unreadable-file", f"cannot read file: {exc.strerror or exc}")
    try:
        return doc, raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        said = f"byte 0x{raw[exc.start]:02x} is not UTF-8"
        return problem("not-utf8", said, line, column, "save the file as UTF-8")


def parse_yaml(text: str, shown: str, first_line: int = 1) -> YamlDoc:
    """YAML that is part of another file (a rulebook chapter's front matter), guarded like a file
    and located from `first_line` of that file."""
    return parse_into(YamlDoc(path=Path(shown), shown=shown), text, first_line)


def parse_into(doc: YamlDoc, text: str, first_line: int = 1) -> YamlDoc:
    """The text's data and findings, its lines counted from `first_line` (a piece of a file)."""
    shown, shift = doc.shown, first_line - 1

    def problem(
        code: str, message: str, line: int = 0, column: int = 0, hint: str | None = None
    ) -> YamlDoc:
        line += shift if line else 0
        doc.findings.append(Finding(shown, line, column, Severity.ERROR, code, None, message, hint))
        return doc

    doc.text = text
    if not text.strip() or all(
        not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()
    ):
        doc.findings.append(
            Finding(shown, 1, 1, Severity.WARNING, "empty-file", None, "file holds no data")
        )
        return doc
    problems: list[tuple[Loc, str, str]] = []
    loader = _BaseLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            doc.findings.append(
                Finding(shown, 1, 1, Severity.WARNING, "empty-file", None, "file holds no data")
            )
            return doc
        if ("&" in text or "<<" in text) and _alias_values(
            node, MAX_EXPANDED_NODES
        ) > MAX_EXPANDED_NODES:
            return problem(
                "alias-bomb",
                f"aliases add more than {MAX_EXPANDED_NODES:,} values to this document when "
                "expanded (or loop into themselves)",
                *_mark(node),
                hint="use fewer nested aliases",
            )
        builder = _Builder(problems, first_line)
        doc.data = builder.build(node)
        doc.values = builder.values
    except (
        yaml.reader.ReaderError
    ) as exc:  # a character YAML forbids; the reader counts bytes, so find it here
        bad = _NON_PRINTABLE.search(text)
        at = bad.start() if bad else min(exc.position, len(text))
        point = ord(bad.group()) if bad else exc.character if isinstance(exc.character, int) else 0
        return problem(
            "yaml-syntax",
            f"YAML syntax error: character {char_name(chr(point))} is not allowed in YAML",
            *text_loc(text, at),
            hint="delete it; pasted text often brings such characters",
        )
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        reason = exc.problem or exc.context or "syntax error"
        if exc.context_mark is not None and "end of stream" in (exc.problem or ""):
            # a quote or bracket opened and never closed: the end of the file says nothing; where
            # it opened does ('while scanning a quoted scalar')
            mark = exc.context_mark
            reason = f"{_opened(exc.context)} starts here and is never closed (the file ends first)"
        elif (
            exc.context_mark is not None
            and exc.problem_mark is not None
            and exc.context_mark.line < exc.problem_mark.line
            and exc.context
        ):  # say where the unclosed thing began, which is what the designer must fix
            opened = exc.context_mark.line + first_line
            reason += f" ({_opened(exc.context)} opened at line {opened})"
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
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


def _opened(context: str | None) -> str:
    """PyYAML's 'while scanning a quoted scalar' as a designer says it: 'a quoted text'."""
    what = (context or "").removeprefix("while ").removeprefix("scanning ").removeprefix("parsing ")
    return {
        "a quoted scalar": "a quoted text",
        "a flow mapping": "a { … } mapping",
        "a flow sequence": "a [ … ] list",
        "a block mapping": "a mapping",
        "a block collection": "a list",
    }.get(what.strip(), what.strip() or "a value")

"""Turn a card file's text into located cards: where each card and each of its fields' values
stands in the text (offsets, lines, quoting style, flow or block), for editing values in place."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import yaml

from .yamltext import _BREAK

__all__ = ["CardNode", "FieldNode", "Located", "locate"]

try:
    _Composer: type = yaml.CBaseLoader  # type: ignore[attr-defined]
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Composer = yaml.BaseLoader

_STR = "tag:yaml.org,2002:str"


@dataclass
class FieldNode:
    """Where one key's value stands in the text, and how it is written."""

    key: str
    key_start: int
    key_line: int  # 1-based
    start: int
    end: int
    kind: str  # 'scalar', 'seq' or 'map'
    style: str | None  # a scalar's style: '' plain, "'", '"', '|', '>'
    flow: bool  # a sequence written [a, b]
    items: list[tuple[int, int]] = field(default_factory=list)  # a sequence's items' spans
    items_scalar: bool = True
    shared: bool = False  # an anchor, an alias or a merge is involved: not edited
    line: int = 0  # the value's 1-based line and column
    column: int = 0


@dataclass
class CardNode:
    """One card (a mapping item of the top-level list) in the text."""

    start: int  # its first key
    item_line_start: int  # the start of the line holding its '- '
    end: int
    key_indent: int  # the column (0-based) of its keys
    flow: bool
    merged: bool
    fields: dict[str, FieldNode] = field(default_factory=dict)
    line: int = 0


@dataclass
class Located:
    text: str
    newline: str
    cards: list[CardNode | None]  # None: an item that is not a mapping
    line_starts: list[int]
    item_indent: int = 0  # the column of the list's '- '

    def offset(self, line0: int, col0: int) -> int:
        return self.line_starts[line0] + col0 if line0 < len(self.line_starts) else len(self.text)

    def loc(self, offset: int) -> tuple[int, int]:
        """1-based line and column of an offset."""
        i = bisect.bisect_right(self.line_starts, offset) - 1
        return i + 1, offset - self.line_starts[i] + 1

    def line_end(self, offset: int) -> int:
        """The offset of the line break ending the line holding `offset` (or the text's end)."""
        m = _BREAK.search(self.text, offset)
        return m.start() if m else len(self.text)

    def next_line(self, offset: int) -> int:
        m = _BREAK.search(self.text, offset)
        return m.end() if m else len(self.text)


def locate(text: str) -> Located | None:
    """The cards of a card file's text with their fields' spans, or None when the text is not one
    readable list (the loader reports why)."""
    starts = [0] + [m.end() for m in _BREAK.finditer(text)]
    newline = "\r\n" if "\r\n" in text else "\n"
    loader = _Composer(text)
    try:
        root = loader.get_single_node()
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    if root is None:  # only comments: cards may be added
        return Located(text, newline, [], starts)
    if not isinstance(root, yaml.SequenceNode):
        return None
    seen: dict[int, int] = {}
    _count(root, seen)
    located = Located(text, newline, [], starts)
    located.item_indent = root.start_mark.column
    for item in root.value:
        if not isinstance(item, yaml.MappingNode):
            located.cards.append(None)
            continue
        start = located.offset(item.start_mark.line, item.start_mark.column)
        card = CardNode(
            start=start,
            item_line_start=starts[item.start_mark.line],
            end=located.offset(item.end_mark.line, item.end_mark.column),
            key_indent=item.start_mark.column,
            flow=bool(item.flow_style),
            merged=False,
            line=item.start_mark.line + 1,
        )
        for key_node, value_node in item.value:
            if not isinstance(key_node, yaml.ScalarNode):
                continue
            if key_node.value == "<<" and not key_node.style:
                card.merged = True
                continue
            card.fields[key_node.value] = _field(located, key_node, value_node, seen)
        located.cards.append(card)
    return located


def _count(node: yaml.Node, seen: dict[int, int]) -> None:
    seen[id(node)] = seen.get(id(node), 0) + 1
    if seen[id(node)] > 1:
        return
    if isinstance(node, yaml.SequenceNode):
        for child in node.value:
            _count(child, seen)
    elif isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            _count(k, seen)
            _count(v, seen)


def _field(located: Located, key: yaml.Node, value: yaml.Node, seen: dict[int, int]) -> FieldNode:
    start = located.offset(value.start_mark.line, value.start_mark.column)
    end = located.offset(value.end_mark.line, value.end_mark.column)
    text = located.text
    shared = seen.get(id(value), 0) > 1 or text[start : start + 1] in ("&", "*", "!")
    kind = (
        "scalar"
        if isinstance(value, yaml.ScalarNode)
        else "seq"
        if isinstance(value, yaml.SequenceNode)
        else "map"
    )
    out = FieldNode(
        key=key.value,
        key_start=located.offset(key.start_mark.line, key.start_mark.column),
        key_line=key.start_mark.line + 1,
        start=start,
        end=end,
        kind=kind,
        style=value.style if isinstance(value, yaml.ScalarNode) else None,
        flow=bool(getattr(value, "flow_style", False)),
        shared=shared,
        line=value.start_mark.line + 1,
        column=value.start_mark.column + 1,
    )
    if isinstance(value, yaml.SequenceNode):
        for item in value.value:
            item_start = located.offset(item.start_mark.line, item.start_mark.column)
            out.items.append((item_start, located.offset(item.end_mark.line, item.end_mark.column)))
            if (
                not isinstance(item, yaml.ScalarNode)
                or seen.get(id(item), 0) > 1
                or text[item_start : item_start + 1] in ("&", "*", "!")
                or item.style in ("|", ">")
            ):
                out.items_scalar = False
    if isinstance(value, yaml.ScalarNode) and value.tag != _STR:
        out.shared = True  # an explicit tag ('!!int 3') is kept as written
    return out

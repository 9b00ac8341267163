"""Turn a YAML file's text and edits of single values (set, add or remove one key, found by its
path of keys and list indices) into new text that differs only there: comments, key order,
quoting, flow or block style and every other byte kept. What the layout inspector writes into a
template."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

import yaml

from .yamlemit import double_quoted, single_quoted

Path = tuple[Union[str, int], ...]


class Unexpressible(Exception):
    """The edit cannot be made in place (the path names no value, an alias, a nested value)."""


@dataclass(frozen=True)
class Patch:
    """Set `path`'s last key to `value` (added to its mapping when absent), or remove the key when
    `value` is None."""

    path: Path
    value: str | None
    verbatim: bool = False  # `value` is YAML scalar text already (a number, a quoted text)


try:
    _Loader: type = yaml.CSafeLoader  # type: ignore[attr-defined]
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader


def compose(text: str) -> yaml.Node | None:
    try:
        return yaml.compose(text, Loader=_Loader)  # type: ignore[no-any-return]
    except yaml.YAMLError as exc:
        raise Unexpressible(f"the file is not valid YAML now: {exc}") from None


def find(root: yaml.Node | None, path: Path) -> yaml.Node | None:
    """The node at `path` (keys of mappings, indices of sequences), or None."""
    node = root
    for step in path:
        if isinstance(node, yaml.MappingNode) and isinstance(step, str):
            node = next((v for k, v in node.value if k.value == step), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int):
            node = node.value[step] if 0 <= step < len(node.value) else None
        else:
            return None
    return node


def value_at(text: str, path: Path) -> str | None:
    """The scalar at `path` as loaded (a string), or None when there is none."""
    node = find(compose(text), path)
    return node.value if isinstance(node, yaml.ScalarNode) else None


def item_at(text: str, list_path: Path, line: int, column: int) -> int | None:
    """The index of the item of the sequence at `list_path` that starts at (line, column), 1-based
    (where cardgen's loader locates it)."""
    node = find(compose(text), list_path)
    if not isinstance(node, yaml.SequenceNode):
        return None
    for i, item in enumerate(node.value):
        mark = item.start_mark
        if (mark.line + 1, mark.column + 1) == (line, column):
            return i
    return None


def source(text: str, path: Path) -> str | None:
    """The value at `path` exactly as written (quotes included), or None when there is none."""
    node = find(compose(text), path)
    return None if node is None else text[node.start_mark.index : node.end_mark.index]


def apply(text: str, patches: list[Patch]) -> str:
    """The text with every patch made, each in place; the rest unchanged byte for byte."""
    for patch in patches:  # one at a time: each sees the offsets the one before left
        text = _one(text, patch)
    return text


def _one(text: str, patch: Patch) -> str:
    root = compose(text)
    if not patch.path:
        raise Unexpressible("an empty path")
    parent = find(root, patch.path[:-1])
    key = patch.path[-1]
    if not isinstance(parent, yaml.MappingNode) or not isinstance(key, str):
        raise Unexpressible(f"{'.'.join(map(str, patch.path[:-1]))} is not a mapping here")
    pair = next(((k, v) for k, v in parent.value if k.value == key), None)
    if patch.value is None:
        return text if pair is None else _remove(text, parent, pair)
    if pair is None:
        return _add(text, parent, key, patch.value, patch.verbatim)
    value = pair[1]
    if not isinstance(value, yaml.ScalarNode):
        raise Unexpressible(f"'{key}' holds a list or mapping, not one value")
    if value.style in ("|", ">"):
        raise Unexpressible(f"'{key}' is a block of text: edit it in the file")
    if text[value.start_mark.index : value.start_mark.index + 1] in "*&":
        raise Unexpressible(f"'{key}' is an anchor or alias: edit it in the file")
    new = patch.value if patch.verbatim else scalar(patch.value, parent.flow_style, value.style)
    return text[: value.start_mark.index] + new + text[value.end_mark.index :]


def _add(text: str, mapping: yaml.MappingNode, key: str, value: str, verbatim: bool) -> str:
    entry = f"{key}: {value if verbatim else scalar(value, mapping.flow_style, None)}"
    if mapping.flow_style:
        if not mapping.value:  # '{}'
            at = mapping.end_mark.index - 1
            return text[:at] + entry + text[at:]
        at = mapping.value[-1][1].end_mark.index
        return text[:at] + ", " + entry + text[at:]
    if not mapping.value:
        raise Unexpressible("an empty block mapping")
    first = mapping.value[0][0]
    indent = " " * first.start_mark.column
    last = mapping.value[-1][1]
    end = last.end_mark.index
    line_end = text.find("\n", end if text[end - 1 : end] != "\n" else end - 1)
    if line_end == -1:
        return text + ("" if text.endswith("\n") else "\n") + indent + entry + "\n"
    return text[: line_end + 1] + indent + entry + "\n" + text[line_end + 1 :]


def _remove(text: str, mapping: yaml.MappingNode, pair: tuple[yaml.Node, yaml.Node]) -> str:
    key, value = pair
    start, end = key.start_mark.index, value.end_mark.index
    if mapping.flow_style:
        before = text.rfind(",", 0, start)
        if before > mapping.start_mark.index:  # ', key: value'
            return text[:before] + text[end:]
        after = re.compile(r"\s*,\s*").match(text, end)  # the first: 'key: value, '
        return text[:start] + text[after.end() if after else end :]
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip():
        raise Unexpressible("the key shares its line with another")
    line_end = text.find("\n", end - 1 if text[end - 1 : end] == "\n" else end)
    return text[:line_start] + text[line_end + 1 if line_end != -1 else len(text) :]


_FLOW_UNSAFE = re.compile(r"[,\[\]{}]")
_PLAIN_START = re.compile(r"^(?:[,\[\]{}#&*!|>'\"%@`]|[-?:](?:\s|$))")


def scalar(value: str, flow: bool, style: str | None) -> str:
    """`value` written so that it loads back as exactly that text: in the style it had where that
    can hold it, else plain where plain can, else double-quoted."""
    if style == "'" and "\n" not in value and value.isprintable():
        return single_quoted(value)
    if style != '"' and _plain_ok(value, flow):
        return value
    return double_quoted(value)  # U+0085 and the like escaped: they read back as themselves


def _plain_ok(value: str, flow: bool) -> bool:
    if not value or value != value.strip() or not value.isprintable() or _PLAIN_START.match(value):
        return False
    if (
        ": " in value
        or " #" in value
        or value.endswith(":")
        or (flow and _FLOW_UNSAFE.search(value))
    ):
        return False
    try:  # a plain scalar that would load as a number, a boolean or null is not this text
        loaded = yaml.load("{k: " + value + "}" if flow else "k: " + value, Loader=_Loader)
    except yaml.YAMLError:
        return False
    return isinstance(loaded, dict) and loaded.get("k") == value

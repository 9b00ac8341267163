"""Turn a card file's text and value changes into new text that differs only where the values do:
each scalar replaced in its own source span, in its own quoting style where it can be, so comments,
key order, blank lines and anchors stay as they were; a card written inside { } edited as a flow
mapping (`, key: value` added, a value over several lines double-quoted)."""

from __future__ import annotations

import re
from typing import Any

from .yamlemit import _block_ok, block, double_quoted, flow_list, inline, yaml_float
from .yamllocate import CardNode, FieldNode, Located, locate
from .yamltext import _BREAK

__all__ = ["Editor", "Located", "CardNode", "FieldNode", "Unexpressible", "locate", "new_file"]
__all__ += ["inline", "double_quoted", "flow_list", "yaml_float"]


class Unexpressible(Exception):
    """This edit cannot be made in place (a flow mapping, an alias, a nested value)."""


class Editor:
    """Edits of one located card file, applied at once (edits must not overlap)."""

    def __init__(self, located: Located) -> None:
        self.at = located
        self.edits: list[tuple[int, int, str]] = []

    def _add(self, start: int, end: int, new: str) -> None:
        self.edits.append((start, end, new))

    def result(self) -> str:
        text = self.at.text
        # from the end backwards; insertions at one place keep the order they were made in
        order = sorted(range(len(self.edits)), key=lambda i: (*self.edits[i][:2], i), reverse=True)
        for start, end, new in (self.edits[i] for i in order):
            text = text[:start] + new + text[end:]
        return text

    def replace(self, card: CardNode, key: str, value: Any) -> tuple[int, int]:
        """Replace a field's value in place; (line, column) of the value."""
        node = card.fields[key]
        if node.shared:
            raise Unexpressible("it is written with an anchor, alias or tag")
        if card.flow:
            self._flow_replace(node, value)
        elif isinstance(value, list):
            self._replace_list(card, node, value)
        elif node.kind != "scalar":
            raise Unexpressible("it holds a nested value")
        else:
            self._replace_scalar(card, node, value)
        return node.line, node.column

    def _replace_scalar(self, card: CardNode, node: FieldNode, value: Any) -> None:
        nl, at = self.at.newline, self.at
        text = value if isinstance(value, str) else None
        was_block = node.style in ("|", ">")
        content_indent = card.key_indent + 2
        if was_block:
            end, content_indent = self._block_end(node)
        else:
            end = node.end
        wants_block = text is not None and ("\n" in text or (was_block and _block_ok(text)))
        if wants_block and text is not None and _block_ok(text):
            header, lines = block(text, content_indent, nl)
            if was_block:
                self._add(node.start, end, header + nl + "".join(ln + nl for ln in lines))
                return
            rest = at.text[end : at.line_end(end)]
            if rest.strip() and not rest.strip().startswith("#"):
                self._add(node.start, end, double_quoted(text))
                return
            self._add(node.start, at.line_end(end), header + rest + nl + nl.join(lines))
            return
        style = node.style if node.style in ("'", '"', "") else ""
        written = inline(value, style)
        self._add(node.start, end, written + (nl if was_block else ""))

    def _flow_replace(self, node: FieldNode, value: Any) -> None:
        """A value inside { }: in a style a flow mapping holds (a list as `[a, b]`, a text over
        several lines double-quoted)."""
        if node.kind == "map" or not node.items_scalar:
            raise Unexpressible("it holds a nested value")
        self._add(node.start, node.end, _flow_value(value, node.style or ""))

    def _block_end(self, node: FieldNode) -> tuple[int, int]:
        """Where a block scalar's content really ends (its span also takes the blank and comment
        lines after it), and its content's indentation."""
        at = self.at
        line0 = at.loc(node.start)[0]  # 1-based header line = index of the first content line
        last = at.next_line(node.start)
        indent = None
        keep = node.style == "|" and at.text[node.start : at.line_end(node.start)].find("+") >= 0
        i = line0
        while i < len(at.line_starts) and at.line_starts[i] < node.end:
            start = at.line_starts[i]
            line = at.text[start : at.line_end(start)]
            if line.strip():
                width = len(line) - len(line.lstrip(" "))
                if indent is None:
                    indent = width
                if width < indent:
                    break
                last = at.next_line(start)
            elif keep:
                last = at.next_line(start)
            i += 1
        return last, indent or 2

    def _replace_list(self, card: CardNode, node: FieldNode, values: list[Any]) -> None:
        if node.kind == "map" or not node.items_scalar:
            raise Unexpressible("it holds a nested value")
        if node.kind == "scalar":  # 'kinds: Spell' becoming a list, or an empty value
            self._add(node.start, node.end, flow_list(values))
            return
        if node.flow or not values:
            self._add(node.start, node.end, flow_list(values))
            return
        indent = " " * (self.at.loc(node.start)[1] - 1)
        end = node.items[-1][1] if node.items else node.end
        self._add(
            node.start,
            end,
            (self.at.newline + indent).join(f"- {inline(v, '')}" for v in values),
        )

    def remove(self, card: CardNode, key: str) -> tuple[int, int]:
        """Delete a field (key and value) from a block mapping."""
        node = card.fields[key]
        if node.shared:
            raise Unexpressible("it is written with an anchor, alias or tag")
        at = self.at
        keys = sorted(card.fields.values(), key=lambda f: f.key_start)
        if len(keys) == 1:
            raise Unexpressible("it is the card's only field")
        if card.flow:  # 'key: value, ' up to the next key, or the last one's ', key: value'
            n = keys.index(node)
            if n + 1 < len(keys):
                self._add(node.key_start, keys[n + 1].key_start, "")
            else:
                self._add(keys[n - 1].end, node.end, "")
            return node.key_line, at.loc(node.key_start)[1]
        end = self._value_end(node)
        if keys[0] is node:  # on the '- ' line: the next key moves up to take its place
            self._add(node.key_start, keys[1].key_start, "")
        else:
            line_start = at.line_starts[node.key_line - 1]
            self._add(line_start, at.next_line(end) if end > line_start else end, "")
        return node.key_line, at.loc(node.key_start)[1]

    def _value_end(self, node: FieldNode) -> int:
        if node.kind == "scalar" and node.style in ("|", ">"):
            return self._block_end(node)[0] - 1
        if node.kind == "seq" and not node.flow and node.items:
            return node.items[-1][1]
        return node.end

    def add(self, card: CardNode, key: str, value: Any, after: str | None) -> tuple[int, int]:
        """A new field after the field `after` (else after the card's first field)."""
        keys = sorted(card.fields.values(), key=lambda f: f.key_start)
        if not keys:
            raise Unexpressible("the card has no fields")
        prev = card.fields.get(after) if after else None
        prev = prev or keys[0]
        if prev.shared:
            prev = keys[0]
        at = self.at
        if card.flow:  # ', key: value' after the value inside { }
            self._add(prev.end, prev.end, f", {_flow_entry(key, value)}")
            line, col = at.loc(prev.end)
            return line, col + 2
        pos = at.next_line(self._value_end(prev))
        lead = at.newline if pos >= len(at.text) and not at.text.endswith(("\n", "\r")) else ""
        self._add(pos, pos, lead + self.field_text(key, value, card.key_indent) + at.newline)
        return _lines(at.text[:pos] + lead), card.key_indent + 1

    def add_first(self, card: CardNode, key: str, value: Any) -> tuple[int, int]:
        """A new field before the card's first one (an `id:` heading the card)."""
        keys = sorted(card.fields.values(), key=lambda f: f.key_start)
        if not keys:
            raise Unexpressible("the card has no fields")
        first = keys[0]
        if card.flow:
            self._add(first.key_start, first.key_start, f"{_flow_entry(key, value)}, ")
            return first.key_line, self.at.loc(first.key_start)[1]
        pad = " " * card.key_indent
        text = self.field_text(key, value, card.key_indent).removeprefix(pad)
        self._add(first.key_start, first.key_start, text + self.at.newline + pad)
        return first.key_line, card.key_indent + 1

    def field_text(self, key: str, value: Any, indent: int) -> str:
        """'key: value' (a block scalar or list continuing on the following lines)."""
        nl = self.at.newline
        pad = " " * indent
        name = inline(key, "")
        if isinstance(value, list):
            return f"{pad}{name}: {flow_list(value)}"
        if isinstance(value, str) and "\n" in value and _block_ok(value):
            header, lines = block(value, indent + 2, nl)
            return f"{pad}{name}: {header}" + "".join(nl + ln for ln in lines)
        return f"{pad}{name}: {inline(value, '')}"

    def append_cards(self, cards: list[list[tuple[str, Any]]]) -> None:
        """New cards at the end of the file, in the file's own layout (blank lines between cards
        when it has them)."""
        at = self.at
        nl = at.newline
        pad = " " * at.item_indent
        blank = nl if _spaced(at) else ""
        text = at.text
        out = "" if not text or text.endswith(("\n", "\r")) else nl
        for n, fields in enumerate(cards):
            lines = [self.field_text(k, v, at.item_indent + 2) for k, v in fields]
            if text.strip() or n:
                out += blank
            out += pad + "- " + lines[0].lstrip(" ") + "".join(nl + ln for ln in lines[1:]) + nl
        self._add(len(text), len(text), out)

    def remove_card(self, card: CardNode, following: CardNode | None) -> tuple[int, int]:
        """Delete a card: from its '- ' line to the next card's (or the end of the file)."""
        end = following.item_line_start if following else len(self.at.text)
        self._add(card.item_line_start, end, "")
        return card.line, self.at.item_indent + 1


def _flow_value(value: Any, style: str = "") -> str:
    """A value as it stands inside { }: plain when it reads back the same there, else quoted."""
    if isinstance(value, list):
        return flow_list(value)
    return inline(value, style if style in ("'", '"') else "", in_flow=True)


def _flow_entry(key: str, value: Any) -> str:
    return f"{inline(key, '', in_flow=True)}: {_flow_value(value)}"


def _lines(text: str) -> int:
    """The 1-based line number of the text's end."""
    return len(_BREAK.findall(text)) + 1


def _spaced(at: Located) -> bool:
    """Whether the file separates its cards by blank lines (new cards follow suit)."""
    cards = [c for c in at.cards if c is not None]
    if len(cards) < 2:
        return True
    before = at.text[: cards[1].item_line_start].rstrip(" ")
    lines = re.split(r"\r?\n", before)
    return len(lines) >= 2 and any(not ln.strip() for ln in lines[-4:-1])


def new_file(cards: list[list[tuple[str, Any]]]) -> str:
    """A new card file holding these cards."""
    editor = Editor(Located("", "\n", [], [0]))
    editor.append_cards(cards)
    return editor.result()

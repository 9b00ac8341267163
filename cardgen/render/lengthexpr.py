"""Turn a length as written ('3mm', '50% - 2mm', 'art.bottom + 1.2mm', 'max(0mm, card.h - 88mm)')
into its expression tree, parsed once per text, and say what is wrong with one without a face to
measure it on (render.geometry measures it)."""

from __future__ import annotations

import re
from typing import Any, Mapping

from ..core.units import PT_PER_UNIT, UnitError
from ..speed.memo import memo

Node = tuple[Any, ...]

# the axis each geometric key measures along: a percentage is of the parent box's width or height
AXIS: dict[str, str] = {
    "x": "h",
    "w": "h",
    "right": "h",
    "x1": "h",
    "x2": "h",
    "y": "v",
    "h": "v",
    "bottom": "v",
    "y1": "v",
    "y2": "v",
}
BUILT_IN = ("card", "trim", "bleed", "safe")  # the boxes every face has
PARTS = ("x", "y", "w", "h", "right", "bottom", "cx", "cy")
CENTRE = ("center", "centre", "middle")

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?|\.\d+)\s*(?P<unit>pt|in|mm|cm|%)?"
    r"|(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)|(?P<op>[-+*/(),]))"
)


class GeometryError(UnitError):
    """A length that cannot be read or worked out: a finding at its key (`key`, when known), never a
    crash."""

    finding_code = "template-value"

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


@memo(8192)
def parse(text: str) -> Node:
    """A length as written -> its expression tree. Raises GeometryError with the reason."""
    tokens: list[tuple[str, Any, str | None]] = []
    pos, text = 0, text.strip()
    if len(text) > 400:
        raise GeometryError(f"'{text[:40]}…' is too long for a length")
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise GeometryError(
                f"'{text[:60]}' is not a length: cannot read '{text[pos : pos + 12].strip()}'; "
                "write e.g. '3mm', '50%', '100% - 6mm' or 'art.bottom + 1mm'"
            )
        pos = m.end()
        if m.group("num") is not None:
            tokens.append(("num", float(m.group("num")), m.group("unit")))
        elif m.group("name") is not None:
            tokens.append(("name", m.group("name"), None))
        elif m.group("op") is not None:
            tokens.append(("op", m.group("op"), None))
    if not tokens:
        raise GeometryError("an empty length")
    reader = _Reader(tokens, text)
    node = reader.expr()
    if reader.i != len(tokens):
        raise GeometryError(f"'{text[:60]}' is not a length: something is left over at the end")
    return node


class _Reader:
    """A small recursive-descent reader: sums of products of numbers, lengths and names."""

    def __init__(self, tokens: list[tuple[str, Any, str | None]], text: str) -> None:
        self.tokens, self.text, self.i, self.depth = tokens, text, 0, 0

    def peek(self) -> tuple[str, Any, str | None] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take_op(self, ops: str) -> str | None:
        t = self.peek()
        if t is not None and t[0] == "op" and t[1] in ops:
            self.i += 1
            return str(t[1])
        return None

    def expr(self) -> Node:
        self.depth += 1
        if self.depth > 32:
            raise GeometryError(f"'{self.text[:40]}…' nests too deeply")
        node = self.term()
        while (op := self.take_op("+-")) is not None:
            node = ("bin", op, node, self.term())
        self.depth -= 1
        return node

    def term(self) -> Node:
        node = self.factor()
        while (op := self.take_op("*/")) is not None:
            node = ("bin", op, node, self.factor())
        return node

    def factor(self) -> Node:
        if self.take_op("-") is not None:
            return ("neg", self.factor())
        if self.take_op("+") is not None:
            return self.factor()
        if self.take_op("(") is not None:
            node = self.expr()
            if self.take_op(")") is None:
                raise GeometryError(f"'{self.text[:60]}': a '(' is never closed")
            return node
        t = self.peek()
        if t is None:
            raise GeometryError(f"'{self.text[:60]}' ends where a length or number should be")
        self.i += 1
        if t[0] == "num":
            if t[2] == "%":
                return ("pct", t[1])
            if t[2] is not None:
                return ("len", t[1] * PT_PER_UNIT[t[2]])
            return ("num", t[1])
        if t[0] == "name" and t[1] in ("min", "max") and self.take_op("(") is not None:
            args = [self.expr()]
            while self.take_op(",") is not None:
                args.append(self.expr())
            if self.take_op(")") is None:
                raise GeometryError(f"'{self.text[:60]}': {t[1]}( is never closed")
            return ("call", t[1], tuple(args))
        if t[0] == "name":
            return _name(str(t[1]), self.text)
        raise GeometryError(f"'{self.text[:60]}': '{t[1]}' where a length or number should be")


def _name(name: str, text: str) -> Node:
    box, _, part = name.partition(".")
    if part and part not in PARTS:
        raise GeometryError(
            f"'{text[:60]}': '{name}' has no part '{part}' (a box has {', '.join(PARTS)})"
        )
    if not part and box not in ("bleed", "safe"):
        raise GeometryError(
            f"'{text[:60]}': '{name}' is a box: say which part, e.g. '{name}.w' or '{name}.bottom'"
            if box in BUILT_IN
            else f"'{text[:60]}': '{name}' is no length: write a unit ('{name}mm'?) or a box's "
            "part ('art.bottom')"
        )
    return ("ref", box, part or None)


def names(node: Node) -> set[str]:
    """The boxes an expression names (built-in ones included)."""
    if node[0] == "call":
        return set().union(*(names(a) for a in node[2]))
    if node[0] == "ref":
        return {node[1]}
    if node[0] == "neg":
        return names(node[1])
    if node[0] == "bin":
        return names(node[2]) | names(node[3])
    return set()


def relative(node: Node) -> bool:
    """True when the length follows the card's size: it uses a percentage or names a box."""
    if node[0] in ("pct", "ref"):
        return True
    if node[0] == "call":
        return any(relative(a) for a in node[2])
    if node[0] == "neg":
        return relative(node[1])
    if node[0] == "bin":
        return relative(node[2]) or relative(node[3])
    return False


def check(text: Any, key: str, boxes: Mapping[str, Any] | None = None) -> str | None:
    """What is wrong with a length as written (its syntax, a box it names that does not exist, a
    percentage where there is no axis), without a face to measure it on; None when nothing is."""
    if not isinstance(text, str):
        return None
    if key in ("x", "y") and text.strip().lower() in CENTRE:
        return None
    try:
        node = parse(text)
    except GeometryError as exc:
        return str(exc)
    if key not in AXIS and _has_pct(node):
        return (
            "uses a percentage, which measures across or down a box: for a size write e.g. "
            "'card.h * 0.04'"
        )
    if boxes is not None:
        unknown = sorted(n for n in names(node) if n not in BUILT_IN and n not in boxes)
        if unknown:
            known = ", ".join([*BUILT_IN, *boxes])
            return f"names '{unknown[0]}', which is no box (boxes: {known})"
    return None


def _has_pct(node: Node) -> bool:
    if node[0] == "pct":
        return True
    if node[0] == "call":
        return any(_has_pct(a) for a in node[2])
    if node[0] == "neg":
        return _has_pct(node[1])
    if node[0] == "bin":
        return _has_pct(node[2]) or _has_pct(node[3])
    return False

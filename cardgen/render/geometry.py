"""Turn a template's written lengths ('3mm', '50% - 2mm', 'art.bottom + 1.2mm', 'card.w / 2') and
its anchors (`right:`, `bottom:`, `x: center`, `in: BOX`) into points on one face: size-relative
geometry, parsed once per text and evaluated against the face's trim, bleed, safe zone and named
boxes."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Union

from ..speed.memo import Memo
from .lengthexpr import AXIS as AXIS
from .lengthexpr import BUILT_IN as BUILT_IN
from .lengthexpr import CENTRE as CENTRE
from .lengthexpr import PARTS as PARTS
from .lengthexpr import GeometryError as GeometryError
from .lengthexpr import Node as Node
from .lengthexpr import check as check
from .lengthexpr import names as names
from .lengthexpr import parse as parse
from .lengthexpr import relative as relative

Box = tuple[float, float, float, float]  # x, y, w, h in points, trim space (y down)
Names = Mapping[str, Union[Box, float]]


@dataclass(frozen=True)
class Frame:
    """What lengths on one face are measured against: the trim's size, the bleed and safe widths
    and every named box (trim space)."""

    width: float
    height: float
    bleed: float
    safe: float
    boxes: Mapping[str, Box]

    def box(self, name: str) -> Box | None:
        if name in ("card", "trim"):
            return (0.0, 0.0, self.width, self.height)
        if name == "bleed":
            b = self.bleed
            return (-b, -b, self.width + 2 * b, self.height + 2 * b)
        if name == "safe":
            s = self.safe
            return (s, s, self.width - 2 * s, self.height - 2 * s)
        return self.boxes.get(name)


def evaluate(node: Node, frame: Frame, parent: Box, axis: str | None) -> tuple[float, bool]:
    """(value, is a length): points for a length, a plain number otherwise."""
    kind = node[0]
    if kind == "len":
        return node[1], True
    if kind == "num":
        return node[1], False
    if kind == "pct":
        if axis is None:
            raise GeometryError(
                "a percentage is of the box the element is in, across or down: it goes with x, "
                "y, w, h, right, bottom or a line's ends; for a size write e.g. 'card.h * 0.04'"
            )
        return node[1] / 100 * (parent[2] if axis == "h" else parent[3]), True
    if kind == "ref":
        return _ref(node[1], node[2], frame), True
    if kind == "neg":
        value, dim = evaluate(node[1], frame, parent, axis)
        return -value, dim
    if kind == "call":
        values = [evaluate(a, frame, parent, axis) for a in node[2]]
        dims = {d for _, d in values}
        if len(dims) > 1:
            raise GeometryError(f"{node[1]}() of lengths and plain numbers: give them all a unit")
        pick = min if node[1] == "min" else max
        return pick(v for v, _ in values), dims.pop()
    op, (a, da), (b, db) = (
        node[1],
        evaluate(node[2], frame, parent, axis),
        evaluate(node[3], frame, parent, axis),
    )
    if op in "+-":
        if da != db and not (a == 0 and not da) and not (b == 0 and not db):
            raise GeometryError("a length and a plain number cannot be added: give both a unit")
        return (a + b if op == "+" else a - b), da or db
    if op == "*":
        if da and db:
            raise GeometryError("two lengths cannot be multiplied: multiply a length by a number")
        return a * b, da or db
    if db:
        raise GeometryError("a length can be divided by a number, not by a length")
    if b == 0:
        raise GeometryError("a length divided by zero")
    return a / b, da


def _ref(box: str, part: str | None, frame: Frame) -> float:
    if part is None:
        return frame.bleed if box == "bleed" else frame.safe
    found = frame.box(box)
    if found is None:
        raise GeometryError(f"'{box}' is no box of this template (boxes: {shown_boxes(frame)})")
    x, y, w, h = found
    return {
        "x": x,
        "y": y,
        "w": w,
        "h": h,
        "right": x + w,
        "bottom": y + h,
        "cx": x + w / 2,
        "cy": y + h / 2,
    }[part]


def shown_boxes(frame: Frame) -> str:
    return ", ".join([*BUILT_IN, *frame.boxes])


def length_of(value: Any, frame: Frame, parent: Box, axis: str | None) -> float:
    """One written value (a number already in points passes) -> points."""
    if isinstance(value, float):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and value == 0:
        return 0.0
    if not isinstance(value, str):
        raise GeometryError(f"expected a length such as '3mm', got {value!r}")
    result, dim = evaluate(parse(value), frame, parent, axis)
    if not dim and result != 0:
        if re.fullmatch(r"\s*-?\d+(\.\d+)?\s*", value):
            return result  # a bare number printed by an expression: points (reported elsewhere)
        raise GeometryError(f"'{value[:60]}' works out to a number, not a length: give it a unit")
    return result


_NOWHERE = Frame(0.0, 0.0, 0.0, 0.0, {})


def absolute(value: str) -> float:
    """A length that needs no face ('52.4mm - 3mm') -> points; a relative one raises."""
    node = parse(value)
    if relative(node):
        raise GeometryError(f"'{value[:60]}' is measured on a card: it needs the face's size")
    result, dim = evaluate(node, _NOWHERE, (0.0, 0.0, 0.0, 0.0), None)
    if not dim and result != 0:
        raise GeometryError(f"'{value[:60]}' works out to a number, not a length: give it a unit")
    return result


# boxes placed, by what placing them reads (their six values as rendered, the face's frame and the
# parent): a face laid out again after a template save places its named boxes and changed elements
# without parsing their lengths again
_PLACED: Memo[Box] = Memo(20_000)
SPAN_KEYS = ("x", "w", "right", "y", "h", "bottom")  # what `place` reads of props


def place(props: Mapping[str, Any], frame: Frame, parent: Box) -> Box:
    """An element's box from what it says of it: two of x, w and right across (or `x: center` and
    w), two of y, h and bottom down; each measured in `parent`. Raises GeometryError."""
    key = (
        tuple((type(v).__name__, v) for v in (props.get(k) for k in SPAN_KEYS)),
        frame.width,
        frame.height,
        frame.bleed,
        frame.safe,
        tuple(sorted(frame.boxes.items())),
        parent,
    )
    try:
        hash(key)
    except TypeError:  # a value no memo can hold: placed as it is
        return _place(props, frame, parent)
    return _PLACED.get(key, lambda: _place(props, frame, parent))


def _place(props: Mapping[str, Any], frame: Frame, parent: Box) -> Box:
    x, w = _span(props, frame, parent, ("x", "w", "right"), parent[0], parent[2], "h")
    y, h = _span(props, frame, parent, ("y", "h", "bottom"), parent[1], parent[3], "v")
    for size, keys in ((w, ("w", "right")), (h, ("h", "bottom"))):
        if size < -0.01:
            key = next((k for k in keys if props.get(k) not in (None, "")), keys[0])
            raise GeometryError(
                f"works out to a negative {'width' if key in ('w', 'right') else 'height'} "
                f"({size * 25.4 / 72:.2f} mm) on this {frame.width * 25.4 / 72:.4g} x "
                f"{frame.height * 25.4 / 72:.4g} mm card; max(0mm, …) keeps it at zero",
                key,
            )
    return (x, y, w, h)


def _span(
    props: Mapping[str, Any],
    frame: Frame,
    parent: Box,
    keys: tuple[str, str, str],
    start: float,
    size: float,
    axis: str,
) -> tuple[float, float]:
    k0, k1, k2 = keys
    at, span, end = (props.get(k) for k in keys)
    centred = isinstance(at, str) and at.strip().lower() in CENTRE

    def read(key: str, value: Any) -> float:
        if value in (None, ""):
            return 0.0
        try:
            return length_of(value, frame, parent, axis)
        except GeometryError as exc:
            raise GeometryError(str(exc), key) from None

    given = [k for k, v in zip(keys, (at, span, end)) if v not in (None, "")]
    if len(given) == 3:
        raise GeometryError(f"{k0}, {k1} and {k2} all given: one is too many", k2)
    if centred:
        length = read(k1, span) if span not in (None, "") else size - 2 * read(k2, end)
        return start + (size - length) / 2, length
    if span in (None, "") and end not in (None, ""):  # from `x` to `right`
        offset = read(k0, at)
        return start + offset, size - offset - read(k2, end)
    length = read(k1, span)
    if at in (None, "") and end not in (None, ""):  # `w` back from `right`
        return start + size - read(k2, end) - length, length
    return start + read(k0, at), length


def point(text: Any, frame: Frame, parent: Box) -> tuple[float, float]:
    """A polygon point 'X Y' (or 'X, Y' when the parts hold spaces) -> trim space."""
    if isinstance(text, str):
        parts = text.split(",") if "," in text else text.split()
    else:
        parts = list(text)
    if len(parts) != 2:
        raise GeometryError(f"a point is 'X Y', not {str(text)[:40]!r}")
    return (
        parent[0] + length_of(parts[0], frame, parent, "h"),
        parent[1] + length_of(parts[1], frame, parent, "v"),
    )

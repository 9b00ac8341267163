"""Turn a visual edit of one element (its edges dragged by some millimetres, or one property set)
into new values of its template keys — millimetres rounded to 0.1 mm, a relative value kept
relative — and write them into the template file in place: atomic, never over an edit made on
disk meanwhile, each one undoable."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

import yaml

from ..core.errors import CardgenError
from ..core.output import write_atomic
from ..core.units import PT_PER_UNIT
from ..load.yamlpatch import Patch, Unexpressible, apply, compose, find, item_at
from ..project.studio import Studio
from ..render import geometry
from ..render.elements import ELEMENTS, LENGTH_KEYS
from ..render.values import _value_problem
from .layout import template_file

DECIMALS = {"mm": 1, "cm": 2, "in": 3, "pt": 1, "%": 2}  # about 0.1 mm, in the unit written
PT = PT_PER_UNIT  # points per unit written
_TERM = re.compile(r"(-?\d+(?:\.\d+)?|-?\.\d+)\s*(mm|cm|in|pt|%)")


class Refused(CardgenError):
    """An edit that cannot be made as asked (a computed value, a centred axis, a bad value): said
    to the page, nothing written."""

    exit_code = 2


class Conflict(CardgenError):
    """The file changed on disk since the page was built: nothing written, the page reloads."""

    exit_code = 2


@dataclass(frozen=True)
class Change:
    """One key of one element: `old` is what the page was built from (None: the key is absent),
    `new` what to write (None: remove the key)."""

    file: str
    index: int  # the element's place in its file's `elements:` list
    element_id: str
    key: str
    old: Any
    new: str | None
    verbatim: bool = False  # `new` is YAML text as it was written (an undo)
    old_text: str | None = None  # the old value as it was written, filled in when written

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "key": self.key, "old": self.old, "new": self.new}


def _fmt(value: float, unit: str) -> str:
    text = f"{round(value, DECIMALS[unit]):.{DECIMALS[unit]}f}".rstrip("0").rstrip(".")
    return f"{'0' if text in ('-0', '') else text}{unit}"


def shift(raw: Any, delta_mm: float, parent_mm: float) -> str:
    """`raw` moved by `delta_mm`: a length in its own unit, a percentage of the parent box kept a
    percentage, an expression's last constant term changed (or one added)."""
    if raw in (0, "0", None, ""):
        raw = "0mm"
    if not isinstance(raw, str):
        raise Refused(f"{raw!r} is not a length the inspector can change")
    text = raw.strip()
    if "{{" in text or "{%" in text:
        raise Refused("computed by a Jinja2 expression: change it in the template file")
    if text.lower() in geometry.CENTRE:
        raise Refused("centred: change it in the template file, or set a position")
    try:
        geometry.parse(text)
    except geometry.GeometryError as exc:
        raise Refused(str(exc)) from None
    lone = _TERM.fullmatch(text)
    if lone:
        value, unit = float(lone.group(1)), lone.group(2)
        if unit == "%":
            if parent_mm <= 0:
                raise Refused("a percentage of an empty box")
            return _fmt(value + delta_mm / parent_mm * 100, "%")
        return _fmt(value + delta_mm * PT["mm"] / PT[unit], unit)
    return _shift_expression(text, delta_mm)


def _shift_expression(text: str, delta_mm: float) -> str:
    """'art.bottom + 1mm' moved 0.5 mm -> 'art.bottom + 1.5mm'; '100% - 6mm' -> '100% - 5.5mm'."""
    depth, last = 0, None
    for m in re.finditer(
        r"[()]|(?P<op>[+-])\s*(?P<num>\d+(?:\.\d+)?|\.\d+)\s*(?P<unit>mm|cm|in|pt)"
        r"(?=\s*(?:[+-]|$|\)))",
        text,
    ):
        if m.group(0) == "(":
            depth += 1
        elif m.group(0) == ")":
            depth -= 1
        elif depth == 0 and _standalone(text, m.start()):
            last = m
    if last is None:
        sign = "+" if delta_mm >= 0 else "-"
        return f"{text} {sign} {_fmt(abs(delta_mm), 'mm')}"
    unit = last.group("unit")
    signed = float(last.group("num")) * (-1 if last.group("op") == "-" else 1)
    value = signed + delta_mm * PT["mm"] / PT[unit]
    written = _fmt(abs(value), unit)
    if written == f"0{unit}":
        return (text[: last.start()].rstrip() + text[last.end() :]).strip()
    return f"{text[: last.start()]}{'-' if value < 0 else '+'} {written}{text[last.end() :]}"


def _standalone(text: str, at: int) -> bool:
    """A '+ 3mm' that is a term of the sum, not a factor ('2 * + 3mm' is not written in practice,
    but '… * 2 + 3mm' is a term)."""
    before = text[:at].rstrip()
    return bool(before) and before[-1] not in "*/(+-"


@dataclass
class Edit:
    """What the page asks: move or resize by edges ({left, top, right, bottom} in millimetres,
    positive to the right and down) or set keys to values."""

    edges: dict[str, float] = field(default_factory=dict)
    values: dict[str, str] = field(default_factory=dict)


def plan(entry: dict[str, Any], edit: Edit, boxes: list[str], fonts: list[str]) -> list[Change]:
    """The key changes an edit of one element (as the inspector's layout shows it) makes."""
    keys = entry["keys"]
    where = (entry["file"], entry["n"])
    changes: dict[str, str | None] = {}
    if edit.edges:
        if "box" in keys:
            raise Refused(
                f"'{entry['id'] or entry['type']}' fills the box '{keys['box']['raw']}': change "
                "the box under boxes:, or give the element its own x, y, w, h"
            )
        if entry["type"] == "polygon":
            raise Refused("a polygon's points are changed in the template file")
        for axis, (lo, hi) in (("h", ("left", "right")), ("v", ("top", "bottom"))):
            a, b = float(edit.edges.get(lo, 0.0)), float(edit.edges.get(hi, 0.0))
            if a or b:
                changes.update(_axis(entry, axis, a, b))
    for key, value in edit.values.items():
        problem = _problem(entry, key, value, boxes, fonts)
        if problem:
            raise Refused(f"{key}: {problem}")
        changes[key] = value
    return [
        Change(
            where[0],
            -1,
            entry["id"],
            keys[key].get("key", key) if key in keys else key,  # the edition's 'text@fr'
            keys[key]["raw"] if key in keys else None,
            new,
        )
        for key, new in changes.items()
        if not (key in keys and str(keys[key]["raw"]) == new)
    ]


def _axis(entry: dict[str, Any], axis: str, a: float, b: float) -> dict[str, str | None]:
    """One axis of an edges edit: the near edge moved `a`, the far edge `b` millimetres."""
    keys = entry["keys"]
    if entry["type"] == "line":
        k1, k2 = ("x1", "x2") if axis == "h" else ("y1", "y2")
        parent = float(entry["parent"][2 if axis == "h" else 3])
        return {k: shift(_raw(keys, k), a, parent) for k in (k1, k2)}
    at, span, end = ("x", "w", "right") if axis == "h" else ("y", "h", "bottom")
    for k in (at, span, end):
        if k in keys and keys[k]["computed"]:
            raise Refused(f"'{k}' is computed by a Jinja2 expression: change it in the file")
    parent = float(entry["parent"][2 if axis == "h" else 3])
    centred = at in keys and str(keys[at]["raw"]).strip().lower() in geometry.CENTRE
    out: dict[str, str | None] = {}
    if centred:  # resized about its centre, which stays: one edge dragged widens both sides
        if abs(b - a) < 1e-9:  # moved, not resized
            raise Refused(f"centred ({at}: center): set {at} to a length to move it")
        if span in keys:
            out[span] = shift(_raw(keys, span), b - a, parent)
        else:
            out[end] = shift(_raw(keys, end), -b, parent)
        return out
    if at in keys:
        out[at] = shift(_raw(keys, at), a, parent)
        if span in keys:
            if b != a:
                out[span] = shift(_raw(keys, span), b - a, parent)
        elif end in keys:
            out[end] = shift(_raw(keys, end), -b, parent)
    else:  # placed back from the far edge
        out[end] = shift(_raw(keys, end), -b, parent)
        if b != a and span in keys:
            out[span] = shift(_raw(keys, span), b - a, parent)
    return {k: v for k, v in out.items() if not (k in keys and str(keys[k]["raw"]) == v)}


def _raw(keys: dict[str, Any], key: str) -> Any:
    return keys[key]["raw"] if key in keys else "0mm"


def _problem(
    entry: dict[str, Any], key: str, value: str, boxes: list[str], fonts: list[str]
) -> str | None:
    if key not in ELEMENTS.get(entry["type"], set()) or key in ("type", "id", "when"):
        return f"a {entry['type']} element has no '{key}' the inspector can set"
    if key in entry["keys"] and entry["keys"][key]["computed"] and "{{" not in value:
        pass  # replacing a computed value by a constant is the designer's call
    if "{{" in value or "{%" in value:
        return "write expressions in the template file"
    if key in ("font", "label_font"):
        return (
            None if value in fonts else f"no font family '{value}' (families: {', '.join(fonts)})"
        )
    if key in ("box", "in"):
        return None if value in boxes else f"no box '{value}' (boxes: {', '.join(boxes)})"
    if key in LENGTH_KEYS:
        return geometry.check(value, key, dict.fromkeys(boxes)) or _value_problem(key, value)
    return _value_problem(key, value)


class Writer:
    """Writes the inspector's changes into template files, one at a time, and keeps them for undo
    (the last 50)."""

    def __init__(self, studio_root: Any) -> None:
        self.root = studio_root
        self.lock = threading.Lock()
        self.done: list[list[Change]] = []

    def write(self, studio: Studio, entry: dict[str, Any], changes: list[Change]) -> list[Change]:
        with self.lock:
            written = self._write(studio, entry, changes)
            if written:
                self.done = (self.done + [written])[-50:]
            return written

    def undo(self, studio: Studio) -> list[Change]:
        with self.lock:
            if not self.done:
                raise Refused("nothing to undo")
            last = self.done[-1]
            back = [
                Change(c.file, c.index, c.element_id, c.key, c.new, c.old_text, True) for c in last
            ]
            entry = {"file": last[0].file, "n": -1, "id": last[0].element_id}
            self._write(studio, entry, back, index=last[0].index)
            self.done.pop()
            return back

    def _write(
        self,
        studio: Studio,
        entry: dict[str, Any],
        changes: list[Change],
        index: int | None = None,
    ) -> list[Change]:
        if not changes:
            return []
        path = template_file(studio, changes[0].file)
        text = path.read_text(encoding="utf-8")
        if index is None:
            index = item_at(text, ("elements",), entry["line"], entry["column"])
        node = find(compose(text), ("elements", index)) if index is not None else None
        if index is None or node is None or not _same_element(node, entry):
            raise Conflict(
                f"{changes[0].file}: the element '{entry.get('id') or entry.get('type')}' is no "
                "longer where the page saw it (the file was edited): reload the page"
            )
        for c in changes:
            current = _current(node, c.key)
            if not _equal(current, c.old):
                raise Conflict(
                    f"{c.file}: '{c.key}' is {current!r} on disk now, not {c.old!r} as the page "
                    "showed: nothing written; the page reloads with the file as it is"
                )
        patches = [
            Patch(("elements", index, c.key), c.new, c.verbatim or _plain(c.key, c.new))
            for c in changes
        ]
        try:
            new = apply(text, patches)
        except Unexpressible as exc:
            raise Refused(f"cannot write it in place: {exc}") from None
        if path.read_text(encoding="utf-8") != text:  # saved by someone else just now
            raise Conflict(f"{changes[0].file} was saved meanwhile: nothing written; try again")
        write_atomic(path, new)
        return [
            Change(
                c.file, index, c.element_id, c.key, c.old, c.new, False, _written(node, c.key, text)
            )
            for c in changes
        ]


def _same_element(node: yaml.Node, entry: dict[str, Any]) -> bool:
    if not isinstance(node, yaml.MappingNode):
        return False
    values = {k.value: v for k, v in node.value}
    for key in ("id", "type"):
        want = entry.get(key)
        if want and (key not in values or getattr(values[key], "value", None) != want):
            return False
    return True


def _current(node: yaml.MappingNode, key: str) -> Any:
    for k, v in node.value:
        if k.value == key:
            return v.value if isinstance(v, yaml.ScalarNode) else v
    return None


def _equal(current: Any, old: Any) -> bool:
    if old is None or current is None:
        return old is None and current is None
    if str(current) == str(old):
        return True
    try:
        return bool(yaml.safe_load(str(current)) == old)
    except yaml.YAMLError:
        return False


def _written(node: yaml.MappingNode, key: str, text: str) -> str | None:
    """The key's value exactly as written before the edit (what an undo puts back)."""
    for k, v in node.value:
        if k.value == key:
            return text[v.start_mark.index : v.end_mark.index]
    return None


_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def _plain(key: str, value: str | None) -> bool:
    """A number for a key that takes one (leading, opacity, max_lines) is written as a number."""
    from ..render.values import NUMBER_KEYS, WHOLE_KEYS

    return (
        value is not None
        and key in {**NUMBER_KEYS, **WHOLE_KEYS}
        and bool(_NUMBER.fullmatch(value))
    )

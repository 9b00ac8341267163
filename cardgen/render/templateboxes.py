"""Turn a template's `boxes:` (named boxes such as the art window, each placed like an element,
relative to the card or to another box) into checked specs, and a template into what its
geometry says without a card: the fixed boxes of its elements, and whether it was laid out for
another card size (`template-size-mismatch`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from ..core.errors import Finding, Severity, did_you_mean
from ..core.units import CARD_SIZES, mm_text, size_name
from ..load.yamlio import LocDict
from . import geometry
from .elements import AXES, Element, Value, _axis, _checked, _length_problem

BOX_KEYS = {"x", "y", "w", "h", "right", "bottom", "in"}
GEOMETRY_KEYS = ("x", "y", "w", "h", "right", "bottom")
NAME = re.compile(r"^[A-Za-z_]\w{0,39}$")
Bad = Callable[..., None]


class Template(Protocol):
    """What these checks read of a template (render.template.Template)."""

    name: str
    file: str
    size: tuple[float, float]
    bleed: float
    safe: float
    elements: list[Element]
    guessed: tuple[str, ...]
    boxes: dict[str, BoxSpec]
    written_sizes: dict[str, tuple[float, float]]


@dataclass
class BoxSpec:
    """A named box: where it is (x, y, w, h, right, bottom, as an element says it) and in which
    box (`in`, default the trim)."""

    name: str
    props: dict[str, Value]
    parent: str = "trim"
    file: str = ""
    line: int = 0
    column: int = 0
    at: dict[str, tuple[int, int]] = field(default_factory=dict)


def read_boxes(raw: LocDict, base: dict[str, BoxSpec], name: str, bad: Bad) -> dict[str, BoxSpec]:
    """The template's boxes: the parent's, then its own in order (one may be in an earlier one); a
    box of the same name replaces the parent's."""
    boxes = dict(base)
    written = raw.get("boxes")
    if written is None:
        return boxes
    if not isinstance(written, LocDict):
        bad(raw.key_loc("boxes"), "template-type", "'boxes' must be a mapping of names to boxes")
        return boxes
    for key, spec in written.items():
        loc = written.key_loc(key)
        if not isinstance(key, str) or not NAME.match(key) or key in geometry.BUILT_IN:
            bad(
                loc,
                "template-value",
                f"box name {str(key)[:40]!r}: "
                + (
                    f"'{key}' is built in"
                    if key in geometry.BUILT_IN
                    else "a name of letters, digits and _ (art, text_box)"
                ),
            )
            continue
        if not isinstance(spec, LocDict):
            bad(loc, "template-type", f"box '{key}' must be a mapping: {{x: 4mm, y: 12mm, …}}")
            continue
        box = _box(key, spec, loc, boxes, name, bad)
        if box is not None:
            boxes[key] = box
    return boxes


def _box(
    key: str, spec: LocDict, loc: tuple[int, int], boxes: dict[str, BoxSpec], name: str, bad: Bad
) -> BoxSpec | None:
    props: dict[str, Value] = {}
    for k, value in spec.items():
        kloc = spec.key_loc(k)
        if k not in BOX_KEYS:
            hint = did_you_mean(k, sorted(BOX_KEYS))
            bad(kloc, "template-unknown-key", f"box has no '{k}'", hint)
            continue
        if k == "in":
            continue
        if isinstance(value, str) and "{{" not in value or not isinstance(value, str):
            problem = _length_problem(k, value) or _unknown_box(value, boxes)
            if problem:
                bad(kloc, "template-unit", f"box '{key}': '{k}': {problem}")
                continue
        props[k] = _checked(value, bad, kloc)
    parent = spec.get("in", "trim")
    if not isinstance(parent, str) or (parent not in geometry.BUILT_IN and parent not in boxes):
        bad(
            spec.key_loc("in"),
            "template-value",
            f"box '{key}' is in {str(parent)[:40]!r}, which is no box defined before it",
            did_you_mean(str(parent), [*geometry.BUILT_IN, *boxes]),
        )
        parent = "trim"
    missing = [a for a in (_axis(spec, AXES[0]), _axis(spec, AXES[1])) if a]
    if missing:
        bad(loc, "template-missing", f"box '{key}' needs {' and '.join(missing)}")
        return None
    at = {str(k): spec.key_loc(k) for k in spec}
    return BoxSpec(key, props, parent, name, loc[0], loc[1], at)


def _unknown_box(value: Any, boxes: dict[str, Any]) -> str | None:
    """A constant length naming a box that is not defined (yet)."""
    return geometry.check(value, "x", boxes) if isinstance(value, str) else None


def unknown_boxes(element: Element, boxes: dict[str, BoxSpec], bad: Bad) -> None:
    """An element's `in:`, `box:` and constant lengths may name only the built-in boxes and the
    template's own; a name that is none is an error at its key (the element is placed in the
    trim meanwhile)."""
    names = [*geometry.BUILT_IN, *boxes]
    for key in ("in", "box"):
        value = element.props.get(key)
        if value is None or value.compiled is not None:
            continue
        if not isinstance(value.raw, str) or value.raw not in names:
            bad(
                element.at.get(key, (element.line, element.column)),
                "template-value",
                f"element '{element.id or element.type}': {key} names {str(value.raw)[:40]!r}, "
                "which is no box",
                did_you_mean(str(value.raw), names) or f"boxes: {', '.join(names)}",
            )
            del element.props[key]
    for key, value in list(element.props.items()):
        if key in GEOMETRY_KEYS + ("x1", "y1", "x2", "y2") and value.compiled is None:
            problem = _unknown_box(value.raw, boxes)
            if problem:
                bad(
                    element.at.get(key, (element.line, element.column)),
                    "template-unit",
                    f"element '{element.id or element.type}': '{key}': {problem}",
                )
                del element.props[key]


def fixed_frame(template: Template) -> geometry.Frame:
    """The template's frame with every box whose place is written as constants (a box with a
    Jinja2 value is left out: it is known only per card)."""
    w, h = template.size
    resolved: dict[str, geometry.Box] = {}
    frame = geometry.Frame(w, h, template.bleed, template.safe, resolved)
    for spec in template.boxes.values():
        if any(v.compiled is not None for v in spec.props.values()):
            continue
        parent = frame.box(spec.parent)
        if parent is None:
            continue
        try:
            resolved[spec.name] = geometry.place(
                {k: v.raw for k, v in spec.props.items()}, frame, parent
            )
        except geometry.GeometryError:
            continue  # reported where it is written
    return frame


def fixed_box(element: Element, frame: geometry.Frame) -> geometry.Box | None:
    """An element's box when everything placing it is written as constants; None otherwise (a
    line or polygon, a Jinja2 value, a box known only per card)."""
    props = element.props
    if any(props[k].compiled is not None for k in ("in", "box") if k in props):
        return None
    if "box" in props:
        return frame.box(str(props["box"].raw))
    if element.type in ("line", "polygon"):
        return None
    if any(props[k].compiled is not None for k in GEOMETRY_KEYS if k in props):
        return None
    parent = frame.box(str(props["in"].raw)) if "in" in props else frame.box("trim")
    if parent is None:
        return None
    try:
        return geometry.place({k: props[k].raw for k in GEOMETRY_KEYS if k in props}, frame, parent)
    except (geometry.GeometryError, ValueError, TypeError):
        return None


def absolute(element: Element) -> bool:
    """True when the element is placed in millimetres from the trim's top-left corner alone: the
    geometry that stays put when the card's size changes."""
    props = element.props
    if "box" in props or "in" in props or "right" in props or "bottom" in props:
        return False
    for key in ("x", "y", "w", "h"):
        raw = props[key].raw if key in props else None
        if not isinstance(raw, str):
            continue
        if raw.strip().lower() in geometry.CENTRE:
            return False
        try:
            if geometry.relative(geometry.parse(raw)):
                return False
        except geometry.GeometryError:
            return False
    return True


MISMATCH = 0.12  # an empty band of more than 12 % of the card across or down


def size_mismatch(template: Template) -> Finding | None:
    """A template whose elements, placed in millimetres from the corner, were laid out for a card
    of another size: the file that writes them names another size, or they reach well short of
    this card's right or bottom edge (to another card size's outline), or past it. Size-relative
    elements (%, right:/bottom:, boxes) follow the card: an axis they are used on is not judged."""
    if "size" in template.guessed:
        return None
    frame = fixed_frame(template)
    w, h = template.size
    boxes: list[geometry.Box] = []
    first: Element | None = None
    for e in template.elements:
        if e.type in ("line", "polygon") or not absolute(e):
            continue
        written = template.written_sizes.get(e.file)
        box = fixed_box(e, frame)
        if box is None or box[2] <= 0 or box[3] <= 0:
            continue
        if written is not None and not _same(written, template.size):
            return _finding(template, e, f"{e.file} is laid out for {size_name(written)}", True)
        # a file that names this very size is judged by its elements too: numbers copied from a
        # poker front into a file that says tarot reach a poker card's outline
        boxes.append(box)
        first = first or e
    if not boxes or first is None:
        return None
    right = max(b[0] + b[2] for b in boxes)
    bottom = max(b[1] + b[3] for b in boxes)
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    if (right - left) < 0.5 * w or (bottom - top) < 0.5 * h:
        return None  # a few small elements in a corner: not a layout of the whole card
    across, down = _relative_axes(template)
    short = (not across and w - right > MISMATCH * w) or (not down and h - bottom > MISMATCH * h)
    over = (not across and right > w + template.bleed + 0.5) or (
        not down and bottom > h + template.bleed + 0.5
    )
    laid = _nearest_size(right, bottom, template.bleed)
    if laid is None or laid.startswith(size_name(template.size).split(" ")[0] + " "):
        short = False  # an empty band, but not a known card's outline: a design of its own
    if not (short or over):
        return None
    said = f"its elements, placed in millimetres from the corner, reach {mm_text(right)} x " + (
        f"{mm_text(bottom)} mm" + (f": it looks laid out for {laid}" if laid else "")
    )
    return _finding(template, first, said, short)


def _finding(template: Template, e: Element, said: str, short: bool) -> Finding:
    here = e.file == template.file
    return Finding(
        template.file,
        e.line if here else 1,
        e.column if here else 1,
        Severity.WARNING,
        "template-size-mismatch",
        None,
        f"template '{template.name}' is used at {size_name(template.size)}, but {said}"
        + (", leaving an empty band" if short else ", past the card's edge"),
        "make it size-relative (x: 50%, w: 100% - 6mm, bottom: 4mm, named boxes: "
        "docs/templates.md), or place its elements for this size",
    )


def _same(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < 0.5 and abs(a[1] - b[1]) < 0.5


def _relative_axes(template: Template) -> tuple[bool, bool]:
    """Whether any element places itself relative to the card's size across, and down."""
    across = down = False
    for e in template.elements:
        if "box" in e.props or absolute(e):
            continue
        keys = set(e.props)
        across |= bool(keys & {"right", "in"}) or _relative_key(e, ("x", "w"))
        down |= bool(keys & {"bottom", "in"}) or _relative_key(e, ("y", "h"))
    return across, down


def _relative_key(e: Element, keys: tuple[str, str]) -> bool:
    for key in keys:
        raw = e.props[key].raw if key in e.props else None
        if not isinstance(raw, str):
            continue
        if raw.strip().lower() in geometry.CENTRE:
            return True
        try:
            if geometry.relative(geometry.parse(raw)):
                return True
        except geometry.GeometryError:
            continue
    return False


def _nearest_size(right: float, bottom: float, bleed: float) -> str | None:
    """The known card size whose trim the elements fit (up to the bleed), if any."""
    best = None
    for name, (kw, kh) in CARD_SIZES.items():
        if kw - 6 * 72 / 25.4 <= right <= kw + bleed + 0.5 and kh - 6 * 72 / 25.4 <= bottom <= (
            kh + bleed + 0.5
        ):
            score = min(abs(kw - right), abs(kw + bleed - right)) + min(
                abs(kh - bottom), abs(kh + bleed - bottom)
            )  # an element reaching into the bleed ends at the trim plus the bleed
            if best is None or score < best[0]:
                best = (score, f"{name} ({mm_text(kw)} x {mm_text(kh)} mm)")
    return best[1] if best else None

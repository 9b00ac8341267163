"""Turn template element mappings into checked Elements (constants or compiled Jinja2)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from jinja2 import ChainableUndefined, TemplateError

from ..core.errors import did_you_mean
from ..core.sandbox import BUDGET, LimitedSandbox
from ..core.units import UnitError, length
from ..load.yamlio import LocDict
from ..model.editions import split_key
from ..speed.memo import memo
from . import geometry

COMMON = {"id", "type", "when", "x", "y", "w", "h", "right", "bottom", "in", "box", "opacity"}
ELEMENTS: dict[str, set[str]] = {
    "rect": COMMON | {"fill", "stroke", "stroke_width", "radius", "clip_bleed"},
    "circle": COMMON | {"fill", "stroke", "stroke_width"},
    "polygon": {"id", "type", "when", "in", "points", "fill", "stroke", "stroke_width", "opacity"},
    "line": {
        "id",
        "type",
        "when",
        "in",
        "x1",
        "y1",
        "x2",
        "y2",
        "stroke",
        "stroke_width",
        "opacity",
    },
    "text": COMMON
    | {
        "text",
        "flavor",
        "font",
        "size",
        "min_size",
        "leading",
        "min_leading",
        "align",
        "valign",
        "max_lines",
        "color",
        "rich",
        "rule_color",
        "tracking",
    },
    "icons": COMMON | {"cost", "size", "align", "gap", "outline"},
    "image": COMMON | {"src", "fit", "radius"},
    "badge": COMMON
    | {
        "shape",
        "fill",
        "stroke",
        "stroke_width",
        "text",
        "font",
        "size",
        "color",
        "label",
        "label_font",
        "label_size",
    },
}
LENGTH_KEYS = {
    "x",
    "y",
    "w",
    "h",
    "right",
    "bottom",
    "x1",
    "y1",
    "x2",
    "y2",
    "size",
    "min_size",
    "stroke_width",
    "radius",
    "gap",
    "label_size",
    "tracking",
}
_env = LimitedSandbox(undefined=ChainableUndefined, autoescape=False, keep_trailing_newline=False)


@dataclass
class Value:
    """A template value: a constant, or a Jinja2 template rendered per card."""

    raw: Any
    compiled: Any = None
    lookup: tuple[str, str] | None = None  # '{{ card.name }}' / '{{ vars.frame }}': read directly

    def get(self, ctx: dict[str, Any]) -> Any:
        if (
            self.lookup is not None
        ):  # what Jinja2 would print: str() of the value, '' when it is absent
            value = ctx[self.lookup[0]].get(self.lookup[1], "")
            return str(value)
        if self.compiled is None:
            return self.raw
        budget = ctx.get(BUDGET)  # shared by a face's values: this render opens its share
        if budget is not None:
            budget.start()
        return self.compiled.render(ctx)


_VARS_NAMED = re.compile(r"\bvars\.([A-Za-z_]\w*)")
_VARS_ANY = re.compile(r"\bvars\b(?!\.[A-Za-z_])")
CARD_FIELD = re.compile(r"\bcard\.([A-Za-z_]\w*)")  # a card value a template text reads: card.art
_LOOKUP = re.compile(r"^\{\{\s*(card|vars)\.([A-Za-z_]\w*)\s*\}\}$")


@dataclass
class Element:
    type: str
    props: dict[str, Value]
    when: Any = None  # compiled Jinja2 expression or None
    id: str = ""
    file: str = ""
    line: int = 0
    column: int = 0
    # where each key is written (line, column): a finding about one value stands at its key
    at: dict[str, tuple[int, int]] = field(default_factory=dict)
    when_src: str = ""  # `when` as written
    # a value the edition gives under its own key: the key it is written under ('text@fr')
    written: dict[str, str] = field(default_factory=dict)

    def vars_read(self) -> tuple[str, ...] | None:
        """The template vars the element's values and `when` name (`vars.frame`); None when it
        reads them some other way (`vars[name]`): then it depends on all of them."""
        found = self.__dict__.get("_vars_read", False)
        if found is False:
            texts = [str(v.raw) for v in self.props.values() if isinstance(v.raw, str)]
            texts.append(self.when_src)
            named = {m for t in texts for m in _VARS_NAMED.findall(t)}
            other = any(_VARS_ANY.search(t) for t in texts)
            found = None if other else tuple(sorted(named))
            self.__dict__["_vars_read"] = found
        return found

    def signature(self) -> str:
        """What the element is, as written and where: two elements with one signature lay out the
        same for the same card (render.face keeps laid-out elements by it)."""
        found = self.__dict__.get("_signature")
        if found is None:
            written = sorted((k, repr(v.raw)) for k, v in self.props.items())
            found = repr((self.type, self.id, self.file, self.line, self.column, self.when_src))
            found += repr((written, sorted(self.at.items())))
            self.__dict__["_signature"] = found
        return found


@memo(4096)
def _jinja(raw: str) -> Any:
    """A compiled expression, once per text per process (a watch loop or a server reloads templates
    often)."""
    return _env.from_string(raw)


@memo(4096)
def _expression(text: str) -> Any:
    """A compiled `when` expression, once per text per process."""
    return _env.compile_expression(text, undefined_to_none=False)


@memo(4096)
def parsed(text: str) -> Any:
    """A template text's Jinja2 syntax tree, once per text per process: the checks read it (a
    template saved again is checked again, its unchanged texts not parsed again). Shared: callers
    only read it."""
    return _env.parse(text)


def _compile(raw: Any) -> Value:
    if isinstance(raw, str) and ("{{" in raw or "{%" in raw):
        m = _LOOKUP.match(raw)
        compiled = _jinja(raw)  # compiled anyway, so a syntax error is still reported here
        return Value(raw, compiled, (m.group(1), m.group(2)) if m else None)
    return Value(raw)


def _checked(value: Any, bad, loc: tuple[int, int]) -> Value:
    try:
        return _compile(value)
    except (TemplateError, ValueError, OverflowError, RecursionError) as exc:
        bad(loc, "template-jinja", f"Jinja2 error: {exc}")
        return Value("")


def _element(
    item: Any,
    loc: tuple[int, int],
    name: str,
    bad,
    fonts: dict[str, Any],
    editions: Any = None,
    chain: list[str] | tuple[str, ...] = (),
) -> Element | None:
    """An element of a template; with the game's `editions`, its keys per language (`text@de`)
    are checked, and the first along an edition's `chain` replaces the key's own value."""
    if not isinstance(item, LocDict):
        bad(loc, "template-type", "each element must be a mapping with a 'type'")
        return None
    etype = item.get("type")
    if not isinstance(etype, str) or etype not in ELEMENTS:
        types = f"types: {', '.join(ELEMENTS)}"
        if "type" not in item or etype is None:
            named = f" '{item['id']}'" if isinstance(item.get("id"), str) else ""
            bad(loc, "template-element", f"element{named} has no 'type'", f"add one of the {types}")
        elif not isinstance(etype, str):
            bad(item.key_loc("type"), "template-element", "'type' must be a name", types)
        else:
            bad(
                item.key_loc("type"),
                "template-element",
                f"unknown element type '{etype[:40]}'",
                did_you_mean(etype, list(ELEMENTS)) or types,
            )
        return None
    props: dict[str, Value] = {}
    local: dict[str, tuple[str, str]] = {}  # 'text@de' -> ('text', 'de'): a value per language
    for key, value in item.items():
        kloc = item.key_loc(key)
        parts = split_key(key) if editions is not None else None
        if parts is not None and parts[0] in ELEMENTS[etype] - {"type", "id", "when"}:
            if _language(key, parts, editions, kloc, bad):
                local[str(key)] = parts
            continue
        if key not in ELEMENTS[etype]:
            bad(
                kloc,
                "template-unknown-key",
                f"{etype} element has no '{key}'",
                did_you_mean(key, sorted(ELEMENTS[etype])),
            )
            continue
        if key in ("type", "id", "when"):
            continue
        checked = _prop(key, value, kloc, bad, fonts)
        if checked is not None:
            props[key] = checked
    at = {str(k): item.key_loc(k) for k in item}
    written: dict[str, str] = {}
    for base in dict.fromkeys(b for b, _ in local.values()):  # the edition's own, along its chain
        key = next((f"{base}@{lang}" for lang in chain[:-1] if f"{base}@{lang}" in local), None)
        if key is None:
            continue
        checked = _prop(base, item[key], item.key_loc(key), bad, fonts)
        if checked is not None:
            props[base], at[base], written[base] = checked, item.key_loc(key), key
    if etype == "text":
        _reversed_bounds(item, props, bad)
    when = None
    if "when" in item and isinstance(item["when"], (dict, list)):
        bad(
            item.key_loc("when"),
            "template-type",
            "'when' must be an expression such as \"card.art\"",
        )
    elif "when" in item:
        try:
            when = _expression(str(item["when"]))
        except (TemplateError, ValueError, OverflowError, RecursionError) as exc:
            bad(item.key_loc("when"), "template-jinja", f"'when' is not a valid expression: {exc}")
    if etype in ("rect", "text", "icons", "image", "badge", "circle") and "box" not in item:
        missing = [a for a in (_axis(item, AXES[0]), _axis(item, AXES[1])) if a]
        if missing:
            bad(
                loc,
                "template-missing",
                f"{etype} element needs {' and '.join(missing)} (or 'box: NAME': bleed, trim, "
                "safe or a box of the template's boxes:)",
            )
            return None
    eid = item.get("id", "")
    if isinstance(eid, (dict, list)):
        bad(item.key_loc("id"), "template-type", "'id' must be a name")
        eid = ""
    when_src = str(item["when"]) if "when" in item else ""
    return Element(etype, props, when, str(eid), name, loc[0], loc[1], at, when_src, written)


AXES = (("x", "w", "right"), ("y", "h", "bottom"))


def _axis(item: LocDict, keys: tuple[str, str, str]) -> str | None:
    """What an element lacks to be placed along one axis: two of position, size and far edge (or a
    centred position and its size); None when it has them."""
    at, span, end = (k in item for k in keys)
    centred = at and isinstance(item[keys[0]], str) and item[keys[0]].strip() in geometry.CENTRE
    if at + span + end >= 2:
        return None
    if centred:
        return f"{keys[1]} (to centre it)"
    if at or end:
        return keys[1]
    return keys[0] if span else f"{keys[0]} and {keys[1]}"


def _length_problem(key: str, value: Any) -> str | None:
    """A constant length as written: a unit, a percentage, an expression ('100% - 6mm') or, for a
    position, `center`."""
    if isinstance(value, str):
        return geometry.check(value, key)
    try:
        length(value)
    except UnitError as exc:
        return str(exc)
    return None


def _prop(key: str, value: Any, kloc: tuple[int, int], bad, fonts: dict[str, Any]) -> Value | None:
    """One element value, checked for its key (None, and a finding, when it cannot be used)."""
    if isinstance(value, dict) or (isinstance(value, list) and key != "points"):
        bad(kloc, "template-type", f"'{key}' must be a single value, not a {type(value).__name__}")
        return None
    if key in LENGTH_KEYS and not (isinstance(value, str) and "{{" in value):
        problem = _length_problem(key, value)
        if problem:
            bad(kloc, "template-unit", f"'{key}': {problem}")
            return None
    if key == "font" and (not isinstance(value, str) or value not in fonts):
        bad(
            kloc,
            "template-font",
            f"unknown font family '{value}'",
            did_you_mean(str(value), list(fonts)),
        )
        return None
    return _checked(value, bad, kloc)


def _language(key: str, parts: tuple[str, str], editions: Any, kloc: tuple[int, int], bad) -> bool:
    """A template key per language (`text@de`) names one of the game's other languages; a
    finding, and False, when it does not."""
    base, lang = parts
    if lang == editions.default:
        bad(
            kloc,
            "template-language",
            f"'{key}' is in the default language, {editions.default}, whose value is '{base}' "
            "itself; it is not used",
            f"write it as '{base}'",
        )
        return False
    if lang not in editions.languages:
        codes = editions.others()
        bad(
            kloc,
            "template-language",
            f"'{key}' is for language '{lang}', which the game has no edition in; it is not used",
            did_you_mean(lang, codes) or f"languages: {', '.join(codes) or 'none'}",
        )
        return False
    return True


BOUNDS = (("min_size", "size", "9pt"), ("min_leading", "leading", "1.18"))


def _reversed_bounds(item: LocDict, props: dict[str, Value], bad: Any) -> None:
    """A text's `min_size` above its `size` (or `min_leading` above `leading`) cannot shrink: the
    lower bound is dropped (the text is set at `size`) and reported."""
    for low_key, high_key, default in BOUNDS:
        low, high = props.get(low_key), props.get(high_key, Value(default))
        if low is None or low.compiled is not None or high.compiled is not None:
            continue
        try:
            read = float if low_key == "min_leading" else as_length
            lo, hi = read(low.raw), read(high.raw)
        except (UnitError, ValueError, TypeError, OverflowError):
            continue  # reported as a bad value
        if lo > hi:
            shown = f"{high_key} {high.raw}" if high_key in props else f"the default {default}"
            bad(
                item.key_loc(low_key),
                "template-bounds-reversed",
                f"{low_key} {low.raw} is above {shown}, so the text cannot shrink to it",
                f"swap them, or lower {low_key}; the text is set at {high_key} meanwhile",
            )
            del props[low_key]


_NUM = re.compile(r"^-?\d+(\.\d+)?$")


def as_length(value: Any, default: float = 0.0) -> float:
    """A length in points: a number already worked out (a face's resolved geometry) passes, a text
    such as '3mm' is read (a bare number is points)."""
    if value in (None, ""):
        return default
    if isinstance(value, float):
        return value
    if isinstance(value, str):
        return _str_length(value)
    return length(value)


@memo(4096)
def _str_length(value: str) -> float:
    if _NUM.match(value.strip()):
        return float(value)
    try:
        return length(value)
    except UnitError:  # an expression of absolute lengths ('52.4mm - 3mm'); a relative one needs
        return geometry.absolute(value)  # the face it is measured on (geometry.place)

"""Turn templates/<game>/*.yaml into checked Template objects whose Jinja2 values are evaluated per card."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import ChainableUndefined, TemplateError

from ..core import units
from ..core.errors import Finding, Severity, did_you_mean
from ..core.paths import file_stamp, workspace_file
from ..core.sandbox import BUDGET, LimitedSandbox
from ..core.units import UnitError, length
from ..load.yamlio import LocDict, LocList, load_yaml
from ..model.game import GameModel

COMMON = {"id", "type", "when", "x", "y", "w", "h", "box", "opacity"}
ELEMENTS: dict[str, set[str]] = {
    "rect": COMMON | {"fill", "stroke", "stroke_width", "radius", "clip_bleed"},
    "circle": COMMON | {"fill", "stroke", "stroke_width"},
    "polygon": {"id", "type", "when", "points", "fill", "stroke", "stroke_width", "opacity"},
    "line": {"id", "type", "when", "x1", "y1", "x2", "y2", "stroke", "stroke_width", "opacity"},
    "text": COMMON | {"text", "flavor", "font", "size", "min_size", "leading", "min_leading", "align", "valign",
                      "max_lines",
                      "color", "rich", "rule_color", "tracking"},
    "icons": COMMON | {"cost", "size", "align", "gap", "outline"},
    "image": COMMON | {"src", "fit", "radius"},
    "badge": COMMON | {"shape", "fill", "stroke", "stroke_width", "text", "font", "size", "color", "label",
                       "label_font", "label_size"},
}
LENGTH_KEYS = {"x", "y", "w", "h", "x1", "y1", "x2", "y2", "size", "min_size", "stroke_width", "radius", "gap",
               "label_size", "tracking"}
TOP_KEYS = {"extends", "size", "bleed", "safe", "fonts", "vars", "elements", "remove", "description"}
_env = LimitedSandbox(undefined=ChainableUndefined, autoescape=False, keep_trailing_newline=False)


@dataclass
class Value:
    """A template value: a constant, or a Jinja2 template rendered per card."""

    raw: Any
    compiled: Any = None
    lookup: tuple[str, str] | None = None  # '{{ card.name }}' / '{{ vars.frame }}': read directly

    def get(self, ctx: dict[str, Any]) -> Any:
        if self.lookup is not None:  # what Jinja2 would print: str() of the value, '' when it is absent
            value = ctx[self.lookup[0]].get(self.lookup[1], "")
            return str(value)
        if self.compiled is None:
            return self.raw
        budget = ctx.get(BUDGET)  # shared by a face's values: this render opens its share
        if budget is not None:
            budget.start()
        return self.compiled.render(ctx)


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


@dataclass
class Template:
    name: str
    file: str
    size: tuple[float, float]
    bleed: float
    safe: float
    fonts: dict[str, dict[str, str]]
    vars: dict[str, Value]
    elements: list[Element]
    source_files: list[Path] = field(default_factory=list)
    digest: str = ""  # hash of every source file's bytes: part of each face's cache key


@lru_cache(maxsize=4096)
def _jinja(raw: str) -> Any:
    """A compiled expression, once per text per process (a watch loop or a server reloads templates often)."""
    return _env.from_string(raw)


def _compile(raw: Any) -> Value:
    if isinstance(raw, str) and ("{{" in raw or "{%" in raw):
        m = _LOOKUP.match(raw)
        compiled = _jinja(raw)  # compiled anyway, so a syntax error is still reported here
        return Value(raw, compiled, (m.group(1), m.group(2)) if m else None)
    return Value(raw)


_LOADED: dict[tuple[str, str, str], tuple[list[tuple[str, int, int]], Template | None, list[Finding]]] = {}


def load_template(path: Path, shown, model: GameModel, *, root: Path | None = None,
                  _depth: int = 0) -> tuple[Template | None, list[Finding]]:
    """Read one template (following `extends`), checking element types, keys, units and Jinja2 syntax. Kept
    for the process while its files are unchanged (a watch loop or a server loads the same templates again)."""
    if _depth:
        return _load_template(path, shown, model, root=root, _depth=_depth)
    key = (str(path), model.digest, str(root))
    kept = _LOADED.get(key)
    if kept is not None and all(file_stamp(Path(f)) == (f, size, mtime) for f, size, mtime in kept[0]):
        return kept[1], list(kept[2])
    template, findings = _load_template(path, shown, model, root=root)
    if template is not None:  # a template that failed (a missing parent, say) is read again next time
        if len(_LOADED) > 256:
            _LOADED.clear()
        _LOADED[key] = ([file_stamp(p) for p in template.source_files], template, list(findings))
    return template, findings


def _load_template(path: Path, shown, model: GameModel, *, root: Path | None = None,
                   _depth: int = 0) -> tuple[Template | None, list[Finding]]:
    findings: list[Finding] = []
    name = shown(path)
    doc = load_yaml(path, name)
    findings.extend(doc.findings)
    raw = doc.data
    if raw is None:
        if not doc.findings:
            findings.append(Finding(name, 1, 1, Severity.ERROR, "template-empty", None, "template is empty"))
        return None, findings

    def bad(loc: tuple[int, int], code: str, message: str, hint: str | None = None) -> None:
        findings.append(Finding(name, loc[0], loc[1], Severity.ERROR, code, None, message, hint))

    if not isinstance(raw, LocDict):
        bad((1, 1), "template-type", "a template must be a mapping with 'elements'")
        return None, findings
    for key in raw:
        if key not in TOP_KEYS:
            bad(raw.key_loc(key), "template-unknown-key", f"unknown key '{key}'", did_you_mean(key, sorted(TOP_KEYS)))
    base: Template | None = None
    if "extends" in raw:
        parent, problem = workspace_file(root or path.parent.parent.parent, path.parent, raw["extends"])
        if parent is None or _depth > 8:
            bad(raw.key_loc("extends"), "template-extends", f"cannot extend {str(raw['extends'])[:60]!r}: it {problem}"
                if _depth <= 8 else "templates extend each other in a loop")
        else:
            base, more = _load_template(parent, shown, model, root=root, _depth=_depth + 1)
            findings.extend(more)
    card = model.card
    try:  # a template's own size, else the one it extends, else the model's card size
        tsize = units.card_size(raw["size"]) if "size" in raw else base.size if base else \
            units.card_size(card.get("size", "63mm x 88mm"))
        bleed = units.bleed(raw["bleed"]) if "bleed" in raw else base.bleed if base else \
            units.bleed(card.get("bleed", "3mm"))
        safe = units.safe(raw["safe"]) if "safe" in raw else base.safe if base else units.safe(card.get("safe", "3mm"))
    except UnitError as exc:
        bad(raw.loc, "template-unit", str(exc))
        tsize, bleed, safe = (178.58, 249.45), 8.5, 8.5
    fonts = dict(base.fonts) if base else {}
    for fam, spec in _mapping(raw, "fonts", bad).items():
        if isinstance(spec, str):
            spec = {"regular": spec}
        stems = spec.values() if isinstance(spec, dict) else []
        if not isinstance(spec, dict) or "regular" not in spec or not all(isinstance(v, str) and STEM.match(v)
                                                                          for v in stems):
            bad(raw.key_loc("fonts"), "template-font", f"font family '{fam}' needs 'regular' (and may have 'bold', "
                "'italic', 'bolditalic'), each a font file name without .ttf, e.g. CharisSIL-Regular")
            continue
        fonts[str(fam)] = {k: spec.get(k) or spec["regular"] for k in ("regular", "bold", "italic", "bolditalic")}
    if not fonts:  # text in a template without fonts is drawn in DejaVu Sans (bundled, covers most scripts)
        fonts["default"] = dict(DEFAULT_FAMILY)
    tvars = dict(base.vars) if base else {}
    for key, value in _mapping(raw, "vars", bad).items():
        if isinstance(value, (dict, list)):
            bad(raw.key_loc("vars"), "template-type", f"var '{key}' must be a single value (text, number, colour)")
            continue
        tvars[str(key)] = _checked(value, bad, raw.key_loc("vars"))
    elements = list(base.elements) if base else []
    remove = raw.get("remove") or []
    if not isinstance(remove, list) or not all(isinstance(r, str) for r in remove):
        bad(raw.key_loc("remove"), "template-type", "'remove' must be a list of element ids")
        remove = []
    removed = set(remove)
    elements = [e for e in elements if e.id not in removed]
    items = raw.get("elements") or LocList()
    if not isinstance(items, LocList):
        bad(raw.key_loc("elements") if "elements" in raw else raw.loc, "template-type", "'elements' must be a list")
        items = LocList()
    for i, item in enumerate(items):
        loc = items.item_loc(i)
        element = _element(item, loc, name, bad, fonts)
        if element is None:
            continue
        same = next((k for k, e in enumerate(elements) if element.id and e.id == element.id), None)
        if same is None:
            elements.append(element)
        else:
            elements[same] = element
    for loc, text in _expressions(raw):
        for problem, hint in names_used(text, model, tvars):
            bad(loc, "template-name", problem, hint)
    for element in elements:
        if element.file == name and _off_card(element, tsize, bleed):
            bad((element.line, element.column), "template-off-card",
                f"element '{element.id or element.type}' lies entirely outside the card and its bleed")
    sources = (base.source_files if base else []) + [path]
    digest = hashlib.sha1(b"".join(p.read_bytes() for p in sources)).hexdigest()
    return Template(path.stem, name, tsize, bleed, safe, fonts, tvars, elements, sources, digest), findings


STEM = re.compile(r"^[A-Za-z0-9._+-]{1,80}$")
DEFAULT_FAMILY = {"regular": "DejaVuSans", "bold": "DejaVuSans-Bold", "italic": "DejaVuSans",
                  "bolditalic": "DejaVuSans-Bold"}


def _mapping(raw: LocDict, key: str, bad) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    value = raw.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        bad(raw.key_loc(key), "template-type", f"'{key}' must be a mapping")
        return {}
    return value


def _expressions(raw: LocDict) -> list[tuple[tuple[int, int], str]]:
    """Every Jinja2 text of a template with its location: vars, element values and `when` expressions."""
    out: list[tuple[tuple[int, int], str]] = []
    tvars = raw.get("vars")
    if isinstance(tvars, LocDict):
        out += [(tvars.key_loc(k), v) for k, v in tvars.items() if isinstance(v, str) and "{" in v]
    items = raw.get("elements")
    for item in items if isinstance(items, LocList) else []:
        if not isinstance(item, LocDict):
            continue
        for key, value in item.items():
            if key == "when" and isinstance(value, str):
                out.append((item.key_loc(key), "{{ " + value + " }}"))
            elif isinstance(value, str) and "{" in value:
                out.append((item.key_loc(key), value))
    return out


def names_used(text: str, model: GameModel, tvars: dict[str, Any]) -> list[tuple[str, str | None]]:
    """Card fields, vars and vocabulary attributes a template text names that the model does not have:
    `card.rnak` would print blank on every card, `attr('factions', 'colr')` always give its default."""
    from jinja2 import nodes

    try:
        tree = _env.parse(text)
    except (TemplateError, ValueError, OverflowError, RecursionError):
        return []  # reported where the text is compiled
    fields = list(model.fields) + ["id"]
    out: list[tuple[str, str | None]] = []
    for node in tree.find_all(nodes.Getattr):
        if isinstance(node.node, nodes.Name) and node.node.name == "card" and node.attr not in fields:
            out.append((f"'card.{node.attr}' is not a field of this game", did_you_mean(node.attr, fields)))
        if isinstance(node.node, nodes.Name) and node.node.name == "vars" and node.attr not in tvars:
            out.append((f"'vars.{node.attr}' is not a var of this template", did_you_mean(node.attr, list(tvars))))
    for call in tree.find_all(nodes.Call):
        if not (isinstance(call.node, nodes.Name) and call.node.name in ("attr", "attrs", "canonical")):
            continue
        args = [a.value if isinstance(a, nodes.Const) else None for a in call.args]
        if args and isinstance(args[0], str):
            if args[0] not in model.fields:
                out.append((f"{call.node.name}() names field '{args[0]}', which the model does not have",
                            did_you_mean(args[0], list(model.fields))))
                continue
            vocab = model.vocab_for(args[0])
            if call.node.name != "canonical" and len(args) > 1 and isinstance(args[1], str) and vocab is not None:
                keys = {k for t in vocab.terms for k in t.attrs} | {"name"}
                if args[1] not in keys:
                    out.append((f"{call.node.name}('{args[0]}', '{args[1]}'): no value of '{args[0]}' has "
                                f"'{args[1]}'", did_you_mean(args[1], sorted(keys))))
    return out


def _off_card(element: Element, size: tuple[float, float], bleed: float) -> bool:
    """True when an element's box is written as constants and misses the card and its bleed entirely."""
    try:
        x, y, w, h = (as_length(element.props[k].raw) for k in ("x", "y", "w", "h"))
    except (KeyError, UnitError, ValueError, TypeError):
        return False  # a box, a line, or an expression: decided per card
    if any(element.props[k].compiled is not None for k in ("x", "y", "w", "h")):
        return False
    return x > size[0] + bleed or y > size[1] + bleed or x + w < -bleed or y + h < -bleed


def _checked(value: Any, bad, loc: tuple[int, int]) -> Value:
    try:
        return _compile(value)
    except (TemplateError, ValueError, OverflowError, RecursionError) as exc:
        bad(loc, "template-jinja", f"Jinja2 error: {exc}")
        return Value("")


def _element(item: Any, loc: tuple[int, int], name: str, bad, fonts: dict[str, Any]) -> Element | None:
    if not isinstance(item, LocDict):
        bad(loc, "template-type", "each element must be a mapping with a 'type'")
        return None
    etype = item.get("type")
    if not isinstance(etype, str) or etype not in ELEMENTS:
        bad(item.key_loc("type") if "type" in item else loc, "template-element",
            f"unknown element type '{etype}'", did_you_mean(str(etype), list(ELEMENTS)) or f"types: {', '.join(ELEMENTS)}")
        return None
    props: dict[str, Value] = {}
    for key, value in item.items():
        kloc = item.key_loc(key)
        if key not in ELEMENTS[etype]:
            bad(kloc, "template-unknown-key", f"{etype} element has no '{key}'", did_you_mean(key, sorted(ELEMENTS[etype])))
            continue
        if key in ("type", "id", "when"):
            continue
        if isinstance(value, dict) or (isinstance(value, list) and key != "points"):
            bad(kloc, "template-type", f"'{key}' must be a single value, not a {type(value).__name__}")
            continue
        if key in LENGTH_KEYS and not (isinstance(value, str) and "{{" in value):
            try:
                length(value)
            except UnitError as exc:
                bad(kloc, "template-unit", f"'{key}': {exc}")
                continue
        if key == "font" and (not isinstance(value, str) or value not in fonts):
            bad(kloc, "template-font", f"unknown font family '{value}'", did_you_mean(str(value), list(fonts)))
            continue
        props[key] = _checked(value, bad, kloc)
    when = None
    if "when" in item and isinstance(item["when"], (dict, list)):
        bad(item.key_loc("when"), "template-type", "'when' must be an expression such as \"card.art\"")
    elif "when" in item:
        try:
            when = _env.compile_expression(str(item["when"]), undefined_to_none=False)
        except (TemplateError, ValueError, OverflowError, RecursionError) as exc:
            bad(item.key_loc("when"), "template-jinja", f"'when' is not a valid expression: {exc}")
    if etype in ("rect", "text", "icons", "image", "badge", "circle") and "box" not in item:
        missing = [k for k in ("x", "y", "w", "h") if k not in item]
        if missing:
            bad(loc, "template-missing", f"{etype} element needs {', '.join(missing)} (or 'box: bleed|trim|safe')")
            return None
    eid = item.get("id", "")
    if isinstance(eid, (dict, list)):
        bad(item.key_loc("id"), "template-type", "'id' must be a name")
        eid = ""
    return Element(etype, props, when, str(eid), name, loc[0], loc[1])


_NUM = re.compile(r"^-?\d+(\.\d+)?$")


def as_length(value: Any, default: float = 0.0) -> float:
    if value in (None, ""):
        return default
    if isinstance(value, str):
        return _str_length(value)
    return length(value)


@lru_cache(maxsize=4096)
def _str_length(value: str) -> float:
    return float(value) if _NUM.match(value.strip()) else length(value)

"""Turn templates/<game>/*.yaml into checked Template objects whose Jinja2 values are evaluated per
card."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core import units
from ..core.errors import Finding, Severity, did_you_mean
from ..core.paths import file_stamp, workspace_file
from ..core.units import UnitError
from ..load.yamlio import LocDict, LocList, load_yaml
from ..model.editions import split_key
from ..model.game import GameModel
from . import templatecheck as check
from .elements import LENGTH_KEYS as LENGTH_KEYS
from .elements import Element as Element
from .elements import Value as Value
from .elements import _checked, _element, _language
from .elements import as_length as as_length
from .templateboxes import BoxSpec, fixed_box, fixed_frame, read_boxes, size_mismatch, unknown_boxes
from .templatefonts import DEFAULT_FAMILY as DEFAULT_FAMILY
from .templatefonts import STEM as STEM
from .templatefonts import read_fonts

TOP_KEYS = {
    "extends",
    "boxes",
    "size",
    "bleed",
    "safe",
    "fonts",
    "vars",
    "elements",
    "remove",
    "description",
}


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
    # the geometry keys whose value was invalid ('size', 'bleed', 'safe'; also when inherited): the
    # template uses a stand-in, and checks that would only judge the stand-in are not made
    guessed: tuple[str, ...] = ()
    # where each font family's files are named: family -> variant -> (file, line, column)
    font_at: dict[str, dict[str, tuple[str, int, int]]] = field(default_factory=dict)
    # files whose presence its findings depend on (a constant picture's `src`)
    watched: list[Path] = field(default_factory=list)
    # named boxes (the art window, the text box) elements are placed in or align to
    boxes: dict[str, BoxSpec] = field(default_factory=dict)
    # the size each file of the template (it and the ones it extends) writes itself, by file: what
    # its elements were laid out for
    written_sizes: dict[str, tuple[float, float]] = field(default_factory=dict)
    # each family's fallback chain (`fallback: [DroidSansFallbackFull]`: font stems tried glyph by
    # glyph after the family's own file) and where each stem is named
    fallbacks: dict[str, tuple[str, ...]] = field(default_factory=dict)
    fallback_at: dict[str, tuple[tuple[str, int, int], ...]] = field(default_factory=dict)


_LOADED: dict[
    tuple[str, str, str], tuple[list[tuple[str, int, int]], Template | None, list[Finding]]
] = {}


def load_template(
    path: Path, shown, model: GameModel, *, root: Path | None = None, _depth: int = 0
) -> tuple[Template | None, list[Finding]]:
    """Read one template (following `extends`), checking element types, keys, units and Jinja2
    syntax. Kept for the process while its files are unchanged (a watch loop or a server loads the
    same templates again)."""
    if _depth:
        return _load_template(path, shown, model, root=root, _depth=_depth)
    key = (str(path), model.digest, str(root))
    kept = _LOADED.get(key)
    if kept is not None and all(
        file_stamp(Path(f)) == (f, size, mtime) for f, size, mtime in kept[0]
    ):
        return kept[1], list(kept[2])
    template, findings = _load_template(path, shown, model, root=root)
    if (
        template is not None
    ):  # a template that failed (a missing parent, say) is read again next time
        if len(_LOADED) > 256:
            _LOADED.clear()
        stamps = [file_stamp(p) for p in template.source_files + template.watched]
        _LOADED[key] = (stamps, template, list(findings))
    return template, findings


def _load_template(
    path: Path, shown, model: GameModel, *, root: Path | None = None, _depth: int = 0
) -> tuple[Template | None, list[Finding]]:
    findings: list[Finding] = []
    name = shown(path)
    doc = load_yaml(path, name)
    findings.extend(replace(f, about=name) for f in doc.findings)
    raw = doc.data
    if raw is None:
        if not doc.findings:
            findings.append(
                Finding(
                    name,
                    1,
                    1,
                    Severity.ERROR,
                    "template-empty",
                    None,
                    "template is empty",
                    about=name,
                )
            )
        return None, findings

    def bad(
        loc: tuple[int, int],
        code: str,
        message: str,
        hint: str | None = None,
        severity: Severity = Severity.ERROR,
    ) -> None:
        findings.append(
            Finding(name, loc[0], loc[1], severity, code, None, message, hint, about=name)
        )

    if not isinstance(raw, LocDict):
        bad((1, 1), "template-type", "a template must be a mapping with 'elements'")
        return None, findings
    for key in raw:
        if key not in TOP_KEYS:
            bad(
                raw.key_loc(key),
                "template-unknown-key",
                f"unknown key '{key}'",
                did_you_mean(key, sorted(TOP_KEYS)),
            )
    base: Template | None = None
    if "extends" in raw:
        parent, problem = workspace_file(
            root or path.parent.parent.parent, path.parent, raw["extends"]
        )
        if parent is None or _depth > 8:
            bad(
                raw.key_loc("extends"),
                "template-extends",
                f"cannot extend {str(raw['extends'])[:60]!r}: it {problem}"
                if _depth <= 8
                else "templates extend each other in a loop",
            )
        else:
            base, more = _load_template(parent, shown, model, root=root, _depth=_depth + 1)
            findings.extend(more)
    tsize, bleed, safe, guessed = _geometry(raw, base, model.card, bad)
    fonts, font_at, fallbacks, fallback_at = read_fonts(raw, base, name, bad)
    tvars = dict(base.vars) if base else {}
    eds = model.editions
    lang_chain = eds.chain(model.edition) if eds is not None and model.other_edition() else []
    written_vars = _mapping(raw, "vars", bad)
    local: dict[str, str] = {}  # 'footer@de' -> 'footer': a var per language
    for key, value in written_vars.items():
        parts = split_key(key) if eds is not None else None
        if parts is not None:
            var_at = written_vars.key_loc(key) if isinstance(written_vars, LocDict) else raw.loc
            if _language(str(key), parts, eds, var_at, bad):
                local[str(key)] = parts[0]
            continue
        if isinstance(value, (dict, list)):
            bad(
                raw.key_loc("vars"),
                "template-type",
                f"var '{key}' must be a single value (text, number, colour)",
            )
            continue
        tvars[str(key)] = _checked(value, bad, raw.key_loc("vars"))
    for var in dict.fromkeys(local.values()):  # the edition's own, along its chain
        key = next((f"{var}@{lang}" for lang in lang_chain[:-1] if f"{var}@{lang}" in local), None)
        if key is not None and not isinstance(written_vars[key], (dict, list)):
            tvars[var] = _checked(written_vars[key], bad, raw.key_loc("vars"))
    boxes = read_boxes(raw, dict(base.boxes) if base else {}, name, bad)
    elements = list(base.elements) if base else []
    remove = raw.get("remove") or []
    if not isinstance(remove, list) or not all(isinstance(r, str) for r in remove):
        bad(raw.key_loc("remove"), "template-type", "'remove' must be a list of element ids")
        remove = []
    removed = set(remove)
    if base is not None and remove:
        _unknown_removed(raw["remove"], [e.id for e in elements if e.id], bad)
    elements = [e for e in elements if e.id not in removed]
    items = raw.get("elements") or LocList()
    if not isinstance(items, LocList):
        bad(
            raw.key_loc("elements") if "elements" in raw else raw.loc,
            "template-type",
            "'elements' must be a list",
        )
        items = LocList()
    seen: dict[str, int] = {}
    watched = list(base.watched) if base else []
    for i, item in enumerate(items):
        loc = items.item_loc(i)
        element = _element(item, loc, name, bad, fonts, eds, lang_chain)
        if element is None:
            continue
        check.constant_values(element, fonts, tvars, bad)
        unknown_boxes(element, boxes, bad)
        picture = check.missing_picture(element, root or path.parent.parent.parent, bad)
        watched += [picture] if picture is not None else []
        twice = check.same_ids(element, seen, bad)  # in this file: both are kept
        same = next((k for k, e in enumerate(elements) if element.id and e.id == element.id), None)
        if same is None or twice:
            elements.append(element)
        else:
            elements[same] = element
    for loc, text in check.expressions(raw):
        for problem, hint in check.names_used(text, model, tvars):
            bad(loc, "template-name", problem, hint)
    sources = (base.source_files if base else []) + [path]
    digest = hashlib.sha1(b"".join(p.read_bytes() for p in sources)).hexdigest()
    template = Template(
        path.stem,
        name,
        tsize,
        bleed,
        safe,
        fonts,
        tvars,
        elements,
        sources,
        digest,
        guessed,
        font_at,
        watched,
        boxes,
        {**(base.written_sizes if base else {}), **({name: tsize} if "size" in raw else {})},
        fallbacks,
        fallback_at,
    )
    frame = fixed_frame(template)
    for element in elements:
        if element.file == name and not guessed and _off_card(element, frame):
            bad(
                (element.line, element.column),
                "template-off-card",
                f"element '{element.id or element.type}' lies entirely outside the card and its "
                "bleed",
            )
    mismatch = None if _depth else size_mismatch(template)
    if mismatch is not None:
        findings.append(replace(mismatch, about=name))
    return template, findings


def _geometry(
    raw: LocDict, base: Template | None, card: dict[str, Any], bad: Any
) -> tuple[tuple[float, float], float, float, tuple[str, ...]]:
    """The template's size, bleed and safe zone: its own, else the parent's, else the model's card
    section. An invalid value is a finding at its key, with a did-you-mean for a size name; the
    parent's or the model's value stands in for it, and the key is returned as guessed."""
    parsers = {"size": units.card_size, "bleed": units.bleed, "safe": units.safe}
    defaults = {"size": "63mm x 88mm", "bleed": "3mm", "safe": "3mm"}
    out: dict[str, Any] = {}
    guessed = list(base.guessed) if base else []
    for key, parse in parsers.items():
        if key in raw:
            try:
                out[key] = parse(raw[key])
                if key in guessed:
                    guessed.remove(key)
                continue
            except UnitError as exc:
                hint = (
                    did_you_mean(str(raw[key]), sorted(units.CARD_SIZES))
                    if key == "size" and isinstance(raw[key], str)
                    else None
                )
                bad(raw.key_loc(key), "template-unit", f"'{key}': {exc}", hint)
                guessed.append(key)
        if base is not None:
            out[key] = getattr(base, key)
            continue
        try:
            out[key] = parse(card.get(key, defaults[key]))
        except UnitError:  # the model's own finding says why
            out[key] = parse(defaults[key])
    return out["size"], out["bleed"], out["safe"], tuple(dict.fromkeys(guessed))


def _unknown_removed(written: Any, ids: list[str], bad: Any) -> None:
    """`remove: [id]` naming no element of the template it extends removes nothing."""
    for i, eid in enumerate(written):
        if eid not in ids:
            loc = written.item_loc(i) if isinstance(written, LocList) else (0, 0)
            bad(
                loc,
                "template-unknown-element",
                f"'remove' names '{eid}', which is no element of the template this one extends",
                did_you_mean(eid, ids) or (f"its elements: {', '.join(ids)}" if ids else None),
            )


def _mapping(raw: LocDict, key: str, bad) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    value = raw.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        bad(raw.key_loc(key), "template-type", f"'{key}' must be a mapping")
        return {}
    return value


def _off_card(element: Element, frame: Any) -> bool:
    """True when an element's box is written as constants and misses the card and its bleed
    entirely."""
    box = fixed_box(element, frame)
    if box is None:
        return False  # a line, or an expression: decided per card
    x, y, w, h = box
    b = frame.bleed
    return x > frame.width + b or y > frame.height + b or x + w < -b or y + h < -b

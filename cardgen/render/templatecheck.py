"""Turn a template's written text into the findings it shows by itself, each at its key: names the
model lacks, bad constant values, lengths computed without a unit, an element id used twice, a
constant picture that does not exist."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from jinja2 import TemplateError, nodes

from ..core.errors import Severity, did_you_mean
from ..core.paths import workspace_file
from ..load.yamlio import LocDict, LocList
from ..model.game import GameModel
from .elements import _NUM, LENGTH_KEYS, Element, Value, parsed
from .values import _points, _value_problem

Bad = Callable[..., None]  # bad(loc, code, message, hint=None, severity=error)


def constant_values(
    element: Element, fonts: dict[str, Any], tvars: dict[str, Value], bad: Bad
) -> None:
    """Each constant value is checked once, where it is written (a computed one when a card is
    drawn); a bad one is dropped, so the painter's default stands in and no card repeats it. A
    length computed as a bare number (no unit after the expression) is found here too."""
    what = element.id or element.type
    for key, value in list(element.props.items()):
        loc = element.at.get(key, (element.line, element.column))
        raw = value.raw
        if value.compiled is not None:
            if key in LENGTH_KEYS and isinstance(raw, str) and unitless(raw, tvars):
                bad(
                    loc,
                    "template-unit",
                    f"element '{what}': {key} computes a number without a unit",
                    f'write the unit after the expression: {key}: "{raw.strip()[:60]}mm"',
                )
                del element.props[key]
            continue
        if raw is None or raw == "":
            continue
        if key == "label_font":
            problem = (
                None
                if isinstance(raw, str) and raw in fonts
                else f"names font family {str(raw)[:40]!r}, which the template does not define"
            )
        elif key == "points":
            problem = None if _points(raw) else "must be a list of 'X Y' lengths"
        elif isinstance(raw, (str, int, float)):
            problem = _value_problem(key, raw)
        else:
            problem = None
        if problem:
            bad(loc, "template-value", f"element '{what}': {key} {problem}")
            del element.props[key]


def unitless(text: str, tvars: dict[str, Value], depth: int = 0) -> bool:
    """True when a value's text is one expression that can only give a number (`{{ 51 - x * 4.3
    }}`, `{{ vars.w }}` with `w: 40`) and nothing after it: printed, it has no unit."""
    try:
        tree = parsed(text)
    except (TemplateError, ValueError, OverflowError, RecursionError):
        return False  # reported where the text is compiled
    if len(tree.body) != 1 or not isinstance(tree.body[0], nodes.Output):
        return False
    parts = tree.body[0].nodes
    if any(isinstance(p, nodes.TemplateData) and p.data.strip() for p in parts):
        return False
    exprs = [p for p in parts if not isinstance(p, nodes.TemplateData)]
    return len(exprs) == 1 and _numeric(exprs[0], tvars, depth)


_ALWAYS_NUMBERS = (nodes.Sub, nodes.Div, nodes.FloorDiv)  # or an error: never text
_NUMBERS_OF_NUMBERS = (nodes.Add, nodes.Mul, nodes.Mod, nodes.Pow)  # text too, of text
_NUMBER_FILTERS = {"length", "count", "int", "float", "round", "abs"}


def _numeric(node: nodes.Node, tvars: dict[str, Value], depth: int) -> bool:
    if depth > 16:
        return False
    if isinstance(node, nodes.Const):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, (nodes.Neg, nodes.Pos)):
        return _numeric(node.node, tvars, depth + 1)
    if isinstance(node, _ALWAYS_NUMBERS):
        return True
    if isinstance(node, _NUMBERS_OF_NUMBERS):
        return _numeric(node.left, tvars, depth + 1) and _numeric(node.right, tvars, depth + 1)
    if isinstance(node, nodes.CondExpr):
        return (
            node.expr2 is not None
            and _numeric(node.expr1, tvars, depth + 1)
            and _numeric(node.expr2, tvars, depth + 1)
        )
    if isinstance(node, nodes.Filter):
        if node.name in _NUMBER_FILTERS:
            return True
        if node.name in ("min", "max", "sum") and isinstance(node.node, nodes.List):
            return bool(node.node.items) and all(
                _numeric(item, tvars, depth + 1) for item in node.node.items
            )
        return False
    if (
        isinstance(node, nodes.Getattr)
        and isinstance(node.node, nodes.Name)
        and node.node.name == "vars"
        and node.attr in tvars
    ):
        var = tvars[node.attr]
        if var.compiled is not None:
            return isinstance(var.raw, str) and unitless(var.raw, tvars, depth + 1)
        raw = var.raw
        if isinstance(raw, str):
            return bool(_NUM.match(raw.strip()))
        return isinstance(raw, (int, float)) and not isinstance(raw, bool) and raw != 0
    return False


def same_ids(element: Element, seen: dict[str, int], bad: Bad) -> bool:
    """An element id written twice in one template: both are drawn, but a template extending this
    one replaces or removes them by id. True when the id is one seen before."""
    if not element.id:
        return False
    if element.id not in seen:
        seen[element.id] = element.line
        return False
    first = seen[element.id]
    bad(
        element.at.get("id", (element.line, element.column)),
        "template-duplicate-id",
        f"two elements have the id '{element.id[:40]}' (the first at line {first}); both are drawn",
        "give each element an id of its own: a template that extends this one replaces or "
        "removes elements by id",
    )
    return True


def missing_picture(element: Element, root: Path, bad: Bad) -> Path | None:
    """A constant `src` naming no file of the workspace: one warning at the key (it would be the
    same on every card). Returns the path the finding depends on (a file added later lifts it)."""
    src = element.props.get("src")
    if element.type != "image" or src is None or src.compiled is not None:
        return None
    if not isinstance(src.raw, str) or not src.raw.strip():
        return None
    found, why = workspace_file(root, root, src.raw.strip())
    if why is not None:
        bad(
            element.at.get("src", (element.line, element.column)),
            "image-missing",
            f"element '{element.id or element.type}': image '{src.raw.strip()[:80]}' {why}",
            "every card with this template shows a 'missing art' box in its place",
            severity=Severity.WARNING,
        )
    try:
        return found or (root / src.raw.strip())
    except (OSError, ValueError):
        return None


def expressions(raw: LocDict) -> list[tuple[tuple[int, int], str]]:
    """Every Jinja2 text of a template with its location: vars, element values and `when`
    expressions."""
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
    """Card fields, vars and vocabulary attributes a template text names that the model does not
    have:
    `card.rnak` would print blank on every card, `attr('factions', 'colr')` always give its
    default."""
    from jinja2 import nodes

    try:
        tree = parsed(text)
    except (TemplateError, ValueError, OverflowError, RecursionError):
        return []  # reported where the text is compiled
    fields = list(model.fields) + ["id"]
    out: list[tuple[str, str | None]] = []
    for node in tree.find_all(nodes.Getattr):
        if (
            isinstance(node.node, nodes.Name)
            and node.node.name == "card"
            and node.attr not in fields
        ):
            hint = did_you_mean(node.attr, fields)
            if node.attr in ("w", "h"):  # the card's size is a length, read outside the braces
                hint = (
                    f"a length reads the card's size without braces: "
                    f'w: "card.{node.attr} - 6mm" (docs/templates.md)'
                )
            out.append((f"'card.{node.attr}' is not a field of this game", hint))
        if (
            isinstance(node.node, nodes.Name)
            and node.node.name == "vars"
            and node.attr not in tvars
        ):
            out.append(
                (
                    f"'vars.{node.attr}' is not a var of this template",
                    did_you_mean(node.attr, list(tvars)),
                )
            )
    for call in tree.find_all(nodes.Call):
        if not (
            isinstance(call.node, nodes.Name) and call.node.name in ("attr", "attrs", "canonical")
        ):
            continue
        args = [a.value if isinstance(a, nodes.Const) else None for a in call.args]
        if args and isinstance(args[0], str):
            if args[0] not in model.fields:
                out.append(
                    (
                        f"{call.node.name}() names field '{args[0]}', "
                        "which the model does not have",
                        did_you_mean(args[0], list(model.fields)),
                    )
                )
                continue
            vocab = model.vocab_for(args[0])
            if (
                call.node.name != "canonical"
                and len(args) > 1
                and isinstance(args[1], str)
                and vocab is not None
            ):
                keys = {k for t in vocab.terms for k in t.attrs} | {"name"}
                if args[1] not in keys:
                    out.append(
                        (
                            f"{call.node.name}('{args[0]}', '{args[1]}'): no value of '{args[0]}' "
                            "has "
                            f"'{args[1]}'",
                            did_you_mean(args[1], sorted(keys)),
                        )
                    )
    return out

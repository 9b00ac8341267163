"""Turn a front template into the finding that a coloured vocabulary (a faction) reaches its face
only as colour: a fill or ink drawn from the value's colour, and no text, badge or picture that
names it (docs/guards.md)."""

from __future__ import annotations

import re

from jinja2 import TemplateError, nodes

from ..core.errors import Finding, Severity
from ..model.game import GameModel
from .elements import Element, Value, parsed
from .template import Template

WORDS = ("text", "flavor", "label")  # what a text or badge prints
HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}){1,2}$")
CALLS = ("attr", "attrs", "canonical")


def _reads(value: Value | None) -> tuple[set[tuple[str, str]], set[str], set[str]]:
    """What a template value reads: (field, attribute) of attr()/attrs() calls, card fields
    (card.x, card['x'], canonical('x')), template vars."""
    calls: set[tuple[str, str]] = set()
    fields: set[str] = set()
    tvars: set[str] = set()
    raw = value.raw if value is not None else None
    if not isinstance(raw, str) or "{" not in raw:
        return calls, fields, tvars
    try:
        tree = parsed(raw)
    except TemplateError:
        return calls, fields, tvars
    for node in tree.find_all(nodes.Getattr):
        if isinstance(node.node, nodes.Name) and node.node.name == "card":
            fields.add(node.attr)
        elif isinstance(node.node, nodes.Name) and node.node.name == "vars":
            tvars.add(node.attr)
    for item in tree.find_all(nodes.Getitem):
        if isinstance(item.node, nodes.Name) and isinstance(item.arg, nodes.Const):
            if item.node.name == "card":
                fields.add(str(item.arg.value))
            elif item.node.name == "vars":
                tvars.add(str(item.arg.value))
    for call in tree.find_all(nodes.Call):
        if not (isinstance(call.node, nodes.Name) and call.node.name in CALLS):
            continue
        args = [a.value if isinstance(a, nodes.Const) else None for a in call.args]
        if args and isinstance(args[0], str):
            if call.node.name == "canonical" or len(args) < 2 or not isinstance(args[1], str):
                fields.add(args[0])
            else:
                calls.add((args[0], args[1]))
    return calls, fields, tvars


def _colour_attrs(model: GameModel, field: str) -> set[str]:
    """The attributes of a field's vocabulary whose values are colours ('color', 'frame', …)."""
    vocab = model.vocab_for(field)
    if vocab is None:
        return set()
    return {k for t in vocab.terms for k, v in t.attrs.items() if HEX.match(str(v).strip())}


def colour_only(
    template: Template, model: GameModel, pinned: frozenset[str] = frozenset()
) -> list[Finding]:
    """A warning for each coloured field the template paints from its value's colour while no
    text, badge label or picture on the face reads the field (under any condition); not for a
    field `pinned` to one value on every card the template draws (faces.yaml's `where:`), whose
    colour tells nothing apart."""
    var_reads = {name: _reads(v) for name, v in template.vars.items()}

    def closure(names: set[str]) -> tuple[set[tuple[str, str]], set[str]]:
        calls: set[tuple[str, str]] = set()
        fields: set[str] = set()
        seen: set[str] = set()
        todo = list(names)
        while todo:
            name = todo.pop()
            if name in seen or name not in var_reads:
                continue
            seen.add(name)
            c, f, v = var_reads[name]
            calls |= c
            fields |= f
            todo += list(v)
        return calls, fields

    shown: set[str] = set()
    painted: dict[str, tuple[Element, str, str]] = {}  # field -> first element, prop, attribute
    for element in template.elements:
        for key, value in element.props.items():
            calls, fields, tvars = _reads(value)
            more_calls, more_fields = closure(tvars)
            calls, fields = calls | more_calls, fields | more_fields
            words = (element.type in ("text", "badge") and key in WORDS) or (
                element.type == "image" and key == "src"
            )
            if words:
                shown |= fields | {f for f, _ in calls}
                continue
            for field, attr in sorted(calls):
                if attr in _colour_attrs(model, field) and field not in painted:
                    painted[field] = (element, key, attr)
    out = []
    for field, (element, key, attr) in painted.items():
        if field in shown or field in pinned:
            continue
        line, column = element.at.get(key, (element.line, element.column))
        vocab = model.vocab_for(field)
        names = [t.name for t in vocab.terms][:3] if vocab is not None else []
        out.append(
            Finding(
                element.file,
                line,
                column,
                Severity.WARNING,
                "colour-only",
                None,
                f"{template.name}: '{field}' reaches the face only as colour "
                f"('{element.id or element.type}' {key} from its '{attr}'): no text, badge or "
                "picture names it, so a colour-blind player, or a greyscale print, cannot tell "
                f"{' from '.join(names[:2]) or 'its values'} apart",
                f"print the value's name, letter or symbol on the face (a text or badge reading "
                f"card.{field})",
            )
        )
    return out

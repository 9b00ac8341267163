"""Per-card checks of each field against the model: unknown fields, types, vocabularies, costs, kind
rules."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from ..core.errors import Finding, Severity, did_you_mean
from ..load.card import Card, id_problem, slug
from ..model.cost import parse_cost
from ..model.game import FieldSpec, Role
from . import Context, card_check

BUILTIN_FIELDS = {"id"}
_SEVERITY = {"info": Severity.INFO, "warning": Severity.WARNING, "error": Severity.ERROR}


@card_check("fields")
def check_fields(card: Card, ctx: Context) -> Iterator[Finding]:
    model = ctx.model
    placeholders = ctx.placeholder_fields(card)
    for key, value in card.data.items():
        if key in BUILTIN_FIELDS:
            if key == "id" and not (isinstance(value, str) and value.strip()):
                yield ctx.at(card, key, Severity.ERROR, "wrong-type", "'id' must be non-empty text")
            elif key == "id" and (problem := id_problem(value.strip())):
                yield ctx.at(
                    card,
                    key,
                    Severity.ERROR,
                    "bad-id",
                    f"id {value.strip()!r} {problem}",
                    f"ids name files; try '{slug(value) or 'card-1'}'",
                )
            continue
        spec = model.fields.get(key)
        if spec is None:
            yield ctx.at(
                card,
                key,
                Severity.ERROR,
                "unknown-field",
                f"unknown field '{key}'",
                did_you_mean(key, list(model.fields)) or f"fields: {', '.join(model.fields)}",
            )
            continue
        if value is None or key in placeholders:
            continue  # absent, or reported once as an unfinished card
        yield from _check_value(card, ctx, spec, value)
    for spec in model.fields.values():
        if spec.required and card.get(spec.name) is None:
            severity = Severity.WARNING if ctx.is_draft(card) else Severity.ERROR
            yield ctx.at(
                card,
                None,
                severity,
                "missing-field",
                f"missing required field '{spec.name}'",
                about=f"fields.{spec.name}",
            )


def _check_value(card: Card, ctx: Context, spec: FieldSpec, value: object) -> Iterator[Finding]:
    """The value's findings, each tagged with the model part it depends on (Finding.about)."""
    about = f"fields.{spec.name}"
    for f in _value_findings(card, ctx, spec, value):
        yield f if f.about else replace(f, about=about)


def _value_findings(card: Card, ctx: Context, spec: FieldSpec, value: object) -> Iterator[Finding]:
    key, kind = spec.name, spec.type
    if kind in ("text", "number", "image"):
        if not isinstance(value, str):
            yield ctx.at(
                card,
                key,
                Severity.ERROR,
                "wrong-type",
                f"'{key}' must be text, got {_show(value)}",
                "put it in quotes",
            )
        elif spec.max_length and len(value) > spec.max_length:
            yield ctx.at(
                card,
                key,
                Severity.WARNING,
                "too-long",
                f"'{key}' is {len(value)} characters; the model allows {spec.max_length}",
            )
    elif kind in ("integer", "int-or-x"):
        if isinstance(value, str) and kind == "int-or-x" and value.strip().upper() == "X":
            return
        if isinstance(value, bool) or not isinstance(value, int):
            want = "a whole number or X" if kind == "int-or-x" else "a whole number"
            yield ctx.at(
                card,
                key,
                Severity.ERROR,
                "wrong-type",
                f"'{key}' must be {want}, got {_show(value)}",
            )
            return
        if _reversed(spec):
            return  # the model's bounds are reported once, as model-bounds-reversed
        if (
            spec.minimum is not None
            and value < spec.minimum
            or spec.maximum is not None
            and value > spec.maximum
        ):
            yield ctx.at(
                card,
                key,
                Severity.ERROR,
                "out-of-range",
                f"'{key}' is {value}; the model allows {_bounds(spec)}",
            )
    elif kind == "enum":
        if not isinstance(value, str):
            yield ctx.at(
                card,
                key,
                Severity.ERROR,
                "wrong-type",
                f"'{key}' must be one word, got {_show(value)}",
            )
        else:
            yield from _check_term(card, ctx, spec, value)
    elif kind == "list":
        items = value if isinstance(value, list) else [value]
        if spec.max_length and len(items) > spec.max_length:
            yield ctx.at(
                card,
                key,
                Severity.ERROR,
                "too-many-values",
                f"'{key}' has {len(items)} values; the model allows {spec.max_length}",
            )
        repeated = sorted({str(i) for i in items if items.count(i) > 1})
        if repeated:
            yield ctx.at(
                card,
                key,
                Severity.ERROR,
                "repeated-value",
                f"'{key}' lists {', '.join(repeated)} twice",
            )
        for item in items:
            if not isinstance(item, str):
                yield ctx.at(
                    card,
                    key,
                    Severity.ERROR,
                    "wrong-type",
                    f"'{key}' entries must be text, got {_show(item)}",
                )
            elif not ctx.is_placeholder(item):
                yield from _check_term(card, ctx, spec, item)
    elif kind == "cost":
        yield from _check_cost(card, ctx, value, key)


def _bounds(spec: FieldSpec) -> str:
    """A field's range in words: '0 to 9', 'at least 0', 'at most 9'."""
    if spec.minimum is not None and spec.maximum is not None:
        return f"{spec.minimum} to {spec.maximum}"
    if spec.minimum is not None:
        return f"at least {spec.minimum}"
    return f"at most {spec.maximum}"


def _reversed(spec: FieldSpec) -> bool:
    return spec.minimum is not None and spec.maximum is not None and spec.minimum > spec.maximum


def _check_term(card: Card, ctx: Context, spec: FieldSpec, value: str) -> Iterator[Finding]:
    about = ctx.model.about_field(spec.name)
    for f in _term_findings(card, ctx, spec, value):
        yield replace(f, about=about)


def _term_findings(card: Card, ctx: Context, spec: FieldSpec, value: str) -> Iterator[Finding]:
    vocab = ctx.model.vocabularies.get(spec.vocab or "")
    if vocab is None:
        return
    term, how = vocab.lookup(value)
    key = spec.name
    if term is None:
        if vocab.open:
            yield ctx.at(card, key, Severity.INFO, "new-value", f"'{value}' is a new {vocab.name}")
        else:
            yield ctx.at(
                card,
                key,
                Severity.ERROR,
                "unknown-value",
                f"unknown {vocab.name} '{value}'",
                did_you_mean(value, vocab.names())
                or f"values of {vocab.name}: {', '.join(vocab.names())}",
            )
        return
    if how == "case":
        yield ctx.at(
            card,
            key,
            Severity.WARNING,
            "value-case",
            f"{vocab.name} '{value}' is written '{term.name}' in the model",
        )
    elif how == "alias":
        note = f": {term.note}" if term.note else ""
        yield ctx.at(
            card,
            key,
            Severity.WARNING,
            "value-alias",
            f"{vocab.name} '{value}' is another word for '{term.name}'{note}",
        )
    if term.warn:
        yield ctx.at(
            card, key, Severity.WARNING, "value-warning", f"{vocab.name} '{term.name}': {term.warn}"
        )


def _check_cost(card: Card, ctx: Context, value: object, key: str) -> Iterator[Finding]:
    grammar = ctx.model.cost
    if isinstance(value, int) and not isinstance(value, bool) and grammar.generic:
        value = f"{{{value}}}"
    if not isinstance(value, str):
        yield ctx.at(
            card, key, Severity.ERROR, "wrong-type", f"'{key}' must be text, got {_show(value)}"
        )
        return
    cost = parse_cost(value, grammar)
    for code, message in cost.problems:
        yield ctx.at(card, key, Severity.ERROR, code, message, about="costs")
    if grammar.match_factions:
        yield from _cost_factions(card, ctx, key, cost.sequence)
    for clause in cost.clauses:
        yield ctx.at(
            card,
            key,
            _SEVERITY[grammar.clauses],
            "cost-clause",
            f"cost has a free-text clause '{clause}': players follow it as written",
            about="costs",
        )


def _cost_factions(card: Card, ctx: Context, key: str, sequence: list[str]) -> Iterator[Finding]:
    """cost.match_factions: each symbol that belongs to a faction is one of the card's factions;
    a hybrid's halves both are (a {T/G} card is a Tides and a Groves card)."""
    model = ctx.model
    about = "costs" if model.role_field(Role.FACTION) else model.about_role(Role.FACTION)
    factions = set()
    for field_name in model.role_fields(Role.FACTION):
        for value in card.values(field_name):
            term = model.term(field_name, str(value))
            factions.add(term.name if term else str(value))
    for item in dict.fromkeys(sequence):
        halves = model.cost.halves(item)
        symbols = [model.cost.symbol(h) for h in (halves or [item])]
        owners = [s.faction for s in symbols if s is not None]
        shown = ", ".join(sorted(factions)) or "of no faction"
        if owners and all(o is not None for o in owners) and not factions & set(owners):  # type: ignore[arg-type]
            yield ctx.at(
                card,
                key,
                Severity.ERROR,
                "cost-faction",
                f"'{item}' belongs to {' or '.join(o or '' for o in owners)}; the card is {shown}",
                about=about,
            )
        elif halves and factions:
            other = [o for o in owners if o is not None and o not in factions]
            if other:
                yield ctx.at(
                    card,
                    key,
                    Severity.ERROR,
                    "cost-hybrid-faction",
                    f"hybrid '{{{item}}}' makes the card {' and '.join(dict.fromkeys(other))} "
                    f"as well; the card is {shown}",
                    "under cost.match_factions both halves of a hybrid must be the card's "
                    "factions: add the faction, or pay with a symbol of its own",
                    about=about,
                )


@card_check("kind-rules")
def check_term_rules(card: Card, ctx: Context) -> Iterator[Finding]:
    """Fields a card's faction, kind, rarity… requires or forbids (e.g. every unit has power and
    toughness)."""
    for spec, vocab in ctx.term_fields:
        for value in card.values(spec.name):
            term = vocab.lookup(value)[0] if isinstance(value, str) else None
            if term is None or not (term.requires or term.forbids):
                continue
            about = ctx.model.about_field(spec.name)
            # a rule naming a field the model lacks is its model error (model-unknown-field)
            missing = [
                need
                for need in term.requires
                if card.get(need) is None and need in ctx.model.fields
            ]
            if missing:
                severity = Severity.WARNING if ctx.is_draft(card) else Severity.ERROR
                what = ", ".join(f"'{m}'" for m in missing)
                yield ctx.at(
                    card,
                    spec.name,
                    severity,
                    "requires-field",
                    f"{term.name} cards need {what}; this one has no {what}"
                    if len(missing) == 1
                    else f"{term.name} cards need {', '.join(repr(r) for r in term.requires)}; "
                    f"this one lacks {what}",
                    about=about,
                )
            for banned in term.forbids:
                if card.get(banned) is not None:
                    yield ctx.at(
                        card,
                        banned,
                        Severity.ERROR,
                        "forbids-field",
                        f"{term.name} cards have no '{banned}'; this one gives one",
                        about=about,
                    )


def _show(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, bool):
        return f"'{str(value).lower()}' (a yes/no value)"
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:50] + f"…' ({len(str(value)):,} characters)"

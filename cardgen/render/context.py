"""Turn a card and its template into what the template's expressions see (the card as a view, the
model's term attributes, the template's vars, one budget for all of them) and decide an element's
`when` condition."""

from __future__ import annotations

from typing import Any, Callable

from jinja2 import ChainableUndefined

from ..core.sandbox import BUDGET, CARD, Budget
from ..load.card import Card
from ..model.game import GameModel
from .template import Element, Template


class VarFailed(Exception):
    """A var that failed to render, raised where an element uses it (so the finding names that
    element)."""

    def __init__(self, name: str, exc: Exception) -> None:
        super().__init__(f"var '{name}' failed: {exc}")
        self.finding_code = getattr(exc, "finding_code", "template-error")


class Vars(dict):
    """The template's vars for one card; one that failed raises VarFailed when it is read."""

    def __init__(self, values: dict[str, Any], failed: dict[str, Exception]) -> None:
        super().__init__(values)
        self.failed = failed

    def __getitem__(self, key: str) -> Any:
        if key in self.failed:
            raise VarFailed(key, self.failed[key])
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self.failed else super().get(key, default)


class CardView(dict):
    """A card as templates see it: fields by attribute, absent lists as [], absent values as ''."""

    def __getattr__(self, key: str) -> Any:
        return self.get(key, "")


def card_view(card: Card, model: GameModel) -> CardView:
    view = CardView(id=card.id)
    for name, spec in model.fields.items():
        value = card.get(name)
        if value is None:
            value = [] if spec.type == "list" else ""
        elif spec.type == "list" and not isinstance(value, list):
            value = [value]
        view[name] = value
    return view


def context(
    card: Card,
    model: GameModel,
    template: Template,
    var: Callable[[str, Any, dict[str, Any]], Any] | None = None,
) -> dict[str, Any]:
    """The names a template's expressions can use for one card; `var(name, value, ctx)` works out
    a var's value where `value.get(ctx)` would (render.face's: remembered by what it reads)."""
    view = card_view(card, model)

    def term_attr(field_name: str, attr: str, default: Any = "", index: int = 0) -> Any:
        values = view.get(field_name) or []
        values = values if isinstance(values, list) else [values]
        if index >= len(values):
            return default
        term = model.term(field_name, str(values[index]))
        if term is None:
            return default
        return term.attrs.get(attr, term.name if attr == "name" else default)

    def term_attrs(field_name: str, attr: str) -> list[Any]:
        values = view.get(field_name) or []
        values = values if isinstance(values, list) else [values]
        return [term_attr(field_name, attr, None, i) for i in range(len(values))]

    def canonical(field_name: str) -> list[str]:
        """Values as the model names them (aliases resolved): 'Phenomenon' -> 'Power'."""
        out = []
        for v in view.get(field_name) or []:
            term = model.term(field_name, str(v))
            out.append(term.name if term else str(v))
        return out

    ctx: dict[str, Any] = {
        "card": view,
        "model": {"name": model.name, "id": model.id, "version": model.version, "game": model.info},
        "attr": term_attr,
        "attrs": term_attrs,
        "canonical": canonical,
        "cost": (lambda: model.parsed_cost(view.get(model.cost_field or ""))),
        "draft": model.draft_field is not None
        and card.get(model.draft_field) in model.draft_values,
        BUDGET: Budget(
            CARD
        ),  # the face's values share one budget (each may use one render's limits of it)
    }
    values, failed = {}, {}
    for name, value in template.vars.items():
        try:
            values[name] = value.get(ctx) if var is None else var(name, value, ctx)
        except Exception as exc:  # reported by the elements that use it
            failed[name] = exc
    ctx["vars"] = Vars(values, failed) if failed else values
    return ctx


def is_true(element: Element, ctx: dict[str, Any]) -> bool:
    if element.when is None:
        return True
    budget = ctx.get(BUDGET)
    if budget is not None:
        budget.start()
    value = element.when(**ctx)
    return bool(value) and not isinstance(value, ChainableUndefined)

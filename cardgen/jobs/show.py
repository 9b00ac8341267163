"""Turn one card of a game into a readable listing of its fields, their source lines, and its
findings."""

from __future__ import annotations

from ..core.errors import CardgenError, ModelUnusable, did_you_mean
from ..core.output import JobResult
from ..core.workspace import Workspace
from ..load.card import Card, Catalog
from .findings import validate_game


def _by_translated_name(catalog: Catalog, query: str) -> Card | None:
    """The card one of whose names in another language (`name@de`) is `query`, ignoring case."""
    wanted = query.casefold()
    for card in catalog.written or catalog:  # the cards as written, every language's keys kept
        for key, value in card.data.items():
            if key.startswith("name@") and isinstance(value, str) and value.casefold() == wanted:
                return catalog.find(card.id)
    return None


def show_card(ws: Workspace, game: str, query: str) -> JobResult:
    """The card as loaded, with every finding about it (the same findings `cardgen validate`
    reports)."""
    result = validate_game(ws, game)
    if result.model is None:
        raise ModelUnusable(game, result.findings, ws.shown(ws.model_path(game)))
    card = result.catalog.find(query) or _by_translated_name(result.catalog, query)
    if card is None:
        names = [c.name for c in result.catalog if c.name] + [c.id for c in result.catalog]
        hint = did_you_mean(query, names)
        raise CardgenError(  # a name the command line got wrong: a usage error (exit 2)
            f"no card '{query}' in {game} (by id, or by name in any language)"
            + (f"; {hint}" if hint else "")
        )
    lines = [f"{card.name or '(untitled)'}  [{card.id}]  {card.file}:{card.line}:{card.column}"]
    width = max((len(k) for k in card.data), default=4)
    for key, value in card.data.items():
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        line, col = card.loc(key)
        body = shown.replace("\n", "\n" + " " * (width + 4))
        lines.append(f"  {key:<{width}}  {body}    ({line}:{col})")
    mine = result.model_errors + [f for f in result.findings if f.card == card.id]
    if mine:
        lines.append("findings:")
    return JobResult(findings=mine, text="\n".join(lines) + "\n")

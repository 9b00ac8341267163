"""Turn one card of a game into a readable listing of its fields, their source lines, and its
findings."""

from __future__ import annotations

from ..core.errors import Finding, ModelUnusable, Severity, did_you_mean
from ..core.output import JobResult
from ..core.workspace import Workspace
from .findings import validate_game


def show_card(ws: Workspace, game: str, query: str) -> JobResult:
    """The card as loaded, with every finding about it (the same findings `cardgen validate`
    reports)."""
    result = validate_game(ws, game)
    if result.model is None:
        raise ModelUnusable(game, result.findings, ws.shown(ws.model_path(game)))
    card = result.catalog.find(query)
    if card is None:
        names = [c.name for c in result.catalog if c.name] + [c.id for c in result.catalog]
        return JobResult(
            findings=[
                Finding(
                    "",
                    0,
                    0,
                    Severity.ERROR,
                    "unknown-card",
                    None,
                    f"no card '{query}' in {game}",
                    did_you_mean(query, names),
                )
            ]
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

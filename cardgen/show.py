"""Turn one card of a game into a readable listing of its fields, their source lines, and its findings."""
from __future__ import annotations

from .check import check_game
from .errors import did_you_mean
from .workspace import Workspace


def show_card(ws: Workspace, game: str, query: str) -> tuple[str, bool]:
    result = check_game(ws, game)
    card = result.catalog.find(query)
    if card is None:
        names = [c.name for c in result.catalog if c.name] + [c.id for c in result.catalog]
        hint = did_you_mean(query, names)
        return f"no card '{query}' in {game}" + (f"; {hint}" if hint else "") + "\n", False
    lines = [f"{card.name or '(untitled)'}  [{card.id}]  {card.file}:{card.line}:{card.column}"]
    width = max((len(k) for k in card.data), default=4)
    for key, value in card.data.items():
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        line, col = card.loc(key)
        body = shown.replace("\n", "\n" + " " * (width + 4))
        lines.append(f"  {key:<{width}}  {body}    ({line}:{col})")
    mine = [f for f in result.findings if f.card == card.id]
    if mine:
        lines.append("findings:")
        lines.extend(f"  {f.format()}" for f in mine)
    return "\n".join(lines) + "\n", True

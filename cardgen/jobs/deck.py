"""The deck-check job: load the game, read the deck list (and a drafted pool), return the
findings."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import Finding, count
from ..core.output import JobResult
from ..core.workspace import Workspace
from ..load.decklist import DeckList, read_deck
from ..project.check import checked, is_root
from ..validate.decks import check_deck, dialect_for, read_pool


def check_deck_file(
    ws: Workspace,
    game: str,
    path: Path,
    pool: Path | None = None,
    seat: int = 1,
    rules: str | None = None,
) -> tuple[DeckList, list[Finding]]:
    result = checked(ws, game)
    deck = read_deck(path, ws.shown(path), dialect_for(result.model))  # type: ignore[arg-type]
    picks = read_pool(pool, seat) if pool is not None else None
    found = check_deck(deck, result.model, result.catalog, picks, rules)  # type: ignore[arg-type]
    return deck, result.model_errors + found


def run_deck_check(
    ws: Workspace,
    game: str,
    path: Path,
    pool: Path | None = None,
    seat: int = 1,
    strict: bool = False,
    rules: str | None = None,
) -> JobResult:
    """A deck list's findings, and a one-line verdict."""
    deck, findings = check_deck_file(ws, game, path, pool, seat, rules)
    own = [f for f in findings if not is_root(f)]
    c = count(own)
    legal = not JobResult(findings=own).failed(strict)
    cards = sum(e.count for e in deck.entries)
    model = len(findings) - len(own)
    verdict = (
        f"{deck.file}: {deck.format} list, {cards} cards: "
        + ("legal" if legal else "not legal")
        + f" ({c['error']} errors, {c['warning']} warnings, {c['info']} unverifiable or info)"
        + (
            f"; the model has {model} error{'s' if model != 1 else ''} (above): the verdict is "
            "by the rules as read"
            if model
            else ""
        )
    )
    return JobResult(findings=findings, text=verdict + "\n")

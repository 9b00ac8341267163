"""The deck-check job: load the game, read the deck list (and a drafted pool), return the findings."""
from __future__ import annotations

from pathlib import Path

from ..core.errors import CardgenError, Finding, count
from ..core.output import JobResult
from ..core.workspace import Workspace
from ..load.decklist import DeckList, read_deck
from ..project.check import check_game
from ..validate.decks import check_deck, dialect_for, read_pool


def check_deck_file(ws: Workspace, game: str, path: Path, pool: Path | None = None,
                    seat: int = 1, rules: str | None = None) -> tuple[DeckList, list[Finding]]:
    result = check_game(ws, game)
    if result.model is None:
        raise CardgenError(f"the model of '{game}' has errors; run 'cardgen validate {game}'")
    deck = read_deck(path, ws.shown(path), dialect_for(result.model))
    picks = read_pool(pool, seat) if pool is not None else None
    return deck, check_deck(deck, result.model, result.catalog, picks, rules)


def run_deck_check(ws: Workspace, game: str, path: Path, pool: Path | None = None, seat: int = 1,
                   strict: bool = False, rules: str | None = None) -> JobResult:
    """A deck list's findings, and a one-line verdict."""
    deck, findings = check_deck_file(ws, game, path, pool, seat, rules)
    c = count(findings)
    legal = not JobResult(findings=findings).failed(strict)
    cards = sum(e.count for e in deck.entries)
    verdict = (f"{deck.file}: {deck.format} list, {cards} cards: " + ("legal" if legal else "not legal")
               + f" ({c['error']} errors, {c['warning']} warnings, {c['info']} unverifiable or info)")
    return JobResult(findings=findings, text=verdict + "\n")

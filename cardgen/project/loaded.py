"""Turn a workspace and a game name into a LoadedGame: its model and cards as read, with the findings of reading them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..core.errors import Finding
from ..core.workspace import Workspace
from ..load.card import Catalog
from ..load.cards import read_cards
from ..model.game import GameModel
from ..model.load import load_model


@dataclass
class LoadedGame:
    """A game's model and cards as read, plus every finding from reading them (validation comes after)."""

    workspace: Workspace
    game: str
    model: GameModel | None
    catalog: Catalog
    findings: list[Finding] = field(default_factory=list)


def load_game(ws: Workspace, game: str, progress: Callable[[str, int, int], None] | None = None) -> LoadedGame:
    ws.check_game(game)
    model, findings = load_model(ws.model_path(game), ws.shown(ws.model_path(game)), game)
    catalog, card_findings = read_cards(game, ws.cards_dir(game), ws.root, progress,
                                        cache=ws.output_dir(game) / ".cache")
    return LoadedGame(ws, game, model, catalog, findings + card_findings)

"""Turn a workspace and a game name into a LoadedGame: its model and cards as read (as the
workspace's edition shows them, for a game with editions), with the findings of reading them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..core.errors import CardgenError, Finding, suggest
from ..core.workspace import Workspace
from ..load.card import Catalog
from ..load.cardfile import card_file_bytes
from ..load.cards import read_cards
from ..model.game import GameModel
from ..model.load import load_model
from ..model.localise import edition_catalog, edition_model


@dataclass
class LoadedGame:
    """A game's model and cards as read, plus every finding from reading them (validation comes
    after)."""

    workspace: Workspace
    game: str
    model: GameModel | None
    catalog: Catalog
    findings: list[Finding] = field(default_factory=list)

    @property
    def source(self) -> Catalog:
        """The cards as written in their files, with their per-language keys (name@de) where
        `catalog` is an edition's view of them (model/localise.py): what the sheet commands edit."""
        return self.catalog.written or self.catalog


def load_game(
    ws: Workspace, game: str, progress: Callable[[str, int, int], None] | None = None
) -> LoadedGame:
    ws.check_game(game)
    cache = ws.shared_dir(game) / ".cache"
    model, findings = load_model(ws.model_path(game), ws.shown(ws.model_path(game)), game, cache)
    catalog, card_findings = read_cards(
        game,
        ws.cards_dir(game),
        ws.root,
        progress,
        cache=cache,
        max_bytes=card_file_bytes(model.card_file_mb if model else None),
    )
    loaded = LoadedGame(ws, game, model, catalog, findings + card_findings)
    if model is None or model.editions is None and not ws.edition:
        return loaded
    return in_edition(loaded, ws.edition)


def check_edition(model: GameModel, game: str, lang: str) -> str:
    """The edition `lang` names: '' for the default language's, else `lang`; a game without
    editions, or a language it does not have, is a usage error (with a did-you-mean)."""
    eds = model.editions
    if eds is None:
        raise CardgenError(
            f"'{game}' has no editions (rules/{game}/game.yaml declares no editions:), so there "
            f"is no edition '{lang}'; see docs/editions.md"
        )
    if lang == eds.default:
        return ""
    if lang not in eds.languages:
        codes = eds.codes()
        raise CardgenError(
            suggest(f"'{game}' has no edition '{lang}' (editions: {', '.join(codes)})", lang, codes)
        )
    return lang


def in_edition(loaded: LoadedGame, lang: str) -> LoadedGame:
    """The game as edition `lang` ('' for the default) prints it (the cards as written are its
    catalog's `written`)."""
    model = loaded.model
    assert model is not None
    chosen = check_edition(model, loaded.game, lang) if lang else ""
    if model.editions is None:
        return loaded
    view = edition_model(model, chosen or model.editions.default)
    catalog = edition_catalog(loaded.catalog, view)
    return LoadedGame(loaded.workspace, loaded.game, view, catalog, loaded.findings)

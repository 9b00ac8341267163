"""Turn `--edition LANG` into the workspace a command works in (project.loaded loads the game as
that edition), a game into a workspace per edition, and an edition's findings into findings naming
it."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from ..core.errors import Finding
from ..core.workspace import Workspace
from ..load.card import Catalog
from ..model.game import GameModel
from ..model.load import load_model
from .loaded import check_edition


def with_edition(ws: Workspace, game: str, lang: str | None) -> Workspace:
    """The workspace a command given `--edition LANG` works in: the game loads as that edition and
    its outputs go to output/GAME@LANG/ (the default language's: output/GAME/, as without it)."""
    if not lang:
        return ws
    ws.check_game(game)
    model, _ = load_model(
        ws.model_path(game), ws.shown(ws.model_path(game)), game, ws.shared_dir(game) / ".cache"
    )
    if model is None:  # the command reports the model's errors
        return replace(ws, edition=lang)
    return replace(ws, edition=check_edition(model, game, lang))


def edition_workspaces(ws: Workspace, game: str, model: GameModel | None) -> list[Workspace]:
    """A workspace per edition of the game, the default language's first (`ws` alone for a game
    without editions, or when `ws` already works in one edition)."""
    if model is None or model.editions is None or ws.edition:
        return [ws]
    return [ws] + [replace(ws, edition=lang) for lang in model.editions.others()]


def tag_edition(
    findings: list[Finding],
    lang: str,
    base: Collection[Finding] | None = None,
    catalog: Catalog | None = None,
) -> list[Finding]:
    """The findings of edition `lang`, those that are its own naming it (`Finding.edition`): with
    the default edition's findings (`base`), every one the default does not have, less those the
    default says in the same words of the same card elsewhere (a duplicate id seen at `name@fr`
    is the default's duplicate id); else those at a translation the edition prints (`catalog`:
    the edition's view of the cards)."""
    if not lang:
        return findings
    if base is not None:
        said = {(f.file, f.code, f.card, f.message) for f in base}
        return [
            f if f.edition is not None or f in base else replace(f, edition=lang)
            for f in findings
            if f.edition is not None or f in base or (f.file, f.code, f.card, f.message) not in said
        ]
    places = {(card.file, *card.loc(name)) for card in (catalog or []) for name in card.translated}
    return [
        replace(f, edition=lang)
        if f.edition is None and (f.file, f.line, f.column) in places
        else f
        for f in findings
    ]


def has_editions(ws: Workspace, game: str) -> bool:
    """Whether the game's model declares editions (a model that does not load: no)."""
    ws.check_game(game)
    model, _ = load_model(
        ws.model_path(game), ws.shown(ws.model_path(game)), game, ws.shared_dir(game) / ".cache"
    )
    return model is not None and model.editions is not None

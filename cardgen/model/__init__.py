"""The game model and cards as plain objects (no I/O here beyond the loaders)."""

from ..load.card import Card, Catalog
from .game import GameModel

__all__ = ["Card", "Catalog", "GameModel"]

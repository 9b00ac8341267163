"""Cards as plain located objects, and the Catalog of one game's cards."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Iterator

from ..yamlio import Loc


def slug(text: str) -> str:
    """'Black Queen of the Oblivion' -> 'black-queen-of-the-oblivion'; '"Spirit" - ET.1213' -> 'spirit-et-1213'."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", folded).strip("-")


@dataclass
class Card:
    """One card as the designer wrote it: its fields, and where each of them stands."""

    id: str
    data: dict[str, Any]
    file: str
    line: int
    column: int
    field_locs: dict[str, Loc] = field(default_factory=dict)
    order: int = 0  # position in the whole catalog, in file order

    @property
    def name(self) -> str:
        value = self.data.get("name")
        return value if isinstance(value, str) else ""

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def values(self, key: str) -> list[Any]:
        """A field as a list: absent -> [], a scalar -> [scalar]."""
        value = self.data.get(key)
        if value is None:
            return []
        return list(value) if isinstance(value, list) else [value]

    def loc(self, key: str | None = None) -> Loc:
        if key and key in self.field_locs:
            return self.field_locs[key]
        return self.line, self.column

    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Catalog:
    """All cards of one game, in file order, with the files they came from."""

    game: str
    cards: list[Card] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def by_id(self) -> dict[str, Card]:
        """First card per id (duplicates are the validator's business)."""
        out: dict[str, Card] = {}
        for c in self.cards:
            out.setdefault(c.id, c)
        return out

    def find(self, query: str) -> Card | None:
        """A card by id, by exact name, or by name ignoring case."""
        ids = self.by_id()
        if query in ids:
            return ids[query]
        for c in self.cards:
            if c.name == query:
                return c
        folded = query.lower()
        for c in self.cards:
            if c.name.lower() == folded or c.id == slug(query):
                return c
        return None

"""Cards as plain located objects, and the Catalog of one game's cards."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from .yamlio import Loc


def slug(text: str) -> str:
    """'Black Queen of the Oblivion' -> 'black-queen-of-the-oblivion'; '"Spirit" - ET.1213' ->
    'spirit-et-1213'."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", folded).strip("-")


_UNSAFE = re.compile(r'[<>:"/\\|?*\x00-\x1f\x7f]')
_RESERVED = {
    "CON",
    "PRN",
    "AUX",
    "NUL",
    *(f"COM{i}" for i in range(1, 10)),
    *(f"LPT{i}" for i in range(1, 10)),
}
MAX_ID = 120


def id_problem(card_id: str) -> str | None:
    """Why an id cannot name a file on every system (it names the card's PNG and export files), or
    None."""
    if _UNSAFE.search(card_id):
        return 'contains a path separator, a control character or one of < > : " | ? *'
    if card_id.startswith(".") or card_id.endswith((".", " ")) or card_id != card_id.strip():
        return "starts with a dot or starts or ends with a space or a dot"
    if card_id.split(".")[0].upper() in _RESERVED:
        return "is a name Windows reserves for a device"
    if len(card_id) > MAX_ID:
        return f"is longer than {MAX_ID} characters"
    return None


def file_stem(card_id: str) -> str:
    """The card id as a file name: itself when safe, else its slug and a short hash (never a
    path)."""
    if id_problem(card_id) is None:
        return card_id
    import hashlib

    digest = hashlib.sha1(card_id.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{slug(card_id)[:60] or 'card'}-{digest}"


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
    # in one edition's view of the card (model/localise.py): the fields whose value is a
    # translation (FIELD@LANG: their places are that key's), and those that fell back to the cards'
    # own language for want of one
    translated: tuple[str, ...] = ()
    untranslated: tuple[str, ...] = ()

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


def designs(cards: Iterable[Card]) -> list[Card]:
    """One card per id, the first in order: what "each design once" means everywhere (a repeated id
    is the validator's business)."""
    seen: dict[str, Card] = {}
    for card in cards:
        seen.setdefault(card.id, card)
    return list(seen.values())


@dataclass
class Catalog:
    """All cards of one game, in file order, with the files they came from."""

    game: str
    cards: list[Card] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    # in one edition's view of the cards (model/localise.py): the cards as written, with their
    # per-language keys (name@de)
    written: "Catalog | None" = None

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def designs(self) -> list[Card]:
        return designs(self.cards)

    def by_id(self) -> dict[str, Card]:
        """First card per id (duplicates are the validator's business)."""
        out: dict[str, Card] = {}
        for c in self.cards:
            out.setdefault(c.id, c)
        return out

    def find(self, query: str) -> Card | None:
        """A card by id, by exact name, or by name ignoring case."""
        index = self.__dict__.get("_index")
        if index is None or index[0] != len(
            self.cards
        ):  # built once per catalog (a rulebook looks up many)
            ids: dict[str, Card] = {}
            names: dict[str, Card] = {}
            loose: dict[
                str, Card
            ] = {}  # name ignoring case, and id, as the last resort in catalog order
            for c in self.cards:
                ids.setdefault(c.id, c)
                names.setdefault(c.name, c)
                loose.setdefault(c.name.lower(), c)
                loose.setdefault(c.id, c)
            index = self.__dict__["_index"] = (len(self.cards), ids, names, loose)
        _, ids, names, loose = index
        found = ids.get(query) or names.get(query)
        if found is not None:
            return found
        by_name, by_id = loose.get(query.lower()), loose.get(slug(query))
        if (
            by_name is not None and by_id is not None
        ):  # both match: the one earlier in the catalog, as before
            return by_name if by_name.order <= by_id.order else by_id
        if by_name is None and by_id is None and self.written is not None:
            # an edition's view: a card named as the cards' own language names it ('Ember Warden'
            # in a German chapter or deck list) is found too
            mine = self.written.find(query)
            if mine is not None and 0 <= mine.order < len(self.cards):
                return self.cards[mine.order]
        return by_name or by_id

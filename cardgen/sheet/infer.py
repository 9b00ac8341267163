"""Turn a spreadsheet's tables into an inferred game: typed fields, vocabularies, the name, id and
copies columns, and the cards as plain data."""

from __future__ import annotations

import keyword
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from dataclasses import field as _field
from typing import Any, Protocol, Sequence

from ..load.card import slug
from ..model.game import Role
from .infer_values import (
    ENUM_MAX_VALUES,
    Value,
    as_int,
    as_text,
    clean,
    list_parts,
    misspelt,
    spellings,
    stray_words,
)
from .read import column_letter

# Header words (after folding: lower case, runs of other characters as '_') that name a column's
# meaning. They only choose the name, id and copies columns and suggest roles; every choice is
# written into game.yaml with a comment, for the designer to change.
NAME_HEADERS = ("name", "card_name", "title", "card_title", "card")
ID_HEADERS = ("id", "card_id", "key")
COPIES_HEADERS = (
    "copies",
    "qty",
    "quantity",
    "count",
    "amount",
    "number_of_copies",
    "num_copies",
    "no_of_copies",
    "copy_count",
)
# the copies each player's starting deck adds (a deckbuilder's Copper): an empty cell is none
PER_PLAYER_HEADERS = (
    "start",
    "starting",
    "starter",
    "per_player",
    "each_player",
    "starting_deck",
    "start_deck",
    "starting_copies",
)
COST_ROLE_HEADERS = ("cost", "mana", "mana_cost", "price", "energy", "energy_cost", "play_cost")
ROLE_HEADERS: dict[str, dict[str, tuple[str, ...]]] = {
    "enum": {
        Role.KIND: ("type", "kind", "card_type", "category", "cardtype"),
        Role.FACTION: ("faction", "color", "colour", "suit", "house", "clan", "element", "school"),
        Role.RARITY: (Role.RARITY,),  # the header word is the role's name
    },
    "integer": {
        Role.ATTACK: ("attack", "power", "atk", "strength", "str", "damage"),
        Role.HEALTH: ("health", "hp", "defense", "defence", "toughness", "life"),
        Role.COST: COST_ROLE_HEADERS,
        Role.PER_PLAYER: PER_PLAYER_HEADERS,
    },
    "int-or-x": {Role.COST: COST_ROLE_HEADERS},
    "text": {
        Role.FLAVOR: ("flavor", "flavour", "flavor_text", "flavour_text"),
        Role.TEXT: ("rules", "rules_text", "text", "card_text", "ability", "abilities", "effect"),
    },
}
ENUM_MAX_LENGTH = 40
LONG_TEXT = 40  # mean characters above which a text field goes in the rules box
PICTURE = re.compile(r"\.(png|jpe?g|webp|gif)$", re.IGNORECASE)  # what cardgen draws (imagefile)
_RESERVED = set(dir(dict)) | {"id", "draft"}


class CellLike(Protocol):
    @property
    def ref(self) -> str: ...

    @property
    def value(self) -> Value: ...


class TableLike(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def header(self) -> Sequence[CellLike]: ...

    @property
    def rows(self) -> Sequence[Sequence[CellLike]]: ...


@dataclass
class Column:
    """One field the sheet's columns make, with what was inferred about it and why."""

    field: str
    header: str  # as the sheet writes it (the first table's)
    where: str  # 'column C of Cards'
    kind: str = "text"  # name, id, copies, text, integer, int-or-x, enum, list, image (cost: …)
    role: str | None = None
    vocab: list[str] = _field(default_factory=list)  # enum and list values, commonest first
    minimum: int | None = None
    maximum: int | None = None
    separator: str = ","
    multiline: bool = False
    long: bool = False  # shown in the rules box rather than the facts lines
    required: bool = False
    filled: int = 0  # rows with a value
    rows: int = 0  # rows in all
    why: str = ""


@dataclass
class Inferred:
    """The game a sheet makes: its fields in sheet order, and each table's cards."""

    columns: list[Column]
    tables: list[tuple[str, list[dict[str, object]]]]
    notes: list[str] = _field(default_factory=list)
    cost: Any = None  # the cost grammar guessed from it (infer_cost.CostGuess), once applied
    editions: Any = None  # its language columns read (infer_editions.EditionGuess), once applied

    def get(self, kind: str) -> Column | None:
        return next((c for c in self.columns if c.kind == kind), None)

    def by_role(self, role: str) -> Column | None:
        return next((c for c in self.columns if c.role == role), None)


def fold(header: str) -> str:
    """'Rules Text ' -> 'rules_text'; 'Name (DE)' -> 'name_de'; 'COST' -> 'cost'."""
    ascii_ = unicodedata.normalize("NFKD", header).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "_", ascii_).strip("_")


def infer(tables: Sequence[TableLike], untitled: str = "cards") -> Inferred:
    """The fields, vocabularies and cards of every table with a header; a field is one column name
    across the tables, inferred from all its values. A table without a name (a CSV file's) is
    called `untitled`."""
    columns: dict[str, Column] = {}
    placed: list[tuple[str, list[tuple[int, str]], list[list[Value]]]] = []
    notes: list[str] = []
    for table in tables:
        title = table.name or untitled
        header = [re.sub(r"\s*\*$", "", as_text(clean(c.value) or "")) for c in table.header]
        rows = [[clean(c.value) for c in row] for row in table.rows]
        rows = [r for r in rows if any(v is not None for v in r)]  # blank rows mean nothing
        width = max([len(header)] + [len(r) for r in rows])
        rows = [r + [None] * (width - len(r)) for r in rows]
        header += [""] * (width - len(header))
        fields: list[tuple[int, str]] = []
        seen: set[str] = set()
        for i, text in enumerate(header):
            letter = column_letter(i)
            if not text and all(r[i] is None for r in rows):
                continue  # an unused column past the sheet's end
            name = _field_name(text, letter)
            base, n = name, 2
            while name in seen:
                name, n = f"{base}_{n}", n + 1
            if name != base:
                notes.append(
                    f"{title}: column {letter} repeats the header {text!r}: field '{name}'"
                )
            seen.add(name)
            fields.append((i, name))
            columns.setdefault(name, Column(name, text or letter, f"column {letter} of {title}"))
        placed.append((title, fields, rows))
    values: dict[str, list[Value]] = {name: [] for name in columns}
    for _, fields, rows in placed:
        given = dict((f, i) for i, f in fields)
        for f, found in values.items():  # a tab without the column: its cards have no value
            at = given.get(f)
            if at is None:
                found.extend([None] * len(rows))
            else:
                found.extend(r[at] for r in rows)
    _choose_special(columns, values)
    for col in columns.values():
        _infer_column(col, values.get(col.field, []))
        if col.kind == "name":
            col.field = "name"
        elif col.kind == "copies":  # each card's own count in one print run
            col.role = Role.COPIES
            if "copies" not in columns:
                col.field = "copies"
    _assign_roles(list(columns.values()))
    out = [(name, [_card(fields, row, columns) for row in rows]) for name, fields, rows in placed]
    notes += _unique_ids(out)
    return Inferred(list(columns.values()), out, notes)


def _field_name(header: str, letter: str) -> str:
    name = fold(header) or f"column_{letter.lower()}"
    if name[0].isdigit():
        name = f"field_{name}"
    if name in _RESERVED or keyword.iskeyword(name):
        name = f"{name}_field"
    return name


def _choose_special(columns: dict[str, Column], values_of: dict[str, list[Value]]) -> None:
    """The name column (by header, else the first text column with a different value on every row),
    the id column and the copies column (by header, when every value is a whole number)."""

    def values(name: str) -> list[Value]:
        return values_of.get(name, [])

    by_fold = {fold(c.header): c for c in reversed(list(columns.values()))}
    name = next((by_fold[h] for h in NAME_HEADERS if h in by_fold), None)
    if name is None:
        for col in columns.values():
            got = [as_text(v) for v in values(col.field) if v is not None]
            if got and len(set(got)) == len(got) and all(as_int(v) is None for v in got):
                name = col
                break
    if name is not None:
        name.kind = "name"
    ident = next((by_fold[h] for h in ID_HEADERS if h in by_fold and by_fold[h] is not name), None)
    if ident is not None:
        ident.kind = "id"
    for h in COPIES_HEADERS:
        counted = by_fold.get(h)
        if counted is None or counted.kind != "text":
            continue
        numbers = [as_int(v) for v in values(counted.field) if v is not None]
        if numbers and all(n is not None and n >= 0 for n in numbers):
            counted.kind = "copies"
            break


def _infer_column(col: Column, values: list[Value]) -> None:
    got = [v for v in values if v is not None]
    col.rows, col.filled = len(values), len(got)
    col.required = bool(values) and col.filled == col.rows and col.kind != "copies"
    texts = [as_text(v) for v in got]
    col.multiline = any("\n" in t for t in texts)
    if col.kind == "name":
        col.why = "the card's name"
        return
    if col.kind == "id":
        col.why = "each card's id (not a field: cardgen matches cards by it)"
        return
    ints = [as_int(v) for v in got]
    if col.kind == "copies":  # no most: a print run may grow (game.yaml can set one)
        col.minimum = 0
        col.why = "how many copies of each card one print run has (`role: copies`)"
        return
    if not got:
        col.why = "empty in the sheet: kept as text, so the column has a field"
        return
    xs = [as_text(v).upper() == "X" for v in got]
    if any(xs) and not all(xs) and all(i is not None or x for i, x in zip(ints, xs)):
        col.kind = "int-or-x"
        numbers = [int(i) for i in ints if i is not None]
        col.minimum, col.maximum = min(numbers), max(numbers)
        col.why = f"whole numbers {col.minimum} to {col.maximum}, or X"
        return
    strays = stray_words(texts, ints)
    if strays is not None:  # whole numbers, but for a word or two: a slip the validator shows
        col.kind = "integer"
        numbers = [int(i) for i in ints if i is not None]
        col.minimum, col.maximum = min(numbers), max(numbers)
        col.why = f"every value a whole number, {col.minimum} to {col.maximum}" + (
            f"; not {', '.join(repr(t) for t in strays)}: kept as written, an error to fix"
            if strays
            else ""
        )
        return
    if all(PICTURE.search(t) and "\n" not in t for t in texts):
        col.kind = "image"
        col.why = "every value a picture's file (PNG, JPEG, WebP, GIF): the card's art"
        return
    mean = sum(len(t) for t in texts) / len(texts)
    col.long = col.multiline or mean > LONG_TEXT
    if col.multiline:
        col.why = "text over several lines"
        return
    parts = list_parts(texts)
    if parts is not None:
        col.kind, (col.separator, col.vocab) = "list", parts
        col.why = (
            f"values separated by '{col.separator}' from {len(col.vocab)} repeated words: a list"
        )
        return
    counts = Counter(t.casefold() for t in texts)
    if (
        len(counts) <= ENUM_MAX_VALUES
        and len(texts) >= 2 * len(counts)
        and max(len(t) for t in texts) <= ENUM_MAX_LENGTH
    ):
        slips = misspelt(texts)  # left out of the vocabulary: the validator reports each card
        col.kind, col.vocab = "enum", [v for v in spellings(texts) if v not in slips]
        n = len(col.vocab)
        col.why = f"{n} value{'s' * (n != 1)} repeated over {len(texts)} cards: an enumeration"
        col.why += "".join(
            f"; '{v}' looks like a slip for '{o}': left out" for v, o in slips.items()
        )
        return
    number = sum(i is not None for i in ints)
    col.why = "text" + (f" ({number} of {len(texts)} values are numbers)" if number else "")


def _assign_roles(columns: list[Column]) -> None:
    """Roles the headers suggest, one field each; else the longest text is the rules text."""
    taken: set[str] = set()
    for col in columns:
        kind = "integer" if col.kind == "int-or-x" else col.kind
        for role, heads in ROLE_HEADERS.get(kind, {}).items():
            if role not in taken and fold(col.header) in heads:
                col.role = role
                taken.add(role)
                break
    for col in columns:
        if col.role == Role.PER_PLAYER:  # none in a starting deck is 0, not a missing value
            col.required, col.minimum = False, 0
            col.why = "how many copies of it each player's starting deck adds (`role: per-player`)"
    pictures = [c for c in columns if c.kind == "image"]
    if pictures:  # the first column of pictures is the art the front shows
        pictures[0].role = "art"
    if "text" not in taken:
        texts = [c for c in columns if c.kind == "text" and c.role is None and c.long]
        if texts:
            texts[0].role = "text"
    rules = next((c for c in columns if c.role == "text"), None)
    if rules is not None:
        rules.long = True


def _card(
    fields: list[tuple[int, str]], row: list[Value], columns: dict[str, Column]
) -> dict[str, object]:
    card: dict[str, object] = {}
    for i, name in fields:
        value, col = row[i], columns[name]
        if value is None:
            continue
        key = {"name": "name", "id": "id"}.get(col.kind, col.field)
        if col.kind in ("integer", "copies", "int-or-x"):
            card[key] = as_text(value) if as_int(value) is None else as_int(value)
        elif col.kind == "list":
            card[key] = [p.strip() for p in as_text(value).split(col.separator)]
        else:
            card[key] = as_text(value)
    for _, name in fields:
        if columns[name].kind == "copies" and columns[name].field in card:
            card[columns[name].field] = card.pop(columns[name].field)  # last, after the card's own
    return card


def _unique_ids(tables: list[tuple[str, list[dict[str, object]]]]) -> list[str]:
    """An id for every card, first: the id column's, else the name's slug (as cardgen derives it),
    made unique with -2, -3 …; a row without either gets '<sheet>-<row>'. Notes for ids changed."""
    used: set[str] = set()
    notes = []
    for name, cards in tables:
        for n, card in enumerate(cards, 1):
            given = str(card.pop("id")) if "id" in card else None
            base = given or slug(str(card.get("name") or "")) or f"{slug(name) or 'card'}-{n}"
            ident, k = base, 2
            while ident in used:
                ident, k = f"{base}-{k}", k + 1
            used.add(ident)
            if given is not None and ident != given:
                notes.append(f"{name}: the id {given!r} is used twice; this card gets {ident!r}")
            items = list(card.items())
            card.clear()
            card["id"] = ident
            card.update(items)
    return notes

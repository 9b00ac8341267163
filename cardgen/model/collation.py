"""Turn a model's collation, its per-card counts and a number of players into the print run: each
card with its number of copies, the arithmetic behind it, and findings about the counts."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import CardgenError, Finding, Severity
from ..load.card import Card, Catalog
from .game import CollationGroup, GameModel, RarityCount, Role, assign_groups
from .specs import span_bounds

MAX_COUNT = 10_000  # the sane range of a collation's copies (docs/model.md)
MAX_PLAYERS = 10_000


def collation_copies(
    model: GameModel, card: Card, group_rarities: dict[str, RarityCount], group_copies: int | None
) -> int:
    rarity = str(model.role_value(card, Role.RARITY) or "").lower()
    for name, counts in group_rarities.items():
        if name.lower() == rarity and counts.copies is not None:
            return counts.copies
    return group_copies if group_copies is not None else 1


def declared_copies(model: GameModel, card: Card, group: CollationGroup) -> int | None:
    """The copies the card's collation group says outright (its rarity's, else the group's), or
    None when the group gives no number (each design then prints once)."""
    rarity = str(model.role_value(card, Role.RARITY) or "").lower()
    for name, counts in group.rarities.items():
        if name.lower() == rarity and counts.copies is not None:
            return counts.copies
    return group.copies


def count_field(model: GameModel, role: str) -> str | None:
    """The field holding a count role (`copies`, `per-player`), when it is a whole-number field: a
    count role on another type is a model finding and is not read."""
    name = model.role_field(role)
    return name if name is not None and model.fields[name].type == "integer" else None


def card_count(model: GameModel, card: Card, role: str) -> int | None:
    """A card's count for a role, or None when it has none or one that is not 0-MAX_COUNT (then
    the collation decides, and `count_findings` says so)."""
    name = count_field(model, role)
    value = card.get(name) if name else None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        return None
    return value


def players_for(model: GameModel, players: int | None) -> int:
    """How many players' per-player cards a print run holds: the one asked for, else the model's
    `draft.players`, else the most of `game.players` (a box for 2-4 holds four starting decks),
    else 1."""
    if players is None:
        most = span_bounds(model.info.get("players"))
        players = model.draft.players if isinstance(model.draft.players, int) else 0
        players = players or (most[1] if most else 1)
    if isinstance(players, bool) or not 1 <= players <= MAX_PLAYERS:
        raise CardgenError(f"--players must be between 1 and {MAX_PLAYERS:,}, not {players}")
    return players


@dataclass(frozen=True)
class Counted:
    """One design of the print run and where its copies come from: `base` (from the card's count,
    its collation group or the default of one) plus `per_player` × `players`."""

    card: Card
    copies: int
    base: int
    source: str  # "count" (the copies role), "group NAME", "default" or "none"
    per_player: int = 0
    players: int = 1

    def arithmetic(self) -> str:
        """'40 Coin = 7 × 4 players + 12 in the supply'."""
        seats = f"{self.players} player{'s' * (self.players != 1)}"
        text = f"{self.copies} {self.card.name or self.card.id} = {self.per_player} × {seats}"
        if self.source == "count":
            return text + f" + {self.base} in the supply" if self.base else text
        if self.source.startswith("group "):
            return text + f" + {self.base} by collation group '{self.source[6:]}'"
        return text + (f" + {self.base}" if self.base else "")


def base_copies(model: GameModel, card: Card, group: CollationGroup | None) -> tuple[int, str]:
    """A card's copies in one print run, before any per-player copies, and where they come from:
    its own count (the `copies` role), else its collation group's, else none when it has a
    per-player count (a card only in the players' decks), else one."""
    count = card_count(model, card, Role.COPIES)
    if count is not None:
        return count, "count"
    if group is not None:
        return collation_copies(model, card, group.rarities, group.copies), f"group {group.name}"
    if card_count(model, card, Role.PER_PLAYER):
        return 0, "none"
    return 1, "default"


def counted_run(catalog: Catalog, model: GameModel, players: int | None = None) -> list[Counted]:
    """One print run, group by group in the model's order, then every design no group selects (the
    validator names them: nothing is left out silently). A card's own count (the `copies` role)
    replaces its collation copies; a `per-player` count adds that many per player. A group with 0
    copies prints none of its designs, on purpose. A game without a collation or counts prints each
    design once."""
    seats = players_for(model, players)
    groups = assign_groups(catalog, model.collation)
    rank = {id(g): i for i, g in enumerate(model.collation)}
    seen: set[str] = set()
    out = []
    for card in sorted(catalog, key=lambda c: (rank.get(id(groups[c.order]), len(rank)), c.order)):
        if card.id in seen:
            continue
        seen.add(card.id)
        per = card_count(model, card, Role.PER_PLAYER) or 0
        base, source = base_copies(model, card, groups[card.order])
        copies = base + per * seats
        if copies > 0:
            out.append(Counted(card, copies, base, source, per, seats))
    return out


def print_run(
    catalog: Catalog, model: GameModel, players: int | None = None
) -> list[tuple[Card, int]]:
    """One print run as (card, copies), for `players` players (see `counted_run`)."""
    return [(c.card, c.copies) for c in counted_run(catalog, model, players)]


def run_arithmetic(counted: list[Counted]) -> list[str]:
    """The sum behind every card whose copies grow with the players, for a command's summary."""
    return [c.arithmetic() for c in counted if c.per_player]


def count_findings(model: GameModel, catalog: Catalog) -> list[Finding]:
    """The count roles checked: on a field that is not a whole number (a model error; the role is
    not read), a card's count outside 0-10,000, and a count that differs from what its collation
    group says (the card's count is printed)."""
    out: list[Finding] = []
    roles = [r for r in (Role.COPIES, Role.PER_PLAYER) if model.role_field(r)]
    for role in roles:
        name = model.role_field(role) or ""
        spec = model.fields[name]
        if spec.type != "integer":
            out.append(
                Finding(
                    model.file,
                    spec.loc[0],
                    spec.loc[1],
                    Severity.ERROR,
                    "model-role-type",
                    None,
                    f"field '{name}' has role: {role}, a number of copies, but is of type "
                    f"{spec.type}; the print run does not read it (the collation decides)",
                    "make it type: integer, min: 0",
                    about=f"fields.{name}",
                )
            )
    if not any(count_field(model, r) for r in roles):
        return out
    groups = assign_groups(catalog, model.collation)
    for card in catalog:
        for role in roles:
            counted = count_field(model, role)
            value = card.get(counted) if counted else None
            if counted is None or isinstance(value, bool) or not isinstance(value, int):
                continue  # absent, or not a whole number: the field check reports it (wrong-type)
            name, spec = counted, model.fields[counted]
            if not 0 <= value <= MAX_COUNT and not _range_reported(
                spec.minimum, spec.maximum, value
            ):
                line, col = card.loc(name)
                out.append(
                    Finding(
                        card.file,
                        line,
                        col,
                        Severity.ERROR,
                        "copies-value",
                        card.id,
                        f"'{name}' is {value}; a number of copies must be a whole number from 0 "
                        f"to {MAX_COUNT:,}, so the collation decides this card's copies",
                        about=f"fields.{name}",
                    )
                )
        out += _disagrees(model, card, groups.get(card.order))
    return out


def _range_reported(low: int | None, high: int | None, value: int) -> bool:
    """The field's own min/max already report the value (out-of-range): not said twice."""
    return (low is not None and value < low) or (high is not None and value > high)


def _disagrees(model: GameModel, card: Card, group: CollationGroup | None) -> list[Finding]:
    count = card_count(model, card, Role.COPIES)
    said = declared_copies(model, card, group) if group is not None else None
    if count is None or group is None or said is None or said == count:
        return []
    name = count_field(model, Role.COPIES) or ""
    line, col = card.loc(name)
    return [
        Finding(
            card.file,
            line,
            col,
            Severity.WARNING,
            "copies-disagree",
            card.id,
            f"'{name}' says {count} cop{'ies' if count != 1 else 'y'}, collation group "
            f"'{group.name}' says {said}; the card's {count} {'are' if count != 1 else 'is'} "
            "printed",
            "make them agree, or leave the number to one of them",
            about="collation",
        )
    ]

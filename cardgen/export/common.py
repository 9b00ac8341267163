"""What every export needs: the cards to export with their copies, their faces, names safe as file names."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import CardgenError
from ..load.card import Card
from ..model.game import Role
from ..printrun.printing import SheetOptions, choose_cards
from ..project.studio import Studio
from ..render.face import PreparedFace

WINDOWS_FORBIDDEN = re.compile(r'[<>:"/\\|?*\x00-\x1f]')


@dataclass
class ExportItem:
    card: Card
    copies: int
    front: PreparedFace
    back: PreparedFace | None
    section: str = "main"  # a deck list's section (sideboard, monster …): exports keep sections apart


@dataclass
class ExportFile:
    relpath: str
    data: bytes | str
    what: str = ""


@dataclass
class ExportResult:
    target: str
    files: list[ExportFile] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # rules of the consumer this game breaks: nothing is written


def items_for(studio: Studio, deck: Path | None, bleed: float | None = None) -> list[ExportItem]:
    """The print run (collation), or exactly a deck list's cards; each with its front and back face."""
    opts = SheetOptions(copies="deck" if deck else "collation", deck=deck)
    chosen, _ = choose_cards(studio, opts)  # refuses a deck list with errors
    if not chosen:
        raise CardgenError("nothing to export: the collation selects no card (or the deck list is empty)")
    sections: dict[str, list[tuple[str, int]]] = {}
    if deck is not None:  # per section, in the list's order
        from ..load.decklist import read_deck
        from ..validate.decks import dialect_for, resolve

        for entry, card in resolve(read_deck(deck, studio.ws.shown(deck), dialect_for(studio.model)),
                                   studio.check.catalog)[0]:
            sections.setdefault(card.id, []).append((entry.section, entry.count))
    out = []
    for card, n in chosen:
        front, back = studio.prepare(card, bleed)
        for section, count in sections.get(card.id) or [("main", n)]:
            out.append(ExportItem(card, count, front, back, section))
    return out


def safe_stem(name: str) -> str | None:
    """A name usable as a file name on every system, or None when it is not (the caller reports it)."""
    if not name.strip() or WINDOWS_FORBIDDEN.search(name) or name.strip(" .") != name.strip() or \
            name.upper() in {"CON", "PRN", "AUX", "NUL"}:
        return None
    return name.strip()


def card_type_line(studio: Studio, card: Card) -> str:
    """The card's type line: the values of the fields the model marks as faction or kind, in model order."""
    return " ".join(str(v) for spec in studio.model.fields.values() if spec.role in ("faction", "kind")
                    for v in card.values(spec.name))


def cost_of(studio: Studio, card: Card) -> str:
    field = studio.model.cost_field
    return str(card.get(field) or "") if field else ""


def stats_of(studio: Studio, card: Card) -> tuple[object, object] | None:
    """(attack, health) when the model has both roles and the card gives both."""
    attack, health = studio.model.role_field(Role.ATTACK), studio.model.role_field(Role.HEALTH)
    if attack and health and card.get(attack) is not None and card.get(health) is not None:
        return card.get(attack), card.get(health)
    return None

"""What every export needs: the cards to export with their copies, their faces, names safe as file
names."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import CardgenError, Finding
from ..load.card import Card
from ..model.cost import cost_text
from ..model.game import Role
from ..printrun.printing import SheetOptions, choose_cards
from ..project.studio import Studio
from ..render.prepared import PreparedFace

WINDOWS_FORBIDDEN = re.compile(r'[<>:"/\\|?*\x00-\x1f]')


@dataclass
class ExportItem:
    card: Card
    copies: int
    front: PreparedFace
    back: PreparedFace | None
    section: str = (
        "main"  # a deck list's section (sideboard, monster …): exports keep sections apart
    )
    side: str = ""  # '' for the card itself, else its faces.yaml `also:` face (its template's name)


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
    problems: list[str] = field(
        default_factory=list
    )  # rules of the consumer this game breaks: nothing is written
    # cards the consumer cannot take (a size a print shop does not sell), left out and named: the
    # other files are written, and the export exits 1 by these errors
    refused: list[Finding] = field(default_factory=list)
    # the designs it ships when they are a deck list's (None: the game's, every card's errors count)
    shipped: set[str] | None = None


def items_for(
    studio: Studio, deck: Path | None, bleed: float | None = None, players: int | None = None
) -> tuple[list[ExportItem], list[str]]:
    """The print run (collation) for `players` players (default: the model's draft.players, else
    game.players' most, else 1; copies = base + per-player × players, as on the sheets) and each
    design's `also:` faces once, or exactly a deck list's cards; each with its front and back face.
    With them, what the summary says of the print run (the arithmetic of copies that grow with the
    players)."""
    if deck is not None and players is not None:
        raise CardgenError("--players scales the print run; a deck list (--deck) gives its counts")
    opts = SheetOptions(copies="deck" if deck else "collation", deck=deck, players=players)
    chosen, _, notes = choose_cards(studio, opts)  # refuses a deck list with errors
    if not chosen:
        raise CardgenError(
            "nothing to export: the collation selects no card (or the deck list is empty)"
        )
    sections: dict[str, list[tuple[str, int]]] = {}
    if deck is not None:  # per section, in the list's order
        from ..load.decklist import read_deck
        from ..validate.decks import dialect_for, resolve

        for entry, card in resolve(
            read_deck(deck, studio.ws.shown(deck), dialect_for(studio.model)), studio.catalog
        )[0]:
            sections.setdefault(card.id, []).append((entry.section, entry.count))
    out = []
    for card, n in chosen:
        front, back = studio.prepare(card, bleed)
        for section, count in sections.get(card.id) or [("main", n)]:
            out.append(ExportItem(card, count, front, back, section))
    if deck is None:  # the print run: each design's `also:` faces once (randomizers), after it
        for card, n in chosen:
            for other, other_back in studio.other_faces(card, bleed) if n else []:
                name = other.template.name
                out.append(ExportItem(card, 1, other, other_back, name, side=name))
    return out, notes


def item_faces(
    studio: Studio, item: ExportItem, bleed: float | None
) -> tuple[PreparedFace, PreparedFace | None]:
    """An item's two faces prepared again with another bleed: the card's, or its `also:` face's."""
    if not item.side:
        return studio.prepare(item.card, bleed)
    for other, other_back in studio.other_faces(item.card, bleed):
        if other.template.name == item.side:
            return other, other_back
    raise CardgenError(f"card '{item.card.id}' has no face '{item.side}'")  # not reached


def safe_stem(name: str) -> str | None:
    """A name usable as a file name on every system, or None when it is not (the caller reports
    it)."""
    if (
        not name.strip()
        or WINDOWS_FORBIDDEN.search(name)
        or name.strip(" .") != name.strip()
        or name.upper() in {"CON", "PRN", "AUX", "NUL"}
    ):
        return None
    return name.strip()


def card_type_line(studio: Studio, card: Card) -> str:
    """The card's type line: the values of the fields the model marks as faction or kind, in model
    order (as the edition names them: a value's name@LANG)."""
    return " ".join(
        studio.model.shown_value(spec.name, v)
        for spec in studio.model.fields.values()
        if spec.role in ("faction", "kind")
        for v in card.values(spec.name)
    )


def cost_of(studio: Studio, card: Card) -> str:
    field = studio.model.cost_field
    return cost_text(card.get(field)) if field else ""


def stats_of(studio: Studio, card: Card) -> tuple[object, object] | None:
    """(attack, health) when the model has both roles and the card gives both."""
    attack, health = studio.model.role_field(Role.ATTACK), studio.model.role_field(Role.HEALTH)
    if attack and health and card.get(attack) is not None and card.get(health) is not None:
        return card.get(attack), card.get(health)
    return None

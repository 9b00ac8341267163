"""Turn a game's print run into the decks a box is made for (the cards sharing a back, the whole
game, or each deck list in decks/GAME/: counts, sizes, the card whose face goes on the box) and
its card sizes into the common sleeves they fit (a warning for a size none takes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import Finding, Severity
from ..core.stock import fits, sleeve_for, sleeve_named
from ..core.units import to_mm
from ..load.card import Card
from ..model.collation import counted_run
from ..model.game import Role
from ..printrun.copies import deck_copies
from ..project.studio import Studio
from ..render.template import Template
from ..rulebook.components import kind_of

PER = ("back", "game", "lists")


@dataclass
class Deck:
    """Cards that go in one box: how many, their trim size (mm; the largest where sizes differ),
    the card whose face is shown on the box and the back the deck shows."""

    name: str
    cards: int = 0
    size: tuple[float, float] = (0.0, 0.0)
    shown: Card | None = None
    back: Template | None = None
    shown_back: Card | None = None  # the card whose back is shown (its own second face)
    face: Template | None = None  # the front template the shown card is drawn with
    designs: int = 0
    sizes: set[tuple[float, float]] = field(default_factory=set)
    kinds: set[str] = field(default_factory=set)

    def add(
        self, card: Card, copies: int, size: tuple[float, float], studio: Studio, face: Template
    ) -> None:
        self.cards += copies
        self.designs += 1
        self.sizes.add(size)
        self.size = (max(self.size[0], size[0]), max(self.size[1], size[1]))
        if self.shown is None or _rank(studio, card) > _rank(studio, self.shown):
            self.shown, self.face = card, face


def _rank(studio: Studio, card: Card) -> int:
    """Which card a box shows: one with art, else one not marked as a draft, else the first."""
    model = studio.model
    art = model.role_field(Role.ART)
    if art and model.written(card.get(art)):
        return 2
    status = str(card.get(model.draft_field) or "") if model.draft_field else ""
    return 0 if status in model.draft_values else 1


def _mm(size: tuple[float, float]) -> tuple[float, float]:
    return round(to_mm(size[0]), 2), round(to_mm(size[1]), 2)


GENERIC = {"back", "front", "card", "face", "second"}  # template names that say nothing of a deck


def _deck_name(template: Template, fallback: str) -> str:
    """'back-main.yaml' -> 'main', 'randomizer-back.yaml' -> 'randomizer', 'back.yaml' or
    'front.yaml' -> the fallback (the first card's kind)."""
    stem = Path(template.file).stem
    words = [w for w in stem.replace("_", "-").split("-") if w and w.lower() not in GENERIC]
    return " ".join(words) or fallback


def print_run_decks(studio: Studio, per: str, players: int | None = None) -> list[Deck]:
    """The print run's cards in decks: `back` a deck per shared back design (and size), `game` one
    deck of everything. The `also:` faces (randomizers) go with their own backs."""
    decks: dict[tuple[str, tuple[float, float]], Deck] = {}
    whole = Deck(studio.model.name)
    for counted in counted_run(studio.catalog, studio.model, players):
        card = counted.card
        rule = studio.faces.for_card(card)
        if rule is None:
            continue  # not printable: validate names it
        faces = [(rule.front, rule.back, rule.second, counted.copies)]
        faces += [(front, back, False, 1) for front, back in studio.faces.others(rule)]
        for front, back, second, copies in faces:
            face_size = _mm(front.size)
            if per == "game":
                whole.add(card, copies, face_size, studio, front)
                if whole.back is None and back is not None and not second:
                    whole.back = back
                continue
            shared = back is not None and not second
            key = (back.file if shared else front.file, face_size)  # type: ignore[union-attr]
            if key not in decks:
                name = _deck_name(back if shared else front, "")  # type: ignore[arg-type]
                decks[key] = Deck(name, back=back if shared else None)
            deck = decks[key]
            deck.add(card, copies, face_size, studio, front)
            deck.kinds.add(kind_of(studio.model, card))
            if second and deck.shown_back is None:
                deck.shown_back = card
    if per == "game":
        return [whole] if whole.cards else []
    out = list(decks.values())
    for deck in out:  # a back named like any other: the deck's kind when its cards share one
        if not deck.name:
            deck.name = (
                next(iter(deck.kinds)) if len(deck.kinds) == 1 and "" not in deck.kinds else "deck"
            )
    names = [d.name for d in out]
    for deck in out:  # two decks of one back in two sizes: say the size
        if names.count(deck.name) > 1:
            deck.name += f" {deck.size[0]:g} x {deck.size[1]:g}"
    return out


def list_decks(studio: Studio) -> tuple[list[Deck], list[Finding]]:
    """A deck for each deck list in decks/GAME/ (every section of it), with the list's findings."""
    folder = studio.ws.root / "decks" / studio.game
    decks: list[Deck] = []
    findings: list[Finding] = []
    for path in sorted(folder.glob("*.txt")) if folder.is_dir() else []:
        chosen, found = deck_copies(path, studio.ws.shown(path), studio.catalog, studio.model)
        findings += found
        deck = Deck(path.stem)
        for card, copies in chosen:
            rule = studio.faces.for_card(card)
            if rule is None:
                continue
            deck.add(card, copies, _mm(rule.front.size), studio, rule.front)
            if deck.back is None and rule.back is not None and not rule.second:
                deck.back = rule.back
        if deck.cards:
            decks.append(deck)
    if not decks:
        findings.append(
            Finding(
                studio.ws.shown(folder),
                0,
                0,
                Severity.WARNING,
                "box-no-decks",
                None,
                "a box per deck list: no deck list with printable cards in "
                f"{studio.ws.shown(folder)}",
                "write one (docs/model.md, deck rules), or make a box per back or for the game",
            )
        )
    return decks, findings


def decks_for(
    studio: Studio, per: str, players: int | None = None
) -> tuple[list[Deck], list[Finding]]:
    if per == "lists":
        return list_decks(studio)
    return print_run_decks(studio, per, players), []


def _sizes(studio: Studio) -> list[tuple[tuple[float, float], Template, tuple[int, int]]]:
    """Each card size a template prints (mm), its first template and where faces.yaml names it."""
    seen: dict[tuple[float, float], tuple[Template, tuple[int, int]]] = {}
    for rule in studio.faces.rules:
        for template in [rule.front] + [front for front, _ in studio.faces.others(rule)]:
            if template.guessed:  # an invalid size: reported at the template already
                continue
            size = (round(to_mm(template.size[0]), 2), round(to_mm(template.size[1]), 2))
            seen.setdefault(size, (template, rule.at))
    return [(size, t, at) for size, (t, at) in seen.items()]


def _shown(size: tuple[float, float]) -> str:
    return f"{size[0]:g} x {size[1]:g} mm"


def sleeve_findings(studio: Studio) -> list[Finding]:
    """`sleeve-none` for a card size no common sleeve fits, `sleeve-misfit` for one the model's
    `card.sleeves` does not fit; each at the faces.yaml entry that prints it (or its template)."""
    out = []
    named = studio.model.card.get("sleeves")
    chosen = sleeve_named(named) if isinstance(named, str) else None
    manifest = studio.faces.manifest
    for size, template, at in _sizes(studio):
        file, (line, column) = (manifest, at) if manifest else (template.file, (1, 1))
        if sleeve_for(size) is None:
            out.append(
                Finding(
                    file,
                    line,
                    column,
                    Severity.WARNING,
                    "sleeve-none",
                    None,
                    f"'{template.name}' cards are {_shown(size)}: no common sleeve fits them "
                    "(docs/kit.md lists the sizes sold)",
                    "players who sleeve their cards would need custom sleeves; a size a common "
                    "sleeve takes (63 x 88, 56 x 87, 44 x 68, 70 x 120 mm …) spares them that",
                    about=manifest or template.file,
                )
            )
        elif chosen is not None and not fits(chosen, size):
            line, column = studio.model.section_locs.get("card", (1, 1))
            out.append(
                Finding(
                    studio.model.file,
                    line,
                    column,
                    Severity.WARNING,
                    "sleeve-misfit",
                    None,
                    f"card.sleeves is {chosen.name}, but '{template.name}' cards are "
                    f"{_shown(size)}: they do not fit {chosen.shown()}; their boxes are sized "
                    "for them unsleeved",
                    f"{sleeve_for(size).shown()} fit them; 'sleeves: fit' picks each size's",  # type: ignore[union-attr]
                    about="card",
                )
            )
    return out


def sleeve_notes(studio: Studio) -> list[str]:
    """'sleeves: 63 x 88 mm cards fit standard card game sleeves (63.5 x 88 mm)', one line."""
    parts = []
    for size, _, _ in _sizes(studio):
        sleeve = sleeve_for(size)
        parts.append(
            f"{_shown(size)} cards fit {sleeve.shown()}"
            if sleeve
            else f"{_shown(size)} cards fit no common sleeve"
        )
    return [f"sleeves: {'; '.join(parts)}"] if parts else []

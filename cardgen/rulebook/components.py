"""Turn the print run (cards by kind and faction, their copies and per-player copies, their other
faces and sizes) and game.yaml's declared components into the rulebook's components list."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.units import CARD_SIZES, mm_text
from ..load.card import Card
from ..model.collation import counted_run
from ..model.game import GameModel, Role
from ..project.studio import Studio
from .bookwords import ENGLISH_WORDS, BookWords

NAMED_DESIGNS = 4  # a kind of at most this many designs names them ('Harbor, Watchtower')


@dataclass(frozen=True)
class Amount:
    """Copies in one box: `base`, and `per_player` more for each player."""

    base: int = 0
    per_player: int = 0

    def __add__(self, other: Amount) -> Amount:
        return Amount(self.base + other.base, self.per_player + other.per_player)

    def one(self) -> bool:
        """One copy in the box, whatever the players."""
        return self.base == 1 and not self.per_player

    def said(self, single: str, plural: str, words: BookWords = ENGLISH_WORDS) -> str:
        """'12 Treasure cards and 7 per player', '1 Reference card per player', '120 Action
        cards' (the noun in the singular and the plural: 'Treasure card', 'Treasure cards')."""
        if not self.per_player:
            return f"{self.base} {single if self.base == 1 else plural}"
        each = words["per_player"]
        if not self.base:
            return f"{self.per_player} {single if self.per_player == 1 else plural} {each}"
        return f"{self.base} {plural} {words['and']} {self.per_player} {each}"

    def short(self, words: BookWords = ENGLISH_WORDS) -> str:
        """'12', '7 per player', '12 + 7 per player'."""
        if not self.per_player:
            return str(self.base)
        if not self.base:
            return f"{self.per_player} {words['per_player']}"
        return f"{self.base} + {self.per_player} {words['per_player']}"


@dataclass
class Kind:
    """The print run's cards of one kind."""

    name: str
    amount: Amount = field(default_factory=Amount)
    designs: list[tuple[Card, Amount]] = field(default_factory=list)
    factions: dict[str, Amount] = field(default_factory=dict)
    double: Amount = field(default_factory=Amount)  # of them, cards with their own second face
    sizes: set[tuple[float, float]] = field(default_factory=set)


def kind_of(model: GameModel, card: Card) -> str:
    """The card's kind as the rulebook names it: the first value of the first kind field that has
    one (a vocabulary's alias read as its value); '' when it has none."""
    for name in model.role_fields(Role.KIND):
        for value in card.values(name):
            text = model.written(value)
            if text:
                term = model.term(name, text)
                return term.name if term is not None else text
    return ""


def faction_of(model: GameModel, card: Card) -> str:
    """The card's factions joined in the vocabulary's order ('Red/Blue'), or '' when it has
    none."""
    name = model.role_field(Role.FACTION)
    if name is None:
        return ""
    vocab = model.vocab_for(name)
    rank = {t.name: i for i, t in enumerate(vocab.terms)} if vocab else {}
    values = [v for v in (model.written(v) for v in card.values(name)) if v]
    return "/".join(sorted(values, key=lambda v: rank.get(v, len(rank))))


def _order(model: GameModel, role: str, names: list[str]) -> list[str]:
    """Names in the order of their field's vocabulary, then as they came; '' last."""
    field_name = model.role_field(role)
    vocab = model.vocab_for(field_name) if field_name else None
    known = [t.name for t in vocab.terms] if vocab else []
    rank = {n: i for i, n in enumerate(known)}
    return sorted(
        names,
        key=lambda n: (
            n == "",
            "/" in n,  # a card of two factions after the cards of one
            [rank.get(part, len(rank)) for part in n.split("/")],
            names.index(n),
        ),
    )


def size_words(size: tuple[float, float], words: BookWords = ENGLISH_WORDS) -> str:
    """'landscape, 88 × 63 mm', 'mini, 44.45 × 63.5 mm'."""
    w, h = size
    name = next(
        (n for n, (kw, kh) in CARD_SIZES.items() if abs(kw - w) < 0.2 and abs(kh - h) < 0.2), ""
    )
    if not name and w > h:
        name = words["landscape"]
    return f"{name + ', ' if name else ''}{mm_text(w)} × {mm_text(h)} mm"


def kinds_in_run(studio: Studio) -> tuple[list[Kind], tuple[float, float] | None]:
    """The print run's cards by kind (in the kind field's vocabulary order) and the size most of
    them have (other sizes are named in their rows)."""
    model = studio.model
    kinds: dict[str, Kind] = {}
    by_size: dict[tuple[float, float], int] = {}
    for counted in counted_run(studio.catalog, model):
        card = counted.card
        rule = studio.faces.for_card(card)
        if rule is None:  # no template prints it: not in the box (validate names it)
            continue
        amount = Amount(counted.base, counted.per_player)
        kind = kinds.setdefault(kind_of(model, card), Kind(kind_of(model, card)))
        kind.amount += amount
        kind.designs.append((card, amount))
        faction = faction_of(model, card)
        kind.factions[faction] = kind.factions.get(faction, Amount()) + amount
        if studio.own_back(card):
            kind.double += amount
        size = rule.front.size
        kind.sizes.add(size)
        by_size[size] = by_size.get(size, 0) + counted.copies
    order = _order(model, Role.KIND, list(kinds))
    main = max(by_size, key=lambda s: by_size[s]) if by_size else None
    return [kinds[n] for n in order], main


Row = tuple[str, str]  # (what is counted, in bold; what follows it)


def kind_row(
    model: GameModel,
    kind: Kind,
    main: tuple[float, float] | None,
    named: bool,
    words: BookWords = ENGLISH_WORDS,
) -> Row:
    """One kind's line: ('6 Ruin cards', ', double-sided: 2 each of 3 designs')."""
    if kind.name:
        shown = _shown(model, Role.KIND, kind.name)
        single, plural = (words.said(k, kind=shown) for k in ("kind_card", "kind_cards"))
    else:
        keys = ("other_card", "other_cards") if named else ("card", "cards")
        single, plural = words[keys[0]], words[keys[1]]
    head = kind.amount.said(single, plural, words)
    tail = ""
    if kind.double == kind.amount:
        tail += f", {words['double_sided']}"
    elif kind.double.base or kind.double.per_player:
        tail += ", " + words.said("some_double_sided", n=kind.double.short(words))
    sizes = [s for s in kind.sizes if main is None or s != main]
    if sizes:
        tail += f" ({'; '.join(size_words(s, words) for s in sorted(sizes))})"
    return head, tail + _detail(model, kind, words)


def _detail(model: GameModel, kind: Kind, words: BookWords) -> str:
    """What a kind's cards are: by faction where the model has factions, else by design."""
    if model.role_field(Role.FACTION) and any(kind.factions):
        parts = []
        for name in _order(model, Role.FACTION, list(kind.factions)):
            amount = kind.factions[name]
            shown = _shown(model, Role.FACTION, name) or words.said(
                "with_no", label=_label(model, Role.FACTION)
            )
            parts.append(shown if len(kind.factions) == 1 else f"{amount.short(words)} {shown}")
        return ": " + ", ".join(parts)
    amounts = {a for _, a in kind.designs}
    n = len(kind.designs)
    names = [card.name or card.id for card, _ in kind.designs]
    same = len(amounts) == 1 and n > 1 and not kind.designs[0][1].one()
    # every design only in the players' decks: the head says 'per player', the parts their counts
    # ('4 Starter cards per player: 1 Courier Satchel, 3 Copper Coin')
    players_only = all(a.per_player and not a.base for a in amounts)

    def short(amount: Amount) -> str:
        return str(amount.per_player) if players_only else amount.short(words)

    if same:
        each = short(kind.designs[0][1])
        listed = ", ".join(names) if n <= NAMED_DESIGNS else words.said("designs", n=n)
        return ": " + words.said("each_of", n=each, designs=listed)
    if n <= NAMED_DESIGNS:
        if n == 1:  # its name, unless it only says the kind again ('Life Card')
            said = names[0].lower().removesuffix(" cards").removesuffix(" card")
            return "" if said == kind.name.lower() else f": {names[0]}"
        return ": " + ", ".join(
            name if amount.one() else f"{short(amount)} {name}"
            for name, (_, amount) in zip(names, kind.designs)
        )
    return ": " + words.said("designs", n=n)


def _shown(model: GameModel, role: str, name: str) -> str:
    """A kind or faction ('Ember/Tide') as the edition names it (its values' name@LANG)."""
    field_name = model.role_field(role)
    if not name or field_name is None:
        return name
    return "/".join(model.shown_value(field_name, part) for part in name.split("/"))


def _label(model: GameModel, role: str) -> str:
    """How the model names a role's field ('faction', 'alignment')."""
    name = model.role_field(role) or role
    spec = model.fields.get(name)
    return str(getattr(spec, "label", None) or name).lower()


@dataclass
class OtherFace:
    """The `also:` faces of one template: one per design that has it."""

    count: int = 0
    kinds: list[str] = field(default_factory=list)
    sizes: set[tuple[float, float]] = field(default_factory=set)


def other_face_rows(
    studio: Studio, main: tuple[float, float] | None, words: BookWords = ENGLISH_WORDS
) -> list[Row]:
    """The faces printed besides the cards (faces.yaml `also:`: randomizers, reference versions),
    once per design: ('12 randomizer cards', ' (one per Action design)')."""
    model = studio.model
    faces: dict[str, OtherFace] = {}
    for counted in counted_run(studio.catalog, model):
        rule = studio.faces.for_card(counted.card)
        for front, _ in studio.faces.others(rule) if rule is not None else []:
            face = faces.setdefault(front.name, OtherFace())
            face.count += 1
            kind = kind_of(model, counted.card)
            if kind and kind not in face.kinds:
                face.kinds.append(kind)
            face.sizes.add(front.size)
    rows = []
    for name, face in faces.items():
        spelled = name.replace("-", " ").replace("_", " ")
        if spelled.endswith("card"):
            noun = spelled if face.count == 1 else f"{spelled}s"
        else:
            noun = words.said("kind_card" if face.count == 1 else "kind_cards", kind=spelled)
        tail = ""
        other = [s for s in face.sizes if main is None or s != main]
        if other:
            tail += f" ({'; '.join(size_words(s, words) for s in sorted(other))})"
        if face.kinds:
            kinds = ", ".join(_shown(model, Role.KIND, k) for k in face.kinds)
            tail += f" ({words.said('one_per_design', kind=kinds)})"
        rows.append((f"{face.count} {noun}", tail))
    return rows


def declared_rows(model: GameModel, words: BookWords = ENGLISH_WORDS) -> list[Row]:
    """game.yaml's `components:` (tokens, counters, markers), each after its count as written:
    '30 Coin tokens', '1 Victory marker per player' (the name is written as it reads after its
    count)."""
    return [
        (Amount(c.count, c.per_player).said(c.name, c.name, words), "") for c in model.components
    ]


def component_rows(studio: Studio, words: BookWords = ENGLISH_WORDS) -> list[Row]:
    """Every line of the components list, in the book's words: the cards by kind, their other
    faces, then the declared components. With cards of more than one size, the commonest size is
    said first."""
    kinds, main = kinds_in_run(studio)
    named = any(k.name for k in kinds)
    rows = [kind_row(studio.model, k, main, named, words) for k in kinds]
    others = other_face_rows(studio, main, words)
    # cards of another size than the commonest (an other face's row names its size: size_words)
    several = any(s != main for k in kinds for s in k.sizes)
    several = several or any(" mm" in tail for _, tail in others)
    if main is not None and several:  # the commonest size, which the rows leave unsaid, first
        said = f": {size_words(main, words)}, {words['unless_another']}"
        rows.insert(0, (words["card_size"], said))
    return rows + others + declared_rows(studio.model, words)

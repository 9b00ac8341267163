"""The rules model of one game as plain objects: fields, vocabularies, cost grammar, glossary,
collation, numbering."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ..load.card import Card, Catalog
from ..load.yamlio import Loc
from ..speed.memo import Memo
from .cost import Cost, cost_text, parse_cost
from .deckrules import DeckRules
from .editions import Editions
from .guards import Guards
from .words import CostGrammar, Keyword, Term, Vocabulary

WHOLE_NUMBER = CostGrammar(generic=True, x=True)  # how a whole-number cost (role: cost) counts

FIELD_TYPES = ("text", "integer", "int-or-x", "enum", "list", "cost", "number", "image")
COST_ROLE_TYPES = ("integer", "int-or-x", "cost")  # the types a field with role: cost may have


# what a field means to the tools that read cards (exports, report, packs, draft bots, type lines):
# generic code asks the model for a role, never for a field by name
class Role:
    FACTION, KIND, ATTACK, HEALTH = "faction", "kind", "attack", "health"
    RARITY, TEXT, FLAVOR, NUMBER, ART = "rarity", "text", "flavor", "number", "art"
    VERSION = (
        "version"  # the card's printing, printed small on every sheet face (else a content hash)
    )
    # counts (whole-number fields): a card's copies in one print run, replacing its collation
    # copies, and the copies each player's starting deck adds (times --players)
    COPIES, PER_PLAYER = "copies", "per-player"
    # a cost written as a plain number (a field of type `cost` is the cost already)
    COST = "cost"


ROLES = (
    Role.FACTION,
    Role.KIND,
    Role.ATTACK,
    Role.HEALTH,
    Role.RARITY,
    Role.TEXT,
    Role.FLAVOR,
    Role.NUMBER,
    Role.ART,
    Role.VERSION,
    Role.COPIES,
    Role.PER_PLAYER,
    Role.COST,
)


@dataclass
class FieldSpec:
    name: str
    type: str
    vocab: str | None = None
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None
    label: str | None = None
    role: str | None = None  # one of ROLES
    loc: Loc = (0, 0)


@dataclass
class RarityCount:
    designs: int | None = None
    copies: int | None = None


@dataclass
class CollationGroup:
    """A group of designs in one print run; a card belongs to the first group whose `where` it
    matches."""

    name: str
    where: dict[str, Any]
    cards: int | None = None
    copies: int | None = None
    rarities: dict[str, RarityCount] = field(default_factory=dict)
    loc: Loc = (0, 0)


@dataclass
class Component:
    """A component of the box that is not a card (game.yaml `components:`): `count` of it, and
    `per_player` more for each player."""

    name: str
    count: int = 0
    per_player: int = 0
    loc: Loc = (0, 0)
    local: dict[str, dict[str, str]] = field(default_factory=dict)  # lang -> name
    # a token printed on token sheets (kit/tokens.py): its shape, size (points; None: its
    # template's, else 25 mm), face and back templates, fold-over, and the values its faces show
    shape: str | None = None
    size: tuple[float, float] | None = None
    template: str | None = None
    back: str | None = None
    fold: bool = False
    data: dict[str, Any] = field(default_factory=dict)
    key_locs: dict[str, Loc] = field(default_factory=dict)  # where each key is written

    def copies(self, players: int) -> int:
        return self.count + self.per_player * players


@dataclass
class NumberPrefix:
    prefix: str
    where: dict[str, Any]
    total: int | None = None
    loc: Loc = (0, 0)


@dataclass
class Numbering:
    key: str = "number"  # the card field holding the collector number
    pattern: str = r"^(?P<prefix>[A-Za-z]*)(?P<index>\d+|x)/(?P<total>\d+|x)$"
    unassigned: str = "x"
    case_sensitive: bool = True
    required: bool = False  # every card a prefix selects must carry a number
    prefixes: list[NumberPrefix] = field(default_factory=list)
    loc: Loc = (0, 0)


@dataclass
class DraftSettings:
    """The checked `draft:` section: how a draft runs (docs/packs.md)."""

    pack_size: int | None = None
    packs_per_player: int | None = None
    passes: list[str] | None = None
    pool: dict[str, Any] = field(
        default_factory=dict
    )  # a `where`: every pack format deals only these cards
    players: int | None = None
    seed: int | None = None


def written(value: object, placeholders: Sequence[str]) -> str:
    """A value as text, or '' when it is absent or one of the placeholders (any case)."""
    text = str(value or "").strip()
    return "" if text.lower() in {p.strip().lower() for p in placeholders} else text


@dataclass
class GameModel:
    id: str
    name: str
    file: str
    version: str = ""
    description: str = ""
    fields: dict[str, FieldSpec] = field(default_factory=dict)
    vocabularies: dict[str, Vocabulary] = field(default_factory=dict)
    cost: CostGrammar = field(default_factory=CostGrammar)
    keywords: list[Keyword] = field(default_factory=list)
    keyword_lines: bool = False  # lines like 'Shield' or 'Bleed - reminder' declare keywords
    bare_symbols: bool = (
        False  # 'Gain LLL.' — standalone runs of symbol letters in text are cost symbols
    )
    placeholders: list[str] = field(default_factory=list)
    card_file_mb: int | None = None  # reading: card_file_mb (None: load.cardfile's default)
    draft_field: str | None = "status"
    draft_values: list[str] = field(default_factory=lambda: ["draft"])
    text_fields: list[str] = field(default_factory=lambda: ["text"])
    text_labels: list[str] = field(
        default_factory=list
    )  # ability labels styled bold at a paragraph's start
    reminder_text: str = (
        "after-keyword"  # which parentheses are italic reminder text: after-keyword, all, none
    )
    collation: list[CollationGroup] = field(default_factory=list)
    components: list[Component] = field(default_factory=list)  # tokens, counters, markers
    numbering: Numbering | None = None
    card: dict[str, Any] = field(
        default_factory=dict
    )  # size, bleed, safe, stock, sleeves (as written, with units)
    box: dict[str, Any] = field(default_factory=dict)  # the print-and-play box (kit/), checked
    limits: dict[str, Any] = field(default_factory=dict)
    guards: Guards = field(default_factory=Guards)  # the print-quality guards' thresholds
    deck: DeckRules = field(default_factory=DeckRules)  # typed from the checked deck: section
    draft: DraftSettings = field(default_factory=DraftSettings)
    packs: dict[str, Any] = field(default_factory=dict)
    cockatrice: dict[str, Any] = field(
        default_factory=dict
    )  # export presentation (model/schema.py)
    draftmancer: dict[str, Any] = field(default_factory=dict)
    tts: dict[str, Any] = field(default_factory=dict)  # the Tabletop Simulator table (piles)
    sheet: dict[str, Any] = field(
        default_factory=dict
    )  # the designer's spreadsheet (cardgen.sheet)
    fonts: dict[str, Any] = field(default_factory=dict)  # the fallback chain of every family, book
    info: dict[str, Any] = field(
        default_factory=dict
    )  # the `game:` section, once checked to be a mapping
    digest: str = ""  # hash of game.yaml's bytes: part of every cache key that depends on the model
    section_locs: dict[str, Loc] = field(default_factory=dict)
    # role -> the field whose misspelt role ('role: fction') was dropped: that field's checks are
    # the typo's consequences (Finding.about)
    near_roles: dict[str, str] = field(default_factory=dict)
    inline_vocabs: set[str] = field(default_factory=set)  # vocabularies a field's `values` declares
    editions: Editions | None = None  # the game's languages (game.yaml `editions:`)
    edition: str = ""  # the language this model shows (model/localise.py); '' without editions
    # per-language values of the game and text sections: lang -> name, description, labels
    local: dict[str, dict[str, Any]] = field(default_factory=dict)

    def keyword(self, name: str) -> Keyword | None:
        folded = name.lower()
        for k in self.keywords:
            if k.name.lower() == folded:
                return k
        for k in self.keywords:  # in another edition: the name in the cards' own language too
            if k.base and k.base.lower() == folded:
                return k
        return None

    def other_edition(self) -> bool:
        """True when this model shows an edition other than the default's (its cards' own
        values): what prints differs, and findings about it name the edition."""
        return self.editions is not None and self.edition not in ("", self.editions.default)

    def shown_value(self, field_name: str, value: object) -> str:
        """A vocabulary value as this edition prints it: the value's `name@LANG` in another
        edition, else the value as the card writes it."""
        if self.other_edition():
            term = self.term(field_name, str(value))
            if term is not None and "name" in term.attrs:
                return str(term.attrs["name"])
        return str(value)

    def role_fields(self, role: str) -> list[str]:
        """The fields the model marks with a role ('faction', 'kind', 'attack', 'health'), in model
        order."""
        return [f.name for f in self.fields.values() if f.role == role]

    def role_field(self, role: str) -> str | None:
        names = self.role_fields(role)
        return names[0] if names else None

    def role_value(self, card: Card, role: str) -> Any:
        """The card's value for a role ('rarity', 'number', 'text' …), or None when the model has no
        such field."""
        field_name = self.role_field(role)
        return card.get(field_name) if field_name else None

    def rarity_terms(self) -> list[Term]:
        """The rarity field's values in the model's order (commonest first), or none."""
        field_name = self.role_field(Role.RARITY)
        vocab = self.vocab_for(field_name) if field_name else None
        return list(vocab.terms) if vocab else []

    @property
    def cost_field(self) -> str | None:
        """The card's cost: the field of type `cost`, else the whole-number field with role: cost
        (a role on another type is a model error, and not read)."""
        typed = next((f.name for f in self.fields.values() if f.type == "cost"), None)
        named = self.role_field(Role.COST)
        if typed is None and named is not None and self.fields[named].type in COST_ROLE_TYPES:
            return named
        return typed

    def parsed_cost(self, value: object) -> Cost:
        """A card's cost value counted: by the game's cost grammar, or, for a whole-number cost
        (role: cost), as that many generic ('3': total 3; 'X': total 0)."""
        name = self.cost_field
        whole = name is not None and self.fields[name].type != "cost"
        return parse_cost(cost_text(value), WHOLE_NUMBER if whole else self.cost)

    def written(self, value: object) -> str:
        """A value as text, or '' when it is absent or a placeholder ('[]', '[Rarity]')."""
        return written(value, self.placeholders)

    def about_field(self, field_name: str) -> str:
        """The model part a card finding about this field's values depends on (Finding.about):
        its vocabulary when it has a declared one, else the field."""
        spec = self.fields.get(field_name)
        if spec and spec.vocab and spec.vocab not in self.inline_vocabs:
            return f"vocabularies.{spec.vocab}"
        return f"fields.{field_name}"

    def about_role(self, role: str) -> str:
        """The model part a role-based card check depends on: the field with the role, or the one
        whose misspelt role was dropped, else the role itself."""
        name = self.role_field(role) or self.near_roles.get(role)
        return f"fields.{name}" if name else f"roles.{role}"

    def vocab_for(self, field_name: str) -> Vocabulary | None:
        spec = self.fields.get(field_name)
        return self.vocabularies.get(spec.vocab) if spec and spec.vocab else None

    def term(self, field_name: str, value: str) -> Term | None:
        vocab = self.vocab_for(field_name)
        return vocab.lookup(value)[0] if vocab else None


def matches(where: dict[str, Any], data: dict[str, Any]) -> bool:
    """Does a card's data match a `where` clause? A list means 'exactly these (any order)', a scalar
    'has this'. A key starting with 'not ' negates its test; `{}` matches every card. In an
    edition's view of a card, a translated field is matched by the cards' own value (`canonical`,
    model/localise.py): every edition selects the same cards."""
    canonical = getattr(data, "canonical", None)
    for key, want in where.items():
        negate = key.startswith("not ")
        name = key[4:] if negate else key
        have = canonical[name] if canonical and name in canonical else data.get(name)
        if isinstance(want, list):
            got = have if isinstance(have, list) else ([] if have is None else [have])
            ok = sorted(map(str, got)) == sorted(map(str, want))
        elif isinstance(have, list):
            ok = want in have
        else:
            ok = have == want
        if ok == negate:
            return False
    return True


def assign_groups(
    catalog: Catalog, groups: list[CollationGroup]
) -> dict[int, CollationGroup | None]:
    """Each card's collation group by catalog position: the first whose `where` it matches, else
    None. Worked out once per catalog and group list (the print run, packs, validator and report all
    ask); the answer is shared, so callers only read it."""
    memo = catalog.__dict__.setdefault("_assigned", Memo(4))  # goes with the catalog
    kept = memo.get(  # an entry holds its groups: their id is not reused while it is kept
        (id(groups), len(catalog.cards)),
        lambda: (
            groups,
            {
                card.order: next((g for g in groups if matches(g.where, card.data)), None)
                for card in catalog
            },
        ),
    )
    return kept[1]  # type: ignore[no-any-return]

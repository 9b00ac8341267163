"""Turn the checked `deck:` section of a model into typed deck rules (DeckRules), named formats
included.

The section's keys, types and ranges are declared in model/schema.py and checked when the model
loads; this module only gives the deck checker typed objects, so no stage reads the section as a raw
mapping.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

Where = dict[str, Any]


@dataclass
class MainRules:
    size: int | None = None
    min: int | None = None
    max: int | None = None
    max_copies: int | None = None  # None: no limit (written `max_copies: none` to override one)
    copies_by: str = "name"
    where: Where | None = None


@dataclass
class SectionRule:
    count: int | None = None
    where: Where | None = None


@dataclass
class CopyLimit:
    where: Where
    max: int


@dataclass
class Group:
    """A character's primary or secondary groups: the role value, how many groups, how many
    cards."""

    role: str | None = None
    count: int = 1
    cards: int | None = None
    share: int = 0


@dataclass
class Feat:
    """A character's signature card or extra cards: their section name in a list, what they are, how
    many."""

    section: str
    where: Where = field(default_factory=dict)
    count: int = 1


@dataclass
class CharacterRules:
    groups_field: str
    role_attr: str
    primary: Group
    secondary: Group
    signature: Feat
    extras: Feat
    pips_attr: str = ""
    pips_requires: str = ""
    feats: int | None = None
    names: dict[str, str] = field(default_factory=dict)


@dataclass
class DeckRules:
    format: str = "plain"
    main: MainRules = field(default_factory=MainRules)
    sections: dict[str, SectionRule] = field(default_factory=dict)
    separate_decks: dict[str, Where] = field(default_factory=dict)
    from_pool: str | None = None
    character: CharacterRules | None = None
    copies: list[CopyLimit] = field(default_factory=list)
    distinct: list[tuple[str, int]] = field(
        default_factory=list
    )  # (field, at most this many values)
    share: list[str] = field(default_factory=list)  # fields every card shares a value of
    formats: dict[str, dict[str, Any]] = field(default_factory=dict)

    def with_format(self, name: str) -> DeckRules:
        """These rules with a named format's laid over them ('main' merged key by key)."""
        chosen = self.formats[name]
        over = deck_rules(chosen)
        merged = replace(self, formats={})
        if "main" in chosen:
            merged.main = replace(self.main, **{k: getattr(over.main, k) for k in chosen["main"]})
        if "min_cards" in chosen:
            merged.main = replace(merged.main, min=chosen["min_cards"])
        for key in (
            "format",
            "sections",
            "separate_decks",
            "from_pool",
            "character",
            "copies",
            "distinct",
            "share",
        ):
            if key in chosen:
                setattr(merged, key, getattr(over, key))
        return merged


def deck_rules(section: dict[str, Any] | None) -> DeckRules:
    """Typed rules from the checked section (absent keys take their defaults)."""
    d = section or {}
    main = dict(d.get("main") or {})
    rules = DeckRules(
        format=d.get("format") or "plain",
        main=MainRules(
            main.get("size"),
            main.get("min", d.get("min_cards")),
            main.get("max"),
            None if main.get("max_copies") == "none" else main.get("max_copies"),
            main.get("copies_by") or "name",
            main.get("where"),
        ),
        sections={
            name: SectionRule(s.get("count"), s.get("where"))
            for name, s in (d.get("sections") or {}).items()
        },
        separate_decks={
            name: dict(s.get("where") or {}) for name, s in (d.get("separate_decks") or {}).items()
        },
        from_pool=d.get("from_pool"),
        copies=[
            CopyLimit(dict(c.get("where") or {}), c["max"])
            for c in d.get("copies") or []
            if "max" in c
        ],
        distinct=[(r["field"], r.get("max", 1)) for r in d.get("distinct") or []],
        share=[r["field"] for r in d.get("share") or []],
        formats={name: dict(f) for name, f in (d.get("formats") or {}).items()},
    )
    c = d.get("character")
    if c:
        pips = c.get("pips") or {}
        p, s = c.get("primary") or {}, c.get("secondary") or {}
        sig, ext = c.get("signature") or {}, c.get("extras") or {}
        rules.character = CharacterRules(
            c.get("groups_field") or "",
            c.get("role_attr") or "",
            Group(p.get("role"), p.get("count", 1), p.get("cards")),
            Group(s.get("role"), s.get("count", 2), s.get("cards"), s.get("share", 0)),
            Feat(
                sig.get("section", "signature"), dict(sig.get("where") or {}), sig.get("count", 1)
            ),
            Feat(ext.get("section", "extras"), dict(ext.get("where") or {}), ext.get("count", 2)),
            pips.get("attr", ""),
            pips.get("requires", ""),
            c.get("feats"),
            dict(c.get("names") or {}),
        )
    return rules

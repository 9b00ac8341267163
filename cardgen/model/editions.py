"""Turn game.yaml's checked `editions:` section into typed Editions (the languages, the default,
each language's fallback, the fields that carry per-language values) and per-language keys
(`name@de`) into their parts.

One card source, many languages: a card writes `FIELD@LANG` beside `FIELD`; the model writes
`KEY@LANG` beside a keyword's, component's, cost symbol's or vocabulary value's `KEY`. What an
edition shows is picked along the language's fallback chain (model/localise.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from ..load.yamlio import Loc, LocDict
from .reader import Reader

# a language code: 'en', 'de', 'pt-br', 'zh-hant' (it names output folders: output/GAME@de)
CODE = re.compile(r"^[a-z]{2,3}(?:-[a-z0-9]{2,8})?$")
MISSING = ("info", "warning", "error")  # the severities of translation-missing
# field types whose values are written per language (a vocabulary value is translated by its
# vocabulary's name@LANG; a number, a cost or a count is the same in every edition)
TRANSLATABLE_TYPES = ("text", "image")


@dataclass
class Language:
    code: str
    name: str  # how the edition is called ('Deutsch')
    fallback: str | None = None  # None: the default language
    loc: Loc = (0, 0)
    fallback_loc: Loc = (0, 0)


@dataclass
class Editions:
    """The game's editions: `default` is the language the cards' own values are written in."""

    default: str
    languages: dict[str, Language] = field(default_factory=dict)
    translate: list[str] = field(default_factory=list)
    missing: str = "warning"
    loc: Loc = (0, 0)

    def codes(self) -> list[str]:
        """Every edition's language, the default first, then the others as declared."""
        return [self.default] + [c for c in self.languages if c != self.default]

    def others(self) -> list[str]:
        return [c for c in self.languages if c != self.default]

    def name(self, lang: str) -> str:
        found = self.languages.get(lang)
        return found.name if found else lang

    def chain(self, lang: str) -> list[str]:
        """Where an edition's values come from, first to last: the language, its fallbacks in
        turn, then the default (a loop is cut where it closes: model/consistency.py reports it)."""
        out: list[str] = []
        current: str | None = lang
        while current is not None and current not in out:
            out.append(current)
            if current == self.default:
                break
            spec = self.languages.get(current)
            current = (spec.fallback if spec is not None else None) or self.default
        if self.default not in out:
            out.append(self.default)
        return out


def split_key(key: object) -> tuple[str, str] | None:
    """'name@de' -> ('name', 'de'); None for a key without one '@' between two names."""
    if not isinstance(key, str) or key.count("@") != 1:
        return None
    base, lang = key.split("@")
    return (base, lang) if base and lang else None


def local_values(item: Mapping[Any, Any], keys: Iterable[str] | None = None) -> dict[str, dict]:
    """The per-language values of a mapping: language -> base key -> value, from its `KEY@LANG`
    keys (only those of `keys`, when given)."""
    wanted = set(keys) if keys is not None else None
    out: dict[str, dict[str, Any]] = {}
    for key, value in item.items():
        parts = split_key(key)
        if parts is None or value is None or (wanted is not None and parts[0] not in wanted):
            continue
        out.setdefault(parts[1], {})[parts[0]] = value
    return out


def pick(base: Any, local: Mapping[str, Mapping[str, Any]], key: str, chain: list[str]) -> Any:
    """The value of `key` an edition shows: the first language of its chain that writes one (the
    default's is `base`, the key itself)."""
    for lang in chain[:-1]:
        value = local.get(lang, {}).get(key)
        if value is not None:
            return value
    return base


def build_editions(r: Reader, raw: LocDict) -> Editions | None:
    """The checked `editions:` section as Editions (its shape was checked by model/schema.py, its
    meaning is checked by model/consistency.py); a malformed language code is dropped here, since
    it would name a folder."""
    section = raw.get("editions")
    if not isinstance(section, LocDict) or not isinstance(section.get("default"), str):
        return None
    default = section["default"]
    eds = Editions(
        default, missing=section.get("missing") or "warning", loc=raw.key_loc("editions")
    )
    languages = section.get("languages")
    for code, body in (languages or {}).items():
        at = languages.key_loc(code) if isinstance(languages, LocDict) else eds.loc
        if not isinstance(code, str) or not CODE.match(code):
            r.error(
                at,
                "model-value",
                f"editions.languages: '{code}' is no language code; the language is left out",
                "write a lower-case code such as de, fr or pt-br",
            )
            continue
        body = body if isinstance(body, LocDict) else LocDict()
        eds.languages[code] = Language(
            code,
            str(body.get("name") or code),
            body.get("fallback"),
            at,
            body.key_loc("fallback") if "fallback" in body else at,
        )
    translate = section.get("translate") or []
    eds.translate = [str(name) for name in translate]
    return eds

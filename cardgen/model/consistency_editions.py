"""Turn a loaded model's editions and per-language keys into findings about their meaning: a
default that is no language, a fallback to an unknown language or in a loop, a field that cannot be
translated, a `KEY@LANG` of a language the game does not have. What cannot be used is dropped from
the model's Editions here, and the finding says what is used instead."""

from __future__ import annotations

from typing import Any, Iterator

from ..core.errors import Severity, did_you_mean
from ..load.yamlio import Loc, LocDict, LocList
from .consistency_deck import Found
from .editions import CODE, TRANSLATABLE_TYPES, Language, split_key
from .game import GameModel

ABOUT = "editions"


def check_editions(model: GameModel, raw: LocDict) -> Iterator[Found]:
    """The `editions:` section's meaning; its mistakes are mended in `model.editions`."""
    eds = model.editions
    section = raw.get("editions")
    if eds is None or not isinstance(section, LocDict):
        return
    codes = list(eds.languages)
    if eds.default not in eds.languages:
        written = CODE.match(eds.default) is not None
        yield (
            section.key_loc("default"),
            Severity.ERROR,
            "model-unknown-language",
            f"editions.default is '{eds.default}', which is not among editions.languages"
            + ("; it is taken as a language of its own" if written else "; ")
            + ("" if written else "it is no language code, so the game has no editions"),
            did_you_mean(eds.default, codes) or f"languages: {', '.join(codes) or 'none'}",
            ABOUT,
        )
        if not written:
            model.editions, model.edition = None, ""
            return
        eds.languages = {eds.default: Language(eds.default, eds.default), **eds.languages}
        codes = list(eds.languages)
    for lang in eds.languages.values():
        if lang.fallback is not None and lang.fallback not in eds.languages:
            yield (
                lang.fallback_loc,
                Severity.ERROR,
                "model-unknown-language",
                f"editions.languages.{lang.code}.fallback is '{lang.fallback}', which is no "
                f"language of the game; {lang.code} falls back to the default, {eds.default}",
                did_you_mean(lang.fallback, codes) or f"languages: {', '.join(codes)}",
                ABOUT,
            )
            lang.fallback = None
    yield from _loops(model)
    yield from _translate(model, section)


def _loops(model: GameModel) -> Iterator[Found]:
    """Fallbacks that come back to a language already passed (de -> at -> de): cut at the
    fallback that closes the loop, which then goes to the default."""
    eds = model.editions
    assert eds is not None
    for code in list(eds.languages):
        seen: list[str] = []
        current: str | None = code
        while current is not None and current != eds.default and current not in seen:
            seen.append(current)
            current = eds.languages[current].fallback
        if current is None or current == eds.default:
            continue
        closing = eds.languages[seen[-1]]
        loop = " -> ".join(seen[seen.index(current) :] + [current])
        yield (
            closing.fallback_loc,
            Severity.ERROR,
            "model-fallback-loop",
            f"the editions' fallbacks go round in a loop ({loop}); {closing.code} falls back to "
            f"the default, {eds.default}",
            f"let one of them fall back to {eds.default}",
            ABOUT,
        )
        closing.fallback = None


def _translate(model: GameModel, section: LocDict) -> Iterator[Found]:
    eds = model.editions
    assert eds is not None
    listed = section.get("translate")
    spots = (
        [(name, listed.item_loc(i)) for i, name in enumerate(listed)]
        if isinstance(listed, LocList)
        else [(name, section.key_loc("translate")) for name in eds.translate]
    )
    kept: list[str] = []
    for name, at in spots:
        spec = model.fields.get(name)
        if spec is None:
            yield (
                at,
                Severity.ERROR,
                "model-unknown-field",
                f"editions.translate names field '{name}', which the model does not have; it is "
                "not translated",
                did_you_mean(name, list(model.fields)),
                ABOUT,
            )
        elif spec.type not in TRANSLATABLE_TYPES:
            yield (
                at,
                Severity.ERROR,
                "model-value",
                f"editions.translate names '{name}', a field of type {spec.type}, which is the "
                "same in every edition; it is not translated",
                "a vocabulary value is translated by the vocabulary's name@LANG (docs/editions.md)"
                if spec.type in ("enum", "list")
                else "translate text and image fields",
                ABOUT,
            )
        elif name in kept:
            yield (
                at,
                Severity.ERROR,
                "model-duplicate-value",
                f"editions.translate names '{name}' twice; it is translated once",
                "delete one of them",
                ABOUT,
            )
        else:
            kept.append(name)
    eds.translate = kept


# where game.yaml may write per-language keys: (section, how its entries are found, keys)
PLACES = (
    ("game", "one", ("name", "description")),
    ("text", "one", ("labels",)),
    ("keywords", "entries", ("name", "reminder", "rules")),
    ("components", "entries", ("name",)),
)


def check_translations(model: GameModel, raw: LocDict) -> Iterator[Found]:
    """Each `KEY@LANG` of the model names one of the game's other languages (a vocabulary value's
    free attributes only once the game has editions: before, `name@de` is an attribute like any
    other)."""
    for section, shape, _ in PLACES:
        body = raw.get(section)
        items = [(section, body)] if shape == "one" else _entries(section, body)
        for where, item in items:
            yield from _keys(model, item, where, section)
    cost = raw.get("cost")
    symbols = cost.get("symbols") if isinstance(cost, LocDict) else None
    for where, item in _entries("cost.symbols", symbols):
        yield from _keys(model, item, where, "costs")
    vocabs = raw.get("vocabularies")
    if model.editions is None or not isinstance(vocabs, LocDict):
        return
    for name, body in vocabs.items():
        terms = body.get("terms") if isinstance(body, LocDict) else body
        for where, item in _entries(f"vocabularies.{name}", terms):
            yield from _keys(model, item, where, f"vocabularies.{name}")


def _entries(where: str, body: Any) -> list[tuple[str, Any]]:
    if isinstance(body, LocList):
        return [(f"{where}[{i + 1}]", item) for i, item in enumerate(body)]
    if isinstance(body, LocDict):
        return [(f"{where}.{key}", item) for key, item in body.items()]
    return []


def _keys(model: GameModel, item: Any, where: str, about: str) -> Iterator[Found]:
    if not isinstance(item, LocDict):
        return
    eds = model.editions
    for key in item:
        parts = split_key(key)
        if parts is None:
            continue
        at: Loc = item.key_loc(key)
        if eds is None:
            yield (
                at,
                Severity.ERROR,
                "model-unknown-key",
                f"unknown key '{key}' in {where}: a value per language needs the game's "
                "editions: section",
                "declare the languages in editions: (docs/editions.md), or remove it",
                about,
            )
        elif parts[1] == eds.default:
            yield (
                at,
                Severity.ERROR,
                "model-unknown-language",
                f"'{key}' in {where} is in the default language, {eds.default}, whose value is "
                f"'{parts[0]}' itself; it is not used",
                f"write it as '{parts[0]}'",
                about,
            )
        elif parts[1] not in eds.languages:
            codes = eds.others()
            yield (
                at,
                Severity.ERROR,
                "model-unknown-language",
                f"'{key}' in {where} is for language '{parts[1]}', which the game does not have "
                "(editions.languages); it is not used",
                did_you_mean(parts[1], codes) or f"languages: {', '.join(codes) or 'none'}",
                about,
            )

"""Turn a game's model and cards into one edition's view of them: the glossary, cost symbols,
components, vocabulary display names, ability labels and game name in the edition's language, and
each card with its translatable fields picked along the language's fallback chain.

Everything downstream (faces, rich text, the rulebook, exports, version marks) reads the view as it
reads any model and catalog, so a template's `card.name` is the German name in the German edition
with no change to the template. Card data stays canonical where it is not translated: a card's
faction is still `Ember`; `attr('faction', 'name')` and type lines show the value's `name@LANG`.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

from ..load.card import Card, Catalog
from ..load.yamlio import LocDict
from .editions import Editions, local_values, pick, split_key
from .game import GameModel
from .words import Term


class EditionData(LocDict):
    """A card's fields as an edition prints them; `canonical` keeps the cards' own values of the
    translated ones, which `where:` selections read (model.game.matches): a German card named
    Münze is still the `{name: Coin}` of the collation, faces.yaml and the pack formats."""

    canonical: dict[str, Any]


def edition_model(model: GameModel, lang: str) -> GameModel:
    """The model as edition `lang` shows it (the loaded model is the default edition's)."""
    eds = model.editions
    if eds is None or lang in ("", model.edition):
        return model
    chain = eds.chain(lang)
    keywords = [
        replace(
            k,
            name=pick(k.name, k.local, "name", chain),
            reminder=pick(k.reminder, k.local, "reminder", chain),
            rules=pick(k.rules, k.local, "rules", chain),
            base=k.name,
        )
        for k in model.keywords
    ]
    symbols = [
        replace(
            s,
            name=pick(s.name, s.local, "name", chain),
            rules=pick(s.rules, s.local, "rules", chain),
        )
        for s in model.cost.symbols
    ]
    components = [replace(c, name=pick(c.name, c.local, "name", chain)) for c in model.components]
    vocabularies = {
        name: replace(vocab, terms=[_term(t, chain) for t in vocab.terms])
        for name, vocab in model.vocabularies.items()
    }
    name = str(pick(model.name, model.local, "name", chain))
    info = dict(model.info)
    info.update({"name": name} if "name" in info else {})
    description = pick(model.description, model.local, "description", chain)
    if "description" in info:
        info["description"] = description
    return replace(
        model,
        name=name,
        description=str(description or ""),
        info=info,
        keywords=keywords,
        cost=replace(model.cost, symbols=symbols),
        components=components,
        vocabularies=vocabularies,
        text_labels=list(pick(model.text_labels, model.local, "labels", chain)),
        edition=lang,
        digest=hashlib.sha1(f"{model.digest}@{lang}".encode()).hexdigest(),
    )


def _term(term: Term, chain: list[str]) -> Term:
    """A vocabulary value whose attributes (its display `name` among them) are the edition's."""
    local = local_values(term.attrs)
    if not local:
        return term
    attrs = dict(term.attrs)
    for key in {k for values in local.values() for k in values}:
        value = pick(attrs.get(key), local, key, chain)
        if value is not None:
            attrs[key] = value
    return replace(term, attrs=attrs)


def edition_catalog(catalog: Catalog, model: GameModel) -> Catalog:
    """The cards as `model`'s edition prints them, each per-language key (`text@de`) gone: a
    translated field holds its translation and stands at its key's place."""
    eds = model.editions
    if eds is None:
        return catalog
    written = catalog.written or catalog
    chain = eds.chain(model.edition or eds.default)
    cards = [edition_card(card, eds, chain) for card in written.cards]
    return Catalog(written.game, cards, list(written.files), written=written)


def edition_card(card: Card, eds: Editions, chain: list[str]) -> Card:
    """One card as the edition whose languages are `chain` (first to last) prints it."""
    data = EditionData()
    data.loc = getattr(card.data, "loc", (card.line, card.column))
    locs = dict(card.field_locs)
    for key, value in card.data.items():
        if split_key(key) is None:
            data[key] = value
    translated, untranslated = [], []
    for name in eds.translate:
        found = next(
            (lang for lang in chain[:-1] if card.data.get(f"{name}@{lang}") is not None), None
        )
        if found is not None:
            data[name] = card.data[f"{name}@{found}"]
            locs[name] = card.loc(f"{name}@{found}")
            translated.append(name)
        elif len(chain) > 1 and _worth_translating(card.data.get(name)):
            untranslated.append(name)
    for key in card.data:
        if split_key(key) is not None:
            locs.pop(key, None)
    data.key_locs = {k: v for k, v in locs.items() if k in data}
    data.canonical = {name: card.data.get(name) for name in translated}
    return replace(
        card,
        data=data,
        field_locs=locs,
        translated=tuple(translated),
        untranslated=tuple(untranslated),
    )


def _worth_translating(value: object) -> bool:
    """A value a translation is missing for: written, not empty."""
    if isinstance(value, str):
        return bool(value.strip())
    return value is not None and value != []

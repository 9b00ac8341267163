"""Turn a game's per-language card keys and one edition's view of its cards into findings: a
`FIELD@LANG` of a language the game does not have or of a field it does not translate, a
translation whose field the card leaves unset, and the translations an edition falls back for."""

from __future__ import annotations

from typing import Iterator

from ..core.errors import Finding, Severity, did_you_mean
from ..load.card import Card, Catalog
from ..model.editions import TRANSLATABLE_TYPES, split_key
from . import Context

_SEVERITY = {"info": Severity.INFO, "warning": Severity.WARNING, "error": Severity.ERROR}


def edition_findings(view: Catalog, ctx: Context) -> list[Finding]:
    """The findings of the per-language keys of the cards as written (`view.written`), and of the
    translations missing in the edition `ctx.model` shows."""
    out: list[Finding] = []
    for card in (view.written or view).cards:
        out += _keys(card, ctx)
    if ctx.model.other_edition():
        out += [f for card in view.cards for f in _missing(card, ctx)]
    return out


def _keys(card: Card, ctx: Context) -> Iterator[Finding]:
    eds = ctx.model.editions
    assert eds is not None
    for key in card.data:
        parts = split_key(key)
        if parts is None:
            continue
        base, lang = parts
        if base not in eds.translate:
            known = base in ctx.model.fields
            yield ctx.at(
                card,
                key,
                Severity.ERROR,
                "translation-field",
                f"'{key}': "
                + (
                    f"field '{base}' is not translated (editions.translate: "
                    f"{', '.join(eds.translate) or 'none'}); the value is not used"
                    if known
                    else f"'{base}' is no field of the model; the value is not used"
                ),
                did_you_mean(base, eds.translate if known else list(ctx.model.fields))
                or (_how(ctx.model.fields[base].type, base) if known else None),
                about="editions",
            )
        elif lang == eds.default:
            yield ctx.at(
                card,
                key,
                Severity.ERROR,
                "translation-language",
                f"'{key}' is in the default language, {eds.default}, whose value is '{base}' "
                "itself; it is not used",
                f"write it as '{base}'",
                about="editions",
            )
        elif lang not in eds.languages:
            codes = eds.others()
            yield ctx.at(
                card,
                key,
                Severity.ERROR,
                "translation-language",
                f"'{key}' is for language '{lang}', which the game has no edition in; the value "
                "is not used",
                did_you_mean(lang, codes) or f"languages: {', '.join(codes) or 'none'}",
                about="editions",
            )
        elif card.data.get(base) is None:
            yield ctx.at(
                card,
                key,
                Severity.WARNING,
                "translation-no-base",
                f"'{key}' translates '{base}', which the card does not have: the "
                f"{eds.default} edition prints none",
                f"write '{base}' too, or remove the translation",
                about="editions",
            )


def _how(kind: str, base: str) -> str:
    """What to do about a per-language value of a field that is not translated."""
    if kind in TRANSLATABLE_TYPES:
        return f"add '{base}' to editions.translate in game.yaml"
    return f"a {kind} field is the same in every edition: remove it"


def _missing(card: Card, ctx: Context) -> Iterator[Finding]:
    """One finding per card that prints a field in the cards' own language for want of a
    translation, listing the fields."""
    eds = ctx.model.editions
    if not card.untranslated or eds is None:
        return
    lang = ctx.model.edition
    fields = ", ".join(f"'{f}'" for f in card.untranslated)
    keys = ", ".join(f"{f}@{lang}" for f in card.untranslated)
    yield Finding(
        card.file,
        card.line,
        card.column,
        _SEVERITY.get(eds.missing, Severity.WARNING),
        "translation-missing",
        card.id,
        f"no {eds.name(lang)} translation of {fields}: the {lang} edition prints "
        f"{'it' if len(card.untranslated) == 1 else 'them'} in {eds.name(eds.default)} "
        f"({eds.default})",
        f"add {keys}",
        about="editions",
        edition=lang,
    )

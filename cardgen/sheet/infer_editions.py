"""Turn a sheet's per-language columns ('Name (DE)', 'Text [fr]', 'flavor@es') into an inferred
game's editions: the languages, the translated fields, each card's FIELD@LANG values, and a
vocabulary's value names per language ('Type (DE)': Spell is Zauber)."""

from __future__ import annotations

import locale
import textwrap
from dataclasses import dataclass, field

from .columns import language_header
from .infer import Column, Inferred, fold

TRANSLATED = ("name", "text", "image")  # the kinds of base column a translation column is read for
DEFAULTS = ("en", "de", "fr", "es", "it")  # the sheet's own language is taken to be the first free


@dataclass
class EditionGuess:
    """The editions a sheet's language columns make."""

    default: str = ""
    languages: list[str] = field(default_factory=list)  # the others, in sheet order
    translate: list[str] = field(default_factory=list)  # the fields, in sheet order
    columns: list[str] = field(default_factory=list)  # the headers read as translations
    values: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)  # vocab names

    def said(self) -> list[str]:
        """The summary's line: which columns became which editions."""
        if not self.languages:
            return []
        return [
            f"{len(self.columns)} column(s) read as translations ({', '.join(self.columns)}): "
            f"editions {', '.join([self.default, *self.languages])} (the sheet's own columns "
            f"taken to be '{self.default}')"
        ]


def language_code(text: str) -> str | None:
    """'DE' -> 'de', 'pt_BR' -> 'pt-br'; None for letters that are no language a locale knows
    ('HP', 'ATK': a stat's abbreviation in brackets)."""
    code = text.lower().replace("_", "-")
    lang = code.split("-")[0]
    if lang not in locale.locale_alias or not locale.locale_alias[lang].lower().startswith(lang):
        return None
    return code


def apply_editions(inferred: Inferred) -> EditionGuess:
    """Read the columns that hold another column's values in another language as translations:
    a text or name column's become the cards' FIELD@LANG, an enumeration's whose every value has
    one translation become its vocabulary's name@LANG; the columns leave the model's fields."""
    guess = EditionGuess()
    by_header = {fold(c.header): c for c in inferred.columns}
    found: list[tuple[Column, Column, str]] = []
    for col in inferred.columns:
        said = language_header(col.header.strip())  # the headers `sheet pull` reads alike
        base = by_header.get(fold(said[0])) if said else None
        code = language_code(said[1]) if said else None
        if base is None or base is col or code is None:
            continue
        if base.kind in TRANSLATED or (base.kind == "enum" and _names(inferred, base, col)):
            found.append((col, base, code))
    if not found:
        return guess
    for col, base, code in found:
        if code not in guess.languages:
            guess.languages.append(code)
        guess.columns.append(col.header)
        if base.kind == "enum":
            names = _names(inferred, base, col) or {}
            guess.values.setdefault(base.field, {})[code] = names
        elif base.field not in guess.translate:
            guess.translate.append(base.field)
        _move(inferred, col, base, code)
    guess.default = next(c for c in DEFAULTS if c not in guess.languages)
    gone = {id(col) for col, _, _ in found}
    inferred.columns = [c for c in inferred.columns if id(c) not in gone]
    return guess


def _names(inferred: Inferred, base: Column, col: Column) -> dict[str, str] | None:
    """Each value of an enumeration `base` and its one translation in `col`, when every card that
    has both agrees (Spell is always Zauber); None when they disagree or none has both."""
    names: dict[str, str] = {}
    for _, cards in inferred.tables:
        for card in cards:
            value, said = card.get(base.field), card.get(col.field)
            if value is None or said is None:
                continue
            if names.setdefault(str(value), str(said)) != str(said):
                return None
    return names or None


def _move(inferred: Inferred, col: Column, base: Column, code: str) -> None:
    """Each card's value of the translation column as FIELD@LANG right after its own language's
    (a text's), or dropped (an enumeration's: its vocabulary names it)."""
    key = "name" if base.kind == "name" else base.field
    for _, cards in inferred.tables:
        for n, card in enumerate(cards):
            if col.field not in card:
                continue
            value = card.pop(col.field)
            if base.kind == "enum":
                continue
            items = list(card.items())
            at = next((i + 1 for i, (k, _) in enumerate(items) if k == key), len(items))
            while at < len(items) and items[at][0].startswith(f"{key}@"):
                at += 1
            items.insert(at, (f"{key}@{code}", str(value)))
            cards[n] = dict(items)


def editions_yaml(guess: EditionGuess) -> list[str]:
    """game.yaml's `editions:` section, the guesses said in comments."""
    if not guess.languages:
        return []
    heads = ", ".join(f'"{h}"' for h in guess.columns)
    said = (
        f"{heads}: the cards in another language, so the game has editions (docs/editions.md): "
        f"`cardgen build` makes each language's. The sheet's own columns are taken to be in "
        f"'{guess.default}': change `default` if they are not, and give each language the name "
        "it calls itself (name: Deutsch)."
    )
    out = [
        *textwrap.wrap(said, 98, initial_indent="# ", subsequent_indent="# "),
        "editions:",
        f"  default: {guess.default}",
        "  languages:",
        f"    {guess.default}: {{name: {guess.default.upper()}}}",
    ]
    out += [f"    {code}: {{name: {code.upper()}}}" for code in guess.languages]
    if guess.translate:
        out.append(f"  translate: [{', '.join(guess.translate)}]")
    return out + [""]

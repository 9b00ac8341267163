"""Turn a loaded game (model + catalog) into the complete list of findings; one failing check never
stops the rest."""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from ..core.errors import Finding, Severity, sort_findings
from ..load.card import Card, Catalog
from ..model.game import GameModel

CardCheck = Callable[[Card, "Context"], Iterable[Finding]]
SetCheck = Callable[[Catalog, "Context"], Iterable[Finding]]
CARD_CHECKS: list[tuple[str, CardCheck]] = []
SET_CHECKS: list[tuple[str, SetCheck]] = []


def card_check(name: str) -> Callable[[CardCheck], CardCheck]:
    def register(fn: CardCheck) -> CardCheck:
        CARD_CHECKS.append((name, fn))
        return fn

    return register


def set_check(name: str) -> Callable[[SetCheck], SetCheck]:
    def register(fn: SetCheck) -> SetCheck:
        SET_CHECKS.append((name, fn))
        return fn

    return register


@dataclass
class Context:
    """What every check may read: the model, the workspace root, and shared helpers."""

    model: GameModel
    root: Path

    def __post_init__(self) -> None:
        self._placeholders = frozenset([""] + [p.strip().lower() for p in self.model.placeholders])
        self._card_placeholders: dict[int, frozenset[str]] = {}
        # the fields whose values are vocabulary terms, with their vocabulary, computed once
        self.term_fields = [
            (spec, self.model.vocabularies[spec.vocab])
            for spec in self.model.fields.values()
            if spec.type in ("enum", "list") and spec.vocab in self.model.vocabularies
        ]

    def placeholder_fields(self, card: Card) -> frozenset[str]:
        """The fields of a card whose value is a placeholder, computed once per card."""
        got = self._card_placeholders.get(card.order)
        if got is None:
            got = frozenset(
                k for k, v in card.data.items() if v is not None and self.is_placeholder(v)
            )
            self._card_placeholders[card.order] = got
        return got

    def at(
        self,
        card: Card,
        key: str | None,
        severity: Severity,
        code: str,
        message: str,
        hint: str | None = None,
        about: str | None = None,
    ) -> Finding:
        """A finding at a card's field; `about` names the part of the model it depends on."""
        line, col = card.loc(key)
        return Finding(card.file, line, col, severity, code, card.id, message, hint, about=about)

    def at_model(
        self,
        loc: tuple[int, int],
        severity: Severity,
        code: str,
        message: str,
        hint: str | None = None,
        card: str | None = None,
        about: str | None = None,
    ) -> Finding:
        return Finding(
            self.model.file, loc[0], loc[1], severity, code, card, message, hint, about=about
        )

    def source(self, file: str) -> str | None:
        """The text of a file of the workspace as the loader read it (for a column inside a value),
        read once; None when it cannot be read."""
        sources: dict[str, str | None] = self.__dict__.setdefault("_sources", {})
        if file not in sources:
            from ..load.cardfile import card_file_bytes

            path, sources[file] = self.root / file, None
            try:
                if path.resolve().is_relative_to(
                    self.root.resolve()
                ) and path.stat().st_size <= card_file_bytes(self.model.card_file_mb):
                    sources[file] = path.read_bytes().decode("utf-8-sig")
            except (OSError, UnicodeDecodeError, RuntimeError):  # RuntimeError: a symlink loop
                pass
        return sources[file]

    def is_placeholder(self, value: object) -> bool:
        if type(value) is str:
            return value.strip().lower() in self._placeholders
        if isinstance(value, list):
            return any(self.is_placeholder(v) for v in value)
        return False

    def is_draft(self, card: Card) -> bool:
        field = self.model.draft_field
        return bool(field) and card.get(field or "") in self.model.draft_values


def validate(model: GameModel, catalog: Catalog, root: Path) -> list[Finding]:
    """Run every registered check over every card and over the set; return sorted findings. For a
    game with editions, the checks read the cards as `model`'s edition prints them (the cards as
    written, or that edition's view of them), and the per-language keys are checked as written."""
    from . import collation, fields, names, setwide, text  # noqa: F401  (registers the checks)

    ctx = Context(model, root)
    out: list[Finding] = []
    if model.editions is not None:
        from ..model.localise import edition_catalog
        from .editions import edition_findings

        if catalog.written is None:
            catalog = edition_catalog(catalog, model)
        out += edition_findings(catalog, ctx)
    for card in catalog:
        for name, check in CARD_CHECKS:
            try:
                out.extend(check(card, ctx))
            except Exception as exc:  # a bug in one check must not hide the others' findings
                out.append(
                    ctx.at(
                        card,
                        None,
                        Severity.ERROR,
                        "check-crashed",
                        f"check '{name}' failed on this card: {exc!r}",
                        _where(exc),
                    )
                )
    for name, set_fn in SET_CHECKS:
        try:
            out.extend(set_fn(catalog, ctx))
        except Exception as exc:
            out.append(
                ctx.at_model(
                    (1, 1),
                    Severity.ERROR,
                    "check-crashed",
                    f"check '{name}' failed: {exc!r}",
                    _where(exc),
                )
            )
    return sort_findings(out)


def _where(exc: Exception) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    return (
        f"in {Path(frames[-1].filename).name}:{frames[-1].lineno}; please report it"
        if frames
        else "please report it"
    )

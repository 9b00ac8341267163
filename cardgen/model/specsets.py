"""Turn card selections (`where`), named entries and vocabularies of game.yaml into checked data,
each mistake reported at its place (model/specs.py's kinds, for the sections that name things)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import did_you_mean
from ..load.yamlio import Loc, LocDict, LocList
from .specs import COLOUR_NAME, Bool, Colour, Report, Section, Spec, _item_at, _key_at, _show

WIDER = "; the selection is made without it (so it selects more cards)"


@dataclass
class Where(Spec):
    """`{field: value}`: cards whose field has the value ('not field' negates; a list means exactly
    these)."""

    def kind(self) -> str:
        return "`{field: value}` selection"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if not isinstance(value, dict):
            report(
                loc,
                "model-type",
                f"{where} must be a mapping of field: value, not {_show(value)}{self.dropped()}",
                None,
            )
            return None
        out = LocDict.at(getattr(value, "loc", loc))
        for key, want in value.items():
            at = _key_at(value, key, loc)
            name = str(key)[4:] if str(key).startswith("not ") else str(key)
            if name not in model.fields:
                report(
                    at,
                    "model-unknown-field",
                    f"{where} selects on unknown field '{name}'{WIDER}",
                    did_you_mean(name, list(model.fields)),
                )
                continue
            if isinstance(want, dict) or (
                isinstance(want, list) and any(isinstance(w, (dict, list)) for w in want)
            ):
                report(
                    at,
                    "model-type",
                    f"{where}.{key} must be a value or a list of values{WIDER}",
                    None,
                )
                continue
            vocab = model.vocab_for(name)
            bad = [
                w
                for w in (want if isinstance(want, list) else [want])
                if vocab is not None and not vocab.open and vocab.lookup(str(w))[1] == "unknown"
            ]
            if bad:
                report(
                    at,
                    "model-value",
                    f"{where}.{key}: '{bad[0]}' is not a {name} of this game{WIDER}",
                    did_you_mean(str(bad[0]), vocab.names()) if vocab else None,
                )
                continue
            out.put(key, want, at)
        return out


@dataclass
class Named(Spec):
    """Entries with names: a list of mappings with 'name' (or of plain names), or a mapping of name
    -> entry."""

    item: Spec = field(default_factory=Spec)

    def kind(self) -> str:
        return f"list (or mapping by name) of {self.item.kind()}"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if isinstance(value, list):
            out = LocList.at(getattr(value, "loc", loc))
            for i, item in enumerate(value):
                at = _item_at(value, i, loc)
                checked = (
                    item
                    if isinstance(item, str)
                    else self.item.check(item, f"{where}[{i + 1}]", at, report, model)
                )
                if checked is not None:
                    out.put(checked, at)
            return out
        if isinstance(value, dict):
            out_map = LocDict.at(getattr(value, "loc", loc))
            for name, item in value.items():
                at = _key_at(value, name, loc)
                checked = (
                    LocDict.at(at)
                    if item is None
                    else self.item.check(item, f"{where}.{name}", at, report, model)
                )
                if checked is not None:
                    out_map.put(name, checked, at)
            return out_map
        report(
            loc, "model-type", f"{where} must be a list, not {_show(value)}{self.dropped()}", None
        )
        return None


@dataclass
class Open(Section):
    """A mapping with declared keys plus free ones (a vocabulary value's attributes for templates).
    Free keys that name a colour (color, colour, light, dark, …_color) must hold one."""

    def kind(self) -> str:
        return "mapping (free attributes allowed)"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if not isinstance(value, dict):
            report(loc, "model-type", f"{where} must be a mapping, not {_show(value)}", None)
            return None
        known = LocDict({k: v for k, v in value.items() if k in self.keys})
        known.loc, known.key_locs = getattr(value, "loc", loc), dict(getattr(value, "key_locs", {}))
        out = Section.check(self, known, where, loc, report, model)
        for key, item in value.items():
            if key in self.keys:
                continue
            at = _key_at(value, key, loc)
            close = difflib.get_close_matches(str(key), list(self.keys), n=1, cutoff=0.8)
            # 'requries': a typo of a declared key would silently drop its rule ('frame' is no typo)
            if close:
                report(
                    at,
                    "model-unknown-key",
                    f"'{key}' in {where} looks like a misspelt key; it is ignored, so "
                    f"'{close[0]}' is not set",
                    f"did you mean '{close[0]}'?",
                )
                continue
            if COLOUR_NAME.search(str(key)):
                item = Colour().check(item, f"{where}.{key}", at, report, model)
            elif isinstance(item, dict):
                report(at, "model-type", f"{where}.{key} must be a value or a list of values", None)
                item = None
            if item is not None:
                out.put(key, item, at)
        return out


@dataclass
class Vocab(Spec):
    """A vocabulary: a list of values, or `{terms: [...], open: true}` for one that accepts new
    values."""

    term: Spec = field(default_factory=Spec)

    def kind(self) -> str:
        return "list of values (names or mappings), or {terms, open}"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if isinstance(value, dict) and "terms" in value:
            return Section(keys={"terms": Named(item=self.term), "open": Bool()}).check(
                value, where, loc, report, model
            )
        return Named(item=self.term).check(value, where, loc, report, model)


@dataclass
class Anything(Spec):
    def kind(self) -> str:
        return "free text or structure (for people)"

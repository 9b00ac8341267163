"""Turn values of game.yaml into checked data by declared kinds (whole numbers in a range, choices, units,
colours, vocabulary terms, card selections, sections of named keys): each kind checks a value, reports every
mistake at its place and keeps only what is valid. model/schema.py declares game.yaml's sections with them."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ..core.errors import did_you_mean
from ..core.units import UnitError
from ..load.yamlio import Loc, LocDict, LocList

Report = Callable[[Loc, str, str, "str | None"], None]  # (where, code, message, hint)


@dataclass
class Spec:
    description: str = ""
    required: bool = False

    def kind(self) -> str:
        return "value"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        return value


@dataclass
class Int(Spec):
    low: int = 0
    high: int = 1_000_000

    def kind(self) -> str:
        return f"whole number {self.low:,}-{self.high:,}"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            report(loc, "model-type", f"{where} must be a whole number, not {_show(value)}", None)
            return None
        if not self.low <= value <= self.high:
            report(loc, "model-value", f"{where} must be from {self.low:,} to {self.high:,}, not {value:,}", None)
            return None
        return value


@dataclass
class Bool(Spec):
    def kind(self) -> str:
        return "true or false"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if not isinstance(value, bool):
            report(loc, "model-type", f"{where} must be true or false, not {_show(value)}", None)
            return None
        return value


@dataclass
class Text(Spec):
    choices: tuple[str, ...] = ()

    def kind(self) -> str:
        return " or ".join(f"`{c}`" for c in self.choices) if self.choices else "text"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if not isinstance(value, str):
            report(loc, "model-type", f"{where} must be text, not {_show(value)}", None)
            return None
        if self.choices and value not in self.choices:
            report(loc, "model-value", f"{where} is '{value}'; it must be {' or '.join(self.choices)}",
                   did_you_mean(value, self.choices))
            return None
        return value


@dataclass
class Scalar(Spec):
    """A free value for templates and the rulebook: text, a number, true/false or nothing."""

    def kind(self) -> str:
        return "text, number or true/false"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if isinstance(value, (dict, list)):
            report(loc, "model-type", f"{where} must be a single value, not {_show(value)}", None)
            return None
        return value


@dataclass
class ListOf(Spec):
    item: Spec = field(default_factory=Spec)
    one_or_more: bool = False  # a single item may stand for a list of one ('passes: left')

    def kind(self) -> str:
        return f"list of {self.item.kind()}" + (" (or one)" if self.one_or_more else "")

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if not isinstance(value, list):
            if self.one_or_more and not isinstance(value, dict):
                value = [value]
            else:
                report(loc, "model-type", f"{where} must be a list, not {_show(value)}", None)
                return None
        out = LocList.at(getattr(value, "loc", loc))
        for i, item in enumerate(value):
            at = _item_at(value, i, loc)
            checked = self.item.check(item, f"{where}[{i + 1}]", at, report, model)
            if checked is not None:
                out.put(checked, at)
        return out if out or not value else None  # nothing valid left: as if not written


@dataclass
class MapOf(Spec):
    """A mapping of names the designer chooses (pack formats, sections) to values of one spec."""

    item: Spec = field(default_factory=Spec)

    def kind(self) -> str:
        return f"mapping of names to {self.item.kind()}"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if not isinstance(value, dict):
            report(loc, "model-type", f"{where} must be a mapping of names, not {_show(value)}", None)
            return None
        out = LocDict.at(getattr(value, "loc", loc))
        for name, item in value.items():
            at = _key_at(value, name, loc)
            checked = self.item.check(item, f"{where}.{name}", at, report, model)
            if checked is not None:
                out.put(name, checked, at)
        return out


@dataclass
class Section(Spec):
    """A mapping with declared keys, each with its own spec."""

    keys: dict[str, Spec] = field(default_factory=dict)

    def kind(self) -> str:
        return "mapping"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if not isinstance(value, dict):
            report(loc, "model-type", f"{where} must be a mapping, not {_show(value)}", None)
            return None
        out = LocDict.at(getattr(value, "loc", loc))
        for key, item in value.items():
            at = _key_at(value, key, loc)
            spec = self.keys.get(str(key))
            if spec is None:
                report(at, "model-unknown-key", f"unknown key '{key}' in {where}",
                       did_you_mean(str(key), list(self.keys)) or f"keys: {', '.join(self.keys)}")
                continue
            if item is None:
                continue
            checked = spec.check(item, f"{where}.{key}", at, report, model)
            if checked is not None:
                out.put(key, checked, at)
        for key, spec in self.keys.items():
            if spec.required and key not in out and key not in value:
                report(loc, "model-missing", f"{where} needs '{key}'", None)
        return out


@dataclass
class Where(Spec):
    """`{field: value}`: cards whose field has the value ('not field' negates; a list means exactly these)."""

    def kind(self) -> str:
        return "`{field: value}` selection"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if not isinstance(value, dict):
            report(loc, "model-type", f"{where} must be a mapping of field: value, not {_show(value)}", None)
            return None
        out = LocDict.at(getattr(value, "loc", loc))
        for key, want in value.items():
            at = _key_at(value, key, loc)
            name = str(key)[4:] if str(key).startswith("not ") else str(key)
            if name not in model.fields:
                report(at, "model-unknown-field", f"{where} selects on unknown field '{name}'",
                       did_you_mean(name, list(model.fields)))
                continue
            if isinstance(want, dict) or (isinstance(want, list) and any(isinstance(w, (dict, list)) for w in want)):
                report(at, "model-type", f"{where}.{key} must be a value or a list of values", None)
                continue
            vocab = model.vocab_for(name)
            bad = [w for w in (want if isinstance(want, list) else [want])
                   if vocab is not None and not vocab.open and vocab.lookup(str(w))[1] == "unknown"]
            if bad:
                report(at, "model-value", f"{where}.{key}: '{bad[0]}' is not a {name} of this game",
                       did_you_mean(str(bad[0]), vocab.names()) if vocab else None)
                continue
            out.put(key, want, at)
        return out


@dataclass
class Named(Spec):
    """Entries with names: a list of mappings with 'name' (or of plain names), or a mapping of name -> entry."""

    item: Spec = field(default_factory=Spec)

    def kind(self) -> str:
        return f"list (or mapping by name) of {self.item.kind()}"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if isinstance(value, list):
            out = LocList.at(getattr(value, "loc", loc))
            for i, item in enumerate(value):
                at = _item_at(value, i, loc)
                checked = item if isinstance(item, str) else self.item.check(item, f"{where}[{i + 1}]", at, report,
                                                                             model)
                if checked is not None:
                    out.put(checked, at)
            return out
        if isinstance(value, dict):
            out_map = LocDict.at(getattr(value, "loc", loc))
            for name, item in value.items():
                at = _key_at(value, name, loc)
                checked = LocDict.at(at) if item is None else self.item.check(item, f"{where}.{name}", at, report,
                                                                              model)
                if checked is not None:
                    out_map.put(name, checked, at)
            return out_map
        report(loc, "model-type", f"{where} must be a list, not {_show(value)}", None)
        return None


@dataclass
class Open(Section):
    """A mapping with declared keys plus free ones (a vocabulary value's attributes for templates). Free keys
    that name a colour (color, colour, light, dark, …_color) must hold one."""

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
            if close:  # 'requries': a typo of a declared key would silently drop its rule ('frame' is no typo)
                report(at, "model-unknown-key", f"'{key}' in {where} looks like a misspelt key",
                       f"did you mean '{close[0]}'?")
                continue
            if COLOUR_NAME.search(str(key)):
                item = Colour().check(item, f"{where}.{key}", at, report, model)
            elif isinstance(item, dict):
                report(at, "model-type", f"{where}.{key} must be a value or a list of values", None)
                item = None
            if item is not None:
                out.put(key, item, at)
        return out


def _key_at(value: Any, key: Any, loc: Loc) -> Loc:
    return value.key_loc(key) if isinstance(value, LocDict) else loc


def _item_at(value: Any, index: int, loc: Loc) -> Loc:
    return value.item_loc(index) if isinstance(value, LocList) else loc


COLOUR_NAME = re.compile(r"(^|_)(colou?r|light|dark|tint|ink)$")
HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")  # a colour as written: the model, cards and templates read it alike


@dataclass
class Colour(Spec):
    def kind(self) -> str:
        return "colour `#rrggbb` or `#rgb`"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if not isinstance(value, str) or not HEX.fullmatch(value.strip()):
            report(loc, "model-colour", f"{where} is {_show(value)}, not a colour", "write '#rrggbb' or '#rgb'")
            return None
        return value


@dataclass
class Unit(Spec):
    """A physical length or size with its unit, within a sane range (units.py)."""

    parse: Callable[[Any], Any] = field(default=lambda v: v)
    what: str = "length with unit"

    def kind(self) -> str:
        return self.what

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        try:
            self.parse(value)
        except UnitError as exc:
            report(loc, "model-unit", str(exc), None)
            return None
        return value


@dataclass
class Vocab(Spec):
    """A vocabulary: a list of values, or `{terms: [...], open: true}` for one that accepts new values."""

    term: Spec = field(default_factory=Spec)

    def kind(self) -> str:
        return "list of values (names or mappings), or {terms, open}"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if isinstance(value, dict) and "terms" in value:
            return Section(keys={"terms": Named(item=self.term), "open": Bool()}).check(value, where, loc, report,
                                                                                      model)
        return Named(item=self.term).check(value, where, loc, report, model)


@dataclass
class Anything(Spec):
    def kind(self) -> str:
        return "free text or structure (for people)"


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:36] + "…'"

"""Turn values of game.yaml into checked data by declared kinds (whole numbers in a range, limits,
choices, units, colours, sections of named keys; selections and vocabularies are in specsets.py):
each kind checks a value, reports every mistake at its place, says what is used instead, and keeps
only what is valid. model/schema.py declares game.yaml's sections with them."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ..core.errors import did_you_mean
from ..core.units import UnitError
from ..load.yamlio import Loc, LocDict, LocList

Report = Callable[[Loc, str, str, "str | None"], None]  # (where, code, message, hint)


_SPAN = re.compile(r"\s*(\d{1,7})\s*(?:[-\u2013]\s*(\d{1,7})\s*)?")  # '3', '2-4', '2–4'
_DEFAULT = re.compile(r"\bdefault:? ([^):;]+)")


@dataclass
class Spec:
    description: str = ""
    required: bool = False
    # what cardgen uses when the value is dropped as invalid ('no copy limit', 'the slots' sum');
    # without it, the '(default …)' of the description, else 'it is left out'
    instead: str = ""

    def kind(self) -> str:
        return "value"

    def fallback(self) -> str | None:
        """What is used when this value is missing or dropped, in words, or None when unknown."""
        if self.instead:
            return self.instead
        m = _DEFAULT.search(self.description)
        return f"the default, {m.group(1).strip()}, is used" if m else None

    def dropped(self) -> str:
        """The end of a message about a value dropped as invalid: what is used instead."""
        return f"; {self.fallback() or 'it is left out, as if not written'}"

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
            report(
                loc,
                "model-type",
                f"{where} must be a whole number, not {_show(value)}{self.dropped()}",
                None,
            )
            return None
        if not self.low <= value <= self.high:
            report(
                loc,
                "model-value",
                f"{where} must be from {self.low:,} to {self.high:,}, not {value:,}"
                + self.dropped(),
                None,
            )
            return None
        return value


@dataclass
class Number(Spec):
    """A plain number (whole or decimal) in a range, its unit named in `unit` ('pt', 'dpi', '%')."""

    low: float = 0.0
    high: float = 1_000_000.0
    unit: str = ""

    def kind(self) -> str:
        return f"number {self.low:g}-{self.high:g}{' ' + self.unit if self.unit else ''}"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            report(
                loc,
                "model-type",
                f"{where} must be a number, not {_show(value)}{self.dropped()}",
                None,
            )
            return None
        if not self.low <= value <= self.high:
            report(
                loc,
                "model-value",
                f"{where} must be from {self.low:g} to {self.high:g}, not {value:g}"
                + self.dropped(),
                None,
            )
            return None
        return float(value)


@dataclass
class Limit(Int):
    """A whole number, or `none` for no limit (kept as the text 'none')."""

    def kind(self) -> str:
        return f"{super().kind()} or `none` (no limit)"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if isinstance(value, str) and value.strip().lower() == "none":
            return "none"
        return super().check(value, where, loc, report, model)


@dataclass
class Bool(Spec):
    def kind(self) -> str:
        return "true or false"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if not isinstance(value, bool):
            report(
                loc,
                "model-type",
                f"{where} must be true or false, not {_show(value)}{self.dropped()}",
                None,
            )
            return None
        return value


@dataclass
class Text(Spec):
    choices: tuple[str, ...] = ()

    def kind(self) -> str:
        return " or ".join(f"`{c}`" for c in self.choices) if self.choices else "text"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if not isinstance(value, str):
            report(
                loc, "model-type", f"{where} must be text, not {_show(value)}{self.dropped()}", None
            )
            return None
        if self.choices and value not in self.choices:
            report(
                loc,
                "model-value",
                f"{where} is '{value}'; it must be {' or '.join(self.choices)}{self.dropped()}",
                did_you_mean(value, self.choices),
            )
            return None
        return value


@dataclass
class Span(Spec):
    """A whole number or a range of them, written 'A-B' (`players: 2-4`): kept as written, read
    by `span_bounds`."""

    low: int = 1
    high: int = 10_000

    def kind(self) -> str:
        return f"whole number {self.low:,}-{self.high:,}, or a range such as '2-4'"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        bounds = span_bounds(value)
        if bounds is None:
            report(
                loc,
                "model-type",
                f"{where} must be a whole number or a range such as '2-4', not {_show(value)}"
                + self.dropped(),
                None,
            )
            return None
        if not self.low <= bounds[0] <= bounds[1] <= self.high:
            report(
                loc,
                "model-value",
                f"{where} must be from {self.low:,} to {self.high:,}, the smaller number first, "
                f"not {value}{self.dropped()}",
                None,
            )
            return None
        return value


def span_bounds(value: Any) -> tuple[int, int] | None:
    """(least, most) of a Span's value: 3 -> (3, 3), '2-4' or '2–4' -> (2, 4); None if it is
    neither."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value, value
    found = _SPAN.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        return None
    return int(found.group(1)), int(found.group(2) or found.group(1))


@dataclass
class Scalar(Spec):
    """A free value for templates and the rulebook: text, a number, true/false or nothing."""

    def kind(self) -> str:
        return "text, number or true/false"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if isinstance(value, (dict, list)):
            report(
                loc,
                "model-type",
                f"{where} must be a single value, not {_show(value)}{self.dropped()}",
                None,
            )
            return None
        return value


@dataclass
class ListOf(Spec):
    item: Spec = field(default_factory=Spec)
    one_or_more: bool = False  # a single item may stand for a list of one ('passes: left')
    # a single item is a mistake, reported, but read as a list of one: for values that look like
    # YAML themselves (`placeholders: "[]"`), where one cannot tell a list from an item
    list_only: bool = False

    def kind(self) -> str:
        return f"list of {self.item.kind()}" + (" (or one)" if self.one_or_more else "")

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if not isinstance(value, list):
            if self.list_only and not isinstance(value, dict):
                shown = _show(value)
                report(
                    loc,
                    "model-type",
                    f"{where} must be a list, not the single value {shown}; it is read as the "
                    f"list [{shown}]",
                    f"write {where}: [{shown}], or {where}: [] for none",
                )
                value = [value]
            elif self.one_or_more and not isinstance(value, dict):
                value = [value]
            else:
                report(
                    loc,
                    "model-type",
                    f"{where} must be a list, not {_show(value)}{self.dropped()}",
                    None,
                )
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
            report(
                loc,
                "model-type",
                f"{where} must be a mapping of names, not {_show(value)}{self.dropped()}",
                None,
            )
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
    """A mapping with declared keys, each with its own spec; a key of `translatable` may also be
    written per language (`name@de`, docs/editions.md), checked by the key's own spec."""

    keys: dict[str, Spec] = field(default_factory=dict)
    translatable: tuple[str, ...] = ()

    def kind(self) -> str:
        return "mapping"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if not isinstance(value, dict):
            report(
                loc,
                "model-type",
                f"{where} must be a mapping, not {_show(value)}{self.dropped()}",
                None,
            )
            return None
        out = LocDict.at(getattr(value, "loc", loc))
        for key, item in value.items():
            at = _key_at(value, key, loc)
            spec = self.keys.get(str(key))
            base = str(key).split("@", 1)[0]
            if spec is None and "@" in str(key) and base in self.translatable:
                spec = self.keys[base]  # its language is checked by model/consistency.py
            if spec is None:
                close = difflib.get_close_matches(str(key), list(self.keys), n=1, cutoff=0.6)
                meant = self.keys[close[0]].fallback() if close else None
                report(
                    at,
                    "model-unknown-key",
                    f"unknown key '{key}' in {where}"
                    + (f"; '{close[0]}' is not set, so {meant}" if close and meant else ""),
                    did_you_mean(str(key), list(self.keys)) or f"keys: {', '.join(self.keys)}",
                )
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


def _key_at(value: Any, key: Any, loc: Loc) -> Loc:
    return value.key_loc(key) if isinstance(value, LocDict) else loc


def _item_at(value: Any, index: int, loc: Loc) -> Loc:
    return value.item_loc(index) if isinstance(value, LocList) else loc


COLOUR_NAME = re.compile(r"(^|_)(colou?r|light|dark|tint|ink)$")
HEX = re.compile(
    r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})"
)  # a colour as written: the model, cards and templates read it alike


@dataclass
class Colour(Spec):
    def kind(self) -> str:
        return "colour `#rrggbb` or `#rgb`"

    def check(self, value: Any, where: str, loc: Loc, report: Report, model: Any) -> Any:
        if not isinstance(value, str) or not HEX.fullmatch(value.strip()):
            report(
                loc,
                "model-colour",
                f"{where} is {_show(value)}, not a colour{self.dropped()}",
                "write '#rrggbb' or '#rgb'",
            )
            return None
        return value.strip()  # ' #f3efe2': the colour meant, as every other colour is read


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
            report(loc, "model-unit", f"{exc}{self.dropped()}", None)
            return None
        return value


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:36] + "…'"

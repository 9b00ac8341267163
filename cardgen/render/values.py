"""Turn template property values into checked ones (lengths, colours, numbers, choices, points) and
colours into reportlab colours: what the face preparer and the painters read from a template."""

from __future__ import annotations

from typing import Any, Iterator, Protocol

from reportlab.lib.colors import Color, HexColor, toColor

from ..core.units import UnitError
from ..model.cost import parse_cost
from ..model.game import GameModel
from ..model.specs import HEX
from ..speed.memo import memo
from . import geometry
from .elements import _NUM, LENGTH_KEYS, as_length


class _Fonts(Protocol):
    """What typed() reads of a template: its font families."""

    fonts: dict[str, dict[str, str]]


def colour(value: Any, default: str | None = None) -> Color | None:
    return _colour(None if value in (None, "", "none") else str(value), default)


def rgb255(value: Any) -> tuple[int, int, int] | None:
    """A template colour ('#c0392b', '#a33', 'white') as 0-255 RGB, or None when it is none or
    unreadable."""
    c = colour(value)
    return None if c is None else (round(c.red * 255), round(c.green * 255), round(c.blue * 255))


@memo(512)
def _colour(value: str | None, default: str | None) -> Color | None:
    if value is None:
        return toColor(default) if default else None
    if len(value) == 4 and value.startswith("#"):  # CSS '#a33'; reportlab would read it as 0x000a33
        value = "#" + "".join(ch * 2 for ch in value[1:])
    try:
        return toColor(value)
    except ValueError:
        return toColor(default) if default else None


def symbol_colours(model: GameModel, letter: str) -> tuple[Color, Color]:
    sym = model.cost.symbol(letter)
    if sym is None:
        return HexColor("#8a8a8a"), HexColor("#ffffff")
    return colour(sym.color, "#444444"), colour(sym.text_color, "#ffffff")  # type: ignore[return-value]


def cost_sequence(model: GameModel, raw: str) -> list[str]:
    return parse_cost(raw, model.cost).sequence if raw else []


COLOUR_KEYS = {"fill", "stroke", "color", "rule_color"}
NUMBER_KEYS = {"leading": (0.5, 3.0), "min_leading": (0.5, 3.0), "opacity": (0.0, 1.0)}
WHOLE_KEYS = {"max_lines": (1, 100)}
CHOICES = {
    "align": ("left", "center", "right"),
    "valign": ("top", "middle", "bottom"),
    "shape": ("circle", "shield", "rect", "rounded"),
    "fit": ("cover", "contain"),
}
MAX_LENGTH = 2000.0  # points: no element of a card is larger than 70 cm


def typed(props: dict[str, Any], template: _Fonts) -> Iterator[tuple[str, str]]:
    """Check each rendered value against what its key takes; a bad value is removed (the painter's
    default is used) and reported."""
    for key in list(props):
        value = props[key]
        if value in (None, ""):
            continue
        if key in ("font", "label_font"):
            problem = (
                None
                if value in template.fonts
                else f"names font family {str(value)[:40]!r}, which the template does not define"
            )
        elif key == "points":
            problem = None if _points(value) else "must be a list of 'X Y' lengths"
        elif isinstance(value, (str, int, float)):
            problem = _value_problem(
                key, value
            )  # values repeat from card to card: checked once each
        else:
            problem = None
        if problem:
            del props[key]
            yield key, problem


@memo(8192, typed=True)  # True is not 1 here: `max_lines: yes` is a mistake
def _value_problem(key: str, value: str | int | float) -> str | None:
    if key in LENGTH_KEYS:
        if isinstance(value, str) and _NUM.match(value.strip()):
            if float(value) == 0:
                return None
            return (
                f"is {value.strip()[:40]!r}, a number without a unit: write one after the "
                'expression, e.g. "{{ … }}mm"'
            )
        if isinstance(value, str):
            problem = geometry.check(value, key)
            if problem:
                return f"is {value.strip()[:40]!r}: {problem}"
            node = geometry.parse(value) if value.strip().lower() not in geometry.CENTRE else None
            if node is None or geometry.relative(node):
                return None  # measured on the face (geometry.place), where its size is known
        try:
            points = as_length(value)
        except (UnitError, ValueError, TypeError, OverflowError):
            return f"is {str(value)[:40]!r}, not a length such as '3mm'"
        return (
            f"is {value!r}, far larger than a card"
            if not -MAX_LENGTH <= points <= MAX_LENGTH
            else None
        )
    if key in COLOUR_KEYS:
        ok = str(value).strip().lower() == "none" or parse_colour(value) is not None
        return (
            None
            if ok
            else f"is {str(value)[:40]!r}, not a colour ('#rrggbb', '#rgb', a CSS name or 'none')"
        )
    if key in NUMBER_KEYS:
        low, high = NUMBER_KEYS[key]
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            return f"is {str(value)[:40]!r}, not a number"
        return f"is {number:g}, outside {low:g}-{high:g}" if not low <= number <= high else None
    if key in WHOLE_KEYS:
        low, high = WHOLE_KEYS[key]
        whole = (
            value
            if isinstance(value, int) and not isinstance(value, bool)
            else int(value)
            if isinstance(value, str)
            and value.strip().isdecimal()
            and value.strip().isascii()
            and len(value.strip()) <= 16
            else None
        )
        if whole is None:
            return f"is {str(value)[:40]!r}, not a whole number"
        return f"is {whole}, outside {low}-{high}" if not low <= whole <= high else None
    if key in CHOICES and value not in CHOICES[key]:
        return f"is {str(value)[:40]!r}; it must be {', '.join(CHOICES[key])}"
    return None


def _points(value: Any) -> bool:
    if not isinstance(value, list) or len(value) > 500:
        return False
    try:
        for pt in value:
            xs, ys = pt.split() if isinstance(pt, str) else pt
            as_length(xs), as_length(ys)
    except (UnitError, ValueError, TypeError):
        return False
    return True


def parse_colour(value: Any) -> Color | None:
    """'#a33', '#aa3333' or a CSS colour name -> a colour; anything else (a typo such as '#d8b24' or
    'blu') -> None."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if HEX.fullmatch(text):
        return _colour(text, None)
    from reportlab.lib.colors import getAllNamedColors

    return getAllNamedColors().get(text.lower())

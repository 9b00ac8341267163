"""Turn values into YAML source text that reads back as the same values: plain where it can be,
else quoted in the style asked for, literal blocks for multi-line text, flow lists."""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

from .yamlscalar import _scalar

_STR = "tag:yaml.org,2002:str"

_INDICATORS = set("-?:,[]{}#&*!|>'\"%@`")


def plain_ok(value: str, in_flow: bool = False) -> bool:
    """Whether a string may be written plain and read back as the same string."""
    if not value or value != value.strip() or "\n" in value or "\r" in value:
        return False
    if not value.isprintable():
        return False
    if value[0] in _INDICATORS and not (
        value[0] in "-?:" and len(value) > 1 and value[1] not in " \t" and not in_flow
    ):
        return False
    if ": " in value or " #" in value or value.endswith(":") or "\t" in value:
        return False
    if in_flow and any(ch in value for ch in ",[]{}"):
        return False
    if value.startswith(("---", "...")):
        return False
    return _scalar(yaml.ScalarNode(_STR, value)) == value


_ESCAPE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]")


def double_quoted(value: str) -> str:
    """A double-quoted scalar; characters YAML does not print raw (or reads as line breaks:
    U+0085, U+2028, U+2029) escaped."""
    text = json.dumps(value, ensure_ascii=False)
    return _ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def single_quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def inline(value: Any, style: str | None = "", in_flow: bool = False) -> str:
    """A value written on one line: plain where it reads back the same, else in the style asked
    for ("'" or '"'), else double-quoted."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return yaml_float(value)
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if style == "'" and "\n" not in text and text.isprintable():
        return single_quoted(text)
    if style == '"':
        return double_quoted(text)
    if plain_ok(text, in_flow):
        return text
    if style == "" and "\n" not in text and text.isprintable() and text == text.strip() and text:
        return single_quoted(text)
    return double_quoted(text)


def yaml_float(value: float) -> str:
    """A float as YAML 1.1 reads it back ('1.0e+20', not '1e+20', which is text there)."""
    if value != value:
        return ".nan"
    if value in (float("inf"), float("-inf")):
        return ".inf" if value > 0 else "-.inf"
    text = repr(value)
    if "e" in text and "." not in text:
        mantissa, exponent = text.split("e")
        sign = exponent[0] if exponent[0] in "+-" else "+"
        text = f"{mantissa}.0e{sign}{exponent.lstrip('+-')}"
    return text


def _block_ok(text: str) -> bool:
    lines = text.split("\n")
    return (
        bool(text.strip())
        and not text[:1].isspace()
        and "\r" not in text
        and all(line.isprintable() or line == "" for line in lines)
        and all(line.strip() or line == "" for line in lines)  # no line of only spaces
    )


def block(text: str, indent: int, newline: str) -> tuple[str, list[str]]:
    """A literal block scalar: its header ('|-', '|', '|+') and its content lines (indented)."""
    body = text.rstrip("\n")
    trailing = len(text) - len(body)
    chomp = "-" if trailing == 0 else "" if trailing == 1 else "+"
    lines = [(" " * indent + ln) if ln else "" for ln in body.split("\n")]
    lines += [""] * (trailing - 1 if trailing > 1 else 0)
    return "|" + chomp, lines


def flow_list(values: list[Any]) -> str:
    return "[" + ", ".join(inline(v, "", in_flow=True) for v in values) + "]"

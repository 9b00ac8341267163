"""Turn YAML scalar nodes into the Python values yaml.safe_load gives them (its YAML 1.1 rules),
faster, with whole numbers bounded to what JSON holds exactly."""

from __future__ import annotations

import re
from typing import Any

import yaml

MAX_INT = 2**53 - 1  # the largest whole number a float, JSON and JavaScript hold exactly

_NULL = {"", "~", "null", "Null", "NULL"}
_BOOL = {
    "yes": True,
    "Yes": True,
    "YES": True,
    "true": True,
    "True": True,
    "TRUE": True,
    "on": True,
    "On": True,
    "ON": True,
    "no": False,
    "No": False,
    "NO": False,
    "false": False,
    "False": False,
    "FALSE": False,
    "off": False,
    "Off": False,
    "OFF": False,
}
_INT = re.compile(r"[-+]?(?:0|[1-9][0-9_]*)$")
_INT_OTHER = re.compile(
    r"[-+]?(?:0b[0-1_]+|0[0-7_]+|0x[0-9a-fA-F_]+|[1-9][0-9_]*(?::[0-5]?[0-9])+)$"
)
_FLOAT = re.compile(
    r"[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?$|[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?$"
    r"|[-+]?\.(?:inf|Inf|INF)$|\.(?:nan|NaN|NAN)$"
)
_FIRST = set("0123456789-+.~nNtTfFyYoO")
_SAFE = yaml.SafeLoader("")


def _scalar(node: yaml.ScalarNode) -> Any:
    value = node.value
    if node.tag != "tag:yaml.org,2002:str":
        return _explicit(node)
    if node.style:  # quoted or block scalars are text
        return value
    if not value:
        return None
    if value[0] not in _FIRST:
        return value
    if value in _NULL:
        return None
    if value in _BOOL:
        return _BOOL[value]
    if _INT.match(value):
        return _bounded(int(value.replace("_", "")) if len(value) <= 40 else MAX_INT + 1)
    if _INT_OTHER.match(value) or _FLOAT.match(value):
        return _bounded(
            _SAFE.construct_object(
                yaml.ScalarNode(_SAFE.resolve(yaml.ScalarNode, value, (True, False)), value)
            )
        )
    return value


def _bounded(value: Any) -> Any:
    """A whole number no larger than JSON, charts and exports keep exactly (0x + 5,000 f would be
    one)."""
    if type(value) is int and not -MAX_INT <= value <= MAX_INT:
        raise OverflowError(f"it is past {MAX_INT:,}, the largest whole number cardgen reads")
    return value


def _explicit(node: yaml.ScalarNode) -> Any:
    """An explicitly tagged scalar (!!int "3"); anything but the core types stays text."""
    if node.tag in (
        "tag:yaml.org,2002:int",
        "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:bool",
        "tag:yaml.org,2002:null",
    ):
        try:
            return _bounded(_SAFE.construct_object(yaml.ScalarNode(node.tag, node.value)))
        except yaml.YAMLError:
            return node.value
    return node.value

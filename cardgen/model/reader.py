"""Turn located YAML mappings into typed values for the model's builders, recording a finding for
each value of the wrong kind instead of raising."""

from __future__ import annotations

import difflib
from typing import Any

from ..core.errors import Finding, Severity, did_you_mean
from ..load.yamlio import LocDict, LocList


class Reader:
    """Typed access to located mappings that records a finding instead of raising."""

    def __init__(self, shown: str) -> None:
        self.shown = shown
        self.findings: list[Finding] = []

    def error(
        self,
        loc: tuple[int, int],
        code: str,
        message: str,
        hint: str | None = None,
        severity: Severity = Severity.ERROR,
    ) -> None:
        self.findings.append(
            Finding(self.shown, loc[0], loc[1], severity, code, None, message, hint)
        )

    def mapping(self, value: Any, where: str, loc: tuple[int, int]) -> LocDict | None:
        if isinstance(value, LocDict):
            return value
        self.error(
            getattr(value, "loc", loc), "model-type", f"{where} must be a mapping; it is left out"
        )
        return None

    def section(self, raw: LocDict, name: str) -> LocDict | None:
        """game.yaml's section `name` as a mapping; None when it is absent or not one (reported)."""
        value = raw.get(name)
        return None if value is None else self.mapping(value, name, raw.key_loc(name))

    def keys(self, m: LocDict, allowed: set[str], where: str) -> None:
        for key in m:
            if key not in allowed:
                close = difflib.get_close_matches(str(key), sorted(allowed), n=1, cutoff=0.6)
                lost = f", so there is no '{close[0]}'" if close and close[0] not in m else ""
                self.error(
                    m.key_loc(key),
                    "model-unknown-key",
                    f"unknown key '{key}' in {where}; it is ignored{lost}",
                    did_you_mean(key, sorted(allowed)),
                )

    def get(
        self,
        m: LocDict,
        key: str,
        kind: type | tuple[type, ...],
        where: str,
        *,
        required: bool = False,
        default: Any = None,
    ) -> Any:
        if key not in m or m[key] is None:
            if required:
                self.error(m.loc, "model-missing", f"{where} needs '{key}'")
            return default
        value = m[key]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            names = (
                kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            )
            instead = "it is left out" if default is None else f"{default!r} is used"
            self.error(
                m.key_loc(key),
                "model-type",
                f"'{key}' in {where} must be {article(names)}; {instead}",
            )
            return default
        return value

    def strings(self, m: LocDict, key: str, where: str) -> list[str]:
        value = m.get(key)
        if value is None:
            return []
        if isinstance(value, str):
            return [value]
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return list(value)
        self.error(
            m.key_loc(key),
            "model-type",
            f"'{key}' in {where} must be a list of text; it is left out",
        )
        return []


def article(names: str) -> str:
    return {
        "str": "text",
        "int": "a whole number",
        "bool": "true or false",
        "LocDict": "a mapping",
        "LocList": "a list",
        "list": "a list",
        "dict": "a mapping",
    }.get(names, names)


def entries_of(
    r: Reader, value: Any, where: str, loc: tuple[int, int]
) -> list[tuple[LocDict, tuple[int, int]]]:
    """A list of mappings (or a mapping of name -> mapping, the name becoming 'name')."""
    out: list[tuple[LocDict, tuple[int, int]]] = []
    if isinstance(value, LocList):
        for i, item in enumerate(value):
            if isinstance(item, str):
                item = LocDict.at(value.item_loc(i))
                item.put("name", value[i], value.item_loc(i))
            if isinstance(item, LocDict):
                out.append((item, value.item_loc(i)))
            else:
                r.error(
                    value.item_loc(i),
                    "model-type",
                    f"each entry of {where} must be a mapping; it is left out",
                )
    elif isinstance(value, LocDict):
        for name, item in value.items():
            if item is None:
                item = LocDict.at(value.key_loc(name))
            if isinstance(item, LocDict):
                item = LocDict(item, name=name) if "name" not in item else item
                item.loc = value.key_loc(name)
                item.key_locs = {
                    **getattr(value[name], "key_locs", {}),
                    "name": value.key_loc(name),
                }
                out.append((item, value.key_loc(name)))
            else:
                r.error(
                    value.key_loc(name),
                    "model-type",
                    f"entry '{name}' of {where} must be a mapping; it is left out",
                )
    elif value is not None:
        r.error(loc, "model-type", f"{where} must be a list; it is left out")
    return out

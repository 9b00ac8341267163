"""Turn the model's findings into findings tagged with the part of the model each one damages
(`Finding.about`: 'keywords', 'costs', 'fields.faction', 'vocabularies.rarity', 'packs.draft'),
found from where the finding stands in game.yaml.

Card findings carry the same keys (validate/), so a model error is the root cause of the card
findings tagged like it (jobs.findings groups them under it).
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from typing import Any, Iterable

from ..core.errors import Finding
from ..load.yamlio import LocDict, LocList

# the sections whose entries are parts of their own: a field, a vocabulary, a pack format
BY_ENTRY = ("fields", "vocabularies", "packs")
NAMES = {"cost": "costs"}  # the key card findings use for a section, where it is not its name
_MISSING = re.compile(r"has no '([a-z_]+)' section")


def part(section: str) -> str:
    return NAMES.get(section, section)


def tag_about(
    findings: Iterable[Finding], raw: Any, file: str, sections: list[str]
) -> list[Finding]:
    """The findings of game.yaml (`file`), each with its `about` (those that have one keep it)."""
    tops = sorted((raw.key_loc(k)[0], str(k)) for k in raw) if isinstance(raw, LocDict) else []
    out = []
    for f in findings:
        if f.about is None and f.file == file:
            about = _about(f, raw, tops, sections)
            if about:
                f = dataclasses.replace(f, about=about)
        out.append(f)
    return out


def _about(
    f: Finding, raw: LocDict, tops: list[tuple[int, str]], sections: list[str]
) -> str | None:
    missing = _MISSING.search(f.message)
    if f.code == "model-missing-section" and missing:
        return part(missing.group(1))
    above = [name for line, name in tops if line <= f.line]
    if not above:
        return None
    section = above[-1]
    if section not in sections:  # a misspelt section ('keywrods:'): the part it fails to give
        close = difflib.get_close_matches(section, sections, n=1, cutoff=0.6)
        return part(close[0]) if close else section
    if section in BY_ENTRY:
        entry = _entry(raw.get(section), f.line)
        if entry:
            return f"{section}.{entry}"
    return part(section)


def _entry(body: Any, line: int) -> str | None:
    """The name of the entry of a section (mapping by name, or list of named mappings) at a line."""
    spots: list[tuple[int, str]] = []
    if isinstance(body, LocDict):
        spots = [(body.key_loc(k)[0], str(k)) for k in body]
    elif isinstance(body, LocList):
        for i, item in enumerate(body):
            name = item.get("name") if isinstance(item, dict) else item
            if isinstance(name, str):
                spots.append((body.item_loc(i)[0], name))
    before = [name for at, name in sorted(spots) if at <= line]
    return before[-1] if before else None

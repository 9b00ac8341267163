"""Turn a template's `fonts:` (families of font files by style, each with its fallback chain) into
what the template keeps: the families (its parent's, then its own), where each file is named, and
each family's chain; every mistake a finding at its key."""

from __future__ import annotations

import re
from typing import Any, Protocol

from ..load.yamlio import LocDict, LocList

STEM = re.compile(r"^[A-Za-z0-9_.+-]{1,80}$")
DEFAULT_FAMILY = {
    "regular": "DejaVuSans",
    "bold": "DejaVuSans-Bold",
    "italic": "DejaVuSans",
    "bolditalic": "DejaVuSans-Bold",
}


class _Parent(Protocol):
    """What is read of the template extended (render.template.Template)."""

    fonts: dict[str, dict[str, str]]
    font_at: dict[str, dict[str, tuple[str, int, int]]]
    fallbacks: dict[str, tuple[str, ...]]
    fallback_at: dict[str, tuple[tuple[str, int, int], ...]]


def read_fonts(
    raw: LocDict, base: _Parent | None, name: str, bad: Any
) -> tuple[
    dict[str, dict[str, str]],
    dict[str, dict[str, tuple[str, int, int]]],
    dict[str, tuple[str, ...]],
    dict[str, tuple[tuple[str, int, int], ...]],
]:
    """(families, where each family's files are named, chains, where each chain's fonts are
    named): the parent's, with this template's families replacing theirs whole."""
    fonts = dict(base.fonts) if base else {}
    font_at = dict(base.font_at) if base else {}
    fallbacks = dict(base.fallbacks) if base else {}
    fallback_at = dict(base.fallback_at) if base else {}
    written = _mapping(raw, "fonts", bad)
    for fam, spec in written.items():
        fam_at = written.key_loc(fam) if isinstance(written, LocDict) else raw.key_loc("fonts")
        at = {k: spec.key_loc(k) for k in spec} if isinstance(spec, LocDict) else {}
        if isinstance(spec, str):
            spec = {"regular": spec}
        chain: list[tuple[str, tuple[str, int, int]]] = []
        if isinstance(spec, dict) and "fallback" in spec:
            spec = dict(spec)
            chain = _fallback(fam, spec.pop("fallback"), (name, *at.get("fallback", fam_at)), bad)
        stems = spec.values() if isinstance(spec, dict) else []
        if (
            not isinstance(spec, dict)
            or "regular" not in spec
            or not all(isinstance(v, str) and STEM.match(v) for v in stems)
        ):
            bad(
                raw.key_loc("fonts"),
                "template-font",
                f"font family '{fam}' needs 'regular' (and may have 'bold', "
                "'italic', 'bolditalic'), each a font file name without .ttf, e.g. "
                "CharisSIL-Regular, and a 'fallback' list of them",
            )
            continue
        fonts[str(fam)] = {
            k: spec.get(k) or spec["regular"] for k in ("regular", "bold", "italic", "bolditalic")
        }
        fallbacks.pop(str(fam), None)  # a family written again is the whole family
        fallback_at.pop(str(fam), None)
        if chain:
            fallbacks[str(fam)] = tuple(stem for stem, _ in chain)
            fallback_at[str(fam)] = tuple(where for _, where in chain)
        first = at.get("regular", fam_at)
        font_at[str(fam)] = {
            k: (name, *(at.get(k, first) if spec.get(k) else first))  # type: ignore[misc]
            for k in ("regular", "bold", "italic", "bolditalic")
        }
    if (
        not fonts
    ):  # text in a template without fonts is drawn in DejaVu Sans (bundled, covers most scripts)
        fonts["default"] = dict(DEFAULT_FAMILY)
    return fonts, font_at, fallbacks, fallback_at


def _mapping(raw: LocDict, key: str, bad: Any) -> dict[str, Any]:
    value = raw.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        bad(raw.key_loc(key), "template-type", f"'{key}' must be a mapping")
        return {}
    return value


def _fallback(
    family: object, value: Any, at: tuple[str, int, int], bad: Any
) -> list[tuple[str, tuple[str, int, int]]]:
    """A family's `fallback:` as (font stem, where it is named) pairs: one stem or a list of them,
    each a font file name without .ttf; anything else is a finding, and the chain is dropped."""
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(v, str) and STEM.match(v) for v in items):
        bad(
            at[1:],
            "template-font",
            f"font family '{family}': 'fallback' must be a list of font file names without .ttf, "
            "tried in order for the characters the family's own font lacks, e.g. "
            "[DroidSansFallbackFull, Symbola_hint]",
        )
        return []
    where = [
        (at[0], *value.item_loc(i)) if isinstance(value, LocList) else at for i in range(len(items))
    ]
    return list(zip(items, where))  # type: ignore[arg-type]

"""Turn the colours of a game's vocabularies into the colour-blind guard's findings: two values of
one vocabulary (two factions) that look alike under deuteranopia, protanopia or tritanopia
simulation, or in greyscale (colorspacious: Machado 2009 simulation, ΔE in CAM02-UCS;
docs/guards.md)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any

from ..core.errors import Finding, Severity
from ..speed.cache import Store
from ..speed.codekey import code_digest
from .game import GameModel, Vocabulary

COLOUR_KEYS = ("color", "colour")  # the attribute that is a value's own colour (not its ink)
DEFICIENCIES = ("deuteranomaly", "protanomaly", "tritanomaly")
SHOWN = {"deuteranomaly": "deuteranopia", "protanomaly": "protanopia", "tritanomaly": "tritanopia"}
# one pair of colours as measured: the least ΔE under a deficiency, that deficiency, the difference
# in lightness
Measure = tuple[float, str, float]


def palette_findings(model: GameModel, cache: Path | None = None) -> list[Finding]:
    """A warning for each pair of a vocabulary's colours closer than `guards.colour_delta_e` under
    a simulated colour-vision deficiency, and a note for each pair closer than `guards.grey_delta`
    in lightness (alike in greyscale). With `cache` (a folder, speed.cache), each palette's measures
    are kept there by its colours (once a run has made the folder: loading a model creates none),
    so a run whose palettes were measured before imports neither numpy nor colorspacious."""
    vocabs = [(v, c) for v in model.vocabularies.values() if len(c := _colours(v)) >= 2]
    if not vocabs:
        return []
    store = Store(cache)
    name = f"palette-{code_digest(__name__)}"
    kept = store.get(name) if store.on else None
    kept = kept if isinstance(kept, dict) else {}
    out: list[Finding] = []
    changed = False
    for vocab, coloured in vocabs:
        key = repr([c[3] for c in coloured])
        measures = kept.get(key)
        if not _well_formed(measures, len(coloured)):
            measures = kept[key] = _measures([c[3] for c in coloured])
            changed = True
        assert measures is not None
        out += _pairs(model, vocab, coloured, measures)
    if changed and store.on and cache is not None and cache.is_dir():  # loading makes no folder
        store.put(name, kept, stale="palette-*")
    return out


def _well_formed(measures: Any, n: int) -> bool:
    """Whether kept measures are a palette's of n colours: one (float, str, float) per pair."""
    return (
        isinstance(measures, list)
        and len(measures) == n * (n - 1) // 2
        and all(
            isinstance(m, tuple)
            and len(m) == 3
            and isinstance(m[0], float)
            and m[1] in DEFICIENCIES
            and isinstance(m[2], float)
            for m in measures
        )
    )


def _colours(vocab: Vocabulary) -> list[tuple[str, str, tuple[int, int], tuple[float, ...]]]:
    """(value, colour as written, where, sRGB 0-1) of each value with a colour attribute."""
    out = []
    for term in vocab.terms:
        for key in COLOUR_KEYS:
            written = term.attrs.get(key)
            rgb = _rgb(written)
            if rgb is not None:
                out.append((term.name, str(written), term.loc, rgb))
                break
    return out


def _rgb(value: Any) -> tuple[float, ...] | None:
    text = str(value or "").strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    if len(text) != 6:
        return None
    try:
        return tuple(int(text[i : i + 2], 16) / 255 for i in (0, 2, 4))
    except ValueError:
        return None


def _measures(colours: list[tuple[float, ...]]) -> list[Measure]:
    """Each pair of the colours (in `combinations` order) measured: the least ΔE in CAM02-UCS
    between them as a deficiency shows them, which deficiency, and their difference in
    lightness."""
    import numpy as np
    from colorspacious import cspace_convert, deltaE  # lazy: only a palette not yet measured

    rgb = np.array(colours)
    seen = {
        kind: np.clip(
            cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": kind, "severity": 100}, "sRGB1"),
            0,
            1,
        )
        for kind in DEFICIENCIES
    }
    lightness = cspace_convert(rgb, "sRGB1", "CAM02-UCS")[:, 0]
    out: list[Measure] = []
    for i, j in combinations(range(len(colours)), 2):
        close = [
            (float(deltaE(seen[k][i], seen[k][j], input_space="sRGB1")), k) for k in DEFICIENCIES
        ]
        worst, kind = min(close)
        out.append((worst, kind, abs(float(lightness[i] - lightness[j]))))
    return out


def _pairs(
    model: GameModel,
    vocab: Vocabulary,
    coloured: list[tuple[str, str, tuple[int, int], tuple[float, ...]]],
    measures: list[Measure],
) -> list[Finding]:
    guards = model.guards
    out = []
    pairs = combinations(range(len(coloured)), 2)
    for (i, j), (worst, kind, grey) in zip(pairs, measures):
        (a, ca, at, _), (b, cb, _, _) = coloured[i], coloured[j]
        if worst < guards.colour_delta_e:
            out.append(
                Finding(
                    model.file,
                    at[0],
                    at[1],
                    Severity.WARNING,
                    "colour-clash",
                    None,
                    f"{vocab.name} '{a}' ({ca}) and '{b}' ({cb}) look alike with "
                    f"{SHOWN[kind]}: ΔE {worst:.1f} in CAM02-UCS, below "
                    f"{guards.colour_delta_e:g}",
                    "change one colour's lightness, and show the value by a symbol or word too",
                )
            )
        if grey < guards.grey_delta:
            out.append(
                Finding(
                    model.file,
                    at[0],
                    at[1],
                    Severity.INFO,
                    "colour-greyscale",
                    None,
                    f"{vocab.name} '{a}' ({ca}) and '{b}' ({cb}) differ by {grey:.1f} in "
                    f"lightness (CAM02-UCS J'), below {guards.grey_delta:g}: printed in "
                    "greyscale they look alike",
                    "make one lighter than the other, or show the value by a symbol or word",
                )
            )
    return out

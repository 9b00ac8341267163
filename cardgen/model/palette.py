"""Turn the colours of a game's vocabularies into the colour-blind guard's findings: two values of
one vocabulary (two factions) that look alike under deuteranopia, protanopia or tritanopia
simulation, or in greyscale (colorspacious: Machado 2009 simulation, ΔE in CAM02-UCS;
docs/guards.md)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ..core.errors import Finding, Severity
from .game import GameModel, Vocabulary

COLOUR_KEYS = ("color", "colour")  # the attribute that is a value's own colour (not its ink)
DEFICIENCIES = ("deuteranomaly", "protanomaly", "tritanomaly")
SHOWN = {"deuteranomaly": "deuteranopia", "protanomaly": "protanopia", "tritanomaly": "tritanopia"}


def palette_findings(model: GameModel) -> list[Finding]:
    """A warning for each pair of a vocabulary's colours closer than `guards.colour_delta_e` under
    a simulated colour-vision deficiency, and a note for each pair closer than `guards.grey_delta`
    in lightness (alike in greyscale)."""
    out: list[Finding] = []
    for vocab in model.vocabularies.values():
        coloured = _colours(vocab)
        if len(coloured) >= 2:
            out += _pairs(model, vocab, coloured)
    return out


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


def _pairs(
    model: GameModel,
    vocab: Vocabulary,
    coloured: list[tuple[str, str, tuple[int, int], tuple[float, ...]]],
) -> list[Finding]:
    import numpy as np
    from colorspacious import cspace_convert, deltaE  # lazy: only a game with colours pays

    guards = model.guards
    rgb = np.array([c[3] for c in coloured])
    seen = {
        kind: np.clip(
            cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": kind, "severity": 100}, "sRGB1"),
            0,
            1,
        )
        for kind in DEFICIENCIES
    }
    lightness = cspace_convert(rgb, "sRGB1", "CAM02-UCS")[:, 0]
    out = []
    for i, j in combinations(range(len(coloured)), 2):
        (a, ca, at, _), (b, cb, _, _) = coloured[i], coloured[j]
        close = [
            (float(deltaE(seen[k][i], seen[k][j], input_space="sRGB1")), k) for k in DEFICIENCIES
        ]
        worst, kind = min(close)
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
        grey = abs(float(lightness[i] - lightness[j]))
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

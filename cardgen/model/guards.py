"""Turn game.yaml's `guards:` section into typed thresholds for the print-quality and accessibility
guards (art resolution, cover crop, printed type size, shrinking, contrast, colour-blind safety),
each with its default when not written (docs/guards.md)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .specs import Number, Section


@dataclass(frozen=True)
class Guards:
    """The thresholds every guard reads; the defaults are the ones docs/guards.md states."""

    art_dpi_warning: float = 250.0  # effective resolution of a placed picture, pixels per inch
    art_dpi_error: float = 150.0
    cover_crop: float = 25.0  # % of a picture's width or height `fit: cover` may cut away
    label_size: float = 6.0  # pt: the smallest printed label (a name, a stat, a type line)
    rules_size: float = 7.0  # pt: the smallest printed rules text (a rich text box)
    shrink: float = 1.5  # pt: fitting may shrink text this much below its size without a word
    contrast_body: float = 4.5  # WCAG contrast ratio, text below `large_type`
    contrast_large: float = 3.0  # WCAG contrast ratio, text at `large_type` or more
    large_type: float = 14.0  # pt: from this size text counts as large (WCAG: 14 pt bold)
    colour_delta_e: float = 10.0  # ΔE in CAM02-UCS two vocabulary colours keep under simulation
    grey_delta: float = 10.0  # lightness difference (CAM02-UCS J') two colours keep in greyscale


GUARDS = Section(
    "thresholds of the print-quality and accessibility guards (docs/guards.md)",
    keys={
        "art_dpi_warning": Number(
            "a placed picture below this effective resolution is a warning (default 250)",
            low=30,
            high=2400,
            unit="dpi",
        ),
        "art_dpi_error": Number(
            "a placed picture below this effective resolution is an error (default 150)",
            low=30,
            high=2400,
            unit="dpi",
        ),
        "cover_crop": Number(
            "`fit: cover` cutting away more than this share of a picture's width or height is a "
            "warning (default 25)",
            low=0,
            high=100,
            unit="%",
        ),
        "label_size": Number(
            "the smallest printed size of a label: any text element that is not rich rules text "
            "(default 6)",
            low=2,
            high=72,
            unit="pt",
        ),
        "rules_size": Number(
            "the smallest printed size of rules text (a `rich: true` text element) (default 7)",
            low=2,
            high=72,
            unit="pt",
        ),
        "shrink": Number(
            "fitting that shrinks text more than this below its size is noted (default 1.5)",
            low=0,
            high=72,
            unit="pt",
        ),
        "contrast_body": Number(
            "the lowest WCAG contrast of text against what is drawn under it (default 4.5)",
            low=1,
            high=21,
            unit=": 1",
        ),
        "contrast_large": Number(
            "the lowest WCAG contrast of large type (default 3)", low=1, high=21, unit=": 1"
        ),
        "large_type": Number(
            "text of this size or more is large type (default 14)", low=4, high=200, unit="pt"
        ),
        "colour_delta_e": Number(
            "two colours of one vocabulary closer than this ΔE (CAM02-UCS) under deuteranopia, "
            "protanopia or tritanopia simulation are a warning (default 10)",
            low=0,
            high=100,
        ),
        "grey_delta": Number(
            "two colours of one vocabulary closer than this in lightness (CAM02-UCS J') are "
            "noted: they look alike printed in greyscale (default 10)",
            low=0,
            high=100,
        ),
    },
)


def read_guards(checked: Any) -> tuple[Guards, list[str]]:
    """The thresholds from the checked section (its invalid values already dropped, defaults in
    their place), and the problems of their meaning (an error level above its warning level)."""
    given = {f.name: float(checked[f.name]) for f in fields(Guards) if f.name in (checked or {})}
    guards = Guards(**given)
    problems = []
    if guards.art_dpi_error > guards.art_dpi_warning:
        problems.append(
            f"guards.art_dpi_error ({guards.art_dpi_error:g}) is above guards.art_dpi_warning "
            f"({guards.art_dpi_warning:g}): a picture would be an error before it is a warning"
        )
    if guards.contrast_large > guards.contrast_body:
        problems.append(
            f"guards.contrast_large ({guards.contrast_large:g}) is above guards.contrast_body "
            f"({guards.contrast_body:g}): large type would need more contrast than body text"
        )
    return guards, problems

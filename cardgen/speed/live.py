"""Turn this process into a long-lived one (a watch loop, the gallery server) or not: what speed
machinery keeps for the next rebuild only pays where there is one.

A live process keeps each rebuild's layouts in memory for the rest of that rebuild (a one-shot run
lets them go once drawn, so that 100,000 faces never sit in memory at once) and works out a sheet
run's findings on the second core while the sheets are written. Off with the speed machinery
(`--no-cache`): the plain pipeline, which writes the same bytes.
"""

from __future__ import annotations

from .cache import enabled

_state = {"live": False}


def go_live(on: bool = True) -> None:
    """From now on this process rebuilds again and again (live.watch's loop sets it)."""
    _state["live"] = on


def is_live() -> bool:
    """Whether this process is a live one, with the speed machinery on."""
    return _state["live"] and enabled()

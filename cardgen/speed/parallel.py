"""Turn "may this work use more processes?" into one answer for every pool, fork and twin in cardgen.

The one pool policy: work is split over processes only where that is safe and switched on, and whoever asks
does the work in its own process otherwise (the one fallback), so a missing helper process changes nothing
but time. `--no-cache` (CARDGEN_NO_CACHE=1) turns this off too: the plain pipeline runs in one process.
"""
from __future__ import annotations

import os
import threading

from .cache import enabled


def forkable() -> bool:
    """Whether work can be split over forked processes here: speed machinery on, a second core, fork (not on
    Windows), and no other Python thread running (a fork copies none of them, nor the locks they hold: the
    gallery server's watcher rules it out). Every use of fork in cardgen asks this."""
    return enabled() and hasattr(os, "fork") and (os.cpu_count() or 1) > 1 and threading.active_count() == 1


def workers(most: int) -> int:
    """How many processes a pool may use (at most `most`): 1, the caller's own, when speed machinery is off."""
    return min(os.cpu_count() or 1, most) if enabled() else 1

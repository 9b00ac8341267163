"""Turn a block of allocation-heavy work (loading cards, laying out and drawing faces, (un)pickling
the face cache) into one the cyclic garbage collector does not interrupt.

That work builds hundreds of thousands of small containers and no garbage cycles; the collector
would walk them again and again (a quarter of the time of a 10,000-card run). Reference counting
still frees everything as usual; only the cycle detector waits, and what the block keeps is frozen
out of its sight afterwards. A long-running loop calls `settle()` between rebuilds.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Pause the cycle detector for the block, on the main thread only: the collector is
    process-wide, and a server's rebuild thread must not switch it off for everyone."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            # what the block built and still holds lives on (layouts, recordings, the cache):
            # frozen, the collector never walks it again; re-enabled without that, its next run
            # would walk every object the block made (a quarter of a second after laying out 3,000
            # faces)
            gc.freeze()
            gc.enable()


def settle() -> None:
    """For long-running loops (--watch): hand everything back to the collector and collect, while
    idle, so garbage cycles a rebuild left behind are freed before the next one; then freeze what
    lives on (the loaded project, the caches), so the next rebuild's collections do not walk it
    again."""
    if threading.current_thread() is threading.main_thread():
        gc.unfreeze()
        gc.collect()
        gc.freeze()

"""Turn many cards whose faces are not in the face cache into cache entries and recordings, laid out and
drawn on every core by forked workers: a cold print run or validation of thousands of cards is not bound
to one core. Results land in the cache exactly as a serial run would leave them.
"""
from __future__ import annotations

import os
from functools import partial
from typing import Any, Sequence

from ..core.errors import ignore_interrupts
from ..load.card import Card
from ..speed.gcpause import no_cyclic_gc
from ..speed.parallel import forkable
from .face import FaceRenderer
from .facecache import FaceCache, entry_of
from .paint import draw_face
from .pen import Recording
from .template import Template

MIN_FACES = 100  # below this, starting workers costs more than laying the faces out here
Job = tuple[Card, Template, float]

_WORK: dict[str, Any] = {}  # what a forked worker inherits: the renderer and the jobs


def _lay_out(indices: list[int]) -> list[tuple[str, tuple, Recording | None]]:
    renderer: FaceRenderer = _WORK["renderer"]
    jobs: list[Job] = _WORK["jobs"]
    record: bool = _WORK["record"]
    out = []
    with no_cyclic_gc():
        for i in indices:
            card, template, bleed = jobs[i]
            face = renderer.prepare(card, template, bleed)
            draw = partial(draw_face, face=face, fonts=renderer.fonts, model=renderer.model)
            recording = renderer.recordings.get(face.key, draw) if record else None
            out.append((face.key, entry_of(face), recording))
    return out


def prefetch(renderer: FaceRenderer, jobs: Sequence[Job], record: bool, workers: int | None = None) -> int:
    """Lay out (and with `record`, draw) the faces of `jobs` the cache lacks, in parallel; returns how many.
    Does nothing without a disk cache, on one core, with other threads running (forking is unsafe then) or
    when too few faces are missing."""
    store = renderer.store
    if not isinstance(store, FaceCache):
        return 0
    workers = workers or min(os.cpu_count() or 1, 8)
    seen: set[str] = set()
    todo: list[Job] = []
    for card, template, bleed in jobs:
        key = renderer.key(card, template, bleed)
        known = key in store.entries or key in store.fresh
        if key in seen or known and (not record or key in store.recordings):
            continue
        seen.add(key)
        todo.append((card, template, bleed))
    if workers < 2 or len(todo) < MIN_FACES or not forkable():
        return 0
    from concurrent.futures import ProcessPoolExecutor  # here: a warm run never loads the process pool
    from concurrent.futures.process import BrokenProcessPool
    from multiprocessing import get_context
    _WORK.update(renderer=renderer, jobs=todo, record=record)
    chunks = [list(range(len(todo)))[i::workers] for i in range(workers)]
    try:
        # this process takes the first share itself (its faces need no copying back), a forked worker each other
        with ProcessPoolExecutor(workers - 1, mp_context=get_context("fork"), initializer=ignore_interrupts) as pool:
            theirs = pool.map(_lay_out, chunks[1:])
            _lay_out(chunks[0])  # here the renderer keeps them as it keeps any face (what it returns is for workers)
            results = list(theirs)
    except (OSError, RuntimeError, BrokenProcessPool):  # no processes to be had (or one was killed): lay out here
        return 0
    finally:
        _WORK.clear()
    for chunk in results:
        for key, entry, recording in chunk:
            store.add(key, entry)
            if recording is not None:
                store.recordings[key] = recording
    return len(todo)

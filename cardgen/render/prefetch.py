"""Turn many cards whose faces are not in the face store into its entries and recordings, and
the contrast guard's measures of them, laid out, drawn and judged on every core by forked helpers
(speed.parallel.Pool): a cold print run or validation of thousands of cards is not bound to one
core. Results land in the store exactly as a serial run would leave them.
"""

from __future__ import annotations

import marshal
import time
from typing import Any, Sequence

from ..load.card import Card
from ..speed.gcpause import no_cyclic_gc
from ..speed.live import is_live
from ..speed.parallel import Pool, PoolLost, handed, handing_down
from ..speed.parallel import workers as pool_workers
from .face import FaceRenderer
from .pdfsheets import painter
from .prepared import PreparedFace
from .template import Template

MIN_FACES = 100  # below this, starting helpers costs more than laying the faces out here
PROBE = 12  # faces made here first, timed, to see whether helpers would pay
HELPERS_PAY_FROM = 0.6  # seconds of work left: below this, helpers cost more than they save
Job = tuple[Card, Template, float]
Sent = tuple[str, bytes, bytes | None]  # a face's key, store entry and drawing as marshal bytes
# a helper's answer: its faces, their contrast measures (render.contrastcache's `sent`) and
# (live) the laid-out elements and drawn ops it made
Answer = tuple[list[Sent], tuple[list[tuple[str, bytes]], bytes], tuple[list[Any], list[Any]]]


def _lay_out(indices: list[int], send: bool = False) -> tuple[list[Sent], list[str]]:
    """Lay out (and draw) the faces of `indices` among the jobs: kept by this process's renderer
    as it keeps any face; with `send` (in a helper, for the parent's face store to add), each
    face's entry and recording also returned as marshal bytes, made as the face is (a helper
    holds no drawing as objects: a run of 100,000 faces). Each window of faces is judged by the
    contrast guard while laid out (render.contrast.measure_faces), so that no process lays them
    out again for it; the picture keys of the faces judged come second."""
    from .contrast import WINDOW, measure_faces

    work = handed()  # the renderer and the jobs, as a forked helper inherits them
    renderer: FaceRenderer = work["renderer"]
    jobs: list[Job] = work["jobs"]
    record: bool = work["record"]
    contrast = renderer.contrast if work.get("judge", True) else None
    rasters: dict[str, Any] = {}  # the guard's backgrounds, drawn once for all the faces
    out: list[Sent] = []
    judged: list[str] = []
    window: list[PreparedFace] = []

    def judge() -> None:
        if contrast is not None:
            judged.extend(measure_faces(window, renderer.fonts, renderer.model, contrast, rasters))
        if record:  # drawn and judged: its layout goes
            for face in window:
                renderer.settle(face.key)
        window.clear()

    with no_cyclic_gc():
        for i in indices:
            card, template, bleed = jobs[i]
            face = renderer.prepare(card, template, bleed)
            paint = painter(face, renderer.fonts, renderer.model)
            recording = renderer.recordings.face(face, paint) if record else None
            if send:
                entry = marshal.dumps(renderer.store.entry(face))  # type: ignore[union-attr]
                drawn = marshal.dumps(recording) if recording is not None else None
                out.append((face.key, entry, drawn))
            del recording
            window.append(face)
            if len(window) >= WINDOW:
                judge()
        judge()
    return out, judged


def _helper(indices: list[int]) -> Answer:
    """`_lay_out` in a forked helper, with the contrast guard's measures of its faces (each face's
    as marshal bytes, and the texts measured as one) and, in a live process, the elements it laid
    out and drew (render.face's and render.pen's memos) for the parent to keep: its next live
    rebuild re-lays only what changed. A one-off run sends no memo: nothing lays those faces out
    again there."""
    from .face import _ELEMENTS
    from .pen import DRAWN

    live = is_live()
    if live:
        _ELEMENTS.journal()
        DRAWN.journal()
    contrast = handed()["renderer"].contrast
    texts = len(contrast.known) if contrast is not None else 0
    laid, judged = _lay_out(indices, send=True)
    measures = contrast.sent(judged, texts) if contrast is not None else ([], b"")
    return laid, measures, (_ELEMENTS.made(), DRAWN.made()) if live else ([], [])


def prefetch(
    renderer: FaceRenderer,
    jobs: Sequence[Job],
    record: bool,
    workers: int | None = None,
    judge: bool = True,
) -> int:
    """Lay out (and with `record`, draw) the faces of `jobs` the face store lacks, in parallel;
    returns how many. With `judge` (the default), the contrast guard measures each face as it is
    made; without, its measures are left to whoever asks for the faces' findings (a live process,
    which keeps the layouts to the end of its rebuild: speed.live). Does nothing without a face
    store, without helper processes to be had (one core, other threads running, speed machinery
    off: speed.parallel) or when too few faces are missing; the faces are then laid out where
    they are asked for, as in a serial run."""
    store = renderer.store
    if store is None:
        return 0
    workers = workers or pool_workers(8)
    seen: set[str] = set()
    todo: list[Job] = []
    for card, template, bleed in jobs:
        key = renderer.key(card, template, bleed)
        if key in seen or store.holds(key, drawn=record):
            continue
        seen.add(key)
        todo.append((card, template, bleed))
    if workers <= 1 or len(todo) < MIN_FACES:
        return 0
    # a probe first, here: when the faces are quick to make (a live rebuild after a template save
    # finds most of their elements already laid out: render.face), starting helpers and copying
    # their faces back costs more than making them all here
    probe, todo = todo[:PROBE], todo[PROBE:]
    if probe:
        started = time.thread_time()  # the work, not the wait for a busy machine's core
        with handing_down(renderer=renderer, jobs=probe, record=record, judge=judge):
            _lay_out(list(range(len(probe))))
        spent = time.thread_time() - started
        if spent / len(probe) * len(todo) < HELPERS_PAY_FROM:
            return 0  # the rest are made where they are asked for, each as quickly
    pool: Pool[Answer] | None = Pool.start(workers - 1)
    if pool is None:
        return 0
    chunks = [list(range(len(todo)))[i::workers] for i in range(workers)]
    try:
        # this process takes the first share itself (its faces need no copying back), a forked
        # helper each other
        with pool, handing_down(renderer=renderer, jobs=todo, record=record, judge=judge):
            pool.ask(_helper, chunks[1:])
            _lay_out(
                chunks[0]
            )  # here the renderer keeps them as it keeps any face (what it returns is for helpers)
            results = pool.answers()
    except PoolLost:  # the rest are laid out here, where they are asked for
        return 0
    from .face import _ELEMENTS
    from .pen import DRAWN

    while results:  # each helper's share let go of as it is kept
        chunk, measures, (elements, drawn) = results.pop(0)
        for key, entry, recording in chunk:
            store.add(key, entry, recording)
        if renderer.contrast is not None:
            renderer.contrast.adopt(*measures)
        _ELEMENTS.adopt(elements)
        DRAWN.adopt(drawn)
        del chunk, measures, elements, drawn
    return len(todo)

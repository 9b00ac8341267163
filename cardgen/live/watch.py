"""Turn a job (sheets, build) into a watch loop: run it, then again a few hundredths of a second after each
save to the game's files (cards, model, rulebook, templates, fonts), until Ctrl-C or the stop event."""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterable

from ..core.errors import CardgenError
from ..core.output import JobResult
from ..core.workspace import Workspace
from ..render.fonts import BUNDLED
from ..speed.gcpause import settle

QUIET_MS = 12  # a save is a burst of writes (temporary file, rename) within a few ms: rebuild once quiet


def source_folders(ws: Workspace, game: str) -> list[Path]:
    """Every folder whose files a game's outputs are made from (output/ is not one of them)."""
    r = ws.root
    return [ws.cards_dir(game), r / "rules" / game, ws.templates_dir(game), r / "templates" / "_shared",
            ws.fonts_dir(), BUNDLED]


def watch_job(ws: Workspace, game: str, job: Callable[[], JobResult],
              show: Callable[[JobResult | None, str | None, float, bool], None],
              stop: threading.Event | None = None) -> None:
    """Run `job` now and after every burst of saves; `show` gets each result (or the one-line error that
    stopped it: a model with errors, a missing template), the seconds it took (from the save, for a rebuild)
    and whether it was a rebuild. A result with work left for later (`later`: a live rebuild's rulebook) is
    shown, then that work is done and its own result shown.
    The loop survives any bad input: fix the file and it rebuilds."""
    from watchfiles import watch

    def once(since: float, saved: bool) -> None:
        step: Callable[[], JobResult] | None = job
        while step is not None:  # the job, then what it left for after its result is shown (result.later)
            try:
                result = step()
            except CardgenError as exc:
                show(None, str(exc), time.perf_counter() - since, saved)
                return
            show(result, None, time.perf_counter() - since, saved)
            step = result.later

    once(time.perf_counter(), False)
    settle()
    # a job that splits its rebuilds over two processes (build.LiveBuild) forks its twin now: warm from the
    # first run, and before the watcher's thread exists
    warm, close = getattr(job, "warm", None), getattr(job, "close", None)
    if warm is not None:
        warm()
    folders = [str(p) for p in source_folders(ws, game) if p.is_dir()]
    try:
        for changes in watch(*folders, step=QUIET_MS, debounce=1600, stop_event=stop, raise_interrupt=True):
            once(_last_change(changes), True)
            settle()  # the rebuild is shown: collect its leftovers while waiting for the next save
    finally:
        if close is not None:
            close()


def _last_change(changes: Iterable[tuple[Any, str]]) -> float:
    """When the burst's last file was written, on the perf_counter clock (now, for a deletion)."""
    newest = 0.0
    for _, path in changes:
        try:
            newest = max(newest, Path(path).stat().st_mtime)
        except OSError:
            newest = max(newest, time.time())
    return time.perf_counter() - max(0.0, time.time() - (newest or time.time()))

"""Turn a job (sheets, build) into a watch loop: run it, then again a few hundredths of a second
after each save to the game's files (cards, model, rulebook, templates, fonts), until Ctrl-C or the
stop event."""

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
from ..speed.live import go_live
from .warmup import Warmer

QUIET_MS = (
    12  # a save is a burst of writes (temporary file, rename) within a few ms: rebuild once quiet
)


def source_folders(ws: Workspace, game: str) -> list[Path]:
    """Every folder whose files a game's outputs are made from (output/ is not one of them)."""
    r = ws.root
    return [
        ws.cards_dir(game),
        r / "rules" / game,
        ws.templates_dir(game),
        r / "templates" / "_shared",
        ws.fonts_dir(),
        BUNDLED,
    ]


def watch_job(
    ws: Workspace,
    game: str,
    job: Callable[[], JobResult],
    show: Callable[[JobResult | None, str | None, float, bool], None],
    stop: threading.Event | None = None,
    first: bool = True,
    ready: threading.Event | None = None,
) -> None:
    """Run `job` now and after every burst of saves; `show` gets each result (or the one-line error
    that stopped it: a model with errors, a missing template), the seconds it took (from the save,
    for a rebuild) and whether it was a rebuild. A result with work left for later (`later`: a live
    rebuild's rulebook) is shown, then that work is done and its own result shown. The loop survives
    any bad input: fix the file and it rebuilds. `first=False`: the caller ran the job already (the
    gallery server builds its page before it listens). `ready` is set when the loop is about to
    watch: a save from then on is seen.

    The one live-rebuild loop: `--watch` (sheets, build) and `cardgen serve` both run in it."""
    from watchfiles import Change, DefaultFilter, watch

    def once(since: float, saved: bool) -> None:
        step: Callable[[], JobResult] | None = job
        while (
            step is not None
        ):  # the job, then what it left for after its result is shown (result.later)
            try:
                result = step()
            except CardgenError as exc:
                show(None, str(exc), time.perf_counter() - since, saved)
                return
            show(result, None, time.perf_counter() - since, saved)
            step = result.later

    go_live()  # rebuilds keep what the next one reads (speed.live)
    warmer = Warmer(ws, game)
    if first:
        once(time.perf_counter(), False)
        settle()
    # a job that splits its rebuilds over two processes (build.LiveBuild) forks its twin now: warm
    # from the first run, and before the watcher's thread exists
    warm, close = getattr(job, "warm", None), getattr(job, "close", None)
    if warm is not None:
        warm()
    warmer.resume()  # after the twin is forked (a thread must not be running when a process forks)
    folders = [p.resolve() for p in source_folders(ws, game) if p.is_dir()]
    sheet = _sheet(ws, game, show)
    plain = DefaultFilter()

    def wanted(change: Change, path: str) -> bool:
        """The game's source folders (editors' temporary files aside), and the declared sheet."""
        here = Path(path)
        if sheet is not None and here == sheet:
            return True
        return plain(change, path) and any(here.is_relative_to(f) for f in folders)

    watched = [*folders] + (
        [sheet.parent] if sheet and not any(sheet.is_relative_to(f) for f in folders) else []
    )
    if ready is not None:
        ready.set()
    try:
        for changes in watch(
            *watched,
            watch_filter=wanted,
            step=QUIET_MS,
            debounce=1600,
            stop_event=stop,
            raise_interrupt=True,
        ):
            warmer.pause()  # the rebuild has the CPU
            if sheet is not None and any(Path(p) == sheet for _, p in changes):
                # the sheet was saved: pull it into the card files, whose change rebuilds next
                _pull(ws, game, show, _last_change(changes))
                changes = {(c, p) for c, p in changes if Path(p) != sheet}
                if not changes:
                    settle()
                    warmer.resume()
                    continue
            once(_last_change(changes), True)
            settle()  # the rebuild is shown: collect its leftovers while waiting for the next save
            warmer.resume()
    finally:
        warmer.pause()
        go_live(False)  # a library caller's later one-shot runs are plain ones again
        if close is not None:
            close()


SETTLE_MS = 100  # a sheet whose size and time are unchanged this long is saved
SETTLE_TRIES = 4


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns


def _settled(path: Path, limit: float = 5.0) -> tuple[int, int] | None:
    """Wait until `path` has stopped changing (SETTLE_MS without a write, at most `limit`
    seconds), and return its (size, mtime) then."""
    deadline = time.monotonic() + limit
    stamp = _stamp(path)
    while time.monotonic() < deadline:
        time.sleep(SETTLE_MS / 1000)
        now = _stamp(path)
        if now == stamp:
            return now
        stamp = now
    return stamp


def _last_change(changes: Iterable[tuple[Any, str]]) -> float:
    """When the burst's last file was written, on the perf_counter clock (now, for a deletion)."""
    newest = 0.0
    for _, path in changes:
        try:
            newest = max(newest, Path(path).stat().st_mtime)
        except OSError:
            newest = max(newest, time.time())
    return time.perf_counter() - max(0.0, time.time() - (newest or time.time()))


def _sheet(
    ws: Workspace, game: str, show: Callable[[JobResult | None, str | None, float, bool], None]
) -> Path | None:
    """The sheet game.yaml declares (watched, and pulled when saved), if any; a declaration that
    cannot be used is shown once and nothing more is watched for it."""
    from ..jobs.sheet import declared_sheet

    try:
        path = declared_sheet(ws, game)
    except CardgenError as exc:
        show(None, str(exc), 0.0, False)
        return None
    return path.resolve() if path is not None else None


def _pull(
    ws: Workspace,
    game: str,
    show: Callable[[JobResult | None, str | None, float, bool], None],
    since: float,
) -> None:
    """Pull the saved sheet once it has settled; its changes (or why nothing was written) are shown
    like a rebuild. A program that saves in place (openpyxl, some spreadsheet programs on network
    drives) writes a workbook over many milliseconds: a read that fails while the file is still
    changing is tried again once it settles, never shown as a damaged workbook."""
    from ..jobs.sheet import declared_sheet, pull_declared

    try:
        path = declared_sheet(ws, game)
    except CardgenError as exc:
        show(None, str(exc), time.perf_counter() - since, True)
        return
    result: JobResult | None = None
    for attempt in range(SETTLE_TRIES):
        before = _settled(path) if path is not None else None
        last = attempt + 1 == SETTLE_TRIES
        try:
            result = pull_declared(ws, game)
        except CardgenError as exc:
            if not last and path is not None and _stamp(path) != before:
                continue  # it changed under the read: a save still under way
            show(None, str(exc), time.perf_counter() - since, True)
            return
        if last or path is None or _stamp(path) == before:
            break  # read whole; else a save went on under the read: pull what it ends with
    if result is not None:
        result.step = "pulled the sheet:"
        show(result, None, time.perf_counter() - since, True)

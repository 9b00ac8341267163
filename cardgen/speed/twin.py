"""Turn a job into a forked twin process that runs it whenever asked, its memory (loaded caches,
remembered compression, compiled pages) kept warm from one run to the next: a live rebuild (`build
--watch`) does half of its work there, on the machine's second core, while this process does the
other half.

The twin is forked once, after the first build and before the file watcher starts (so no other
thread is running), and ends when this process closes its pipe or exits. Anything going wrong with
it (it died, it hit a bug) is `TwinLost`; the caller then does the work itself, so a rebuild never
depends on the twin.
"""

from __future__ import annotations

import os
import signal
import traceback
from multiprocessing.connection import Connection, Pipe
from typing import Callable, Generic, NoReturn, TypeVar

from ..core.errors import CardgenError
from .gcpause import settle
from .parallel import forkable, helper_starts

T = TypeVar("T")


class TwinLost(Exception):
    """The twin cannot answer: it died, its pipe broke, or its work raised something other than
    CardgenError."""


class Twin(Generic[T]):
    def __init__(self, conn: Connection, pid: int) -> None:
        self.conn, self.pid = conn, pid
        self.asked = 0  # requests whose answers were not read yet
        self.lost = False  # it raised TwinLost once: close it and do without

    @classmethod
    def fork(cls, work: Callable[[], T]) -> "Twin[T] | None":
        """A twin that runs `work()` on each `ask`; None where one would not help or is unsafe: a
        single core, no fork (Windows), or other Python threads running (a fork copies none of them,
        nor their locks)."""
        if not forkable():
            return None
        reap()
        mine, theirs = Pipe()
        parent = os.getpid()
        try:
            pid = os.fork()
        except OSError:  # out of processes or memory: do without
            mine.close()
            theirs.close()
            return None
        if pid == 0:  # the twin
            mine.close()
            helper_starts(parent)
            _serve(theirs, work)
        theirs.close()
        return cls(mine, pid)

    def ask(self) -> None:
        """Start a run of the work in the twin (answers to earlier runs nobody read are dropped
        first)."""
        try:
            while self.asked:
                self.conn.recv()
                self.asked -= 1
            self.conn.send(None)
        except (EOFError, OSError) as exc:
            self.lost = True
            raise TwinLost(f"the twin process ended: {exc}") from exc
        self.asked += 1

    def answer(self) -> T:
        """The result of the run asked for; its CardgenError is raised here as it would be in this
        process."""
        try:
            kind, *value = self.conn.recv()
        except (EOFError, OSError) as exc:
            self.lost = True
            raise TwinLost(f"the twin process ended: {exc}") from exc
        finally:
            self.asked = max(0, self.asked - 1)
        if kind == "ok":
            return value[0]  # type: ignore[no-any-return]
        if kind == "error":
            message, file, line = value
            raise CardgenError(message, file=file, line=line)
        self.lost = True
        raise TwinLost(f"the twin's work failed:\n{value[0]}")

    def close(self) -> None:
        """Close the pipe: the twin ends once its current run (if any) has written its files, never
        halfway; it is reaped now if it has ended already, else by a later fork or close."""
        self.conn.close()
        _ENDING.append(self.pid)
        reap()


_ENDING: list[int] = []  # twins closed but perhaps still finishing: reaped when seen ended


def reap() -> None:
    """Reap the closed twins that have ended (no waiting): a long-lived process (a watch loop, a
    test run) keeps no zombie of each twin it closed."""
    for pid in list(_ENDING):
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # reaped elsewhere
            done = pid
        if done:
            _ENDING.remove(pid)


def _serve(conn: Connection, work: Callable[[], object]) -> NoReturn:
    """The twin's loop: a run per request, its answer sent back, until the pipe closes."""
    signal.signal(
        signal.SIGINT, signal.SIG_IGN
    )  # Ctrl-C belongs to the watch loop; the twin ends with its pipe
    try:
        while True:
            try:
                conn.recv()
            except (EOFError, OSError):
                break
            reply: tuple[object, ...]
            try:
                reply = ("ok", work())
            except CardgenError as exc:
                reply = ("error", exc.message, exc.file, exc.line)
            except BaseException:  # a bug: the caller does the work itself and meets it there
                reply = ("bug", traceback.format_exc())
            try:
                conn.send(reply)
            except (OSError, ValueError):
                break
            # idle until the next request: free this run's garbage cycles, as the watch loop does
            # (not when a request, or the pipe's end, is already waiting)
            if not conn.poll(0):
                settle()
    finally:
        os._exit(
            0
        )  # never run this process's exit handlers (temporary folders, atexit) a second time

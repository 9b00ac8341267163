"""Turn work split into tasks into answers computed by helper processes: the one pool policy and
its one fallback, for every pool, fork and twin in cardgen.

The policy: work is split over processes only where that is switched on and safe (`forkable`:
forked, with the stack already imported; or, for a caller that allows it, spawned, a fresh
interpreter, where other threads run). The fallback, the same for every pool and shaped like the
twin's (speed.twin): whatever goes wrong with the helpers (none could be started, one was killed,
the work raised in one) is one `PoolLost`, after which the caller does the work itself, in its
own process, and meets any real error there. So a helper's absence changes nothing but time.
`--no-cache` (CARDGEN_NO_CACHE=1) turns this off too: the plain pipeline runs in one process.

    pool = Pool.start(workers)
    if pool is None:
        return [work(task) for task in tasks]
    try:
        with pool:
            pool.ask(work, tasks)
            return pool.answers()
    except PoolLost:
        return [work(task) for task in tasks]
"""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Generic, Iterator, Sequence, TypeVar

from ..core.errors import ignore_interrupts
from .cache import enabled

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")


def forkable() -> bool:
    """Whether work can be split over forked processes here: speed machinery on, a second core, fork
    (not on Windows), and no other Python thread running (a fork copies none of them, nor the locks
    they hold: the gallery server's watcher rules it out). Every use of fork in cardgen asks
    this."""
    return (
        enabled()
        and hasattr(os, "fork")
        and (os.cpu_count() or 1) > 1
        and threading.active_count() == 1
    )


def helper_starts(parent: int | None = None) -> None:
    """A forked helper's (or twin's) first step: Ctrl-C belongs to its parent, and it ends with
    its parent (Linux: a parent killed by SIGTERM mid-rebuild would otherwise leave its helpers
    waiting for work for ever, holding the twin's pipe open, so the twin never ends either)."""
    ignore_interrupts()
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: helpers end with their pipes, as before
        return
    if parent is not None and os.getppid() != parent:  # it ended before that was set
        os._exit(0)


PR_SET_PDEATHSIG = 1

_HANDED: dict[str, Any] = {}  # the work in hand's state, as forked helpers inherit it


@contextmanager
def handing_down(**state: Any) -> Iterator[None]:
    """Hand `state` (a renderer, its jobs) to the work done while the block runs, here and in the
    helpers forked meanwhile, which inherit it as it is (nothing is sent: a spawned helper has
    none); `handed()` reads it. Gone when the block ends."""
    _HANDED.update(state)
    try:
        yield
    finally:
        _HANDED.clear()


def handed() -> dict[str, Any]:
    """The state handed down for the work in hand (`handing_down`)."""
    return _HANDED


def workers(most: int) -> int:
    """How many processes a pool may use (at most `most`): 1, the caller's own, when speed machinery
    is off."""
    return min(os.cpu_count() or 1, most) if enabled() else 1


class PoolLost(Exception):
    """The helper processes cannot answer: none could be started, one ended, or the work raised in
    one (a bug or a refusal the caller meets again when it does the work itself)."""


class Pool(Generic[T]):
    """Helper processes that run one function over a list of tasks while the caller goes on (ask),
    and hand back its answers in task order (answers); every failure is PoolLost."""

    def __init__(self, processes: int, spawn: bool) -> None:
        self.processes, self.spawn = processes, spawn
        self._executor: ProcessPoolExecutor | None = None
        self._asked: Any = None  # the map's iterator of answers

    @classmethod
    def start(cls, processes: int, *, spawn: bool = False) -> "Pool[T] | None":
        """Up to `processes` helper processes (none started before `ask`), or None where they would
        not help or are unsafe: speed machinery off, none asked for, a single core, or no fork
        (`forkable()`) and the caller does not allow `spawn` (a fresh interpreter re-importing what
        the work needs: ~0.4 s a process)."""
        if processes < 1 or not enabled() or (os.cpu_count() or 1) < 2:
            return None
        return cls(processes, spawn) if spawn or forkable() else None

    def ask(self, work: Callable[[Any], T], tasks: Sequence[Any], chunksize: int = 1) -> None:
        """Start `work(task)` for every task in the helpers, forked where that is safe now (a forked
        helper inherits this process's memory as it is), else spawned if allowed; their answers
        come from `answers`."""
        method = "fork" if forkable() else "spawn" if self.spawn else None
        if method is None:  # a thread started since: forking is no longer safe
            raise PoolLost("no helper process can be forked safely here now")
        try:
            from concurrent.futures import ProcessPoolExecutor
            from multiprocessing import get_context

            self._executor = ProcessPoolExecutor(
                self.processes,
                mp_context=get_context(method),
                initializer=helper_starts,  # Ctrl-C belongs to the caller, which ends them
                initargs=(os.getpid(),),
            )
            self._asked = self._executor.map(work, tasks, chunksize=chunksize)
        except Exception as exc:  # no processes, pipes or semaphores to be had here
            self.close()
            raise PoolLost(f"no helper process could be started: {exc}") from exc

    def answers(self) -> list[T]:
        """The answers to what was asked, in task order."""
        if self._asked is None:
            raise PoolLost("nothing was asked of the helper processes")
        try:
            return list(self._asked)
        except Exception as exc:  # a helper ended (BrokenProcessPool), or the work raised there
            raise PoolLost(f"a helper process failed: {exc!r}") from exc
        finally:
            self._asked = None

    def close(self) -> None:
        """End the helpers (after their current tasks)."""
        executor, self._executor, self._asked = self._executor, None, None
        if executor is not None:
            try:
                executor.shutdown(wait=True, cancel_futures=True)
            except Exception:  # a broken pool is ended as it is
                pass

    def __enter__(self) -> "Pool[T]":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

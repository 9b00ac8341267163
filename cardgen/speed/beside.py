"""Turn one piece of work on this process's state into its answer, worked out by a forked helper
on the other core while the caller goes on with its own work: a live rebuild's second line (a sheet
run's face findings while the sheets are written, jobs.sheets).

speed.parallel's pool of one, with its policy and its fallback: no helper where none may be
forked (speed machinery off, one core, another thread running) and every failure one `PoolLost`,
after which the caller does the work itself. The helper inherits the state as it is when it is
forked (nothing is pickled on the way there); only its answer comes back, as plain data.

    beside = Beside.start(work, state)
    ...  # the caller's own work meanwhile
    try:
        answer = beside.answer() if beside is not None else work(state)
    except PoolLost:
        answer = work(state)
"""

from __future__ import annotations

import gc
from typing import Any, Callable, Generic, TypeVar

from .parallel import Pool, PoolLost

S = TypeVar("S")
T = TypeVar("T")

# what the forked helper inherits: the work and the state it reads (held until the answer is in,
# or the helper closed: the caller's state is not kept beyond its rebuild)
_HANDED: dict[str, tuple[Callable[[Any], Any], Any]] = {}


class Beside(Generic[T]):
    """A forked helper working out `work(state)` (start), and its answer (answer)."""

    def __init__(self, pool: "Pool[T]") -> None:
        self._pool: Pool[T] | None = pool

    @classmethod
    def start(cls, work: Callable[[S], T], state: S) -> "Beside[T] | None":
        """A helper forked now, working out `work(state)` on the state as it is now; None where
        no helper may be forked (the caller does the work itself)."""
        pool: Pool[T] | None = Pool.start(1)
        if pool is None:
            return None
        _HANDED["work"] = (work, state)
        try:
            pool.ask(_worked, [0])
        except PoolLost:
            _HANDED.clear()
            return None
        return cls(pool)

    def answer(self) -> T:
        """The helper's answer (waiting for it), the helper ended; PoolLost when it has none (it
        ended, the work raised there, it was asked already): the caller does the work itself."""
        pool, self._pool = self._pool, None
        if pool is None:
            raise PoolLost("the helper was asked already, or closed")
        try:
            with pool:
                (found,) = pool.answers()
            return found
        finally:
            _HANDED.clear()

    def close(self) -> None:
        """End the helper without its answer (the caller met an error meanwhile)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()
            _HANDED.clear()


def _worked(_: int) -> Any:
    """In the helper: the work on the state it inherited."""
    work, state = _HANDED["work"]
    gc.disable()  # a helper's collection would walk (and so copy) every page it shares with us
    return work(state)

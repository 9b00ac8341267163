"""Turn repeated pure computations into one each per process: the one bounded memo of cardgen.

Whatever cardgen remembers in memory from one call to the next, for the life of the process (a
compiled expression, a parsed cost, a colour, a font's digest, a compressed stream, a chapter's
HTML, a page environment, a catalog's collation groups), is kept here, in one of two forms of the
same memo:

- `memo(size)`, a decorator for a function of hashable arguments (the answers are kept by
  `functools.lru_cache`, in C: the hottest of these run a hundred thousand times a build);
- `Memo(size)`, for answers kept under a key the caller makes (`memo.get(key, make)`), bounded by
  their number or by what they weigh (`weigh`: the bytes of compressed streams).

Both are bounded (the least recently used answer goes first), so a long-running process (`serve`,
`--watch`) never grows without end, and both obey the one switch: with `--no-cache` (or
CARDGEN_NO_CACHE=1) nothing is remembered and every call computes its answer afresh, the plain
pipeline, which writes the same bytes. An answer is shared by every caller that asks for it, so
callers only read it.

`always=True` keeps a memo on even then, where computing afresh would be pathological rather than
plain; each such use says why (render.press's colour transform: 13 ms to build, asked for once per
colour drawn).

What belongs to one object and lives as long as it (a renderer's faces by key, a catalog's lookup
index) is that object's state, not a memo of the process: it stays where it is. So does what
mirrors a library's own process-wide state (render.fonts' fonts registered with reportlab).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache, wraps
from typing import Any, Callable, Generic, Hashable, TypeVar

from .cache import enabled

V = TypeVar("V")
F = TypeVar("F", bound=Callable[..., Any])


class Memo(Generic[V]):
    """At most `size` answers by key (with `weigh`, answers weighing at most `size` in all: bytes,
    say), the least recently used dropped first; nothing kept (every `get` makes its answer) while
    the speed machinery is off, unless `always`."""

    def __init__(
        self,
        size: int,
        *,
        always: bool = False,
        weigh: Callable[[Any, V], int] | None = None,
    ) -> None:
        if size < 1:
            raise ValueError("a memo keeps at least one answer")
        self.size, self.always, self.weigh = size, always, weigh
        self.weight = 0  # of the answers kept: their number, or what `weigh` says they weigh
        self._kept: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()  # the gallery server and compression threads ask too

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        """The answer kept under `key`, or `make()`'s, kept (when on) for the next caller."""
        if not (self.always or enabled()):
            return make()
        with self._lock:
            try:
                self._kept.move_to_end(key)
                return self._kept[key]
            except KeyError:
                pass
        value = make()  # outside the lock: making an answer may ask another memo
        weight = self.weigh(key, value) if self.weigh else 1
        if weight > self.size:
            return value  # heavier than the whole memo: not kept
        with self._lock:
            if key not in self._kept:  # (another thread may have kept it meanwhile)
                self._kept[key] = value
                self.weight += weight
                if getattr(self, "_journal", None) is not None:
                    self._journal.append(key)  # type: ignore[union-attr]
            while self.weight > self.size:
                old, dropped = self._kept.popitem(last=False)
                self.weight -= self.weigh(old, dropped) if self.weigh else 1
        return value

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.weight = 0

    def journal(self) -> None:
        """From now on, note the keys of the answers this memo keeps (a forked helper does, so
        that what it made can go back to the process that forked it: `made`, `adopt`)."""
        self._journal: list[Hashable] | None = []

    def made(self) -> list[tuple[Hashable, V]]:
        """The answers kept since `journal` (and still kept), and the journal ended."""
        keys, self._journal = getattr(self, "_journal", None) or [], None
        with self._lock:
            return [(k, self._kept[k]) for k in keys if k in self._kept]

    def adopt(self, answers: list[tuple[Hashable, V]]) -> None:
        """Keep answers another process made (a helper's `made`), as if made here."""
        for key, value in answers:
            self.get(key, lambda value=value: value)  # type: ignore[misc]

    def __len__(self) -> int:
        return len(self._kept)


def memo(size: int, *, typed: bool = False, always: bool = False) -> Callable[[F], F]:
    """A function's answers by its (hashable) arguments, at most `size` of them; `typed`: 1 and
    True are different arguments. Off (the function runs every time) while the speed machinery is
    off, unless `always`. The decorated function keeps lru_cache's `cache_clear` and
    `cache_info`."""
    if size < 1:
        raise ValueError("a memo keeps at least one answer")

    def decorate(fn: F) -> F:
        kept = lru_cache(maxsize=size, typed=typed)(fn)
        if always:
            return kept  # type: ignore[return-value]

        @wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            return kept(*args, **kwargs) if enabled() else fn(*args, **kwargs)

        call.cache_clear = kept.cache_clear  # type: ignore[attr-defined]
        call.cache_info = kept.cache_info  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    return decorate

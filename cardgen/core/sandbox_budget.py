"""Turn a template's limits into a Budget per render: steps, loop turns, characters built, call
depth, time, and the size of a value (its strings' characters and containers' items), each counted
and refused past its limit."""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from jinja2.exceptions import SecurityError

_clock = time.monotonic
MAX_POWER_BITS = 4_096  # an integer larger than this many bits is refused


@dataclass(frozen=True)
class Limits:
    """What one render (one value of a card face, one `--only` test, one page) may use."""

    text: int = 100_000  # characters (or items) one operation, or the render's output, may have
    built: int = 1_000_000  # characters all its operations may build together
    steps: int = 50_000  # calls, filters, operators, loop turns and container items measured
    loops: int = 10_000  # loop turns (and items one range() may give)
    depth: int = 32  # macros (or recursive loops) calling each other; lists nested in lists
    seconds: float = (
        1.0  # time, a backstop: the counts above stop any template long before it on a sane machine
    )
    # the renders sharing one Budget (a face's values) may use this many renders' worth in all
    renders: int = 2


CARD = Limits()
PAGE = Limits(
    text=20_000_000,
    built=100_000_000,
    steps=5_000_000,
    loops=1_000_000,
    depth=100,
    seconds=30.0,
    renders=1,
)  # a gallery or rulebook page: a large game's page is a few megabytes


class BudgetError(SecurityError):
    """A template went over its budget: a `template-budget` finding, or a one-line error."""

    finding_code = "template-budget"


class Budget:
    """The counts of one render, or of the renders of one face together (`start` opens each render's
    share)."""

    __slots__ = (
        "limits",
        "steps",
        "loops",
        "built",
        "depth",
        "_step_cap",
        "_loop_cap",
        "_built_cap",
        "_deadline",
        "_end",
        "_next_check",
        "_steps",
        "_loops",
        "_built",
    )

    def __init__(self, limits: Limits = CARD) -> None:
        self.limits = limits
        self.steps = self.loops = self.built = self.depth = 0
        self._steps, self._loops, self._built = (
            n * limits.renders for n in (limits.steps, limits.loops, limits.built)
        )
        self._end = _clock() + limits.seconds * limits.renders
        self.start()

    def start(self) -> None:
        """A render begins: it may use one render's limits, within what the renders before it
        left."""
        lim = self.limits  # (on the hot path: no min())
        cap = self.steps + lim.steps
        self._step_cap = cap = cap if cap < self._steps else self._steps
        self._next_check = self.steps + 256 if self.steps + 256 < cap else cap
        cap = self.loops + lim.loops
        self._loop_cap = cap if cap < self._loops else self._loops
        cap = self.built + lim.built
        self._built_cap = cap if cap < self._built else self._built
        end = _clock() + lim.seconds
        self._deadline = end if end < self._end else self._end

    def _spent(self, cap: int, each: int, what: str, together: str) -> BudgetError:
        whole = self.limits.renders > 1 and cap == each * self.limits.renders
        return BudgetError(
            together.format(f"{each * self.limits.renders:,}")
            if whole
            else what.format(f"{each:,}")
        )

    def step(self, n: int = 1) -> None:
        self.steps += n
        if self.steps >= self._next_check:
            if self.steps > self._step_cap:
                raise self._spent(
                    self._step_cap,
                    self.limits.steps,
                    "a template takes more than {} steps (calls, filters, loop turns)",
                    "one card's values together take more than {} steps (calls, filters, loop "
                    "turns)",
                )
            if _clock() > self._deadline:
                raise BudgetError(f"a template runs longer than {self.limits.seconds:g} s")
            self._next_check = min(self.steps + 256, self._step_cap + 1)

    def loop(self) -> None:
        self.loops += 1
        if self.loops > self._loop_cap:
            raise self._spent(
                self._loop_cap,
                self.limits.loops,
                "a template's loops turn more than {} times",
                "the loops of one card's values together turn more than {} times",
            )
        self.step()

    def expect(self, size: int) -> None:
        """An operation is about to build text (or a list) of about `size` characters (items)."""
        if size > self.limits.text:
            raise BudgetError(f"a template builds text longer than {self.limits.text:,} characters")
        self.built += size
        if self.built > self._built_cap:
            raise self._spent(
                self._built_cap,
                self.limits.built,
                "a template builds more than {} characters in all",
                "one card's values together build more than {} characters",
            )

    def weigh(self, value: Any) -> int:
        """The size of a value (characters of its strings, items of its containers), which must be
        within one operation's limit; the items looked at count as steps."""
        size, visits = weight(value, self.limits.text, self.limits.depth)
        if visits:
            self.step(visits)
        if size > self.limits.text:
            raise BudgetError(
                f"a template builds a value larger than {self.limits.text:,} characters or items"
            )
        return size

    def result(self, value: Any) -> Any:
        """Count what a call or filter gave back."""
        if value.__class__ is str or isinstance(value, (str, bytes)):
            self.expect(len(value))
        elif isinstance(value, (list, tuple, dict, set, frozenset)):
            self.weigh(value)
        return value

    def enter(self) -> None:
        """A call begins (the caller lowers `depth` again when it ends)."""
        if self.depth >= self.limits.depth:
            raise BudgetError(
                f"macros or recursive loops call each other more than {self.limits.depth} deep"
            )
        self.depth += 1


def budget_of(context: Any) -> Budget:
    """The budget of the render a Jinja2 context belongs to (sandbox.BudgetContext carries one)."""
    try:
        return context.budget  # type: ignore[no-any-return]
    except AttributeError:
        return Budget()


def weight(value: Any, cap: int, depth: int) -> tuple[int, int]:
    """(size, containers' items visited): characters of strings, items of lists and mappings, digits
    of numbers, summed over the value as if each shared part were a copy (what printing it would
    make), stopping past `cap`."""
    kind = type(value)
    if kind is str or kind is bytes:
        return len(value), 0
    if kind is int or kind is float or kind is bool or value is None:
        return (value.bit_length() // 3 + 1 if kind is int else 1), 0
    size = visits = 0
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (str, bytes)):
            size += len(item)
        elif isinstance(item, (list, tuple, set, frozenset, Mapping)):
            if level >= depth:
                raise BudgetError(f"a template builds lists nested more than {depth} deep")
            size += len(item) * (2 if isinstance(item, Mapping) else 1) + 1
            if size > cap:
                break
            visits += len(item)
            items = (
                itertools.chain(item.keys(), item.values()) if isinstance(item, Mapping) else item
            )
            stack.extend((x, level + 1) for x in items)
        elif isinstance(item, int):
            size += item.bit_length() // 3 + 1
        elif isinstance(item, range):
            size += len(item)
        else:
            size += 1
        if size > cap:
            break
    return size, visits

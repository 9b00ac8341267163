"""speed.beside: one piece of work on this process's state worked out by a forked helper while the
caller goes on; the state as it was when the helper was forked, every failure PoolLost, and the
state let go of once answered."""

from __future__ import annotations

import os

import pytest

from cardgen.speed import beside
from cardgen.speed.beside import Beside
from cardgen.speed.cache import set_enabled
from cardgen.speed.parallel import PoolLost, forkable

needs_fork = pytest.mark.skipif(not forkable(), reason="no safe fork here (one core, threads)")


def total(state: dict[str, list[int]]) -> int:
    return sum(state["numbers"])


def fails(state: object) -> int:
    raise ValueError("refused")


def dies(state: object) -> int:
    os._exit(1)  # the helper process ends: a killed helper


@needs_fork
def test_the_helper_works_on_the_state_as_it_was_when_forked() -> None:
    state = {"numbers": [1, 2, 3]}
    started = Beside.start(total, state)
    assert started is not None
    state["numbers"].append(100)  # the caller goes on with its own work meanwhile
    assert started.answer() == 6
    assert beside._HANDED == {}  # the caller's state is not held once answered
    with pytest.raises(PoolLost):
        started.answer()  # one answer per helper


@needs_fork
@pytest.mark.parametrize("work", [fails, dies])
def test_every_failure_of_the_helper_is_pool_lost(work) -> None:  # type: ignore[no-untyped-def]
    started = Beside.start(work, {})
    assert started is not None
    with pytest.raises(PoolLost):
        started.answer()
    assert beside._HANDED == {}


@needs_fork
def test_a_helper_closed_unanswered_lets_go_of_the_state() -> None:
    started = Beside.start(total, {"numbers": [1]})
    assert started is not None
    started.close()
    assert beside._HANDED == {}
    with pytest.raises(PoolLost):
        started.answer()


def test_no_helper_with_the_speed_machinery_off() -> None:
    try:
        set_enabled(False)  # --no-cache: the caller does the work itself
        assert Beside.start(total, {"numbers": [1]}) is None
        assert beside._HANDED == {}
    finally:
        set_enabled(True)

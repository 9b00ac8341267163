"""speed.parallel: the one pool policy (helpers only where switched on and safe) and its one
fallback (every failure is PoolLost, after which the caller does the work itself)."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from cardgen.speed.cache import set_enabled
from cardgen.speed.parallel import Pool, PoolLost, forkable

PKG = Path(__file__).resolve().parents[2] / "cardgen"
needs_fork = pytest.mark.skipif(not forkable(), reason="no safe fork here (one core, threads)")


def square(x: int) -> int:
    return x * x


def fail_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    return x


def die_on_three(x: int) -> int:
    if x == 3:
        os._exit(1)  # the helper process ends: a killed worker
    return x


@needs_fork
def test_a_pool_answers_in_task_order_while_the_caller_goes_on() -> None:
    pool: Pool[int] | None = Pool.start(2)
    assert pool is not None
    with pool:
        pool.ask(square, list(range(20)), chunksize=3)
        mine = square(7)  # the caller's own share, meanwhile
        assert pool.answers() == [x * x for x in range(20)] and mine == 49


@needs_fork
@pytest.mark.parametrize("work", [fail_on_three, die_on_three])
def test_every_failure_of_a_helper_is_pool_lost(work) -> None:  # type: ignore[no-untyped-def]
    pool: Pool[int] | None = Pool.start(2)
    assert pool is not None
    with pytest.raises(PoolLost), pool:
        pool.ask(work, list(range(6)))
        pool.answers()


def test_no_helpers_where_they_are_off_or_pointless(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Pool.start(0) is None
    try:
        set_enabled(False)  # --no-cache: the plain pipeline, one process
        assert Pool.start(4) is None and Pool.start(4, spawn=True) is None and not forkable()
    finally:
        set_enabled(True)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert Pool.start(4, spawn=True) is None


def test_a_pool_that_cannot_start_is_pool_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    import concurrent.futures

    def no_processes(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OSError("Resource temporarily unavailable")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_processes)
    pool: Pool[int] = Pool(2, spawn=True)
    with pytest.raises(PoolLost, match="no helper process"):
        pool.ask(square, [1, 2])


def test_every_process_pool_and_fork_of_the_package_is_in_speed() -> None:
    """Pools, forks and process starts live in speed/ (the one policy, the one fallback)."""
    banned = {"ProcessPoolExecutor", "multiprocessing", "fork", "BrokenProcessPool"}
    hits = []
    for path in sorted(PKG.rglob("*.py")):
        if path.relative_to(PKG).parts[0] == "speed":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = {a.name.split(".")[0] for a in node.names}
                names |= {(getattr(node, "module", None) or "").split(".")[0]}
            elif isinstance(node, ast.Attribute):  # os.fork, futures.ProcessPoolExecutor
                owner = node.value.id if isinstance(node.value, ast.Name) else ""
                names = {node.attr} - ({"fork"} if owner != "os" else set())  # Twin.fork is speed's
            else:
                continue
            hits += [f"{path.relative_to(PKG)}:{node.lineno}: {n}" for n in sorted(names & banned)]
    assert hits == []


def test_closed_twins_leave_no_zombie_behind() -> None:
    """A long-lived process (a watch loop, this test run) closes twin after twin: each is reaped
    once it has ended, by the next close or fork, instead of staying a zombie until exit."""
    import os
    import time

    from cardgen.speed import twin as twins
    from cardgen.speed.twin import Twin

    pids = []
    for _ in range(3):
        t = Twin.fork(lambda: 1)
        if t is None:
            pytest.skip("no fork here")
        t.ask()
        assert t.answer() == 1
        t.close()
        pids.append(t.pid)
    # the last ones end once they see their pipes closed, after their run's garbage collection:
    # in a long test run a forked copy of a big heap, slow on a loaded machine (not a timing test)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        twins.reap()
        if not set(pids) & set(twins._ENDING):
            break
        time.sleep(0.05)
    assert not set(pids) & set(twins._ENDING)
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # already reaped: no zombie left

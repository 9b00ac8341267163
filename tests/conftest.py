"""Shared fixtures: the fixture workspace, the repository workspace, cardgen as a child process."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest

from cardgen.core.workspace import Workspace

TESTS = Path(__file__).parent
REPO = TESTS.parent
FIXTURE_WS = TESTS / "fixtures" / "ws"
SHARED = REPO.parent / "shared"
SEEDS = SHARED / "seeds"
# CI sets this: a test that needs ../shared/ then fails instead of skipping when the file is missing
REQUIRE_SHARED = bool(os.environ.get("CARDGEN_REQUIRE_SHARED"))


def needs_shared(path: Path) -> pytest.MarkDecorator:
    """Skip (locally) a test whose reference file lives in ../shared/, saying so; under CI it must
    run."""
    return pytest.mark.skipif(
        not path.is_file() and not REQUIRE_SHARED,
        reason=f"needs ../shared/: {path.relative_to(SHARED)} is not beside this checkout",
    )


@pytest.fixture
def fixture_ws() -> Workspace:
    return Workspace.find(FIXTURE_WS)


@pytest.fixture
def repo_ws() -> Workspace:
    return Workspace.find(REPO)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--regen-goldens",
        action="store_true",
        help="rewrite the raster goldens under tests/goldens",
    )


@pytest.fixture
def regen(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--regen-goldens"))


@pytest.fixture
def scratch_ws(tmp_path: Path) -> Workspace:
    """A writable copy of the fixture workspace (fonts linked, not copied)."""
    import shutil

    root = tmp_path / "ws"
    shutil.copytree(FIXTURE_WS, root, symlinks=True, ignore=shutil.ignore_patterns("fonts"))
    return Workspace.find(root)


@pytest.fixture(autouse=True, scope="session")
def fixture_workspace_stays_clean():
    """No test may write into a shared fixture workspace (tests copy it first)."""
    yield
    for folder in (FIXTURE_WS, TESTS / "fixtures" / "lantern"):
        assert not (folder / "output").exists(), f"a test wrote into {folder / 'output'}"


@pytest.fixture(autouse=True)
def speed_switch_restored() -> Iterator[None]:
    """A test that runs a command with --no-cache leaves the one switch (speed.cache.set_enabled)
    off; the next test starts with it as the environment says, as a new cardgen process would."""
    yield
    from cardgen.speed.cache import set_enabled

    set_enabled(True)


def _default_ctrl_c() -> None:
    """Run in the child before it execs: Ctrl-C's default action, as a shell gives a command it
    starts. A test run as a background job (`pytest … &` from a script) has SIGINT ignored, and an
    ignored signal stays ignored across exec: Python would then install no Ctrl-C handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextmanager
def cardgen_process(*args: str, **popen: Any) -> Iterator[subprocess.Popen]:
    """`python -m cardgen ARGS` started as a user's shell starts it (Ctrl-C's default action), in a
    session of its own (Ctrl-C reaches it only from the test). When the block ends, however the test
    ends, the process and any it started (pool workers, a twin) are killed if still running, and it
    is reaped: no test leaves a process behind."""
    with subprocess.Popen(
        [sys.executable, "-m", "cardgen", *args],
        preexec_fn=_default_ctrl_c,
        start_new_session=True,
        **popen,
    ) as proc:
        try:
            yield proc
        finally:
            if proc.returncode is None:  # not reaped yet: its process group is still ours
                with suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
    # leaving Popen's block closed the pipes and waited for the process


def catches_ctrl_c(pid: int) -> bool:
    """Whether a process has its own Ctrl-C handler in place (SIGINT among the caught signals of
    /proc/PID/status): a SIGINT sent before that, while Python is starting, kills it outright."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = re.search(r"^SigCgt:\s*([0-9a-fA-F]+)$", status, re.M)
    return caught is not None and bool(int(caught.group(1), 16) >> (signal.SIGINT - 1) & 1)


def wait_until_it_catches_ctrl_c(proc: subprocess.Popen, timeout: float = 120) -> None:
    """Wait until the child can take a Ctrl-C, or has ended (the timeout is a generous guard
    against a hang, not a timing)."""
    if not Path("/proc/self/status").is_file():  # no /proc to ask: give it a moment
        time.sleep(1)
        return
    deadline = time.monotonic() + timeout
    while proc.poll() is None and not catches_ctrl_c(proc.pid):
        assert time.monotonic() < deadline, "the process never installed its Ctrl-C handler"
        time.sleep(0.02)


@pytest.fixture
def own_cache_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """The test's own per-user cache key (the user's cache folder a temporary one): a test that
    forges or signs caches never touches the real key."""
    from cardgen.speed import cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    cache.user_key.cache_clear()
    yield
    cache.user_key.cache_clear()

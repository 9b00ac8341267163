"""Shared fixtures: the fixture workspace and the repository workspace."""
from __future__ import annotations

import os
from pathlib import Path

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
    """Skip (locally) a test whose reference file lives in ../shared/, saying so; under CI it must run."""
    return pytest.mark.skipif(not path.is_file() and not REQUIRE_SHARED,
                              reason=f"needs ../shared/: {path.relative_to(SHARED)} is not beside this checkout")


@pytest.fixture
def fixture_ws() -> Workspace:
    return Workspace.find(FIXTURE_WS)


@pytest.fixture
def repo_ws() -> Workspace:
    return Workspace.find(REPO)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--regen-goldens", action="store_true", help="rewrite the raster goldens under tests/goldens")


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

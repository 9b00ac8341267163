"""Shared fixtures: the fixture workspace and the repository workspace."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.workspace import Workspace

TESTS = Path(__file__).parent
REPO = TESTS.parent
FIXTURE_WS = TESTS / "fixtures" / "ws"
SEEDS = REPO.parent / "shared" / "seeds"


@pytest.fixture
def fixture_ws() -> Workspace:
    return Workspace.find(FIXTURE_WS)


@pytest.fixture
def repo_ws() -> Workspace:
    return Workspace.find(REPO)

"""One face per template of each bundled game, rasterised at 100 dpi and compared with a golden
reviewed as an image before it was committed (tests/goldens/face-*.png)."""

from __future__ import annotations

import pytest

from cardgen.core.workspace import Workspace
from cardgen.project.studio import open_studio
from cardgen.render.raster import render_pngs

from ..conftest import REPO
from ..goldens import check_golden

# (game, card, which face): a card chosen to show each template at its busiest
FACES = [
    ("power-trip", "Carnage Dancer", "front"),
    ("power-trip", "Carnage Dancer", "back"),
    ("power-trip", "Dark Resource", "back"),
    ("power-trip", "Setting Sun, Waxing Moon", "front"),
    ("aether-duel", "Mire Hydra", "front"),
    ("aether-duel", "Mire Hydra", "back"),
    ("aether-duel", "Balance of Terror", "front"),
    ("aether-duel", "Balance of Terror", "back"),
    ("ivion", "Warrior's Slash", "front"),
    ("ivion", "Warrior's Slash", "back"),
]


@pytest.fixture(scope="module")
def studios() -> dict[str, object]:
    return {game: open_studio(Workspace.find(REPO), game) for game in {g for g, _, _ in FACES}}


@pytest.mark.parametrize("game,card,side", FACES)
def test_face_matches_its_golden(studios, regen: bool, game: str, card: str, side: str) -> None:
    studio = studios[game]
    found = studio.check.catalog.find(card)  # type: ignore[attr-defined]
    assert found is not None, card
    front, back = studio.prepare(found, 0.0)  # type: ignore[attr-defined]
    face = front if side == "front" else back
    assert face is not None
    png = next(iter(render_pngs([face], studio.fonts, studio.model, dpi=100, workers=1)))  # type: ignore[attr-defined]
    check_golden(
        f"face-{game}-{face.template.name}-"
        f"{card.lower().replace(' ', '-').replace(',', '').replace(chr(39), '')}"
        f".png",
        png,
        regen,
    )

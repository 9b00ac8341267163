"""The gallery shows a card's other sides (its own second face, its `also:` faces) beside its front,
counting the card once; a game without them keeps its page exactly as before."""

from __future__ import annotations

import shutil
from pathlib import Path

from PIL import Image

from cardgen.core.workspace import Workspace
from cardgen.jobs.gallery import build_gallery

from ..conftest import TESTS
from .test_gallery import page_data

RUINS = TESTS / "fixtures" / "ruins"  # sample deckbuilder: Ruins with a Restored side, randomizers
RESTORED_GREEN = (0x2F, 0x6B, 0x3A)


def test_the_gallery_shows_each_side_and_counts_the_card_once(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(RUINS, root)
    result = build_gallery(Workspace.find(root), "ruins")
    what = result.outputs[0].what
    assert "gallery of 7 designs" in what and "(12 faces rendered)" in what
    path = result.outputs[0].path
    data = page_data(path)
    assert data["sides"] is True
    by_name = {c["name"]: c for c in data["cards"]}
    assert [s["label"] for s in by_name["Old Mill"]["sides"]] == ["second face"]
    assert [s["label"] for s in by_name["Village"]["sides"]] == ["randomizer"]
    assert "sides" not in by_name["Coin"]
    restored = path.parent / by_name["Old Mill"]["sides"][0]["image"]
    with Image.open(restored) as im:
        assert im.convert("RGB").getpixel((im.width // 2, 2)) == RESTORED_GREEN
    assert 'row = el("div", "sides")' in path.read_text()


def test_a_game_without_other_sides_gets_no_sides_code(scratch_ws: Workspace) -> None:
    path = build_gallery(scratch_ws, "clean").outputs[0].path
    assert "sides" not in page_data(path)
    assert "sides" not in path.read_text()


def test_the_live_gallery_opens_each_face_in_the_layout_inspector(tmp_path: Path) -> None:
    """Live, every face the card shows links to the inspector by its number there (0 the front, 1
    the back, shared or not, then the `also:` faces), and the inspector's page is written beside it;
    the static gallery has neither."""
    root = tmp_path / "ws"
    shutil.copytree(RUINS, root)
    ws = Workspace.find(root)
    static = build_gallery(ws, "ruins").outputs[0].path
    assert "inspect" not in static.read_text()
    assert not (static.parent / "inspect.html").exists()
    live = build_gallery(ws, "ruins", live=True, version="1").outputs[0].path
    by_name = {c["name"]: c for c in page_data(live)["cards"]}
    assert [s["face"] for s in by_name["Old Mill"]["sides"]] == [1]  # its own second face
    assert [s["face"] for s in by_name["Village"]["sides"]] == [2]  # after the shared back
    assert 'a.href = "inspect.html#card="' in live.read_text()
    inspector = (live.parent / "inspect.html").read_text()
    assert "default-src 'none'" in inspector and 'src="inspect.js"' in inspector
    for name in ("inspect.css", "inspect.js", "inspect-stage.js", "inspect-panel.js"):
        assert (live.parent / name).stat().st_size > 1000

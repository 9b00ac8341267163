"""Gallery, report and live server as data: pages, faces rendered once, error pages, busy ports."""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time

import pytest

from cardgen.core.errors import CardgenError
from cardgen.core.workspace import Workspace
from cardgen.jobs.gallery import build_gallery, run_report
from cardgen.live.serve import LiveGallery, open_server


def page_data(path) -> dict:
    text = path.read_text()
    return json.loads(
        re.search(r'<script type="application/json" id="data">(.*?)</script>', text, re.S)
        .group(1)
        .replace("<\\/", "</")
    )


def rendered(result) -> int:  # type: ignore[no-untyped-def]
    return int(re.search(r"\((\d+) faces rendered\)", result.outputs[0].what).group(1))


def test_gallery_page_faces_and_incremental_rendering(scratch_ws: Workspace) -> None:
    first = build_gallery(scratch_ws, "clean")
    path = first.outputs[0].path
    assert "gallery of 3 designs" in first.outputs[0].what and rendered(first) == 3
    data = page_data(path)
    assert data["facets"] == ["faction", "kind", "rarity"] and data["values"]["faction"] == [
        "Red",
        "Blue",
    ]
    firestorm = next(c for c in data["cards"] if c["id"] == "firestorm")
    assert firestorm["where"] == "cards/clean/cards.yaml:11" and firestorm["cost"] == 3
    assert (path.parent / firestorm["image"]).is_file()
    assert "http" not in path.read_text().split("<script")[0]  # no external requests
    again = build_gallery(scratch_ws, "clean")
    assert rendered(again) == 0  # unchanged faces are not drawn again
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(cards.read_text().replace("Deal 2 damage", "Deal 3 damage"))
    assert rendered(build_gallery(scratch_ws, "clean")) == 1  # only the edited card
    assert len(list((path.parent / "cards").glob("*.png"))) == 3  # the superseded face is gone


def test_broken_game_shows_findings_and_unreadable_files(fixture_ws: Workspace, tmp_path) -> None:
    result = build_gallery(fixture_ws, "broken", out=tmp_path / "g")
    data = page_data(result.outputs[0].path)
    typo = next(c for c in data["cards"] if c["id"] == "typo-faction")
    assert any(
        f["code"] == "unknown-value" and f["where"] == "cards/broken/cards.yaml:18"
        for f in typo["findings"]
    )
    assert {b["where"].split(":")[0] for b in data["broken"]} >= {
        "cards/broken/syntax.yaml",
        "cards/broken/latin1.yaml",
    }


def test_report_has_its_figures(tmp_path) -> None:
    from ..conftest import REPO

    path = run_report(Workspace.find(REPO), "power-trip", tmp_path).outputs[0].path
    html = path.read_text()
    for name in ("cost-curve", "stats", "rarities", "kinds", "keywords", "findings"):
        assert (tmp_path / f"{name}.png").stat().st_size > 1000 and f"{name}.png" in html
    assert "number-prefix-case" in html


def test_live_gallery_survives_a_broken_model(scratch_ws: Workspace) -> None:
    out = scratch_ws.output_dir("clean") / "gallery"
    logs: list[str] = []
    live = LiveGallery(scratch_ws, "clean", out, logs.append)
    live.rebuild()
    model = scratch_ws.model_path("clean")
    good = model.read_text()
    model.write_text("game: [broken\n")
    live.rebuild()
    assert (
        "cannot be built right now" in (out / "index.html").read_text()
        and "cannot build" in logs[-1]
    )
    model.write_text(good)
    live.rebuild()
    assert "Ember Guard" in (out / "index.html").read_text()
    assert (out / "version.txt").read_text().startswith("3-")


def test_busy_port_is_a_clear_error(tmp_path) -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    port = sock.getsockname()[1]
    try:
        with pytest.raises(
            CardgenError, match=f"port {port} is already in use; try --port {port + 1}"
        ):
            open_server(tmp_path, "127.0.0.1", port)
    finally:
        sock.close()


def test_watcher_rebuilds_once_per_burst_of_saves(scratch_ws: Workspace) -> None:
    out = scratch_ws.output_dir("clean") / "gallery"
    live = LiveGallery(scratch_ws, "clean", out, lambda m: None)
    stop, ready = threading.Event(), threading.Event()
    watcher = threading.Thread(target=live.watch, args=(stop, ready), daemon=True)
    watcher.start()
    try:
        assert ready.wait(60)
        time.sleep(1)  # the watcher's own start, on a loaded machine
        cards = scratch_ws.cards_dir("clean") / "cards.yaml"
        text = cards.read_text()
        for n in range(3):  # an editor saving in steps: one rebuild, not three
            cards.write_text(text.replace("Deal 2 damage", f"Deal {n + 3} damage"))
        deadline = time.monotonic() + 60
        while live.generation == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        # the rebuild counts itself as it starts, and writes version.txt last
        while not (out / "version.txt").is_file() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)
        assert live.generation == 1
        assert "Deal 5 damage" in (out / "index.html").read_text()
    finally:
        stop.set()
        watcher.join(timeout=5)
    assert not watcher.is_alive()


@pytest.mark.parametrize("port", [0, 70000])
def test_port_out_of_range(tmp_path, port: int) -> None:
    with pytest.raises(CardgenError, match="between 1 and 65535"):
        open_server(tmp_path, "127.0.0.1", port)


def test_a_page_template_added_or_edited_during_a_session_is_used_at_once(
    scratch_ws: Workspace,
) -> None:
    """Page environments are kept for the process (a live rebuild does not compile its pages again),
    yet a workspace's own gallery template is picked up as soon as it appears, and again when it is
    edited."""
    path = build_gallery(scratch_ws, "clean").outputs[0].path
    assert "Own page" not in path.read_text()
    own = scratch_ws.templates_dir("clean") / "gallery" / "index.html.j2"
    own.parent.mkdir(parents=True)
    own.write_text("<h1>Own page {{ data.cards | length }}</h1>")
    build_gallery(scratch_ws, "clean")
    assert path.read_text() == "<h1>Own page 3</h1>"
    own.write_text("<h1>Edited {{ data.cards | length }}</h1>")
    os.utime(
        own, ns=(time.time_ns() + 2_000_000_000,) * 2
    )  # a later modification time, as an editor's save
    build_gallery(scratch_ws, "clean")
    assert path.read_text() == "<h1>Edited 3</h1>"

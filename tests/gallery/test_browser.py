"""The gallery in a real browser (Debian's Chromium through Playwright): filters, findings, live
rebuilds."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

from cardgen.core.workspace import Workspace
from cardgen.jobs.gallery import build_gallery
from cardgen.live.serve import serve

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (.ci/run installs it)"
)
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def test_static_gallery_filters_and_findings(
    browser, fixture_ws: Workspace, tmp_path: Path
) -> None:
    result = build_gallery(fixture_ws, "broken", out=tmp_path / "g")
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(result.outputs[0].path.as_uri())
    total = page.locator(".tile:visible").count()
    assert total == int(result.outputs[0].what.split()[2])
    page.select_option("#filter-faction", "Red")
    red = page.locator(".tile:visible").count()
    assert 0 < red < total
    page.fill("#search", "ember")
    assert page.locator(".tile:visible").count() == 1
    page.select_option("#filter-faction", "")
    page.fill("#search", "typo")
    tile = page.locator(".tile:visible")
    assert tile.count() == 1 and "unknown faction 'Rde'" in tile.inner_text()
    assert "cards/broken/cards.yaml:18" in tile.inner_text()
    tile.click()
    assert "cards/broken/cards.yaml:17" in page.inner_text("#modal")  # the card's own source line
    assert page.locator(".banner.broken").count() >= 2
    assert all(
        u.startswith("file:") or u.startswith("data:") for u in requests
    )  # nothing from the network
    page.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_live_server_follows_edits(browser, scratch_ws: Workspace) -> None:
    port = _free_port()
    stop = threading.Event()
    thread = threading.Thread(
        target=serve,
        args=(scratch_ws, "clean", port),
        kwargs={"log": lambda m: None, "stop": stop},
        daemon=True,
    )
    thread.start()
    page = browser.new_page()
    try:
        deadline = time.time() + 20
        while True:
            try:
                page.goto(f"http://127.0.0.1:{port}/")
                break
            except Exception:
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
        page.wait_for_selector("text=Firestorm")
        cards = scratch_ws.cards_dir("clean") / "cards.yaml"
        good = cards.read_text()
        cards.write_text(good.replace("name: Firestorm", "name: Firestorm Reborn"))
        page.wait_for_selector(
            ".tile:has-text('Firestorm Reborn')", timeout=2000
        )  # the edit shows within 2 s
        cards.write_text(
            good.replace("- name: Tide Caller", "- name: [Tide Caller")
        )  # broken while typing
        page.wait_for_selector(".banner.broken", timeout=3000)
        assert "cards/clean/cards.yaml" in page.inner_text(".banner.broken")
        cards.write_text(good)
        page.wait_for_selector(".tile:has-text('Tide Caller')", timeout=3000)
        assert page.locator(".banner.broken").count() == 0
    finally:
        page.close()
        stop.set()
        thread.join(timeout=5)


def test_each_face_keeps_its_own_aspect_ratio(browser, tmp_path: Path) -> None:
    """Poker, landscape (88 x 63 mm), mini (44.45 x 63.5 mm) and tarot (70 x 120 mm) faces on one
    page: each tile shows its whole face, never cropped into a poker card's shape."""
    root = tmp_path / "ws"
    shutil.copytree(Path(__file__).parents[1] / "fixtures" / "deckbuilder", root)
    reference = root / "templates" / "deckbuilder" / "reference.yaml"
    reference.write_text(
        reference.read_text().replace("size: 63mm x 88mm", "size: 70mm x 120mm"), "utf-8"
    )
    result = build_gallery(Workspace.find(root), "deckbuilder", out=tmp_path / "g")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(result.outputs[0].path.as_uri())
    page.wait_for_function(
        "[...document.querySelectorAll('.tile img')].every(i => i.complete && i.naturalWidth)"
    )
    shown = page.evaluate(
        """[...document.querySelectorAll('.tile img')].map(i => [
             i.alt, i.naturalWidth / i.naturalHeight, i.clientWidth / i.clientHeight])"""
    )
    for shape in (88 / 63, 63 / 88, 44.45 / 63.5, 70 / 120):  # each shape is on the page
        assert any(abs(natural / shape - 1) < 0.01 for _, natural, _ in shown), shape
    assert [alt for alt, natural, box in shown if abs(box / natural - 1) > 0.02] == []
    page.close()

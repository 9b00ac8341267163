"""The layout inspector in a real browser (Debian's Chromium through Playwright): a face opened
from the live gallery, an element hovered, selected, dragged, nudged and recoloured, each edit
written into the template in place and undone byte for byte, and a save made on disk meanwhile
never overwritten."""

from __future__ import annotations

import difflib
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

import pytest

from cardgen.core.workspace import Workspace
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
FRONT = "templates/clean/front.yaml"
BLEED = 3.0
RULES = "  - {id: rules, type: text, x: %s, y: %s, w: 53mm, h: 38mm,"
RULES_REST = ' text: "{{ card.text }}", rich: true, font: body,'
PANEL = '  - {id: panel, type: rect, x: 3mm, y: 3mm, w: 57mm, h: 82mm, radius: 2mm, fill: "%s"}'
SELECTED_AT = (
    "x => Math.abs(document.querySelector('#overlay rect.sel').getAttribute('x') - x) < 0.01"
)
NEW_PICTURE = "src => document.getElementById('face').getAttribute('src') !== src"


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def port(scratch_ws: Workspace) -> Iterator[int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        number = int(s.getsockname()[1])
    stop = threading.Event()
    thread = threading.Thread(
        target=serve,
        args=(scratch_ws, "clean", number),
        kwargs={"log": lambda m: None, "stop": stop},
        daemon=True,
    )
    thread.start()
    try:
        yield number
    finally:
        stop.set()
        thread.join(timeout=10)


def _goto(page: Any, url: str) -> None:
    deadline = time.time() + 30
    while True:
        try:
            page.goto(url)
            return
        except Exception:
            if time.time() > deadline:
                raise
            time.sleep(0.2)


def _until(check: Callable[[], Any], what: str, timeout: float = 10.0) -> Any:
    deadline = time.time() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.time() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _changed(path: Path, before: str) -> str:
    return str(_until(lambda: (t := path.read_text()) != before and t, f"{path.name} to change"))


def _diff(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), n=0, lineterm="")
        if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]


def _mm(value: float) -> str:
    """A length as the inspector's writer writes it (0.1 mm, no trailing zeros)."""
    return f"{round(value, 1):.1f}".rstrip("0").rstrip(".") + "mm"


def _pixels_for(scale: float, wanted: float) -> float:
    """A whole number of pixels near `wanted` whose length in mm is not half-way between two tenths
    (so rounding in the page and here agree)."""
    px = float(round(wanted))
    while abs((px / scale * 10) % 1 - 0.5) < 0.1:
        px += 1
    return px


def test_inspect_select_drag_undo_nudge_recolour_and_a_conflict(
    browser: Any, scratch_ws: Workspace, port: int
) -> None:
    front = scratch_ws.root / FRONT
    original = front.read_text()
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        _goto(page, f"http://127.0.0.1:{port}/")
        page.click(".tile:has-text('Ember Guard')")
        link = page.locator("#modal a.inspect").first
        assert link.inner_text() == "Inspect layout"
        assert link.get_attribute("href") == "inspect.html#card=ember-guard&face=0"
        link.click()
        page.wait_for_selector("#overlay rect.el")
        assert page.inner_text("#card-name") == "Ember Guard"
        assert "not drawn on this card" in page.inner_text("#element-list .hidden")  # art, greyed

        svg = page.locator("#overlay").bounding_box()
        scale = svg["width"] / (63 + 2 * BLEED)  # CSS pixels per millimetre
        assert svg["height"] / (88 + 2 * BLEED) == pytest.approx(scale, rel=1e-3)
        img = page.locator("#face").bounding_box()
        assert (img["x"], img["y"], img["width"]) == pytest.approx(
            (svg["x"], svg["y"], svg["width"])
        )  # the overlay lies exactly on the picture

        def at(x: float, y: float) -> tuple[float, float]:
            return svg["x"] + (x + BLEED) * scale, svg["y"] + (y + BLEED) * scale

        # hover, then select the rules text (x 5, y 40, 53 x 38 mm) on the face
        page.mouse.move(*at(30, 60))
        page.wait_for_selector("#element-list button.item.hover:has-text('rules')")
        assert page.inner_text("#tip").startswith("rules")
        page.mouse.click(*at(30, 60))
        where = page.locator("#panel .where")
        assert where.inner_text().startswith(f"{FRONT}:12")
        assert "computed — edit in the file" in page.inner_text("#panel")  # text: "{{ card.text }}"

        # drag it by a known distance: only its x and y change, by that distance in mm
        old_src = page.get_attribute("#face", "src")
        dx_px, dy_px = _pixels_for(scale, 45), _pixels_for(scale, 30)
        dx, dy = round(dx_px / scale, 1), round(dy_px / scale, 1)
        start = at(30, 60)
        page.mouse.move(*start)
        page.mouse.down()
        page.mouse.move(start[0] + dx_px / 2, start[1] + dy_px / 2, steps=4)
        page.mouse.move(start[0] + dx_px, start[1] + dy_px, steps=4)
        assert f"x {5 + dx:.1f}  y {40 + dy:.1f}" in page.inner_text("#readout")  # measured live
        page.mouse.up()
        after = _changed(front, original)
        assert _diff(original, after) == [
            "-" + RULES % ("5mm", "40mm") + RULES_REST,
            "+" + RULES % (_mm(5 + dx), _mm(40 + dy)) + RULES_REST,
        ]
        assert after.splitlines()[0].endswith(
            "# a plain front; the stamp: --versions"
        )  # comments kept
        page.wait_for_function(NEW_PICTURE, arg=old_src)
        moved = page.locator("#overlay rect.sel")
        assert float(moved.get_attribute("x") or 0) == pytest.approx(5 + dx, abs=0.01)
        assert float(moved.get_attribute("y") or 0) == pytest.approx(40 + dy, abs=0.01)
        assert where.inner_text().startswith(f"{FRONT}:12")  # still selected

        # undo puts the file back byte for byte, and the face with it
        page.click("#undo")
        _until(lambda: front.read_text() == original, "the undo")
        page.wait_for_function(SELECTED_AT, arg=5)

        # the keyboard: three nudges right and one of 1 mm down are one edit; Ctrl+Z undoes it
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Shift+ArrowDown")
        nudged = _changed(front, original)
        assert RULES % ("5.3mm", "41mm") in nudged
        page.wait_for_selector("#status:has-text('Nudged')")
        page.keyboard.press("Control+z")
        _until(lambda: front.read_text() == original, "Ctrl+Z")

        # the right edge's handle resizes: only w changes
        page.wait_for_function(SELECTED_AT, arg=5)
        grip = at(5 + 53, 40 + 19)  # the middle of its right edge: the handle there
        dw_px = _pixels_for(scale, -30)
        page.mouse.move(*grip)
        page.mouse.down()
        page.mouse.move(grip[0] + dw_px, grip[1] + 7, steps=5)
        page.mouse.up()
        resized = _changed(front, original)
        assert (
            _diff(original, resized)[1]
            == "+"
            + (RULES % ("5mm", "40mm")).replace(
                "w: 53mm", f"w: {_mm(53 + round(dw_px / scale, 1))}"
            )
            + RULES_REST
        )
        page.click("#undo")
        _until(lambda: front.read_text() == original, "the undo of the resize")

        where.click()  # file:line is copied
        page.wait_for_selector(f"#status:has-text('Copied {FRONT}:12')")
        page.keyboard.press("Escape")
        page.wait_for_selector("#panel h2.none")

        # a property: the panel's fill, set as text and Enter, is one value written
        page.click("#element-list button.item:has-text('panel')")
        fill = page.get_by_label("Fill", exact=True)
        assert fill.input_value() == "#ffffff"
        fill.fill("#fffbe8")
        fill.press("Enter")
        recoloured = _changed(front, original)
        assert _diff(original, recoloured) == [
            "-" + PANEL % "#ffffff",
            "+" + PANEL % "#fffbe8",
        ]
        page.wait_for_selector("#panel table.keys code:text-is('#fffbe8')")

        # a save on disk the page has not seen (its polling held back): the edit is refused, said,
        # the file is left as saved, and the page shows the file as it is
        page.route("**/version.txt*", lambda route: route.fulfill(status=404, body=""))
        time.sleep(0.8)  # a poll already on its way has landed
        mine = recoloured.replace('fill: "#fffbe8"', 'fill: "#eeeeee"')
        front.write_text(mine)
        fill = page.get_by_label("Fill", exact=True)
        fill.fill("#123456")
        fill.press("Enter")
        page.wait_for_selector("#message:visible")
        assert "edited on disk" in page.inner_text("#message")
        page.wait_for_selector("#panel table.keys code:text-is('#eeeeee')")
        assert front.read_text() == mine
        page.unroute("**/version.txt*")

        page.screenshot(path=str(scratch_ws.root / "inspector.png"))
        assert not errors, errors
        assert all(u.startswith(f"http://127.0.0.1:{port}/") for u in requests), requests
    finally:
        page.close()


def test_the_page_follows_a_save_made_elsewhere_and_keeps_the_selection(
    browser: Any, scratch_ws: Workspace, port: int
) -> None:
    front = scratch_ws.root / FRONT
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    try:
        _goto(page, f"http://127.0.0.1:{port}/inspect.html#card=firestorm&face=0")
        page.wait_for_selector("#overlay rect.el")
        page.click("#element-list button.item:has-text('name')")
        assert page.locator("#geo-x, [data-key='geo-x']").first.input_value() == "5.0"
        text = front.read_text()
        front.write_text(text.replace("x: 5mm, y: 5mm, w: 40mm", "x: 7mm, y: 5mm, w: 40mm"))
        page.wait_for_function(SELECTED_AT, arg=7, timeout=5000)
        assert page.locator("[data-key='geo-x']").input_value() == "7.0"
        assert page.inner_text("#panel h2") == "name"
    finally:
        page.close()

"""The layout inspector's API on `cardgen serve`: a face's layout and picture, an edit written into
the template in place (only that value, comments kept), relative values kept relative, undo, a
concurrent edit on disk never overwritten, and writes refused without the page's token."""

from __future__ import annotations

import contextlib
import difflib
import http.client
import json
import socket
import threading
import time
from typing import Any, Iterator

import pytest

from cardgen.core.workspace import Workspace
from cardgen.live.serve import serve

FRONT = "templates/clean/front.yaml"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Client:
    def __init__(self, port: int) -> None:
        self.port = port
        self.token = ""

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        data = None if body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json", "X-Cardgen-Token": self.token}
        sent.update(headers or {})
        conn.request(method, path, body=data, headers=sent if method == "POST" else {})
        answer = conn.getresponse()
        raw = answer.read()
        conn.close()
        kind = answer.getheader("Content-Type") or ""
        return answer.status, json.loads(raw) if kind.startswith("application/json") else raw

    def edit(self, **body: Any) -> tuple[int, Any]:
        return self.call("POST", "/api/edit", body)


@contextlib.contextmanager
def serving(ws: Workspace, game: str) -> Iterator[Client]:
    """`cardgen serve` of GAME in a thread, and a client holding the page's token."""
    port = _free_port()
    stop = threading.Event()
    thread = threading.Thread(
        target=serve,
        args=(ws, game, port),
        kwargs={"log": lambda m: None, "stop": stop},
        daemon=True,
    )
    thread.start()
    client = Client(port)
    deadline = time.time() + 30
    try:
        while True:
            try:
                status, answer = client.call("GET", "/api/token")
                if status == 200:
                    break
            except OSError:
                pass
            assert time.time() < deadline, "the server did not start"
            time.sleep(0.1)
        client.token = answer["token"]
        yield client
    finally:
        stop.set()
        thread.join(timeout=10)


@pytest.fixture
def live(scratch_ws: Workspace) -> Iterator[tuple[Client, Workspace]]:
    with serving(scratch_ws, "clean") as client:
        yield client, scratch_ws


def _element(layout: dict[str, Any], eid: str) -> dict[str, Any]:
    return next(e for e in layout["elements"] if e["id"] == eid)


def _diff(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), n=0, lineterm="")
        if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]


def test_a_face_s_layout_names_every_element_its_box_and_its_line(live) -> None:  # type: ignore[no-untyped-def]
    client, _ = live
    status, layout = client.call("GET", "/api/layout?card=ember-guard&face=0")
    assert status == 200, layout
    assert layout["size"] == [63.0, 88.0] and layout["bleed"] == 3.0 and layout["safe"] == 3.0
    panel = _element(layout, "panel")
    assert panel["box"] == [3.0, 3.0, 57.0, 82.0]
    assert (panel["file"], panel["line"]) == (FRONT, 7)
    assert panel["keys"]["x"] == {
        "raw": "3mm",
        "line": 7,
        "column": 29,
        "computed": False,
        "key": "x",
    }
    assert panel["yaml"].startswith("  - {id: panel, type: rect, x: 3mm")
    name = _element(layout, "name")
    assert name["uses"] == {"card.name": "Ember Guard"}
    art = _element(layout, "art")
    assert "when" in art["hidden"]  # not drawn on this card, and why
    status, picture = client.call("GET", "/api/face?card=ember-guard&face=0")
    assert status == 200 and picture[:8] == b"\x89PNG\r\n\x1a\n"
    status, answer = client.call("GET", "/api/layout?card=nobody&face=0")
    assert status == 404 and "no printed card" in answer["error"]


def test_dragging_an_element_writes_only_its_values_in_place_and_undo_puts_them_back(live) -> None:  # type: ignore[no-untyped-def]
    client, ws = live
    path = ws.root / FRONT
    before = path.read_text()
    _, layout = client.call("GET", "/api/layout?card=ember-guard&face=0")
    n = _element(layout, "rules")["n"]
    status, answer = client.edit(
        card="ember-guard",
        face=0,
        n=n,
        edges={"left": 1.234, "right": 1.234, "top": -0.5, "bottom": -0.5},
    )
    assert status == 200, answer
    after = path.read_text()
    rest = ' w: 53mm, h: 38mm, text: "{{ card.text }}", rich: true, font: body,'
    assert _diff(before, after) == [
        "-  - {id: rules, type: text, x: 5mm, y: 40mm," + rest,
        "+  - {id: rules, type: text, x: 6.2mm, y: 39.5mm," + rest,
    ]
    assert after.startswith("boxes: {stamp: {x: 5mm, bottom: 3.5mm, w: 40mm, h: 3.1mm}}  # a plain")
    # comments kept
    _, layout = client.call("GET", "/api/layout?card=ember-guard&face=0")
    assert _element(layout, "rules")["box"][:2] == [6.2, 39.5]  # the new face at once
    status, answer = client.edit(card="ember-guard", face=0, n=n, edges={"right": 2})  # resize
    assert status == 200 and [(c["key"], c["new"]) for c in answer["written"]] == [("w", "55mm")]
    assert client.call("POST", "/api/undo", {})[0] == 200
    assert client.call("POST", "/api/undo", {})[0] == 200
    assert path.read_text() == before  # byte for byte
    status, answer = client.call("POST", "/api/undo", {})
    assert status == 422 and answer["error"] == "nothing to undo"


def test_a_relative_value_stays_relative_and_an_expression_keeps_its_form(live) -> None:  # type: ignore[no-untyped-def]
    client, ws = live
    path = ws.root / FRONT
    text = path.read_text().replace(
        "x: 3mm, y: 3mm, w: 57mm, h: 82mm", "x: 5%, y: 3mm, right: 3mm, bottom: 3mm"
    )
    path.write_text(
        text.replace(
            "y: 40mm, w: 53mm, h: 38mm", "y: art.bottom + 2mm, w: 100% - 10mm, h: 38mm"
        ).replace("boxes: {", "boxes: {art: {x: 5mm, y: 13mm, w: 53mm, h: 25mm}, ")
    )
    time.sleep(0.05)
    _, layout = client.call("GET", "/api/layout?card=ember-guard&face=0")
    panel, rules = _element(layout, "panel"), _element(layout, "rules")
    assert rules["box"][1] == pytest.approx(40.0)
    status, answer = client.edit(
        card="ember-guard", face=0, n=panel["n"], edges={"left": 6.3, "right": 6.3}
    )
    assert status == 200, answer
    status, answer = client.edit(
        card="ember-guard", face=0, n=rules["n"], edges={"top": 1, "bottom": 1, "right": 2}
    )
    assert status == 200, answer
    written = path.read_text()
    assert "x: 15%, y: 3mm, right: -3.3mm, bottom: 3mm" in written
    assert "y: art.bottom + 3mm, w: 100% - 8mm" in written


def test_an_edit_made_on_disk_meanwhile_is_never_overwritten(live) -> None:  # type: ignore[no-untyped-def]
    client, ws = live
    path = ws.root / FRONT
    _, layout = client.call("GET", "/api/layout?card=ember-guard&face=0")
    panel = _element(layout, "panel")
    # the designer's editor saves x: 4mm after the page was drawn
    with patched_layout(client, layout):
        mine = path.read_text().replace("x: 3mm, y: 3mm, w: 57mm", "x: 4mm, y: 3mm, w: 57mm")
        path.write_text(mine)
        status, answer = client.edit(
            card="ember-guard", face=0, n=panel["n"], edges={"left": 1, "right": 1}
        )
    assert status == 409 and "'x' is '4mm' on disk now, not '3mm'" in answer["error"], answer
    assert path.read_text() == mine


class patched_layout:
    """Serve the page's old layout to the edit (as a page opened before the save would send it)."""

    def __init__(self, client: Client, layout: dict[str, Any]) -> None:
        self.layout = layout

    def __enter__(self) -> None:
        import cardgen.live.inspector as inspector

        self.saved = inspector.layout
        inspector.layout = lambda studio, side: self.layout  # type: ignore[assignment]

    def __exit__(self, *exc: object) -> None:
        import cardgen.live.inspector as inspector

        inspector.layout = self.saved  # type: ignore[assignment]


def test_setting_a_property_checks_it_and_writes_it_in_its_style(live) -> None:  # type: ignore[no-untyped-def]
    client, ws = live
    path = ws.root / FRONT
    before = path.read_text()
    _, layout = client.call("GET", "/api/layout?card=ember-guard&face=0")
    panel, name = _element(layout, "panel"), _element(layout, "name")
    status, answer = client.edit(
        card="ember-guard", face=0, n=panel["n"], values={"fill": "#fffbe8"}
    )
    assert status == 200, answer
    assert 'radius: 2mm, fill: "#fffbe8"}' in path.read_text()
    for values, said in (
        ({"color": "#ff"}, "not a colour"),
        ({"font": "comic"}, "no font family 'comic'"),
        ({"align": "centre"}, "it must be left, center, right"),
        ({"size": "11"}, "number without a unit"),
        ({"shape": "circle"}, "has no 'shape'"),
        ({"text": "{{ card.rank }}"}, "expressions in the template file"),
    ):
        status, answer = client.edit(card="ember-guard", face=0, n=name["n"], values=values)
        assert status == 422 and said in answer["error"], (values, answer)
    status, answer = client.edit(
        card="ember-guard", face=0, n=name["n"], values={"align": "center", "size": "12pt"}
    )
    assert status == 200, answer
    assert _diff(before, path.read_text())[-1].endswith(
        "min_size: 7pt, valign: middle, align: center}"
    ) or any("align: center" in line for line in _diff(before, path.read_text()))


@pytest.mark.parametrize(
    ("headers", "said"),
    [
        ({"X-Cardgen-Token": "forged"}, "token"),
        ({"Content-Type": "text/plain"}, "JSON"),
        ({"Origin": "http://evil.example"}, "own page"),
    ],
)
def test_a_write_without_the_page_s_token_or_from_elsewhere_is_refused(live, headers, said) -> None:  # type: ignore[no-untyped-def]
    client, ws = live
    before = (ws.root / FRONT).read_text()
    status, answer = client.call(
        "POST",
        "/api/edit",
        {"card": "ember-guard", "face": 0, "n": 1, "edges": {"left": 5}},
        headers,
    )
    assert status == 403 and said in answer["error"]
    assert (ws.root / FRONT).read_text() == before


def test_a_template_reached_through_a_link_is_never_written(live) -> None:  # type: ignore[no-untyped-def]
    client, ws = live
    elsewhere = ws.root / "notes" / "front.yaml"  # inside the workspace, outside templates/
    elsewhere.parent.mkdir()
    front = ws.root / FRONT
    elsewhere.write_text(front.read_text())
    front.unlink()
    front.symlink_to(elsewhere)
    time.sleep(0.05)
    status, layout = client.call("GET", "/api/layout?card=ember-guard&face=0")
    assert status == 200, layout  # the game reads it
    panel = _element(layout, "panel")
    before = elsewhere.read_text()
    status, answer = client.edit(
        card="ember-guard", face=0, n=panel["n"], edges={"left": 1, "right": 1}
    )
    assert status == 422 and "not a template file of this workspace" in answer["error"], answer
    assert elsewhere.read_text() == before and front.is_symlink()


def test_an_edit_s_face_is_answered_without_reading_the_cards_again(
    live, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """A template edited through the inspector changes no card file: its new face is laid out on
    the cards and model as checked before (jobs.sheets.live_check), none read or checked again."""
    from cardgen.jobs import sheets
    from cardgen.project import studio
    from cardgen.speed.live import is_live

    client, _ = live
    deadline = time.time() + 30
    while not is_live():  # the watch loop has started (the first gallery build is a plain one)
        assert time.time() < deadline, "the watch loop did not start"
        time.sleep(0.05)
    _, layout = client.call("GET", "/api/layout?card=ember-guard&face=0")
    n = _element(layout, "rules")["n"]
    read: list[str] = []
    for module in (sheets, studio):
        real = module.check_game
        monkeypatch.setattr(
            module, "check_game", lambda *a, real=real, **k: read.append("read") or real(*a, **k)
        )
    status, answer = client.edit(card="ember-guard", face=0, n=n, edges={"left": 1, "right": 1})
    assert status == 200, answer
    _, layout = client.call("GET", "/api/layout?card=ember-guard&face=0")
    assert _element(layout, "rules")["box"][0] == 6.0  # the new face
    assert read == []

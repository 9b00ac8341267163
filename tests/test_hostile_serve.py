"""A hostile gallery folder and hostile requests: `serve` gives regular files of its folder only (no
link followed) to requests naming its own address only; pruning removes only the faces cardgen wrote
(its manifest); a linked gallery folder is refused; a served page keeps its images while cards
change under fifty clients."""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.core.workspace import Workspace
from cardgen.gallery.page import MANIFEST, read_manifest
from cardgen.jobs.gallery import build_gallery
from cardgen.live.serve import LiveGallery, host_names, host_problem, listen

DATA = re.compile(r'<script type="application/json" id="data">(.*?)</script>', re.S)
SECRET = "TOP SECRET: the designer's tax return"


def run(ws: Workspace, *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["--root", str(ws.root), *args])


def snapshot(folder: Path) -> dict[str, str | bytes]:
    """Everything under `folder` (a link as its target, not followed): to show nothing there
    changed."""
    found: dict[str, str | bytes] = {}
    for path in sorted(folder.rglob("*")):
        key = path.relative_to(folder).as_posix()
        found[key] = (
            f"-> {os.readlink(path)}"
            if path.is_symlink()
            else path.read_bytes()
            if path.is_file()
            else "dir"
        )
    return found


def on_disk(out: Path) -> set[str]:
    return {f"cards/{p.name}" for p in (out / "cards").glob("*.png")}


def images(page: Path | bytes) -> list[str]:
    text = page.read_text() if isinstance(page, Path) else page.decode()
    return [c["image"] for c in json.loads(DATA.search(text).group(1))["cards"] if c["image"]]  # type: ignore[union-attr]


@contextmanager
def running(out: Path) -> Iterator[int]:
    """The gallery server on an ephemeral loopback port, for the length of the block."""
    server = listen(out, "127.0.0.1", 0)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def get(port: int, path: str, host: str | None = None, method: str = "GET") -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, headers={"Host": f"127.0.0.1:{port}" if host is None else host})
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def raw(port: int, request: bytes) -> int:
    """The status of a request written by hand (headers http.client would not send)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        return int(sock.makefile("rb").readline().split()[1])


@pytest.fixture
def gallery(scratch_ws: Workspace) -> Path:
    build_gallery(scratch_ws, "clean")
    return scratch_ws.output_dir("clean") / "gallery"


# --- serve: files of its folder only
@pytest.mark.parametrize("walk", ["relative to each folder", "looked at first"])
def test_links_fifos_and_dot_files_in_the_gallery_are_never_served(
    gallery: Path, tmp_path: Path, walk: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if walk == "looked at first":  # the way of an OS without O_NOFOLLOW or dir_fd (Windows)
        monkeypatch.setattr(os, "supports_dir_fd", set())
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    face = images(gallery / "index.html")[0]
    (gallery / "notes.txt").write_text(
        "a regular file of the folder"
    )  # the control: this one is served
    (gallery / "secret.txt").symlink_to(secret)
    (gallery / "etc").symlink_to("/etc")
    (gallery / "cards" / "leak.png").symlink_to(secret)
    (gallery / "alias.html").symlink_to(
        "index.html"
    )  # a link, even to a file inside, is not followed
    (gallery / "cardlinks").symlink_to(gallery / "cards", target_is_directory=True)
    (gallery / "sub").mkdir()
    (gallery / "sub" / "up.html").symlink_to("../index.html")
    os.mkfifo(gallery / "pipe")  # opening it for reading would block a server thread forever
    with running(gallery) as port:
        assert get(port, "/notes.txt") == (200, b"a regular file of the folder")
        status, page = get(port, "/")
        assert status == 200 and page == (gallery / "index.html").read_bytes()
        assert get(port, "/index.html")[0] == 200 and get(port, f"/{face}")[0] == 200
        assert get(port, f"/{face}?v=2")[0] == 200
        assert get(port, "/", method="HEAD") == (200, b"")
        refused = [
            "/secret.txt",
            "/etc/passwd",
            "/etc/hostname",
            "/cards/leak.png",
            "/alias.html",
            f"/cardlinks/{face.split('/')[1]}",
            "/sub/up.html",
            "/pipe",
            "/cards",
            "/cards/",
            "/sub/",
            f"/{MANIFEST}",
            "/../../etc/passwd",
            "/%2e%2e/secret.txt",
            "/..%2f..%2fetc%2fpasswd",
            "//etc/passwd",
            "/cards/..",
            "/index.html/",
            "/nothing-here.png",
        ]
        answers = {path: get(port, path) for path in refused}
        assert {path: status for path, (status, _) in answers.items()} == {
            path: 404 for path in refused
        }
        assert not any(SECRET.encode() in body or b"root:" in body for _, body in answers.values())
        assert (
            get(port, "/%00")[0] == 400 and get(port, "/%ff")[0] == 400
        )  # not a path: a 400, no traceback
        assert get(port, "/", method="POST")[0] == 501


def test_a_folder_swapped_for_a_link_while_serving_is_not_followed(
    gallery: Path, tmp_path: Path
) -> None:
    face = images(gallery / "index.html")[0]
    with running(gallery) as port:
        assert get(port, f"/{face}")[0] == 200
        (gallery / "cards").rename(tmp_path / "elsewhere")
        (gallery / "cards").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
        assert get(port, f"/{face}")[0] == 404
        assert (
            tmp_path / "elsewhere" / face.split("/")[1]
        ).is_file()  # it is there, but through a link


# --- serve: requests for this server only
def test_only_requests_naming_this_server_are_answered(gallery: Path) -> None:
    with running(gallery) as port:
        named = {
            h: get(port, "/", host=h)[0]
            for h in (
                f"127.0.0.1:{port}",
                f"localhost:{port}",
                f"[::1]:{port}",
                f"LocalHost:{port}",
                f"[0:0:0:0:0:0:0:1]:{port}",
            )
        }
        assert set(named.values()) == {200}, named
        forged = [
            f"attacker.example:{port}",
            "attacker.example",
            f"127.0.0.1:{port + 1}",
            "127.0.0.1",
            "localhost",
            f"localhost.:{port}",
            f"127.0.0.2:{port}",
            f"192.168.1.20:{port}",
            f"[::2]:{port}",
            f"127.0.0.1.attacker.example:{port}",
        ]
        answers = {h: get(port, "/", host=h) for h in forged}
        assert {h: s for h, (s, _) in answers.items()} == {h: 421 for h in forged}
        assert not any(
            b"Ember Guard" in body for _, body in answers.values()
        )  # nothing of the page leaks
        malformed = [
            "",
            "a b",
            f"[::1:{port}",
            f"[zz::1]:{port}",
            f"localhost:{port}:{port}",
            "localhost:http",
            f"user@localhost:{port}",
            "localhost:123456",
        ]
        assert {h: get(port, "/", host=h)[0] for h in malformed} == {h: 400 for h in malformed}
        assert (
            get(
                port, f"/cards/{images(gallery / 'index.html')[0]}", host=f"attacker.example:{port}"
            )[0]
            == 421
        )
        assert raw(port, b"GET / HTTP/1.0\r\n\r\n") == 400  # no Host at all
        assert (
            raw(
                port,
                f"GET / HTTP/1.1\r\nHost: localhost:{port}\r\nHost: attacker.example:{port}\r\n"
                f"Connection: close\r\n\r\n".encode(),
            )
            == 400
        )
        assert (
            raw(
                port,
                f"GET http://attacker.example/ HTTP/1.1\r\nHost: localhost:{port}\r\n"
                f"Connection: close\r\n\r\n".encode(),
            )
            == 400
        )  # absolute form: another host's URL


def test_names_answered_when_bound_elsewhere() -> None:
    """Bound by the user to another address, the server also answers for that address (or name);
    bound to every interface, for any IP address too (a DNS-rebinding page always comes through a
    name, never an address); never for another name."""

    def answer(bound: str, host: str, port: int = 8000) -> int:
        problem = host_problem([host], port, *host_names(bound))
        return problem[0] if problem else 200

    assert (
        answer("192.168.1.20", "192.168.1.20:8000") == 200
        and answer("192.168.1.20", "localhost:8000") == 200
    )
    assert (
        answer("192.168.1.20", "192.168.1.21:8000") == 421
        and answer("192.168.1.20", "evil.example:8000") == 421
    )
    assert (
        answer("studio.local", "Studio.local:8000") == 200
        and answer("studio.local", "evil.example:8000") == 421
    )
    for everywhere in ("0.0.0.0", "::", ""):
        assert (
            answer(everywhere, "192.168.1.20:8000") == 200
            and answer(everywhere, "[fe80::1]:8000") == 200
        )
        assert (
            answer(everywhere, "evil.example:8000") == 421
            and answer(everywhere, "192.168.1.20:8001") == 421
        )
    assert answer("::1", "[::1]:8000") == 200 and answer("[::1]", "127.0.0.1:8000") == 200
    assert answer("127.0.0.1", "localhost", port=80) == 200  # no port in Host: port 80


# --- the gallery's own folders and pruning
def pictures(tmp_path: Path) -> Path:
    """A folder of the user's own pictures, some named as cardgen names faces, and a cards/ folder
    in it."""
    folder = tmp_path / "Pictures"
    (folder / "cards").mkdir(parents=True)
    for name in (
        "holiday.png",
        "0123456789abcdef0123.png",
        "cat.jpg",
        "cards/abcdef0123456789abcd.png",
    ):
        (folder / name).write_bytes(b"\x89PNG\r\n\x1a\n the user's own " + name.encode())
    return folder


@pytest.mark.parametrize("linked", ["gallery", "gallery/cards"])
@pytest.mark.parametrize("command", ["gallery", "build", "serve"])
def test_a_linked_gallery_or_cards_folder_is_refused_and_nothing_in_it_touched(
    scratch_ws: Workspace, tmp_path: Path, command: str, linked: str
) -> None:
    mine = pictures(tmp_path)
    before = snapshot(mine)
    link = scratch_ws.output_dir("clean") / linked
    link.parent.mkdir(parents=True)
    link.symlink_to(mine, target_is_directory=True)
    result = run(
        scratch_ws, command, "clean", *(["--port", "1"] if command == "serve" else [])
    )  # never listens
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output  # one line
    assert re.search(rf"output/clean/{linked}:? (it )?is a symbolic link", result.output), (
        result.output
    )
    assert "Traceback" not in result.output and snapshot(mine) == before


def test_out_may_not_be_a_link_and_a_real_out_folder_keeps_what_is_not_cardgens(
    scratch_ws: Workspace, tmp_path: Path
) -> None:
    """--out is the user's choice, yet the same rule holds there: never through a link; and in a
    real folder of the user's, only the faces cardgen wrote are ever pruned."""
    mine = pictures(tmp_path)
    (tmp_path / "link").symlink_to(mine, target_is_directory=True)
    before = snapshot(mine)
    result = run(scratch_ws, "gallery", "clean", "--out", str(tmp_path / "link"))
    assert (
        result.exit_code == 2
        and "is a symbolic link (to " in result.output
        and snapshot(mine) == before
    )
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "cards").symlink_to(mine / "cards", target_is_directory=True)
    result = run(scratch_ws, "gallery", "clean", "--out", str(tmp_path / "real"))
    assert result.exit_code == 2 and "real/cards: it is a symbolic link" in result.output, (
        result.output
    )
    (tmp_path / "real" / "cards").unlink()
    before = snapshot(mine)
    assert run(scratch_ws, "gallery", "clean", "--out", str(mine)).exit_code == 0
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(cards.read_text().replace("power: 3", "power: 4"))
    assert run(scratch_ws, "gallery", "clean", "--out", str(mine)).exit_code == 0
    after = snapshot(mine)
    assert {
        k: v for k, v in after.items() if k in before
    } == before  # every picture of the user's, as it was
    assert set(after) - set(before) == {"index.html", MANIFEST} | set(images(mine / "index.html"))


def test_pruning_removes_only_the_faces_cardgen_wrote(scratch_ws: Workspace, gallery: Path) -> None:
    listed = read_manifest(gallery)
    assert listed == set(images(gallery / "index.html")) and len(listed) == 3
    doc = json.loads((gallery / MANIFEST).read_text())
    assert doc == {"format": 1, "written by": "cardgen", "files": sorted(listed)}
    theirs = {
        "holiday.png": b"the user's",
        "fedcba9876543210fedc.png": b"named like a face, not cardgen's",
    }
    for name, data in theirs.items():
        (gallery / "cards" / name).write_bytes(data)
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(cards.read_text().replace("Deal 2 damage", "Deal 3 damage"))
    build_gallery(scratch_ws, "clean")
    now = set(images(gallery / "index.html"))
    assert len(now - listed) == 1 and read_manifest(gallery) == now
    left = {p.name for p in (gallery / "cards").iterdir()}
    assert left == {n.split("/")[1] for n in now} | set(
        theirs
    )  # the superseded face went; theirs stayed
    assert all((gallery / "cards" / n).read_bytes() == d for n, d in theirs.items())


def test_a_hostile_manifest_deletes_nothing_outside_the_faces_folder(
    scratch_ws: Workspace, gallery: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.png").write_bytes(b"precious")
    (victim / "0123456789abcdef0123.png").write_bytes(b"precious too")
    (gallery / "cards" / "0123456789abcdef0123.png").symlink_to(victim / "0123456789abcdef0123.png")
    (gallery / "keep.png").write_bytes(b"beside the page")
    before = snapshot(victim)
    names = [
        "../../../../victim/precious.png",
        str(victim / "precious.png"),
        "cards/../../keep.png",
        "keep.png",
        "index.html",
        "cards/0123456789abcdef0123.png",
        "cards/.hidden.png",
        "cards/a/b.png",
        7,
        None,
    ]
    (gallery / MANIFEST).write_text(json.dumps({"format": 1, "files": names}))
    assert read_manifest(gallery) == {"cards/0123456789abcdef0123.png"}
    result = run(scratch_ws, "gallery", "clean")
    assert result.exit_code == 0, result.output
    assert snapshot(victim) == before and (gallery / "keep.png").read_bytes() == b"beside the page"
    assert (
        gallery / "cards" / "0123456789abcdef0123.png"
    ).is_symlink()  # not cardgen's: left as it is
    assert read_manifest(gallery) == set(images(gallery / "index.html"))


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not json",
        b"\xff\xfe",
        b"[" * 100000,
        b'{"format": 99, "files": []}',
        b'{"format": 1, "files": "cards/x.png"}',
        b"[1, 2]",
        b" " * (17 << 20),
    ],
)
def test_a_damaged_manifest_is_ignored_and_rewritten(
    scratch_ws: Workspace, gallery: Path, content: bytes
) -> None:
    clean = {p: (gallery / p).read_bytes() for p in ("index.html", MANIFEST)}
    (gallery / MANIFEST).write_bytes(content)
    result = run(scratch_ws, "gallery", "clean")
    assert result.exit_code == 0 and "(3 faces rendered)" in result.output, (
        result.output
    )  # none trusted: drawn again
    assert {p: (gallery / p).read_bytes() for p in clean} == clean


def test_a_link_in_place_of_the_manifest_or_a_face_is_refused(
    scratch_ws: Workspace, gallery: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps({"format": 1, "files": []}))
    (gallery / MANIFEST).unlink()
    (gallery / MANIFEST).symlink_to(outside)
    result = run(scratch_ws, "gallery", "clean")
    assert (
        result.exit_code == 2 and "refusing to write" in result.output and MANIFEST in result.output
    )
    assert json.loads(outside.read_text()) == {"format": 1, "files": []}
    (gallery / MANIFEST).unlink()
    build_gallery(scratch_ws, "clean")
    face = gallery / images(gallery / "index.html")[0]
    face.unlink()
    face.symlink_to(outside)
    result = run(scratch_ws, "gallery", "clean")
    assert (
        result.exit_code == 2
        and "refusing to write" in result.output
        and face.name in result.output
    )
    assert json.loads(outside.read_text()) == {"format": 1, "files": []}


def test_the_gallery_is_the_same_for_the_same_input(scratch_ws: Workspace, tmp_path: Path) -> None:
    first = build_gallery(scratch_ws, "clean").outputs[0].path.parent
    kept = snapshot(first)
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    good = cards.read_text()
    cards.write_text(good.replace("power: 3", "power: 4"))
    build_gallery(scratch_ws, "clean")
    cards.write_text(good)
    build_gallery(scratch_ws, "clean")
    assert snapshot(first) == kept
    assert (
        snapshot(build_gallery(scratch_ws, "clean", out=tmp_path / "other").outputs[0].path.parent)
        == kept
    )


# --- the live page keeps its images
def edit(cards: Path, good: str, n: int) -> None:
    """Every card of the clean game changes its face."""
    cards.write_text(
        good.replace("power: 3", f"power: {n + 4}")
        .replace("power: 1", f"power: {n + 2}")
        .replace("Deal 2 damage", f"Deal {n + 3} damage")
    )


def three_pages(ws: Workspace, grace: float) -> tuple[LiveGallery, Path, list[set[str]]]:
    """A live gallery rebuilt three times, every face changing each time; the faces of each page."""
    out = ws.output_dir("clean") / "gallery"
    live = LiveGallery(ws, "clean", out, lambda m: None, grace=grace)
    cards = ws.cards_dir("clean") / "cards.yaml"
    good = cards.read_text()
    pages = []
    for n in range(3):
        edit(cards, good, n)
        live.rebuild()
        pages.append(set(images(out / "index.html")))
    assert (
        not pages[0] & pages[1]
        and not pages[1] & pages[2]
        and (out / "version.txt").read_text().startswith("3-")
    )
    return live, out, pages


def test_the_page_before_keeps_its_faces_for_one_rebuild(scratch_ws: Workspace) -> None:
    live, out, pages = three_pages(scratch_ws, grace=0)
    assert (
        on_disk(out) == pages[1] | pages[2] == read_manifest(out)
    )  # the page before's faces, and no older
    scratch_ws.model_path("clean").write_text("game: [broken\n")
    live.rebuild()  # an error page shows no faces: the last page's are still there when it is fixed
    assert on_disk(out) == pages[1] | pages[2]


def test_older_pages_keep_their_faces_for_the_grace_time(scratch_ws: Workspace) -> None:
    live, out, pages = three_pages(scratch_ws, grace=3600)
    assert on_disk(out) == pages[0] | pages[1] | pages[2]
    live.grace = 0
    live.rebuild()
    live.rebuild()
    assert on_disk(out) == pages[2]  # and then they go


CLIENTS = 50
REBUILDS = 20
VISITS = 25  # at most, per client: at most 50 × 25 × 4 requests in all


def test_no_image_of_a_served_page_is_lost_under_load_while_cards_change(
    scratch_ws: Workspace,
) -> None:
    """Fifty clients on loopback load the page and every image it shows, again and again, while
    every card's face changes twenty times: not one image request of a served page gets a 404."""
    out = scratch_ws.output_dir("clean") / "gallery"
    live = LiveGallery(scratch_ws, "clean", out, lambda m: None)
    live.rebuild()
    seen: Counter[str] = Counter()
    versions: set[str] = set()
    editing = threading.Event()
    done = threading.Event()
    lock = threading.Lock()

    def client(port: int) -> None:
        for visit in range(VISITS):
            if done.is_set() and visit:
                return
            status, page = get(port, "/")
            match = DATA.search(page.decode())
            with lock:
                seen[f"page {status}"] += 1
                if seen["page 200"] >= CLIENTS:
                    editing.set()
            if status != 200 or match is None:
                continue
            data = json.loads(match.group(1))
            with lock:
                versions.add(data["version"])
            for image in (c["image"] for c in data["cards"] if c["image"]):
                code = get(port, f"/{image}")[0]
                with lock:
                    seen[f"image {code}"] += 1

    with running(out) as port:
        clients = [
            threading.Thread(target=client, args=(port,), daemon=True) for _ in range(CLIENTS)
        ]
        for t in clients:
            t.start()
        assert editing.wait(timeout=120), dict(
            seen
        )  # the clients are loading before the cards change
        cards = scratch_ws.cards_dir("clean") / "cards.yaml"
        good = cards.read_text()
        for n in range(REBUILDS):
            edit(cards, good, n)
            live.rebuild()
        done.set()
        for t in clients:
            t.join(timeout=120)
        assert not any(t.is_alive() for t in clients)
    assert set(seen) == {"page 200", "image 200"}, dict(seen)  # no 404, nor anything else
    assert (
        seen["image 200"] == 3 * seen["page 200"] and len(versions) >= 3
    )  # the loads overlapped the rebuilds
    live.grace = 0  # and the faces of pages nobody sees any more do go
    live.rebuild()
    live.rebuild()
    assert on_disk(out) == set(images(out / "index.html"))

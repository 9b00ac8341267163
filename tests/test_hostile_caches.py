"""A game folder from someone else cannot run code or change outputs through output/GAME/.cache:
every cache file is signed plain data, and a planted, forged, damaged or hostile one is ignored and
made again."""

from __future__ import annotations

import marshal
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.core.workspace import Workspace
from cardgen.speed import cache as speed_cache
from cardgen.speed import cachetable

pytestmark = pytest.mark.usefixtures("own_cache_key")  # tests/conftest.py


class _Boom:
    """Unpickling this runs a shell command that leaves a marker file."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (os.system, (f"touch {self.marker}",))


def build(ws: Workspace) -> int:
    result = CliRunner().invoke(main, ["--root", str(ws.root), "build", "clean"])
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result.exit_code


def outputs(ws: Workspace) -> dict[str, bytes]:
    out = ws.output_dir("clean")
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and ".cache" not in p.relative_to(out).parts
    }


def cache_files(ws: Workspace) -> list[Path]:
    return sorted(p for p in (ws.output_dir("clean") / ".cache").rglob("*") if p.is_file())


@pytest.fixture
def built(scratch_ws: Workspace) -> tuple[Workspace, int, dict[str, bytes]]:
    (scratch_ws.root / "output").mkdir()  # so the card parse is kept too
    code = build(scratch_ws)
    assert build(scratch_ws) == code  # warm: every cache in use
    kinds = {p.name.split("-")[0] for p in cache_files(scratch_ws)}
    assert {"cards", "faces", "typeset", "rulebook", "written"} <= kinds, kinds
    assert {p.parent.name for p in cache_files(scratch_ws)} >= {".cache", "png", "report"}
    return scratch_ws, code, outputs(scratch_ws)


def test_planted_pickles_marshal_bombs_and_forgeries_run_nothing_and_change_nothing(
    built: tuple[Workspace, int, dict[str, bytes]], tmp_path: Path
) -> None:
    ws, code, clean = built
    marker = tmp_path / "ran"
    forged_key = b"k" * 32
    real = {p: p.read_bytes() for p in cache_files(ws)}

    def forged(
        path: Path, payload: bytes
    ) -> bytes:  # the right container, signed with another machine's key
        import hashlib
        import hmac

        mac = hmac.new(forged_key, path.name.encode() + b"\0" + payload, hashlib.sha256).digest()
        return speed_cache.MAGIC + mac + payload

    def forged_table(path: Path, header: tuple, values: bytes) -> bytes:
        """A face table of the right layout (speed.cachetable), signed with another key."""
        import hashlib
        import hmac

        head = marshal.dumps(header)
        body = len(head).to_bytes(8, "little") + head + values
        mac = hmac.new(forged_key, path.name.encode() + b"\0" + body, hashlib.sha256).digest()
        return cachetable.MAGIC + body + mac

    hostile = [
        lambda p: pickle.dumps(_Boom(marker)),
        lambda p: (
            b"[\xff\xff\xff\x7f"
        ),  # marshal: a list of 2**31 items (MemoryError when unpacked)
        lambda p: forged(p, marshal.dumps({"format": 6, "faces": {}, "drawn": {}})),
        lambda p: forged(p, pickle.dumps(_Boom(marker))),
        lambda p: forged_table(p, ({"format": 10, "faces": 1}, ("k",), (1,)), b"x"),
        lambda p: real[p][: len(real[p]) // 2],  # truncated
        lambda p: real[p][:-1] + bytes([real[p][-1] ^ 1]),  # one bit flipped
    ]
    files = list(real)
    for shift in range(len(hostile)):  # every kind of file gets every kind of hostile content
        for i, path in enumerate(files):
            path.write_bytes(hostile[(i + shift) % len(hostile)](path))
        for name in (
            "cards-0123456789ab.pickle",
            "faces-0123456789ab.marshal",
            "typeset-0123.pickle",
            "rulebook-0123.pickle",
        ):  # the names earlier versions read
            (ws.output_dir("clean") / ".cache" / name).write_bytes(pickle.dumps(_Boom(marker)))
        assert build(ws) == code
        assert not marker.exists(), "a cache file ran code"
        assert outputs(ws) == clean
        real = {p: p.read_bytes() for p in cache_files(ws)}  # made again
        files = list(real)
    assert not list(
        (ws.output_dir("clean") / ".cache").glob("*.pickle")
    )  # unsigned leftovers are dropped


def test_links_and_fifos_in_the_cache_are_not_followed_nor_waited_on(
    built: tuple[Workspace, int, dict[str, bytes]], tmp_path: Path
) -> None:
    ws, code, clean = built
    secret = tmp_path / "secret.txt"
    secret.write_text("private")
    for i, path in enumerate(cache_files(ws)):
        path.unlink()
        if i % 2:
            path.symlink_to(secret)
        else:
            os.mkfifo(path)
    # in a process of its own, so that a read waiting on a FIFO fails the test instead of hanging it
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "user-cache")}
    done = subprocess.run(
        [sys.executable, "-m", "cardgen", "--root", str(ws.root), "build", "clean"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert secret.read_text() == "private"
    assert outputs(ws) == clean


def test_a_cache_from_another_machine_is_not_read(
    built: tuple[Workspace, int, dict[str, bytes]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws, _, _ = built
    store = speed_cache.Store(ws.output_dir("clean") / ".cache")
    faces = next(p.name for p in cache_files(ws) if p.name.startswith("faces-"))
    table = cachetable.open_table(store.folder, faces)
    assert table is not None and isinstance(table.meta, dict)  # this user's cardgen wrote it
    table.close()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-user"))
    speed_cache.user_key.cache_clear()
    # the same bytes, under another user's key: not trusted
    assert cachetable.open_table(store.folder, faces) is None
    key = speed_cache.key_file()
    assert key.is_file() and key.stat().st_mode & 0o077 == 0  # the key is private to its user
    assert not key.resolve().is_relative_to(ws.root.resolve())


def test_no_cache_builds_the_same_files_and_writes_no_cache(
    built: tuple[Workspace, int, dict[str, bytes]],
) -> None:
    ws, code, clean = built
    import shutil

    shutil.rmtree(ws.output_dir("clean"))
    (ws.output_dir("clean")).mkdir()
    result = CliRunner().invoke(main, ["--root", str(ws.root), "--no-cache", "build", "clean"])
    speed_cache.set_enabled(True)
    assert result.exit_code == code
    assert outputs(ws) == clean
    # nothing kept for a next run: the only files are the book's pictures, working files no run
    # reads back
    assert all(p.suffix == ".png" and p.parent.name == "png" for p in cache_files(ws)), cache_files(
        ws
    )
    assert not any(p.read_bytes().startswith(speed_cache.MAGIC) for p in cache_files(ws))


BUNDLED = {  # game: exports (all of them for the smallest game; the build's own files for all)
    "power-trip": (),
    "aether-duel": ("tts", "cockatrice", "tgc", "mpc", "dtc"),
    "ivion": (),
}


@pytest.mark.slow
def test_every_bundled_game_builds_the_same_files_plain_and_with_every_speed_helper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each bundled game (rules, cards, templates, decks copied into a scratch workspace) built
    plain (--no-cache: no cache, no memo, one process), then with the speed machinery cold (caches
    written, faces laid out and PNGs rendered by helper processes, the book typeset by a twin) and
    warm (every output file gone, the caches kept): the same files, byte for byte, every time.
    About 50 s of CPU, 1.5 min on two busy shared cores: the slowest test, marked slow."""
    import shutil

    from cardgen.render import prefetch, values
    from cardgen.speed.parallel import Pool
    from cardgen.speed.twin import Twin

    from .conftest import REPO

    root = tmp_path / "bundled"
    for folder in ("rules", "cards", "templates", "decks"):
        shutil.copytree(REPO / folder, root / folder)
    # helpers lay Power Trip's faces out whatever the probe's timing on this machine says
    monkeypatch.setattr(prefetch, "HELPERS_PAY_FROM", 0.0)
    asked: list[str] = []
    real_ask, real_fork = Pool.ask, Twin.fork.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(
        Pool,
        "ask",
        lambda pool, work, *a, **k: asked.append(work.__name__) or real_ask(pool, work, *a, **k),
    )

    def fork(cls, work):  # type: ignore[no-untyped-def]
        twin = real_fork(cls, work)
        asked.extend(["twin"] if twin is not None else [])
        return twin

    monkeypatch.setattr(Twin, "fork", classmethod(fork))

    def build(game: str, *flags: str) -> tuple[int, dict[str, bytes]]:
        exports = ["--exports", ",".join(BUNDLED[game])] if BUNDLED[game] else []
        result = CliRunner().invoke(main, ["--root", str(root), *flags, "build", game, *exports])
        assert "Traceback" not in result.output, result.output
        out = root / "output" / game
        return result.exit_code, {
            p.relative_to(out).as_posix(): p.read_bytes()
            for p in sorted(out.rglob("*"))
            if p.is_file() and ".cache" not in p.relative_to(out).parts
        }

    for game in BUNDLED:
        memo_before = values._value_problem.cache_info()  # type: ignore[attr-defined]
        plain = build(game, "--no-cache")
        assert values._value_problem.cache_info() == memo_before  # no memo read or kept
        kept = [p for p in (root / "output" / game / ".cache").rglob("*") if p.is_file()]
        assert asked == [] and not any(p.read_bytes().startswith(speed_cache.MAGIC) for p in kept)
        shutil.rmtree(root / "output" / game)
        assert build(game) == plain, f"{game}: cold caches, helpers and twin"
        assert "twin" in asked and (
            game != "power-trip" or {"_helper", "_render_task"} <= set(asked)
        )
        asked.clear()
        for made in (root / "output" / game).rglob("*"):
            if made.is_file() and ".cache" not in made.relative_to(root / "output" / game).parts:
                made.unlink()
        assert build(game) == plain, f"{game}: warm caches"
        asked.clear()
        assert len(plain[1]) > 90, game


def test_the_store_round_trips_plain_data_and_refuses_the_rest(tmp_path: Path) -> None:
    store = speed_cache.Store(tmp_path)
    data = {"a": [1, 2.5, None, True, "é", b"\x00"], "b": (1, ("x",))}
    assert store.put("thing", data) and store.get("thing") == data
    assert not store.put("code", compile("1", "x", "eval").__class__)  # a type is not plain data
    (tmp_path / "thing-copy").write_bytes((tmp_path / "thing").read_bytes())
    assert (
        store.get("thing-copy") is None
    )  # a file's signature covers its name: no swapping entries
    assert store.put_bytes("blob", b"\x89PNG") and store.get_bytes("blob") == b"\x89PNG"

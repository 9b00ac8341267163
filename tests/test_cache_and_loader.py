"""The face cache re-lays out exactly what an edit affects; the parallel card loader equals the
serial one."""

from __future__ import annotations

import concurrent.futures
import shutil
from pathlib import Path

import pytest

from cardgen.core.workspace import Workspace
from cardgen.load import cards as cards_module
from cardgen.load.cards import read_cards
from cardgen.printrun.printing import SheetOptions, choose_cards, sheet_bytes
from cardgen.project.studio import open_studio, save_disk_cache, with_disk_cache
from cardgen.render import facecache


def laid_out(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Run a print of every design with the disk cache; return the card ids whose faces were laid
    out anew."""
    made: list[str] = []
    original = facecache.FaceCache.put

    def put(self, face):  # type: ignore[no-untyped-def]
        made.append(face.key)
        original(self, face)

    monkeypatch.setattr(facecache.FaceCache, "put", put)
    studio = with_disk_cache(open_studio(ws, "clean"))
    chosen, _, _ = choose_cards(studio, SheetOptions(copies="one"))
    sheet_bytes(studio, SheetOptions(copies="one"), chosen)
    save_disk_cache(studio)
    keys = {studio.prepare(c)[0].key: c.id for c, _ in chosen}
    backs = {b.key for c, _ in chosen if (b := studio.prepare(c)[1]) is not None}
    return sorted(keys.get(k, "back" if k in backs else k) for k in made)


def test_edits_re_lay_out_exactly_the_faces_they_affect(scratch_ws: Workspace, monkeypatch) -> None:
    assert laid_out(scratch_ws, monkeypatch) == ["back", "ember-guard", "firestorm", "tide-caller"]
    assert laid_out(scratch_ws, monkeypatch) == []  # nothing changed: everything from the cache
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(cards.read_text().replace("Deal 2 damage", "Deal 3 damage"))
    assert laid_out(scratch_ws, monkeypatch) == ["firestorm"]  # one card edited
    front = scratch_ws.templates_dir("clean") / "front.yaml"
    front.write_text(front.read_text() + "\n")
    assert laid_out(scratch_ws, monkeypatch) == [
        "ember-guard",
        "firestorm",
        "tide-caller",
    ]  # the front template
    fonts = scratch_ws.root / "fonts"
    fonts.mkdir(exist_ok=True)
    from cardgen.render.fonts import BUNDLED

    for stem in ("Lato-Regular", "Lato-Bold", "CharisSIL-Regular", "Vollkorn-Bold"):
        shutil.copy(
            BUNDLED / f"{stem}.ttf", fonts / f"{stem}.ttf"
        )  # the workspace's own copies win
    assert laid_out(scratch_ws, monkeypatch) == []  # the same bytes: fonts are known by content
    for stem in (
        "Lato-Regular",
        "CharisSIL-Regular",
        "Vollkorn-Bold",
    ):  # other bytes under the same names
        shutil.copy(BUNDLED / "Lato-Bold.ttf", fonts / f"{stem}.ttf")
    assert (
        laid_out(scratch_ws, monkeypatch) != []
    )  # a replaced font re-lays out the faces that use it


def test_the_code_digest_covers_the_layout_code() -> None:
    names = {
        p.relative_to(p.parents[1]).as_posix() if p.parent.name != "cardgen" else p.name
        for p in facecache.code_files()
    }
    assert {
        "core/units.py",
        "model/text.py",
        "model/cost.py",
        "render/richtext.py",
        "render/face.py",
        "render/template.py",
        "render/paint.py",
        "model/specs.py",
        "load/card.py",
        "core/sandbox.py",
    } <= names
    assert not {
        n
        for n in names
        if n.startswith(("packs/", "rulebook/", "gallery/", "export/", "jobs/", "cli/"))
    }


def _digests(package: Path) -> dict[str, str]:
    """The face, card-parse and rulebook cache keys as a copy of the package at `package` computes
    them."""
    code = (
        "from cardgen.render.facecache import code_digest; from cardgen.speed import codekey as k; "
        "print(code_digest(), k.code_digest('cardgen.load.cards', 'cardgen.load.plaindata'), "
        "k.code_digest('cardgen.rulebook.build'))"
    )
    import os
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(package.parent)},
        cwd=package.parent,
    ).stdout.split()
    return dict(zip(("faces", "cards", "book"), out))


def test_editing_a_module_invalidates_exactly_the_caches_that_depend_on_it(tmp_path: Path) -> None:
    """Cache keys come from the import graph: edit a module in a scratch copy of the package and
    only the caches of the code that imports it (directly or not) get a new key."""
    package = tmp_path / "cardgen"
    shutil.copytree(
        Path(facecache.__file__).parents[1],
        package,
        ignore=shutil.ignore_patterns("__pycache__", "data"),
    )
    before = _digests(package)
    expected = {
        "model/specs.py": {"faces", "book"},
        "core/sandbox.py": {"faces", "book"},
        "render/pen.py": {"faces", "book"},
        "load/yamlio.py": {"faces", "cards", "book"},
        "packs/stats.py": set(),
        "cli/main.py": set(),
    }
    for module, changed in expected.items():
        path = package / module
        path.write_text(path.read_text() + "\n# an edit\n")
        after = _digests(package)
        assert {k for k in before if before[k] != after[k]} == changed, module
        before = after


def test_parallel_loading_equals_serial(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "cards" / "big"
    folder.mkdir(parents=True)
    for n in range(6):
        body = "".join(
            f"- name: Card {n}-{i}\n  text: |\n    Line one of {i}.\n    Line two.\n  power: "
            f"{i % 7}\n"
            for i in range(200)
        )
        (folder / f"part{n}.yaml").write_text(body + ("- [broken\n" if n == 3 else ""))
    serial_cat, serial_findings = read_cards("big", folder, tmp_path)
    pools: list[int] = []

    class Spy(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            pools.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Spy)
    monkeypatch.setattr(cards_module, "PARALLEL_BYTES", 0)
    import threading

    monkeypatch.setattr(
        threading, "active_count", lambda: 1
    )  # twin.forkable: as if no other thread ran
    par_cat, par_findings = read_cards("big", folder, tmp_path)
    assert pools == [1]  # the parallel path really ran
    assert par_findings == serial_findings and len(serial_findings) == 1
    assert [(c.id, c.data, c.file, c.line, c.column, c.field_locs) for c in par_cat] == [
        (c.id, c.data, c.file, c.line, c.column, c.field_locs) for c in serial_cat
    ]
    assert len(par_cat) == 1000  # the broken file gives a finding, not cards


def test_png_faces_come_from_the_cache_when_unchanged(scratch_ws: Workspace, monkeypatch) -> None:
    from cardgen.printrun.pngs import PngOptions, export_pngs
    from cardgen.render import raster

    rendered: list[int] = []
    original = raster.render_pngs

    def counting(faces, *args, **kwargs):  # type: ignore[no-untyped-def]
        rendered.append(len(faces))
        return original(faces, *args, **kwargs)

    monkeypatch.setattr(raster, "render_pngs", counting)  # printing imports it when it renders
    out = scratch_ws.root / "output" / "clean" / "png"
    first = export_pngs(open_studio(scratch_ws, "clean"), PngOptions(dpi=72, cache=True), out)
    assert rendered == [4]
    again = export_pngs(open_studio(scratch_ws, "clean"), PngOptions(dpi=72, cache=True), out)
    assert rendered == [4] and len(first.outputs) == len(again.outputs) == 4
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(cards.read_text().replace("Deal 2 damage", "Deal 3 damage"))
    export_pngs(open_studio(scratch_ws, "clean"), PngOptions(dpi=72, cache=True), out)
    assert rendered == [4, 1]  # only the edited card


def test_validate_reuses_the_face_cache_and_survives_a_read_only_workspace(
    scratch_ws: Workspace, monkeypatch
) -> None:
    from cardgen.jobs.findings import validate_game
    from cardgen.render import facecache

    first = validate_game(scratch_ws, "clean")
    assert not (scratch_ws.root / "output").exists()  # validating alone writes nothing
    (scratch_ws.root / "output").mkdir()  # as after a build
    assert validate_game(scratch_ws, "clean").findings == first.findings
    assert list((scratch_ws.output_dir("clean") / ".cache").glob("faces-*"))

    laid_out: list[str] = []
    real = facecache.FaceCache.get

    def get(self, key, template, relayout):  # type: ignore[no-untyped-def]
        face = real(self, key, template, relayout)
        laid_out.append("cached" if face is not None else "new")
        return face

    def cannot_write(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise PermissionError(
            "read-only workspace"
        )  # what creating a file in a read-only folder raises

    import cardgen.core.output

    monkeypatch.setattr(facecache.FaceCache, "get", get)
    monkeypatch.setattr(cardgen.core.output.tempfile, "mkstemp", cannot_write)
    assert validate_game(scratch_ws, "clean").findings == first.findings
    assert laid_out and set(laid_out) == {
        "cached"
    }  # every face from the cache, none laid out again


def test_unchanged_png_faces_are_not_rewritten_and_edited_ones_are(scratch_ws: Workspace) -> None:
    from cardgen.printrun.pngs import PngOptions, export_pngs

    out = scratch_ws.root / "output" / "clean" / "png"
    export_pngs(open_studio(scratch_ws, "clean"), PngOptions(dpi=72, cache=True), out)
    stamps = {p.name: p.stat().st_mtime_ns for p in out.glob("*.png")}
    damaged = out / "firestorm.png"
    damaged.write_bytes(b"not a png")  # a user (or a tool) changed an output file
    export_pngs(open_studio(scratch_ws, "clean"), PngOptions(dpi=72, cache=True), out)
    assert damaged.read_bytes().startswith(b"\x89PNG")  # written again from the cache
    assert {p.name: p.stat().st_mtime_ns for p in out.glob("*.png") if p != damaged} == {
        k: v for k, v in stamps.items() if k != damaged.name
    }  # the others untouched


def test_a_cache_that_cannot_be_written_is_only_read(scratch_ws: Workspace) -> None:
    """Every cache of output/GAME/.cache/ is written best effort: with each cache file's place taken
    by a folder (as a read-only workspace would refuse it), validate and build still run and report
    as usual."""
    from click.testing import CliRunner

    from cardgen.cli.main import main

    def run(*args: str):  # type: ignore[no-untyped-def]
        return CliRunner().invoke(main, ["--root", str(scratch_ws.root), *args])

    assert (
        run("build", "clean").exit_code == 0 and run("build", "clean").exit_code == 0
    )  # the second keeps the cards
    cache = scratch_ws.output_dir("clean") / ".cache"
    kept = [p for p in cache.iterdir() if p.is_file()]
    assert {p.name.split("-")[0] for p in kept} >= {"cards", "faces", "rulebook", "typeset"}
    for path in kept:
        path.unlink()
        path.mkdir()  # the same name, now not writable as a file
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(cards.read_text().replace("Deal 2 damage", "Deal 3 damage"))
    for args in (["validate", "clean"], ["build", "clean"]):
        result = run(*args)
        assert (
            result.exit_code == 0
            and "cannot write" not in result.output
            and "refusing" not in result.output
        ), (args, result.output)
    assert all(p.is_dir() for p in kept)


def test_a_font_touched_but_unchanged_changes_no_byte_of_the_sheets(scratch_ws: Workspace) -> None:
    """Face keys are in the PDF: they name fonts by content, so a reinstall (same bytes, new file
    times) prints the same file; a font that really changed still lays the faces out again (test
    above)."""
    import os

    from click.testing import CliRunner

    from cardgen.cli.main import main
    from cardgen.render.fonts import BUNDLED

    fonts = scratch_ws.root / "fonts"
    fonts.mkdir()
    for stem in ("Lato-Regular", "Lato-Bold", "CharisSIL-Regular", "Vollkorn-Bold"):
        shutil.copy(BUNDLED / f"{stem}.ttf", fonts / f"{stem}.ttf")
    sheets = scratch_ws.output_dir("clean") / "sheets.pdf"

    def build() -> bytes:
        result = CliRunner().invoke(
            main, ["--root", str(scratch_ws.root), "--no-cache", "sheets", "clean"]
        )
        assert result.exit_code in (0, 1), result.output
        return sheets.read_bytes()

    first = build()
    for font in fonts.iterdir():
        os.utime(font, ns=(1_000_000_000, 1_000_000_000))
    assert build() == first


def test_a_code_digest_is_the_same_in_every_process() -> None:
    """The import graph is walked whole whatever order its sets come in: a package's own imports
    were left out when the package was first met as a parent (`validate/__init__`'s modules),
    depending on the process's hash seed, so a build's cache keys changed from run to run (its
    publishing check made again) and could miss a module's change."""
    import os
    import subprocess
    import sys

    from cardgen.speed import codekey

    code = (
        "from cardgen.speed.codekey import code_digest; "
        "print(code_digest('cardgen.kit.pnpcheck', 'cardgen.jobs.pnp'), "
        "code_digest('cardgen.render.face'), code_digest('cardgen.rulebook.build'))"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2", "3", "4", "5")
    }
    assert len(seen) == 1, seen
    # closed under imports: every module a reached module imports is reached
    known = codekey.modules()
    for name in ("cardgen.jobs.pnp", "cardgen.render.face", "cardgen.cli.main"):
        reached = set(codekey.reach(name))
        for module in reached:
            source = known[module].read_text(encoding="utf-8")
            assert codekey.imports_of(module, source, known) <= reached, (name, module)

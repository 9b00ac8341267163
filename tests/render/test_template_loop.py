"""The template loop's speed machinery writes what the plain pipeline writes: faces recorded op by
op equal faces recorded whole; a sheet rebuilt after a template save (elements and their drawings
kept from the last build, helpers' layouts adopted, the background warm-up) is byte for byte the
sheet a plain build of the same files makes."""

from __future__ import annotations

import shutil
from functools import partial
from pathlib import Path

import pytest

from cardgen.core.workspace import Workspace
from cardgen.jobs.sheets import run_sheets
from cardgen.live.warmup import warm_faces
from cardgen.printrun.printing import SheetOptions
from cardgen.project.studio import open_studio
from cardgen.render.paint import draw_face
from cardgen.render.pdfsheets import painter
from cardgen.render.pen import RecordingCanvas, Recordings
from cardgen.speed.memo import Memo

from ..conftest import REPO, TESTS


def _workspace(tmp: Path, source: Path, game_dirs: tuple[str, ...]) -> Workspace:
    root = tmp / "ws"
    for name in game_dirs:
        if (source / name).is_dir():
            shutil.copytree(source / name, root / name)
    return Workspace.find(root)


@pytest.mark.parametrize("game", ["deckbuilder", "lantern"])
def test_faces_recorded_op_by_op_equal_faces_recorded_whole(tmp_path: Path, game: str) -> None:
    ws = _workspace(tmp_path, TESTS / "fixtures" / game, ("rules", "cards", "templates"))
    studio = open_studio(ws, game)
    canvas = RecordingCanvas(studio.fonts)
    compared = 0
    for card in studio.designs(printable=True):
        for bleed in (None, 0.0):
            front, back = studio.prepare(card, bleed)
            for face in [front, *([back] if back else [])]:
                whole = list(
                    canvas.record(
                        partial(draw_face, face=face, fonts=studio.fonts, model=studio.model)
                    )
                )
                per_op = Recordings(studio.fonts).face(
                    face, painter(face, studio.fonts, studio.model)
                )
                assert per_op == whole, (card.id, face.template.name)
                compared += 1
    assert compared >= 12


def _sheet(ws: Workspace) -> bytes:
    result = run_sheets(ws, "power-trip", SheetOptions())
    return next(o.path for o in result.outputs if o.path.suffix == ".pdf").read_bytes()


EDITS = [  # a var's value, an element moved, an element's colour: what a designer saves
    ('paper: "#fffcf4"', 'paper: "#fffbe8"'),
    ("{id: name-bar, type: rect, x: 3.8mm", "{id: name-bar, type: rect, x: 4.2mm"),
    ('fill: "#7c1d1d"', 'fill: "#8c2020"'),
]


def test_a_sheet_rebuilt_after_template_saves_is_the_plain_build_s(tmp_path: Path) -> None:
    live = _workspace(tmp_path / "live", REPO, ("rules", "cards", "templates"))
    plain = _workspace(tmp_path / "plain", REPO, ("rules", "cards", "templates"))
    front = Path("templates/power-trip/front.yaml")
    _sheet(live)  # the first build: layouts kept, helpers' adopted
    assert warm_faces(live, "power-trip", lambda: False) >= 0  # the watch loop's warm-up
    text = (live.root / front).read_text()
    for old, new in EDITS:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
        (live.root / front).write_text(text)
        (plain.root / front).write_text(text)
        rebuilt = _sheet(live)
        assert rebuilt == _plain_sheet(plain.root), (old, new)


def _plain_sheet(root: Path) -> bytes:
    """The sheet a fresh process makes with the speed machinery off (no memo, cache or helper)."""
    import subprocess
    import sys

    shutil.rmtree(root / "output", ignore_errors=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "cardgen",
            "--no-cache",
            "--root",
            str(root),
            "sheets",
            "power-trip",
        ],
        check=False,
        capture_output=True,
        cwd=root,
        env={**__import__("os").environ, "PYTHONPATH": str(REPO)},
    )
    return (root / "output" / "power-trip" / "sheets.pdf").read_bytes()


def test_a_helper_s_answers_come_back_to_the_memo() -> None:
    memo: Memo[int] = Memo(10)
    memo.journal()
    memo.get("a", lambda: 1)
    memo.get("b", lambda: 2)
    made = memo.made()
    assert made == [("a", 1), ("b", 2)] and memo.made() == []
    other: Memo[int] = Memo(10)
    other.adopt(made)
    assert other.get("a", lambda: 99) == 1 and other.get("b", lambda: 99) == 2

"""A template saved under `build --watch` and `sheets --watch` (a live process: speed.live keeps
each rebuild's layouts, template vars are remembered by what they read, the findings are worked out
by a forked helper beside the sheets): every file the rebuild writes is, byte for byte, the file a
cold build of the same files writes with the speed machinery off."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterator

import pytest

from cardgen.core.workspace import Workspace
from cardgen.jobs.build import BuildOptions, LiveBuild, build_game
from cardgen.jobs.sheets import run_sheets
from cardgen.live.warmup import warm_faces
from cardgen.printrun.printing import SheetOptions
from cardgen.speed.cache import set_enabled
from cardgen.speed.live import go_live, is_live
from cardgen.speed.parallel import forkable

from ..conftest import REPO, cardgen_process

FRONT = "templates/clean/front.yaml"
CARDS = "cards/clean/cards.yaml"
EDITS = [  # a colour, an element moved, a var added and then changed: what a designer saves
    ('fill: "#ffffff"}', 'fill: "#fffbe8"}'),
    ("{id: name, type: text, x: 5mm", "{id: name, type: text, x: 5.4mm"),
    ("elements:\n", 'vars: {ink: "#202020"}\nelements:\n'),
    (
        'text: "{{ card.faction }}", font: body',
        'text: "{{ card.faction }}", color: "{{ vars.ink }}", font: body',
    ),
    ('vars: {ink: "#202020"}', 'vars: {ink: "#402020"}'),
    ("Deal 2 damage", "Deal 7 damage"),  # and a card: its model and cards are read again
]


@pytest.fixture
def live() -> Iterator[None]:
    go_live()
    yield
    go_live(False)


def _files(ws: Workspace, game: str) -> dict[str, bytes]:
    out = ws.output_dir(game)
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and ".cache" not in p.parts
    }


def _cold(ws: Workspace, job) -> None:  # type: ignore[no-untyped-def]
    """`job` in a fresh output folder with the speed machinery off (no memo, cache or helper)."""
    shutil.rmtree(ws.root / "output", ignore_errors=True)
    set_enabled(False)
    try:
        job()
    finally:
        set_enabled(True)


def _copy(ws: Workspace, to: Path) -> Workspace:
    return Workspace.find(
        shutil.copytree(ws.root, to, symlinks=True, ignore=shutil.ignore_patterns("output"))
    )


def _save(ws: Workspace, old: str, new: str) -> None:
    path = ws.root / (CARDS if old.startswith("Deal") else FRONT)
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def test_a_live_build_after_template_saves_writes_what_a_cold_build_writes(
    scratch_ws: Workspace, tmp_path: Path, live: None
) -> None:
    assert is_live()
    opts = BuildOptions(kit=False)  # a live build leaves the print-and-play kit to a full build
    loop = LiveBuild(scratch_ws, "clean", opts)
    first = loop()
    if first.later is not None:
        first.later()
    loop.warm()
    warm_faces(scratch_ws, "clean", lambda: False)  # the watch loop's warm-up
    cold = _copy(scratch_ws, tmp_path / "cold")
    try:
        for old, new in EDITS:
            _save(scratch_ws, old, new)
            _save(cold, old, new)
            again = loop()
            later = again.later() if again.later is not None else None
            _cold(cold, lambda: build_game(cold, "clean", opts))
            warm, plain = _files(scratch_ws, "clean"), _files(cold, "clean")
            assert sorted(warm) == sorted(plain), new
            for name in plain:
                assert warm[name] == plain[name], (new, name)
            assert again.findings == (later.findings if later else again.findings)
    finally:
        loop.close()


def test_a_live_sheet_run_after_template_saves_writes_what_a_cold_run_writes(
    tmp_path: Path, live: None
) -> None:
    """Power Trip (its front's vars: one changed re-renders no other) with the findings worked out
    by a helper beside the sheets: the sheets and every finding are a cold run's."""
    root = tmp_path / "live"
    for part in ("rules", "cards", "templates"):
        shutil.copytree(REPO / part, root / part)
    ws = Workspace.find(root)
    cold = _copy(ws, tmp_path / "cold")
    front = "templates/power-trip/front.yaml"
    run_sheets(ws, "power-trip", SheetOptions())
    warm_faces(ws, "power-trip", lambda: False)
    assert forkable(), "no helper can be forked here: the findings would not be worked out beside"
    for old, new in [('paper: "#fffcf4"', 'paper: "#fffbe8"'), ("h: 5.6mm", "h: 6.1mm")]:
        for where in (ws, cold):
            text = (where.root / front).read_text()
            assert text.count(old) == 1, old
            (where.root / front).write_text(text.replace(old, new))
        again = run_sheets(ws, "power-trip", SheetOptions())
        plain: list = []
        _cold(cold, lambda out=plain: out.append(run_sheets(cold, "power-trip", SheetOptions())))
        assert _files(ws, "power-trip") == _files(cold, "power-trip"), new
        assert again.findings == plain[0].findings and again.notes == plain[0].notes
        assert again.written_at is not None and plain[0].written_at is None


def test_a_live_sheet_run_writes_its_pdf_before_it_waits_for_its_findings(
    scratch_ws: Workspace, live: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The PDF is on disk when the run starts collecting the helper's findings (a designer's PDF
    viewer reloads sooner), and `sheets --watch` says both times."""
    import re
    import subprocess
    import time

    from cardgen.jobs import sheets

    pdf = scratch_ws.output_dir("clean") / "sheets.pdf"
    run_sheets(scratch_ws, "clean", SheetOptions())
    pdf.unlink()
    seen: list[bool] = []
    real = sheets._Beside.__call__

    def collecting(self):  # type: ignore[no-untyped-def]
        seen.append(pdf.is_file())
        return real(self)

    monkeypatch.setattr(sheets._Beside, "__call__", collecting)
    _save(scratch_ws, 'fill: "#ffffff"}', 'fill: "#fffbe8"}')
    result = run_sheets(scratch_ws, "clean", SheetOptions())
    assert seen == [True] and result.written_at is not None
    monkeypatch.undo()
    log = scratch_ws.root / "watch.log"
    root = str(scratch_ws.root)
    with (
        log.open("w") as out,
        cardgen_process(
            "--root", root, "sheets", "clean", "--watch", stdout=out, stderr=subprocess.STDOUT
        ),
    ):
        deadline = time.monotonic() + 120
        for waited, then in (("watching", True), ("after the save", False)):
            while waited not in log.read_text() and time.monotonic() < deadline:
                time.sleep(0.2)
            if then:  # the loop listens: a save now is a rebuild
                time.sleep(0.5)
                _save(scratch_ws, 'fill: "#fffbe8"}', 'fill: "#fff8e0"}')
    said = re.search(
        r"written ([0-9.]+) s after the save, its findings ([0-9.]+) s; watching", log.read_text()
    )
    assert said is not None, log.read_text()[-2000:]
    assert float(said.group(1)) <= float(said.group(2))


def test_a_live_sheet_run_whose_findings_helper_is_lost_finds_what_a_cold_run_finds(
    tmp_path: Path, live: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The helper judging the faces ends mid-rebuild (killed): this process works the faces'
    findings out itself, beside the rest it worked out meanwhile, and the sheets and findings are
    still a cold run's."""
    import os

    from cardgen.jobs import sheets

    root = tmp_path / "live"
    for part in ("rules", "cards", "templates"):
        shutil.copytree(REPO / part, root / part)
    ws = Workspace.find(root)
    cold = _copy(ws, tmp_path / "cold")
    run_sheets(ws, "power-trip", SheetOptions())
    assert forkable(), "no helper can be forked here: the findings would not be worked out beside"
    monkeypatch.setattr(sheets, "_faces_judged", lambda studio: os._exit(1))
    front = "templates/power-trip/front.yaml"
    for where in (ws, cold):
        text = (where.root / front).read_text()
        (where.root / front).write_text(text.replace('paper: "#fffcf4"', 'paper: "#fffbe8"'))
    again = run_sheets(ws, "power-trip", SheetOptions())
    plain: list = []
    _cold(cold, lambda out=plain: out.append(run_sheets(cold, "power-trip", SheetOptions())))
    assert _files(ws, "power-trip") == _files(cold, "power-trip")
    assert again.findings == plain[0].findings and again.notes == plain[0].notes
    assert plain[0].findings  # Power Trip's faces have findings: the comparison is not empty


def test_a_live_sheet_runs_contrast_measures_are_not_on_the_way_to_its_pdf(
    tmp_path: Path, live: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a save of Power Trip's front (enough faces for the prefetch to lay them out), the
    contrast guard measures the new faces in the findings helper, or here once the PDF is written:
    nothing is measured here before the PDF is on disk."""
    from cardgen.render import contrast

    root = tmp_path / "live"
    for part in ("rules", "cards", "templates"):
        shutil.copytree(REPO / part, root / part)
    ws = Workspace.find(root)
    pdf = ws.output_dir("power-trip") / "sheets.pdf"
    run_sheets(ws, "power-trip", SheetOptions())
    assert forkable(), "no helper can be forked here: the findings would not be worked out beside"
    pdf.unlink()
    seen: list[bool] = []
    real = contrast._measure_plans

    def measuring(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(pdf.is_file())
        return real(*args, **kwargs)

    monkeypatch.setattr(contrast, "_measure_plans", measuring)
    front = root / "templates/power-trip/front.yaml"
    front.write_text(front.read_text().replace('paper: "#fffcf4"', 'paper: "#fffbe8"', 1))
    result = run_sheets(ws, "power-trip", SheetOptions())
    assert result.written_at is not None
    assert all(seen), "a face was measured here before the PDF was written"

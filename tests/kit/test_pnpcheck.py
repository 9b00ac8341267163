"""The publishing check: a game's print-and-play set (written as build writes it) passes; each
kind of problem a publisher would be embarrassed by fails its own check; the command's text, JSON
and exit codes; build's summary lines."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from cardgen.core.options import STANDARD
from cardgen.core.workspace import Workspace
from cardgen.jobs.pnp import pnp_checks, pnp_folder, write_pnp_set
from cardgen.kit.pnpcheck import set_names
from cardgen.printrun.printing import SheetOptions, choose_cards, sheet_bytes
from cardgen.project.studio import open_studio

from ..conftest import FIXTURE_WS


def cardgen(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardgen", "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the fixture workspace with the clean game's print-and-play set written."""
    root = tmp_path_factory.mktemp("pnp") / "ws"
    shutil.copytree(FIXTURE_WS, root, ignore=shutil.ignore_patterns("fonts"))
    studio = open_studio(Workspace.find(root), "clean")
    outputs, _ = write_pnp_set(studio)
    names = {o.path.name for o in outputs}
    assert names >= {"clean-cards.pdf", "clean-cards-one-sided.pdf", "clean-cards-low-ink.pdf"}
    return root


def statuses(root: Path) -> dict[str, str]:
    studio = open_studio(Workspace.find(root), "clean")
    return {c.name: c.status for c in pnp_checks(studio)}


def test_the_set_as_build_writes_it_passes(made: Path) -> None:
    got = statuses(made)
    assert got.pop("tokens") == "none"  # the game declares none
    assert set(got.values()) == {"ok"}, got


def test_each_problem_fails_its_check(made: Path, tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(made, root)
    folder = pnp_folder(Workspace.find(root), "clean")
    names = set_names("clean")
    studio = open_studio(Workspace.find(root), "clean")
    # cards laid out for A4: they do not fit Letter
    opts = SheetOptions(paper=STANDARD["a4"])
    (folder / names["cards"]).write_bytes(
        sheet_bytes(studio, opts, choose_cards(studio, opts)[0]).pdf
    )
    (folder / names["one-sided"]).unlink()
    buffer = io.BytesIO()  # a box drawn with a font that is not embedded (Helvetica)
    c = Canvas(buffer, pagesize=STANDARD["universal"].size)
    c.setFont("Helvetica", 12)
    c.drawString(100, 100, "box")
    c.line(1, 1, 50, 50)  # and a line at the paper's very edge
    c.showPage()
    c.save()
    (folder / names["box"]).write_bytes(buffer.getvalue())
    got = statuses(root)
    assert got["fits A4 and Letter"] == "fail"
    assert got["one-sided version"] == "fail"
    assert got["fonts embedded"] == "fail"
    assert got["ink-saving version"] == "ok"
    done = cardgen(root, "pnp-check", "clean", "--format", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    failed = {c["check"] for c in report["checks"] if c["status"] == "fail"}
    assert failed == {"fits A4 and Letter", "one-sided version", "fonts embedded"}
    fits = next(c for c in report["checks"] if c["check"] == "fits A4 and Letter")
    assert any("clean-cards.pdf page 1 is 210.0 x 297.0 mm" in p for p in fits["data"]["problems"])
    assert any("clean-box.pdf page 1: a line reaches" in p for p in fits["data"]["problems"])
    assert "findings" not in done.stderr  # the clean game's data has none: the checks decide


def test_the_checklist_as_text_and_its_exit_code(made: Path) -> None:
    done = cardgen(made, "pnp-check", "clean")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "print-and-play check of clean:"
    assert any(line.startswith("  [ok]   fits A4 and Letter: every page") for line in lines)
    assert any(line.startswith("  [--]   tokens:") for line in lines)
    assert lines[-1].endswith("0 failed")
    missing = cardgen(made, "pnp-check", "clean", "--format", "yaml")
    assert missing.returncode == 2  # a usage error


def test_a_game_with_no_set_yet_fails_and_says_how(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE_WS, root, ignore=shutil.ignore_patterns("fonts"))
    done = cardgen(root, "pnp-check", "clean")
    assert done.returncode == 1
    assert "[FAIL] files:" in done.stdout and "cardgen build makes it" in done.stdout


def test_a_file_cut_short_fails_its_checks_and_says_so(made: Path, tmp_path: Path) -> None:
    """A set file that is no whole PDF (a copy cut short) is a failed check, exit 1, not a crash."""
    root = tmp_path / "ws"
    shutil.copytree(made, root)
    one_sided = pnp_folder(Workspace.find(root), "clean") / set_names("clean")["one-sided"]
    one_sided.write_bytes(one_sided.read_bytes()[:4000])
    done = cardgen(root, "pnp-check", "clean")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "internal error" not in done.stderr
    lines = {line.split(":")[0]: line for line in done.stdout.splitlines()}
    assert "clean-cards-one-sided.pdf is not a whole PDF (" in lines["  [FAIL] files"]
    assert lines["  [FAIL] one-sided version"].endswith(
        "clean-cards-one-sided.pdf is not a whole PDF (cardgen build makes it)"
    )
    assert lines["  [ok]   ink-saving version"]


def test_the_box_and_tokens_commands(made: Path) -> None:
    done = cardgen(made, "box", "clean", "--paper", "universal", "--style", "two-piece")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "output/clean/box.pdf" in done.stdout and "universal" in done.stdout
    assert "inside" in done.stdout and "(tray and lid)" in done.stdout
    assert "sleeves: 63 x 88 mm cards fit standard card game sleeves (63.5 x 88 mm)" in done.stdout
    bad = cardgen(made, "box", "clean", "--stock", "12pt")
    assert bad.returncode == 2 and "ambiguous" in bad.stderr
    lists = cardgen(made, "box", "clean", "--per", "lists")  # the clean game has no deck list
    assert lists.returncode == 0 and "no box made" in lists.stdout
    tokens = cardgen(made, "tokens", "clean")
    assert tokens.returncode == 0 and "no tokens" in tokens.stdout


def test_an_unchanged_set_is_not_read_back_again(made: Path, tmp_path: Path, monkeypatch) -> None:
    """The checklist and the toner line are kept in the game's cache by the files' bytes: a second
    check of the same set reads no PDF and measures no page, and says the same; a changed file is
    read again."""
    from cardgen.jobs import pnp

    root = tmp_path / "ws"
    shutil.copytree(made, root)
    studio = open_studio(Workspace.find(root), "clean")
    first = pnp_checks(studio)
    folder = pnp_folder(studio.ws, "clean")
    pdf = (folder / set_names("clean")["cards"]).read_bytes()
    line = pnp.toner_line(pdf, 3, True, None, pnp._store(studio))
    read: list[int] = []
    real = pnp.read_pdf

    def reading(data: bytes, text: bool = False):  # type: ignore[no-untyped-def]
        read.append(len(data))
        return real(data, text)

    def measuring(data: bytes, dpi: int = 24):  # type: ignore[no-untyped-def]
        raise AssertionError("measured again")

    monkeypatch.setattr(pnp, "read_pdf", reading)
    monkeypatch.setattr(pnp, "coverage", measuring)
    again = open_studio(Workspace.find(root), "clean")
    assert pnp_checks(again) == first and read == []
    assert pnp.toner_line(pdf, 3, True, None, pnp._store(again)) == line
    monkeypatch.undo()
    box = folder / set_names("clean")["box"]
    box.write_bytes(box.read_bytes()[:3000])  # cut short: a failed check, found anew
    monkeypatch.setattr(pnp, "read_pdf", reading)
    changed = {c.name: c.status for c in pnp_checks(again)}
    assert len(read) == len(first[0].data) and changed["files"] == "fail"


def test_a_coarse_picture_is_named_by_its_file_and_page(made: Path, tmp_path: Path) -> None:
    """The designer's trial #4: the check named the file, not where in it the picture is."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    root = tmp_path / "ws"
    shutil.copytree(made, root)
    folder = pnp_folder(Workspace.find(root), "clean")
    picture = io.BytesIO()
    Image.new("RGB", (20, 30), "#884422").save(picture, "PNG")
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=STANDARD["universal"].size)
    c.showPage()  # page 1 empty, the coarse picture on page 2
    c.drawImage(ImageReader(io.BytesIO(picture.getvalue())), 100, 100, 200, 300)
    c.showPage()
    c.save()
    (folder / set_names("clean")["box"]).write_bytes(buffer.getvalue())
    studio = open_studio(Workspace.find(root), "clean")
    (check,) = [c for c in pnp_checks(studio) if c.name == "image resolution"]
    assert check.status == "fail"
    assert "lowest at 7 dpi (clean-box.pdf, page 2; validate's art-low-resolution names" in (
        check.detail
    )

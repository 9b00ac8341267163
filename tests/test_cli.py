"""The command line: output formats, exit codes, workspace selection, never a traceback."""

from __future__ import annotations

import json
import subprocess

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main

from .conftest import FIXTURE_WS


def run(*args: str, root=FIXTURE_WS):
    return CliRunner().invoke(main, ["--root", str(root), *args], catch_exceptions=False)


def test_validate_clean_exits_zero() -> None:
    result = run("validate", "clean")
    assert result.exit_code == 0
    assert result.output == "clean: 3 designs in 1 file: 0 errors, 0 warnings, 0 info\n"


def test_validate_broken_text_is_compiler_style() -> None:
    result = run("validate", "broken")
    assert result.exit_code == 1
    assert (
        "cards/broken/cards.yaml:18:3: error[unknown-value] typo-faction: unknown faction 'Rde' "
        "(did you mean 'Red'?)" in result.output.splitlines()
    )
    assert result.output.splitlines()[-1].startswith("broken: ")
    assert " in 7 files: " in result.output.splitlines()[-1]


def test_validate_json() -> None:
    result = run("validate", "broken", "--format", "json")
    data = json.loads(result.output)
    assert data["game"] == "broken" and result.exit_code == 1
    assert set(data["findings"][0]) >= {
        "severity",
        "code",
        "message",
        "file",
        "line",
        "column",
        "card",
    }
    assert data["counts"]["error"] == sum(f["severity"] == "error" for f in data["findings"])


def test_strict_fails_on_warnings(tmp_path) -> None:
    assert run("validate", "clean", "--strict").exit_code == 0
    result = run("validate", "badmodel", "--strict")
    assert result.exit_code == 1


def test_unknown_game_is_a_usage_error() -> None:
    result = run("validate", "clea")
    assert result.exit_code == 2
    assert "no game 'clea'" in result.output and "did you mean 'clean'?" in result.output


def test_not_a_workspace(tmp_path) -> None:
    result = run("validate", "x", root=tmp_path)
    assert result.exit_code == 2 and "not a cardgen workspace" in result.output


def test_root_from_environment(monkeypatch) -> None:
    monkeypatch.setenv("CARDGEN_ROOT", str(FIXTURE_WS))
    result = CliRunner().invoke(main, ["games"])
    assert result.output.splitlines() == [
        "badmodel         Broken Model",
        "broken           Clean Test Game",
        "clean            Clean Test Game",
    ]


def test_show_card() -> None:
    result = run("show", "clean", "Firestorm")
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "Firestorm  [firestorm]  cards/clean/cards.yaml:11:3"
    assert "  cost     RRR    (12:3)" in result.output


def test_show_unknown_card_suggests() -> None:
    result = run("show", "clean", "Firestrom")  # the argument is wrong, not the data: usage
    assert result.exit_code == 2 and "did you mean 'Firestorm'?" in result.output


def test_show_finds_a_card_by_its_name_in_another_language() -> None:
    from .conftest import TESTS

    result = CliRunner().invoke(
        main, ["--root", str(TESTS / "fixtures" / "editions"), "show", "editions", "glutwächter"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Ember Warden  [ember-warden]")


@pytest.mark.parametrize("buffered", [True, False])
def test_output_piped_into_a_reader_that_leaves_is_not_an_error(buffered: bool) -> None:
    """`cardgen draft … | head -1`: the reader leaves after one line, the rest of the output (84 KB,
    more than a pipe holds) has nowhere to go, and that is not an error. Standard output is
    block-buffered as in a user's shell (then the write that finds the reader gone fails), and
    unbuffered as under PYTHONUNBUFFERED=1 (which some CI systems set)."""
    import os

    from .conftest import REPO, cardgen_process

    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    args = ["--root", str(REPO), "draft", "power-trip", "--players", "4", "--seed", "1"]
    with cardgen_process(
        *args, "--format", "csv", stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    ) as draft:
        assert draft.stdout is not None
        first = draft.stdout.readline()  # read one line, then leave, like `| head -1`
        draft.stdout.close()
        _, err = draft.communicate(timeout=300)
        assert first.startswith(b"seed,seat,") and draft.returncode == 0, err.decode()
        assert b"internal error" not in err and b"Traceback" not in err


def test_the_real_entry_point_takes_root_anywhere(tmp_path) -> None:
    """`cardgen` as installed (python -m cardgen runs the same `run()`), with --root after the
    command."""
    import subprocess
    import sys

    from .conftest import FIXTURE_WS

    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "cardgen", "validate", "clean", "--root", str(FIXTURE_WS)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "clean: 3 designs in 1 file: 0 errors" in done.stdout, done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "cardgen", f"--root={FIXTURE_WS}", "validate", "broken"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 1 and "error[" in done.stdout and "Traceback" not in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "cardgen", "validate", "clean"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 2 and "no cardgen workspace here" in done.stderr


def test_export_and_rulebook_exit_by_the_cards_errors_as_a_print_run_does(scratch_ws) -> None:  # type: ignore[no-untyped-def]
    """A picture too coarse to print (an error of the card's face) and a value of the wrong type
    (an error of its data): the export and the book are written, counted, and exit 1, as
    `sheets` does; the clean game exits 0."""
    from PIL import Image

    root = scratch_ws.root
    assert run("export", "clean", "--to", "tts", root=root).exit_code == 0
    (root / "art").mkdir()
    Image.new("RGB", (20, 10), (120, 90, 60)).save(root / "art" / "tiny.png")
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(
        cards.read_text().replace("  kind: Spell\n", "  kind: Spell\n  art: art/tiny.png\n", 1)
    )
    for args in (("export", "clean", "--to", "tts"), ("rulebook", "clean"), ("sheets", "clean")):
        done = run(*args, root=root)
        assert done.exit_code == 1, (args, done.output)
    assert (scratch_ws.output_dir("clean") / "export" / "tts" / "clean.json").is_file()
    cards.write_text(
        cards.read_text()
        .replace("  art: art/tiny.png\n", "", 1)
        .replace("power: 3", "power: three", 1)
    )
    for args in (("export", "clean", "--to", "tts"), ("rulebook", "clean")):
        done = run(*args, root=root)
        assert done.exit_code == 1 and "1 error" in done.output, (args, done.output)

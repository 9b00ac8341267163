"""Reprint only what changed: versions on every face, `sheets --changed-since REF` and `cardgen
changes`."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.cli.main import main
from cardgen.core.workspace import Workspace
from cardgen.project.changes import card_version
from cardgen.project.loaded import load_game

from .conftest import TESTS
from .placed import placed_faces

LANTERN = TESTS / "fixtures" / "lantern"


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(root), "-c", "user.email=t@example.org", "-c", "user.name=t", *args],
        check=True,
        capture_output=True,
        timeout=60,
    )


def edit(root: Path, old: str, new: str, message: str) -> None:
    cards = root / "cards" / "lantern" / "cards.yaml"
    text = cards.read_text()
    assert old in text
    cards.write_text(text.replace(old, new))
    git(root, "commit", "-qam", message)


@pytest.fixture
def history(tmp_path: Path) -> Path:
    """The sample game in a git repository of its own: a base commit, then two commits changing one
    card each."""
    root = tmp_path / "ws"
    shutil.copytree(LANTERN, root)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    edit(
        root,
        'text: "Pay {E/G} or {St}: gain 1."',
        'text: "Pay {E/G} or {St}: gain 2."',
        "warden gains more",
    )
    edit(root, 'cost: "{St}{St}"', 'cost: "{St}{St}{St}"', "idol costs more")
    return root


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_changed_since_prints_exactly_the_changed_designs_after_a_change_log(history: Path) -> None:
    out = history / "out.pdf"
    result = run(
        "--root", str(history), "sheets", "lantern", "--changed-since", "HEAD~2", "--out", str(out)
    )
    assert result.exit_code == 1, (
        result.output
    )  # the sample's own data error (cost-faction): the sheet is written
    assert "change log of 2 cards since HEAD~2, 2 copies of 2 designs" in result.output
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    log = reader.pages[0].extract_text()
    assert "Changes since HEAD~2" in log and "Ashgrove Warden" in log and "Stone Idol" in log
    assert "gain 1." in log and "gain 2." in log and "{St}{St}{St}" in log
    assert (
        reader.pages[1].extract_text() == ""
    )  # a blank back keeps the sheets' fronts and backs paired
    front = reader.pages[2]
    assert len(placed_faces(front)) == 2  # exactly the two changed designs
    text = front.extract_text()
    assert "Ashgrove Warden" in text and "Stone Idol" in text and "Tidecaller" not in text
    assert len(reader.pages) == 4

    one = run(
        "--root", str(history), "sheets", "lantern", "--changed-since", "HEAD~1", "--out", str(out)
    )
    assert "change log of 1 card since HEAD~1, 1 copy of 1 design" in one.output
    assert "Stone Idol" in PdfReader(io.BytesIO(out.read_bytes())).pages[2].extract_text()


def test_nothing_changed_writes_nothing_and_says_so(history: Path) -> None:
    result = run("--root", str(history), "sheets", "lantern", "--changed-since", "HEAD")
    assert result.exit_code == 0 and "no card added, changed or removed since HEAD" in result.output
    assert not list(history.rglob("*.pdf"))


def test_changes_as_text_and_json_with_added_and_removed_cards(history: Path) -> None:
    cards = history / "cards" / "lantern" / "cards.yaml"
    text = cards.read_text()
    start = text.index("- name: Tidecaller")
    end = text.index("- name: Stone Idol")
    cards.write_text(
        text[:start] + text[end:] + "- name: Moth Lantern\n  suits: [Embers]\n  type: Relic\n"
    )
    listed = run("--root", str(history), "changes", "lantern", "HEAD~2")
    assert listed.exit_code == 0
    lines = listed.output.splitlines()
    assert lines[0] == "4 cards added, changed or removed since HEAD~2:"
    assert [line.split()[0] for line in lines if not line.startswith(" ")][1:] == [
        "changed",
        "changed",
        "added",
        "removed",
    ]
    data = json.loads(
        run("--root", str(history), "changes", "lantern", "HEAD~2", "--format", "json").output
    )
    by_id = {c["id"]: c for c in data["changes"]}
    assert by_id["ashgrove-warden"]["fields"] == [
        {"field": "text", "old": "Pay {E/G} or {St}: gain 1.", "new": "Pay {E/G} or {St}: gain 2."}
    ]
    assert by_id["moth-lantern"]["status"] == "added" and by_id["tidecaller"]["status"] == "removed"
    assert by_id["ashgrove-warden"]["old_version"] != by_id["ashgrove-warden"]["new_version"]


def test_without_git_or_with_a_bad_revision_a_clear_error(tmp_path: Path, history: Path) -> None:
    plain = tmp_path / "plain"
    shutil.copytree(LANTERN, plain)
    no_repo = run("--root", str(plain), "changes", "lantern", "HEAD")
    assert no_repo.exit_code == 2 and "not in a git repository" in no_repo.output
    bad = run("--root", str(history), "sheets", "lantern", "--changed-since", "v9")
    assert bad.exit_code == 2 and "'v9' is not a revision" in bad.output


def test_versions_are_declared_or_derived_and_printed_on_every_front(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(LANTERN, root)
    model = root / "rules" / "lantern" / "game.yaml"
    model.write_text(
        model.read_text().replace(
            "  number: {type: number, role: number}",
            "  number: {type: number, role: number}\n  printing: {type: text, role: version}",
        )
    )
    cards = root / "cards" / "lantern" / "cards.yaml"
    cards.write_text(
        cards.read_text().replace("  number: LC-002", "  number: LC-002\n  printing: '3'")
    )
    loaded = load_game(Workspace.find(root), "lantern")
    assert loaded.model is not None
    versions = {c.name: card_version(c, loaded.model) for c in loaded.catalog.cards}
    assert (
        versions["Tidecaller"] == "v3"
        and versions["Stone Idol"].startswith("#")
        and len(versions["Stone Idol"]) == 7
    )
    out = root / "sheets.pdf"
    result = run("--root", str(root), "sheets", "lantern", "--copies", "one", "--out", str(out))
    assert result.exit_code in (0, 1), result.output
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(out.read_bytes())).pages)
    assert all(v in text for v in versions.values())
    run(
        "--root",
        str(root),
        "sheets",
        "lantern",
        "--copies",
        "one",
        "--no-versions",
        "--out",
        str(out),
    )
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(out.read_bytes())).pages)
    assert not any(v in text for v in versions.values())


def test_cards_sharing_an_id_are_paired_in_file_order_not_reported_as_changed(
    tmp_path: Path,
) -> None:
    """Power Trip lists the Brick token twice (same name, different text): an untouched pair is no
    change."""
    root = tmp_path / "ws"
    shutil.copytree(LANTERN, root)
    cards = root / "cards" / "lantern" / "cards.yaml"
    cards.write_text(
        cards.read_text() + '- name: Stone Idol\n  suits: [Stones]\n  type: Relic\n  cost: "{St}"\n'
        "  number: LC-004\n"
    )
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    assert (
        run("--root", str(root), "changes", "lantern", "HEAD").output
        == "no card added, changed or removed since HEAD\n"
    )
    edit(root, 'cost: "{St}"', 'cost: "{St}{St}{St}{St}"', "the second idol costs more")
    listed = run("--root", str(root), "changes", "lantern", "HEAD~1").output.splitlines()
    assert (
        listed[0].startswith("1 card ") and listed[2].strip() == "cost: {St}  ->  {St}{St}{St}{St}"
    )

"""A booby-trapped workspace: nothing is written outside output/, no local file leaks into a PDF, no traceback."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.cli import main
from cardgen.gallery.page import script_json
from cardgen.model.card import file_stem, id_problem
from cardgen.workspace import Workspace

HOSTILE_CARD = """- id: ../../outside/pwned-id
  name: Pwned
  faction: Blue
  kind: Unit
  power: 1
  rarity: common
"""


def run(ws: Workspace, *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["--root", str(ws.root), *args])


def files_outside(root: Path, before: set[Path]) -> list[Path]:
    return sorted(p for p in root.parent.rglob("*") if p not in before and not p.is_relative_to(root / "output")
                  and not p.is_relative_to(root))


def test_ids_that_are_paths_are_findings_and_never_file_names(scratch_ws: Workspace) -> None:
    cards = scratch_ws.root / "cards" / "clean" / "cards.yaml"
    cards.write_text(cards.read_text() + HOSTILE_CARD)
    before = set(scratch_ws.root.parent.rglob("*"))
    result = run(scratch_ws, "validate", "clean")
    line = len(cards.read_text().splitlines()) - 5
    assert result.exit_code == 1
    assert f"cards/clean/cards.yaml:{line}:3: error[bad-id] ../../outside/pwned-id:" in result.output
    for args in (["export", "clean", "--png"], ["export", "clean", "--to", "tgc"], ["export", "clean", "--to", "dtc"]):
        assert run(scratch_ws, *args).exit_code == 0
    assert files_outside(scratch_ws.root, before) == []
    pngs = [p.name for p in (scratch_ws.root / "output" / "clean" / "png").iterdir()]
    assert file_stem("../../outside/pwned-id") + ".png" in pngs


def test_id_rules() -> None:
    for bad in ("../x", "a/b", "a\\b", "con", "Aux.txt", ".hidden", "tab\there", "x" * 200, "what?"):
        assert id_problem(bad), bad
        assert id_problem(file_stem(bad)) is None
    for good in ("hulking-demon", "ET.1213", "Black Queen", "r1"):
        assert id_problem(good) is None and file_stem(good) == good


RAW_HTML = """Rules.

<img src="file:///etc/passwd">
<link rel="attachment" href="file:///etc/hostname">
<img src="http://127.0.0.1:9/x.png">
"""


def test_the_rulebook_reads_only_workspace_files(scratch_ws: Workspace) -> None:
    (scratch_ws.root / "rules" / "clean" / "rulebook" / "basics.md").write_text(RAW_HTML)
    out = scratch_ws.root / "output" / "book.pdf"
    result = run(scratch_ws, "rulebook", "clean", "--out", str(out))
    assert result.exit_code == 1, result.output  # built, with errors
    assert "rules/clean/rulebook/basics.md:3:1: error[rulebook-fetch-refused] the rulebook asks for file:///etc/passwd" \
        in result.output
    assert "http://127.0.0.1:9/x.png" in result.output
    reader = PdfReader(out)
    assert not reader.attachments
    data = out.read_bytes()
    assert b"root:" not in data and b"/bin/" not in data


def test_chapters_outside_the_rulebook_folder_and_wrong_shapes(scratch_ws: Workspace) -> None:
    index = scratch_ws.root / "rules" / "clean" / "rulebook" / "index.md"
    index.write_text(index.read_text().replace("chapters: [basics.md, cards.md]",
                                               "chapters: [basics.md, ../../../cards/clean/cards.yaml]"))
    result = run(scratch_ws, "rulebook", "clean", "--out", str(scratch_ws.root / "output" / "b.pdf"))
    assert result.exit_code == 1 and "rulebook-chapter-outside" in result.output
    assert "rulebook-chapter-outside" in run(scratch_ws, "validate", "clean").output  # validate sees it too
    index.write_text(index.read_text().replace("chapters: [basics.md, ../../../cards/clean/cards.yaml]",
                                               "chapters: 5"))
    result = run(scratch_ws, "rulebook", "clean", "--out", str(scratch_ws.root / "output" / "c.pdf"))
    assert result.exit_code == 1 and "rulebook-chapters" in result.output and "internal error" not in result.output


def test_page_templates_are_sandboxed(scratch_ws: Workspace) -> None:
    own = scratch_ws.templates_dir("clean") / "gallery"
    own.mkdir(parents=True)
    marker = scratch_ws.root.parent / "pwned"
    (own / "index.html.j2").write_text(
        "{{ cycler.__init__.__globals__.os.system('touch " + str(marker) + "') }}")
    result = run(scratch_ws, "gallery", "clean")
    assert result.exit_code == 2 and "the gallery template failed" in result.output
    assert "Traceback" not in result.output and not marker.exists()
    book = scratch_ws.templates_dir("clean") / "rulebook"
    book.mkdir(parents=True)
    (book / "book.html.j2").write_text("{{ ''.__class__.__mro__[1].__subclasses__() }}")
    (book / "book.css").write_text("")
    result = run(scratch_ws, "rulebook", "clean", "--out", str(scratch_ws.root / "output" / "b.pdf"))
    assert result.exit_code == 2 and "the rulebook template failed" in result.output


def test_card_files_linking_outside_are_not_read(scratch_ws: Workspace, tmp_path: Path) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("- name: Secret\n")
    (scratch_ws.root / "cards" / "clean" / "link.yaml").symlink_to(secret)
    result = run(scratch_ws, "validate", "clean")
    assert "cards/clean/link.yaml: error[outside-workspace]" in result.output and "Secret" not in result.output


def test_card_text_cannot_break_out_of_the_gallery_script() -> None:
    text = script_json({"text": "</script><!--<script>alert(1)"})
    assert "<" not in text and ">" not in text

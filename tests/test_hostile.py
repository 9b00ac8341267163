"""A booby-trapped workspace: nothing is written outside output/, no local file leaks into a PDF, no
traceback."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.cli.main import main
from cardgen.core.workspace import Workspace
from cardgen.gallery.page import script_json
from cardgen.load.card import file_stem, id_problem

from .conftest import cardgen_process, wait_until_it_catches_ctrl_c

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
    return sorted(
        p
        for p in root.parent.rglob("*")
        if p not in before and not p.is_relative_to(root / "output") and not p.is_relative_to(root)
    )


def test_ids_that_are_paths_are_findings_and_never_file_names(scratch_ws: Workspace) -> None:
    cards = scratch_ws.root / "cards" / "clean" / "cards.yaml"
    cards.write_text(cards.read_text() + HOSTILE_CARD)
    before = set(scratch_ws.root.parent.rglob("*"))
    result = run(scratch_ws, "validate", "clean")
    line = len(cards.read_text().splitlines()) - 5
    assert result.exit_code == 1
    assert (
        f"cards/clean/cards.yaml:{line}:3: error[bad-id] ../../outside/pwned-id:" in result.output
    )
    # an export counts its cards' errors (the bad id) and exits 1 by them, written all the same
    for args, code in (
        (["export", "clean", "--png"], 1),
        (["export", "clean", "--to", "tgc"], 1),
        (["export", "clean", "--to", "dtc"], 1),
    ):
        assert run(scratch_ws, *args).exit_code == code, args
    assert files_outside(scratch_ws.root, before) == []
    pngs = [p.name for p in (scratch_ws.root / "output" / "clean" / "png").iterdir()]
    assert file_stem("../../outside/pwned-id") + ".png" in pngs


def test_id_rules() -> None:
    for bad in (
        "../x",
        "a/b",
        "a\\b",
        "con",
        "Aux.txt",
        ".hidden",
        "tab\there",
        "x" * 200,
        "what?",
    ):
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
    # the sanitiser drops the file: address before anything could fetch it; the network address is
    # refused
    assert (
        "rules/clean/rulebook/basics.md:3:11: warning[rulebook-html-unsupported] file: address on "
        "<img src> is "
        "not kept" in result.output
    )
    assert (
        "rules/clean/rulebook/basics.md:4:1: error[rulebook-active-content] <link> removed"
        in result.output
    )
    assert "http://127.0.0.1:9/x.png" in result.output
    reader = PdfReader(out)
    assert not reader.attachments
    data = out.read_bytes()
    assert b"root:" not in data and b"/bin/" not in data


def test_chapters_outside_the_rulebook_folder_and_wrong_shapes(scratch_ws: Workspace) -> None:
    index = scratch_ws.root / "rules" / "clean" / "rulebook" / "index.md"
    index.write_text(
        index.read_text().replace(
            "chapters: [basics.md, cards.md]",
            "chapters: [basics.md, ../../../cards/clean/cards.yaml]",
        )
    )
    result = run(
        scratch_ws, "rulebook", "clean", "--out", str(scratch_ws.root / "output" / "b.pdf")
    )
    assert result.exit_code == 1 and "rulebook-chapter-outside" in result.output
    assert (
        "rulebook-chapter-outside" in run(scratch_ws, "validate", "clean").output
    )  # validate sees it too
    index.write_text(
        index.read_text().replace(
            "chapters: [basics.md, ../../../cards/clean/cards.yaml]", "chapters: 5"
        )
    )
    result = run(
        scratch_ws, "rulebook", "clean", "--out", str(scratch_ws.root / "output" / "c.pdf")
    )
    assert (
        result.exit_code == 1
        and "rulebook-chapters" in result.output
        and "internal error" not in result.output
    )


def test_page_templates_are_sandboxed(scratch_ws: Workspace) -> None:
    own = scratch_ws.templates_dir("clean") / "gallery"
    own.mkdir(parents=True)
    marker = scratch_ws.root.parent / "pwned"
    (own / "index.html.j2").write_text(
        "{{ cycler.__init__.__globals__.os.system('touch " + str(marker) + "') }}"
    )
    result = run(scratch_ws, "gallery", "clean")
    assert result.exit_code == 2 and "the gallery template failed" in result.output
    assert "Traceback" not in result.output and not marker.exists()
    book = scratch_ws.templates_dir("clean") / "rulebook"
    book.mkdir(parents=True)
    (book / "book.html.j2").write_text("{{ ''.__class__.__mro__[1].__subclasses__() }}")
    (book / "book.css").write_text("")
    result = run(
        scratch_ws, "rulebook", "clean", "--out", str(scratch_ws.root / "output" / "b.pdf")
    )
    assert result.exit_code == 2 and "the rulebook template failed" in result.output


def test_card_files_linking_outside_are_not_read(scratch_ws: Workspace, tmp_path: Path) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("- name: Secret\n")
    (scratch_ws.root / "cards" / "clean" / "link.yaml").symlink_to(secret)
    result = run(scratch_ws, "validate", "clean")
    assert (
        "cards/clean/link.yaml: error[outside-workspace]" in result.output
        and "Secret" not in result.output
    )


def test_card_text_cannot_break_out_of_the_gallery_script() -> None:
    text = script_json({"text": "</script><!--<script>alert(1)"})
    assert "<" not in text and ">" not in text


def test_sizes_counts_and_numbers_out_of_range_are_findings_not_hangs(
    scratch_ws: Workspace,
) -> None:
    model = scratch_ws.model_path("clean")
    text = model.read_text()
    model.write_text(
        text.replace("size: 63mm x 88mm", "size: 0mm x 0mm").replace(
            "common: {designs: 1, copies: 2}, rare", "common: {designs: 1, copies: 10000000}, rare"
        )
    )
    result = run(scratch_ws, "sheets", "clean")  # used to hang until killed
    assert result.exit_code == 1
    listing = run(scratch_ws, "validate", "clean").output
    assert "error[model-unit] a card width of 0 mm is outside 10-400 mm" in listing
    assert "collation[1].rarities.common.copies must be from 0 to 10,000, not 10,000,000" in listing
    model.write_text(text)
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(
        cards.read_text()
        .replace("power: 3", "power: " + "9" * 5000, 1)
        .replace("power: 1", "power: !!int abc", 1)
    )
    listing = run(scratch_ws, "validate", "clean")
    assert listing.exit_code == 1 and "internal error" not in listing.output
    assert "error[yaml-value] '99999999999999999999…' cannot be read as a number" in listing.output
    assert "error[yaml-value] 'abc' cannot be read as a number" in listing.output
    assert "(5,000 characters)" in listing.output  # a huge value is shown shortened
    assert run(scratch_ws, "sheets", "clean", "--bleed", "-5mm").exit_code == 2
    assert (
        "a paper width of 1 mm" in run(scratch_ws, "sheets", "clean", "--paper", "1mm x 1mm").output
    )


def test_deck_lists_are_read_line_by_line(scratch_ws: Workspace) -> None:
    deck = scratch_ws.root / "deck.txt"
    deck.write_text(
        "3x Ember Guard\nthis is garbage\n0 Tide Caller\n-2 Firestorm\n"
        + "9" * 5000
        + " Ember Guard\n"
    )
    result = run(scratch_ws, "deck", "check", "clean", str(deck))
    assert result.exit_code == 1 and "legal" in result.output and "not legal" in result.output
    for line, code in ((2, "deck-line"), (3, "deck-count"), (4, "deck-count"), (5, "deck-count")):
        assert f"deck.txt:{line}:1: error[{code}]" in result.output
    for args in (
        ["sheets", "clean", "--deck", str(deck)],
        ["export", "clean", "--to", "tts", "--deck", str(deck)],
    ):
        refused = run(scratch_ws, *args)
        assert refused.exit_code == 2 and "the deck list has errors" in refused.output


def test_catastrophic_numbering_patterns_are_stopped(scratch_ws: Workspace) -> None:
    model = scratch_ws.model_path("clean")
    model.write_text(
        model.read_text().replace(
            r"'^(?P<prefix>[A-Z])(?P<index>\d+)/(?P<total>\d+)$'", "'^(?P<index>(a|aa)+)$'"
        )
    )
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(cards.read_text().replace("number: R1/2", "number: " + "a" * 60 + "b"))
    result = run(scratch_ws, "validate", "clean")
    assert result.exit_code == 1 and "error[number-pattern-slow]" in result.output
    model.write_text(model.read_text().replace("'^(?P<index>(a|aa)+)$'", r"'^[A-Z]\d+/\d+$'"))
    result = run(scratch_ws, "validate", "clean")
    assert (
        "numbering.pattern needs a named group 'index'" in result.output
        and "check-crashed" not in result.output
    )


def test_templates_cannot_exhaust_memory(scratch_ws: Workspace) -> None:
    front = scratch_ws.templates_dir("clean") / "front.yaml"
    front.write_text(
        front.read_text().replace('text: "{{ card.name }}"', "text: \"{{ 'x' * 10**9 }}\"", 1)
    )
    result = run(scratch_ws, "validate", "clean")
    assert (
        result.exit_code == 1
        and "a template builds text longer than 100,000 characters" in result.output
    )


def test_art_that_cannot_be_drawn_is_a_finding(scratch_ws: Workspace) -> None:
    from PIL import Image

    art = scratch_ws.root / "art"
    art.mkdir()
    Image.new("RGB", (40, 40), "red").save(art / "ok.png")
    (art / "cut.png").write_bytes((art / "ok.png").read_bytes()[:60])
    (art / "text.png").write_text("not a picture")
    Image.new("1", (8000, 8000)).save(art / "huge.png")
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    text = cards.read_text()
    for name, src in (("R1/2", "art/cut.png"), ("R2/2", "art/text.png"), ("U1/1", "art/huge.png")):
        text = text.replace(f"number: {name}", f"number: {name}\n  art: {src}")
    cards.write_text(text)
    result = run(scratch_ws, "validate", "clean")
    assert "image 'art/cut.png' is damaged or truncated" in result.output
    assert "image 'art/text.png' is not a picture cardgen can read" in result.output
    assert "image 'art/huge.png' has 8000 x 8000 pixels, over 40 megapixels" in result.output
    assert "DecompressionBomb" not in result.output


def test_outputs_only_to_regular_files(scratch_ws: Workspace, tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = run(scratch_ws, "sheets", "clean", "--out", str(fifo))
    assert result.exit_code == 2 and "is not a regular file" in result.output and fifo.is_fifo()
    blocker = tmp_path / "afile"
    blocker.write_text("")
    result = run(scratch_ws, "sheets", "clean", "--out", str(blocker / "x.pdf"))
    assert (
        result.exit_code == 2
        and "cannot write" in result.output
        and "Traceback" not in result.output
    )


def test_an_empty_model_is_an_error(scratch_ws: Workspace) -> None:
    scratch_ws.model_path("clean").write_text("")
    result = run(scratch_ws, "validate", "clean")
    assert result.exit_code == 1 and "error[model-empty]" in result.output


def test_ctrl_c_exits_130_quietly(scratch_ws: Workspace) -> None:
    """Ctrl-C while `serve` serves, and in the middle of a build: exit 130 (or the build's own code
    when it finished first), never a traceback."""
    import signal
    import socket
    import threading

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    root = str(scratch_ws.root)
    with cardgen_process(
        "--root",
        root,
        "serve",
        "clean",
        "--port",
        str(port),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stderr is not None
        lines: list[str] = []
        serving = threading.Event()

        def read() -> None:
            for line in proc.stderr:  # type: ignore[union-attr]
                lines.append(line)
                if line.startswith("serving "):
                    serving.set()
            serving.set()  # ended without serving: the assertions below say how

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        assert serving.wait(timeout=300) and proc.poll() is None, "".join(lines)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
        reader.join(timeout=60)
        err = "".join(lines)
        assert proc.returncode == 130 and "Traceback" not in err, err
    with cardgen_process(
        "--root", root, "build", "clean", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as proc:
        wait_until_it_catches_ctrl_c(proc)
        time.sleep(0.7)  # mid-build (a whole build of this game takes about 1.5 s)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode in (130, 0, 1) and "Traceback" not in err, err


def test_the_server_serves_files_only(scratch_ws: Workspace) -> None:
    import socket
    import threading
    import urllib.error
    import urllib.request

    from cardgen.live.serve import serve

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    stop = threading.Event()
    logs: list[str] = []
    thread = threading.Thread(
        target=serve,
        args=(scratch_ws, "clean", port),
        kwargs={"log": logs.append, "stop": stop},
        daemon=True,
    )
    thread.start()
    try:
        for _ in range(100):
            if any("serving" in m for m in logs):
                break
            threading.Event().wait(0.1)
        codes = {}
        for path in ("/", "/cards/", "/%00", "/../../etc/passwd"):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
                    codes[path] = r.status
            except urllib.error.HTTPError as exc:
                codes[path] = exc.code
        assert codes["/"] == 200 and codes["/cards/"] == 404 and codes["/%00"] in (400, 404)
        assert codes["/../../etc/passwd"] == 404
    finally:
        stop.set()
        thread.join(timeout=5)


def test_damaged_caches_are_rebuilt_not_fatal(scratch_ws: Workspace) -> None:
    """Garbage in output/GAME/.cache (a disk error, a tool that truncated files) is ignored and
    rewritten."""
    import marshal
    import pickle

    first = run(scratch_ws, "sheets", "clean", "--copies", "one")
    assert first.exit_code in (0, 1)
    run(
        scratch_ws, "sheets", "clean", "--copies", "one"
    )  # the second run also keeps the parsed card files
    cache = scratch_ws.output_dir("clean") / ".cache"
    kept = sorted(p.name.split("-")[0] for p in cache.iterdir() if p.is_file())
    assert {"cards", "faces"} <= set(kept)
    garbage = {
        "cards": pickle.dumps(["not", "a", "cache"]),
        "faces": marshal.dumps({"format": 4, "faces": [1]}),
    }
    for path in cache.iterdir():
        if path.is_file():
            path.write_bytes(garbage.get(path.name.split("-")[0], b"\x00\x01garbage"))
    again = run(scratch_ws, "sheets", "clean", "--copies", "one")
    assert (
        again.exit_code == first.exit_code
        and "Traceback" not in again.output
        and "internal error" not in again.output
    )
    assert run(scratch_ws, "validate", "clean").exit_code == first.exit_code


def test_ctrl_c_that_a_library_turned_into_another_error_is_still_an_interrupt() -> None:
    """reportlab's colour parser has a bare `except:`: Ctrl-C during it surfaced as ValueError, exit
    3 (a 'bug')."""
    from cardgen.cli.core import _interrupted

    try:
        try:
            raise KeyboardInterrupt
        except BaseException:
            raise ValueError("Invalid color value '#333333'")  # noqa: B904  (as the library does)
    except ValueError as exc:
        assert _interrupted(exc)
    assert not _interrupted(ValueError("a real bug"))

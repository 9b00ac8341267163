"""End to end: text that cannot fit is a finding everywhere; build writes every output
atomically."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.core.workspace import Workspace


def run(ws: Workspace, *args: str):
    return CliRunner().invoke(main, ["--root", str(ws.root), *args], catch_exceptions=False)


def test_text_overflow_is_reported_by_validate_and_marked_on_the_card(
    scratch_ws: Workspace,
) -> None:
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(
        cards.read_text().replace(
            "Deal 2 damage to each unit.", "Deal 2 damage to each unit. " * 40
        )
    )
    result = run(scratch_ws, "validate", "clean", "--format", "json")
    found = [f for f in json.loads(result.output)["findings"] if f["code"] == "text-overflow"]
    assert result.exit_code == 1 and len(found) == 1
    assert found[0]["card"] == "firestorm" and found[0]["line"] == 15  # its text's line
    assert (
        "text box 'rules' of front overflows" in found[0]["message"]
        and "mm too high" in found[0]["message"]
    )


def test_missing_template_is_a_clear_error(scratch_ws: Workspace) -> None:
    for path in scratch_ws.templates_dir("clean").iterdir():
        path.unlink()
    result = run(scratch_ws, "sheets", "clean")
    assert result.exit_code == 2 and "no usable templates for 'clean'" in result.output
    assert not (scratch_ws.root / "output").exists()  # nothing written


def test_build_writes_sheets_pngs_and_report(scratch_ws: Workspace) -> None:
    result = run(scratch_ws, "build", "clean")
    assert result.exit_code == 0, result.output
    out = scratch_ws.root / "output" / "clean"
    assert (out / "sheets.pdf").read_bytes().startswith(b"%PDF")
    assert sorted(p.name for p in (out / "png").iterdir()) == [
        "back-back.png",
        "ember-guard.png",
        "firestorm.png",
        "tide-caller.png",
    ]
    assert "output/clean/sheets.pdf" in result.output
    assert not list(out.rglob("*.part"))


def test_sheets_options_and_bad_input(scratch_ws: Workspace) -> None:
    ok = run(
        scratch_ws,
        "sheets",
        "clean",
        "--copies",
        "one",
        "--duplex",
        "none",
        "--layout",
        "gutter",
        "--only",
        "card.faction == 'Red'",
        "--calibration",
    )
    assert ok.exit_code == 0 and "2 copies of 2 designs on 1 sheet of 2 x 3" in ok.output
    bad = run(scratch_ws, "sheets", "clean", "--paper", "60mm x 80mm")
    assert bad.exit_code == 2 and "does not fit" in bad.output and "Traceback" not in bad.output
    bad = run(scratch_ws, "sheets", "clean", "--paper", "10mm x 10mm")
    assert bad.exit_code == 2 and "a paper width of 10 mm is outside 50-2000 mm" in bad.output
    bad = run(scratch_ws, "sheets", "clean", "--only", "card.(")
    assert bad.exit_code == 2 and "--only" in bad.output
    deck = scratch_ws.root / "deck.txt"
    deck.write_text("# my deck\n3x Ember Guard\n2 Firestrom\n")
    bad = run(scratch_ws, "sheets", "clean", "--deck", str(deck))
    assert bad.exit_code == 2 and "did you mean 'Firestorm'?" in bad.output
    deck.write_text("3x Ember Guard\n1 Tide Caller\n")
    ok = run(scratch_ws, "sheets", "clean", "--deck", str(deck))
    assert (
        ok.exit_code == 0
        and "4 copies of 2 designs" in ok.output
        and "sheets-deck.pdf" in ok.output
    )


def test_new_game_validates_clean_and_builds(tmp_path) -> None:
    root = tmp_path / "studio"
    root.mkdir()
    runner = CliRunner()
    created = runner.invoke(main, ["--root", str(root), "new", "moon-duel"])
    assert created.exit_code == 0 and "created rules/moon-duel/game.yaml" in created.output.replace(
        str(root) + "/", ""
    )
    (root / "rules").mkdir(exist_ok=True)
    again = runner.invoke(main, ["--root", str(root), "new", "moon-duel"])
    assert again.exit_code == 2 and "already exists" in again.output
    valid = runner.invoke(main, ["--root", str(root), "validate", "moon-duel", "--strict"])
    assert valid.exit_code == 0 and "0 errors, 0 warnings, 0 info" in valid.output
    built = runner.invoke(main, ["--root", str(root), "build", "moon-duel", "--no-png"])
    assert built.exit_code == 0 and (root / "output" / "moon-duel" / "sheets.pdf").is_file()
    bad = runner.invoke(main, ["--root", str(root), "new", "Bad Name"])
    assert bad.exit_code == 2


# `cardgen new --size`: the starter's front and back are size-relative, so every size validates
# clean, with no template-size-mismatch, and builds; the model names the size
@pytest.mark.parametrize(
    ("size", "mm"),
    [
        ("tarot", (69.85, 120.65)),
        ("poker", (63.5, 88.9)),
        ("poker-eu", (63, 88)),
        ("bridge", (57.15, 88.9)),
        ("mini", (44.45, 63.5)),
        ("square", (63.5, 63.5)),
        ("landscape", (88, 63)),
    ],
)
def test_a_new_game_of_each_size_validates_clean_and_builds(
    tmp_path, size: str, mm: tuple[float, float]
) -> None:
    from cardgen.project.studio import open_studio

    root = tmp_path / "studio"
    root.mkdir()
    runner = CliRunner()
    created = runner.invoke(main, ["--root", str(root), "new", "deck", "--size", size])
    assert created.exit_code == 0, created.output
    assert f"  size: {size}\n" in (root / "rules" / "deck" / "game.yaml").read_text()
    valid = runner.invoke(main, ["--root", str(root), "validate", "deck", "--strict"])
    if size == "square":  # a 2.5 in square card: no common sleeve takes it (docs/kit.md), truly
        assert "warning[sleeve-none]" in valid.output and "0 errors, 1 warning, 0 info" in (
            valid.output
        ), valid.output
    elif size == "mini":  # 44 x 63 mm: the sample names shrink more than 1.5 pt (a note), truly
        assert valid.exit_code == 0 and "0 errors, 0 warnings, 2 info" in valid.output
        assert valid.output.count("info[text-shrunk]") == 2, valid.output
    else:
        assert valid.exit_code == 0 and "0 errors, 0 warnings, 0 info" in valid.output, valid.output
    built = runner.invoke(main, ["--root", str(root), "build", "deck", "--no-png"])
    assert built.exit_code == 0 and (root / "output" / "deck" / "sheets.pdf").is_file()
    studio = open_studio(Workspace.find(root), "deck")
    front, back = studio.prepare(studio.designs()[0])
    assert back is not None
    assert (round(front.width / 72 * 25.4, 2), round(front.height / 72 * 25.4, 2)) == mm
    boxes = {op.props["_id"]: op.box for op in front.ops}
    for element in ("panel", "footer", "power", "text-box"):  # on the card, near its bottom
        x, y, w, h = boxes[element]
        assert x >= 0 and x + w <= front.width + 0.01 and y + h <= front.height + 0.01
        assert front.height - (y + h) <= 11 * 72 / 25.4, element


def test_new_size_is_refused_with_a_sheet(tmp_path) -> None:
    refused = CliRunner().invoke(
        main, ["--root", str(tmp_path), "new", "deck", "--size", "tarot", "--from", "x.csv"]
    )
    assert refused.exit_code == 2 and "--size goes with the starter templates" in refused.output
    unknown = CliRunner().invoke(main, ["--root", str(tmp_path), "new", "deck", "--size", "huge"])
    assert unknown.exit_code == 2 and "'huge' is not one of" in unknown.output


def test_a_game_without_templates_still_validates(scratch_ws: Workspace) -> None:
    import shutil

    shutil.rmtree(scratch_ws.templates_dir("clean"))
    result = run(scratch_ws, "validate", "clean", "--format", "json")
    data = json.loads(result.output)
    assert result.exit_code == 0 and [f["code"] for f in data["findings"]] == ["no-templates"]


def test_a_model_of_the_wrong_shapes_is_findings_not_a_crash(scratch_ws: Workspace) -> None:
    scratch_ws.model_path("clean").write_text(
        "fields: 5\ngame: [1]\nvocabularies: [x]\ncost: {symbols: 3}\nkeywords: 7\ncollation: {a: "
        "1}\n"
        "numbering: {pattern: 5}\npacks: 3\n"
    )
    for args in (["validate", "clean"], ["sheets", "clean"], ["packs", "clean", "--seed", "1"]):
        result = run(scratch_ws, *args)
        assert result.exit_code in (1, 2) and "internal error" not in result.output, (
            args,
            result.output,
        )


def test_watch_rebuilds_after_each_save_and_survives_a_broken_model(scratch_ws) -> None:  # type: ignore[no-untyped-def]
    import threading
    import time

    from cardgen.jobs.sheets import run_sheets
    from cardgen.live.watch import watch_job
    from cardgen.printrun.printing import SheetOptions

    stop = threading.Event()
    seen: list[tuple[str, bool]] = []
    opts = SheetOptions(copies="one")

    def show(result, error, seconds, rebuilt) -> None:  # type: ignore[no-untyped-def]
        seen.append(("error" if error else "written", rebuilt))

    worker = threading.Thread(
        target=watch_job,
        args=(scratch_ws, "clean", lambda: run_sheets(scratch_ws, "clean", opts), show, stop),
        daemon=True,
    )
    worker.start()

    def wait_for(n: int) -> None:
        deadline = time.monotonic() + 20
        while len(seen) < n and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(seen) >= n, seen

    wait_for(1)
    time.sleep(0.3)  # the watcher is listening once the first run is shown
    pdf = scratch_ws.output_dir("clean") / "sheets-one.pdf"
    before = pdf.read_bytes()
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(cards.read_text().replace("Deal 2 damage", "Deal 3 damage"))
    wait_for(2)
    assert pdf.read_bytes() != before  # the edit is in the sheets
    model = scratch_ws.model_path("clean")
    good = model.read_text()
    model.write_text("fields: [unclosed\n")
    wait_for(3)
    model.write_text(good)
    wait_for(4)
    stop.set()
    worker.join(5)
    assert seen[:4] == [("written", False), ("written", True), ("error", True), ("written", True)]


def test_a_rebuild_draws_only_the_figures_and_book_that_changed(
    scratch_ws: Workspace, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """The report's figures are kept by what they show; the rulebook is typeset again only when a
    card it shows (or any other input) changed."""
    from cardgen.jobs.build import BuildOptions, build_game
    from cardgen.render import plots
    from cardgen.rulebook import typeset as book_build  # where the book is typeset

    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(
        cards.read_text() + "- name: Quiet Pond\n  cost: U\n  faction: Blue\n  kind: Spell\n"
        "  text: Draw a card.\n  rarity: common\n  number: U2/2\n"
    )  # not in the fixture's book
    drawn: list[str] = []
    typeset: list[int] = []
    real_png, real_pdf = plots.figure_png, book_build.render_pdf
    monkeypatch.setattr(plots, "figure_png", lambda fig: drawn.append("figure") or real_png(fig))
    monkeypatch.setattr(
        book_build, "render_pdf", lambda *a, **k: typeset.append(1) or real_pdf(*a, **k)
    )
    from cardgen.speed.twin import Twin

    monkeypatch.setattr(
        Twin, "fork", classmethod(lambda cls, work: None)
    )  # typeset here, where it is counted

    def build() -> tuple[int, int]:
        drawn.clear()
        typeset.clear()
        build_game(scratch_ws, "clean", BuildOptions(png=False))
        return len(drawn), len(typeset)

    first = build()
    assert first[0] >= 3 and first[1] == 2  # the book on A4, and on universal paper for the kit
    assert build() == (0, 0)  # nothing changed: no figure drawn, the books not even rebuilt
    cards.write_text(cards.read_text().replace("Draw a card.", "Draw two cards."))
    assert build() == (0, 0)  # a card the book does not show, and no figure's data changed
    cards.write_text(cards.read_text().replace("power: 3", "power: 4"))
    assert build() == (1, 2)  # Ember Guard: its power is plotted and the books show it


def _outputs(ws: Workspace) -> dict[str, bytes]:
    """Every output file, the rulebook's PDF too (it names no folder: rulebook.fetch)."""
    out = ws.output_dir("clean")
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and ".cache" not in p.parts
    }


def test_a_live_build_splits_over_a_twin_and_writes_what_a_plain_build_writes(
    scratch_ws: Workspace, tmp_path
) -> None:
    """build --watch: after the first build a forked twin makes the sheets and packs of each
    rebuild. The files and the summary are those of a plain build; a broken model in between is an
    error from either process; a twin that dies is done without."""
    import os
    import shutil
    import signal

    from cardgen.core.errors import CardgenError
    from cardgen.jobs.build import BuildOptions, LiveBuild, build_game

    opts = BuildOptions(kit=False)  # a live build leaves the print-and-play kit to a full build
    live = LiveBuild(scratch_ws, "clean", opts)
    first = live()
    assert first.later is not None  # the book, typeset after the rest (test below)
    first.later()
    live.warm()
    assert live.twin is not None, "no twin forked (another thread running?)"
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    plain_ws = Workspace.find(
        shutil.copytree(
            scratch_ws.root,
            tmp_path / "plain",
            symlinks=True,
            ignore=shutil.ignore_patterns("output"),
        )
    )
    try:
        for text in ("Deal 3 damage", "Deal 4 damage"):
            for ws in (scratch_ws, plain_ws):
                path = ws.cards_dir("clean") / "cards.yaml"
                path.write_text(
                    path.read_text().replace("Deal 2 damage", text).replace("Deal 3 damage", text)
                )
            again = live()
            assert again.later is not None  # Firestorm is in the book
            book = again.later()
            plain = build_game(plain_ws, "clean", opts)
            assert _outputs(scratch_ws) == _outputs(plain_ws)
            assert [
                (o.path.relative_to(scratch_ws.root), o.what) for o in again.outputs + book.outputs
            ] == [
                (o.path.relative_to(plain_ws.root), o.what)
                for o in plain.outputs
                if o.path.name != "rulebook.pdf"
            ] + [
                (o.path.relative_to(plain_ws.root), o.what)
                for o in plain.outputs
                if o.path.name == "rulebook.pdf"
            ]
            assert again.notes == plain.notes and again.findings == plain.findings
        model = scratch_ws.model_path("clean")
        good = model.read_text()
        model.write_text("fields: [unclosed\n")
        with pytest.raises(CardgenError):
            live()
        model.write_text(good)
        cards.write_text(cards.read_text().replace("Deal 4 damage", "Deal 5 damage"))
        assert (
            live().later is not None
        )  # the twin's answer to the broken build was dropped, not taken for this one's
        assert live.twin is not None and b"Deal 5" in _text_of(
            scratch_ws.output_dir("clean") / "sheets.pdf"
        )
        os.kill(live.twin.pid, signal.SIGKILL)
        os.waitpid(live.twin.pid, 0)
        cards.write_text(cards.read_text().replace("Deal 5 damage", "Deal 6 damage"))
        live()
        assert live.twin is None  # lost and closed; this build made the sheets itself
        assert b"Deal 6" in _text_of(scratch_ws.output_dir("clean") / "sheets.pdf")
    finally:
        live.close()


def _text_of(pdf) -> bytes:  # type: ignore[no-untyped-def]
    from pypdf import PdfReader

    return "".join(page.extract_text() for page in PdfReader(pdf).pages).encode()


def test_a_live_rebuild_writes_everything_first_and_typesets_the_book_after(
    scratch_ws: Workspace, tmp_path
) -> None:
    """build --watch: a book that must be typeset again is left for `later`, so the sheets and
    reports come first; after it, every file equals a plain build's, the reports too when
    typesetting found more."""
    import shutil

    from cardgen.jobs.build import BuildOptions, build_game

    opts = BuildOptions(kit=False)  # a live build leaves the print-and-play kit to a full build
    first = build_game(scratch_ws, "clean", opts, live=True)
    assert first.later is not None and first.pending == "the rulebook is being typeset"
    assert not (scratch_ws.output_dir("clean") / "rulebook.pdf").exists()
    assert (scratch_ws.output_dir("clean") / "sheets.pdf").is_file()
    typeset = first.later()
    assert [o.path.name for o in typeset.outputs] == ["rulebook.pdf"] and typeset.later is None
    assert (
        build_game(scratch_ws, "clean", opts, live=True).later is None
    )  # unchanged: kept, not typeset again
    before = (scratch_ws.output_dir("clean") / "rulebook.pdf").read_bytes()
    # the book shows Firestorm; it also asks for a file it may not read, which only typesetting
    # finds
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(cards.read_text().replace("Deal 2 damage", "Deal 7 damage"))
    (scratch_ws.root / "rules" / "clean" / "rulebook" / "basics.md").write_text(RAW_PICTURE)
    plain_ws = Workspace.find(
        shutil.copytree(
            scratch_ws.root,
            tmp_path / "plain",
            symlinks=True,
            ignore=shutil.ignore_patterns("output"),
        )
    )
    plain = build_game(plain_ws, "clean", opts)
    live = build_game(scratch_ws, "clean", opts, live=True)
    assert live.later is not None
    assert not any(f.code == "rulebook-fetch-refused" for f in live.findings)
    book = live.later()
    assert [o.path.name for o in book.outputs] == [
        "validation.txt",
        "index.html",
        "index.html",
        "rulebook.pdf",
    ]
    assert book.findings == plain.findings and any(
        f.code == "rulebook-fetch-refused" for f in book.findings
    )
    assert _outputs(scratch_ws) == _outputs(plain_ws)
    assert (scratch_ws.output_dir("clean") / "rulebook.pdf").read_bytes() != before  # typeset again


RAW_PICTURE = (
    'Rules.\n\n<img src="' + "../" * 30 + 'etc/hostname">\n'
)  # kept by the sanitiser, refused by the fetcher


def test_a_build_typesets_its_book_on_the_other_core_and_writes_what_one_process_writes(
    scratch_ws: Workspace, tmp_path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """A build whose rulebook must be typeset forks a process for it and writes the rest meanwhile;
    the files, the summary and the findings (those only typesetting finds too) are those of one
    process doing it all."""
    import shutil

    from cardgen.jobs.build import BuildOptions, build_game
    from cardgen.speed.twin import Twin

    (scratch_ws.root / "rules" / "clean" / "rulebook" / "basics.md").write_text(RAW_PICTURE)
    alone_ws = Workspace.find(shutil.copytree(scratch_ws.root, tmp_path / "alone", symlinks=True))
    forked: list[object] = []
    real = Twin.fork.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(
        Twin, "fork", classmethod(lambda cls, work: forked.append(1) or real(cls, work))
    )
    both = build_game(scratch_ws, "clean", BuildOptions())
    assert forked
    monkeypatch.setattr(
        Twin, "fork", classmethod(lambda cls, work: None)
    )  # no fork: typeset in this process
    alone = build_game(alone_ws, "clean", BuildOptions())
    assert _outputs(scratch_ws) == _outputs(alone_ws)
    assert [(o.path.relative_to(scratch_ws.root), o.what) for o in both.outputs] == [
        (o.path.relative_to(alone_ws.root), o.what) for o in alone.outputs
    ]
    assert both.findings == alone.findings and any(
        f.code == "rulebook-fetch-refused" for f in both.findings
    )
    assert both.later is None and both.notes == alone.notes
    assert (scratch_ws.output_dir("clean") / "rulebook.pdf").read_bytes().startswith(b"%PDF")

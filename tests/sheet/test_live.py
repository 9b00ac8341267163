"""A sheet declared in game.yaml is watched: saving it pulls its edits into the card files, and
the change rebuilds; a declaration naming a web address or a place outside the workspace is
refused."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import openpyxl
import pytest

from cardgen.core.errors import CardgenError
from cardgen.core.workspace import Workspace
from cardgen.jobs.sheet import declared_sheet, push_sheet
from cardgen.live.watch import watch_job


def declare(ws: Workspace, value: str) -> None:
    model = ws.model_path("clean")
    model.write_text(model.read_text() + f"sheet:\n  file: {value}\n")


def test_saving_the_declared_sheet_pulls_it_and_rebuilds(scratch_ws: Workspace) -> None:
    sheet = scratch_ws.root / "cards.xlsx"
    push_sheet(scratch_ws, "clean", sheet)
    declare(scratch_ws, "cards.xlsx")
    assert declared_sheet(scratch_ws, "clean") == sheet.absolute()
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    runs: list[str] = []
    shown: list[tuple[bool, str | None]] = []
    stop = threading.Event()

    def job():  # type: ignore[no-untyped-def]
        from cardgen.core.output import JobResult

        runs.append(cards.read_text())
        return JobResult()

    def show(result, error, seconds, rebuilt) -> None:  # type: ignore[no-untyped-def]
        shown.append((rebuilt, error))

    worker = threading.Thread(
        target=watch_job, args=(scratch_ws, "clean", job, show, stop), daemon=True
    )
    worker.start()
    try:

        def wait(what, seconds: float = 30) -> None:  # type: ignore[no-untyped-def]
            deadline = time.monotonic() + seconds
            while not what() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert what(), (runs, shown)

        wait(lambda: len(runs) == 1)
        time.sleep(0.5)  # the watcher listens once the first run is shown
        book = openpyxl.load_workbook(sheet)
        rows = book["cards"]
        header = [c.value for c in rows[1]]
        power = header.index("power") + 1
        name = next(i for i, h in enumerate(header) if h and h.startswith("name")) + 1
        row = next(
            r for r in range(2, rows.max_row + 1) if rows.cell(r, name).value == "Ember Guard"
        )
        rows.cell(row, power).value = 5
        book.save(sheet)
        wait(lambda: any("power: 5" in text for text in runs))
        assert "power: 5" in cards.read_text() and "power: 3" not in cards.read_text()
        assert all(error is None for _, error in shown), shown
    finally:
        stop.set()
        worker.join(10)


@pytest.mark.parametrize(
    ("value", "said"),
    [("https://example.org/cards.csv", "is a web address"), ("../elsewhere.xlsx", "outside")],
)
def test_a_declared_sheet_must_be_in_the_workspace(
    scratch_ws: Workspace, value: str, said: str
) -> None:
    declare(scratch_ws, value)
    with pytest.raises(CardgenError, match=said):
        declared_sheet(scratch_ws, "clean")


def test_no_sheet_declared_means_nothing_to_watch(scratch_ws: Workspace) -> None:
    assert declared_sheet(scratch_ws, "clean") is None
    assert not (Path(scratch_ws.root) / "cards.xlsx").exists()


def test_each_save_of_the_declared_sheet_adds_a_new_row_once(scratch_ws: Workspace) -> None:
    from cardgen.jobs.sheet import pull_declared

    sheet = scratch_ws.root / "cards.xlsx"
    push_sheet(scratch_ws, "clean", sheet)
    declare(scratch_ws, "cards.xlsx")
    book = openpyxl.load_workbook(sheet)
    page = book["cards"]
    names = [str(c.value).removesuffix(" *") for c in page[1]]
    page.cell(page.max_row + 1, names.index("name") + 1, "Brand New")
    book.save(sheet)
    folder = scratch_ws.cards_dir("clean")
    for _ in range(3):  # each save of the sheet, as `build --watch` pulls it
        result = pull_declared(scratch_ws, "clean")
        assert result is not None and not result.failed()
        text = (folder / "cards.yaml").read_text()
        assert text.count("name: Brand New") == 1 and "- id: brand-new\n" in text


def test_a_sheet_saved_slowly_in_place_is_pulled_once_whole(scratch_ws: Workspace) -> None:
    """A program that writes the workbook in place over many milliseconds (openpyxl's save does)
    is read once the file settles: never shown as a damaged workbook half-way through."""
    from cardgen.live.watch import _pull

    sheet = scratch_ws.root / "cards.xlsx"
    push_sheet(scratch_ws, "clean", sheet)
    declare(scratch_ws, "cards.xlsx")
    book = openpyxl.load_workbook(sheet)
    rows = book["cards"]
    header = [c.value for c in rows[1]]
    power, name = (
        header.index("power") + 1,
        1 + next(i for i, h in enumerate(header) if h and h.startswith("name")),
    )
    row = next(r for r in range(2, rows.max_row + 1) if rows.cell(r, name).value == "Ember Guard")
    rows.cell(row, power).value = 5
    edited = scratch_ws.root / "edited.xlsx"
    book.save(edited)
    data = edited.read_bytes()
    sheet.write_bytes(data[: len(data) // 3])  # the save has begun: a third of the zip is there

    def finish() -> None:
        with sheet.open("ab") as out:
            for part in (data[len(data) // 3 : 2 * len(data) // 3], data[2 * len(data) // 3 :]):
                time.sleep(0.04)
                out.write(part)
                out.flush()

    writer = threading.Thread(target=finish)
    writer.start()
    shown: list[tuple[object, str | None]] = []
    _pull(scratch_ws, "clean", lambda r, e, s, b: shown.append((r, e)), time.perf_counter())
    writer.join()
    assert [error for _, error in shown] == [None], shown
    cards = (scratch_ws.cards_dir("clean") / "cards.yaml").read_text()
    assert "power: 5" in cards and "power: 3" not in cards


def test_watch_shows_a_finding_about_a_pulled_value_with_its_cell(
    scratch_ws: Workspace, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`sheets --watch` with a declared sheet: a value saved in the sheet that the model refuses is
    listed after the rebuild, naming the cell it came from."""
    from cardgen.cli.core import watch_loop
    from cardgen.jobs.sheets import run_sheets
    from cardgen.live import watch
    from cardgen.printrun.printing import SheetOptions

    sheet = scratch_ws.root / "cards.xlsx"
    push_sheet(scratch_ws, "clean", sheet)
    declare(scratch_ws, "cards.xlsx")
    stop = threading.Event()
    loop = watch.watch_job
    monkeypatch.setattr(watch, "watch_job", lambda *a: loop(*a, stop=stop))
    opts = SheetOptions(copies="one")

    def looped() -> None:
        with pytest.raises(SystemExit):  # the loop ends as it does on Ctrl-C
            watch_loop(scratch_ws, "clean", lambda: run_sheets(scratch_ws, "clean", opts))

    worker = threading.Thread(target=looped, daemon=True)
    out: list[str] = []

    def wait(text: str, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            out.append(capsys.readouterr().out)
            if text in "".join(out):
                return
            time.sleep(0.05)
        raise AssertionError(f"{text!r} not in {''.join(out)!r}")

    worker.start()
    try:
        wait("watching for changes")
        time.sleep(0.5)  # the watcher listens once the first run is shown
        book = openpyxl.load_workbook(sheet)
        rows = book["cards"]
        header = [str(c.value).removesuffix(" *") for c in rows[1]]
        row = next(r for r in range(2, rows.max_row + 1) if rows.cell(r, 1).value == "ember-guard")
        rows.cell(row, header.index("power") + 1).value = 12  # the model's max is 9
        book.save(sheet)
        cell = f"[cards.xlsx:cards!{chr(65 + header.index('power'))}{row}]"
        wait("pulled the sheet:")
        wait(f"power: 3 → 12  {cell}")  # the change, from its cell
        wait("error[out-of-range] ember-guard: 'power' is 12")
        listed = [line for line in "".join(out).splitlines() if "error[" in line]
        assert listed == [
            f"cards/clean/cards.yaml:8:3: error[out-of-range] ember-guard: 'power' is 12; the "
            f"model allows 0 to 9 {cell}"
        ]
    finally:
        stop.set()
        worker.join(10)

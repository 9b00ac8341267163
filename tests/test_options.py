"""Print options parsed once at the command line's edge: Paper, duplex, layout and ink as typed
values."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.core.options import A4, STANDARD, Paper, parse_paper
from cardgen.core.units import PAPERS, UnitError
from cardgen.printrun.printing import SheetOptions
from cardgen.rulebook.booklet import sheet_for

from .conftest import FIXTURE_WS


def run(*args: str):
    return CliRunner().invoke(main, ["--root", str(FIXTURE_WS), *args], catch_exceptions=False)


def test_standard_papers_come_from_the_one_table() -> None:
    assert {name: p.size for name, p in STANDARD.items()} == PAPERS
    assert parse_paper("A4") == A4 and str(parse_paper("A4")) == "A4" and str(A4) == "a4"
    assert parse_paper(" letter ").size == (612.0, 792.0)


def test_a_size_with_units_is_a_paper_named_as_written() -> None:
    p = parse_paper("8.5in x 11in")
    assert (
        p == Paper("8.5in x 11in", 612.0, 792.0) and not p.standard and p.mm() == "215.9 x 279.4 mm"
    )
    assert parse_paper("tarot").name == "tarot"  # a card size's name is a (small) sheet, as before


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "a3x",
            "'a3x' is not a paper size; write one of a4, letter, legal, a3, a5, universal (fits "
            "A4 and Letter), or WIDTHxHEIGHT with units (e.g. '8.5in x 11in'); did you mean 'a3'?",
        ),
        (
            "lettr",
            "'lettr' is not a paper size; write one of a4, letter, legal, a3, a5, universal (fits "
            "A4 and Letter), or WIDTHxHEIGHT with units (e.g. '8.5in x 11in'); did you mean "
            "'letter'?",
        ),
        (
            "8.5in x",
            "'8.5in x' is not a paper size; write one of a4, letter, legal, a3, a5, universal "
            "(fits A4 and Letter), or WIDTHxHEIGHT with units (e.g. '8.5in x 11in')",
        ),
        ("10mm x 10mm", "a paper width of 10 mm is outside 50-2000 mm"),
    ],
)
def test_bad_paper_says_what_it_may_have_meant(text: str, message: str) -> None:
    with pytest.raises(UnitError) as caught:
        parse_paper(text)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    "args, line",
    [
        (
            ["sheets", "clean", "--paper", "a3x"],
            "Error: Invalid value for '--paper': 'a3x' is not a paper size; write "
            "one of a4, letter, legal, a3, a5, universal (fits A4 and Letter), or WIDTHxHEIGHT "
            "with units (e.g. '8.5in x 11in'); did you mean 'a3'?",
        ),
        (
            ["sheets", "clean", "--duplex", "lng"],
            "Error: Invalid value for '--duplex': 'lng' is not one of 'long', 'short', 'none'; did "
            "you mean 'long'?",
        ),
        (
            ["sheets", "clean", "--layout", "gutte"],
            "Error: Invalid value for '--layout': 'gutte' is not one of 'shared-cut', 'gutter', "
            "'fold'; "
            "did you mean 'gutter'?",
        ),
        (
            ["sheets", "clean", "--ink", "lo"],
            "Error: Invalid value for '--ink': 'lo' is not one of 'normal', 'low'; did you mean "
            "'low'?",
        ),
        (
            ["sheets", "clean", "--ink", "zzz"],
            "Error: Invalid value for '--ink': 'zzz' is not one of 'normal', 'low'.",
        ),
        (
            ["rulebook", "clean", "--paper", "a44"],
            "Error: Invalid value for '--paper': 'a44' is not one of 'a4', 'letter', 'a5', "
            "'universal', 'half-letter'; did you mean 'a4'?",
        ),
        (
            ["build", "clean", "--paper", "legal"],
            "Error: Invalid value for '--paper': the rulebook is laid out on a4, letter, a5, "
            "universal, half-letter, not 'legal'; choose one of those or add --no-rulebook",
        ),
    ],
)
def test_bad_option_values_are_usage_errors(args: list[str], line: str) -> None:
    result = run(*args)
    assert result.exit_code == 2 and result.output.splitlines()[-1] == line


def test_the_sheets_job_gets_values(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardgen.jobs.sheets as job

    seen: list[SheetOptions] = []

    def fake(ws, game, opts, progress=None):  # type: ignore[no-untyped-def]
        seen.append(opts)
        from cardgen.core.output import JobResult

        return JobResult()

    monkeypatch.setattr(job, "run_sheets", fake)
    assert (
        run(
            "sheets",
            "clean",
            "--paper",
            "Letter",
            "--duplex",
            "short",
            "--layout",
            "gutter",
            "--ink",
            "low",
        ).exit_code
        == 0
    )
    opts = seen[0]
    assert opts.paper == STANDARD["letter"] and str(opts.paper) == "Letter"
    assert (opts.duplex, opts.layout, opts.ink) == ("short", "gutter", "low")


def test_rulebook_paper_and_booklet_sheet_are_values(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardgen.jobs.rulebook as job

    seen: list[object] = []

    def fake(ws, game, paper, booklet, gallery, out, html=False):  # type: ignore[no-untyped-def]
        seen.append(paper)
        from cardgen.core.output import JobResult

        return JobResult()

    monkeypatch.setattr(job, "run_rulebook", fake)
    assert run("rulebook", "clean", "--paper", "a5").exit_code == 0
    assert seen == [STANDARD["a5"]]
    assert sheet_for(STANDARD["a5"], (0.0, 0.0)) == ("A4", (841.8898, 595.2756))
    assert sheet_for(STANDARD["a4"], (0.0, 0.0)) == ("A3", (1190.5512, 841.8898))
    assert sheet_for(STANDARD["letter"], (0.0, 0.0)) == ("tabloid", (1224.0, 792.0))
    assert sheet_for("half-letter", (0.0, 0.0)) == ("Letter", (792.0, 612.0))
    assert sheet_for(None, (419.5276, 595.2756)) == (
        "A4",
        (841.8898, 595.2756),
    )  # from the page's size
    assert sheet_for(Paper("x", 500.0, 700.0), (500.0, 700.0)) == ("custom", (1000.0, 700.0))


def test_a_library_caller_may_still_name_the_paper() -> None:
    assert SheetOptions(paper="letter").paper == STANDARD["letter"]  # type: ignore[arg-type]

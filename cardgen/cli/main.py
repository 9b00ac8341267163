"""Turn command-line arguments into one library call each, and its JobResult into output and an exit
code."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import NoReturn

import click

from ..core.units import STARTER_SIZES
from . import kit as cli_kit  # noqa: F401  (registers box, tokens and pnp-check)
from . import pages as cli_pages  # noqa: F401  (registers the commands that make pages)
from . import printing as cli_print  # noqa: F401  (registers the commands that make files)
from .core import (
    PLAYERS,
    RUNS,
    SEED,
    echo_findings,
    edition_given,
    edition_option,
    finish,
    main,
    progress_bar,
    strict_option,
    ws_from,
)
from .sheet import sheet as sheet_group

main.add_command(sheet_group)


@main.command()
@click.argument("game")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "summary"]),
    default="text",
    show_default=True,
    help="summary: a Markdown digest by category (docs/<game>.md is made this way).",
)
@strict_option
@edition_option
@click.pass_context
def validate(ctx: click.Context, game: str, fmt: str, strict: bool) -> None:
    """Report everything wrong with GAME's model, cards, templates and rulebook, like a compiler."""
    from ..jobs.findings import validate_game
    from ..project.check import findings_json, findings_summary, summary_line

    result = validate_game(
        ws_from(ctx), game, progress=progress_bar(), every_edition=not edition_given(ctx)
    )
    if fmt == "json":
        click.echo(findings_json(game, result.findings), nl=False)
    elif fmt == "summary":
        click.echo(findings_summary(result, f"cardgen validate {game} --format summary"), nl=False)
    else:
        echo_findings(result.findings)
        click.echo(summary_line(result))
    sys.exit(1 if result.failed(strict) else 0)


@main.command()
@click.argument("game")
@click.argument("ref")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@edition_option
@click.pass_context
def changes(ctx: click.Context, game: str, ref: str, fmt: str) -> None:
    """List GAME's cards added, changed or removed since REF, a git revision of the workspace."""
    from ..project.changes import changes_json, changes_text
    from ..project.changes import changes_since as since
    from ..project.check import checked

    ws = ws_from(ctx)
    loaded = checked(ws, game)
    found = since(ws, game, ref, loaded.catalog, loaded.model)  # type: ignore[arg-type]
    echo_findings(loaded.model_errors, err=True)
    click.echo(
        changes_json(found, game, ref) if fmt == "json" else changes_text(found, ref), nl=False
    )
    sys.exit(1 if loaded.model_errors else 0)


@main.command()
@click.pass_context
def games(ctx: click.Context) -> None:
    """List the games in the workspace."""
    from ..model.load import load_model

    ws = ws_from(ctx)
    for game in ws.games():
        model, _ = load_model(ws.model_path(game), ws.shown(ws.model_path(game)), game)
        name = model.name if model else "(model has errors)"
        click.echo(f"{game:<16} {name}")


@main.command()
@click.argument("game")
@click.argument("card")
@strict_option
@edition_option
@click.pass_context
def show(ctx: click.Context, game: str, card: str, strict: bool) -> None:
    """Print one CARD (id or name) of GAME as loaded, with where each field comes from and its
    findings."""
    from ..jobs.show import show_card

    ws = ws_from(ctx)
    finish(show_card(ws, game, card), ws, strict=strict, list_findings=True)


@main.command()
@click.argument("game")
@click.option(
    "--from",
    "source",
    metavar="SHEET",
    help="Infer the model, the cards and a front from a spreadsheet (CSV, XLSX, ODS, or a "
    "published-CSV URL); docs/new-from-sheet.md.",
)
@click.option(
    "--size",
    type=click.Choice(STARTER_SIZES),
    help="The card size (landscape: 88 x 63 mm); the starter templates are size-relative and "
    "fit it.  [default: 63mm x 88mm, poker-eu]",
)
@click.pass_context
def new(ctx: click.Context, game: str, source: str | None, size: str | None) -> None:
    """Scaffold a new GAME: a model, three sample cards and a template (or all of it from a
    spreadsheet you keep, with --from)."""
    root = Path(ctx.obj) if ctx.obj else Path.cwd()
    if source and size:
        raise click.UsageError(
            "--size goes with the starter templates: a front inferred --from a sheet is laid out "
            "at 63 x 88 mm (change card: size: and the front afterwards)"
        )

    def shown(path: Path) -> str:
        here = root.resolve()
        return str(path.relative_to(here) if path.is_relative_to(here) else path)

    if source:
        from ..jobs.new import scaffold_from_sheet

        result = scaffold_from_sheet(root, game, source if "://" in source else Path(source))
        for out in result.outputs:
            click.echo(f"created {shown(out.path)}")
        echo_findings(result.findings)
        for note in result.notes:
            click.echo(note)
        sys.exit(1 if result.failed() else 0)
    from ..jobs.new import scaffold

    for path in scaffold(root, game, size):
        click.echo(f"created {shown(path)}")
    click.echo(f"next: cardgen validate {game} && cardgen build {game}")


@main.command()
@click.argument("game")
@PLAYERS
@click.option(
    "--packs-per-player", type=click.IntRange(1, 100), help="Default: the model's draft format."
)
@SEED
@RUNS
@click.option(
    "--format", "fmt", type=click.Choice(["text", "csv", "json"]), default="text", show_default=True
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Also write txt, csv and json here.",
)
@click.option(
    "--sheets", is_flag=True, help="Write a PDF with each pack on its own pages, labelled."
)
@click.option(
    "--pack-format", "format_name", help="Which of the model's pack formats (default: the first)."
)
@click.option(
    "--stats",
    type=click.IntRange(1, 10_000_000),
    metavar="M",
    help="Generate M packs (slots) or M pods (exhaust) and test fairness.",
)
@click.option(
    "--games",
    type=click.IntRange(1, 100_000),
    metavar="N",
    help="Setup formats (mode: setup): deal the setups of N games (default 1).",
)
@edition_option
@click.pass_context
def packs(
    ctx: click.Context,
    game: str,
    players: int | None,
    packs_per_player: int | None,
    seed: int | None,
    print_runs: int,
    fmt: str,
    out: Path | None,
    sheets: bool,
    format_name: str | None,
    stats: int | None,
    games: int | None,
) -> None:
    """Deal booster packs for GAME from its print run or slot sheets, seeded and replayable."""
    from ..jobs.packs import PackOptions, run_packs

    ws = ws_from(ctx)
    opts = PackOptions(
        players, packs_per_player, seed, print_runs, fmt, out, sheets, format_name, stats, games
    )
    finish(run_packs(ws, game, opts), ws)


@main.command()
@click.argument("game")
@PLAYERS
@SEED
@RUNS
@click.option(
    "--format", "fmt", type=click.Choice(["json", "csv"]), default="json", show_default=True
)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--pack-format", "format_name")
@edition_option
@click.pass_context
def draft(
    ctx: click.Context,
    game: str,
    players: int | None,
    seed: int | None,
    print_runs: int,
    fmt: str,
    out: Path | None,
    format_name: str | None,
) -> None:
    """Simulate a pod draft of GAME with simple bots: every seat's picks and a pick log."""
    from ..jobs.packs import run_draft

    ws = ws_from(ctx)
    finish(run_draft(ws, game, players, seed, fmt, out, format_name, print_runs), ws)


@main.group()
def deck() -> None:
    """Deck lists: check one against the game's deck rules."""


@deck.command("check")
@click.argument("game")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--pool",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A draft from 'cardgen draft --format json': the deck must come from a seat's picks.",
)
@click.option("--seat", type=click.IntRange(min=1), default=1, show_default=True)
@click.option(
    "--rules",
    "rules_name",
    help="A named deck format of the model (e.g. draft); default: the list's "
    "'# rules: NAME' line, else the model's deck rules.",
)
@strict_option
@edition_option
@click.pass_context
def deck_check(
    ctx: click.Context,
    game: str,
    file: Path,
    fmt: str,
    pool: Path | None,
    seat: int,
    strict: bool,
    rules_name: str | None,
) -> None:
    """Check deck list FILE for GAME: exit 0 when legal, 1 when not, 2 when it cannot be read."""
    from ..jobs.deck import run_deck_check
    from ..project.check import findings_json

    ws = ws_from(ctx)
    result = run_deck_check(ws, game, file, pool, seat, strict, rules_name)
    if fmt == "json":
        click.echo(findings_json(game, result.findings), nl=False)
        sys.exit(1 if result.failed(strict) else 0)
    echo_findings(result.findings)
    click.echo(result.text, nl=False)
    sys.exit(1 if result.failed(strict) else 0)


@main.command()
@click.argument("game")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Default: output/GAME/cards.schema.json.",
)
@edition_option
@click.pass_context
def schema(ctx: click.Context, game: str, out: Path | None) -> None:
    """Write a JSON Schema for GAME's card files, so YAML editors check cards as you type."""
    from ..jobs.schema import write_card_schema

    ws = ws_from(ctx)
    finish(write_card_schema(ws, game, out), ws)


def hoist_root(args: list[str]) -> list[str]:
    """`--root DIR` may stand anywhere on the line, as users write it; click wants it before the
    command."""
    moved: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(args):
        if args[i] == "--root" and i + 1 < len(args):
            moved += args[i : i + 2]
            i += 2
            continue
        if args[i].startswith("--root="):
            moved.append(args[i])
        else:
            rest.append(args[i])
        i += 1
    return moved + rest


def run() -> None:
    """The console entry point."""
    import signal

    try:
        main(args=hoist_root(sys.argv[1:]), prog_name="cardgen")
    except BrokenPipeError:  # `cardgen draft … | head`: the reader has left, which is not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except KeyboardInterrupt:  # Ctrl-C before or after a command ran
        _interrupted_exit()
    except SystemExit as exc:
        if exc.code == 130:  # interrupted (and reported): see _interrupted_exit
            _interrupted_exit()
        raise
    finally:
        # the command has finished (its exit code is set): Python restores the default Ctrl-C action
        # while it tears down, and a Ctrl-C then would kill the process with no code of ours (signal
        # 2)
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _interrupted_exit() -> NoReturn:
    """Exit 130 now. Python would kill itself with Ctrl-C's signal at exit instead (no code of ours)
    when the interrupt had passed through code a library ran with exec() (a dataclass being made): a
    sticky flag."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(130)

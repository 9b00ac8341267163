"""Turn command-line arguments into one library call each, and its result into output and an exit code."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, NoReturn, TypeVar

import click

from . import __version__
from .errors import CardgenError, Finding, Severity
from .workspace import Workspace

T = TypeVar("T")
COLOURS = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def _fail(exc: CardgenError) -> NoReturn:
    click.echo(exc.format(), err=True)
    sys.exit(exc.exit_code)


def _run(fn: Callable[[], T]) -> T:
    try:
        return fn()
    except CardgenError as exc:
        _fail(exc)


def echo_findings(findings: list[Finding], *, err: bool = False) -> None:
    colour = sys.stdout.isatty() if not err else sys.stderr.isatty()
    for f in findings:
        line = f.format()
        if colour:
            tag = f"{f.severity}[{f.code}]"
            line = line.replace(tag, click.style(tag, fg=COLOURS[f.severity], bold=True), 1)
        click.echo(line, err=err)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cardgen")
@click.option("--root", type=click.Path(file_okay=False), envvar="CARDGEN_ROOT",
              help="Workspace folder (default: the nearest folder with rules/, or $CARDGEN_ROOT).")
@click.pass_context
def main(ctx: click.Context, root: str | None) -> None:
    """cardgen: validate card sets and build print sheets, packs and rulebooks from YAML."""
    ctx.obj = root


def _ws(ctx: click.Context) -> Workspace:
    return _run(lambda: Workspace.find(ctx.obj))


@main.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "summary"]), default="text", show_default=True,
              help="summary: a Markdown digest by category (docs/<game>.md is made this way).")
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
@click.pass_context
def validate(ctx: click.Context, game: str, fmt: str, strict: bool) -> None:
    """Report everything wrong with GAME's model and cards, like a compiler."""
    from .check import check_game, findings_json, findings_summary, summary_line

    ws = _ws(ctx)
    result = _run(lambda: check_game(ws, game))
    if fmt == "json":
        click.echo(findings_json(game, result.findings), nl=False)
    elif fmt == "summary":
        click.echo(findings_summary(result, f"cardgen validate {game} --format summary"), nl=False)
    else:
        echo_findings(result.findings)
        click.echo(summary_line(result))
    sys.exit(1 if result.failed(strict) else 0)


@main.command()
@click.pass_context
def games(ctx: click.Context) -> None:
    """List the games in the workspace."""
    from .model.load import load_model

    ws = _ws(ctx)
    for game in ws.games():
        model, _ = load_model(ws.model_path(game), ws.shown(ws.model_path(game)), game)
        name = model.name if model else "(model has errors)"
        click.echo(f"{game:<16} {name}")


@main.command()
@click.argument("game")
@click.argument("card")
@click.pass_context
def show(ctx: click.Context, game: str, card: str) -> None:
    """Print one CARD (id or name) of GAME as loaded, with where each field comes from."""
    from .show import show_card

    ws = _ws(ctx)
    text, found = _run(lambda: show_card(ws, game, card))
    click.echo(text, nl=False)
    sys.exit(0 if found else 1)


@main.command()
@click.argument("game")
@click.pass_context
def new(ctx: click.Context, game: str) -> None:
    """Scaffold a new GAME: a model, three sample cards and a template."""
    from .scaffold import scaffold

    root = Path(ctx.obj) if ctx.obj else Path.cwd()
    created = _run(lambda: scaffold(root, game))
    for path in created:
        click.echo(f"created {path}")
    click.echo(f"next: cardgen validate {game} && cardgen build {game}")

"""Turn `cardgen sheet pull|push` arguments into one job call each, and its result into output and
an exit code."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .core import Choice, edition_option, finish, strict_option, ws_from


@click.group()
def sheet() -> None:
    """Cards to and from a spreadsheet (CSV, XLSX, ODS, Google Sheets): pull edits, push cards."""


@sheet.command("pull")
@click.argument("game")
@click.argument("file")
@click.option("--prune", is_flag=True, help="Remove the cards that have no row in the sheet.")
@click.option("--dry-run", is_flag=True, help="Show the changes; write nothing.")
@click.option("--format", "fmt", type=Choice(["text", "json"]), default="text", show_default=True)
@strict_option
@edition_option
@click.pass_context
def pull(
    ctx: click.Context, game: str, file: str, prune: bool, dry_run: bool, fmt: str, strict: bool
) -> None:
    """Pull sheet FILE (.csv, .xlsx, .ods, or a published-CSV http(s) address) into GAME's card
    files: each changed cell changes exactly its YAML value, in place (comments and layout kept).
    Each change is printed as file:line:col old → new."""
    from ..jobs.sheet import pull_json, pull_sheet

    ws = ws_from(ctx)
    result, plan = pull_sheet(ws, game, file, prune=prune, dry_run=dry_run)
    if fmt == "json":
        click.echo(pull_json(game, file, plan, result), nl=False)
        sys.exit(1 if result.failed(strict) else 0)
    finish(result, ws, strict=strict, list_findings=True)


@sheet.command("push")
@click.argument("game")
@click.option(
    "--to",
    "to",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The sheet to write: .xlsx or .ods (one sheet per card file, drop-downs from the model) "
    "or .csv (one table, with a file column).",
)
@edition_option
@click.pass_context
def push(ctx: click.Context, game: str, to: Path) -> None:
    """Write GAME's cards as a sheet: an id column, one column per model field, a copies column."""
    from ..jobs.sheet import push_sheet

    ws = ws_from(ctx)
    finish(push_sheet(ws, game, to), ws, list_findings=True)

"""Turn the commands that make pages (rulebook, gallery, serve, report) into one library call each,
registered on the command group."""

from __future__ import annotations

from pathlib import Path

import click

from ..core.options import Paper
from .core import (
    RULEBOOK_PAPERS,
    PaperChoice,
    edition_given,
    edition_option,
    finish,
    main,
    strict_option,
    ws_from,
)


@main.command()
@click.argument("game")
@click.option("--paper", type=PaperChoice(RULEBOOK_PAPERS), default="a4", show_default=True)
@click.option(
    "--booklet",
    is_flag=True,
    help="Impose two pages per side in saddle-stitch order (fold and staple).",
)
@click.option("--gallery", is_flag=True, help="Add an appendix with every card.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Default: output/GAME/rulebook.pdf. Only this file is written.",
)
@click.option(
    "--html", "html", is_flag=True, help="Also write the same book as HTML beside the PDF."
)
@strict_option
@edition_option
@click.pass_context
def rulebook(
    ctx: click.Context,
    game: str,
    paper: Paper,
    booklet: bool,
    gallery: bool,
    out: Path | None,
    html: bool,
    strict: bool,
) -> None:
    """Build GAME's rulebook PDF from its Markdown chapters, model and card faces (exit 1 on its
    errors)."""
    from ..jobs.rulebook import run_rulebook

    ws = ws_from(ctx)
    finish(
        run_rulebook(ws, game, paper, booklet, gallery, out, html=html),
        ws,
        strict=strict,
        list_findings=True,
    )


@main.command()
@click.argument("game")
@click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), help="Default: output/GAME/gallery."
)
@strict_option
@edition_option
@click.pass_context
def gallery(ctx: click.Context, game: str, out: Path | None, strict: bool) -> None:
    """Write GAME's gallery: every face with its findings, filterable, in a page that opens from
    disk."""
    from ..jobs.gallery import build_gallery

    ws = ws_from(ctx)
    finish(build_gallery(ws, game, out), ws, strict=strict)


@main.command()
@click.argument("game")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Loopback unless you say otherwise."
)
@edition_option
@click.pass_context
def serve(ctx: click.Context, game: str, port: int, host: str) -> None:
    """Serve GAME's gallery and rebuild it live whenever a card, model, template or font changes."""
    from ..live.serve import serve as run_server

    run_server(ws_from(ctx), game, port, host, log=lambda m: click.echo(m, err=True))


@main.command()
@click.argument("game")
@click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), help="Default: output/GAME/report."
)
@strict_option
@edition_option
@click.pass_context
def report(ctx: click.Context, game: str, out: Path | None, strict: bool) -> None:
    """Write GAME's set report: cost curves, stats, rarity and kind mix, keywords, open findings."""
    from ..jobs.editions import run_report_editions

    ws = ws_from(ctx)
    finish(run_report_editions(ws, game, out, not edition_given(ctx)), ws, strict=strict)

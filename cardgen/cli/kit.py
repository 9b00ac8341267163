"""Turn the print-and-play kit's commands (box, tokens, pnp-check) into one library call each,
registered on the command group."""

from __future__ import annotations

from pathlib import Path

import click

from ..core.options import Paper
from ..core.stock import SLEEVE_NAMES
from .core import PAPER, Choice, finish, main, strict_option, ws_from

BOX_PAPER = click.option(
    "--paper",
    type=PAPER,
    default="a4",
    show_default=True,
    help="a4, letter, universal (fits both), or WxH.",
)


@main.command()
@click.argument("game")
@BOX_PAPER
@click.option(
    "--per",
    type=Choice(("back", "game", "lists")),
    help="A box for each deck of cards sharing a back (default), one for the whole game, or one "
    "for each deck list in decks/GAME/ (default: the model's box.per).",
)
@click.option(
    "--style",
    type=Choice(("tuck", "two-piece")),
    help="A one-piece tuck box (default) or a tray and a lid (default: the model's box.style).",
)
@click.option("--stock", help="The cards' stock: '300gsm' or '0.32mm' (default: card.stock).")
@click.option("--board", help="The box's stock: '300gsm' or '0.35mm' (default: box.board).")
@click.option(
    "--sleeves",
    type=Choice(("none", "fit", *SLEEVE_NAMES)),
    help="Size the boxes for sleeved cards: fit (the snuggest common sleeve) or a sleeve's name "
    "(default: card.sleeves, else none).",
)
@click.option(
    "--players",
    type=click.IntRange(1, 10_000),
    help="Count the cards that grow with the players for this many (default: draft.players, else "
    "game.players' most, else 1).",
)
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), help="Default: output/GAME/box.pdf."
)
@strict_option
@click.pass_context
def box(
    ctx: click.Context,
    game: str,
    paper: Paper,
    per: str | None,
    style: str | None,
    stock: str | None,
    board: str | None,
    sleeves: str | None,
    players: int | None,
    out: Path | None,
    strict: bool,
) -> None:
    """A tuck box (or a tray and a lid) for each of GAME's decks, sized from its cards, their stock
    and sleeves: cut, fold and glue."""
    from ..core.errors import CardgenError
    from ..core.stock import stock as parse_stock
    from ..core.units import UnitError
    from ..jobs.kit import run_box
    from ..kit.boxes import BoxOptions

    for name, value in (("--stock", stock), ("--board", board)):
        if value is not None:
            try:
                parse_stock(value)
            except UnitError as exc:
                raise click.BadParameter(str(exc), param_hint=f"'{name}'") from None
    ws = ws_from(ctx)
    opts = BoxOptions(per, style, stock, board, sleeves, players)
    try:
        result = run_box(ws, game, paper, opts, out)
    except UnitError as exc:  # pragma: no cover - the options are parsed above
        raise CardgenError(str(exc)) from exc
    finish(result, ws, strict=strict)


@main.command()
@click.argument("game")
@BOX_PAPER
@click.option(
    "--players",
    type=click.IntRange(1, 10_000),
    help="Print the tokens each player gets (per_player) for this many (default: draft.players, "
    "else game.players' most, else 1).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Default: output/GAME/tokens.pdf.",
)
@strict_option
@click.pass_context
def tokens(
    ctx: click.Context,
    game: str,
    paper: Paper,
    players: int | None,
    out: Path | None,
    strict: bool,
) -> None:
    """GAME's tokens and counters (game.yaml components: with a shape) on sheets with cut lines:
    round, square and hex, double-sided and fold-over."""
    from ..jobs.kit import run_tokens

    ws = ws_from(ctx)
    finish(run_tokens(ws, game, paper, players, out), ws, strict=strict)


@main.command("pnp-check")
@click.argument("game")
@click.option(
    "--format",
    "fmt",
    type=Choice(("text", "json")),
    default="text",
    show_default=True,
    help="The checklist as text or as JSON.",
)
@click.option(
    "--players",
    type=click.IntRange(1, 10_000),
    help="As the build was made for (default: draft.players, else game.players' most, else 1).",
)
@strict_option
@click.pass_context
def pnp_check(ctx: click.Context, game: str, fmt: str, players: int | None, strict: bool) -> None:
    """Check GAME's print-and-play set (output/GAME/pnp/, made by build) as a publisher would:
    pages, file sizes, fonts embedded, picture resolution, one-sided and ink-saving versions, fit on
    A4 and Letter, cards per page, box, tokens. Exit 1 when a check fails."""
    from ..jobs.pnp import run_pnp_check

    ws = ws_from(ctx)
    finish(run_pnp_check(ws, game, fmt, players), ws, strict=strict)

"""Turn `--edition LANG` on a command line into what the command knows of it: the option every
command that loads a game takes, and whether the line names an edition (`build` and `validate`
without one work in every edition)."""

from __future__ import annotations

from typing import Any, Callable

import click

EDITION_KEY = "cardgen.edition"


def edition_given(ctx: click.Context) -> bool:
    """Whether the command line names an edition (`build` without one builds every edition)."""
    return ctx.meta.get(EDITION_KEY) is not None


def _remember_edition(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        if not value.strip():
            raise click.BadParameter("names no language", ctx, param)
        ctx.meta[EDITION_KEY] = value.strip()


def edition_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--edition LANG on every command that loads a game (docs/editions.md)."""
    return click.option(
        "--edition",
        metavar="LANG",
        expose_value=False,
        callback=_remember_edition,
        help="Work in this edition of the game (a language of its editions: section; outputs go "
        "to output/GAME@LANG/). Default: the cards' own language.",
    )(fn)

"""Turn the command line's shared conventions into helpers every command uses: the command group (a
problem is one line and an exit code), --root, findings printed like a compiler, --watch, progress,
shared options."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, NoReturn

import click

from .. import __version__
from ..core.errors import CardgenError, Finding, ModelUnusable, Severity, count, did_you_mean
from ..core.options import DUPLEX, INKS, LAYOUTS, Paper, parse_paper
from ..core.units import UnitError
from ..core.workspace import Workspace
from ..rulebook import BOOK_PAPERS, PAGES
from .editions import EDITION_KEY
from .editions import edition_given as edition_given
from .editions import edition_option as edition_option

if TYPE_CHECKING:
    from ..core.output import JobResult

COLOURS = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
RULEBOOK_PAPERS = tuple(PAGES)


def fail(exc: CardgenError) -> NoReturn:
    if isinstance(exc, ModelUnusable):  # the model's own findings, located, then what it means
        echo_findings(exc.findings, err=True)
    click.echo(exc.format(), err=True)
    sys.exit(exc.exit_code)


def echo_findings(findings: list[Finding], *, err: bool = False) -> None:
    """Findings like a compiler's, root causes first: a model or template error is followed by how
    many findings follow from it, which are left out (`--format json` lists them)."""
    from ..project.check import presented

    colour = sys.stdout.isatty() if not err else sys.stderr.isatty()
    for f, hidden in presented(findings):
        line = f.format()
        if colour:
            tag = f"{f.severity}[{f.code}]"
            line = line.replace(tag, click.style(tag, fg=COLOURS[f.severity], bold=True), 1)
        click.echo(line, err=err)
        if hidden:
            click.echo(
                f"  … and {hidden} finding{'s' if hidden != 1 else ''} that follow from it "
                "(--format json lists them)",
                err=err,
            )


class _Group(click.Group):
    """One place for errors: a CardgenError is one line and its exit code; Ctrl-C exits 130;
    anything else is a bug, reported in one line (CARDGEN_DEBUG=1 shows the traceback)."""

    def invoke(self, ctx: click.Context):  # type: ignore[no-untyped-def]
        try:
            return super().invoke(ctx)
        except (
            click.exceptions.Exit,
            click.ClickException,
            click.exceptions.Abort,
            SystemExit,
        ):
            raise
        except BrokenPipeError:  # `cardgen draft … | head`: the reader has left, not an error
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except CardgenError as exc:
            fail(exc)
        except (
            PermissionError
        ) as exc:  # the workspace or a folder in it is not ours to enter, read or write
            fail(CardgenError(denied(exc)))
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except Exception as exc:  # pragma: no cover - only reached through a bug
            if _interrupted(exc):  # a library's bare `except:` turned Ctrl-C into another error
                click.echo("interrupted", err=True)
                sys.exit(130)
            if os.environ.get("CARDGEN_DEBUG"):
                raise
            click.echo(
                f"internal error: {type(exc).__name__}: {exc} (this is a cardgen bug; "
                "CARDGEN_DEBUG=1 shows where)",
                err=True,
            )
            sys.exit(3)


def _interrupted(exc: BaseException) -> bool:
    """Ctrl-C somewhere in the exception's chain (reportlab turns one during a colour's parse into
    ValueError)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cardgen")
@click.option(
    "--root",
    type=click.Path(file_okay=False),
    envvar="CARDGEN_ROOT",
    help="Workspace folder (default: the nearest folder with rules/, or $CARDGEN_ROOT).",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Read and write no cache (also CARDGEN_NO_CACHE=1): the plain "
    "pipeline, the same files, only slower.",
)
@click.pass_context
def main(ctx: click.Context, root: str | None, no_cache: bool) -> None:
    """cardgen: validate card sets and build print sheets, packs and rulebooks from YAML."""
    from ..speed.cache import set_enabled

    set_enabled(not no_cache)
    ctx.obj = root


def denied(exc: PermissionError) -> str:
    """One line for a folder or file this user may not open: which one, and what cardgen needs."""
    where = f": '{exc.filename}'" if exc.filename else ""
    return (
        f"permission denied{where} "
        "(cardgen reads the workspace's folders and files, and writes in its output/)"
    )


def ws_from(ctx: click.Context) -> Workspace:
    """The workspace the command works in: --root's, and with --edition LANG, that edition of the
    command's GAME (a usage error, with a did-you-mean, for a language the game has no edition
    in)."""
    try:
        ws = Workspace.find(ctx.obj)
    except PermissionError:  # a --root (or a folder on the way to it) this user cannot enter
        raise CardgenError(
            f"cannot enter the workspace '{ctx.obj or os.getcwd()}': permission denied"
        ) from None
    lang, game = ctx.meta.get(EDITION_KEY), ctx.params.get("game")  # cli.editions
    if lang is not None and isinstance(game, str):
        from ..project.editions import with_edition

        return with_edition(ws, game, lang)
    return ws


def strict_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--strict", is_flag=True, help="Fail (exit 1) on warnings too; errors always fail."
    )(fn)


def finish(
    result: "JobResult",
    ws: Workspace,
    *,
    strict: bool = False,
    list_findings: bool = False,
    heading: str = "",
) -> NoReturn:
    """Print a job's result the one way every command does, and exit: 1 when the data has errors
    (with --strict, warnings), else 0. When the command prints a result (packs, a verdict) on
    standard output, everything else goes to standard error."""
    show_result(result, ws, list_findings=list_findings, heading=heading)
    sys.exit(1 if result.failed(strict) else 0)


def watch_loop(
    ws: Workspace, game: str, job: Callable[[], "JobResult"], heading: str = ""
) -> NoReturn:
    """--watch: run the job, then again after each save to the game's files; Ctrl-C stops (exit
    130)."""
    from dataclasses import replace

    from ..live.watch import watch_job

    # the result shown last: one with work left (`pending`) is followed by its rest
    shown: list["JobResult"] = []
    known: list[set[Finding]] = []  # the findings of the last full result, to list what is new

    def show(result: "JobResult | None", error: str | None, seconds: float, rebuilt: bool) -> None:
        stamp = time.strftime("%H:%M:%S")
        when = f"{seconds:.2f} s after the save" if rebuilt else f"in {seconds:.2f} s"
        if result is not None and result.written_at is not None and rebuilt:
            # its outputs were on disk before it ended (a live sheet run's PDF, before its findings)
            ahead = seconds - (time.perf_counter() - result.written_at)
            when = f"{ahead:.2f} s after the save, its findings {seconds:.2f} s"
        before = shown[0] if shown else None
        follows = before is not None and bool(before.pending)
        shown[:] = [result] if result is not None else []
        if result is None:
            click.echo(f"[{stamp}] error: {error}", err=True)
            click.echo(f"[{stamp}] nothing written; watching for changes (Ctrl-C stops)", err=True)
            return
        if before is not None and follows and result.findings == before.findings:
            result = replace(
                result, findings=[]
            )  # the rest of a rebuild: its counts only when they changed
        show_result(result, ws, heading=result.step or ("" if follows else heading))
        if not result.step:  # what this save broke (or a pull's cells) is listed, located
            seen = (known[0] | set(first_listed(result.findings))) if known else set()
            fresh = [f for f in result.findings if known and f not in seen]
            if result.findings or not follows:
                known[:] = [set(result.findings)]
            echo_findings(fresh[:20])
            if len(fresh) > 20:
                click.echo(f"  … and {len(fresh) - 20} more new findings (see 'cardgen validate')")
        then = f"{result.pending}…" if result.pending else "watching for changes (Ctrl-C stops)"
        click.echo(f"[{stamp}] written {when}; {then}")

    watch_job(ws, game, job, show)
    sys.exit(130)  # the loop ends only when interrupted


def show_result(
    result: "JobResult", ws: Workspace, *, list_findings: bool = False, heading: str = ""
) -> None:
    """A job's result: the model's and templates' errors first, located (whatever the command),
    then what it printed and wrote, then its other findings (listed, or counted)."""

    aside = bool(result.text)
    roots = first_listed(result.findings)
    if roots:
        echo_findings(roots, err=aside)
    if heading:
        click.echo(heading)
    if result.text:
        click.echo(result.text, nl=False)
    for out in result.outputs:
        size = out.size
        shown = f"{size / 1024:,.0f} KB" if size else ""
        click.echo(f"  {ws.shown(out.path):<40} {shown:>9}  {out.what}", err=aside)
    for note in result.notes:
        click.echo(f"  {note}", err=aside)
    if list_findings:
        listed = set(roots)
        echo_findings([f for f in result.findings if f not in listed], err=aside)
    c = count(result.findings)
    if any(c.values()) and not list_findings:
        above = sum(1 for f in roots if f.severity is Severity.ERROR)
        shown = f" ({above} shown above)" if above else ""
        click.echo(
            f"  findings: {plural(c['error'], 'error')}{shown}, {plural(c['warning'], 'warning')}, "
            f"{c['info']} info (see 'cardgen validate')",
            err=aside,
        )
    behind = count(result.counted)
    if behind["error"]:
        click.echo(
            f"  and {plural(behind['error'], 'error')} in the cards it is made from "
            "(see 'cardgen validate')",
            err=aside,
        )


def first_listed(findings: list[Finding]) -> list[Finding]:
    """What every command lists before its output: the input files it could not read (whatever it
    made lacks their cards), the model's and templates' errors, and what the command line itself
    asked for (file '')."""
    from ..project.check import is_unread, model_errors

    unread = [f for f in findings if is_unread(f)]
    roots = [f for f in model_errors(findings) if f not in unread]
    return unread + roots + [f for f in findings if not f.file and not f.line]


def plural(n: int, word: str) -> str:
    """'1 error', '2 errors'."""
    return f"{n} {word}{'s' if n != 1 else ''}"


def progress_bar() -> Callable[[str, int, int], None]:
    """A progress line on a terminal (stderr), nothing when piped."""
    if not sys.stderr.isatty():
        return lambda stage, done, total: None

    def show(stage: str, done: int, total: int) -> None:
        width = 30
        filled = int(width * done / max(total, 1))
        click.echo(
            f"\r{stage:>6} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}",
            err=True,
            nl=done >= total,
        )

    return show


def parse_offset(value: str) -> tuple[float, float]:
    import math

    try:
        dx, dy = (float(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter(f"takes DX,DY in mm, e.g. 0.5,-1; not '{value}'") from None
    if not all(math.isfinite(v) and abs(v) <= 20 for v in (dx, dy)):
        raise click.BadParameter(
            f"each offset must be a number of millimetres between -20 and 20, not '{value}'"
        )
    return dx, dy


DECK = click.option(
    "--deck",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A deck list: print or export exactly its cards (every section).",
)


WATCH = click.option(
    "--watch",
    is_flag=True,
    help="Stay running: write again a moment after each save to the game's cards, model, "
    "templates or fonts (Ctrl-C stops).",
)


class PaperType(click.ParamType):
    """--paper: a standard paper's name or WIDTHxHEIGHT with units, parsed once into a Paper."""

    name = "text"  # the metavar --help shows, as before

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> Paper:
        if isinstance(value, Paper):
            return value
        try:
            return parse_paper(str(value))
        except UnitError as exc:
            self.fail(str(exc), param, ctx)


class Choice(click.Choice):
    """click's Choice, with 'did you mean …?' on a near miss ('lng': 'long')."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            hint = did_you_mean(str(value), [str(c) for c in self.choices])
            if not hint:
                raise
            self.fail(f"{exc.message.rstrip('.')}; {hint}", param, ctx)


class PaperChoice(Choice):
    """--paper among a few standard papers (the rulebook's pages), as a Paper."""

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> Paper:
        if isinstance(value, Paper):
            return value
        return BOOK_PAPERS[super().convert(value, param, ctx)]


PAPER = PaperType()
DUPLEX_CHOICE = Choice(DUPLEX)
LAYOUT_CHOICE = Choice(LAYOUTS)

INK = click.option(
    "--ink",
    type=Choice(INKS),
    default="normal",
    show_default=True,
    help="low: white ground, coloured outlines and type only (same layout): a playtest print run "
    "for a fraction of the toner.",
)


PLAYERS = click.option(
    "--players",
    type=click.IntRange(1, 10_000),
    help="Default: the model's draft.players, else what one print run supports (at most 8), "
    "else 8.",
)
SEED = click.option(
    "--seed",
    type=click.IntRange(min=0),
    help="Replay a deal; without it a random seed is chosen and printed.",
)
RUNS = click.option(
    "--print-runs",
    type=click.IntRange(1, 1000),
    default=1,
    show_default=True,
    help="Exhaust mode: runs shuffled together.",
)

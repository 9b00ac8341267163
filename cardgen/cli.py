"""Turn command-line arguments into one library call each, and its JobResult into output and an exit code."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, NoReturn

import click

from . import __version__
from .errors import CardgenError, Finding, Severity, count, suggest
from .export import TARGETS
from .rulebook import PAGES
from .workspace import Workspace

if TYPE_CHECKING:
    from .output import JobResult

COLOURS = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
RULEBOOK_PAPERS = tuple(PAGES)


def _fail(exc: CardgenError) -> NoReturn:
    click.echo(exc.format(), err=True)
    sys.exit(exc.exit_code)


def echo_findings(findings: list[Finding], *, err: bool = False) -> None:
    colour = sys.stdout.isatty() if not err else sys.stderr.isatty()
    for f in findings:
        line = f.format()
        if colour:
            tag = f"{f.severity}[{f.code}]"
            line = line.replace(tag, click.style(tag, fg=COLOURS[f.severity], bold=True), 1)
        click.echo(line, err=err)


class _Group(click.Group):
    """One place for errors: a CardgenError is one line and its exit code; Ctrl-C exits 130; anything else is a
    bug, reported in one line (CARDGEN_DEBUG=1 shows the traceback)."""

    def invoke(self, ctx: click.Context):  # type: ignore[no-untyped-def]
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort, SystemExit, BrokenPipeError):
            raise
        except CardgenError as exc:
            _fail(exc)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except Exception as exc:  # pragma: no cover - only reached through a bug
            if os.environ.get("CARDGEN_DEBUG"):
                raise
            click.echo(f"internal error: {type(exc).__name__}: {exc} (this is a cardgen bug; "
                       "CARDGEN_DEBUG=1 shows where)", err=True)
            sys.exit(3)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cardgen")
@click.option("--root", type=click.Path(file_okay=False), envvar="CARDGEN_ROOT",
              help="Workspace folder (default: the nearest folder with rules/, or $CARDGEN_ROOT).")
@click.pass_context
def main(ctx: click.Context, root: str | None) -> None:
    """cardgen: validate card sets and build print sheets, packs and rulebooks from YAML."""
    ctx.obj = root


def _ws(ctx: click.Context) -> Workspace:
    return Workspace.find(ctx.obj)


def _strict(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--strict", is_flag=True, help="Fail (exit 1) on warnings too; errors always fail.")(fn)


def _finish(result: "JobResult", ws: Workspace, *, strict: bool = False, list_findings: bool = False) -> NoReturn:
    """Print a job's result the one way every command does, and exit: 1 when the data has errors (with
    --strict, warnings), else 0. When the command prints a result (packs, a verdict) on standard output,
    everything else goes to standard error."""
    _show(result, ws, list_findings=list_findings)
    sys.exit(1 if result.failed(strict) else 0)


def _watch(ws: Workspace, game: str, job: Callable[[], "JobResult"], heading: str = "") -> NoReturn:
    """--watch: run the job, then again after each save to the game's files; Ctrl-C stops (exit 130)."""
    from .watch import watch_job

    def show(result: "JobResult | None", error: str | None, seconds: float, rebuilt: bool) -> None:
        stamp = time.strftime("%H:%M:%S")
        when = f"{seconds:.2f} s after the save" if rebuilt else f"in {seconds:.2f} s"
        if result is None:
            click.echo(f"[{stamp}] error: {error}", err=True)
            click.echo(f"[{stamp}] nothing written; watching for changes (Ctrl-C stops)", err=True)
            return
        if heading:
            click.echo(heading)
        _show(result, ws)
        click.echo(f"[{stamp}] written {when}; watching for changes (Ctrl-C stops)")

    watch_job(ws, game, job, show)
    sys.exit(130)  # the loop ends only when interrupted


def _show(result: "JobResult", ws: Workspace, *, list_findings: bool = False) -> None:
    aside = bool(result.text)
    if result.text:
        click.echo(result.text, nl=False)
    for out in result.outputs:
        size = out.size
        shown = f"{size / 1024:,.0f} KB" if size else ""
        click.echo(f"  {ws.shown(out.path):<40} {shown:>9}  {out.what}", err=aside)
    for note in result.notes:
        click.echo(f"  {note}", err=aside)
    if list_findings:
        echo_findings(result.findings, err=aside)
    c = count(result.findings)
    if any(c.values()) and not list_findings:
        click.echo(f"  findings: {c['error']} errors, {c['warning']} warnings, {c['info']} info "
                   f"(see 'cardgen validate')", err=aside)


def _progress() -> Callable[[str, int, int], None]:
    """A progress line on a terminal (stderr), nothing when piped."""
    if not sys.stderr.isatty():
        return lambda stage, done, total: None

    def show(stage: str, done: int, total: int) -> None:
        width = 30
        filled = int(width * done / max(total, 1))
        click.echo(f"\r{stage:>6} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}", err=True,
                   nl=done >= total)
    return show


@main.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "summary"]), default="text", show_default=True,
              help="summary: a Markdown digest by category (docs/<game>.md is made this way).")
@_strict
@click.pass_context
def validate(ctx: click.Context, game: str, fmt: str, strict: bool) -> None:
    """Report everything wrong with GAME's model, cards, templates and rulebook, like a compiler."""
    from .check import findings_json, findings_summary, summary_line
    from .findings import validate_game

    result = validate_game(_ws(ctx), game, progress=_progress())
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
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.pass_context
def changes(ctx: click.Context, game: str, ref: str, fmt: str) -> None:
    """List GAME's cards added, changed or removed since REF, a git revision of the workspace."""
    from .changes import changes_json, changes_text
    from .changes import changes_since as since
    from .workspace import load_game

    ws = _ws(ctx)
    loaded = load_game(ws, game)
    if loaded.model is None:
        raise CardgenError(f"{game}: the model has errors; run 'cardgen validate {game}'")
    found = since(ws, game, ref, loaded.catalog, loaded.model)
    click.echo(changes_json(found, game, ref) if fmt == "json" else changes_text(found, ref), nl=False)


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
@_strict
@click.pass_context
def show(ctx: click.Context, game: str, card: str, strict: bool) -> None:
    """Print one CARD (id or name) of GAME as loaded, with where each field comes from and its findings."""
    from .show import show_card

    ws = _ws(ctx)
    _finish(show_card(ws, game, card), ws, strict=strict, list_findings=True)


@main.command()
@click.argument("game")
@click.pass_context
def new(ctx: click.Context, game: str) -> None:
    """Scaffold a new GAME: a model, three sample cards and a template."""
    from .scaffold import scaffold

    root = Path(ctx.obj) if ctx.obj else Path.cwd()
    created = scaffold(root, game)
    for path in created:
        click.echo(f"created {path.relative_to(root.resolve()) if path.is_relative_to(root.resolve()) else path}")
    click.echo(f"next: cardgen validate {game} && cardgen build {game}")


def _offset(value: str) -> tuple[float, float]:
    import math

    try:
        dx, dy = (float(v) for v in value.split(","))
    except ValueError:
        raise click.BadParameter(f"takes DX,DY in mm, e.g. 0.5,-1; not '{value}'") from None
    if not all(math.isfinite(v) and abs(v) <= 20 for v in (dx, dy)):
        raise click.BadParameter(f"each offset must be a number of millimetres between -20 and 20, not '{value}'")
    return dx, dy


_DECK = click.option("--deck", type=click.Path(dir_okay=False, path_type=Path),
                     help="A deck list: print or export exactly its cards (every section).")


_WATCH = click.option("--watch", is_flag=True,
                      help="Stay running: write again a moment after each save to the game's cards, model, "
                           "templates or fonts (Ctrl-C stops).")


_INK = click.option("--ink", type=click.Choice(["normal", "low"]), default="normal", show_default=True,
                    help="low: white ground, coloured outlines and type only (same layout): a playtest print run "
                         "for a fraction of the toner.")


@main.command()
@click.argument("game")
@click.option("--paper", default="a4", show_default=True, help="a4, letter, legal, a3, a5 or WxH (e.g. '8.5in x 11in').")
@click.option("--copies", type=click.Choice(["one", "collation", "deck"]), default=None,
              help="one of each design, the model's print run (default), or the --deck list.")
@_DECK
@click.option("--duplex", type=click.Choice(["long", "short", "none"]), default="long", show_default=True)
@click.option("--layout", type=click.Choice(["shared-cut", "gutter"]), default="shared-cut", show_default=True)
@click.option("--bleed", help="Bleed around each card, with unit (default: the template's).")
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True)
@click.option("--only", help="Only cards for which this expression is true, e.g. \"card.rarity == 'rare'\".")
@click.option("--calibration", is_flag=True, help="Start with a duplex calibration page (ruler and targets).")
@click.option("--back-offset", default="0,0", show_default=True, callback=lambda c, p, v: _offset(v),
              help="Shift back pages by DX,DY mm.")
@_INK
@click.option("--changed-since", metavar="REF", help="Only the designs added or changed since this git revision of "
                                                     "the workspace (e.g. HEAD~1, a tag), after a change-log page.")
@click.option("--versions/--no-versions", default=True, show_default=True,
              help="Print each card's version (its version field, else a content hash) small on its front.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Output PDF (default output/GAME/).")
@_WATCH
@_strict
@click.pass_context
def sheets(ctx: click.Context, game: str, paper: str, copies: str | None, deck: Path | None, duplex: str,
           layout: str, bleed: str | None, crop_marks: bool, only: str | None, calibration: bool,
           back_offset: tuple[float, float], ink: str, changed_since: str | None, versions: bool, out: Path | None,
           watch: bool, strict: bool) -> None:
    """Print sheets for GAME: cards on a centred grid with crop marks and mirrored duplex backs."""
    from .printing import SheetOptions, run_sheets

    if copies == "deck" and deck is None:
        raise click.UsageError("--copies deck needs --deck FILE")
    if deck is not None and copies not in (None, "deck"):
        raise click.UsageError(f"--deck prints the deck list's cards; it cannot go with --copies {copies}")
    ws = _ws(ctx)
    opts = SheetOptions(paper, "deck" if deck else copies or "collation", deck, duplex, layout, bleed, crop_marks,
                        only, calibration, back_offset, out, ink=ink, versions=versions,
                        changed_since=changed_since)
    if watch:
        ws.check_game(game)
        _watch(ws, game, lambda: run_sheets(ws, game, opts))
    _finish(run_sheets(ws, game, opts, _progress()), ws, strict=strict)


@main.command()
@click.argument("game")
@click.option("--to", "target", type=click.Choice(TARGETS), help="Where the export goes.")
@click.option("--png", "png", is_flag=True, help="Export one PNG per unique face.")
@click.option("--dpi", type=click.IntRange(36, 1200), default=300, show_default=True, help="With --png.")
@click.option("--preset", help="With --png: a print-on-demand vendor, tgc or mpc: each face on the vendor's canvas "
                                "for its card size (poker 825x1125 / 822x1122, tarot, mini, bridge, square).")
@click.option("--only", help="With --png: only cards for which this expression is true.")
@click.option("--press/--no-press", default=None, help="With --to dtc (the default there): a press-ready PDF/X-1a:2003 "
                                                       "in CMYK; --no-press keeps RGB.")
@_INK
@_DECK
@click.option("--image-base", help="Where the images will be served (a URL): Draftmancer, Tabletop Simulator. "
                                   "Default: 'images/' for Draftmancer, the files' own file:// paths for TTS.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Folder (default output/GAME/…).")
@click.pass_context
def export(ctx: click.Context, game: str, target: str | None, png: bool, dpi: int, preset: str | None,
           only: str | None, press: bool | None, ink: str, deck: Path | None, image_base: str | None,
           out: Path | None) -> None:
    """Export GAME for Tabletop Simulator, Cockatrice, Draftmancer or print on demand, or as PNG faces."""
    if png == bool(target):
        raise click.UsageError("give either --to TARGET or --png")
    ws = _ws(ctx)
    if target:
        from .export.run import run_export
        from .output import Output

        made = run_export(ws, game, target, out, deck, image_base, press=press)
        folder = out or ws.output_dir(game) / "export" / target
        if made.outputs:
            made.outputs = [Output(folder, f"{len(made.outputs)} files for {target}")]
        _finish(made, ws, list_findings=True)
    from .printing import PngOptions, export_pngs
    from .project import open_studio
    from .render.vendors import vendor

    if preset:
        vendor(preset.removesuffix("-poker"))
    if deck is not None:
        raise click.UsageError("--deck goes with --to; --png exports every face")
    folder = out or ws.output_dir(game) / (f"png-{preset}" if preset else "png")
    result = export_pngs(open_studio(ws, game), PngOptions(dpi, preset, out, only, cache=True, ink=ink), folder, _progress())
    result.notes.append(f"{len(result.outputs)} PNG files in {ws.shown(folder)}")
    result.outputs = []
    _finish(result, ws)


@main.command()
@click.argument("game")
@click.option("--paper", default="a4", show_default=True, help="Sheets: any paper; the rulebook: a4, letter or a5.")
@click.option("--no-png", is_flag=True, help="Skip the PNG export.")
@click.option("--no-rulebook", is_flag=True, help="Skip the rulebook.")
@click.option("--exports", default="", help="Comma-separated export targets, e.g. tts,cockatrice (none by default).")
@click.option("--players", type=click.IntRange(1, 10_000),
              help="Draft night packs: players (default: the model's, or one print run's).")
@click.option("--seed", type=click.IntRange(min=0), help="Draft night packs: the seed (default: draft.seed, else 1).")
@_INK
@_WATCH
@_strict
@click.pass_context
def build(ctx: click.Context, game: str, paper: str, no_png: bool, no_rulebook: bool, exports: str,
          players: int | None, seed: int | None, ink: str, watch: bool, strict: bool) -> None:
    """Validate GAME, then write everything it can produce into output/GAME/ (exit 1 if the data has errors)."""
    from .build import BuildOptions, LiveBuild, build_game
    targets = tuple(t.strip() for t in exports.split(",") if t.strip())
    for t in targets:
        if t not in TARGETS:
            raise click.BadParameter(suggest(f"unknown export target '{t}' (targets: {', '.join(TARGETS)})", t,
                                             list(TARGETS)), param_hint="'--exports'")
    if not no_rulebook and paper.lower() not in RULEBOOK_PAPERS:
        raise click.BadParameter(f"the rulebook is laid out on {', '.join(RULEBOOK_PAPERS)}, not '{paper}'; "
                                 "choose one of those or add --no-rulebook", param_hint="'--paper'")
    ws = _ws(ctx)
    options = BuildOptions(paper, not no_png, rulebook=not no_rulebook, exports=targets, players=players, seed=seed,
                           ink=ink)
    if watch:
        ws.check_game(game)
        _watch(ws, game, LiveBuild(ws, game, options), heading=f"built {game}:")
    result = build_game(ws, game, options, _progress())
    click.echo(f"built {game}:")
    _finish(result, ws, strict=strict)


_PLAYERS = click.option("--players", type=click.IntRange(1, 10_000),
                        help="Default: the model's draft.players, else what one print run supports (at most 8), else 8.")
_SEED = click.option("--seed", type=click.IntRange(min=0),
                     help="Replay a deal; without it a random seed is chosen and printed.")
_RUNS = click.option("--print-runs", type=click.IntRange(1, 1000), default=1, show_default=True,
                     help="Exhaust mode: runs shuffled together.")


@main.command()
@click.argument("game")
@_PLAYERS
@click.option("--packs-per-player", type=click.IntRange(1, 100), help="Default: the model's draft format.")
@_SEED
@_RUNS
@click.option("--format", "fmt", type=click.Choice(["text", "csv", "json"]), default="text", show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Also write txt, csv and json here.")
@click.option("--sheets", is_flag=True, help="Write a PDF with each pack on its own pages, labelled.")
@click.option("--pack-format", "format_name", help="Which of the model's pack formats (default: the first).")
@click.option("--stats", type=click.IntRange(1, 10_000_000), metavar="M",
              help="Generate M packs (slots) or M pods (exhaust) and test fairness.")
@click.pass_context
def packs(ctx: click.Context, game: str, players: int | None, packs_per_player: int | None, seed: int | None,
          print_runs: int, fmt: str, out: Path | None, sheets: bool, format_name: str | None,
          stats: int | None) -> None:
    """Deal booster packs for GAME from its print run or slot sheets, seeded and replayable."""
    from .packs.run import PackOptions, run_packs

    ws = _ws(ctx)
    opts = PackOptions(players, packs_per_player, seed, print_runs, fmt, out, sheets, format_name, stats)
    _finish(run_packs(ws, game, opts), ws)


@main.command()
@click.argument("game")
@_PLAYERS
@_SEED
@_RUNS
@click.option("--format", "fmt", type=click.Choice(["json", "csv"]), default="json", show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--pack-format", "format_name")
@click.pass_context
def draft(ctx: click.Context, game: str, players: int | None, seed: int | None, print_runs: int, fmt: str,
          out: Path | None, format_name: str | None) -> None:
    """Simulate a pod draft of GAME with simple bots: every seat's picks and a pick log."""
    from .packs.run import run_draft

    ws = _ws(ctx)
    _finish(run_draft(ws, game, players, seed, fmt, out, format_name, print_runs), ws)


@main.command()
@click.argument("game")
@click.option("--paper", type=click.Choice(RULEBOOK_PAPERS), default="a4", show_default=True)
@click.option("--booklet", is_flag=True, help="Impose two pages per side in saddle-stitch order (fold and staple).")
@click.option("--gallery", is_flag=True, help="Add an appendix with every card.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Default: output/GAME/rulebook.pdf.")
@_strict
@click.pass_context
def rulebook(ctx: click.Context, game: str, paper: str, booklet: bool, gallery: bool, out: Path | None,
             strict: bool) -> None:
    """Build GAME's rulebook PDF from its Markdown chapters, model and card faces (exit 1 on its errors)."""
    from .rulebook.job import run_rulebook

    ws = _ws(ctx)
    _finish(run_rulebook(ws, game, paper, booklet, gallery, out), ws, strict=strict, list_findings=True)


@main.group()
def deck() -> None:
    """Deck lists: check one against the game's deck rules."""


@deck.command("check")
@click.argument("game")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--pool", type=click.Path(dir_okay=False, path_type=Path),
              help="A draft from 'cardgen draft --format json': the deck must come from a seat's picks.")
@click.option("--seat", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--rules", "rules_name", help="A named deck format of the model (e.g. draft); default: the list's "
                                            "'# rules: NAME' line, else the model's deck rules.")
@_strict
@click.pass_context
def deck_check(ctx: click.Context, game: str, file: Path, fmt: str, pool: Path | None, seat: int,
               strict: bool, rules_name: str | None) -> None:
    """Check deck list FILE for GAME: exit 0 when legal, 1 when not, 2 when it cannot be read."""
    from .check import findings_json
    from .decks.run import run_deck_check

    ws = _ws(ctx)
    result = run_deck_check(ws, game, file, pool, seat, strict, rules_name)
    if fmt == "json":
        click.echo(findings_json(game, result.findings), nl=False)
        sys.exit(1 if result.failed(strict) else 0)
    echo_findings(result.findings)
    click.echo(result.text, nl=False)
    sys.exit(1 if result.failed(strict) else 0)


@main.command()
@click.argument("game")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Default: output/GAME/gallery.")
@_strict
@click.pass_context
def gallery(ctx: click.Context, game: str, out: Path | None, strict: bool) -> None:
    """Write GAME's gallery: every face with its findings, filterable, in a page that opens from disk."""
    from .gallery.job import build_gallery

    ws = _ws(ctx)
    _finish(build_gallery(ws, game, out), ws, strict=strict)


@main.command()
@click.argument("game")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="Loopback unless you say otherwise.")
@click.pass_context
def serve(ctx: click.Context, game: str, port: int, host: str) -> None:
    """Serve GAME's gallery and rebuild it live whenever a card, model, template or font changes."""
    from .gallery.serve import serve as run_server

    run_server(_ws(ctx), game, port, host, log=lambda m: click.echo(m, err=True))


@main.command()
@click.argument("game")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Default: output/GAME/report.")
@_strict
@click.pass_context
def report(ctx: click.Context, game: str, out: Path | None, strict: bool) -> None:
    """Write GAME's set report: cost curves, stats, rarity and kind mix, keywords, open findings."""
    from .gallery.job import run_report

    ws = _ws(ctx)
    _finish(run_report(ws, game, out), ws, strict=strict)


@main.command()
@click.argument("game")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Default: output/GAME/cards.schema.json.")
@click.pass_context
def schema(ctx: click.Context, game: str, out: Path | None) -> None:
    """Write a JSON Schema for GAME's card files, so YAML editors check cards as you type."""
    from .schema_job import write_card_schema

    ws = _ws(ctx)
    _finish(write_card_schema(ws, game, out), ws)


def hoist_root(args: list[str]) -> list[str]:
    """`--root DIR` may stand anywhere on the line, as users write it; click wants it before the command."""
    moved: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(args):
        if args[i] == "--root" and i + 1 < len(args):
            moved += args[i:i + 2]
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
    try:
        main(args=hoist_root(sys.argv[1:]), prog_name="cardgen")
    except BrokenPipeError:  # `cardgen draft … | head`: the reader has left, which is not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except KeyboardInterrupt:  # Ctrl-C before or after a command ran
        sys.exit(130)

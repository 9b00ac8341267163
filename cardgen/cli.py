"""Turn command-line arguments into one library call each, and its result into output and an exit code."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, NoReturn, TypeVar

import click

from . import __version__
from .errors import CardgenError, Finding, Severity
from .workspace import Workspace

if TYPE_CHECKING:
    from .output import JobResult

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


class _Group(click.Group):
    """Unexpected exceptions are bugs: report them in one line (CARDGEN_DEBUG=1 shows the traceback)."""

    def invoke(self, ctx: click.Context):  # type: ignore[no-untyped-def]
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort, SystemExit, BrokenPipeError):
            raise
        except CardgenError as exc:
            _fail(exc)
        except Exception as exc:  # pragma: no cover - only reached through a bug
            import os

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
    from .project import fit_findings

    ws = _ws(ctx)
    result = _run(lambda: check_game(ws, game, extra=fit_findings, progress=_progress()))
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
        click.echo(f"created {path.relative_to(root.resolve()) if path.is_relative_to(root.resolve()) else path}")
    click.echo(f"next: cardgen validate {game} && cardgen build {game}")


def _progress() -> "Callable[[str, int, int], None]":
    """A progress line on a terminal (stderr), nothing when piped."""
    if not sys.stderr.isatty():
        return lambda stage, done, total: None

    def show(stage: str, done: int, total: int) -> None:
        width = 30
        filled = int(width * done / max(total, 1))
        click.echo(f"\r{stage:>6} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}", err=True,
                   nl=done >= total)
    return show


def _summary(result: "JobResult", ws: Workspace) -> None:
    from .check import summary_line  # noqa: F401
    from .errors import count

    for out in result.outputs:
        size = out.size
        shown = f"{size / 1024:,.0f} KB" if size else ""
        click.echo(f"  {ws.shown(out.path):<40} {shown:>9}  {out.what}")
    for note in result.notes:
        click.echo(f"  {note}")
    c = count(result.findings)
    if any(c.values()):
        click.echo(f"  findings: {c['error']} errors, {c['warning']} warnings, {c['info']} info "
                   f"(see 'cardgen validate')")


def _offset(value: str) -> tuple[float, float]:
    try:
        dx, dy = (float(v) for v in value.split(","))
    except ValueError:
        raise CardgenError(f"--back-offset takes DX,DY in mm, e.g. 0.5,-1; not '{value}'") from None
    return dx, dy


@main.command()
@click.argument("game")
@click.option("--paper", default="a4", show_default=True, help="a4, letter, legal, a3, a5 or WxH (e.g. '8.5in x 11in').")
@click.option("--copies", default="collation", show_default=True,
              help="one, collation (the model's print run), or deck FILE.")
@click.argument("deck_file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--duplex", type=click.Choice(["long", "short", "none"]), default="long", show_default=True)
@click.option("--layout", type=click.Choice(["shared-cut", "gutter"]), default="shared-cut", show_default=True)
@click.option("--bleed", help="Bleed around each card, with unit (default: the template's).")
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True)
@click.option("--only", help="Only cards for which this expression is true, e.g. \"'Dark' in card.factions\".")
@click.option("--calibration", is_flag=True, help="Start with a duplex calibration page (ruler and targets).")
@click.option("--back-offset", default="0,0", show_default=True, help="Shift back pages by DX,DY mm.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Output PDF (default output/GAME/).")
@click.pass_context
def sheets(ctx: click.Context, game: str, paper: str, copies: str, deck_file: Path | None, duplex: str,
           layout: str, bleed: str | None, crop_marks: bool, only: str | None, calibration: bool,
           back_offset: str, out: Path | None) -> None:
    """Print sheets for GAME: cards on a centred grid with crop marks and mirrored duplex backs."""
    from .printing import SheetOptions, run_sheets

    ws = _ws(ctx)
    opts = SheetOptions(paper, copies, deck_file, duplex, layout, bleed, crop_marks, only, calibration,
                        _run(lambda: _offset(back_offset)), out)
    result = _run(lambda: run_sheets(ws, game, opts, _progress()))
    _summary(result, ws)


@main.command()
@click.argument("game")
@click.option("--to", "target", help="tts, cockatrice, draftmancer, tgc, mpc or dtc.")
@click.option("--png", "png", is_flag=True, help="Export one PNG per unique face.")
@click.option("--dpi", default=300, show_default=True, help="With --png.")
@click.option("--preset", help="With --png: tgc-poker (825x1125) or mpc-poker (822x1122).")
@click.option("--only", help="With --png: only cards for which this expression is true.")
@click.option("--deck", type=click.Path(dir_okay=False, path_type=Path), help="Export a deck list instead of the print run.")
@click.option("--image-base", default="images", show_default=True, help="Draftmancer: where the images will be served.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Folder (default output/GAME/…).")
@click.pass_context
def export(ctx: click.Context, game: str, target: str | None, png: bool, dpi: int, preset: str | None,
           only: str | None, deck: Path | None, image_base: str, out: Path | None) -> None:
    """Export GAME for Tabletop Simulator, Cockatrice, Draftmancer or print on demand, or as PNG faces."""
    ws = _ws(ctx)
    if png == bool(target):
        _fail(CardgenError("give either --to TARGET or --png"))
    if target:
        from .export.run import run_export

        outputs, notes = _run(lambda: run_export(ws, game, target, out, deck, image_base))
        click.echo(f"{len(outputs)} files for {target} in {ws.shown(out or ws.output_dir(game) / 'export' / target)}")
        for note in notes:
            click.echo(f"  {note}", err=True)
        return
    from .printing import PngOptions, export_pngs
    from .project import open_studio
    from .render.raster import preset as get_preset

    if preset:
        _run(lambda: get_preset(preset))
    opts = PngOptions(dpi, preset, out, only)
    folder = out or ws.output_dir(game) / (f"png-{preset}" if preset else "png")
    result = _run(lambda: export_pngs(open_studio(ws, game), opts, folder, _progress()))
    click.echo(f"{len(result.outputs)} PNG files in {ws.shown(folder)}")


@main.command()
@click.argument("game")
@click.option("--paper", default="a4", show_default=True)
@click.option("--no-png", is_flag=True, help="Skip the PNG export.")
@click.option("--no-rulebook", is_flag=True, help="Skip the rulebook.")
@click.option("--exports", default="", help="Comma-separated export targets, e.g. tts,cockatrice (none by default).")
@click.option("--strict", is_flag=True, help="Also fail when validation finds errors.")
@click.option("--players", type=int, help="Draft night packs: players (default: the model's, or one print run's).")
@click.option("--seed", type=int, help="Draft night packs: the seed (default: the model's draft.seed, else 1).")
@click.pass_context
def build(ctx: click.Context, game: str, paper: str, no_png: bool, no_rulebook: bool, exports: str,
          strict: bool, players: int | None, seed: int | None) -> None:
    """Validate GAME, then write everything it can produce into output/GAME/."""
    from .build import BuildOptions, build_game
    from .errors import Severity

    ws = _ws(ctx)
    targets = tuple(t.strip() for t in exports.split(",") if t.strip())
    if targets:
        from .export.run import TARGETS

        bad = [t for t in targets if t not in TARGETS]
        if bad:
            _fail(CardgenError(f"unknown export target '{bad[0]}' (targets: {', '.join(TARGETS)})"))
    options = BuildOptions(paper, not no_png, rulebook=not no_rulebook, exports=targets, players=players, seed=seed)
    result = _run(lambda: build_game(ws, game, options, _progress()))
    click.echo(f"built {game}:")
    _summary(result, ws)
    if strict and any(f.severity is Severity.ERROR for f in result.findings):
        sys.exit(1)


@main.command()
@click.argument("game")
@click.option("--players", type=int, help="Default: the model's draft.players, else what one print run supports "
                                          "(at most 8), else 8.")
@click.option("--packs-per-player", type=int, help="Default: the model's draft format.")
@click.option("--seed", type=int, help="Replay a deal; without it a random seed is chosen and printed.")
@click.option("--print-runs", type=int, default=1, show_default=True, help="Exhaust mode: runs shuffled together.")
@click.option("--format", "fmt", type=click.Choice(["text", "csv", "json"]), default="text", show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Also write txt, csv and json here.")
@click.option("--sheets", is_flag=True, help="Write a PDF with each pack on its own pages, labelled.")
@click.option("--pack-format", "format_name", help="Which of the model's pack formats (default: the first).")
@click.option("--stats", type=int, metavar="M", help="Generate M packs (slots) or M pods (exhaust) and test fairness.")
@click.pass_context
def packs(ctx: click.Context, game: str, players: int | None, packs_per_player: int | None, seed: int | None,
          print_runs: int, fmt: str, out: Path | None, sheets: bool, format_name: str | None,
          stats: int | None) -> None:
    """Deal booster packs for GAME from its print run or slot sheets, seeded and replayable."""
    from .packs.run import PackOptions, run_packs

    ws = _ws(ctx)
    opts = PackOptions(players, packs_per_player, seed, print_runs, fmt, out, sheets, format_name, stats)
    result = _run(lambda: run_packs(ws, game, opts))
    click.echo(result.stdout, nl=False)
    for note in result.notes:
        click.echo(note, err=True)
    for o in result.outputs:
        click.echo(f"wrote {ws.shown(o.path)} ({o.what})", err=True)


@main.command()
@click.argument("game")
@click.option("--players", type=int, help="Default: as for 'cardgen packs'.")
@click.option("--seed", type=int)
@click.option("--print-runs", type=int, default=1, show_default=True, help="Exhaust mode: runs shuffled together.")
@click.option("--format", "fmt", type=click.Choice(["json", "csv"]), default="json", show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--pack-format", "format_name")
@click.pass_context
def draft(ctx: click.Context, game: str, players: int | None, seed: int | None, print_runs: int, fmt: str,
          out: Path | None, format_name: str | None) -> None:
    """Simulate a pod draft of GAME with simple bots: every seat's picks and a pick log."""
    from .packs.run import run_draft

    ws = _ws(ctx)
    result = _run(lambda: run_draft(ws, game, players, seed, fmt, out, format_name, print_runs))
    click.echo(result.stdout, nl=False)
    for note in result.notes:
        click.echo(note, err=True)


@main.command()
@click.argument("game")
@click.option("--paper", type=click.Choice(["a4", "letter", "a5"]), default="a4", show_default=True)
@click.option("--booklet", is_flag=True, help="Impose two pages per side in saddle-stitch order (fold and staple).")
@click.option("--gallery", is_flag=True, help="Add an appendix with every card.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Default: output/GAME/rulebook.pdf.")
@click.pass_context
def rulebook(ctx: click.Context, game: str, paper: str, booklet: bool, gallery: bool, out: Path | None) -> None:
    """Build GAME's rulebook PDF from its Markdown chapters, model and card faces."""
    from .rulebook.job import run_rulebook

    ws = _ws(ctx)
    result = _run(lambda: run_rulebook(ws, game, paper, booklet, gallery, out))
    echo_findings(result.findings, err=True)
    _summary(result, ws)
    if result.findings:
        click.echo(f"the rulebook was built with {len(result.findings)} problem(s) marked in it", err=True)


@main.group()
def deck() -> None:
    """Deck lists: check one against the game's deck rules."""


@deck.command("check")
@click.argument("game")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--pool", type=click.Path(dir_okay=False, path_type=Path),
              help="A draft from 'cardgen draft --format json': the deck must come from a seat's picks.")
@click.option("--seat", type=int, default=1, show_default=True)
@click.pass_context
def deck_check(ctx: click.Context, game: str, file: Path, fmt: str, pool: Path | None, seat: int) -> None:
    """Check deck list FILE for GAME: exit 0 when legal, 1 when not, 2 when it cannot be read."""
    from .check import findings_json
    from .decks.run import check_deck_file
    from .errors import Severity, count

    ws = _ws(ctx)
    parsed, findings = _run(lambda: check_deck_file(ws, game, file, pool, seat))
    illegal = any(f.severity is Severity.ERROR for f in findings)
    if fmt == "json":
        click.echo(findings_json(game, findings), nl=False)
    else:
        echo_findings(findings)
        c = count(findings)
        cards = sum(e.count for e in parsed.entries)
        click.echo(f"{parsed.file}: {parsed.format} list, {cards} cards: "
                   + ("not legal" if illegal else "legal") + f" ({c['error']} errors, {c['info']} unverifiable or info)")
    sys.exit(1 if illegal else 0)


@main.command()
@click.argument("game")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Default: output/GAME/gallery.")
@click.pass_context
def gallery(ctx: click.Context, game: str, out: Path | None) -> None:
    """Write GAME's gallery: every face with its findings, filterable, in a page that opens from disk."""
    from .gallery.job import build_gallery

    ws = _ws(ctx)
    result = _run(lambda: build_gallery(ws, game, out))
    click.echo(f"{ws.shown(result.path)}: {result.cards} cards ({result.rendered} faces rendered)")


@main.command()
@click.argument("game")
@click.option("--port", type=int, default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="Loopback unless you say otherwise.")
@click.pass_context
def serve(ctx: click.Context, game: str, port: int, host: str) -> None:
    """Serve GAME's gallery and rebuild it live whenever a card, model, template or font changes."""
    from .gallery.serve import serve as run_server

    ws = _ws(ctx)
    _run(lambda: run_server(ws, game, port, host, log=lambda m: click.echo(m, err=True)))


@main.command()
@click.argument("game")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Default: output/GAME/report.")
@click.pass_context
def report(ctx: click.Context, game: str, out: Path | None) -> None:
    """Write GAME's set report: cost curves, stats, rarity and kind mix, keywords, open findings."""
    from .gallery.job import run_report

    ws = _ws(ctx)
    path = _run(lambda: run_report(ws, game, out))
    click.echo(f"{ws.shown(path)} (figures beside it as PNG)")


def run() -> None:
    """The console entry point: `--root DIR` may stand anywhere on the line, as users write it."""
    args = sys.argv[1:]
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
    try:
        main(args=moved + rest, prog_name="cardgen")
    except BrokenPipeError:  # `cardgen draft … | head`: the reader has left, which is not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)

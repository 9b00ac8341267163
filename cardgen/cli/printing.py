"""Turn the commands that make files (sheets, export, build, rulebook, gallery, serve, report) into one library
call each, registered on the command group."""
from __future__ import annotations

from pathlib import Path

import click

from ..core.errors import suggest
from ..core.options import Duplex, Ink, Layout, Paper
from ..export import TARGETS
from .core import (
    DECK,
    DUPLEX_CHOICE,
    INK,
    LAYOUT_CHOICE,
    PAPER,
    RULEBOOK_PAPERS,
    WATCH,
    PaperChoice,
    finish,
    main,
    parse_offset,
    progress_bar,
    strict_option,
    watch_loop,
    ws_from,
)


@main.command()
@click.argument("game")
@click.option("--paper", type=PAPER, default="a4", show_default=True,
              help="a4, letter, legal, a3, a5 or WxH (e.g. '8.5in x 11in').")
@click.option("--copies", type=click.Choice(["one", "collation", "deck"]), default=None,
              help="one of each design, the model's print run (default), or the --deck list.")
@DECK
@click.option("--duplex", type=DUPLEX_CHOICE, default="long", show_default=True)
@click.option("--layout", type=LAYOUT_CHOICE, default="shared-cut", show_default=True)
@click.option("--bleed", help="Bleed around each card, with unit (default: the template's).")
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True)
@click.option("--only", help="Only cards for which this expression is true, e.g. \"card.rarity == 'rare'\".")
@click.option("--calibration", is_flag=True, help="Start with a duplex calibration page (ruler and targets).")
@click.option("--back-offset", default="0,0", show_default=True, callback=lambda c, p, v: parse_offset(v),
              help="Shift back pages by DX,DY mm.")
@INK
@click.option("--changed-since", metavar="REF", help="Only the designs added or changed since this git revision of "
                                                     "the workspace (e.g. HEAD~1, a tag), after a change-log page.")
@click.option("--versions/--no-versions", default=True, show_default=True,
              help="Print each card's version (its version field, else a content hash) small on its front.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Output PDF (default output/GAME/).")
@WATCH
@strict_option
@click.pass_context
def sheets(ctx: click.Context, game: str, paper: Paper, copies: str | None, deck: Path | None, duplex: Duplex,
           layout: Layout, bleed: str | None, crop_marks: bool, only: str | None, calibration: bool,
           back_offset: tuple[float, float], ink: Ink, changed_since: str | None, versions: bool, out: Path | None,
           watch: bool, strict: bool) -> None:
    """Print sheets for GAME: cards on a centred grid with crop marks and mirrored duplex backs."""
    from ..jobs.sheets import run_sheets
    from ..printrun.printing import SheetOptions

    if copies == "deck" and deck is None:
        raise click.UsageError("--copies deck needs --deck FILE")
    if deck is not None and copies not in (None, "deck"):
        raise click.UsageError(f"--deck prints the deck list's cards; it cannot go with --copies {copies}")
    ws = ws_from(ctx)
    opts = SheetOptions(paper, "deck" if deck else copies or "collation", deck, duplex, layout, bleed, crop_marks,
                        only, calibration, back_offset, out, ink=ink, versions=versions,
                        changed_since=changed_since)
    if watch:
        ws.check_game(game)
        watch_loop(ws, game, lambda: run_sheets(ws, game, opts))
    finish(run_sheets(ws, game, opts, progress_bar()), ws, strict=strict)


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
@INK
@DECK
@click.option("--image-base", help="Where the images will be served (a URL): Draftmancer, Tabletop Simulator. "
                                   "Default: 'images/' for Draftmancer, the files' own file:// paths for TTS.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Folder (default output/GAME/…).")
@click.pass_context
def export(ctx: click.Context, game: str, target: str | None, png: bool, dpi: int, preset: str | None,
           only: str | None, press: bool | None, ink: Ink, deck: Path | None, image_base: str | None,
           out: Path | None) -> None:
    """Export GAME for Tabletop Simulator, Cockatrice, Draftmancer or print on demand, or as PNG faces."""
    if png == bool(target):
        raise click.UsageError("give either --to TARGET or --png")
    ws = ws_from(ctx)
    if target:
        from ..core.output import Output
        from ..jobs.export import run_export

        made = run_export(ws, game, target, out, deck, image_base, press=press)
        folder = out or ws.output_dir(game) / "export" / target
        if made.outputs:
            made.outputs = [Output(folder, f"{len(made.outputs)} files for {target}")]
        finish(made, ws, list_findings=True)
    from ..printrun.printing import PngOptions, export_pngs
    from ..project.studio import open_studio
    from ..render.vendors import vendor

    if preset:
        vendor(preset.removesuffix("-poker"))
    if deck is not None:
        raise click.UsageError("--deck goes with --to; --png exports every face")
    folder = out or ws.output_dir(game) / (f"png-{preset}" if preset else "png")
    result = export_pngs(open_studio(ws, game), PngOptions(dpi, preset, out, only, cache=True, ink=ink), folder, progress_bar())
    result.notes.append(f"{len(result.outputs)} PNG files in {ws.shown(folder)}")
    result.outputs = []
    finish(result, ws)


@main.command()
@click.argument("game")
@click.option("--paper", type=PAPER, default="a4", show_default=True,
              help="Sheets: any paper; the rulebook: a4, letter or a5.")
@click.option("--no-png", is_flag=True, help="Skip the PNG export.")
@click.option("--no-rulebook", is_flag=True, help="Skip the rulebook.")
@click.option("--exports", default="", help="Comma-separated export targets, e.g. tts,cockatrice (none by default).")
@click.option("--players", type=click.IntRange(1, 10_000),
              help="Draft night packs: players (default: the model's, or one print run's).")
@click.option("--seed", type=click.IntRange(min=0), help="Draft night packs: the seed (default: draft.seed, else 1).")
@INK
@WATCH
@strict_option
@click.pass_context
def build(ctx: click.Context, game: str, paper: Paper, no_png: bool, no_rulebook: bool, exports: str,
          players: int | None, seed: int | None, ink: Ink, watch: bool, strict: bool) -> None:
    """Validate GAME, then write everything it can produce into output/GAME/ (exit 1 if the data has errors)."""
    from ..jobs.build import BuildOptions, LiveBuild, build_game
    targets = tuple(t.strip() for t in exports.split(",") if t.strip())
    for t in targets:
        if t not in TARGETS:
            raise click.BadParameter(suggest(f"unknown export target '{t}' (targets: {', '.join(TARGETS)})", t,
                                             list(TARGETS)), param_hint="'--exports'")
    if not no_rulebook and paper.name not in RULEBOOK_PAPERS:
        raise click.BadParameter(f"the rulebook is laid out on {', '.join(RULEBOOK_PAPERS)}, not '{paper}'; "
                                 "choose one of those or add --no-rulebook", param_hint="'--paper'")
    ws = ws_from(ctx)
    options = BuildOptions(paper, not no_png, rulebook=not no_rulebook, exports=targets, players=players, seed=seed,
                           ink=ink)
    if watch:
        ws.check_game(game)
        watch_loop(ws, game, LiveBuild(ws, game, options), heading=f"built {game}:")
    result = build_game(ws, game, options, progress_bar())
    click.echo(f"built {game}:")
    finish(result, ws, strict=strict)


@main.command()
@click.argument("game")
@click.option("--paper", type=PaperChoice(RULEBOOK_PAPERS), default="a4", show_default=True)
@click.option("--booklet", is_flag=True, help="Impose two pages per side in saddle-stitch order (fold and staple).")
@click.option("--gallery", is_flag=True, help="Add an appendix with every card.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Default: output/GAME/rulebook.pdf.")
@strict_option
@click.pass_context
def rulebook(ctx: click.Context, game: str, paper: Paper, booklet: bool, gallery: bool, out: Path | None,
             strict: bool) -> None:
    """Build GAME's rulebook PDF from its Markdown chapters, model and card faces (exit 1 on its errors)."""
    from ..jobs.rulebook import run_rulebook

    ws = ws_from(ctx)
    finish(run_rulebook(ws, game, paper, booklet, gallery, out), ws, strict=strict, list_findings=True)


@main.command()
@click.argument("game")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Default: output/GAME/gallery.")
@strict_option
@click.pass_context
def gallery(ctx: click.Context, game: str, out: Path | None, strict: bool) -> None:
    """Write GAME's gallery: every face with its findings, filterable, in a page that opens from disk."""
    from ..jobs.gallery import build_gallery

    ws = ws_from(ctx)
    finish(build_gallery(ws, game, out), ws, strict=strict)


@main.command()
@click.argument("game")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="Loopback unless you say otherwise.")
@click.pass_context
def serve(ctx: click.Context, game: str, port: int, host: str) -> None:
    """Serve GAME's gallery and rebuild it live whenever a card, model, template or font changes."""
    from ..live.serve import serve as run_server

    run_server(ws_from(ctx), game, port, host, log=lambda m: click.echo(m, err=True))


@main.command()
@click.argument("game")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Default: output/GAME/report.")
@strict_option
@click.pass_context
def report(ctx: click.Context, game: str, out: Path | None, strict: bool) -> None:
    """Write GAME's set report: cost curves, stats, rarity and kind mix, keywords, open findings."""
    from ..jobs.gallery import run_report

    ws = ws_from(ctx)
    finish(run_report(ws, game, out), ws, strict=strict)



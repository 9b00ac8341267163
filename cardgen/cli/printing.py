"""Turn the commands that make print files (sheets, export, build) into one library call each,
registered on the command group."""

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
    edition_given,
    edition_option,
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
@click.option(
    "--paper",
    type=PAPER,
    default="a4",
    show_default=True,
    help="a4, letter, legal, a3, a5, universal (prints on A4 and Letter) or WxH (e.g. '8.5in x "
    "11in').",
)
@click.option(
    "--copies",
    type=click.Choice(["one", "collation", "deck"]),
    default=None,
    help="one of each design, the model's print run (default), or the --deck list.",
)
@DECK
@click.option("--duplex", type=DUPLEX_CHOICE, default="long", show_default=True)
@click.option("--layout", type=LAYOUT_CHOICE, default="shared-cut", show_default=True)
@click.option("--bleed", help="Bleed around each card, with unit (default: the template's).")
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True)
@click.option(
    "--only", help="Only cards for which this expression is true, e.g. \"card.rarity == 'rare'\"."
)
@click.option(
    "--calibration", is_flag=True, help="Start with a duplex calibration page (ruler and targets)."
)
@click.option(
    "--back-offset",
    default="0,0",
    show_default=True,
    callback=lambda c, p, v: parse_offset(v),
    help="Shift back pages by DX,DY mm.",
)
@INK
@click.option(
    "--changed-since",
    metavar="REF",
    help="Only the designs added or changed since this git revision of "
    "the workspace (e.g. HEAD~1, a tag), after a change-log page.",
)
@click.option(
    "--versions/--no-versions",
    default=True,
    show_default=True,
    help="Print each card's version (its version field, else a content hash) small on its front.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Output PDF (default output/GAME/).",
)
@click.option(
    "--players",
    type=click.IntRange(1, 10_000),
    help="Print copies that grow with the players (role per-player) for this many (default: the "
    "model's draft.players, else game.players' most, else 1).",
)
@WATCH
@strict_option
@edition_option
@click.pass_context
def sheets(
    ctx: click.Context,
    game: str,
    paper: Paper,
    copies: str | None,
    deck: Path | None,
    duplex: Duplex,
    layout: Layout,
    bleed: str | None,
    crop_marks: bool,
    only: str | None,
    calibration: bool,
    back_offset: tuple[float, float],
    ink: Ink,
    changed_since: str | None,
    versions: bool,
    out: Path | None,
    players: int | None,
    watch: bool,
    strict: bool,
) -> None:
    """Print sheets for GAME: cards on a centred grid with crop marks and mirrored duplex backs."""
    from ..jobs.sheets import run_sheets
    from ..printrun.printing import SheetOptions

    if copies == "deck" and deck is None:
        raise click.UsageError("--copies deck needs --deck FILE")
    if deck is not None and copies not in (None, "deck"):
        raise click.UsageError(
            f"--deck prints the deck list's cards; it cannot go with --copies {copies}"
        )
    ws = ws_from(ctx)
    opts = SheetOptions(
        paper,
        "deck" if deck else copies or "collation",
        deck,
        duplex,
        layout,
        bleed,
        crop_marks,
        only,
        calibration,
        back_offset,
        out,
        ink=ink,
        versions=versions,
        changed_since=changed_since,
        players=players,
    )
    if watch:
        ws.check_game(game)
        watch_loop(ws, game, lambda: run_sheets(ws, game, opts))
    finish(run_sheets(ws, game, opts, progress_bar()), ws, strict=strict)


@main.command()
@click.argument("game")
@click.option("--to", "target", type=click.Choice(TARGETS), help="Where the export goes.")
@click.option("--png", "png", is_flag=True, help="Export one PNG per unique face.")
@click.option(
    "--dpi", type=click.IntRange(36, 1200), default=300, show_default=True, help="With --png."
)
@click.option(
    "--preset",
    help="With --png: a print-on-demand vendor, tgc or mpc: each face on the vendor's canvas "
    "for its card size (poker 825x1125 / 822x1122, tarot, mini, bridge, square).",
)
@click.option("--only", help="With --png: only cards for which this expression is true.")
@click.option(
    "--press/--no-press",
    default=None,
    help="With --to dtc (the default there): a press-ready PDF/X-1a:2003 "
    "in CMYK; --no-press keeps RGB.",
)
@INK
@DECK
@click.option(
    "--image-base",
    help="Where the images will be served (a URL): Draftmancer, Tabletop Simulator. "
    "Default: 'images/' for Draftmancer, the files' own file:// paths for TTS.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder (default output/GAME/…).",
)
@click.option(
    "--players",
    type=click.IntRange(1, 10_000),
    help="With --to tts, tgc, mpc or dtc: export copies that grow with the players (role "
    "per-player) for this many, as sheets --players (default: the model's draft.players, else "
    "game.players' most, else 1).",
)
@edition_option
@click.pass_context
def export(
    ctx: click.Context,
    game: str,
    target: str | None,
    png: bool,
    dpi: int,
    preset: str | None,
    only: str | None,
    press: bool | None,
    ink: Ink,
    deck: Path | None,
    image_base: str | None,
    out: Path | None,
    players: int | None,
) -> None:
    """Export GAME for Tabletop Simulator, Cockatrice, Draftmancer or print on demand, or as PNG
    faces."""
    if png == bool(target):
        raise click.UsageError("give either --to TARGET or --png")
    if players is not None and target not in ("tts", "tgc", "mpc", "dtc"):
        raise click.UsageError(
            "--players scales the print run's copies: it goes with --to tts, tgc, mpc or dtc"
            + (" (--png writes each face once)" if png else "")
        )
    if players is not None and deck is not None:
        raise click.UsageError(
            "--players scales the print run; a deck list (--deck) gives its counts"
        )
    ws = ws_from(ctx)
    if target:
        from ..core.output import Output
        from ..jobs.export import run_export

        made = run_export(ws, game, target, out, deck, image_base, press=press, players=players)
        folder = out or ws.output_dir(game) / "export" / target
        if made.outputs:
            made.outputs = [Output(folder, f"{len(made.outputs)} files for {target}")]
        finish(made, ws, list_findings=True)
    from ..jobs.export import run_png_export
    from ..printrun.pngs import PngOptions
    from ..render.vendors import vendor

    if preset:
        vendor(preset.removesuffix("-poker"))
    if deck is not None:
        raise click.UsageError("--deck goes with --to; --png exports every face")
    folder = out or ws.output_dir(game) / (f"png-{preset}" if preset else "png")
    result = run_png_export(
        ws, game, PngOptions(dpi, preset, out, only, cache=True, ink=ink), folder, progress_bar()
    )
    result.notes.append(f"{len(result.outputs)} PNG files in {ws.shown(folder)}")
    result.outputs = []
    finish(result, ws)


@main.command()
@click.argument("game")
@click.option(
    "--paper",
    type=PAPER,
    default="a4",
    show_default=True,
    help="Sheets: any paper; the rulebook: a4, letter, a5 or universal.",
)
@click.option("--no-png", is_flag=True, help="Skip the PNG export.")
@click.option("--no-rulebook", is_flag=True, help="Skip the rulebook.")
@click.option(
    "--no-kit",
    is_flag=True,
    help="Skip the print-and-play kit: boxes, token sheets, the set in output/GAME/pnp/ and its "
    "check.",
)
@click.option(
    "--exports",
    default="",
    help="Comma-separated export targets, e.g. tts,cockatrice (none by default).",
)
@click.option(
    "--players",
    type=click.IntRange(1, 10_000),
    help="Players: draft night packs, and the copies that grow with the players (role "
    "per-player) on the sheets and in the exports (default: the model's draft.players, else "
    "game.players' most, else 1).",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    help="Draft night packs: the seed (default: draft.seed, else 1).",
)
@INK
@WATCH
@strict_option
@edition_option
@click.pass_context
def build(
    ctx: click.Context,
    game: str,
    paper: Paper,
    no_png: bool,
    no_rulebook: bool,
    no_kit: bool,
    exports: str,
    players: int | None,
    seed: int | None,
    ink: Ink,
    watch: bool,
    strict: bool,
) -> None:
    """Validate GAME, then write everything it can produce into output/GAME/ (exit 1 if the data has
    errors); a game with editions: every edition, each other into output/GAME@LANG/."""
    from ..jobs.build import BuildOptions, LiveBuild, build_game
    from ..jobs.editions import build_every_edition
    from ..project.editions import has_editions

    targets = tuple(t.strip() for t in exports.split(",") if t.strip())
    for t in targets:
        if t not in TARGETS:
            raise click.BadParameter(
                suggest(
                    f"unknown export target '{t}' (targets: {', '.join(TARGETS)})", t, list(TARGETS)
                ),
                param_hint="'--exports'",
            )
    if not no_rulebook and paper.name not in RULEBOOK_PAPERS:
        raise click.BadParameter(
            f"the rulebook is laid out on {', '.join(RULEBOOK_PAPERS)}, not '{paper}'; "
            "choose one of those or add --no-rulebook",
            param_hint="'--paper'",
        )
    ws = ws_from(ctx)
    options = BuildOptions(
        paper,
        not no_png,
        rulebook=not no_rulebook,
        exports=targets,
        players=players,
        seed=seed,
        ink=ink,
        kit=not no_kit,
    )
    if watch:
        ws.check_game(game)
        every = not edition_given(ctx) and has_editions(ws, game)  # each into its own folder
        job = (lambda: build_every_edition(ws, game, options)) if every else None
        watch_loop(ws, game, job or LiveBuild(ws, game, options), heading=f"built {game}:")
    # without --edition, every edition, each into its own folder (one build_game for a game
    # without editions): the model is loaded once, by the build
    build = build_game if edition_given(ctx) else build_every_edition
    result = build(ws, game, options, progress_bar())
    finish(result, ws, strict=strict, heading=f"built {game}:")

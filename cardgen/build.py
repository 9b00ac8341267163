"""The pipeline in one place: load and check everything, plan the outputs, then write them atomically."""
from __future__ import annotations

from dataclasses import dataclass

from .errors import CardgenError, sort_findings
from .output import JobResult, Output, write_atomic
from .printing import (
    PngOptions,
    Progress,
    SheetOptions,
    choose_cards,
    export_pngs,
    quiet,
    sheet_bytes,
)
from .project import Studio, open_studio, save_disk_cache, with_disk_cache
from .workspace import Workspace


@dataclass
class BuildOptions:
    paper: str = "a4"
    png: bool = True
    dpi: int = 300
    rulebook: bool = True
    exports: tuple[str, ...] = ()
    players: int | None = None  # draft night: default the model's draft.players or what one print run supports
    seed: int | None = None  # default the model's draft.seed, else 1: a build is reproducible
    ink: str = "normal"  # or "low": sheets and PNGs with a white ground, outlines and type


def build_game(ws: Workspace, game: str, opts: BuildOptions, progress: Progress = quiet) -> JobResult:
    """Everything the game can produce, into output/GAME/: validation report, print sheets, PNG faces, gallery,
    set report, rulebook, draft night packs and exports. The findings are the one collection (`validate`'s)."""
    from .check import CheckResult, summary_line
    from .findings import all_findings

    # 1. gather all data from all files, check it and make every document in memory
    studio = with_disk_cache(open_studio(ws, game))
    studio.prefetch(studio.designs(printable=True))  # laid out and drawn once, on every core, for all that follows
    findings = all_findings(studio)
    sheet_opts = SheetOptions(paper=opts.paper, ink=opts.ink)
    chosen, _ = choose_cards(studio, sheet_opts)
    sheets = sheet_bytes(studio, sheet_opts, chosen, progress=progress) if chosen else None
    book = None
    if opts.rulebook and (ws.root / "rules" / game / "rulebook" / "index.md").is_file():
        from .rulebook.job import cached_rulebook

        progress("book", 0, 1)
        book = cached_rulebook(ws, game, opts.paper.lower(), studio)  # rebuilt only when an input changed
        findings = sort_findings(set(findings) | set(book.findings))
        progress("book", 1, 1)
    report = "".join(f.format() + "\n" for f in findings) + summary_line(CheckResult(studio.check.loaded, findings))
    # 2. write
    out = ws.output_dir(game)
    result = JobResult(findings=findings)
    result.outputs.append(Output(write_atomic(out / "validation.txt", report + "\n"), "validation report"))
    if sheets is not None:
        result.outputs.append(Output(write_atomic(out / "sheets.pdf", sheets.pdf), sheets.described))
        result.notes.extend(f"warning: {w}" for w in sheets.warnings)
    else:
        result.notes.append("no print sheets: no card is in the print run (the findings say why)")
    if opts.png:
        pngs = export_pngs(studio, PngOptions(dpi=opts.dpi, cache=True, ink=opts.ink), out / "png", progress)
        total = sum(o.size for o in pngs.outputs)
        result.outputs.append(Output(out / "png", f"{len(pngs.outputs)} PNG faces at {opts.dpi} dpi "
                                                  f"({total / 1048576:.1f} MB)"))
    from .gallery.page import write_gallery
    from .gallery.report import build_report

    progress("gallery", 0, 1)
    page = write_gallery(studio, findings, out / "gallery")
    result.outputs.append(Output(page.path, f"gallery of {page.cards} cards with their findings"))
    result.outputs.append(Output(build_report(studio, findings, out / "report"), "set report with plots"))
    progress("gallery", 1, 1)
    if book is not None:
        from .rulebook.job import write_rulebook

        result.outputs += write_rulebook(book, out / "rulebook.pdf", opts.paper.lower())[:1]
    if studio.model.packs:
        progress("packs", 0, 1)
        result.outputs += _draft_night(studio, opts, result)
        progress("packs", 1, 1)
    for target in opts.exports:
        from .export.run import run_export

        made = run_export(ws, game, target, studio=studio)
        result.outputs.append(Output(out / "export" / target, f"{len(made.outputs)} files for {target}"))
        result.notes += made.notes
    save_disk_cache(studio)
    return result


def _draft_night(studio: Studio, opts: BuildOptions, result: JobResult) -> list[Output]:
    """Booster packs for the model's draft format (its first pack format), seeded and recorded in every file."""
    from .packs.deal import deal
    from .packs.report import label_fields
    from .packs.run import capacity, deal_files, default_players, write_deal
    from .packs.spec import load_format

    model = studio.model
    try:
        fmt = load_format(model, studio.check.catalog)
        seed = opts.seed if opts.seed is not None else model.draft.seed
        seed = 1 if seed is None else seed
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise CardgenError(f"draft.seed must be a whole number of 0 or more, not {seed!r}")
        players = opts.players if opts.players is not None else default_players(fmt, model)
        d = deal(fmt, studio.game, players, seed)
        files = deal_files(studio.ws, studio.game, d, studio.check.catalog, label_fields(model),
                           sheets=True, studio=studio)
    except CardgenError as exc:
        result.notes.append(f"packs not dealt: {exc.message}")
        return []
    result.notes.append(f"packs: {len(d.packs)} for {players} players, seed {seed}; {capacity(fmt)}")
    return write_deal(studio.ws.output_dir(studio.game) / "packs", d, files)

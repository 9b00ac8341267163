"""Turn a project and sheet options into a print run (which cards, how many) and print-sheet PDFs and PNG faces."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import units
from .copies import deck_copies, print_run
from .errors import CardgenError, Finding, Severity, sort_findings
from .model.card import Card, file_stem
from .output import JobResult, Output, inside, write_atomic
from .project import Studio, open_studio, save_disk_cache, with_disk_cache
from .render.face import PreparedFace
from .render.pdfsheets import write_sheets
from .render.raster import Preset, bleed_for, preset, render_pngs
from .render.sheets import SheetSpec, plan_sheets
from .units import PAPERS, UnitError, length
from .workspace import Workspace

Progress = Callable[[str, int, int], None]  # (stage, done, total)


def quiet(stage: str, done: int, total: int) -> None:
    pass


@dataclass
class SheetOptions:
    paper: str = "a4"
    copies: str = "collation"  # "one", "collation" or "deck"
    deck: Path | None = None
    duplex: str = "long"
    layout: str = "shared-cut"
    bleed: str | None = None  # default: the template's
    crop_marks: bool = True
    only: str | None = None
    calibration: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm
    out: Path | None = None


def paper_size(name: str) -> tuple[float, float]:
    key = name.lower()
    if key in PAPERS:
        return PAPERS[key]
    try:
        return units.paper(name)
    except UnitError as exc:
        raise CardgenError(f"--paper: {exc}") from exc


def choose_cards(studio: Studio, opts: SheetOptions) -> tuple[list[tuple[Card, int]], list[Finding]]:
    keep = studio.selector(opts.only)
    findings: list[Finding] = []
    if opts.copies == "one":
        chosen = [(card, 1) for card in studio.designs(printable=True)]
    elif opts.copies == "collation":
        chosen = print_run(studio.check.catalog, studio.model)
    elif opts.copies == "deck":
        if opts.deck is None:
            raise CardgenError("--copies deck needs a deck list file: --copies deck FILE")
        chosen, findings = deck_copies(opts.deck, studio.ws.shown(opts.deck), studio.check.catalog, studio.model)
        if any(f.severity is Severity.ERROR for f in findings):
            raise CardgenError("the deck list has errors:\n  " + "\n  ".join(f.format() for f in findings))
    else:
        raise CardgenError(f"--copies must be one, collation or deck, not '{opts.copies}'")
    # a card no template applies to cannot be printed: the findings name it (not-in-print-run)
    return [(c, n) for c, n in chosen if keep(c) and studio.faces.for_card(c) is not None], findings


def sheet_bytes(studio: Studio, opts: SheetOptions, chosen: list[tuple[Card, int]],
                groups: list[tuple[str, int]] | None = None, progress: Progress = quiet) -> tuple[bytes, int, str]:
    """Render print sheets for (card, copies) pairs; returns (PDF bytes, sheets, a one-line description)."""
    if opts.duplex not in ("long", "short", "none"):
        raise CardgenError(f"--duplex must be long, short or none, not '{opts.duplex}'")
    if opts.layout not in ("gutter", "shared-cut"):
        raise CardgenError(f"--layout must be gutter or shared-cut, not '{opts.layout}'")
    if not chosen and not opts.calibration:
        raise CardgenError("no cards to print (check --only, --copies and the collation)")
    bleed = None
    if opts.bleed is not None:
        try:
            bleed = units.bleed(opts.bleed)
        except UnitError as exc:
            raise CardgenError(f"--bleed: {exc}") from exc
    fronts: dict[str, PreparedFace] = {}
    backs: dict[str, PreparedFace] = {}
    items: list[tuple[str, str, str | None]] = []
    total = len(chosen)
    for i, (card, count) in enumerate(chosen):
        front, back = studio.prepare(card, bleed)
        fronts[front.key] = front
        if back is not None:
            backs[back.key] = back
        items.extend([(card.id, front.key, back.key if back else None)] * count)
        progress("faces", i + 1, total)
    template = studio.faces.rules[0].front
    spec = SheetSpec(paper_size(opts.paper), template.size, template.bleed if bleed is None else bleed,
                     opts.layout, crop_marks=opts.crop_marks, duplex=opts.duplex,
                     back_offset=(length(f"{opts.back_offset[0]}mm"), length(f"{opts.back_offset[1]}mm")),
                     calibration=opts.calibration)
    plan = plan_sheets(items, spec, groups)
    title = f"{studio.model.name} print sheets"
    pdf = write_sheets(plan, fronts, studio.fonts, studio.model, title, backs)
    described = (f"{len(items)} cards ({len(fronts)} designs) on {plan.sheets} sheet{'s' * (plan.sheets != 1)} "
                 f"of {plan.grid.cols} x {plan.grid.rows}, {opts.paper}, {opts.layout}"
                 + (f", duplex {opts.duplex}-edge" if opts.duplex != "none" else ""))
    return pdf, plan.sheets, described


def run_sheets(ws: Workspace, game: str, opts: SheetOptions, progress: Progress = quiet) -> JobResult:
    # gather everything first ...
    studio = with_disk_cache(open_studio(ws, game))
    chosen, findings = choose_cards(studio, opts)
    pdf, _, described = sheet_bytes(studio, opts, chosen, progress=progress)
    # ... then write
    name = {"one": "sheets-one.pdf", "collation": "sheets.pdf"}.get(opts.copies)
    if name is None:
        name = f"sheets-{opts.deck.stem if opts.deck else 'deck'}.pdf"
    path = opts.out or ws.output_dir(game) / name
    write_atomic(path, pdf)
    from .findings import all_findings

    result = JobResult([Output(path, described)], sort_findings(set(all_findings(studio)) | set(findings)))
    save_disk_cache(studio)
    return result


@dataclass
class PngOptions:
    dpi: int = 300
    preset: str | None = None
    out: Path | None = None
    only: str | None = None
    cache: bool = False  # keep rendered PNGs in the workspace's output/GAME/.cache/png (build, export --png)


def export_pngs(studio: Studio, opts: PngOptions, out_dir: Path, progress: Progress = quiet) -> JobResult:
    """One PNG per unique face (fronts, then each back), named by card id."""
    if not 36 <= opts.dpi <= 1200:
        raise CardgenError(f"--dpi must be between 36 and 1200, not {opts.dpi}")
    p: Preset | None = preset(opts.preset) if opts.preset else None
    keep = studio.selector(opts.only)
    bleed = None
    if p is not None:
        template = studio.faces.rules[0].front
        bleed = bleed_for(p, template.size)[1]
    named: dict[str, PreparedFace] = {}
    for card in studio.designs(printable=True):
        if not keep(card):
            continue
        front, back = studio.prepare(card, bleed)
        named[file_stem(card.id)] = front
        if back is not None:
            named.setdefault(f"back-{back.template.name}", back)
    result = JobResult()
    if not opts.cache:
        for i, (name, png) in enumerate(zip(named, render_pngs(list(named.values()), studio.fonts, studio.model,
                                                               dpi=opts.dpi, p=p))):
            result.outputs.append(Output(write_atomic(inside(out_dir, f"{name}.png"), png), name))
            progress("png", i + 1, len(named))
        return result
    # cached by face, resolution and cardgen's drawing code (in output/GAME/.cache/png): a rebuild
    # rasterises only the faces that changed
    from .render.facecache import code_digest

    cache = studio.ws.output_dir(studio.game) / ".cache" / "png"
    tag = f"{opts.dpi}-{opts.preset or 'plain'}-{code_digest()}"
    cached = {name: cache / f"{face.key}-{tag}.png" for name, face in named.items()}
    missing = [name for name, path in cached.items() if not path.is_file()]
    for name, png in zip(missing, render_pngs([named[n] for n in missing], studio.fonts, studio.model, dpi=opts.dpi,
                                              p=p)):
        write_atomic(cached[name], png)
    for i, name in enumerate(named):
        path = write_atomic(inside(out_dir, f"{name}.png"), cached[name].read_bytes())
        result.outputs.append(Output(path, name))
        progress("png", i + 1, len(named))
    prune_cache(cache, "*.png", {p.name for p in cached.values()}, keep_others_of=tag)
    return result


def prune_cache(folder: Path, pattern: str, used: set[str], keep_others_of: str) -> None:
    """Drop cached files of this kind (same resolution and code) that no face uses any more."""
    for old in folder.glob(pattern):
        if keep_others_of in old.name and old.name not in used:
            old.unlink(missing_ok=True)

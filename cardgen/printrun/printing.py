"""Turn a project and sheet options into a print run (which cards, how many) and print-sheet PDFs and PNG faces."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..core import units
from ..core.errors import CardgenError, Finding, Severity
from ..core.options import A4, Duplex, Ink, Layout, Paper, parse_paper
from ..core.output import JobResult, Output, inside, write_atomic
from ..core.units import UnitError, length, size_name
from ..load.card import Card, file_stem
from ..model.collation import print_run
from ..project.changes import Change, card_version
from ..project.studio import Studio
from ..render.face import PreparedFace
from ..render.lowink import low_ink
from ..render.pdfsheets import write_sheets
from ..render.sheets import SheetPlan, SheetSpec, plan_sheets
from ..render.vendors import Canvas, bleed_for, product_for, vendor
from .copies import deck_copies

Progress = Callable[[str, int, int], None]  # (stage, done, total)


def quiet(stage: str, done: int, total: int) -> None:
    pass


@dataclass
class SheetOptions:
    """A print run's options as values (the command line parses them once: cli.options)."""

    paper: Paper = A4
    copies: str = "collation"  # "one", "collation" or "deck"
    deck: Path | None = None
    duplex: Duplex = "long"
    layout: Layout = "shared-cut"
    bleed: str | None = None  # default: the template's
    crop_marks: bool = True
    only: str | None = None
    calibration: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm
    out: Path | None = None
    ink: Ink = "normal"
    versions: bool = True  # each card's version (changes.card_version) small on its front
    changed_since: str | None = None  # a git revision: only the designs added or changed since, and a change log

    def __post_init__(self) -> None:
        if isinstance(self.paper, str):  # a library caller's 'letter': parsed here, as the command line would
            object.__setattr__(self, "paper", paper_named(self.paper))


def paper_named(text: str) -> Paper:
    """A paper from its name or size, for callers that are not the command line (a bad one: CardgenError)."""
    try:
        return parse_paper(text)
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


def inked(faces: tuple[PreparedFace, PreparedFace | None], ink: Ink) -> tuple[PreparedFace, PreparedFace | None]:
    """Both faces of a card in the chosen ink mode; a low-ink face has a key of its own (its forms and cached
    PNGs never mix with the full-colour ones)."""
    if ink == "normal":
        return faces
    front, back = faces
    return low_ink(front), low_ink(back) if back is not None else None


@dataclass
class SheetRun:
    pdf: bytes
    sheets: int
    described: str
    warnings: list[str]


def sheet_bytes(studio: Studio, opts: SheetOptions, chosen: list[tuple[Card, int]],
                groups: list[tuple[str, int]] | list[tuple[str, int, str]] | None = None, progress: Progress = quiet,
                changes: list[Change] | None = None) -> SheetRun:
    """Render print sheets for (card, copies) pairs: faces of each card size on their own grid."""
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
    studio.prefetch([card for card, _ in chosen], bleed)
    for i, (card, count) in enumerate(chosen):
        front, back = inked(studio.prepare(card, bleed), opts.ink)
        fronts[front.key] = front
        if back is not None:
            backs[back.key] = back
        items.extend([(card.id, front.key, back.key if back else None)] * count)
        progress("faces", i + 1, total)
    first = studio.faces.rules[0].front if studio.faces.rules else None
    base_size = (first.size, first.bleed) if first else ((180.0, 252.0), 0.0)
    spec = SheetSpec(opts.paper.size, base_size[0], base_size[1] if bleed is None else bleed,
                     opts.layout, crop_marks=opts.crop_marks, duplex=opts.duplex,
                     back_offset=(length(f"{opts.back_offset[0]}mm"), length(f"{opts.back_offset[1]}mm")),
                     calibration=opts.calibration, paper_name=str(opts.paper))
    sizes = {key: ((face.width, face.height), face.bleed) for key, face in fronts.items()}
    plan = plan_sheets(items, spec, sizes, groups)
    title = f"{studio.model.name} print sheets"
    stamps = {card.id: card_version(card, studio.model) for card, _ in chosen} if opts.versions else None
    preface = None
    if changes is not None:
        from .changelog import draw_changelog

        def preface(c: object) -> None:
            draw_changelog(c, studio.fonts, changes, opts.changed_since or "", spec.paper,  # type: ignore[arg-type]
                           opts.duplex != "none")
    pdf, warnings = write_sheets(plan, fronts, studio.fonts, studio.model, title, backs, stamps, preface,
                                 studio.renderer.recordings)
    sliver = sliver_warning(plan, fronts)
    if sliver:
        warnings.append(sliver)
    grids = plan.grids()
    grid = f"({', '.join(f'{n} of {g.cols} x {g.rows} {size_name(s.card)}' for s, g, n in grids)})" \
        if len(grids) > 1 else f"of {grids[0][1].cols} x {grids[0][1].rows}" if grids else ""
    described = (f"{len(items)} card{'s' * (len(items) != 1)} ({len(fronts)} design{'s' * (len(fronts) != 1)}) "
                 f"on {plan.sheets} sheet{'s' * (plan.sheets != 1)} "
                 f"{grid}, {opts.paper}, {opts.layout}"
                 + (f", duplex {opts.duplex}-edge" if opts.duplex != "none" else ""))
    return SheetRun(pdf, plan.sheets, described, warnings)


def sliver_warning(plan: SheetPlan, fronts: dict[str, PreparedFace]) -> str | None:
    """Shared-cut sheets whose neighbouring cards meet with different edge colours: a cut 0.8 mm off the line
    leaves a sliver of the neighbour's colour on the card."""
    pairs = 0
    sheets = 0
    edges = {key: face.edge() for key, face in fronts.items()}  # once per design, not per neighbour
    for page in plan.pages:
        if page.spec.layout != "shared-cut":
            continue
        by_slot = {p.slot.index: p for p in page.placements}
        cols = page.grid.cols
        found = 0
        for index, p in by_slot.items():
            for other in (index + 1 if (index + 1) % cols else None, index + cols):
                q = by_slot.get(other) if other is not None else None
                if q is None:
                    continue
                a, b = edges[p.front], edges[q.front]
                if a is None or b is None or sum(abs(u - v) for u, v in zip(a, b)) > 48:
                    found += 1
        pairs += found
        sheets += bool(found)
    if not pairs:
        return None
    return (f"shared-cut: {pairs} pair{'s' * (pairs != 1)} of neighbouring cards on {sheets} "
            f"sheet{'s' * (sheets != 1)} meet{'s' * (pairs == 1)} with different edge colours; a cut 0.8 mm off "
            f"the line leaves a sliver of the neighbour's colour. "
            f"--layout gutter gives every card its own bleed (fewer cards per sheet)")


@dataclass
class PngOptions:
    dpi: int = 300
    preset: str | None = None
    out: Path | None = None
    only: str | None = None
    cache: bool = False  # keep rendered PNGs in the workspace's output/GAME/.cache/png (build, export --png)
    ink: Ink = "normal"


def vendor_canvases(studio: Studio, vendor_key: str, cards: list[Card]) -> tuple[dict[str, Canvas], list[str]]:
    """Each card's canvas at a print-on-demand vendor (by card id), and a refusal per card size it does not sell."""
    v = vendor(vendor_key.removesuffix("-poker"))  # 'tgc-poker' was the preset's name before other sizes
    out: dict[str, Canvas] = {}
    refused: dict[str, str] = {}
    for card in cards:
        rule = studio.faces.for_card(card)
        if rule is None:
            continue
        for template in (rule.front, rule.back):
            if template is None:
                continue
            got = product_for(v, template.size)
            if template is rule.back and template.size != rule.front.size:
                refused.setdefault(f"back {template.name}", f"back template '{template.name}' is "
                                   f"{size_name(template.size)}, its front '{rule.front.name}' "
                                   f"{size_name(rule.front.size)}: a vendor prints both sides one size")
            elif isinstance(got, str):
                refused.setdefault(size_name(template.size), got)
            elif template is rule.front:
                out[card.id] = got
    return out, list(refused.values())


def export_pngs(studio: Studio, opts: PngOptions, out_dir: Path, progress: Progress = quiet) -> JobResult:
    """One PNG per unique face (fronts, then each back), named by card id; with a vendor preset, each on the
    vendor's canvas for its card size."""
    if not 36 <= opts.dpi <= 1200:
        raise CardgenError(f"--dpi must be between 36 and 1200, not {opts.dpi}")
    keep = studio.selector(opts.only)
    cards = [card for card in studio.designs(printable=True) if keep(card)]
    canvases: dict[str, Canvas] = {}
    if opts.preset:
        canvases, refused = vendor_canvases(studio, opts.preset, cards)
        if refused:
            raise CardgenError("; ".join(refused))
    named: dict[str, PreparedFace] = {}
    canvas_of: dict[str, Canvas | None] = {}
    for card in cards:
        c = canvases.get(card.id)
        bleed = bleed_for(c, studio.faces.for_card(card).front.size)[1] if c else None  # type: ignore[union-attr]
        front, back = inked(studio.prepare(card, bleed), opts.ink)
        named[file_stem(card.id)] = front
        canvas_of[file_stem(card.id)] = c
        if back is not None and f"back-{back.template.name}" not in named:
            named[f"back-{back.template.name}"] = back
            canvas_of[f"back-{back.template.name}"] = product_for(c.vendor, back.template.size) if c else None  # type: ignore[assignment]

    from ..render.raster import render_pngs  # here: a print run never loads Pillow or a process pool

    def render(names: list[str]) -> dict[str, bytes]:
        """Faces grouped by canvas (a vendor canvas holds one card size), rendered group by group."""
        groups: dict[object, list[str]] = {}
        for name in names:
            groups.setdefault(canvas_of[name], []).append(name)
        out: dict[str, bytes] = {}
        for canvas, group in groups.items():
            out.update(zip(group, render_pngs([named[n] for n in group], studio.fonts, studio.model, dpi=opts.dpi,
                                              p=canvas, recordings=studio.renderer.recordings)))  # type: ignore[arg-type]
        return out

    result = JobResult()
    if not opts.cache:
        pngs = render(list(named))
        for i, name in enumerate(named):
            result.outputs.append(Output(write_atomic(inside(out_dir, f"{name}.png"), pngs[name]), name))
            progress("png", i + 1, len(named))
        return result
    # cached by face, resolution and cardgen's drawing code (signed, in output/GAME/.cache/png): a rebuild
    # rasterises only the faces that changed
    from ..render.facecache import code_digest
    from ..speed.cache import Store

    store = Store(studio.ws.output_dir(studio.game) / ".cache" / "png")
    tag = f"{opts.dpi}-{opts.preset or 'plain'}-{code_digest()}"  # the ink mode is in each face's key
    cached = {name: f"{face.picture_key()}-{tag}.png" for name, face in named.items()}
    # an output PNG written from the same cached face and untouched since (size and time, as the last run left
    # it, in the signed manifest) is not written again: a rebuild rewrites only the faces that changed
    written = store.get("written")
    written = written if isinstance(written, dict) else {}
    mine = written.get(str(out_dir.resolve()))
    mine = mine if isinstance(mine, dict) else {}
    stamps: dict[str, list[object] | None] = {}
    for name in named:
        try:
            st = inside(out_dir, f"{name}.png").stat()
            stamps[name] = [cached[name], st.st_size, st.st_mtime_ns]
        except OSError:
            stamps[name] = None
    stale = [name for name in named if stamps[name] is None or mine.get(name) != stamps[name]]
    pictures = {name: store.get_bytes(cached[name]) for name in stale}
    missing = [name for name, png in pictures.items() if png is None]
    for name, png in render(missing).items():
        store.put_bytes(cached[name], png)
        pictures[name] = png
    now: dict[str, list[object] | None] = {}
    for i, name in enumerate(named):
        path = inside(out_dir, f"{name}.png")
        picture = pictures.get(name)
        if picture is not None:
            write_atomic(path, picture)
            st = path.stat()
            stamps[name] = [cached[name], st.st_size, st.st_mtime_ns]
        now[name] = stamps[name]
        result.outputs.append(Output(path, name))
        progress("png", i + 1, len(named))
    if now != mine:
        written[str(out_dir.resolve())] = now
        store.put("written", written)
    store.prune(f"*-{tag}.png", set(cached.values()))  # this kind's faces no face uses any more
    return result

"""The pipeline in one place: load and check everything, plan the outputs, then write them
atomically."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..core.errors import Finding, sort_findings
from ..core.options import A4, Ink, Paper
from ..core.output import JobResult, Output, write_atomic
from ..core.workspace import Workspace
from ..printrun.pngs import PngOptions, export_pngs
from ..printrun.printing import (
    Progress,
    paper_named,
    quiet,
)
from ..project.editions import tag_edition
from ..project.studio import Studio, open_studio, save_disk_cache, with_disk_cache
from ..speed.twin import Twin, TwinLost
from .findings import all_findings, with_own_boxes
from .sheets import Half, cache_use, keep_used, print_half

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..gallery.smallest import EditionTexts
    from ..rulebook.build import Rulebook


T = TypeVar("T")


@dataclass
class BuildOptions:
    paper: Paper = A4  # the sheets' paper, and the rulebook's (then a4, letter or a5)
    png: bool = True
    dpi: int = 300
    rulebook: bool = True
    exports: tuple[str, ...] = ()
    players: int | None = (  # draft night, and the print run's per-player copies (sheets,
        None  # exports): default the model's draft.players (packs: or what one run supports)
    )
    seed: int | None = None  # default the model's draft.seed, else 1: a build is reproducible
    ink: Ink = "normal"  # sheets and PNGs
    kit: bool = True  # boxes, token sheets, the print-and-play set and its check (not live)

    def __post_init__(self) -> None:
        if isinstance(self.paper, str):  # a library caller's 'letter'
            self.paper = paper_named(self.paper)


@dataclass
class EditionBuild:
    """One edition of a build of every edition (jobs/editions.py): its studio, opened before
    anything is written, the default edition's findings (an edition's own name it), and the tables
    of the texts set smallest its set report shows."""

    studio: Studio
    base: set[Finding] | None = None
    smallest: "list[EditionTexts] | None" = None


def build_game(
    ws: Workspace,
    game: str,
    opts: BuildOptions,
    progress: Progress = quiet,
    twin: "Twin[Half] | None" = None,
    live: bool = False,
    edition: EditionBuild | None = None,
) -> JobResult:
    """Everything the game can produce, into output/GAME/ (output/GAME@LANG/ for the workspace's
    edition; `edition`: one edition of a build of every edition, jobs/editions.py): validation
    report, print sheets, PNG faces, gallery, set report, rulebook, draft night packs and exports.
    The findings are the one collection (`validate`'s). A rulebook that must be typeset again (the
    build's, and the print-and-play set's on universal paper) is typeset by a forked process
    (twin.py) from the start while this one writes the rest, and waited for last. With a
    `twin` (a live rebuild), the print sheets and the packs are made there; `live` leaves that
    typesetting to `result.later`, so that everything else is written and shown first."""
    if twin is not None:
        try:
            twin.ask()  # it opens the game itself, as this process does, from the same files
        except TwinLost:
            twin = None
    # 1. gather all data from all files, check it and make every document in memory
    studio = edition.studio if edition else _opened(ws, game)
    studio.prefetch(
        studio.designs(printable=True)
    )  # laid out and drawn once, on every core, for all that follows
    base = all_findings(studio)
    if edition is not None and edition.base is not None:  # what is this edition's own
        base = tag_edition(base, studio.model.edition, edition.base)
    smallest = edition.smallest if edition else None
    findings, book, typesetter = base, None, None
    has_book = (ws.root / "rules" / game / "rulebook" / "index.md").is_file()
    # the print-and-play set's rulebook (universal paper): typeset on another core from now on
    kit_typesetter = _kit_typesetter(studio, opts, live) if has_book else None
    if opts.rulebook and has_book:
        from .rulebook import cached_rulebook

        progress("book", 0, 1)
        book = cached_rulebook(
            ws, game, opts.paper, studio, wait=False
        )  # made only when an input changed
        findings = sort_findings(set(base) | set(book.findings))
        if not book.typeset and not live:  # typeset from its HTML on another core from now on
            pending = book
            typesetter = _start(
                Twin.fork(lambda: cached_rulebook(ws, game, opts.paper, studio, pending=pending))
            )
        progress("book", 1, 1)
    # 2. write
    out = ws.output_dir(game)
    result = JobResult(findings=findings)
    made: list[
        Output
    ] = []  # what this process writes while the twin (if any) writes the sheets and packs
    if opts.png:
        pngs = export_pngs(
            studio, PngOptions(dpi=opts.dpi, cache=True, ink=opts.ink), out / "png", progress
        )
        total = sum(o.size for o in pngs.outputs)
        made.append(
            Output(
                out / "png",
                f"{len(pngs.outputs)} PNG faces ({faces_of(pngs)}) at {opts.dpi} dpi "
                f"({total / 1048576:.1f} MB)",
            )
        )
    validation, pages, drawn = _reports(studio, findings, progress, smallest, beside=not live)
    made += pages
    if book is not None and book.typeset:
        from .rulebook import write_rulebook

        made += write_rulebook(book, out / "rulebook.pdf", opts.paper)[:1]
    elif book is not None and live:
        result.later = lambda: _typeset_later(studio, opts, base, findings, smallest=smallest)
        result.pending = "the rulebook is being typeset"
    printed = None
    if twin is not None:
        try:
            printed = twin.answer()
            keep_used(studio, printed.used)
        except TwinLost:
            pass  # LiveBuild closes it; this build makes the sheets and packs itself
    printed = printed or print_half(studio, opts.paper, opts.ink, opts.players, opts.seed, progress)
    kit: list[Output] = []
    kit_notes: list[str] = []
    found: list[Finding] = []
    if opts.kit and not live:  # a live rebuild leaves the kit to a full build
        from .pnp import build_kit

        kit, kit_notes, found = build_kit(
            studio,
            opts.paper,
            opts.players,
            printed.sheets,
            progress,
            typeset=(lambda: _taken(kit_typesetter)) if kit_typesetter else None,
        )
    drawn()  # the set report, made meanwhile by a forked process
    if book is not None and not book.typeset and not live:  # the book, last: it took longest
        rest = _typeset_later(
            studio, opts, base, findings, typesetter, save=False, smallest=smallest, pending=book
        )
        made.append(
            rest.outputs[-1]
        )  # the rulebook (the reports, if written again, are listed already)
        result.findings = rest.findings
    result.outputs += [validation, *printed.sheets, *made, *printed.packs, *kit]
    result.notes += printed.notes + kit_notes
    if opts.kit and not live:  # the boxes it made on its paper say what fits
        result.findings = with_own_boxes(result.findings, found)
    for target in opts.exports:
        from .export import PRINT_RUN_TARGETS, run_export

        players = opts.players if target in PRINT_RUN_TARGETS else None  # as the sheets have it
        exported = run_export(ws, game, target, studio=studio, players=players)
        result.outputs.append(
            Output(out / "export" / target, f"{len(exported.outputs)} files for {target}")
        )
        result.notes += [n for n in exported.notes if n not in result.notes]  # the run: once
    save_disk_cache(studio)
    return result


def _reports(
    studio: Studio,
    findings: list[Finding],
    progress: Progress = quiet,
    smallest: "list[EditionTexts] | None" = None,
    beside: bool = False,
) -> tuple[Output, list[Output], Callable[[], None]]:
    """What shows the findings: the validation report, and the gallery and set report (with
    `smallest`, the tables of the texts each edition set smallest), and what waits for the set
    report: with `beside`, it is made by a forked process (its figures: matplotlib) while this one
    goes on; call that before the build ends (or writes the reports again)."""
    from ..gallery.page import write_gallery
    from ..gallery.report import build_report
    from ..project.check import CheckResult, summary_line

    out = studio.ws.output_dir(studio.game)
    text = "".join(f.format() + "\n" for f in findings) + summary_line(
        CheckResult(studio.check.loaded, findings)
    )
    validation = Output(write_atomic(out / "validation.txt", text + "\n"), "validation report")
    progress("gallery", 0, 1)

    def report() -> Path:
        return build_report(studio, findings, out / "report", smallest)

    drawer = _start(Twin.fork(report)) if beside else None
    page = write_gallery(studio, findings, out / "gallery")
    made = Output(out / "report" / "index.html", "set report with plots")

    def drawn() -> None:
        made.path = _taken(drawer) or report()

    if drawer is None:
        drawn()
    progress("gallery", 1, 1)
    pages = [Output(page.path, f"gallery of {page.cards} designs with their findings"), made]
    return validation, pages, (lambda: None) if drawer is None else drawn


def _start(twin: "Twin[T] | None") -> "Twin[T] | None":
    try:
        if twin is not None:
            twin.ask()
        return twin
    except TwinLost:
        twin.close()  # type: ignore[union-attr]
        return None


def _kit_typesetter(studio: Studio, opts: BuildOptions, live: bool) -> "Twin[Rulebook] | None":
    """A forked process typesetting the print-and-play set's rulebook (on universal paper) while
    this one makes the rest, when the kit needs one the cache does not keep."""
    if not opts.kit or live:
        return None
    from .pnp import UNIVERSAL
    from .rulebook import cached_rulebook, kept_rulebook

    ws, game = studio.ws, studio.game
    if kept_rulebook(ws, game, UNIVERSAL) is not None:
        return None
    return _start(Twin.fork(lambda: cached_rulebook(ws, game, UNIVERSAL, studio)))


def _taken(twin: "Twin[T] | None") -> "T | None":
    """What a forked process made (a book, the set report), or None when it was lost (made here
    instead)."""
    if twin is None:
        return None
    try:
        return twin.answer()
    except TwinLost:
        return None
    finally:
        twin.close()


def _typeset_later(
    studio: Studio,
    opts: BuildOptions,
    base: list[Finding],
    shown: list[Finding],
    typesetter: "Twin[Rulebook] | None" = None,
    save: bool = True,
    smallest: "list[EditionTexts] | None" = None,
    pending: "Rulebook | None" = None,
) -> JobResult:
    """Typeset the rulebook (or take it from the `typesetter` process that did) and write it; when
    typesetting found more (a picture the book may not read), the validation report, gallery and set
    report are written again. A live rebuild's second step, and the end of a build that typeset its
    book on the other core."""
    from .rulebook import cached_rulebook, write_rulebook

    paper = opts.paper
    book = None
    if typesetter is not None:
        try:
            book = typesetter.answer()
        except TwinLost:
            pass  # typeset here instead
        finally:
            typesetter.close()
    book = book or cached_rulebook(studio.ws, studio.game, paper, studio, pending=pending)
    findings = sort_findings(set(base) | set(book.findings))
    result = JobResult(findings=findings)
    if findings != shown:
        validation, pages, _ = _reports(studio, findings, smallest=smallest)
        result.outputs += [validation, *pages]
    result.outputs += write_rulebook(
        book, studio.ws.output_dir(studio.game) / "rulebook.pdf", paper
    )[:1]
    if save:
        save_disk_cache(studio)
    return result


class LiveBuild:
    """`build --watch`: each rebuild split over two cores, between this process and a twin forked
    after the first build (twin.py), each keeping its memory warm from one rebuild to the next.
    Without a twin (one core, no fork, or it was lost) a rebuild is an ordinary build."""

    def __init__(self, ws: Workspace, game: str, opts: BuildOptions) -> None:
        self.ws, self.game, self.opts = ws, game, opts
        self.twin: Twin[Half] | None = None
        self.started = False

    def __call__(self) -> JobResult:
        twin = self.twin
        try:
            return build_game(self.ws, self.game, self.opts, twin=twin, live=True)
        finally:
            if (
                twin is not None and twin.lost
            ):  # this build made the printed half itself; so will the next ones
                self.close()

    def warm(self) -> None:
        """After the first build: fork the twin, which makes the printed half from then on."""
        if not self.started:
            self.started = True
            self.twin = Twin.fork(self._printed)

    def _printed(self) -> Half:
        studio = _opened(self.ws, self.game)
        o = self.opts
        half = print_half(studio, o.paper, o.ink, o.players, o.seed)
        half.used = cache_use(
            studio
        )  # this process never saves the cache: the other one does, keeping these
        return half

    def close(self) -> None:
        if self.twin is not None:
            self.twin.close()
            self.twin = None


def _opened(ws: Workspace, game: str) -> Studio:
    """The game opened with its face cache; in a live process, its cards and model as the last
    rebuild checked them when none of their files changed (jobs.sheets.live_check)."""
    from .sheets import live_check

    return with_disk_cache(open_studio(ws, game, live_check(ws, game)))


def faces_of(pngs: JobResult) -> str:
    """'212 fronts, 2 backs': what a count of PNG faces is made of (one back serves many cards)."""
    backs = sum(1 for o in pngs.outputs if o.what.startswith("back-"))
    seconds = sum(
        1 for o in pngs.outputs if o.what.endswith("-back") and not o.what.startswith("back-")
    )
    fronts = len(pngs.outputs) - backs - seconds
    own = f", {seconds} second face{'s' * (seconds != 1)}" if seconds else ""
    return f"{fronts} front{'s' * (fronts != 1)}{own}, {backs} back{'s' * (backs != 1)}"

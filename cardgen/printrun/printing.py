"""Turn a project and sheet options into a print run (which cards, how many) and print-sheet PDFs
(PNG faces: printrun.pngs)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Mapping

from ..core import units
from ..core.errors import CardgenError, Finding, Severity
from ..core.options import A4, Duplex, Ink, Layout, Paper, parse_paper
from ..core.units import UnitError, length, size_name
from ..load.card import Card
from ..project.changes import Change, card_version
from ..project.studio import Studio
from ..render.lowink import low_ink
from ..render.pdfsheets import write_sheets
from ..render.prepared import PreparedFace
from ..render.sheets import Grid, SheetPlan, SheetSpec, plan_sheets
from ..speed.live import is_live
from .copies import collation_run, deck_copies

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
    players: int | None = None  # copies that grow with the players (role per-player): how many
    versions: bool = True  # each card's version (changes.card_version) small on its front
    changed_since: str | None = (
        None  # a git revision: only the designs added or changed since, and a change log
    )

    def __post_init__(self) -> None:
        if isinstance(
            self.paper, str
        ):  # a library caller's 'letter': parsed here, as the command line would
            object.__setattr__(self, "paper", paper_named(self.paper))


def paper_named(text: str) -> Paper:
    """A paper from its name or size, for callers that are not the command line (a bad one:
    CardgenError)."""
    try:
        return parse_paper(text)
    except UnitError as exc:
        raise CardgenError(f"--paper: {exc}") from exc


def choose_cards(
    studio: Studio, opts: SheetOptions
) -> tuple[list[tuple[Card, int]], list[Finding], list[str]]:
    """The cards to print and how many of each, the findings of choosing them, and what the user
    should know (the arithmetic of copies that grow with the players)."""
    keep = studio.selector(opts.only)
    findings: list[Finding] = []
    notes: list[str] = []
    if opts.copies == "one":
        chosen = [(card, 1) for card in studio.designs(printable=True)]
    elif opts.copies == "collation":
        chosen, notes = collation_run(studio.catalog, studio.model, opts.players)
    elif opts.copies == "deck":
        if opts.deck is None:
            raise CardgenError("--copies deck needs a deck list file: --copies deck FILE")
        chosen, findings = deck_copies(
            opts.deck, studio.ws.shown(opts.deck), studio.catalog, studio.model
        )
        if any(f.severity is Severity.ERROR for f in findings):
            raise CardgenError(
                "the deck list has errors:\n  " + "\n  ".join(f.format() for f in findings)
            )
    else:
        raise CardgenError(f"--copies must be one, collation or deck, not '{opts.copies}'")
    # a card no template applies to cannot be printed: the findings name it (not-in-print-run)
    printable = [(c, n) for c, n in chosen if studio.faces.for_card(c) is not None]
    kept = [(c, n) for c, n in printable if keep(c)]
    return kept, findings + matched_nothing(opts.only, kept, len(printable)), notes


def matched_nothing(only: str | None, kept: list, considered: int) -> list[Finding]:
    """A selection (--only) that matches no card is said, not a silent empty output."""
    if not only or kept or not considered:
        return []
    shown = only if len(only) <= 80 else only[:77] + "..."
    return [
        Finding(
            "",
            0,
            0,
            Severity.WARNING,
            "only-matches-nothing",
            None,
            f"--only '{shown}' matches none of the {considered} printable cards: nothing is made",
            "'cardgen show GAME CARD' lists a card's values as the expression sees them",
        )
    ]


def inked(
    faces: tuple[PreparedFace, PreparedFace | None], ink: Ink
) -> tuple[PreparedFace, PreparedFace | None]:
    """Both faces of a card in the chosen ink mode; a low-ink face has a key of its own (its forms
    and cached PNGs never mix with the full-colour ones)."""
    if ink == "normal":
        return faces
    front, back = faces
    return low_ink(front), low_ink(back) if back is not None else None


class RunFaces(Mapping[str, PreparedFace]):
    """A print run's faces by key, each made again when a page asks for it (the renderer's face
    store gives it back, light: size, findings, its recording in the store) rather than all held
    until the PDF is written: a run of 100,000 cards holds the faces of one page. Held as made
    where making one again would cost a layout: low-ink faces, and every face without a face
    store (--no-cache: the renderer keeps them all anyway)."""

    def __init__(self, studio: Studio, bleed: float | None, ink: Ink) -> None:
        self.studio, self.bleed, self.ink = studio, bleed, ink
        self.hold = ink != "normal" or studio.renderer.store is None
        self._how: dict[str, tuple[Card, int, int]] = {}  # the card, its pair (-1 its own), side
        self._held: dict[str, PreparedFace] = {}

    def add(self, face: PreparedFace, card: Card, pair: int, side: int) -> None:
        if self.hold:
            self._held[face.key] = face
        elif face.key not in self._how:
            self._how[face.key] = (card, pair, side)

    def __getitem__(self, key: str) -> PreparedFace:
        if self.hold:
            return self._held[key]
        card, pair, side = self._how[key]
        if pair < 0:
            both = self.studio.prepare(card, self.bleed)
        else:
            both = self.studio.other_faces(card, self.bleed)[pair]
        face = inked(both, self.ink)[side]
        assert face is not None and face.key == key
        return face

    def __contains__(self, key: object) -> bool:
        return key in (self._held if self.hold else self._how)

    def __iter__(self) -> Iterator[str]:
        return iter(self._held if self.hold else self._how)

    def __len__(self) -> int:
        return len(self._held if self.hold else self._how)


@dataclass
class SheetRun:
    pdf: bytes
    sheets: int
    described: str
    warnings: list[str]


def sheet_bytes(
    studio: Studio,
    opts: SheetOptions,
    chosen: list[tuple[Card, int]],
    groups: list[tuple[str, int]] | list[tuple[str, int, str]] | None = None,
    progress: Progress = quiet,
    changes: list[Change] | None = None,
) -> SheetRun:
    """Render print sheets for (card, copies) pairs: faces of each card size on their own grid."""
    bleed = None
    if opts.bleed is not None:
        try:
            bleed = units.bleed(opts.bleed)
        except UnitError as exc:
            raise CardgenError(f"--bleed: {exc}") from exc
    fronts = RunFaces(studio, bleed, opts.ink)
    backs = RunFaces(studio, bleed, opts.ink)
    sizes: dict[str, tuple[tuple[float, float], float]] = {}
    edges: dict[str, tuple[int, int, int] | None] = {}  # each front's, for the sliver warning
    items: list[tuple[str, str, str | None]] = []
    total = len(chosen)
    # a live process keeps its layouts to the end of the rebuild, so whoever judges its faces
    # reads them without laying them out again: not judged here, on the way to the PDF (speed.live)
    studio.prefetch([card for card, _ in chosen], bleed, judge=not is_live())
    others: list[tuple[str, str, str | None]] = []  # faces.yaml `also:`: once per design
    for i, (card, count) in enumerate(chosen):
        front, back = inked(studio.prepare(card, bleed), opts.ink)
        fronts.add(front, card, -1, 0)
        sizes[front.key] = ((front.width, front.height), front.bleed)
        edges[front.key] = front.edge()
        if back is not None:
            backs.add(back, card, -1, 1)
        items.extend([(card.id, front.key, back.key if back else None)] * count)
        if groups is None and count:  # packs deal cards, never their randomizers
            for n, pair in enumerate(studio.other_faces(card, bleed)):
                other, other_back = inked(pair, opts.ink)
                if not any(o[1] == other.key for o in others):
                    others.append((card.id, other.key, other_back.key if other_back else None))
                    fronts.add(other, card, n, 0)
                    sizes[other.key] = ((other.width, other.height), other.bleed)
                    edges[other.key] = other.edge()
                    if other_back is not None:
                        backs.add(other_back, card, n, 1)
        progress("faces", i + 1, total)
    designs = len({key for _, key, _ in items})
    copies = len(items)
    items.extend(others)
    first = studio.faces.rules[0].front if studio.faces.rules else None
    base_size = (first.size, first.bleed) if first else ((180.0, 252.0), 0.0)
    spec = SheetSpec(
        opts.paper.size,
        base_size[0],
        base_size[1] if bleed is None else bleed,
        opts.layout,
        crop_marks=opts.crop_marks,
        duplex="none" if opts.layout == "fold" else opts.duplex,
        back_offset=(length(f"{opts.back_offset[0]}mm"), length(f"{opts.back_offset[1]}mm")),
        calibration=opts.calibration,
        paper_name=str(opts.paper),
        all_marks=opts.paper.name == "universal",
    )
    plan = plan_sheets(items, spec, sizes, groups)
    title = f"{studio.model.name} print sheets"
    stamps = (
        {card.id: card_version(card, studio.model) for card, _ in chosen} if opts.versions else None
    )
    preface = None
    if changes is not None:
        from .changelog import draw_changelog

        def preface(c: object) -> None:
            draw_changelog(
                c,
                studio.fonts,
                changes,
                opts.changed_since or "",
                spec.paper,  # type: ignore[arg-type]
                opts.duplex != "none",
            )

    pdf, warnings = write_sheets(
        plan,
        fronts,
        studio.fonts,
        studio.model,
        title,
        backs,
        stamps,
        preface,
        studio.renderer.recordings,
    )
    sliver = sliver_warning(plan, edges)
    if sliver:
        warnings.append(sliver)
    grids = plan.grids()
    grid = (
        f"({', '.join(f'{n} of {_grid(s, g)} {size_name(s.card)}' for s, g, n in grids)})"
        if len(grids) > 1
        else f"of {_grid(*grids[0][:2])}"
        if grids
        else ""
    )
    described = (
        f"{copies} cop{'ies' if copies != 1 else 'y'} of {designs} "
        f"design{'s' * (designs != 1)} "
        + (f"and {len(others)} other face{'s' * (len(others) != 1)} (also:) " if others else "")
        + f"on {plan.sheets} sheet{'s' * (plan.sheets != 1)} "
        f"{grid}, {opts.paper}, {opts.layout}"
        + (
            " (one-sided: cut, fold each card on its dashed mark, glue)"
            if opts.layout == "fold"
            else f", duplex {opts.duplex}-edge"
            if opts.duplex != "none"
            else ""
        )
    )
    return SheetRun(pdf, plan.sheets, described, warnings)


def _grid(spec: SheetSpec, grid: Grid) -> str:
    """'3 x 3', '2 x 4 turned' (cards lying on their side, as universal paper may put them; a
    square card turned is not said to be)."""
    square = abs(spec.card[0] - spec.card[1]) < 0.5
    return f"{grid.cols} x {grid.rows}" + (" turned" if spec.turn and not square else "")


def sliver_warning(plan: SheetPlan, edges: Mapping[str, tuple[int, int, int] | None]) -> str | None:
    """Shared-cut sheets whose neighbouring cards meet with different edge colours: a cut 0.8 mm off
    the line leaves a sliver of the neighbour's colour on the card."""
    pairs = 0
    sheets = 0
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
    return (
        f"shared-cut: {pairs} pair{'s' * (pairs != 1)} of neighbouring cards on {sheets} "
        f"sheet{'s' * (sheets != 1)} meet{'s' * (pairs == 1)} with different edge colours; a cut "
        "0.8 mm off "
        f"the line leaves a sliver of the neighbour's colour. "
        f"--layout gutter gives every card its own bleed (fewer cards per sheet)"
    )

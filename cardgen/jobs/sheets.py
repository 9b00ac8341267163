"""The sheets job: choose the print run, lay it out and write the print-sheet PDF, with every
finding; and a build's printed half (its sheets and the draft night's packs, which `build --watch`
makes in a twin process)."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import Finding, sort_findings
from ..core.options import Ink, Paper
from ..core.output import JobResult, Output, write_atomic
from ..core.workspace import Workspace
from ..printrun.printing import Progress, SheetOptions, choose_cards, quiet, sheet_bytes
from ..project.changes import changes_since
from ..project.check import CheckResult, check_game
from ..project.studio import Studio, open_studio, save_disk_cache, with_disk_cache
from ..speed.beside import Beside
from ..speed.gcpause import no_cyclic_gc
from ..speed.live import is_live
from ..speed.memo import Memo
from ..speed.parallel import PoolLost
from .findings import all_findings, beyond_faces


def run_sheets(
    ws: Workspace, game: str, opts: SheetOptions, progress: Progress = quiet
) -> JobResult:
    # gather everything first ...
    studio = with_disk_cache(open_studio(ws, game, live_check(ws, game)))
    chosen, findings, run_notes = choose_cards(studio, opts)
    changes = None
    if opts.changed_since:
        changes = changes_since(studio.ws, game, opts.changed_since, studio.catalog, studio.model)
        fresh = {ch.order for ch in changes if ch.order is not None}
        chosen = [(card, n) for card, n in chosen if card.order in fresh]
        if not changes:
            return JobResult(
                notes=[
                    f"no card added, changed or removed since {opts.changed_since}: nothing to "
                    "print"
                ]
            )
    if not chosen and not opts.calibration:  # a correct command: say why, exit by the findings
        why = "--only selects none of them" if opts.only else "no card is in the print run"
        return JobResult(
            findings=sort_findings(set(all_findings(studio)) | set(findings)),
            notes=[f"nothing to print: {why} (the findings say why)"],
        )
    found = _findings_beside(studio, [card for card, _ in chosen])
    try:
        with no_cyclic_gc():  # laying out and drawing: many small objects, no cycles
            run = sheet_bytes(studio, opts, chosen, progress=progress, changes=changes)
        # ... then write: the sheets first, while a live run's helper still judges the faces
        name = {"one": "sheets-one.pdf", "collation": "sheets.pdf"}.get(opts.copies)
        if name is None:
            name = f"sheets-{opts.deck.stem if opts.deck else 'deck'}.pdf"
        if opts.changed_since:
            since = re.sub(r"[^A-Za-z0-9._-]+", "-", opts.changed_since).strip("-")
            name = name.replace(".pdf", f"-since-{since}.pdf")
        path = opts.out or ws.output_dir(game) / name
        write_atomic(path, run.pdf)
        written_at = time.perf_counter()
        every = found()
    finally:
        found.close()
    described = run.described
    if changes is not None:
        described = (
            f"change log of {len(changes)} card{'s' * (len(changes) != 1)} since "
            f"{opts.changed_since}, " + described
        )
    result = JobResult(
        [Output(path, described)],
        sort_findings(set(every) | set(findings)),
        notes=run_notes + [f"warning: {w}" for w in run.warnings],
        written_at=written_at if is_live() else None,
    )
    save_disk_cache(studio)
    return result


# a live process's checked game by the files it was read from (speed.live): a template saved reads
# and checks no card and no model again
_CHECKS: Memo[CheckResult] = Memo(2)


def live_check(ws: Workspace, game: str) -> CheckResult | None:
    """The game's cards and model as a live process's last rebuild read and checked them, while
    none of the files they are read from changed (name, size and time of each file of cards/GAME/
    and rules/GAME/); None outside a live process (open_studio reads them)."""
    if not is_live():
        return None
    stamps = []
    for folder in (ws.cards_dir(game), ws.model_path(game).parent):
        for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
            try:
                info = path.stat()
            except OSError:
                continue
            stamps.append((str(path), info.st_size, info.st_mtime_ns))
    key = (str(ws.root), game, ws.edition, tuple(stamps))
    return _CHECKS.get(key, lambda: check_game(ws, game))


class _Beside:
    """A studio's findings (jobs.findings.all_findings) in a live rebuild (speed.live): its faces'
    findings worked out by a forked helper on the other core (speed.beside) while this process
    writes the sheets, and then, while the helper still works, the rest of them here; all of them
    here when called, elsewhere or when the helper is lost. What the helper measured (the contrast
    guard's cache) and read (the face store) is kept here as if done here."""

    def __init__(self, studio: Studio, beside: "Beside[tuple] | None") -> None:
        self.studio, self.beside = studio, beside

    def __call__(self) -> list[Finding]:
        beside, self.beside = self.beside, None
        if beside is None:
            return all_findings(self.studio)
        beyond = beyond_faces(self.studio)  # while the helper judges the faces
        try:
            found, faces, texts, reads = beside.answer()
        except PoolLost:
            return all_findings(self.studio, beyond=beyond)
        contrast = self.studio.renderer.contrast
        if contrast is not None and (faces or texts):
            contrast.faces.update(faces)
            contrast.known.update(texts)
            contrast.changed = True
        store = self.studio.renderer.store
        if store is not None:
            store.keep_reads(reads)
        return all_findings(self.studio, found, beyond)

    def close(self) -> None:
        if self.beside is not None:
            self.beside.close()
            self.beside = None


def _findings_beside(studio: Studio, chosen: list[Any]) -> _Beside:
    """Start working out the studio's findings beside the sheets: in a live rebuild, the chosen
    cards' faces are laid out and drawn here first (both processes read them), then a helper is
    forked to judge them (the contrast guard's measures too: not on the way to the PDF) while this
    one writes the sheets."""
    if not is_live():
        return _Beside(studio, None)
    studio.prefetch(chosen, judge=False)
    for card in studio.cards:  # what the findings read, laid out once, here, for both
        if studio.faces.for_card(card) is not None:
            studio.prepare(card)
            studio.other_faces(card)
    return _Beside(studio, Beside.start(_faces_judged, studio))


def _faces_judged(
    studio: Studio,
) -> tuple[list[Finding], dict, dict, tuple[set[str], set[str]]]:
    """In the helper: the faces' findings, the contrast guard's new measures, the face store's
    reads."""
    contrast = studio.renderer.contrast
    known = (set(contrast.faces), set(contrast.known)) if contrast is not None else (set(), set())
    found = studio.face_findings()
    faces = {k: contrast.faces[k] for k in contrast.faces if k not in known[0]} if contrast else {}
    texts = {k: v for k, v in contrast.known.items() if k not in known[1]} if contrast else {}
    store = studio.renderer.store
    reads = store.reads() if store is not None else (set(), set())
    return found, faces, texts, reads


@dataclass
class Half:
    """The printed half of a build (made by a twin process in a live rebuild): the print sheets and
    the draft night's packs, written, and what the summary says of them."""

    sheets: list[Output] = field(default_factory=list)
    packs: list[Output] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    used: tuple[set[str], set[str]] = field(
        default_factory=lambda: (set(), set())
    )  # cache faces, recordings read


def cache_use(studio: Studio) -> tuple[set[str], set[str]]:
    store = studio.renderer.store
    return store.reads() if store is not None else (set(), set())


def keep_used(studio: Studio, used: tuple[set[str], set[str]]) -> None:
    """What the twin read from the face cache stays in it when this process saves it."""
    store = studio.renderer.store
    if store is not None:
        store.keep_reads(used)


def print_half(
    studio: Studio,
    paper: Paper,
    ink: Ink,
    players: int | None,
    seed: int | None,
    progress: Progress = quiet,
) -> Half:
    """Write the print sheets and the draft night's packs (build's printed half)."""
    half = Half()
    sheet_opts = SheetOptions(paper=paper, ink=ink, players=players)
    chosen, _, run_notes = choose_cards(studio, sheet_opts)
    half.notes.extend(run_notes)
    out = studio.ws.output_dir(studio.game)
    if chosen:
        sheets = sheet_bytes(studio, sheet_opts, chosen, progress=progress)
        half.sheets.append(Output(write_atomic(out / "sheets.pdf", sheets.pdf), sheets.described))
        half.notes.extend(f"warning: {w}" for w in sheets.warnings)
    else:
        half.notes.append("no print sheets: no card is in the print run (the findings say why)")
    if studio.model.packs:
        progress("packs", 0, 1)
        from .packs import draft_night

        half.packs = draft_night(studio, seed, players, half.notes)
        progress("packs", 1, 1)
    return half

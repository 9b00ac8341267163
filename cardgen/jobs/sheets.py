"""The sheets job: choose the print run, lay it out and write the print-sheet PDF, with every
finding."""

from __future__ import annotations

import re

from ..core.errors import sort_findings
from ..core.output import JobResult, Output, write_atomic
from ..core.workspace import Workspace
from ..printrun.printing import Progress, SheetOptions, choose_cards, quiet, sheet_bytes
from ..project.changes import changes_since
from ..project.studio import open_studio, save_disk_cache, with_disk_cache
from ..speed.gcpause import no_cyclic_gc
from .findings import all_findings


def run_sheets(
    ws: Workspace, game: str, opts: SheetOptions, progress: Progress = quiet
) -> JobResult:
    # gather everything first ...
    studio = with_disk_cache(open_studio(ws, game))
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
    with no_cyclic_gc():  # laying out and drawing: many small objects, no cycles
        run = sheet_bytes(studio, opts, chosen, progress=progress, changes=changes)
    # ... then write
    name = {"one": "sheets-one.pdf", "collation": "sheets.pdf"}.get(opts.copies)
    if name is None:
        name = f"sheets-{opts.deck.stem if opts.deck else 'deck'}.pdf"
    if opts.changed_since:
        name = name.replace(
            ".pdf", f"-since-{re.sub(r'[^A-Za-z0-9._-]+', '-', opts.changed_since).strip('-')}.pdf"
        )
    path = opts.out or ws.output_dir(game) / name
    write_atomic(path, run.pdf)
    described = run.described
    if changes is not None:
        described = (
            f"change log of {len(changes)} card{'s' * (len(changes) != 1)} since "
            f"{opts.changed_since}, " + described
        )
    result = JobResult(
        [Output(path, described)],
        sort_findings(set(all_findings(studio)) | set(findings)),
        notes=run_notes + [f"warning: {w}" for w in run.warnings],
    )
    save_disk_cache(studio)
    return result

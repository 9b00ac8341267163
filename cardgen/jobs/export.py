"""The export job: load the game, make every file of the target in memory, then write them atomically."""
from __future__ import annotations

from pathlib import Path

from ..core.errors import CardgenError, Finding, Severity, suggest
from ..core.output import JobResult, Output, inside, write_atomic
from ..core.workspace import Workspace
from ..export import TARGETS
from ..export.common import ExportResult, items_for
from ..project.studio import Studio, open_studio


def make_export(ws: Workspace, game: str, target: str, deck: Path | None = None,
                image_base: str | None = None, studio: Studio | None = None,
                folder: Path | None = None, press: bool | None = None) -> ExportResult:
    """The export's files in memory. `image_base` is where hosted images will be (a URL); without it
    Draftmancer links 'images/…' and Tabletop Simulator the files' absolute file:// URIs in `folder`. `press`
    (default for dtc, refused elsewhere) writes PDF/X-1a:2003."""
    if target not in TARGETS:
        raise CardgenError(suggest(f"unknown export target '{target}' (targets: {', '.join(TARGETS)})", target,
                                   list(TARGETS)))
    if press and target != "dtc":
        raise CardgenError(f"--press makes a press-ready PDF (PDF/X-1a) and goes with --to dtc, not {target}")
    studio = studio or open_studio(ws, game)
    if target == "draftmancer":
        from ..export.draftmancer import export_draftmancer

        return export_draftmancer(studio, (image_base or "images").rstrip("/"))
    if target == "tts":
        from ..export.tts import export_tts

        where = (folder or ws.output_dir(game) / "export" / target).resolve()

        def image_url(name: str) -> str:
            return f"{image_base.rstrip('/')}/{name}" if image_base else (where / name).as_uri()

        return export_tts(studio, items_for(studio, deck, bleed=0.0), image_url)
    if target == "cockatrice":
        from ..export.cockatrice import export_cockatrice

        cards = studio.designs(printable=True)  # a card database holds every card once, not the print run
        from ..export.common import ExportItem

        return export_cockatrice(studio, [ExportItem(c, 1, *studio.prepare(c, 0.0)) for c in cards])
    if target in ("tgc", "mpc"):
        from ..export.pod import export_png_preset

        return export_png_preset(studio, items_for(studio, deck), target)
    from ..export.pod import export_dtc

    return export_dtc(studio, items_for(studio, deck), press=press is not False)


def run_export(ws: Workspace, game: str, target: str, out: Path | None = None, deck: Path | None = None,
               image_base: str | None = None, studio: Studio | None = None, press: bool | None = None) -> JobResult:
    folder = out or ws.output_dir(game) / "export" / target
    made = make_export(ws, game, target, deck, image_base, studio, folder, press)  # everything in memory first ...
    if made.problems:  # a file the consumer would reject is never written
        return JobResult(findings=[Finding(ws.shown(ws.model_path(game)), 0, 0, Severity.ERROR, "export-rejected",
                                           None, f"{target}: {p}") for p in made.problems], notes=made.notes)
    outputs = [Output(write_atomic(inside(folder, f.relpath), f.data), f.what) for f in made.files]  # ... then written
    return JobResult(outputs, notes=made.notes)

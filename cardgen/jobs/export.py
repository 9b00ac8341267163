"""The export job: load the game, make every file of the target in memory, then write them
atomically."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import CardgenError, Finding, Severity, sort_findings, suggest
from ..core.output import JobResult, Output, inside, write_atomic
from ..core.workspace import Workspace
from ..export import TARGETS
from ..export.common import ExportItem, ExportResult, items_for
from ..printrun.pngs import PngOptions, export_pngs
from ..printrun.printing import Progress, quiet
from ..project.check import blame_model, pack_parts
from ..project.studio import Studio, open_studio, save_disk_cache, with_disk_cache
from .findings import card_errors


def make_export(
    ws: Workspace,
    game: str,
    target: str,
    deck: Path | None = None,
    image_base: str | None = None,
    studio: Studio | None = None,
    folder: Path | None = None,
    press: bool | None = None,
    players: int | None = None,
) -> ExportResult:
    """The export's files in memory. `image_base` is where hosted images will be (a URL); without it
    Draftmancer links 'images/…' and Tabletop Simulator the files' absolute file:// URIs in
    `folder`. `press` (default for dtc, refused elsewhere) writes PDF/X-1a:2003. `players` scales
    the print run's per-player copies (tts, tgc, mpc, dtc), as `sheets --players` does."""
    if target not in TARGETS:
        raise CardgenError(
            suggest(
                f"unknown export target '{target}' (targets: {', '.join(TARGETS)})",
                target,
                list(TARGETS),
            )
        )
    if press and target != "dtc":
        raise CardgenError(
            f"--press makes a press-ready PDF (PDF/X-1a) and goes with --to dtc, not {target}"
        )
    if players is not None and target not in PRINT_RUN_TARGETS:
        raise CardgenError(
            f"--players scales the print run of {', '.join(PRINT_RUN_TARGETS)}; {target} "
            + (
                "exports every card once"
                if target == "cockatrice"
                else "deals packs from it (cardgen packs --players)"
            )
        )
    studio = studio or open_studio(ws, game)
    if target in PRINT_RUN_TARGETS:
        folder = folder or ws.output_dir(game) / "export" / target
        items, run_notes = items_for(studio, deck, 0.0 if target == "tts" else None, players)
        made = _print_run_export(studio, target, items, image_base, folder, press)
        made.notes[:0] = run_notes
        if deck is not None:  # a deck's export counts its own cards' errors, not the game's
            made.shipped = {it.card.id for it in items}
        return made
    if target == "draftmancer":
        from ..export.draftmancer import export_draftmancer

        return export_draftmancer(studio, (image_base or "images").rstrip("/"))
    from ..export.cockatrice import export_cockatrice

    cards = studio.designs(printable=True)  # a card database holds every card once, not the run
    return export_cockatrice(studio, [ExportItem(c, 1, *studio.prepare(c, 0.0)) for c in cards])


PRINT_RUN_TARGETS = ("tts", "tgc", "mpc", "dtc")  # the exports of the print run's copies


def _print_run_export(
    studio: Studio,
    target: str,
    items: list[ExportItem],
    image_base: str | None,
    folder: Path,
    press: bool | None,
) -> ExportResult:
    """The exports of the print run (or a deck list): Tabletop Simulator and print on demand."""
    if target == "tts":
        from ..export.tts import export_tts

        where = folder.resolve()

        def image_url(name: str) -> str:
            return f"{image_base.rstrip('/')}/{name}" if image_base else (where / name).as_uri()

        return export_tts(studio, items, image_url)
    if target in ("tgc", "mpc"):
        from ..export.pod import export_png_preset

        return export_png_preset(studio, items, target)
    from ..export.pod import export_dtc

    return export_dtc(studio, items, press=press is not False)


def run_export(
    ws: Workspace,
    game: str,
    target: str,
    out: Path | None = None,
    deck: Path | None = None,
    image_base: str | None = None,
    studio: Studio | None = None,
    press: bool | None = None,
    players: int | None = None,
) -> JobResult:
    folder = out or ws.output_dir(game) / "export" / target
    # with the face cache: the faces it draws, and those it reads for their errors, kept laid out
    studio = studio or with_disk_cache(open_studio(ws, game))
    model_errors = studio.check.model_errors
    # everything in memory first ...
    try:
        made = make_export(ws, game, target, deck, image_base, studio, folder, press, players)
    except CardgenError as exc:  # a pack format the model's errors left unusable: exit 1
        parts = pack_parts(studio.check, None) if target == "draftmancer" else set()
        raise blame_model(ws, game, studio.check, exc, parts) from exc
    if made.problems:  # a file the consumer would reject is never written
        return JobResult(
            findings=[
                Finding(
                    ws.shown(ws.model_path(game)),
                    0,
                    0,
                    Severity.ERROR,
                    "export-rejected",
                    None,
                    f"{target}: {p}",
                )
                for p in made.problems
            ]
            + model_errors,
            notes=made.notes,
        )
    outputs = [
        Output(write_atomic(inside(folder, f.relpath), f.data), f.what) for f in made.files
    ]  # ... then written
    listed = made.refused + model_errors
    # an export of cards with errors is not done (exit 1), as a print run of them is not
    counted = card_errors(studio, set(listed), made.shipped)
    save_disk_cache(studio)
    return JobResult(outputs, listed, notes=made.notes, counted=counted)


def run_png_export(
    ws: Workspace, game: str, opts: PngOptions, folder: Path, progress: Progress = quiet
) -> JobResult:
    """One PNG per face into `folder`, with the model's and templates' errors listed, and the
    cards' errors counted (exit 1 by either, as a print run of those faces)."""
    studio = open_studio(ws, game)
    result = export_pngs(studio, opts, folder, progress)
    result.findings = sort_findings(set(result.findings) | set(studio.check.model_errors))
    result.counted = card_errors(studio, set(result.findings))
    return result

"""Turn a game into every finding cardgen can report: data, faces and rulebook sources (writing at
most the face cache a build already made).

The one collection of findings: `cardgen validate` reports it, and build, show, the gallery and the
set report show the same list.
"""

from __future__ import annotations

from typing import Callable

from ..core.errors import CardgenError, Finding, Severity, sort_findings
from ..core.workspace import Workspace
from ..kit.decks import sleeve_findings
from ..kit.tokens import token_findings
from ..project.check import CheckResult, check_game
from ..project.editions import edition_workspaces, tag_edition
from ..project.loaded import LoadedGame
from ..project.studio import Studio, open_studio, save_disk_cache, with_disk_cache
from ..sheet.cells import annotate_cells


def project_findings(studio: Studio) -> list[Finding]:
    """What only a loaded project can see: faces (text fitting, glyphs, art, templates) and the
    rulebook."""
    return sort_findings(set(studio.face_findings()) | beyond_faces(studio))


def beyond_faces(studio: Studio) -> set[Finding]:
    """What a loaded project sees besides its faces' findings: sleeves, tokens, boxes and the
    rulebook (a live sheet run works them out while a helper judges the faces: jobs.sheets)."""
    found = set(sleeve_findings(studio)) | set(token_findings(studio)) | set(box_findings(studio))
    if (
        studio.ws.root / "rules" / studio.game / "rulebook" / "index.md"
    ).is_file():  # else its code is not loaded
        from ..rulebook.lint import rulebook_findings

        found |= set(rulebook_findings(studio))
    return found


def card_errors(
    studio: Studio,
    listed: set[Finding] | frozenset[Finding] = frozenset(),
    only: set[str] | None = None,
) -> list[Finding]:
    """The cards' errors a command that shows or ships their faces (a rulebook, an export) counts
    without listing them (`cardgen validate` lists them): their data's, and their faces' as laid
    out (a picture too coarse to print, an element that cannot be drawn), those in `listed` aside.
    As a print run does, such a command exits 1 by them. `only`: the designs it ships (a deck
    list's), whose errors count with those of no card (a file that could not be read)."""
    errors = [f for f in studio.check.errors if only is None or not f.card or f.card in only]
    for card in studio.designs(printable=True):
        if only is not None and card.id not in only:
            continue
        faces = [*studio.prepare(card), *(f for pair in studio.other_faces(card) for f in pair)]
        errors += [
            f
            for face in faces
            if face is not None
            for f in face.findings
            if f.severity >= Severity.ERROR
        ]
    return [f for f in dict.fromkeys(errors) if f not in listed]


def box_findings(studio: Studio) -> list[Finding]:
    """What the default print run's boxes find (a deck's box too large for A4: not made), as
    `build` and `cardgen box` report it."""
    from ..core.options import A4
    from ..kit.boxes import BoxOptions, plan_boxes

    return plan_boxes(studio, A4, BoxOptions()).findings


def with_own_boxes(findings: list[Finding], planned: list[Finding]) -> list[Finding]:
    """`findings` with the default print run's box findings (validate's: A4, the model's players)
    replaced by those of the boxes a command made itself (its paper, its players): a box too large
    for A4 but made on Letter is not reported, one too large for both once."""
    return sort_findings({f for f in findings if not f.code.startswith("box-")} | set(planned))


def all_findings(
    studio: Studio, faces: list[Finding] | None = None, beyond: set[Finding] | None = None
) -> list[Finding]:
    """Every finding of a loaded project, each naming the sheet cell its value came from (and, in
    an edition other than the default's, those at its translations naming the edition). `faces`,
    `beyond`: the faces' findings (Studio.face_findings) and the rest of the project's
    (beyond_faces), when they were worked out already (apart, in two processes)."""
    project = set(studio.face_findings() if faces is None else faces)
    project |= beyond_faces(studio) if beyond is None else beyond
    found = sort_findings(set(studio.findings) | project)
    if studio.model.other_edition():
        found = tag_edition(found, studio.model.edition, catalog=studio.catalog)
    return annotate_cells(studio.check, found)


def studio_findings(loaded: LoadedGame) -> list[Finding]:
    """What only a loaded project finds (faces, the rulebook), for a game read as `loaded`: a
    warning when it has no templates, one error when they cannot be opened."""
    ws = loaded.workspace
    folder = ws.templates_dir(loaded.game)
    if (
        not folder.is_dir()
    ):  # a game may be data only for now: nothing to print, so nothing wrong with faces
        return [
            Finding(
                ws.shown(folder),
                0,
                0,
                Severity.WARNING,
                "no-templates",
                None,
                f"no templates for {loaded.game}: card faces are not checked (text fitting, "
                "glyphs, art)",
                "cardgen new can scaffold a template",
            )
        ]
    try:
        studio = open_studio(ws, loaded.game, CheckResult(loaded, []))
    except CardgenError as exc:
        return [
            Finding(ws.shown(folder), 0, 0, Severity.ERROR, "template-unusable", None, exc.message)
        ]
    # faces come from the face cache a build or sheets made (output/GAME/.cache), and validating
    # keeps it current; validating alone never creates output/, and a workspace it cannot write is
    # only read
    with_disk_cache(studio)
    found = project_findings(studio)
    if (ws.root / "output").is_dir():
        save_disk_cache(
            studio
        )  # best effort (output.write_cache): a workspace it cannot write is only read
    return found


def validate_game(
    ws: Workspace,
    game: str,
    progress: Callable[[str, int, int], None] | None = None,
    every_edition: bool = False,
) -> CheckResult:
    """Load and check a game completely: the result's findings are the one collection, each naming
    the sheet cell its value came from (sheet.cells). With `every_edition`, a game with editions is
    checked in each of them (its translations, its faces' fit and glyphs, its rulebook): an
    edition's own findings name it (`Finding.edition`)."""
    result = check_game(ws, game, extra=studio_findings, progress=progress)
    model = result.model
    if model is not None and model.other_edition():
        result.findings = tag_edition(result.findings, model.edition, catalog=result.catalog)
    elif every_edition and model is not None and model.editions is not None:
        base = set(result.findings)
        more = [
            f
            for other in edition_workspaces(ws, game, model)[1:]
            for f in tag_edition(
                check_game(other, game, extra=studio_findings).findings, other.edition, base
            )
        ]
        result.findings = sort_findings(base | set(more))
    result.findings = annotate_cells(result, result.findings)
    return result

"""Turn a game with editions into a build of every edition (the default language's into
output/GAME/, each other into output/GAME@LANG/) and a set report with every edition's smallest
texts: every edition opened and checked before anything is written."""

from __future__ import annotations

from pathlib import Path

from ..core.output import JobResult, Output
from ..core.workspace import Workspace
from ..gallery.smallest import EditionTexts, smallest_texts
from ..printrun.printing import Progress, quiet
from ..project.editions import edition_workspaces, tag_edition
from ..project.studio import Studio, open_studio, with_disk_cache
from .build import BuildOptions, EditionBuild, build_game
from .findings import all_findings


def edition_studios(ws: Workspace, game: str, every_edition: bool = True) -> list[Studio]:
    """A studio per edition of the game, the default language's first (one for a game without
    editions, for a workspace that works in one edition, or without `every_edition`)."""
    first = with_disk_cache(open_studio(ws, game))
    others = edition_workspaces(ws, game, first.model)[1:] if every_edition else []
    return [first] + [with_disk_cache(open_studio(other, game)) for other in others]


def every_smallest(studios: list[Studio]) -> list[EditionTexts] | None:
    """Each edition's texts set smallest, for the set report; None for a game without editions."""
    if studios[0].model.editions is None:
        return None
    for studio in studios:  # laid out on every core first: the tables read every face
        studio.prefetch(studio.designs(printable=True))
    return [smallest_texts(studio) for studio in studios]


def build_every_edition(
    ws: Workspace, game: str, opts: BuildOptions, progress: Progress = quiet
) -> JobResult:
    """`cardgen build GAME` of a game with editions: every edition, each into its own folder; the
    findings are every edition's, an edition's own naming it. The default edition's set report
    shows every edition's smallest texts, each other edition's its own."""
    studios = edition_studios(ws, game)
    smallest = every_smallest(studios)
    if smallest is None:
        return build_game(ws, game, opts, progress, edition=EditionBuild(studios[0]))
    result = JobResult()
    base: set | None = None
    for i, studio in enumerate(studios):
        done = build_game(
            studio.ws,
            game,
            opts,
            progress,
            edition=EditionBuild(studio, base, smallest if i == 0 else [smallest[i]]),
        )
        if base is None:
            base = set(done.findings)
            result.notes += done.notes
        else:
            lang = studio.model.edition
            result.notes += [f"{lang}: {n}" for n in done.notes if n not in result.notes]
        result.outputs += done.outputs
        result.findings = sorted(set(result.findings) | set(done.findings))
        result.counted += done.counted
    return result


def run_report_editions(
    ws: Workspace, game: str, out: Path | None = None, every_edition: bool = True
) -> JobResult:
    """`cardgen report GAME`: the set report of the workspace's edition; for a game with editions
    (`every_edition`: no --edition), with a table per edition of the texts it set smallest."""
    from ..gallery.report import build_report

    studios = edition_studios(ws, game, every_edition)
    studio = studios[0]
    findings = all_findings(studio)
    if len(studios) > 1:
        base = set(findings)
        for other in studios[1:]:
            findings += [
                f
                for f in tag_edition(all_findings(other), other.model.edition, base)
                if f not in base
            ]
        findings = sorted(set(findings))
    path = build_report(
        studio, findings, out or ws.output_dir(game) / "report", every_smallest(studios)
    )
    return JobResult([Output(path, "set report (figures beside it as PNG)")], findings)

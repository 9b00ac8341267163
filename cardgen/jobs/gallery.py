"""The gallery job: load, validate and render a game, then write its gallery page; or an error
page."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from ..core.errors import CardgenError
from ..core.output import JobResult, Output, write_atomic
from ..core.workspace import Workspace
from ..gallery.page import GalleryResult, own_folders, page_template, write_gallery
from ..project.studio import open_studio
from ..render.prepared import PreparedFace
from .findings import all_findings


def build_gallery(
    ws: Workspace,
    game: str,
    out: Path | None = None,
    live: bool = False,
    version: str = "",
    prepared: dict[str, PreparedFace] | None = None,
) -> JobResult:
    page = gallery_page(ws, game, out, live, version, prepared)
    return JobResult(
        [
            Output(
                page.path,
                f"gallery of {page.cards} designs with their findings "
                f"({page.rendered} faces rendered)",
            )
        ],
        page.findings,
    )


def gallery_page(
    ws: Workspace,
    game: str,
    out: Path | None = None,
    live: bool = False,
    version: str = "",
    prepared: dict[str, PreparedFace] | None = None,
    keep: Collection[str] = (),
) -> GalleryResult:
    """The gallery as written, with the faces its page shows (`keep`: faces an earlier page shows,
    not pruned)."""
    check = None
    if live:  # serve's rebuild: the cards and model read and checked again only when changed
        from .sheets import live_check

        check = live_check(ws, game)
    studio = open_studio(ws, game, check, prepared)
    return write_gallery(
        studio, all_findings(studio), out or ws.output_dir(game) / "gallery", live, version, keep
    )


def write_error_page(
    out: Path, game: str, error: str, version: str, root: Path | None = None
) -> Path:
    """What the live page shows while the game cannot be built at all (a broken model or
    template)."""
    own_folders(out, root)
    return write_atomic(
        out / "index.html",
        page_template("errorpage").render(game=game, error=error, version=version),
    )


def error_text(exc: Exception) -> str:
    return exc.format() if isinstance(exc, CardgenError) else f"{type(exc).__name__}: {exc}"


def run_report(ws: Workspace, game: str, out: Path | None = None) -> JobResult:
    from ..gallery.report import build_report

    studio = open_studio(ws, game)
    findings = all_findings(studio)
    path = build_report(studio, findings, out or ws.output_dir(game) / "report")
    return JobResult([Output(path, "set report (figures beside it as PNG)")], findings)

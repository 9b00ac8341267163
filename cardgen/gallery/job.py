"""The gallery job: load, validate and render a game, then write its gallery page; or an error page."""
from __future__ import annotations

from pathlib import Path

from ..errors import CardgenError
from ..findings import all_findings
from ..output import JobResult, Output, write_atomic
from ..project import open_studio
from ..render.face import PreparedFace
from ..workspace import Workspace
from .page import page_template, write_gallery


def build_gallery(ws: Workspace, game: str, out: Path | None = None, live: bool = False, version: str = "",
                  prepared: dict[str, PreparedFace] | None = None) -> JobResult:
    studio = open_studio(ws, game, None, prepared)
    findings = all_findings(studio)
    page = write_gallery(studio, findings, out or ws.output_dir(game) / "gallery", live, version)
    return JobResult([Output(page.path, f"gallery of {page.cards} cards with their findings "
                                        f"({page.rendered} faces rendered)")], findings)


def write_error_page(out: Path, game: str, error: str, version: str) -> Path:
    """What the live page shows while the game cannot be built at all (a broken model or template)."""
    return write_atomic(out / "index.html", page_template("errorpage").render(game=game, error=error, version=version))


def error_text(exc: Exception) -> str:
    return exc.format() if isinstance(exc, CardgenError) else f"{type(exc).__name__}: {exc}"


def run_report(ws: Workspace, game: str, out: Path | None = None) -> JobResult:
    from .report import build_report

    studio = open_studio(ws, game)
    findings = all_findings(studio)
    path = build_report(studio, findings, out or ws.output_dir(game) / "report")
    return JobResult([Output(path, "set report (figures beside it as PNG)")], findings)

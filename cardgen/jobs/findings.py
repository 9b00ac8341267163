"""Turn a game into every finding cardgen can report: data, faces and rulebook sources (writing at most the face
cache a build already made).

The one collection of findings: `cardgen validate` reports it, and build, show, the gallery and the set
report show the same list.
"""
from __future__ import annotations

from typing import Callable

from ..core.errors import CardgenError, Finding, Severity, sort_findings
from ..core.workspace import Workspace
from ..project.check import CheckResult, check_game
from ..project.loaded import LoadedGame
from ..project.studio import Studio, open_studio, save_disk_cache, with_disk_cache


def project_findings(studio: Studio) -> list[Finding]:
    """What only a loaded project can see: faces (text fitting, glyphs, art, templates) and the rulebook."""
    found = set(studio.face_findings())
    if (studio.ws.root / "rules" / studio.game / "rulebook" / "index.md").is_file():  # else its code is not loaded
        from ..rulebook.lint import rulebook_findings

        found |= set(rulebook_findings(studio))
    return sort_findings(found)


def all_findings(studio: Studio) -> list[Finding]:
    return sort_findings(set(studio.check.findings) | set(project_findings(studio)))


def _extra(loaded: LoadedGame) -> list[Finding]:
    ws = loaded.workspace
    folder = ws.templates_dir(loaded.game)
    if not folder.is_dir():  # a game may be data only for now: nothing to print, so nothing wrong with faces
        return [Finding(ws.shown(folder), 0, 0, Severity.WARNING, "no-templates", None,
                        f"no templates for {loaded.game}: card faces are not checked (text fitting, glyphs, art)",
                        "cardgen new can scaffold a template")]
    try:
        studio = open_studio(ws, loaded.game, CheckResult(loaded, []))
    except CardgenError as exc:
        return [Finding(ws.shown(folder), 0, 0, Severity.ERROR, "template-unusable", None, exc.message)]
    # faces come from the face cache a build or sheets made (output/GAME/.cache), and validating keeps it
    # current; validating alone never creates output/, and a workspace it cannot write is only read
    with_disk_cache(studio)
    found = project_findings(studio)
    if (ws.root / "output").is_dir():
        save_disk_cache(studio)  # best effort (output.write_cache): a workspace it cannot write is only read
    return found


def validate_game(ws: Workspace, game: str, progress: Callable[[str, int, int], None] | None = None) -> CheckResult:
    """Load and check a game completely: the result's findings are the one collection."""
    return check_game(ws, game, extra=_extra, progress=progress)

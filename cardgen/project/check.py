"""Turn a workspace and a game name into a CheckResult: the model, the cards, and every finding,
sorted."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable

from ..core.errors import CardgenError, Finding, ModelUnusable, Severity, count, sort_findings
from ..core.workspace import Workspace
from ..load.card import Catalog
from ..load.yamlio import UNREAD_CODES
from ..model.collation import count_findings
from ..model.game import GameModel
from ..project.loaded import LoadedGame, load_game
from ..speed.gcpause import no_cyclic_gc
from ..validate import validate


@dataclass
class CheckResult:
    loaded: LoadedGame
    findings: list[Finding]

    @property
    def model(self) -> GameModel | None:
        return self.loaded.model

    @property
    def catalog(self) -> Catalog:
        return self.loaded.catalog

    @property
    def counts(self) -> dict[str, int]:
        return count(self.findings)

    def failed(self, strict: bool = False) -> bool:
        worst = Severity.WARNING if strict else Severity.ERROR
        return any(f.severity >= worst for f in self.findings)

    @property
    def model_errors(self) -> list[Finding]:
        """The model's and templates' errors: every command that loads the game prints them."""
        return model_errors(self.findings)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR]


def check_game(
    ws: Workspace,
    game: str,
    extra: Callable[[LoadedGame], list[Finding]] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> CheckResult:
    """Load and validate one game. `extra` adds findings from later stages (e.g. text fitting)."""
    with no_cyclic_gc():
        loaded = load_game(ws, game, progress)
        findings = list(loaded.findings)
        if loaded.model is not None:
            findings += validate(loaded.model, loaded.catalog, ws.root)
            findings += count_findings(loaded.model, loaded.catalog)
            if loaded.model.packs:  # only then is the packs code loaded
                from ..model.packs import format_findings

                findings += format_findings(loaded.model, loaded.catalog, loaded.findings)
    if loaded.model is not None and extra is not None:
        findings += extra(loaded)
    return CheckResult(loaded, sort_findings(set(findings)))


def checked(
    ws: Workspace,
    game: str,
    extra: Callable[[LoadedGame], list[Finding]] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> CheckResult:
    """A checked game whose model can be used: every command that needs the model starts here. A
    model that cannot be used at all is ModelUnusable (its findings printed, exit 1)."""
    result = check_game(ws, game, extra, progress)
    if result.model is None:
        raise ModelUnusable(game, result.findings, ws.shown(ws.model_path(game)))
    return result


def blame_model(
    ws: Workspace, game: str, result: CheckResult, exc: CardgenError, parts: set[str]
) -> CardgenError:
    """What a job raises when it cannot go on because of `exc`: when the model's errors damaged one
    of `parts` (model sections, as `Finding.about` names them), those errors, located, with `exc`'s
    message after them (exit 1, the data's code); else `exc` itself (a usage error stays one)."""
    if not {f.about for f in result.model_errors} & parts:
        return exc
    unusable = ModelUnusable(game, result.model_errors, ws.shown(ws.model_path(game)))
    unusable.message = f"{exc.message} (the model's errors above say why)"
    return unusable


def pack_parts(result: CheckResult, format_name: str | None) -> set[str]:
    """The model sections a pack format is made from (`format_name`, else the first format)."""
    name = format_name or next(iter((result.model and result.model.packs) or {}), "")
    return {f"packs.{name}", "packs", "draft", "collation"}


def is_unread(f: Finding) -> bool:
    """A card, deck or sheet file that could not be read at all (its syntax, encoding, size): the
    findings that say a card is missing may follow from it."""
    return f.code in UNREAD_CODES


def is_root(f: Finding) -> bool:
    """A finding in the model (rules/GAME/, the rulebook's chapters aside) or in a template: what
    card findings follow from, so it is printed first."""
    path = f.file.replace("\\", "/")
    return (path.startswith("rules/") and "/rulebook/" not in path) or path.startswith("templates/")


def model_errors(findings: list[Finding]) -> list[Finding]:
    """The errors of the model and the templates among `findings` (root causes: printed first by
    every command that loads the game)."""
    return [f for f in findings if f.severity is Severity.ERROR and is_root(f)]


def root_first(findings: list[Finding]) -> list[Finding]:
    """The findings in the order a designer fixes them: the files that could not be read at all
    (a card missing elsewhere, a pack sheet that selects none, may be in one), the model's errors,
    the templates' errors, then the model's and the templates' warnings and notes (a colour that
    clashes explains no other finding), then the rest (cards, decks, chapters), each by
    location."""

    def rank(f: Finding) -> int:
        if is_unread(f):
            return 0
        if not is_root(f):
            return 5
        where = 1 if f.file.startswith("rules/") else 2
        return where if f.severity is Severity.ERROR else 2 + where

    return sorted(sort_findings(findings), key=rank)


def follows(findings: list[Finding]) -> dict[Finding, Finding]:
    """Each finding that follows from a model or template error -> that error: a card finding
    about the part of the model (Finding.about) an error there damaged."""
    causes: dict[str, Finding] = {}
    for f in root_first(findings):
        if f.about and f.severity is Severity.ERROR and is_root(f):
            causes.setdefault(f.about, f)
    return {
        f: causes[f.about]
        for f in findings
        if f.about in causes and not is_root(f) and causes[f.about] is not f
    }


def presented(findings: list[Finding]) -> list[tuple[Finding, int]]:
    """The findings as text shows them: root causes first, each followed by how many findings
    follow from it (those are left out of the list; `--format json` has them all)."""
    after = follows(findings)
    hidden: dict[Finding, int] = {}
    for cause in after.values():
        hidden[cause] = hidden.get(cause, 0) + 1
    return [(f, hidden.get(f, 0)) for f in root_first(findings) if f not in after]


def summary_line(result: CheckResult) -> str:
    c = result.counts
    files = len(result.catalog.files)
    designs, entries = len(result.catalog.designs()), len(result.catalog)
    written = f" ({entries} written: an id is repeated)" if entries != designs else ""
    return (
        f"{result.loaded.game}: {designs} design{'s' if designs != 1 else ''}{written} in {files} "
        f"file{'s' if files != 1 else ''}: "
        f"{c['error']} error{'s' * (c['error'] != 1)}, {c['warning']} "
        f"warning{'s' * (c['warning'] != 1)}, "
        f"{c['info']} info"
    )


def findings_json(game: str, findings: list[Finding]) -> str:
    """Every finding, root causes first; one that follows from a model or template error names it
    (`follows_from`: its file:line and code)."""
    after = follows(findings)

    def item(f: Finding) -> dict[str, object]:
        d = f.as_dict()
        cause = after.get(f)
        if cause is not None:
            d["follows_from"] = f"{cause.file}:{cause.line}:{cause.column or 1} {cause.code}"
        return d

    return (
        json.dumps(
            {
                "game": game,
                "findings": [item(f) for f in root_first(findings)],
                "counts": count(findings),
            },
            indent=2,
            ensure_ascii=False,
        )
        + "\n"
    )


def findings_summary(result: CheckResult, command: str) -> str:
    """A Markdown digest of the findings by category: what a designer reads as a to-do list."""
    from collections import defaultdict

    groups: dict[tuple[int, str], list[Finding]] = defaultdict(list)
    for f in result.findings:
        groups[(-int(f.severity), f.code)].append(f)
    model = result.model
    title = model.name if model else result.loaded.game
    lines = [
        f"# {title}: what the validator finds",
        "",
        f"Generated by `{command}`; do not edit by hand.",
        "",
        summary_line(result) + ".",
        "",
        "| severity | code | count | for example |",
        "|---|---|---:|---|",
    ]
    for (_, code), items in sorted(groups.items()):
        example = items[0]
        where = f"`{example.file}:{example.line}`" + (f" {example.card}" if example.card else "")
        text = example.message.replace("|", "\\|")
        lines.append(f"| {example.severity} | `{code}` | {len(items)} | {where}: {text} |")
    return "\n".join(lines) + "\n"

"""Turn `sheet pull` and `sheet push` into results: a designer's sheet pulled into the card files in
place (then validated, findings named by cell), or the cards pushed out as a sheet."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..core.errors import CardgenError, Finding, ModelUnusable, Severity, sort_findings
from ..core.output import JobResult, Output, write_atomic
from ..core.workspace import Workspace
from ..model.game import GameModel
from ..model.load import load_model
from ..project.check import model_errors
from ..project.loaded import LoadedGame, load_game
from ..sheet.cells import annotate_cells, save_cells
from ..sheet.grid import TABLE_UNREAD
from ..sheet.preview import planned_catalog
from ..sheet.pull import PullPlan, plan_pull, write_plan
from ..sheet.push import build_tables, csv_bytes, xlsx_bytes
from ..sheet.read import read_tables
from ..sheet.settings import sheet_settings
from ..sheet.source import read_sources
from ..sheet.synced import agreed_values, load_synced, only_unique, save_synced


def _load(ws: Workspace, game: str) -> tuple[GameModel, LoadedGame]:
    loaded = load_game(ws, game)
    if loaded.model is None:
        raise ModelUnusable(game, loaded.findings, ws.shown(ws.model_path(game)))
    return loaded.model, loaded


def _shown(ws: Workspace, source: str) -> str:
    """How findings name the sheet: its path in the workspace, else as the user wrote it."""
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", source):
        return source
    path = Path(source).absolute()
    return ws.shown(path) if path.resolve().is_relative_to(ws.root.resolve()) else source


def pull_sheet(
    ws: Workspace,
    game: str,
    source: str,
    *,
    prune: bool = False,
    dry_run: bool = False,
    validate: bool = True,
) -> tuple[JobResult, PullPlan]:
    """Pull a sheet into GAME's card files: every changed cell one in-place edit, written only when
    the whole pull succeeds; then (unless `validate` is False: a live rebuild validates anyway) the
    game validated, its findings named by cell."""
    model, loaded = _load(ws, game)
    settings = sheet_settings(model)
    shown = _shown(ws, source)
    tables, read_findings = read_tables(source, shown)
    sources, source_findings = read_sources(ws, game, loaded.source, loaded.findings)
    cards_dir = ws.cards_dir(game)
    plan = plan_pull(
        [t for t in tables if t.name != "_lists"],
        sources,
        model,
        settings,
        cards_dir,
        ws.shown(cards_dir),
        prune=prune,
        synced=load_synced(ws.shared_dir(game), shown),
    )
    plan.findings = plan.read(read_findings) + source_findings + plan.findings
    if not plan.rows and not any(f.code in TABLE_UNREAD for f in read_findings):
        plan.findings.append(_empty(shown, len(loaded.catalog)))  # else that finding says why
    notes: list[str] = []
    outputs: list[Output] = []
    text = "".join(c.format() + "\n" for c in plan.changes)
    failed = plan.failed  # the sheet's own errors stop the pull; the model's are printed first
    known = set(plan.findings)
    plan.findings += [f for f in model_errors(loaded.findings) if f not in known]
    if failed:
        notes.append("nothing written: the sheet has errors (the findings name their cells)")
        return JobResult(findings=sort_findings(plan.findings), notes=notes, text=text), plan
    if plan.new_ids:
        notes.append(
            "new cards got an id from their name "
            f"({', '.join(plan.new_ids[:3])}{', …' * (len(plan.new_ids) > 3)}): "
            "push again to see the new ids in the sheet"
        )
    if dry_run:
        notes.append(f"dry run: {len(plan.changes)} change(s), nothing written")
        found = (
            _planned_findings(ws, game, model, loaded, plan)
            if validate
            else sort_findings(plan.findings)
        )
        return JobResult(findings=found, notes=notes, text=text), plan
    written = write_plan(plan)
    save_cells(ws.shared_dir(game), shown, plan.cells)
    agreed = {**(plan.synced or {})}
    for card_id, values in plan.agreed.items():
        agreed[card_id] = {**agreed.get(card_id, {}), **values}
    save_synced(ws.shared_dir(game), shown, only_unique(agreed, sources))
    outputs = [Output(plan.writes[s][0].path, "cards pulled from the sheet") for s in written]
    found = sort_findings(plan.findings)
    if validate:
        from .findings import validate_game

        checked = validate_game(ws, game)
        found = sort_findings(set(checked.findings) | set(plan.findings))
        found = annotate_cells(checked, found, plan.cells)
    if not plan.changes:
        notes.append(f"the sheet matches the cards ({plan.rows} rows): nothing to write")
    return JobResult(outputs, found, notes, text), plan


def _empty(shown: str, cards: int) -> Finding:
    return Finding(
        shown,
        0,
        0,
        Severity.ERROR,
        "sheet-empty",
        None,
        f"the sheet has no rows of cards (the game has {cards}), so nothing is pulled",
        "is it the right file, or the right tab? A CSV download holds only the tab that was open",
    )


def _planned_findings(
    ws: Workspace, game: str, model: GameModel, loaded: LoadedGame, plan: PullPlan
) -> list[Finding]:
    """What validating after the pull would report, from the planned card texts in memory: the
    findings a dry run shows (and exits by)."""
    from ..model.localise import edition_catalog
    from ..validate import validate
    from .findings import studio_findings

    written, read = planned_catalog(plan, loaded.source, loaded.findings)
    catalog = edition_catalog(written, model)  # as the edition prints them (a game with editions)
    planned = LoadedGame(ws, game, model, catalog, read)
    found = list(read) + validate(model, catalog, ws.root)
    if model.packs:
        from ..model.packs import format_findings

        found += format_findings(model, catalog, read)
    found += studio_findings(planned)
    return annotate_cells(planned, sort_findings(set(found) | set(plan.findings)), plan.cells)


def pull_json(game: str, source: str, plan: PullPlan, result: JobResult) -> str:
    return (
        json.dumps(
            {
                "game": game,
                "sheet": source,
                "changes": [c.as_dict() for c in plan.changes],
                "written": sorted(plan.writes) if result.outputs else [],
                "findings": [f.as_dict() for f in result.findings],
            },
            indent=2,
            ensure_ascii=False,
        )
        + "\n"
    )


def pull_declared(ws: Workspace, game: str) -> JobResult | None:
    """The live hook (build --watch, serve): pull the sheet game.yaml declares (`sheet: file:`), if
    any, without validating (the rebuild that follows does); None when no sheet is declared."""
    path = declared_sheet(ws, game)
    if path is None:
        return None
    result, _ = pull_sheet(ws, game, str(path), validate=False)
    return result


def declared_sheet(ws: Workspace, game: str) -> Path | None:
    """The sheet game.yaml declares (`sheet: file:`), as a path inside the workspace; None when none
    is. A workspace may not be the user's own: a declared web address or a path outside it is
    refused (a published-CSV address is pulled from the command line, never from game.yaml)."""
    ws.check_game(game)
    model, _ = load_model(ws.model_path(game), ws.shown(ws.model_path(game)), game)
    declared = sheet_settings(model).file if model is not None else None
    if not declared:
        return None
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", declared):
        raise CardgenError(
            f"sheet: file: '{declared}' is a web address; game.yaml may only name a sheet in the "
            "workspace (pull an address with 'cardgen sheet pull GAME URL')"
        )
    path = (ws.root / declared).absolute()
    if not path.resolve().is_relative_to(ws.root.resolve()) or path.is_symlink():
        raise CardgenError(f"sheet: file: '{declared}' is outside the workspace; not read")
    return path


def push_sheet(ws: Workspace, game: str, to: Path) -> JobResult:
    """Write GAME's cards as a sheet: .csv, .xlsx or .ods by the name's ending."""
    suffix = to.suffix.lower()
    if suffix not in (".csv", ".xlsx", ".ods"):
        raise CardgenError(f"--to {to.name}: cardgen writes .csv, .xlsx or .ods sheets")
    model, loaded = _load(ws, game)
    settings = sheet_settings(model)
    sources, findings = read_sources(ws, game, loaded.source, loaded.findings)
    tables, more = build_tables(sources, model, settings, one_table=suffix == ".csv")
    if suffix == ".csv":
        data = csv_bytes(tables)
    elif suffix == ".xlsx":
        data = xlsx_bytes(tables, model)
    else:
        from ..sheet.ods import ods_bytes

        data = ods_bytes(tables, model)
    write_atomic(to, data)
    values = agreed_values(sources, model, settings.separator)
    save_synced(ws.shared_dir(game), _shown(ws, str(to)), values)
    cards = sum(len(t.rows) for t in tables)
    sheets = "" if suffix == ".csv" else f" in {len(tables)} sheet{'s' * (len(tables) != 1)}"
    listed = sort_findings(set(findings + more + model_errors(loaded.findings)))
    # the sheet is written all the same; the cards' errors are counted (exit 1), as an export's
    from ..validate import validate

    errors = [
        f
        for f in [*loaded.findings, *validate(model, loaded.catalog, ws.root)]
        if f.severity >= Severity.ERROR and f not in listed
    ]
    return JobResult(
        [Output(to, f"{cards} card{'s' * (cards != 1)}{sheets}")],
        listed,
        counted=list(dict.fromkeys(errors)),
    )


def sheet_findings(findings: list[Finding]) -> list[Finding]:
    """Only the findings a pull itself raised (for --dry-run summaries)."""
    return [f for f in findings if f.code.startswith("sheet-") or f.severity >= Severity.ERROR]

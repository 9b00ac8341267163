"""Turn sheet rows that match no card into new cards: their fields typed as the model says, the
file the model's rule picks (the row's tab or file cell, else where most cards of its kind are, else
the default), appended in the file's own layout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.errors import Finding, Severity
from ..load.card import slug
from ..load.yamledit import Editor, Located
from ..model.game import GameModel
from .columns import (
    FIELD,
    FILE,
    UNSET,
    Column,
    canon,
    field_order,
    field_spec,
    from_cell,
)
from .plan import Change, PullPlan, Row, shown_value
from .settings import SheetSettings, card_file_name
from .source import CardFile, card_id


def new_row(
    plan: PullPlan,
    row: Row,
    key: str,
    columns: list[Column],
    model: GameModel,
    settings: SheetSettings,
    home: CardFile | None,
    by_rel: dict[str, CardFile],
    sources: list[CardFile],
    new_cards: dict,
    with_id: bool = False,
) -> None:
    fields: list[tuple[str, Any]] = []
    values: dict[str, Any] = {}
    refs: dict[str, str] = {"": row.first()}
    target: str | None = None
    for column in columns:
        cell = row.get(column)
        if cell is None:
            continue
        if column.kind == FILE and canon(cell.value).strip():
            target = canon(cell.value).strip()
        if column.kind != FIELD or column.field is None:
            continue
        spec = field_spec(model, column.field)
        new = from_cell(cell.value, spec, model, settings.separator, None)
        if new is not UNSET:
            values[column.field] = new
            refs[column.field] = cell.ref
    known = field_order(model)
    order = known + sorted(k for k in values if k not in known)
    made = card_id(values, "new", 0) if values else ""
    named = isinstance(values.get("name"), str) and made == slug(values["name"])
    if key and (key != made or with_id):
        fields.append(("id", key))
    elif not key and with_id and named:
        fields.append(("id", made))  # so the next pull of this row (its id cell empty) finds it
        plan.new_ids.append(made)
    fields += [(k, values[k]) for k in order if k in values and k != "id"]
    if not fields:
        return
    if target is None:
        target = home.rel if home else _rule_file(values, settings, sources)
    try:
        rel = card_file_name(target)
    except Exception as exc:  # a hostile or mistyped file name: a finding at its cell
        plan.findings.append(
            Finding(
                row.first().rsplit(":", 1)[0],
                0,
                0,
                Severity.ERROR,
                "sheet-bad-file",
                None,
                str(getattr(exc, "message", exc)),
                cell=row.first(),
            )
        )
        return
    if rel in by_rel and not by_rel[rel].readable:
        plan.findings.append(
            Finding(
                by_rel[rel].shown,
                0,
                0,
                Severity.ERROR,
                "sheet-not-expressible",
                None,
                f"a new card from row {row.first()} would go to a file that cannot be edited",
                None,
                cell=row.first(),
            )
        )
        return
    new_cards.setdefault(rel, []).append((row, fields, key or made))
    plan.cells[key or made] = refs


def _rule_file(values: dict[str, Any], settings: SheetSettings, sources: list[CardFile]) -> str:
    """The file the model's rule picks for a new card: the declared file for its value of the
    rule's field, else the file holding most cards with that value, else the default."""
    by = settings.new_by
    value = values.get(by) if by else None
    if isinstance(value, list):
        value = value[0] if value else None
    if value is not None:
        if str(value) in settings.new_files:
            return settings.new_files[str(value)]
        counts: dict[str, int] = {}
        for source in sources:
            for sc in source.cards:
                have = sc.card.data.get(by) if by else None
                if have == value or (isinstance(have, list) and value in have):
                    counts[source.rel] = counts.get(source.rel, 0) + 1
        if counts:
            return max(sorted(counts), key=lambda rel: counts[rel])
    return settings.new_default


def add_new_cards(
    plan: PullPlan,
    new_cards: dict[str, list[tuple[Row, list[tuple[str, Any]], str]]],
    by_rel: dict[str, CardFile],
    editors: dict[str, Editor],
    cards_dir: Path,
    cards_shown: str,
) -> list[CardFile]:
    """New rows appended to their files (a file no card has yet is made); the new files."""
    made: list[CardFile] = []
    for rel, rows in sorted(new_cards.items()):
        source = by_rel.get(rel)
        if source is None:
            empty = Located("", "\n", [], [0])
            source = CardFile(cards_dir / rel, f"{cards_shown}/{rel}", rel, b"", "", False, empty)
            by_rel[rel] = source
            made.append(source)
        located = source.locate()
        if located is None:
            plan.findings.append(
                Finding(
                    source.shown,
                    0,
                    0,
                    Severity.ERROR,
                    "sheet-not-expressible",
                    None,
                    "new cards cannot be added: the file cannot be edited in place",
                    cell=rows[0][0].first(),
                )
            )
            continue
        editor = editors.setdefault(source.shown, Editor(located))
        editor.append_cards([fields for _, fields, _ in rows])
        plan.added.setdefault(source.shown, []).extend(dict(fields) for _, fields, _ in rows)
        for row, fields, key in rows:
            name = dict(fields).get("name", key)
            plan.changes.append(
                Change(
                    source.shown,
                    0,
                    1,
                    key,
                    None,
                    "(new)",
                    shown_value(name),
                    row.first(),
                    "add-card",
                )
            )
    return made

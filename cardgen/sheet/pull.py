"""Turn a sheet's tables and a game's card files into a pull plan: each changed cell as one in-place
YAML edit, new rows as new cards, missing rows reported (or pruned), every card file's new bytes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.errors import Severity
from ..load.card import Catalog, slug
from ..load.yamledit import Editor, Unexpressible
from ..model.collation import base_copies, count_field
from ..model.game import GameModel, Role, assign_groups
from .columns import (
    COPIES,
    FIELD,
    FILE,
    ID,
    UNSET,
    Column,
    canon,
    changed,
    field_order,
    field_spec,
    from_cell,
    map_header,
    to_cell,
)
from .grid import Table
from .newrows import add_new_cards, new_row
from .plan import Change, PullPlan, Row, card_finding, finish_plan, shown_value, write_plan
from .settings import SheetSettings
from .source import CardFile, SourceCard
from .synced import judge

__all__ = ["Change", "PullPlan", "plan_pull", "write_plan", "shown_value"]


def plan_pull(
    tables: list[Table],
    sources: list[CardFile],
    model: GameModel,
    settings: SheetSettings,
    cards_dir: Path,
    cards_shown: str,
    prune: bool = False,
    synced: dict[str, dict[str, str]] | None = None,
) -> PullPlan:
    """What pulling these tables into these card files changes; nothing is written here.
    `synced`: what the sheet and the files last agreed on (sheet.synced), so a value changed only
    in a card file since is kept."""
    plan = PullPlan(synced=synced)
    used: list[str] = []
    for source in sources:
        for sc in source.cards:
            used += [k for k in sc.card.data if k not in used]
    by_sheet = {s.sheet: s for s in sources}
    by_rel = {s.rel: s for s in sources}
    editors: dict[str, Editor] = {}
    matched: set[int] = set()
    covered: set[str] = set()
    catalog = Catalog(model.id, [sc.card for s in sources for sc in s.cards])
    groups = assign_groups(catalog, model.collation)
    new_cards: dict[str, list[tuple[Row, list[tuple[str, Any]], str]]] = {}
    index = _index(sources, settings.key)
    prepared = []
    for table in tables:
        columns, found = map_header(table, model, used, settings)
        plan.findings += found
        read = {c.index for c in columns if c.kind in (FIELD, ID, FILE, COPIES)}
        plan.ignored |= {
            h.ref.rstrip("0123456789") for i, h in enumerate(table.header) if i not in read
        }
        home = by_sheet.get(table.name) if table.name else None
        # the files whose cards the table stands for (a missing row means a removed card only
        # there): its tab's file, else the files its rows come from (a CSV of one tab of a
        # workbook stands for that tab's file alone)
        covered |= {home.rel} if home else set()
        id_col = next((c for c in columns if c.kind == ID), None)
        name_col = next((c for c in columns if c.kind == FIELD and c.field == "name"), None)
        rows = [Row(table, cells, columns) for cells in table.rows]
        keys = [_row_key(row, id_col, name_col, settings) for row in rows]
        prepared.append((table, columns, home, id_col, name_col, rows, keys))
    targets = _targets(prepared, index, matched, settings)
    for n, (_table, columns, home, id_col, _name_col, rows, keys) in enumerate(prepared):
        file_col = next((c for c in columns if c.kind == FILE), None)
        # a new card gets its id written when the sheet matches rows by id: the next pull of
        # the same sheet (its id cell still empty) finds it by that id again
        with_id = id_col is not None and settings.key == "id"
        for i, (row, key) in enumerate(zip(rows, keys)):
            plan.rows += 1
            named = row.get(file_col) if file_col else None
            if named is not None and canon(named.value).strip() in by_rel:
                covered.add(canon(named.value).strip())
            target = targets.get((n, i))
            if target is None:
                new_row(
                    plan,
                    row,
                    key,
                    columns,
                    model,
                    settings,
                    home,
                    by_rel,
                    sources,
                    new_cards,
                    with_id,
                )
                continue
            source, sc = target
            covered.add(source.rel)
            since = len(plan.changes)
            _pull_row(plan, row, columns, model, settings, source, sc, editors, groups)
            if with_id and any(c.field == "name" for c in plan.changes[since:]):
                _keep_id(plan, row, id_col, source, sc, editors)
    _missing(plan, sources, covered, matched, prune, editors)
    made = add_new_cards(plan, new_cards, by_rel, editors, cards_dir, cards_shown)
    finish_plan(plan, sources + made, editors)
    return plan


def _row_key(row: Row, id_col: Column | None, name_col: Column | None, s: SheetSettings) -> str:
    cell = row.get(id_col) if id_col else None
    if cell is not None and cell.value is not None and canon(cell.value).strip():
        return canon(cell.value).strip()
    if id_col is None and name_col is not None:
        name = row.get(name_col)
        return slug(canon(name.value)) if name is not None and name.value is not None else ""
    return ""


def _targets(
    prepared: list[Any],
    index: dict[str, list[tuple[CardFile, SourceCard]]],
    matched: set[int],
    settings: SheetSettings,
) -> dict[tuple[int, int], tuple[CardFile, SourceCard]]:
    """The card each row stands for: rows with a key first, then (matching rows by id) a row
    whose id cell is empty by its name's slug, the id a card without `id:` has and the one a
    pull writes into the card it adds."""
    out: dict[tuple[int, int], tuple[CardFile, SourceCard]] = {}
    for n, (_t, _c, home, _id, _name, _rows, keys) in enumerate(prepared):
        for i, key in enumerate(keys):
            target = _match(index.get(key, []), home, matched) if key else None
            if target is not None:
                matched.add(id(target[1]))
                out[(n, i)] = target
    if settings.key != "id":
        return out
    for n, (_t, _c, home, id_col, name_col, rows, keys) in enumerate(prepared):
        if id_col is None or name_col is None:
            continue
        for i, (row, key) in enumerate(zip(rows, keys)):
            name = row.get(name_col)
            if key or name is None or name.value is None:
                continue
            target = _match(index.get(slug(canon(name.value)), []), home, matched)
            if target is not None:
                matched.add(id(target[1]))
                out[(n, i)] = target
    return out


def _keep_id(
    plan: PullPlan,
    row: Row,
    id_col: Column | None,
    source: CardFile,
    sc: SourceCard,
    editors: dict[str, Editor],
) -> None:
    """A card without `id:` renamed from the sheet: its id (its old name's slug) written into it,
    so that the row still matches it on the next pull."""
    card = sc.card
    if "id" in card.data or sc.node is None or source.located is None:
        return
    cell = row.get(id_col) if id_col else None
    ref = cell.ref if cell is not None else row.first()
    editor = editors.setdefault(source.shown, Editor(source.located))
    try:
        line, col = editor.add_first(sc.node, "id", card.id)
    except Unexpressible:
        return
    plan.intend(source.shown, sc.index, "id", card.id)
    plan.changes.append(
        Change(source.shown, line, col, card.id, "id", "(unset)", card.id, ref, "add")
    )


def _index(sources: list[CardFile], key: str) -> dict[str, list[tuple[CardFile, SourceCard]]]:
    """Cards by what the key column holds (their id, or a declared key field), in file order."""
    out: dict[str, list[tuple[CardFile, SourceCard]]] = {}
    for source in sources:
        if not source.readable:
            continue
        for sc in source.cards:
            have = sc.card.id if key == "id" else canon(to_cell(sc.card.data.get(key), ", ")[0])
            if have:
                out.setdefault(have, []).append((source, sc))
    return out


def _match(
    found: list[tuple[CardFile, SourceCard]], home: CardFile | None, matched: set[int]
) -> tuple[CardFile, SourceCard] | None:
    """The first card with this key not matched yet: in the table's own file first."""
    free = [(source, sc) for source, sc in found if id(sc) not in matched]
    mine = [pair for pair in free if pair[0] is home]
    chosen = mine or free
    return chosen[0] if chosen else None


def _pull_row(
    plan: PullPlan,
    row: Row,
    columns: list[Column],
    model: GameModel,
    settings: SheetSettings,
    source: CardFile,
    sc: SourceCard,
    editors: dict[str, Editor],
    groups: dict[int, Any],
) -> None:
    card = sc.card
    cells = plan.cells.setdefault(card.id, {"": row.first()})
    order = field_order(model)
    for column in columns:
        cell = row.get(column)
        value = cell.value if cell is not None else None
        ref = cell.ref if cell is not None else row.first()
        if column.kind == COPIES:
            copies, _ = base_copies(model, card, groups.get(card.order))
            if canon(value) and canon(value) != str(copies):
                per = count_field(model, Role.PER_PLAYER)
                besides = f" (besides the '{per}' column's copies per player)" if per else ""
                plan.findings.append(
                    card_finding(
                        card,
                        Severity.WARNING,
                        "sheet-copies-differ",
                        f"the sheet says {canon(value)} copies; the collation prints "
                        f"{copies}{besides}",
                        ref,
                        "copies come from the model's collation: change it there, or give the "
                        "model a whole-number field with `role: copies` (its column is then the "
                        "copies, pulled like any other)",
                    )
                )
            continue
        if column.kind != FIELD or column.field is None:
            continue
        name = column.field
        cells[name] = ref
        existing = card.data.get(name)
        if not judge(plan, card, name, value, existing, ref, settings.separator):
            continue  # the card file's newer value stands, or both changed
        new = from_cell(value, field_spec(model, name), model, settings.separator, existing)
        if not changed(value, existing, new, settings.separator):
            continue
        located = source.locate()
        node = sc.node
        try:
            if located is None or node is None:
                raise Unexpressible("its file cannot be edited in place")
            if new is UNSET:
                if name not in node.fields:
                    raise Unexpressible("the value comes from a merge ('<<')")
                editor = editors.setdefault(source.shown, Editor(located))
                line, col = editor.remove(node, name)
                action, shown_new = "unset", "(unset)"
            elif name in node.fields:
                editor = editors.setdefault(source.shown, Editor(located))
                line, col = editor.replace(node, name, new)
                action, shown_new = "set", shown_value(new)
            else:
                if node.merged:
                    raise Unexpressible("the card merges values with '<<'")
                before = (
                    [k for k in order[: order.index(name)] if k in node.fields]
                    if name in order
                    else []
                )
                editor = editors.setdefault(source.shown, Editor(located))
                line, col = editor.add(node, name, new, before[-1] if before else None)
                action, shown_new = "add", shown_value(new)
        except Unexpressible as exc:
            plan.findings.append(
                card_finding(
                    card,
                    Severity.ERROR,
                    "sheet-not-expressible",
                    f"'{name}' cannot be changed from the sheet: {exc}",
                    ref,
                    "edit this value in the YAML file",
                )
            )
            continue
        plan.intend(source.shown, sc.index, name, new)
        plan.changes.append(
            Change(
                source.shown,
                line,
                col,
                card.id,
                name,
                shown_value(existing),
                shown_new,
                ref,
                action,
            )
        )


def _missing(
    plan: PullPlan,
    sources: list[CardFile],
    covered: set[str],
    matched: set[int],
    prune: bool,
    editors: dict[str, Editor],
) -> None:
    for source in sources:
        if source.rel not in covered or not source.readable:
            continue
        cards = source.cards
        for sc in cards:
            if id(sc) in matched:
                continue
            if not prune:
                plan.findings.append(
                    card_finding(
                        sc.card,
                        Severity.INFO,
                        "sheet-card-missing",
                        f"'{sc.card.name or sc.card.id}' has no row in the sheet; it is kept "
                        "('--prune' removes it)",
                        None,
                        None,
                    )
                )
                continue
            located = source.locate()
            if located is None or sc.node is None:
                plan.findings.append(
                    card_finding(
                        sc.card,
                        Severity.ERROR,
                        "sheet-not-expressible",
                        "this card cannot be removed: its file cannot be edited in place",
                        None,
                        "remove it in the YAML file",
                    )
                )
                continue
            nodes = located.cards
            at = next(i for i, node in enumerate(nodes) if node is sc.node)
            following = next((c for c in nodes[at + 1 :] if c is not None), None)
            editor = editors.setdefault(source.shown, Editor(located))
            line, col = editor.remove_card(sc.node, following)
            plan.removed.setdefault(source.shown, set()).add(sc.index)
            plan.changes.append(
                Change(
                    source.shown,
                    line,
                    col,
                    sc.card.id,
                    None,
                    sc.card.name or sc.card.id,
                    "(removed)",
                    None,
                    "remove-card",
                )
            )

"""Turn planned card-file edits into what a pull reports and writes: each change as
`file:line:col old → new` (and JSON), each edited file's new bytes checked to load, written
atomically only when no file changed meanwhile."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.errors import Finding, Severity
from ..core.output import write_atomic
from ..load.card import Card
from ..load.yamledit import CardNode, Editor, inline, locate
from ..load.yamlio import parse_yaml
from .columns import UNSET, Column, same
from .grid import Cell, Table
from .source import CardFile, reread


@dataclass
class Change:
    """One edit of a card file, as printed: `file:line:col old → new`."""

    file: str
    line: int
    column: int
    card: str
    field: str | None  # None: a whole card added or removed
    old: str
    new: str
    cell: str | None
    action: str  # 'set', 'unset', 'add', 'add-card', 'remove-card'

    def format(self) -> str:
        what = f"{self.field}: " if self.field else ""
        where = f"  [{self.cell}]" if self.cell else ""
        return f"{self.file}:{self.line}:{self.column} {what}{self.old} → {self.new}{where}"

    def as_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "card": self.card,
            "field": self.field,
            "old": self.old,
            "new": self.new,
            "cell": self.cell,
            "action": self.action,
        }


HEADER_CODES = ("sheet-no-header", "sheet-merged-header", "sheet-title-row")


@dataclass
class PullPlan:
    changes: list[Change] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    writes: dict[str, tuple[CardFile, bytes]] = field(default_factory=dict)  # shown -> new bytes
    cells: dict[str, dict[str, str]] = field(default_factory=dict)  # card id -> field -> cell
    rows: int = 0
    ignored: set[str] = field(default_factory=set)  # columns not read ('c.xlsx:cards!I')
    # what the edits must give, checked on the edited text before anything is written: per file,
    # card index -> field -> value (UNSET: removed); cards removed; cards added
    intents: dict[str, dict[int, dict[str, Any]]] = field(default_factory=dict)
    removed: dict[str, set[int]] = field(default_factory=dict)
    added: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    new_ids: list[str] = field(default_factory=list)  # ids written into new cards, not in the sheet
    # what the sheet and the card files last agreed on (sheet.synced; None: no record of the
    # sheet), and what they agree on after this pull: card id -> field -> the cell's text
    synced: dict[str, dict[str, str]] | None = None
    agreed: dict[str, dict[str, str]] = field(default_factory=dict)

    def intend(self, file: str, index: int, name: str, value: Any) -> None:
        self.intents.setdefault(file, {}).setdefault(index, {})[name] = value

    def read(self, found: list[Finding]) -> list[Finding]:
        """The reader's findings, less those about cells of columns a pull does not read (a notes
        column's formula without a saved value stops nothing); what the header itself lacks is
        kept."""
        return [
            f
            for f in found
            if f.code in HEADER_CODES
            or not (f.cell and f.cell.rstrip("0123456789") in self.ignored)
        ]

    @property
    def failed(self) -> bool:
        return any(f.severity >= Severity.ERROR for f in self.findings)


def shown_value(value: Any) -> str:
    if value is None:
        return "(unset)"
    if isinstance(value, list):
        return "[" + ", ".join(inline(v, "", in_flow=True) for v in value) + "]"
    return inline(value, "")


class Row:
    def __init__(self, table: Table, cells: list[Cell], columns: list[Column]) -> None:
        self.table, self.cells, self.columns = table, cells, columns

    def get(self, column: Column) -> Cell | None:
        return self.cells[column.index] if column.index < len(self.cells) else None

    def first(self) -> str:
        return self.cells[0].ref if self.cells else self.table.header[0].ref


def finish_plan(plan: PullPlan, sources: list[CardFile], editors: dict[str, Editor]) -> None:
    """Every edited file's new bytes, checked: it must load as a list of cards, or nothing is
    written. New cards get the line they land on."""
    by_shown = {s.shown: s for s in sources}
    for shown, editor in editors.items():
        text = editor.result()
        source = by_shown[shown]
        if text == source.text:
            continue
        doc = parse_yaml(text, shown)
        located = locate(text)
        why = "; ".join(f.message for f in doc.findings)[:120]
        if not why and (located is None or not _as_planned(plan, source, doc.data)):
            why = "its values would not be the ones planned"
        if why:
            plan.findings.append(
                Finding(
                    shown,
                    0,
                    0,
                    Severity.ERROR,
                    "sheet-edit-failed",
                    None,
                    f"the edited file would not load as planned, so nothing was written ({why}); "
                    "this is a cardgen bug",
                    "edit these cards in the YAML file",
                )
            )
            continue
        assert located is not None
        added = [c for c in plan.changes if c.file == shown and c.action == "add-card"]
        cards = [c for c in located.cards if c is not None]
        tail = cards[len(cards) - len(added) :]
        for change, node in zip(added, tail):
            change.line, change.column = node.line, located.item_indent + 1
        _moved(plan, source, cards[: len(cards) - len(added)])
        plan.writes[shown] = (source, (b"\xef\xbb\xbf" if source.bom else b"") + text.encode())


def _moved(plan: PullPlan, source: CardFile, nodes: list[CardNode]) -> None:
    """Each change to a kept card at the place it has in the edited file (a field added above
    pushes the rest down): a value set or a field added where it now stands, a field removed at
    its card."""
    removed = plan.removed.get(source.shown, set())
    kept = [sc for sc in sorted(source.cards, key=lambda sc: sc.index) if sc.index not in removed]
    if len(kept) != len(nodes):
        return
    node_of = {sc.card.id: node for sc, node in zip(kept, nodes)}
    for change in plan.changes:
        node = node_of.get(change.card) if change.file == source.shown else None
        if node is None or change.action not in ("set", "add", "unset"):
            continue
        at = node.fields.get(change.field or "")
        if change.action == "set" and at is not None:
            change.line, change.column = at.line, at.column
        elif change.action == "add" and at is not None:
            change.line, change.column = at.key_line, node.key_indent + 1
        elif change.action == "unset":
            change.line, change.column = node.line, node.key_indent + 1


def _as_planned(plan: PullPlan, source: CardFile, data: Any) -> bool:
    """Whether the edited file loads as its old cards with exactly the planned changes."""
    if not isinstance(data, list):
        return False
    intents = plan.intents.get(source.shown, {})
    removed = plan.removed.get(source.shown, set())
    expected: list[dict[str, Any]] = []
    for sc in source.cards:
        if sc.index in removed:
            continue
        values = dict(sc.card.data)
        for name, value in intents.get(sc.index, {}).items():
            if value is UNSET:
                values.pop(name, None)
            else:
                values[name] = value
        expected.append(values)
    expected += plan.added.get(source.shown, [])
    got = [item for item in data if isinstance(item, dict)]
    return len(got) == len(expected) and all(
        sorted(g) == sorted(e) and all(same(g[k], e[k]) for k in e) for g, e in zip(got, expected)
    )


def card_finding(
    card: Card, severity: Severity, code: str, message: str, cell: str | None, hint: str | None
) -> Finding:
    return Finding(
        card.file, card.line, card.column, severity, code, card.id, message, hint, cell=cell
    )


def write_plan(plan: PullPlan) -> list[str]:
    """Write every changed card file atomically, after checking that none changed since it was
    read (then nothing is written: exit 2)."""
    for source, _ in plan.writes.values():
        reread(source)
    for source, payload in plan.writes.values():
        write_atomic(source.path, payload)
    return sorted(plan.writes)

"""Edited cells change exactly their YAML values, in place: comments, quoting, blank lines, line
endings and the byte-order mark kept; new rows become cards in the file the rule picks; missing rows
are reported and removed only with --prune; nothing is written unless the whole pull succeeds."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from cardgen.core.errors import CardgenError
from cardgen.core.workspace import Workspace
from cardgen.jobs.sheet import pull_sheet, push_sheet
from cardgen.sheet.pull import write_plan

from .conftest import ROOT, card_bytes

CARDS = """\
# Clean cards: a comment that must stay.
- name: Ember Guard   # the first card
  cost: RR
  faction: Red
  kind: Unit
  text: |-
    Guard
    When this enters, deal 1 damage to a unit.

  # a comment after the text
  power: 3
  rarity: 'common'
  number: "R1/2"

- name: Firestorm
  cost: RRR
  faction: Red
  kind: Spell
  text: Deal 2 damage to each unit. Pay [R] more to deal 3 instead.
  rarity: rare
  number: R2/2
"""
BLUE = "- name: Tide Caller\r\n  cost: U\r\n  faction: Blue\r\n  kind: Unit\r\n  power: 1\r\n"


@pytest.fixture
def game(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    shutil.copytree(ROOT / "tests/fixtures/ws/rules/clean", root / "rules/clean")
    cards = root / "cards/clean"
    cards.mkdir(parents=True)
    (cards / "cards.yaml").write_text(CARDS, encoding="utf-8")
    (cards / "blue.yaml").write_bytes(b"\xef\xbb\xbf" + BLUE.encode())
    return Workspace(root)


def pushed(ws: Workspace) -> tuple[list[str], dict[str, list[str]]]:
    sheet = ws.root / "cards.csv"
    push_sheet(ws, "clean", sheet)
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8-sig"), newline="")))
    return rows[0], {row[0]: row for row in rows[1:]}


def write(ws: Workspace, header: list[str], rows: list[list[str]], name: str = "e.csv") -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows([header, *rows])
    (ws.root / name).write_text(out.getvalue(), encoding="utf-8", newline="")
    return str(ws.root / name)


def edit(header: list[str], row: list[str], **cells: str) -> list[str]:
    names = [h.removesuffix(" *") for h in header]
    row = list(row)
    for key, value in cells.items():
        row[names.index(key)] = value
    return row


def test_k_cells_change_k_values_in_place(game: Workspace) -> None:
    header, rows = pushed(game)
    rows["ember-guard"] = edit(
        header,
        rows["ember-guard"],
        rarity="rare",
        number="R9/2",
        text="Guard\nWhen this enters, deal 2 damage to a unit.",
    )
    rows["firestorm"] = edit(header, rows["firestorm"], cost="3", text="Line A\nLine B")
    _, plan = pull_sheet(game, "clean", write(game, header, list(rows.values())))
    assert [c.format() for c in plan.changes] == [
        'cards/clean/cards.yaml:6:9 text: "Guard\\nWhen this enters, deal 1 damage to a unit." → '
        '"Guard\\nWhen this enters, deal 2 damage to a unit."  [e.csv:G3]',
        "cards/clean/cards.yaml:12:11 rarity: common → rare  [e.csv:I3]",
        "cards/clean/cards.yaml:13:11 number: R1/2 → R9/2  [e.csv:J3]",
        "cards/clean/cards.yaml:16:9 cost: RRR → '{3}'  [e.csv:D4]",
        "cards/clean/cards.yaml:19:9 text: Deal 2 damage to each unit. Pay [R] more to deal 3 "
        'instead. → "Line A\\nLine B"  [e.csv:G4]',
    ]
    assert (game.root / "cards/clean/cards.yaml").read_text() == CARDS.replace(
        "deal 1 damage", "deal 2 damage"
    ).replace("'common'", "'rare'").replace('"R1/2"', '"R9/2"').replace(
        "cost: RRR", "cost: '{3}'"
    ).replace(
        "  text: Deal 2 damage to each unit. Pay [R] more to deal 3 instead.\n",
        "  text: |-\n    Line A\n    Line B\n",
    )
    assert (game.root / "cards/clean/blue.yaml").read_bytes() == b"\xef\xbb\xbf" + BLUE.encode()


def test_unset_add_and_line_endings(game: Workspace) -> None:
    header, rows = pushed(game)
    rows["tide-caller"] = edit(header, rows["tide-caller"], power="", text="Draw.\nScry 1.")
    rows["ember-guard"] = edit(header, rows["ember-guard"], name="")
    _, plan = pull_sheet(game, "clean", write(game, header, list(rows.values())))
    assert [(c.field, c.action) for c in plan.changes] == [
        ("text", "add"),
        ("power", "unset"),
        ("name", "unset"),
        ("id", "add"),  # the card keeps the id its row holds
    ]
    blue = (game.root / "cards/clean/blue.yaml").read_bytes()
    assert blue == (
        b"\xef\xbb\xbf- name: Tide Caller\r\n  cost: U\r\n  faction: Blue\r\n  kind: Unit\r\n"
        b"  text: |-\r\n    Draw.\r\n    Scry 1.\r\n"
    )
    text = (game.root / "cards/clean/cards.yaml").read_text()
    assert text.startswith(
        "# Clean cards: a comment that must stay.\n- id: ember-guard\n  cost: RR\n  faction: Red\n"
    )


def test_new_rows_go_where_the_rule_says(game: Workspace) -> None:
    header, rows = pushed(game)
    spell = edit(header, [""] * len(header), name="Tidal Wave", kind="Spell", faction="Blue")
    unit = edit(header, [""] * len(header), name="Deep One", kind="Unit", power="4")
    placed = edit(header, [""] * len(header), id="x-1", name="Elsewhere", file="more/new.yaml")
    sheet = write(game, header, [*rows.values(), spell, unit, placed])
    _, plan = pull_sheet(game, "clean", sheet)
    assert [(c.file, c.line, c.card, c.action) for c in plan.changes] == [
        ("cards/clean/blue.yaml", 7, "deep-one", "add-card"),  # Units: a tie, the first file
        ("cards/clean/cards.yaml", 23, "tidal-wave", "add-card"),  # where the Spells are
        ("cards/clean/more/new.yaml", 1, "x-1", "add-card"),  # the row's own file
    ]
    assert (
        (game.root / "cards/clean/cards.yaml")
        .read_text()
        .endswith(
            "  number: R2/2\n\n- id: tidal-wave\n  name: Tidal Wave\n"
            "  faction: Blue\n  kind: Spell\n"
        )
    )
    assert (
        (game.root / "cards/clean/blue.yaml")
        .read_bytes()
        .endswith(
            b"  power: 1\r\n\r\n- id: deep-one\r\n  name: Deep One\r\n"
            b"  kind: Unit\r\n  power: 4\r\n"
        )
    )
    assert (game.root / "cards/clean/more/new.yaml").read_text() == "- id: x-1\n  name: Elsewhere\n"


def test_pulling_the_same_sheet_twice_adds_a_new_row_once(game: Workspace) -> None:
    header, rows = pushed(game)
    spell = edit(header, [""] * len(header), name="Tidal Wave", kind="Spell", faction="Blue")
    sheet = write(game, header, [*rows.values(), spell])
    result, plan = pull_sheet(game, "clean", sheet)
    assert [(c.card, c.action) for c in plan.changes] == [("tidal-wave", "add-card")]
    assert "push again to see the new ids in the sheet" in " ".join(result.notes)
    after = card_bytes(game.root)
    for prune in (False, True):  # the row (its id cell still empty) is the card added
        result, plan = pull_sheet(game, "clean", sheet, prune=prune)
        assert plan.changes == [] and card_bytes(game.root) == after
        assert [f.code for f in result.findings if f.code.startswith(("sheet-", "dup"))] == []
    header, rows = pushed(game)
    assert rows["tidal-wave"][header.index("name *")] == "Tidal Wave"


def test_renaming_a_card_without_an_id_keeps_its_row(game: Workspace) -> None:
    header, rows = pushed(game)
    rows["firestorm"] = edit(header, rows["firestorm"], name="Firestorm Prime")
    sheet = write(game, header, list(rows.values()))
    _, plan = pull_sheet(game, "clean", sheet)
    assert [c.format() for c in plan.changes] == [
        "cards/clean/cards.yaml:16:9 name: Firestorm → Firestorm Prime  [e.csv:C4]",  # below the id
        "cards/clean/cards.yaml:15:3 id: (unset) → firestorm  [e.csv:A4]",
    ]
    text = (game.root / "cards/clean/cards.yaml").read_text()
    assert "\n- id: firestorm\n  name: Firestorm Prime\n  cost: RRR\n" in text
    after = card_bytes(game.root)
    result, plan = pull_sheet(game, "clean", sheet, prune=True)
    assert plan.changes == [] and card_bytes(game.root) == after
    assert [f.code for f in result.findings if f.code.startswith("sheet-")] == []


def test_missing_rows_are_reported_and_pruned_only_when_asked(game: Workspace) -> None:
    header, rows = pushed(game)
    del rows["firestorm"]
    sheet = write(game, header, list(rows.values()))
    before = card_bytes(game.root)
    result, plan = pull_sheet(game, "clean", sheet)
    missing = [f for f in plan.findings if f.code == "sheet-card-missing"]
    assert [(f.file, f.line, f.card) for f in missing] == [
        ("cards/clean/cards.yaml", 15, "firestorm")
    ]
    assert card_bytes(game.root) == before
    _, plan = pull_sheet(game, "clean", sheet, prune=True)
    assert [c.format() for c in plan.changes] == [
        "cards/clean/cards.yaml:15:1 Firestorm → (removed)"
    ]
    assert (game.root / "cards/clean/cards.yaml").read_text() == CARDS.split("- name: Firestorm")[0]


def test_pruning_a_card_between_others(game: Workspace) -> None:
    header, rows = pushed(game)
    (game.root / "cards/clean/cards.yaml").write_text(CARDS + "\n- name: Last\n  kind: Unit\n")
    header, rows = pushed(game)
    del rows["ember-guard"]
    _, plan = pull_sheet(game, "clean", write(game, header, list(rows.values())), prune=True)
    assert [c.card for c in plan.changes] == ["ember-guard"]
    assert (game.root / "cards/clean/cards.yaml").read_text() == (
        "# Clean cards: a comment that must stay.\n"
        + CARDS.split("\n\n- name: Firestorm")[1].join(["- name: Firestorm", ""])
        + "\n- name: Last\n  kind: Unit\n"
    )


def test_dry_run_writes_nothing(game: Workspace) -> None:
    header, rows = pushed(game)
    rows["firestorm"] = edit(header, rows["firestorm"], rarity="common")
    before = card_bytes(game.root)
    result, plan = pull_sheet(game, "clean", write(game, header, list(rows.values())), dry_run=True)
    assert len(plan.changes) == 1 and plan.writes
    assert card_bytes(game.root) == before
    assert "dry run: 1 change(s), nothing written" in result.notes


def test_dry_run_validates_the_planned_cards(game: Workspace) -> None:
    header, rows = pushed(game)
    rows["firestorm"] = edit(header, rows["firestorm"], faction="", kind="Spel")
    sheet = write(game, header, list(rows.values()))
    before = card_bytes(game.root)
    dry, _ = pull_sheet(game, "clean", sheet, dry_run=True)
    assert card_bytes(game.root) == before
    real, _ = pull_sheet(game, "clean", sheet)
    assert [(f.code, f.card, f.line, f.cell) for f in dry.findings if f.card] == [
        ("missing-field", "firestorm", 15, "e.csv:E4"),  # the emptied cell, not the name's
        ("not-in-collation", "firestorm", 15, "e.csv:C4"),
        ("unknown-value", "firestorm", 17, "e.csv:F4"),
    ]
    assert [(f.code, f.cell) for f in dry.findings] == [(f.code, f.cell) for f in real.findings]
    assert dry.failed() and real.failed()


def test_an_empty_sheet_pulls_nothing(game: Workspace) -> None:
    header, _ = pushed(game)
    for rows in ([header], []):
        sheet = write(game, *(rows[:1] or [[]]), []) if rows else write(game, [], [])
        result, plan = pull_sheet(game, "clean", sheet, prune=True)
        assert [(f.code, f.severity) for f in result.findings if f.code.startswith("sheet-")] == [
            ("sheet-empty", 2)
        ]
        assert result.failed() and plan.writes == {}
        assert not any("matches" in n for n in result.notes)


def test_a_concurrent_edit_is_never_lost(game: Workspace) -> None:
    header, rows = pushed(game)
    rows["firestorm"] = edit(header, rows["firestorm"], rarity="common")
    _, plan = pull_sheet(game, "clean", write(game, header, list(rows.values())), dry_run=True)
    path = game.root / "cards/clean/cards.yaml"
    path.write_text(CARDS + "# saved meanwhile\n")
    with pytest.raises(CardgenError, match="changed while the sheet was being pulled"):
        write_plan(plan)
    assert path.read_text() == CARDS + "# saved meanwhile\n"


def test_bad_headers_stop_the_whole_pull(game: Workspace) -> None:
    header, rows = pushed(game)
    header = [
        "ID",
        "file",
        "Card Name",
        "Cots",
        "faction",
        "kind",
        "text",
        "power",
        "rarity",
        "number",
        "art",
        "copies",
        "# notes",
        "Name (DE)",
    ]
    rows["firestorm"] = edit(header, rows["firestorm"], rarity="common") + ["mine", "Feuersturm"]
    before = card_bytes(game.root)
    result, plan = pull_sheet(game, "clean", write(game, header, list(rows.values())))
    assert [(f.code, f.cell, f.hint) for f in plan.findings if f.code.startswith("sheet-")] == [
        ("sheet-unknown-column", "e.csv:D1", "did you mean 'cost'?"),
        ("sheet-edition-column", "e.csv:N1", None),
    ]
    assert result.failed() and card_bytes(game.root) == before
    assert "nothing written: the sheet has errors (the findings name their cells)" in result.notes


def test_values_under_no_header_stop_the_pull(game: Workspace) -> None:
    header, rows = pushed(game)
    sheet = write(game, [*header, ""], [[*row, "stray"] for row in rows.values()])
    before = card_bytes(game.root)
    result, plan = pull_sheet(game, "clean", sheet)
    assert [(f.code, f.cell) for f in plan.findings if f.code.startswith("sheet-")] == [
        ("sheet-no-header", f"e.csv:{chr(65 + len(header))}2")
    ]
    assert result.failed() and card_bytes(game.root) == before


def test_anchored_and_merged_values_are_left_alone(game: Workspace) -> None:
    path = game.root / "cards/clean/cards.yaml"
    path.write_text(
        "- &base\n  name: Base\n  faction: Red\n  kind: Unit\n  power: 1\n"
        "- <<: *base\n  name: Copy\n  cost: R\n"
    )
    header, rows = pushed(game)
    rows["copy"] = edit(header, rows["copy"], power="5")
    result, plan = pull_sheet(game, "clean", write(game, header, list(rows.values())))
    bad = [f for f in plan.findings if f.code == "sheet-not-expressible"]
    assert [(f.card, f.cell) for f in bad] == [("copy", "e.csv:H4")]
    assert "merges values" in bad[0].message
    assert plan.writes == {}


def test_values_only_yaml_can_hold_round_trip_and_refuse_edits(game: Workspace) -> None:
    path = game.root / "cards/clean/cards.yaml"
    path.write_text(
        "- name: Nested\n  faction: Red\n  kind: Unit\n  power: 2\n"
        '  extra: {a: 1, b: [x, y]}\n  tags: ["a, b", c]\n  weird: "bell\\x07"\n'
        "  big: 1.0e+20\n  flag: yes\n"
    )
    before = card_bytes(game.root)
    result = push_sheet(game, "clean", game.root / "n.xlsx")
    assert [(f.code, f.line) for f in result.findings] == [
        ("sheet-not-expressible", 5),
        ("sheet-not-expressible", 6),
        ("sheet-not-expressible", 7),
    ]
    _, plan = pull_sheet(game, "clean", str(game.root / "n.xlsx"))
    assert plan.changes == [] and card_bytes(game.root) == before
    header, rows = pushed(game)
    assert rows["nested"][header.index("extra")] == "{a: 1, b: [x, y]}"
    rows["nested"] = edit(header, rows["nested"], extra="{a: 2}")
    _, plan = pull_sheet(game, "clean", write(game, header, list(rows.values())))
    assert [(f.code, f.cell) for f in plan.findings if f.code.startswith("sheet-not")] == [
        ("sheet-not-expressible", f"e.csv:{chr(65 + header.index('extra'))}3")
    ]
    assert card_bytes(game.root) == before


def test_characters_yaml_would_misread_are_escaped(game: Workspace) -> None:
    header, rows = pushed(game)
    tricky = "Line\u2028separator, DEL\x7f, and \u0085 next line"
    rows["firestorm"] = edit(header, rows["firestorm"], text=tricky, number="yes")
    _, plan = pull_sheet(game, "clean", write(game, header, list(rows.values())))
    assert len(plan.changes) == 2 and plan.writes
    from cardgen.project.loaded import load_game

    card = load_game(game, "clean").catalog.find("firestorm")
    assert card is not None and card.get("text") == tricky and card.get("number") == "yes"
    _, again = pull_sheet(game, "clean", write(game, header, list(rows.values())))
    assert again.changes == []


def test_an_edit_that_would_not_read_back_writes_nothing(
    game: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cardgen.load.yamledit as yamledit

    header, rows = pushed(game)
    rows["firestorm"] = edit(header, rows["firestorm"], rarity="common")
    monkeypatch.setattr(yamledit, "inline", lambda value, style="", in_flow=False: "uncommon")
    before = card_bytes(game.root)
    result, plan = pull_sheet(game, "clean", write(game, header, list(rows.values())))
    assert [f.code for f in plan.findings if f.code == "sheet-edit-failed"] == ["sheet-edit-failed"]
    assert result.failed() and plan.writes == {} and card_bytes(game.root) == before


def test_a_csv_of_one_tab_prunes_only_that_tabs_file(game: Workspace) -> None:
    import openpyxl

    push_sheet(game, "clean", game.root / "c.xlsx")
    page = openpyxl.load_workbook(game.root / "c.xlsx")["cards"]  # the tab of cards.yaml
    rows = [
        [("" if v is None else str(v)) for v in row] for row in page.iter_rows(values_only=True)
    ]
    del rows[2]  # Firestorm
    sheet = write(game, rows[0], rows[1:], "tab.csv")  # Google Sheets: Download → CSV (one tab)
    _, plan = pull_sheet(game, "clean", sheet, prune=True)
    assert [(c.card, c.action) for c in plan.changes] == [("firestorm", "remove-card")]
    assert (game.root / "cards/clean/blue.yaml").read_bytes() == b"\xef\xbb\xbf" + BLUE.encode()


def test_each_change_is_reported_where_it_stands_in_the_written_file(game: Workspace) -> None:
    """A field added to one card pushes the cards below it down: each change is printed at the
    line it has after the write (it was printed at its line before, landing on another card)."""
    header, rows = pushed(game)
    first, second = "ember-guard", "firestorm"  # one above the other in cards.yaml
    rows[first] = edit(header, rows[first], text="Guard\nLine two\nLine three\nLine four")
    rows[second] = edit(header, rows[second], power="5", rarity="common")
    sheet = write(game, header, list(rows.values()))
    _, plan = pull_sheet(game, "clean", sheet)
    lines = (game.root / "cards/clean/cards.yaml").read_text().split("\n")
    assert {(c.card, c.field, c.action) for c in plan.changes} >= {
        (second, "power", "add"),
        (second, "rarity", "set"),
    }
    for c in plan.changes:  # the key on that line; a value set: its value from that column
        at = lines[c.line - 1]
        assert at.lstrip().startswith(f"{c.field}:"), (c.format(), at)
        if c.action == "set" and c.field == "rarity":
            assert at[c.column - 1 :] == "common", (c.format(), at)


def test_a_whole_number_kept_as_text_is_written_as_a_number(game: Workspace) -> None:
    """The sheet shows 3 and the card file keeps '3' (a field declared a whole number after the
    cards were written): the pull writes the number, the only value of the row it changes."""
    cards = game.root / "cards/clean/cards.yaml"
    cards.write_text(CARDS.replace("  power: 3\n", '  power: "3"\n'), encoding="utf-8")
    header, rows = pushed(game)
    _, plan = pull_sheet(game, "clean", write(game, header, list(rows.values())))
    assert [c.format() for c in plan.changes] == [
        "cards/clean/cards.yaml:11:10 power: '3' → 3  [e.csv:H3]"
    ]
    assert cards.read_text() == CARDS

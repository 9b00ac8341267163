"""Every command tells the whole truth: root causes first, consequences grouped under them, a model
error printed and exited by in every command, selections that match nothing said, one count."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.core.errors import Finding, Severity
from cardgen.core.workspace import Workspace
from cardgen.project.check import findings_json, follows, presented, root_first

MODEL = "rules/g/game.yaml"


def finding(file: str, line: int, code: str, about: str | None = None, card: str | None = None):
    return Finding(file, line, 3, Severity.ERROR, code, card, f"{code} here", about=about)


def test_root_causes_come_first_model_then_templates_then_the_rest() -> None:
    card = finding("cards/g/a.yaml", 1, "unknown-value", card="a")
    chapter = finding("rules/g/rulebook/setup.md", 2, "rulebook-unknown-symbol")
    template = finding("templates/g/front.yaml", 9, "template-type")
    model = finding(MODEL, 40, "model-type")
    assert root_first([card, chapter, template, model]) == [model, template, card, chapter]


def test_a_file_that_could_not_be_read_comes_before_what_it_leaves_missing() -> None:
    missing = finding("rules/g/rulebook/setup.md", 2, "rulebook-unknown-card")
    unread = finding("cards/g/b.yaml", 7, "yaml-syntax")
    card = finding("cards/g/a.yaml", 1, "unknown-value", card="a")
    template = finding("templates/g/front.yaml", 9, "template-type")
    model = finding(MODEL, 40, "model-type")
    assert root_first([missing, card, unread, template, model]) == [
        unread,
        model,
        template,
        card,
        missing,
    ]


def test_card_findings_about_a_damaged_part_follow_from_its_error() -> None:
    cause = finding(MODEL, 12, "model-unknown-key", about="keywords")
    other = finding(MODEL, 30, "model-type", about="deck")
    consequences = [
        finding("cards/g/a.yaml", n, "unknown-keyword", about="keywords", card=f"c{n}")
        for n in (1, 5, 9)
    ]
    unrelated = finding("cards/g/a.yaml", 2, "missing-field", about="fields.name", card="x")
    everything = [*consequences, unrelated, other, cause]
    assert follows(everything) == {f: cause for f in consequences}
    assert presented(everything) == [(cause, 3), (other, 0), (unrelated, 0)]
    data = json.loads(findings_json("g", everything))
    assert [f.get("follows_from") for f in data["findings"]] == [
        None,
        None,
        "rules/g/game.yaml:12:3 model-unknown-key",
        None,
        "rules/g/game.yaml:12:3 model-unknown-key",
        "rules/g/game.yaml:12:3 model-unknown-key",
    ]
    assert data["counts"] == {"error": 6, "warning": 0, "info": 0}


def test_a_warning_in_the_model_is_no_root_cause_to_hide_findings_under() -> None:
    warning = Finding(MODEL, 3, 1, Severity.WARNING, "model-x", None, "m", about="keywords")
    card = finding("cards/g/a.yaml", 1, "unknown-keyword", about="keywords", card="a")
    assert follows([warning, card]) == {}


def run(root: Path, *args: str):
    return CliRunner().invoke(main, ["--root", str(root), *args], catch_exceptions=False)


def test_validate_prints_the_model_error_before_the_cards(scratch_ws: Workspace) -> None:
    model = scratch_ws.root / "rules" / "clean" / "game.yaml"
    text = model.read_text()
    model.write_text(
        text.replace("  power: {type: integer, min: 0, max: 9", "  power: {type: intgr")
    )
    cards = scratch_ws.root / "cards" / "clean" / "cards.yaml"
    cards.write_text(cards.read_text().replace("faction: Blue", "faction: Bleu"))
    out = run(scratch_ws.root, "validate", "clean")
    assert out.exit_code == 1
    lines = out.output.splitlines()
    first_card = next(i for i, line in enumerate(lines) if line.startswith("cards/"))
    assert lines[0].startswith("rules/clean/game.yaml:") and "error[" in lines[0]
    assert all(not line.startswith("cards/") for line in lines[:first_card])


def test_a_card_file_with_a_syntax_slip_is_listed_first(scratch_ws: Workspace) -> None:
    """validate lists it before the findings it causes; a print run, above what it wrote (the sheets
    lack the file's cards)."""
    cards = scratch_ws.root / "cards" / "clean" / "cards.yaml"
    lines = cards.read_text().splitlines(keepends=True)
    slip = next(i for i, line in enumerate(lines) if line.startswith("  cost:"))
    lines[slip] = " " + lines[slip]  # one space too many: the mapping no longer parses
    cards.write_text("".join(lines))
    out = run(scratch_ws.root, "validate", "clean")
    assert out.exit_code == 1
    first = out.output.splitlines()[0]
    assert first.startswith("cards/clean/cards.yaml:") and "error[yaml-syntax]" in first
    out = run(scratch_ws.root, "sheets", "clean")
    assert out.exit_code == 1
    first = out.output.splitlines()[0]
    assert first.startswith("cards/clean/cards.yaml:") and "error[yaml-syntax]" in first


def test_only_naming_no_field_is_a_usage_error_with_did_you_mean(scratch_ws: Workspace) -> None:
    out = run(scratch_ws.root, "sheets", "clean", "--only", "card.nam == 'x'")
    assert out.exit_code == 2
    assert "has no field 'nam'" in out.output and "did you mean 'name'?" in out.output
    out = run(scratch_ws.root, "sheets", "clean", "--only", "kind == 'Unit'")
    assert out.exit_code == 2 and "names 'kind' alone: write card.kind" in out.output
    out = run(scratch_ws.root, "sheets", "clean", "--only", "card['rarty'] == 'rare'")
    assert out.exit_code == 2 and "did you mean 'rarity'?" in out.output


def test_a_selection_matching_nothing_is_a_warning_not_silence(scratch_ws: Workspace) -> None:
    out = run(scratch_ws.root, "sheets", "clean", "--only", "card.name == 'Nobody'")
    assert out.exit_code == 0
    assert (
        "warning[only-matches-nothing] --only 'card.name == 'Nobody'' matches none of the 3 "
        "printable cards: nothing is made" in out.output
    )
    assert not (scratch_ws.root / "output" / "clean" / "sheets.pdf").exists()


def test_draft_out_writes_only_to_the_folder(scratch_ws: Workspace, tmp_path: Path) -> None:
    out = run(
        scratch_ws.root,
        "draft",
        "clean",
        "--players",
        "2",
        "--seed",
        "3",
        "--out",
        str(tmp_path / "night"),
    )
    assert out.exit_code == 0, out.output
    written = json.loads((tmp_path / "night" / "draft-3.json").read_text())
    assert written and "{" not in out.output and "draft-3.json" in out.output


def one_model_error(ws: Workspace) -> str:
    """A copy of the clean game whose model has one error; the line it is on."""
    model = ws.root / "rules" / "clean" / "game.yaml"
    text = model.read_text()
    model.write_text(text.replace("  packs_per_player: 2", "  packs_per_player: two"))
    line = text.splitlines().index("  packs_per_player: 2") + 1
    return f"rules/clean/game.yaml:{line}:3: error["


def test_show_and_deck_check_print_the_model_error_and_exit_1(scratch_ws: Workspace) -> None:
    where = one_model_error(scratch_ws)
    shown = run(scratch_ws.root, "show", "clean", "Ember Guard")
    assert shown.exit_code == 1 and shown.output.startswith(where)
    deck = scratch_ws.root / "deck.txt"
    deck.write_text("2 Ember Guard\n1 Tide Caller\n")
    checked = run(scratch_ws.root, "deck", "check", "clean", str(deck))
    assert checked.exit_code == 1 and where in checked.output
    assert re.search(r"; the model has \d+ errors? \(above\): the verdict is", checked.output)


def test_one_count_designs_copies_faces(scratch_ws: Workspace) -> None:
    out = run(scratch_ws.root, "validate", "clean")
    assert out.output.splitlines()[-1] == "clean: 3 designs in 1 file: 0 errors, 0 warnings, 0 info"
    out = run(scratch_ws.root, "sheets", "clean")
    assert out.exit_code == 0 and "5 copies of 3 designs on 1 sheet" in out.output


def test_exports_count_the_errors_of_the_cards_they_ship(scratch_ws: Workspace) -> None:
    """export --png exits 1 by a card's error, as a print run of those faces does; a deck's
    export counts its own cards' errors, not the rest of the game's."""
    cards = scratch_ws.root / "cards" / "clean" / "cards.yaml"
    cards.write_text(cards.read_text().replace("faction: Blue", "faction: Bleu", 1))
    out = run(scratch_ws.root, "export", "clean", "--png")
    assert out.exit_code == 1, out.output
    assert "and 1 error in the cards it is made from" in out.output
    decks = scratch_ws.root / "decks"
    decks.mkdir(exist_ok=True)
    (decks / "red.txt").write_text("2 Ember Guard\n1 Firestorm\n", encoding="utf-8")
    (decks / "blue.txt").write_text("2 Tide Caller\n", encoding="utf-8")
    out = run(scratch_ws.root, "export", "clean", "--to", "tts", "--deck", str(decks / "red.txt"))
    assert out.exit_code == 0, out.output
    assert "in the cards it is made from" not in out.output
    out = run(scratch_ws.root, "export", "clean", "--to", "tts", "--deck", str(decks / "blue.txt"))
    assert out.exit_code == 1, out.output
    assert "and 1 error in the cards it is made from" in out.output


def test_a_push_of_cards_with_errors_writes_the_sheet_and_exits_1(scratch_ws: Workspace) -> None:
    """As an export does (the designer's trial #4: push exited 0 on a game with 4 errors)."""
    cards = scratch_ws.root / "cards" / "clean" / "cards.yaml"
    cards.write_text(cards.read_text().replace("faction: Blue", "faction: Bleu", 1))
    sheet = scratch_ws.root / "x.csv"
    out = run(scratch_ws.root, "sheet", "push", "clean", "--to", str(sheet))
    assert out.exit_code == 1, out.output
    assert "and 1 error in the cards it is made from" in out.output and sheet.is_file()

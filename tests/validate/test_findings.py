"""The validator against fixture games: the exact findings of the broken game, none for the clean
one."""

from __future__ import annotations

from pathlib import Path

from cardgen.core.errors import Severity
from cardgen.core.workspace import Workspace
from cardgen.load.card import Catalog
from cardgen.project.check import check_game
from cardgen.project.loaded import load_game
from cardgen.validate import CARD_CHECKS, validate

BROKEN = [
    ("cards/broken/bomb.yaml", 1, None, "alias-bomb"),
    ("cards/broken/cards.yaml", 12, "colour-field", "unknown-field"),
    ("cards/broken/cards.yaml", 17, "typo-faction", "not-in-collation"),
    ("cards/broken/cards.yaml", 18, "typo-faction", "unknown-value"),
    ("cards/broken/cards.yaml", 24, "word-power", "wrong-type"),
    ("cards/broken/cards.yaml", 26, "odd-cost", "unknown-cost-symbol"),
    ("cards/broken/cards.yaml", 31, "clause-cost", "cost-clause"),
    ("cards/broken/cards.yaml", 37, "no-power", "requires-field"),
    ("cards/broken/cards.yaml", 42, "powered-spell", "forbids-field"),
    ("cards/broken/cards.yaml", 46, "flier", "undefined-keyword"),
    ("cards/broken/cards.yaml", 48, "ember-guard", "duplicate-id"),
    ("cards/broken/cards.yaml", 56, "bad-number", "number-malformed"),
    ("cards/broken/cards.yaml", 61, "same-number", "number-duplicate"),
    ("cards/broken/cards.yaml", 68, "old-word", "value-alias"),
    ("cards/broken/cards.yaml", 73, "symbol-soup", "symbol-case"),
    ("cards/broken/cards.yaml", 73, "symbol-soup", "unknown-cost-symbol"),
    ("cards/broken/cards.yaml", 77, "too-strong", "out-of-range"),
    ("cards/broken/cards.yaml", 78, "cards-17", "missing-field"),
    ("cards/broken/cards.yaml", 85, "misnumbered", "number-over-total"),
    ("cards/broken/cards.yaml", 85, "misnumbered", "number-total"),
    ("cards/broken/cards.yaml", 90, "off-prefix", "number-over-total"),
    ("cards/broken/cards.yaml", 90, "off-prefix", "number-prefix-mismatch"),
    ("cards/broken/cards.yaml", 91, None, "card-not-a-mapping"),
    ("cards/broken/dupkey.yaml", 5, None, "duplicate-key"),
    ("cards/broken/empty.yaml", 1, None, "empty-file"),
    ("cards/broken/latin1.yaml", 1, None, "not-utf8"),
    ("cards/broken/mapping.yaml", 1, None, "not-a-list"),
    ("cards/broken/syntax.yaml", 3, None, "yaml-syntax"),
    ("rules/broken/game.yaml", 34, None, "keyword-no-text"),
    ("rules/broken/game.yaml", 35, None, "keyword-unused"),
    ("rules/broken/game.yaml", 37, None, "collation-designs"),
    ("rules/broken/game.yaml", 37, None, "collation-no-rarity"),
    ("rules/broken/game.yaml", 40, None, "collation-designs"),
    ("rules/broken/game.yaml", 40, None, "collation-no-rarity"),
    ("rules/broken/game.yaml", 46, None, "number-over-total"),
    ("rules/broken/game.yaml", 47, None, "number-gaps"),
]


def test_broken_game_exact_findings(fixture_ws: Workspace) -> None:
    result = check_game(fixture_ws, "broken")
    assert [(f.file, f.line, f.card, f.code) for f in result.findings] == BROKEN


def test_broken_game_messages_help(fixture_ws: Workspace) -> None:
    by_code = {f.code: f for f in check_game(fixture_ws, "broken").findings}
    assert by_code["unknown-value"].hint == "did you mean 'Red'?"
    assert by_code["duplicate-id"].message.endswith("cards/broken/cards.yaml:1")
    assert by_code["value-alias"].severity is Severity.WARNING
    assert by_code["cost-clause"].severity is Severity.INFO
    assert by_code["symbol-case"].format() == (
        "cards/broken/cards.yaml:73:3: warning[symbol-case] symbol-soup: "
        "'[u]' in the text is written in lower case; the symbol is 'U'"
    )


def test_clean_game_has_no_findings(fixture_ws: Workspace) -> None:
    assert check_game(fixture_ws, "clean").findings == []


def test_crashing_check_becomes_a_finding(fixture_ws: Workspace, monkeypatch) -> None:
    def explode(card, ctx):
        raise RuntimeError("boom")
        yield  # pragma: no cover

    monkeypatch.setattr("cardgen.validate.CARD_CHECKS", [("explode", explode), *CARD_CHECKS])
    loaded = load_game(fixture_ws, "clean")
    findings = validate(loaded.model, loaded.catalog, fixture_ws.root)
    assert [(f.card, f.code) for f in findings] == [
        ("ember-guard", "check-crashed"),
        ("firestorm", "check-crashed"),
        ("tide-caller", "check-crashed"),
    ]


def test_placeholders_are_not_type_errors(tmp_path: Path, fixture_ws: Workspace) -> None:
    loaded = load_game(fixture_ws, "clean")
    model = loaded.model
    model.placeholders = ["[]"]
    card = loaded.catalog.cards[0]
    card.data["power"] = "[]"
    findings = validate(model, Catalog("clean", [card]), fixture_ws.root)
    codes = [f.code for f in findings if f.card == card.id]
    assert "wrong-type" not in codes and "unfinished-card" in codes

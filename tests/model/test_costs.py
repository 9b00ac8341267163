"""Costs beyond one letter: hybrid symbols ({E/G}), multi-letter symbols ({St}), symbols that must
match the card's factions, and numbering without a total — a fourth game written from the docs
alone."""

from __future__ import annotations

from cardgen.core.workspace import Workspace
from cardgen.jobs.findings import validate_game
from cardgen.model.cost import parse_cost
from cardgen.model.text import RichRules, parse

from ..conftest import TESTS

LANTERN = TESTS / "fixtures" / "lantern"


def test_the_fourth_game_validates_with_exactly_the_expected_finding() -> None:
    result = validate_game(Workspace.find(LANTERN), "lantern")
    assert [(f.file, f.line, f.code, f.card, f.message) for f in result.findings] == [
        (
            "cards/lantern/cards.yaml",
            10,
            "cost-faction",
            "tidecaller",
            "'E' belongs to Embers; the card is Tides",
        )
    ]


def test_hybrid_and_multi_letter_symbols_are_counted_and_drawn() -> None:
    model = validate_game(Workspace.find(LANTERN), "lantern").model
    assert model is not None
    cost = parse_cost("{2}{E/G}{E/G}{St}", model.cost)
    assert cost.problems == [] and cost.total == 5 and cost.sequence == ["2", "E/G", "E/G", "St"]
    assert parse_cost("{E/Q}", model.cost).problems  # a half the game does not have
    mixed = parse_cost("{2}E{E/G}", model.cost)  # braced and bare items mixed, in written order
    assert mixed.problems == [] and mixed.clauses == [] and mixed.sequence == ["2", "E", "E/G"]
    assert parse_cost("{1}Q", model.cost).problems[0][0] == "unknown-cost-symbol"
    assert parse_cost("Mill half", model.cost).clauses == ["Mill half"]
    icons = [
        a.text
        for p in parse("Pay {E/G} or {St} or {e/g}.", RichRules.from_model(model))
        for w in p
        for a in w
        if a.icon
    ]
    assert icons == ["E/G", "St", "E/G"]


def test_deck_rules_as_data_copy_limits_distinct_values_and_named_formats(tmp_path) -> None:
    from cardgen.load.decklist import read_deck
    from cardgen.validate.decks import check_deck, dialect_for

    result = validate_game(Workspace.find(LANTERN), "lantern")
    assert result.findings and all(f.code == "cost-faction" for f in result.findings)
    model = result.model
    assert model is not None

    def codes(text: str, rules: str | None = None) -> list[tuple[int, str]]:
        path = tmp_path / "deck.txt"
        path.write_text(text)
        return [
            (f.line, f.code)
            for f in check_deck(
                read_deck(path, "deck.txt", dialect_for(model)), model, result.catalog, None, rules
            )
            if str(f.severity) == "error"
        ]

    constructed = "3 Ashgrove Warden\n2 Stone Idol\n1 Tidecaller\n"
    assert codes(constructed) == [
        (2, "deck-copies"),
        (2, "deck-distinct"),
    ]  # a Relic twice; a third suit
    assert codes("3 Ashgrove Warden\n3 Ashgrove Warden\n", "constructed") == [(1, "deck-copies")]
    draft = "# rules: draft\n3 Ashgrove Warden\n1 Stone Idol\n"
    assert codes(draft) == [
        (3, "deck-distinct")
    ]  # Embers, Groves and Stones; the draft minimum of 4 is met
    assert codes(draft.replace("1 Stone", "1 Ashgrove Warden\n# 1 Stone")) == []
    import pytest

    from cardgen.core.errors import CardgenError

    with pytest.raises(CardgenError, match="no deck format 'sealed'.*formats: draft, constructed"):
        codes(constructed, "sealed")

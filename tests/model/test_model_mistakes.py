"""Mistakes in game.yaml and in costs that the campaign (issue 26) found silent or misread: a single
text where the placeholders list belongs, a value that requires and forbids one field, costs with a
brace left open or a number run into the symbols, and pack formats whose dropped pack size must say
what is used instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.core.errors import CardgenError
from cardgen.load.card import Catalog
from cardgen.model.cost import parse_cost
from cardgen.model.load import load_model
from cardgen.model.packs import load_format
from cardgen.model.words import CostGrammar, CostSymbol

HEAD = (
    "game: {name: T}\n"
    "fields: {name: {type: text}, power: {type: integer}, kind: {type: enum, vocab: kinds}}\n"
)
KINDS = "vocabularies: {kinds: [Unit]}\n"


def _load(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "game.yaml"
    path.write_text(HEAD + text)
    model, findings = load_model(path, "game.yaml", "t")
    assert model is not None
    return model, [(f.line, f.code, f.message, f.hint) for f in findings]


def test_placeholders_written_as_one_text_is_an_error_read_as_a_list_of_one(
    tmp_path: Path,
) -> None:
    model, found = _load(tmp_path, KINDS + 'placeholders: "[]"\n')
    assert found == [
        (
            4,
            "model-type",
            "placeholders must be a list, not the single value '[]'; it is read as the list ['[]']",
            "write placeholders: ['[]'], or placeholders: [] for none",
        )
    ]
    assert model.placeholders == ["[]"]  # never its characters one by one
    model, found = _load(tmp_path, KINDS + 'placeholders: ["[]", "[TBD]"]\n')
    assert found == [] and model.placeholders == ["[]", "[TBD]"]


def test_a_value_that_requires_and_forbids_one_field_is_the_models_error(tmp_path: Path) -> None:
    model, found = _load(
        tmp_path,
        "vocabularies:\n"
        "  kinds:\n"
        "    - {name: Unit, requires: [power, name], forbids: [power]}\n"
        "    - {name: Spell, forbids: [power]}\n",
    )
    assert found == [
        (
            5,
            "model-exclusive",
            "'Unit' both requires and forbids 'power'; neither rule is checked for it",
            "keep it in requires or in forbids, not both",
        )
    ]
    unit, spell = model.vocabularies["kinds"].terms
    assert (unit.requires, unit.forbids) == (["name"], [])  # the other rule stays
    assert spell.forbids == ["power"]


GRAMMAR = CostGrammar([CostSymbol("R", "Red"), CostSymbol("U", "Blue")])
GENERIC = CostGrammar([CostSymbol("R", "Red"), CostSymbol("U", "Blue")], generic=True)


@pytest.mark.parametrize(
    "raw,problem",
    [
        ("{R}{R", "cost '{R}{R' has a '{' that is never closed, so it is not read (nor drawn)"),
        ("R}", "cost 'R}' has a '}' that no '{' opens, so it is not read (nor drawn)"),
        ("{{R}}", "cost '{{R}}' has braces inside braces, so it is not read (nor drawn)"),
        ("{R}{}", "cost '{R}{}' has empty braces, so it is not read (nor drawn)"),
        ("2U", "generic cost '{2}' (in '2U') is not part of this game's cost grammar"),
        ("3", "generic cost '{3}' is not part of this game's cost grammar"),
    ],
)
def test_a_cost_cut_short_or_with_a_number_is_a_bad_cost_not_a_clause(
    raw: str, problem: str
) -> None:
    cost = parse_cost(raw, GRAMMAR)
    assert cost.problems == [("bad-cost", problem)] and cost.clauses == []


def test_numbers_run_into_symbols_count_where_generic_costs_are_allowed() -> None:
    cost = parse_cost("2U, Discard a card", GENERIC)
    assert (cost.generic, cost.sequence, cost.clauses, cost.problems) == (
        2,
        ["2", "U"],
        ["Discard a card"],
        [],
    )
    assert parse_cost("10", GENERIC).generic == 10


def test_a_clause_may_name_symbols_in_closed_braces() -> None:
    cost = parse_cost("RR, Pay {R} or discard", GRAMMAR)
    assert cost.clauses == ["Pay {R} or discard"] and cost.problems == []


def _format_messages(tmp_path: Path, packs: str, draft: str = "") -> list[tuple[int, str]]:
    _, found = _load(tmp_path, KINDS + draft + "packs:\n" + packs)
    return [(line, message) for line, _, message, _ in found]


def test_a_dropped_pack_size_says_what_the_format_uses(tmp_path: Path) -> None:
    exhaust = "  pod: {mode: exhaust, pack_size: two, packs_per_player: many}\n"
    assert _format_messages(tmp_path, exhaust) == [
        (
            5,
            "packs.pod.pack_size must be a whole number, not 'two'; the format then has no pack "
            "size (draft.pack_size is not set either), so it cannot be dealt",
        ),
        (
            5,
            "packs.pod.packs_per_player must be a whole number, not 'many'; the default, 3, is "
            "used",
        ),
    ]
    draft = "draft: {pack_size: 15, packs_per_player: 2}\n"
    assert _format_messages(tmp_path, exhaust, draft) == [
        (6, "packs.pod.pack_size must be a whole number, not 'two'; draft.pack_size, 15, is used"),
        (
            6,
            "packs.pod.packs_per_player must be a whole number, not 'many'; "
            "draft.packs_per_player, 2, is used",
        ),
    ]
    slots = (
        "  box: {mode: slots, pack_size: two, sheets: {all: {where: {kind: Unit}}},"
        " slots: [{sheet: all, count: 1}]}\n"
    )
    assert _format_messages(tmp_path, slots, "draft: {packs_per_player: 2}\n") == [
        (6, "packs.box.pack_size must be a whole number, not 'two'; the slots' sum is used")
    ]
    assert _format_messages(tmp_path, slots.replace("two", "3"), draft) == [
        (
            6,
            "the pack_size of pack format 'box' is 3, but the slots of pack format 'box' add up "
            "to 1 card; the format cannot be dealt",
        )
    ]


def test_an_exhaust_format_without_a_pack_size_cannot_be_dealt_and_says_why(
    tmp_path: Path,
) -> None:
    model, _ = _load(tmp_path, KINDS + "packs:\n  pod: {mode: exhaust, pack_size: two}\n")
    with pytest.raises(CardgenError) as raised:
        load_format(model, Catalog("t"), "pod")
    assert raised.value.message == (
        "pack format 'pod' (exhaust) has no pack_size of its own and no usable draft.pack_size, "
        "so it cannot be dealt; give the format a pack_size"
    )


def test_a_colour_with_spaces_around_it_is_read_as_that_colour_everywhere(tmp_path: Path) -> None:
    """One colour rule for the whole model: ' #a33 ' is the colour #a33 in a term's attributes
    and in a cost symbol alike (it was accepted but kept with its spaces in one, refused in the
    other); a colour cut short is one error."""
    model, found = _load(
        tmp_path,
        'vocabularies: {kinds: [{name: Unit, color: " #a33 "}]}\n'
        "cost:\n"
        '  symbols: [{letter: R, name: Red, color: " #c33", text_color: "#fff "},\n'
        '            {letter: U, name: Blue, color: "#33"}]\n',
    )
    assert model.vocabularies["kinds"].terms[0].attrs["color"] == "#a33"
    red, blue = model.cost.symbols
    assert (red.color, red.text_color) == ("#c33", "#fff")
    assert blue.color == "#444444"
    assert [(line, code) for line, code, _, _ in found if code.startswith("model-")] == [
        (6, "model-colour")
    ]


def test_rules_text_is_read_from_the_fields_marked_text_by_default(scratch_ws) -> None:  # type: ignore[no-untyped-def]
    """Without `text.fields`, the rules text is the field named text and every field with
    role: text (a sheet's 'rules' column, say): keywords and symbols are looked for there."""
    from cardgen.project.loaded import load_game

    path = scratch_ws.model_path("clean")
    path.write_text(
        path.read_text().replace(
            "  text: {type: text, role: text}\n",
            "  text: {type: text}\n  ability: {type: text, role: text}\n",
        )
    )
    assert load_game(scratch_ws, "clean").model.text_fields == ["text", "ability"]

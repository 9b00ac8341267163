"""The model's meaning checked: names that must exist, ordered bounds, declarations that exclude
each other, numbers against their totals; every dropped setting says what is used instead."""

from __future__ import annotations

from pathlib import Path

from cardgen.core.workspace import Workspace
from cardgen.model.load import load_model

from ..conftest import TESTS

MEANING = TESTS / "fixtures" / "meaning" / "game.yaml"


def test_every_mistake_of_meaning_is_one_located_finding_tagged_with_its_part() -> None:
    model, findings = load_model(MEANING, "game.yaml", "meaning")
    assert model is not None
    assert [(f.line, f.code, f.about) for f in findings] == [
        (5, "model-duplicate-value", "vocabularies.rarity"),
        (11, "model-duplicate-value", "fields.grade"),
        (11, "model-role-twice", "fields.grade"),
        (12, "model-bounds-reversed", "fields.power"),
        (13, "model-exclusive", "fields.tier"),
        (15, "model-unknown-field", "numbering"),
        (17, "model-unknown-field", "text"),
        (21, "model-exclusive", "deck"),
        (22, "model-bounds-reversed", "deck"),
        (23, "model-unknown-field", "deck"),
        (28, "model-bounds-reversed", "deck"),
        (30, "draft-pack-size-mismatch", "packs.booster"),
        (32, "draft-passes-mismatch", "draft"),
        (37, "model-exclusive", "packs.booster"),
        (38, "model-unknown-sheet", "packs.booster"),
        (42, "model-exclusive", "packs.pod"),
        (43, "model-unknown-group", "packs.pod"),
        (44, "draft-passes-mismatch", "packs.pod"),
        (46, "model-unknown-value", "cockatrice"),
        (48, "model-unknown-value", "draftmancer"),
    ]
    said = {f.code + " " + f.message + " " + (f.hint or "") for f in findings}
    for expected in (
        "model-unknown-field deck.distinct names field 'suits', which the model does not have",
        "model-bounds-reversed field 'power' has min 9 above its max 1",
        "model-bounds-reversed deck asks for at least 40 and at most 30 cards: no deck is legal",
        "model-exclusive pack format 'booster' has both 'slots' and 'variants': the variants are "
        "dealt, 'slots' is ignored",
        "model-exclusive pack format 'pod' has mode: exhaust and 'sheets': exhaust deals the "
        "print run itself, so 'sheets' is ignored",
        "draft-passes-mismatch draft gives 3 pass directions for 2 packs per player",
        "draft-pack-size-mismatch draft.pack_size is 3, but the slots of pack format 'booster' "
        "add up to 2 cards",
        "model-unknown-value cockatrice.rows names 'Spel', which is no kind of this game; no card "
        "is matched by it did you mean 'Spell'?",
        "model-unknown-sheet a slot of pack format 'booster' names sheet 'comon'",
        "model-duplicate-value 'Common' is defined twice in vocabulary 'rarity'",
        "model-role-twice fields 'rarity' and 'grade' both have role: rarity",
    ):
        assert any(s.startswith(expected) or expected in s for s in said), expected
    # the role claimed twice is dropped from the second field, a duplicate value is used once
    assert model.fields["grade"].role is None and model.role_field("rarity") == "rarity"
    assert [t.name for t in model.vocabularies["rarity"].terms][:2] == ["common", "rare"]
    assert model.vocabularies["rarity"].lookup("Common")[0].name == "common"  # type: ignore[union-attr]


def _load(tmp_path: Path, text: str) -> list[tuple[int, str, str]]:
    path = tmp_path / "game.yaml"
    path.write_text("game: {name: T}\nfields: {name: {type: text}, kind: {type: text}}\n" + text)
    model, findings = load_model(path, "game.yaml", "t")
    assert model is not None
    return [(f.line, f.code, f.message) for f in findings]


def test_a_setting_dropped_as_invalid_says_what_is_used_instead(tmp_path: Path) -> None:
    found = _load(
        tmp_path,
        "deck: {min_cards: twenty, main: {max_copies: lots}}\n"
        "draft: {pack_size: fifteen}\n"
        "packs:\n"
        "  draft: {mode: slots, pack_size: fifteen, sheets: {all: {where: {kind: x}}},"
        " slots: [{sheet: all, count: 2}]}\n"
        "cost: {genric: true}\n",
    )
    assert found == [
        (
            3,
            "model-type",
            "deck.min_cards must be a whole number, not 'twenty'; the deck has no minimum",
        ),
        (
            3,
            "model-type",
            "deck.main.max_copies must be a whole number, not 'lots'; the deck has no copy limit",
        ),
        (
            4,
            "model-type",
            "draft.pack_size must be a whole number, not 'fifteen'; each pack format's own "
            "pack_size, or its slots' sum, is used",
        ),
        (
            6,
            "model-type",
            "packs.draft.pack_size must be a whole number, not 'fifteen'; the slots' sum is used",
        ),
        (
            7,
            "model-unknown-key",
            "unknown key 'genric' in cost; 'generic' is not set, so the default, false, is used",
        ),
    ]


def test_no_copy_limit_is_writable_and_formats_override_key_by_key(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(
        "game: {name: T}\nfields: {name: {type: text}}\n"
        "deck:\n"
        "  main: {min: 6, max_copies: 1}\n"
        "  formats:\n"
        "    draft: {from_pool: draft}\n"
        "    sealed: {from_pool: draft, main: {max_copies: none}}\n"
    )
    model, findings = load_model(path, "game.yaml", "t")
    assert model is not None
    assert [(f.line, f.code, f.severity.name) for f in findings] == [
        (6, "deck-format-inherits", "INFO")
    ]
    assert "keeps the top-level max_copies: 1" in findings[0].message
    assert model.deck.with_format("sealed").main.max_copies is None  # no limit
    assert model.deck.with_format("sealed").main.min == 6  # kept from the top level
    assert model.deck.with_format("draft").main.max_copies == 1


def test_a_format_value_dropped_keeps_the_top_level_rule(tmp_path: Path) -> None:
    found = _load(tmp_path, "deck: {main: {min: 6}, formats: {quick: {main: {min: few}}}}\n")
    assert found == [
        (
            3,
            "model-type",
            "deck.formats.quick.main.min must be a whole number, not 'few'; the top-level deck "
            "rule is kept",
        )
    ]


def test_a_characters_counts_add_up_and_name_what_exists(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(
        "game: {name: T}\n"
        "vocabularies: {arch: [{name: Steward, kind: class}, {name: Warden, kind: spec}]}\n"
        "fields: {name: {type: text}, archetype: {type: enum, vocab: arch}}\n"
        "deck:\n"
        "  main: {size: 40}\n"
        "  character:\n"
        "    groups_field: archetype\n"
        "    role_attr: kind\n"
        "    primary: {role: specialisation, cards: 15}\n"
        "    secondary: {role: class, cards: 30}\n"
        "    feats: 4\n"
        "    pips: {requires: needs}\n"
    )
    model, findings = load_model(path, "game.yaml", "t")
    assert [(f.line, f.code) for f in findings] == [
        (9, "model-unknown-value"),
        (10, "model-count-mismatch"),
        (11, "model-count-mismatch"),
        (12, "model-unknown-field"),
    ]
    assert findings[1].message == (
        "deck.character: the primary's 15 and the secondaries' 30 cards make 45, but the main "
        "deck's size is 40: no deck is legal"
    )
    assert findings[2].message.startswith(
        "deck.character.feats is 4, but signature and extras count 3"
    )
    assert findings[0].hint == "kind: class, spec"


def test_a_pack_size_against_the_slots_is_reported_once(scratch_ws: Workspace) -> None:
    """draft.pack_size 3 against the booster's two slots: the model's finding, not a second
    pack-format one from loading the format."""
    from cardgen.project.check import check_game

    model = scratch_ws.model_path("clean")
    model.write_text(model.read_text().replace("  packs_per_player: 2\n", "  pack_size: 3\n"))
    found = [(f.line, f.code, f.about) for f in check_game(scratch_ws, "clean").findings]
    assert found == [
        (48, "draft-pack-size-mismatch", "packs.booster"),
        (49, "draft-passes-mismatch", "draft"),  # two directions for the default 3 packs
    ]


def test_a_prefix_a_group_or_a_message_word_written_twice_or_wrong(tmp_path: Path) -> None:
    found = _load(
        tmp_path,
        "numbering:\n"
        "  prefixes: [{prefix: A, where: {}}, {prefix: A, where: {}}]\n"
        "collation: [{name: All, where: {}}, {name: All, where: {}}]\n"
        "deck:\n"
        "  character:\n"
        "    groups_field: kind\n"
        "    role_attr: role\n"
        "    names: {primary: Hero, secundary: Class}\n",
    )
    assert [(line, code) for line, code, _ in found] == [
        (3, "model-unknown-field"),  # numbering reads 'number' by default: no such field
        (4, "model-duplicate-value"),
        (5, "model-duplicate-value"),
        (10, "model-unknown-key"),
    ]
    assert found[2][2].startswith("collation group 'All' is defined twice (first at line 5)")

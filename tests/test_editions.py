"""Editions (docs/editions.md) in the editions fixture game (tests/fixtures/editions, sample content
written for the tests: English and German): every edition validates with zero findings, and each
mistake of the model, the cards and the templates is one located finding with the exact place."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.core.errors import CardgenError
from cardgen.core.workspace import Workspace
from cardgen.jobs.findings import validate_game
from cardgen.project.editions import with_edition

from .conftest import FIXTURE_WS, TESTS

EDITIONS = TESTS / "fixtures" / "editions"
CARDS = "cards/editions/tide.yaml"


def copy(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(EDITIONS, root)
    return root


def edit(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def found(root: Path, every: bool = True) -> list[tuple[str, int, int, str, str | None, str]]:
    result = validate_game(Workspace.find(root), "editions", every_edition=every)
    return [(f.file, f.line, f.column, f.code, f.card, f.edition or "") for f in result.findings]


def run(root: Path, *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["--root", str(root), *args], catch_exceptions=False)


def test_every_edition_validates_with_zero_findings(tmp_path: Path) -> None:
    root = copy(tmp_path)
    done = run(root, "validate", "editions")
    assert done.exit_code == 0, done.output
    assert done.output.strip() == "editions: 10 designs in 2 files: 0 errors, 0 warnings, 0 info"
    for lang in ("en", "de"):
        done = run(root, "validate", "editions", "--edition", lang)
        assert done.exit_code == 0 and "0 errors, 0 warnings, 0 info" in done.output


def test_a_missing_translation_falls_back_and_is_found_per_edition(tmp_path: Path) -> None:
    root = copy(tmp_path)
    edit(root, CARDS, "  name@de: Hafenwache\n", "")
    edit(root, CARDS, "  text@de: Wache\n", "")
    assert found(root) == [(CARDS, 15, 3, "translation-missing", "harbour-guard", "de")]
    result = validate_game(Workspace.find(root), "editions", every_edition=True)
    (finding,) = result.findings
    assert finding.format() == (
        f"{CARDS}:15:3: warning[translation-missing] harbour-guard [de edition]: no Deutsch "
        "translation of 'name', 'text': the de edition prints them in English (en) (add name@de, "
        "text@de)"
    )
    assert finding.as_dict()["edition"] == "de"
    # the default edition has nothing missing; --edition de finds it alone
    assert found(root, every=False) == []
    de = validate_game(with_edition(Workspace.find(root), "editions", "de"), "editions")
    assert [(f.line, f.code, f.edition) for f in de.findings] == [(15, "translation-missing", "de")]
    # the German card prints the English values
    card = de.catalog.find("harbour-guard")
    assert card is not None and (card.name, card.get("text")) == ("Harbour Guard", "Guard")
    assert card.untranslated == ("name", "text")


def test_a_mistake_the_same_in_every_edition_is_said_once(tmp_path: Path) -> None:
    """A second Ember Warden: its duplicate id is the default's finding, also where the German
    edition sees it (at `name@de`); it is not said again as the German edition's own."""
    root = copy(tmp_path)
    ember = root / "cards" / "editions" / "ember.yaml"
    ember.write_text(
        ember.read_text(encoding="utf-8")
        + "- name: Ember Warden\n  name@de: Glutwächterin\n  faction: Ember\n  kind: Spell\n"
        "  text: Draw.\n  text@de: Ziehe.\n  rarity: common\n",
        encoding="utf-8",
    )
    dups = [f for f in found(root) if f[3] == "duplicate-id"]
    assert [(f[3], f[5]) for f in dups] == [("duplicate-id", "")]


def test_a_keyword_used_only_in_texts_that_fall_back_is_used(tmp_path: Path) -> None:
    """No German text writes Wache any more; Harbour Guard, with no German text, prints its
    English 'Guard' in the German edition, which uses the keyword all the same."""
    root = copy(tmp_path)
    edit(root, "cards/editions/ember.yaml", "    Wache\n    Wenn", "    Wenn")
    edit(root, "cards/editions/ember.yaml", "Einheiten mit Wache", "Einheiten mit Schild")
    edit(root, CARDS, "  text@de: Wache\n", "")  # Harbour Guard prints 'Guard' in German too
    assert "keyword-unused" not in [f[3] for f in found(root)]


def test_missing_severity_follows_the_model(tmp_path: Path) -> None:
    root = copy(tmp_path)
    edit(root, "rules/editions/game.yaml", "  missing: warning\n", "  missing: error\n")
    edit(root, CARDS, "  name@de: Sog\n", "")
    result = validate_game(Workspace.find(root), "editions", every_edition=True)
    assert [(f.code, str(f.severity)) for f in result.findings] == [
        ("translation-missing", "error")
    ]


def test_an_unknown_language_and_an_untranslatable_field_are_located(tmp_path: Path) -> None:
    root = copy(tmp_path)
    edit(root, CARDS, "  text@de: Tarnung\n", "  text@de: Tarnung\n  text@dee: Tarnung\n")
    edit(root, CARDS, "  cost: TTT\n", "  cost: TTT\n  cost@de: TT\n  nmae@de: Welle\n")
    edit(root, CARDS, "  name@de: Sog\n", "  name@de: Sog\n  name@en: Undertow\n")
    result = validate_game(Workspace.find(root), "editions", every_edition=True)
    shown = [(f.line, f.column, f.code, f.card, f.message, f.hint) for f in result.findings]
    assert shown == [
        (
            28,
            3,
            "translation-language",
            "undertow",
            "'name@en' is in the default language, en, whose value is 'name' itself; it is not "
            "used",
            "write it as 'name'",
        ),
        (
            42,
            3,
            "translation-language",
            "mist-runner",
            "'text@dee' is for language 'dee', which the game has no edition in; the value is not "
            "used",
            "did you mean 'de'?",
        ),
        (
            50,
            3,
            "translation-field",
            "great-wave",
            "'cost@de': field 'cost' is not translated (editions.translate: name, text, flavor); "
            "the value is not used",
            "a cost field is the same in every edition: remove it",
        ),
        (
            51,
            3,
            "translation-field",
            "great-wave",
            "'nmae@de': 'nmae' is no field of the model; the value is not used",
            "did you mean 'name'?",
        ),
    ]
    assert {str(f.severity) for f in result.findings} == {"error"}


def test_a_translation_without_its_field_is_a_warning(tmp_path: Path) -> None:
    root = copy(tmp_path)
    edit(root, CARDS, "  text: Return a unit to its owner's hand.\n", "")
    assert found(root) == [(CARDS, 31, 3, "translation-no-base", "undertow", "")]


def test_a_german_text_that_overflows_is_found_at_its_own_line(tmp_path: Path) -> None:
    root = copy(tmp_path)
    long = "Schicke eine Einheit auf die Hand ihres Besitzers zurück und ziehe eine Karte. " * 6
    edit(
        root,
        CARDS,
        "  text@de: Schicke eine Einheit auf die Hand ihres Besitzers zurück.\n",
        f"  text@de: {long.strip()}\n",
    )
    result = validate_game(Workspace.find(root), "editions", every_edition=True)
    (overflow,) = result.findings
    # at text@de's line (32), not the card's (26); the English edition fits
    assert (overflow.file, overflow.line, overflow.column) == (CARDS, 32, 3)
    assert (overflow.code, overflow.card, overflow.edition) == ("text-overflow", "undertow", "de")
    assert overflow.format().startswith(
        f"{CARDS}:32:3: error[text-overflow] undertow [de edition]: text box 'rules' of front "
        "overflows: "
    )
    done = run(root, "validate", "editions", "--format", "json")
    assert done.exit_code == 1
    (item,) = json.loads(done.output)["findings"]
    assert (item["line"], item["edition"]) == (32, "de")


def test_the_models_editions_are_checked_for_meaning(tmp_path: Path) -> None:
    root = copy(tmp_path)
    model = "rules/editions/game.yaml"
    edit(root, model, "  default: en\n", "  default: eng\n")
    edit(
        root,
        model,
        "    de: {name: Deutsch}\n",
        "    de: {name: Deutsch, fallback: at}\n"
        "    at: {name: Österreichisch, fallback: de}\n    fr: {name: Français, fallback: es}\n",
    )
    edit(root, model, "  translate: [name, text, flavor]\n", "  translate: [name, txet, cost]\n")
    edit(
        root,
        model,
        "    reminder@de: Kann",
        "    reminder@fr: Ne peut\n    rules@it: Niente\n    reminder@de: Kann",
    )
    result = validate_game(Workspace.find(root), "editions")
    shown = [(f.line, f.code, f.message, f.hint) for f in result.findings if f.file == model]
    assert shown == [
        (
            10,
            "model-unknown-language",
            "editions.default is 'eng', which is not among editions.languages; it is taken as a "
            "language of its own",
            "did you mean 'en'?",
        ),
        (
            14,
            "model-fallback-loop",
            "the editions' fallbacks go round in a loop (de -> at -> de); at falls back to the "
            "default, eng",
            "let one of them fall back to eng",
        ),
        (
            15,
            "model-unknown-language",
            "editions.languages.fr.fallback is 'es', which is no language of the game; fr falls "
            "back to the default, eng",
            "languages: eng, en, de, at, fr",
        ),
        (
            16,
            "model-unknown-field",
            "editions.translate names field 'txet', which the model does not have; it is not "
            "translated",
            "did you mean 'text'?",
        ),
        (
            16,
            "model-value",
            "editions.translate names 'cost', a field of type cost, which is the same in every "
            "edition; it is not translated",
            "translate text and image fields",
        ),
        (
            46,
            "model-unknown-language",
            "'rules@it' in keywords[1] is for language 'it', which the game does not have "
            "(editions.languages); it is not used",
            "languages: en, de, at, fr",
        ),
    ]
    assert {f.about for f in result.findings if f.file == model} == {"editions", "keywords"}


def test_without_editions_per_language_keys_stay_errors(tmp_path: Path) -> None:
    """A game that declares no editions: `x@y` keys are unknown keys and fields, as ever."""
    root = Path(shutil.copytree(FIXTURE_WS, tmp_path / "ws"))
    edit(root, "rules/clean/game.yaml", "  - {name: Guard, ", "  - {name: Guard, name@de: Wache, ")
    edit(
        root,
        "cards/clean/cards.yaml",
        "- name: Ember Guard\n",
        "- name: Ember Guard\n  name@de: X\n",
    )
    result = validate_game(Workspace.find(root), "clean")
    codes = sorted((f.line, f.code, f.message) for f in result.findings if "@de" in f.message)
    assert codes == [
        (2, "unknown-field", "unknown field 'name@de'"),
        (
            34,
            "model-unknown-key",
            "unknown key 'name@de' in keywords[1]: a value per language needs the game's "
            "editions: section",
        ),
    ]
    done = run(root, "validate", "clean", "--edition", "de")
    assert done.exit_code == 2
    assert "'clean' has no editions (rules/clean/game.yaml declares no editions:)" in done.output


def test_a_template_key_of_an_unknown_language_is_located(tmp_path: Path) -> None:
    root = copy(tmp_path)
    edit(root, "templates/editions/back.yaml", "text@de: HAUPTDECK", "text@deu: HAUPTDECK")
    edit(
        root,
        "templates/editions/front.yaml",
        "  footer@de: Beispielkarte\n",
        "  footer@de: Beispielkarte\n  footer@en: Sample\n",
    )
    result = validate_game(Workspace.find(root), "editions", every_edition=True)
    assert [(f.file, f.line, f.code, f.message, f.hint) for f in result.findings] == [
        (
            "templates/editions/back.yaml",
            10,
            "template-language",
            "'text@deu' is for language 'deu', which the game has no edition in; it is not used",
            "did you mean 'de'?",
        ),
        (
            "templates/editions/front.yaml",
            13,
            "template-language",
            "'footer@en' is in the default language, en, whose value is 'footer' itself; it is "
            "not used",
            "write it as 'footer'",
        ),
    ]


def test_edition_on_the_command_line(tmp_path: Path) -> None:
    root = copy(tmp_path)
    done = run(root, "validate", "editions", "--edition", "dee")
    assert done.exit_code == 2
    assert "'editions' has no edition 'dee' (editions: en, de); did you mean 'de'?" in done.output
    with pytest.raises(CardgenError, match="no edition 'fr'"):
        with_edition(Workspace.find(root), "editions", "fr")
    assert with_edition(Workspace.find(root), "editions", "en").edition == ""
    assert with_edition(Workspace.find(root), "editions", "de").output_dir("editions").name == (
        "editions@de"
    )
    shown = run(root, "show", "editions", "Harbour Guard", "--edition", "de")
    assert shown.exit_code == 0
    assert shown.output.splitlines()[:2] == [
        "Hafenwache  [harbour-guard]  cards/editions/tide.yaml:15:3",
        "  name     Hafenwache    (16:3)",
    ]
    for command in (
        ["sheets"],
        ["export", "--png"],
        ["rulebook"],
        ["gallery"],
        ["report"],
        ["packs"],
        ["schema"],
        ["changes", "HEAD"],
        ["sheet", "push", "--to", "x.csv"],
        ["deck", "check"],
    ):
        helped = run(root, *command, "--help")
        assert "--edition LANG" in helped.output, command


def test_every_edition_selects_the_same_cards(tmp_path: Path) -> None:
    """`where:` reads the cards' own values: the German Kindle (Entfachen) is still the collation's
    `{name: Kindle}`, and an English name finds the German card (a deck list, a chapter)."""
    root = copy(tmp_path)
    edit(
        root,
        "rules/editions/game.yaml",
        "collation:\n",
        "collation:\n  - {name: Kindling, where: {name: Kindle}, copies: 3}\n",
    )
    edit(root, "cards/editions/ember.yaml", "- name: Kindle\n", "- id: k-1\n  name: Kindle\n")
    runs = [
        run(root, "sheets", "editions", *edition, "--no-versions").output
        for edition in ([], ["--edition", "de"])
    ]
    assert all("19 copies of 10 designs" in shown for shown in runs), runs
    de = validate_game(with_edition(Workspace.find(root), "editions", "de"), "editions")
    card = de.catalog.find("Kindle")
    assert card is not None and (card.id, card.name) == ("k-1", "Entfachen")


def test_labels_names_and_the_card_schema_per_language(tmp_path: Path) -> None:
    from cardgen.model.cardschema import card_schema
    from cardgen.project.loaded import load_game

    root = copy(tmp_path)
    edit(
        root,
        "rules/editions/game.yaml",
        "text:\n  keyword_lines: true\n",
        "text:\n  keyword_lines: true\n  labels: [Trigger]\n  labels@de: [Auslöser]\n",
    )
    english = load_game(Workspace.find(root), "editions")
    german = load_game(with_edition(Workspace.find(root), "editions", "de"), "editions")
    assert english.model and german.model
    assert (english.model.text_labels, german.model.text_labels) == (["Trigger"], ["Auslöser"])
    assert german.model.name == "Glut und Flut (Beispiel, für die Tests von cardgen geschrieben)"
    assert [s.name for s in german.model.cost.symbols] == ["Glut", "Flut"]
    assert german.model.components[0].name == "Glutmarker"
    keyword = german.model.keyword("Stealth")  # the German glossary finds the English name too
    assert keyword is not None and (keyword.name, keyword.base) == ("Tarnung", "Stealth")
    properties = card_schema(english.model)["items"]["properties"]
    assert {"name@de", "text@de", "flavor@de"} <= set(properties) and "cost@de" not in properties


def test_a_finding_follows_its_translation_when_the_card_moves(tmp_path: Path) -> None:
    """Faces are kept by content (output/GAME@de/.cache): a card moved down by a line gets its
    face's findings at its new lines, not the ones it was laid out at."""
    root = copy(tmp_path)
    (root / "output").mkdir()  # the face cache is kept where outputs go
    long = "Schicke eine Einheit auf die Hand ihres Besitzers zurück und ziehe eine Karte. " * 6
    edit(
        root,
        CARDS,
        "  text@de: Schicke eine Einheit auf die Hand ihres Besitzers zurück.\n",
        f"  text@de: {long.strip()}\n",
    )
    assert found(root) == [(CARDS, 32, 3, "text-overflow", "undertow", "de")]
    assert (root / "output" / "editions@de" / ".cache").is_dir()
    edit(root, CARDS, "- name: Tide Caller\n", "# a comment\n\n- name: Tide Caller\n")
    assert found(root) == [(CARDS, 34, 3, "text-overflow", "undertow", "de")]

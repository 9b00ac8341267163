"""Templates tell the whole truth: backs of another size, `where` values no card can have, `remove`
of nothing, reversed bounds, an invalid size without findings computed on its stand-in, and the
template each finding depends on (`about`)."""

from __future__ import annotations

import shutil
from pathlib import Path

from cardgen.core.workspace import Workspace
from cardgen.project.loaded import load_game
from cardgen.render.facecards import unmatched_where
from cardgen.render.faces import load_faces

from ..conftest import TESTS

LANTERN = TESTS / "fixtures" / "lantern"
T = "templates/lantern"


def _lantern(tmp_path: Path, edits: dict[str, tuple[str, str]] | None = None) -> Workspace:
    root = tmp_path / "ws"
    shutil.copytree(LANTERN, root)
    for name, (old, new) in (edits or {}).items():
        path = root / name
        text = path.read_text() if path.exists() else ""
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1) if old else new)
    return Workspace.find(root)


def _faces(ws: Workspace):  # type: ignore[no-untyped-def]
    loaded = load_game(ws, "lantern")
    faces, findings = load_faces(ws, "lantern", loaded.model)
    return faces, findings, loaded


def _got(findings) -> list[tuple[str, int, int, str, str]]:  # type: ignore[no-untyped-def]
    return [(f.file, f.line, f.column, str(f.severity), f.code) for f in findings]


def test_the_fixture_game_has_no_template_findings(tmp_path: Path) -> None:
    faces, findings, loaded = _faces(_lantern(tmp_path))
    assert findings == []
    assert unmatched_where(faces, loaded.catalog.cards, loaded.model) == []


def test_a_poker_back_behind_tarot_fronts_is_an_error(tmp_path: Path) -> None:
    rule = "- {where: {}, front: front.yaml, back: back.yaml}"
    ws = _lantern(
        tmp_path,
        {f"{T}/faces.yaml": (rule, "- {where: {}, front: front.yaml, back: spell-back.yaml}")},
    )
    _, findings, _ = _faces(ws)
    assert _got(findings) == [(f"{T}/faces.yaml", 4, 34, "error", "back-size-mismatch")]
    assert findings[0].message == (
        "back 'spell-back' is poker-eu (63 x 88 mm), its front 'front' tarot (69.85 x 120.65 mm): "
        "the back would not cover the front"
    )
    assert findings[0].about == f"{T}/faces.yaml"


def test_a_where_value_no_card_can_have_is_an_error_and_one_no_card_has_a_warning(
    tmp_path: Path,
) -> None:
    rule = "- {where: {type: Spell}, front: spell.yaml, back: spell-back.yaml}"
    ws = _lantern(
        tmp_path,
        {
            f"{T}/faces.yaml": (
                rule,
                "- {where: {type: Spel}, front: spell.yaml, back: spell-back.yaml}\n"
                "- {where: {suits: [Groves]}, front: front.yaml, back: back.yaml}\n"
                "- {where: {suitz: Tides}, front: front.yaml, back: back.yaml}",
            )
        },
    )
    faces, findings, loaded = _faces(ws)
    assert _got(findings) == [
        (f"{T}/faces.yaml", 3, 12, "error", "faces-where-unmatched"),
        (f"{T}/faces.yaml", 5, 12, "error", "template-where"),
    ]
    assert findings[0].message == (
        "'where' selects type 'Spel', which is no value of type: no card can match it"
    )
    assert findings[0].hint == "did you mean 'Spell'?"
    assert {f.about for f in findings} == {f"{T}/faces.yaml"}
    unmatched = unmatched_where(faces, loaded.catalog.cards, loaded.model)
    assert _got(unmatched) == [(f"{T}/faces.yaml", 4, 12, "warning", "faces-where-unmatched")]
    assert unmatched[0].message == "'where' selects suits ['Groves'], which no card has"


def test_remove_of_no_element_and_reversed_bounds(tmp_path: Path) -> None:
    child = (
        "extends: front.yaml\n"
        "remove: [rule, number]\n"
        "elements:\n"
        "  - {id: a, type: text, x: 6mm, y: 6mm, w: 40mm, h: 8mm, text: x, font: body,"
        " size: 8pt, min_size: 10pt}\n"
        "  - {id: b, type: text, x: 6mm, y: 16mm, w: 40mm, h: 8mm, text: x, font: body,"
        " min_size: 12pt}\n"
        "  - {id: c, type: text, x: 6mm, y: 26mm, w: 40mm, h: 8mm, text: x, font: body,"
        " leading: 1.1, min_leading: 1.3}\n"
        "  - {id: d, type: text, x: 6mm, y: 36mm, w: 40mm, h: 8mm, text: x, font: body,"
        " size: 10pt, min_size: 7pt}\n"
    )
    rule = "- {where: {}, front: front.yaml, back: back.yaml}"
    ws = _lantern(
        tmp_path,
        {
            f"{T}/child.yaml": ("", child),
            f"{T}/faces.yaml": (rule, "- {where: {}, front: child.yaml, back: back.yaml}"),
        },
    )
    faces, findings, _ = _faces(ws)
    assert _got(findings) == [
        (f"{T}/child.yaml", 2, 10, "error", "template-unknown-element"),
        (f"{T}/child.yaml", 4, 90, "error", "template-bounds-reversed"),
        (f"{T}/child.yaml", 5, 80, "error", "template-bounds-reversed"),
        (f"{T}/child.yaml", 6, 94, "error", "template-bounds-reversed"),
    ]
    assert findings[0].hint == "did you mean 'rules'?"
    assert [f.message for f in findings[1:]] == [
        "min_size 10pt is above size 8pt, so the text cannot shrink to it",
        "min_size 12pt is above the default 9pt, so the text cannot shrink to it",
        "min_leading 1.3 is above leading 1.1, so the text cannot shrink to it",
    ]
    assert {f.about for f in findings} == {f"{T}/child.yaml"}
    child_template = faces.templates["child.yaml"]
    by_id = {e.id: e for e in child_template.elements}
    assert "number" not in by_id and "rules" in by_id  # 'number' removed, 'rule' names nothing
    assert "min_size" not in by_id["a"].props and by_id["d"].props["min_size"].raw == "7pt"


def test_an_invalid_size_is_one_finding_and_nothing_is_judged_on_its_stand_in(
    tmp_path: Path,
) -> None:
    ws = _lantern(tmp_path, {f"{T}/front.yaml": ("fonts:", "size: taro\nfonts:")})
    faces, findings, _ = _faces(ws)
    assert _got(findings) == [(f"{T}/front.yaml", 1, 1, "error", "template-unit")]
    assert findings[0].hint == "did you mean 'tarot'?"
    assert findings[0].about == f"{T}/front.yaml"
    front = faces.templates["front.yaml"]
    assert front.guessed == ("size",)
    # the model's card size stands in (tarot), and no back is judged against it
    assert [round(v, 2) for v in front.size] == [198.0, 342.0]


def test_an_invalid_size_on_a_poker_stand_in_gives_no_safe_zone_or_off_card_findings(
    tmp_path: Path,
) -> None:
    """What the old stand-in (63 x 88 mm) produced: three safe-zone warnings and an off-card error
    for a tarot template whose size was misspelt."""
    ws = _lantern(
        tmp_path,
        {
            f"{T}/front.yaml": ("fonts:", "size: taro\nfonts:"),
            "rules/lantern/game.yaml": ("size: tarot,", "size: poker-eu,"),
        },
    )
    _, findings, _ = _faces(ws)
    assert _got(findings) == [(f"{T}/front.yaml", 1, 1, "error", "template-unit")]


def test_pictures_in_the_art_field_that_no_template_draws_are_a_warning(tmp_path: Path) -> None:
    """A card gives `art:`, and the front has no image naming it (the starter front of `cardgen
    new` has none): the picture would be neither printed nor checked, so the field says so."""
    from cardgen.render.facecards import undrawn_art

    root = tmp_path / "ws"
    shutil.copytree(TESTS / "fixtures" / "ws", root)
    cards = root / "cards" / "clean" / "cards.yaml"
    text = cards.read_text()
    cards.write_text(text.replace("  number: R1/2\n", "  number: R1/2\n  art: a.png\n"))
    ws = Workspace.find(root)
    loaded = load_game(ws, "clean")
    faces, _ = load_faces(ws, "clean", loaded.model)
    assert undrawn_art(faces, loaded.catalog.cards, loaded.model) == []  # the front draws it
    front = root / "templates" / "clean" / "front.yaml"
    front.write_text("".join(x for x in front.read_text().splitlines(True) if "id: art," not in x))
    faces, _ = load_faces(ws, "clean", loaded.model)
    (found,) = undrawn_art(faces, loaded.catalog.cards, loaded.model)
    assert _got([found]) == [("rules/clean/game.yaml", 26, 3, "warning", "art-not-drawn")]
    assert "no template draws it" in found.message and "card.art" in str(found.hint)

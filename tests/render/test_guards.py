"""The print-quality guards on faces: type below its minimum, text shrunk far, a cost row that
shrinks card by card, art at low resolution, cropped by cover or letterboxed by contain; each with
its exact finding, and a clean case without it."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from cardgen.core.errors import Finding
from cardgen.core.workspace import Workspace
from cardgen.project.studio import open_studio

GUARD_CODES = (
    "type-too-small",
    "text-shrunk",
    "cost-row-shrinks",
    "badge-label-overflow",
    "art-low-resolution",
    "art-cropped",
    "art-letterboxed",
    "cost-clause-not-printed",
)


def _guard_findings(ws: Workspace) -> list[Finding]:
    studio = open_studio(ws, "clean")
    return [f for f in studio.face_findings() if f.code in GUARD_CODES]


def _shown(findings: list[Finding]) -> list[tuple[str, int, str, str, str | None, str]]:
    return [(f.file, f.line, f.severity.name.lower(), f.code, f.card, f.message) for f in findings]


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def _add_art(ws: Workspace, size: tuple[int, int], name: str = "art.png") -> None:
    folder = ws.root / "art"
    folder.mkdir(exist_ok=True)
    Image.new("RGB", size, (120, 90, 60)).save(folder / name)
    _edit(
        ws.cards_dir("clean") / "cards.yaml",
        "  kind: Spell\n",
        f"  kind: Spell\n  art: art/{name}\n",
    )


def test_the_clean_game_gives_no_guard_finding(scratch_ws: Workspace) -> None:
    _add_art(scratch_ws, (700, 330))  # 335 dpi in its 53 x 25 mm box, the box's shape
    assert _guard_findings(scratch_ws) == []


def test_a_label_set_below_the_minimum_is_one_finding_at_the_element(
    scratch_ws: Workspace,
) -> None:
    _edit(scratch_ws.model_path("clean"), "fields:", "guards: {label_size: 12}\nfields:")
    assert _shown(_guard_findings(scratch_ws)) == [
        (
            "templates/clean/front.yaml",
            8,
            "warning",
            "type-too-small",
            None,
            "'name' of front is set at 11pt, below the 12pt minimum for a label: a home "
            "printer fills it in",
        ),
        (
            "templates/clean/front.yaml",
            16,
            "warning",
            "type-too-small",
            None,
            "'faction' of front is set at 7pt, below the 12pt minimum for a label: a home "
            "printer fills it in",
        ),
    ]


def test_rules_text_shrunk_below_the_minimum_is_located_at_the_cards_text(
    scratch_ws: Workspace,
) -> None:
    """At the value the element prints (its `text:` line; in a sheet, that column's cell)."""
    _edit(
        scratch_ws.cards_dir("clean") / "cards.yaml",
        "text: Deal 2 damage to each unit.",
        "text: "
        + "Deal 2 damage to each unit and draw a card. " * 16
        + "Deal 2 damage to each unit.",
    )
    assert _shown(_guard_findings(scratch_ws)) == [
        (
            "cards/clean/cards.yaml",
            15,
            "warning",
            "type-too-small",
            "firestorm",
            "'rules' of front is shrunk from 9pt to 6pt to fit, below the 7pt minimum for "
            "rules text",
        )
    ]


def test_a_shrunk_name_is_noted(scratch_ws: Workspace) -> None:
    _edit(
        scratch_ws.cards_dir("clean") / "cards.yaml",
        "- name: Firestorm",
        "- name: Firestorm of the Unending Crimson Skies Above",
    )
    assert _shown(_guard_findings(scratch_ws)) == [
        (
            "cards/clean/cards.yaml",
            11,
            "info",
            "text-shrunk",
            "firestorm-of-the-unending-crimson-skies-above",
            "'name' of front is shrunk from 11pt to 8.5pt (2.5pt, more than 1.5pt) to fit",
        )
    ]


def test_a_cost_row_too_long_for_its_box_is_a_warning(scratch_ws: Workspace) -> None:
    _edit(scratch_ws.cards_dir("clean") / "cards.yaml", "cost: RRR\n", "cost: RRRR\n")
    assert _shown(_guard_findings(scratch_ws)) == [
        (
            "templates/clean/front.yaml",
            11,
            "warning",
            "cost-row-shrinks",
            None,
            "cost row 'cost' of front is 18.0 mm wide: 4 symbols at 5.0 mm need 21.2 mm, so "
            "they shrink to 4.2 mm on those cards and a cost's symbols differ in size from card "
            "to card",
        )
    ]


def test_a_cost_clause_no_text_prints_is_a_warning_at_the_cards_cost(
    scratch_ws: Workspace,
) -> None:
    """The clean front draws its cost as a row of symbols only: a cost with a free-text clause
    would print without it. Printed in a text element, the warning goes."""
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    _edit(cards, "cost: RR\n", "cost: RR, Discard a card\n")
    assert _shown(_guard_findings(scratch_ws)) == [
        (
            "cards/clean/cards.yaml",
            2,
            "warning",
            "cost-clause-not-printed",
            "ember-guard",
            "the cost's clause 'Discard a card' is printed nowhere on front: its cost row draws "
            "the symbols only",
        )
    ]
    front = scratch_ws.root / "templates" / "clean" / "front.yaml"
    text = front.read_text()
    flavour = text.replace(  # printed as the rules' flavour, in emphasis: printed all the same
        'text: "{{ card.text }}",', 'text: "{{ card.text }}", flavor: "Then *discard a card*.",', 1
    )
    assert flavour != text
    front.write_text(flavour)
    assert _guard_findings(scratch_ws) == []
    front.write_text(text)
    start = text.index('text: "', text.index("id: rules")) + len('text: "')
    front.write_text(
        text[:start] + "{% if cost().clauses %}Cost: {{ cost().clauses|join(', ') }}\n"
        "{% endif %}" + text[start:]
    )
    assert _guard_findings(scratch_ws) == []


def test_a_badge_label_wider_than_its_circle_is_a_warning_at_the_element(
    scratch_ws: Workspace,
) -> None:
    front = scratch_ws.root / "templates" / "clean" / "front.yaml"
    _edit(front, "font: title,\n", "font: title, label: MIGHT, label_size: 6pt,\n")
    assert _shown(_guard_findings(scratch_ws)) == [
        (
            "templates/clean/front.yaml",
            14,
            "warning",
            "badge-label-overflow",
            None,
            "badge 'power' of front: its label 'MIGHT' is 7.4 mm wide at 6pt, but the circle "
            "is 5.2 mm wide at the label's top: the letters touch or cross its edge",
        )
    ]
    (finding,) = _guard_findings(scratch_ws)
    assert finding.hint is not None and "a circle at least" in finding.hint
    # the same label on a rounded box a little wider: room enough; a narrower box: not
    _edit(front, "x: 50mm, y: 76mm, w: 8mm,", "x: 48.5mm, y: 76mm, w: 9.5mm, shape: rect,")
    assert _guard_findings(scratch_ws) == []
    _edit(front, "w: 9.5mm,", "w: 7.5mm,")
    assert [f.code for f in _guard_findings(scratch_ws)] == ["badge-label-overflow"]


def test_low_resolution_art_is_an_error(scratch_ws: Workspace) -> None:
    _add_art(scratch_ws, (90, 42))
    assert _shown(_guard_findings(scratch_ws)) == [
        (
            "cards/clean/cards.yaml",
            15,
            "error",
            "art-low-resolution",
            "firestorm",
            "image 'art/art.png' (90 × 42 px) prints at 43 dpi in its 53.0 × 25.0 mm box, "
            "below 150 dpi: it prints visibly blocky",
        )
    ]


def test_soft_art_is_a_warning(scratch_ws: Workspace) -> None:
    _add_art(scratch_ws, (420, 198))
    assert _shown(_guard_findings(scratch_ws)) == [
        (
            "cards/clean/cards.yaml",
            15,
            "warning",
            "art-low-resolution",
            "firestorm",
            "image 'art/art.png' (420 × 198 px) prints at 201 dpi in its 53.0 × 25.0 mm box, "
            "below 250 dpi: it prints soft",
        )
    ]


def test_art_cut_hard_by_cover_is_a_warning(scratch_ws: Workspace) -> None:
    _add_art(scratch_ws, (1000, 4000))
    assert _shown(_guard_findings(scratch_ws)) == [
        (
            "cards/clean/cards.yaml",
            15,
            "warning",
            "art-cropped",
            "firestorm",
            "image 'art/art.png' (1000 × 4000 px) under fit: cover loses 88 % of its height "
            "in its 53.0 × 25.0 mm box (more than 25 %)",
        )
    ]


def test_art_under_contain_notes_its_letterbox(scratch_ws: Workspace) -> None:
    _add_art(scratch_ws, (1000, 1000))
    _edit(
        scratch_ws.templates_dir("clean") / "front.yaml",
        'src: "{{ card.art }}"',
        'src: "{{ card.art }}", fit: contain',
    )
    assert _shown(_guard_findings(scratch_ws)) == [
        (
            "cards/clean/cards.yaml",
            15,
            "info",
            "art-letterboxed",
            "firestorm",
            "image 'art/art.png' (1000 × 1000 px) under fit: contain leaves 53 % of its "
            "53.0 × 25.0 mm box empty left and right",
        )
    ]


def test_a_finding_on_a_shared_back_stands_at_the_template(scratch_ws) -> None:  # type: ignore[no-untyped-def]
    """The back is no card's: a text shrunk on it is located at its element in back.yaml (the
    designer's trial #4 read '<workspace>: info[text-shrunk] back: …')."""
    from cardgen.project.studio import open_studio

    back = scratch_ws.root / "templates" / "clean" / "back.yaml"
    back.write_text(
        back.read_text()
        + '  - {id: title, type: text, x: 5mm, y: 5mm, w: 20mm, h: 8mm, text: "A LONG TITLE '
        'ON THE BACK", size: 18pt, min_size: 6pt}\n'
    )
    studio = open_studio(scratch_ws, "clean")
    shrunk = [f for f in studio.face_findings() if f.code in ("text-shrunk", "type-too-small")]
    assert shrunk and {(f.file, f.line) for f in shrunk} == {("templates/clean/back.yaml", 3)}

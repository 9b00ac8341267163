"""Double-sided cards and several faces per card (faces.yaml `second:` and `also:`): duplex sheets
read back with pypdf (each card's own back behind it), PNGs per side, and the located findings of a
broken second face."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from PIL import Image
from pypdf import PdfReader

from cardgen.core.workspace import Workspace
from cardgen.jobs.findings import validate_game
from cardgen.printrun.pngs import PngOptions, export_pngs
from cardgen.printrun.printing import SheetOptions, choose_cards, sheet_bytes
from cardgen.project.studio import Studio, open_studio

from ..conftest import TESTS
from ..placed import placed_faces

RUINS = TESTS / "fixtures" / "ruins"  # sample deckbuilder: Ruins with a Restored side, randomizers
RESTORED_GREEN = (0x2F, 0x6B, 0x3A)  # the Restored side's ground
RANDOMIZER_GREY = (0x8A, 0x8A, 0x8A)


def _studio(root: Path = RUINS) -> Studio:
    return open_studio(Workspace.find(root), "ruins")


def _labels(studio: Studio) -> dict[str, str]:
    """Each face key by what it shows: 'Old Mill', 'Old Mill (back)', 'Village (randomizer)',
    'back' (a shared back, by its template)."""
    out = {}
    for card in studio.designs():
        front, back = studio.prepare(card)
        out[front.key] = card.name
        if back is not None:
            out[back.key] = f"{card.name} (back)" if studio.own_back(card) else back.template.name
        for other, other_back in studio.other_faces(card):
            out[other.key] = f"{card.name} ({other.template.name})"
            if other_back is not None:
                out[other_back.key] = other_back.template.name
    return out


def _placed(page, labels: dict[str, str]) -> list[tuple[str, float]]:  # type: ignore[no-untyped-def]
    """The faces a page places, in drawing order, each with the x of its translation."""
    return [(labels[key], matrix[4]) for key, matrix, _ in placed_faces(page) if key in labels]


def test_duplex_sheets_put_each_cards_own_second_face_behind_it() -> None:
    studio = _studio()
    opts = SheetOptions()
    chosen, findings, _ = choose_cards(studio, opts)
    assert findings == []
    run = sheet_bytes(studio, opts, chosen)
    assert run.described.startswith(
        "13 copies of 7 designs and 2 other faces (also:) on 2 sheets of 3 x 3"
    )
    reader = PdfReader(io.BytesIO(run.pdf))
    assert len(reader.pages) == 4  # two sheets, each fronts then backs
    labels = _labels(studio)
    paper_w = float(reader.pages[0].mediabox.width)
    pairs = []
    for sheet in range(2):
        fronts = _placed(reader.pages[2 * sheet], labels)
        backs = _placed(reader.pages[2 * sheet + 1], labels)
        assert len(fronts) == len(backs)
        for (front, x), (back, bx) in zip(fronts, backs):
            pairs.append((front, back))
            # long-edge duplex: the back's slot is the front's mirrored across the page
            assert abs((x + bx) - (paper_w - (63 + 6) * 72 / 25.4)) < 0.01
    assert pairs == [
        *[("Coin", "back")] * 4,
        *[("Shack", "back")] * 2,
        *[("Village", "back")] * 2,
        *[("Smithy", "back")] * 2,
        ("Old Mill", "Old Mill (back)"),
        ("Fallen Tower", "Fallen Tower (back)"),
        ("Sunken Well", "Sunken Well (back)"),
        ("Village (randomizer)", "randomizer-back"),
        ("Smithy (randomizer)", "randomizer-back"),
    ]


def test_a_second_face_sees_the_card_and_a_shared_back_does_not() -> None:
    studio = _studio()
    mill = next(c for c in studio.designs() if c.name == "Old Mill")
    coin = next(c for c in studio.designs() if c.name == "Coin")
    shack = next(c for c in studio.designs() if c.name == "Shack")
    back = studio.prepare(mill)[1]
    assert back is not None
    assert [op.props.get("text") for op in back.ops if op.type == "text"][0] == "Restored Mill"
    assert studio.prepare(coin)[1].key == studio.prepare(shack)[1].key  # type: ignore[union-attr]
    assert studio.own_back(mill) and not studio.own_back(coin)
    assert [b.name for b in studio.faces.backs()] == ["back", "randomizer-back"]


def _colour(path: Path) -> tuple[int, int, int]:
    with Image.open(path) as im:
        return im.convert("RGB").getpixel((im.width // 2, 5))  # type: ignore[return-value]


def test_png_export_writes_each_side_of_each_card(tmp_path: Path) -> None:
    result = export_pngs(_studio(), PngOptions(dpi=60), tmp_path)
    assert result.findings == []
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "back-back.png",
        "back-randomizer-back.png",
        "coin.png",
        "fallen-tower-back.png",
        "fallen-tower.png",
        "old-mill-back.png",
        "old-mill.png",
        "shack.png",
        "smithy-randomizer.png",
        "smithy.png",
        "sunken-well-back.png",
        "sunken-well.png",
        "village-randomizer.png",
        "village.png",
    ]
    assert _colour(tmp_path / "old-mill-back.png") == RESTORED_GREEN
    assert _colour(tmp_path / "village-randomizer.png") == RANDOMIZER_GREY
    # each card's own second face is its own picture
    assert (tmp_path / "old-mill-back.png").read_bytes() != (
        tmp_path / "sunken-well-back.png"
    ).read_bytes()


def test_the_sample_game_validates_with_no_findings_and_counts_each_design_once() -> None:
    check = validate_game(Workspace.find(RUINS), "ruins")
    assert check.findings == []
    assert len(_studio().designs()) == 7


def _broken(tmp_path: Path, template: str, old: str, new: str) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(RUINS, root)
    path = root / "templates" / "ruins" / template
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    return root


def _found(root: Path) -> list[tuple[str, int, int, str, str | None]]:
    check = validate_game(Workspace.find(root), "ruins")
    return [(f.file, f.line, f.column, f.code, f.card) for f in check.findings]


def test_a_second_face_naming_an_unknown_field_is_found_at_its_template(tmp_path: Path) -> None:
    root = _broken(tmp_path, "restored.yaml", "card.back_name }}", "card.back_nmae }}")
    assert _found(root) == [
        ("templates/ruins/restored.yaml", 10, 61, "template-name", None),
    ]
    check = validate_game(Workspace.find(root), "ruins")
    assert "did you mean 'back_name'" in (check.findings[0].hint or "")


def test_a_second_face_that_overflows_is_found_at_the_value_it_prints(tmp_path: Path) -> None:
    root = _broken(
        tmp_path,
        "restored.yaml",
        'h: 30mm, text: "{{ card.back_text }}"',
        'h: 5mm, text: "' + " ".join(["{{ card.back_text }}"] * 6) + '"',
    )
    # the squeezed box also shrinks the other cards' text below the rules-text minimum (guards)
    found = [
        f
        for f in validate_game(Workspace.find(root), "ruins").findings
        if f.code != "type-too-small"
    ]
    assert [(f.file, f.line, f.code, f.card) for f in found] == [
        ("cards/ruins/cards.yaml", 9, "text-overflow", "fallen-tower"),  # its back_text's line
    ]
    assert "text box 'rules' of restored overflows" in found[0].message


def test_a_second_face_of_another_size_is_found_at_the_entrys_second_key(tmp_path: Path) -> None:
    root = _broken(tmp_path, "restored.yaml", "size: 63mm x 88mm", "size: tarot")
    check = validate_game(Workspace.find(root), "ruins")
    assert [(f.file, f.line, f.column, f.code) for f in check.findings] == [
        ("templates/ruins/faces.yaml", 3, 44, "back-size-mismatch"),
    ]
    assert check.findings[0].message.startswith("second face 'restored' is tarot")


def test_an_entry_with_a_back_and_a_second_face_is_an_error(tmp_path: Path) -> None:
    root = _broken(
        tmp_path,
        "faces.yaml",
        "front: front.yaml, second: restored.yaml}",
        "front: front.yaml, back: back.yaml, second: restored.yaml}",
    )
    check = validate_game(Workspace.find(root), "ruins")
    assert [(f.line, f.code) for f in check.findings] == [(3, "template-type")]
    assert "not both" in check.findings[0].message
    mill = next(c for c in _studio(root).designs() if c.name == "Old Mill")
    assert _studio(root).own_back(mill)  # the second face is used


def test_an_also_face_written_as_a_file_takes_the_entrys_shared_back(tmp_path: Path) -> None:
    root = _broken(
        tmp_path,
        "faces.yaml",
        "also: [{front: randomizer.yaml, back: randomizer-back.yaml}]",
        "also: [randomizer.yaml]",
    )
    studio = _studio(root)
    village = next(c for c in studio.designs() if c.name == "Village")
    ((face, back),) = studio.other_faces(village)
    assert face.template.name == "randomizer" and back is not None
    assert back.key == studio.prepare(village)[1].key  # type: ignore[union-attr]
    assert validate_game(Workspace.find(root), "ruins").findings == []


def test_a_miswritten_also_and_an_also_face_naming_an_unknown_field_are_located(
    tmp_path: Path,
) -> None:
    root = _broken(
        tmp_path,
        "faces.yaml",
        "also: [{front: randomizer.yaml, back: randomizer-back.yaml}]",
        "also: randomizer.yaml",
    )
    assert _found(root) == [("templates/ruins/faces.yaml", 7, 3, "template-type", None)]
    root = _broken(tmp_path / "2", "randomizer.yaml", "card.price }}", "card.prize }}")
    assert _found(root) == [("templates/ruins/randomizer.yaml", 10, 63, "template-name", None)]

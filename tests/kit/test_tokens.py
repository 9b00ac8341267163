"""Tokens and counters: declared in game.yaml's components:, drawn from their templates with their
own values, laid out in bands with their cut lines; double-sided tokens' backs behind them,
fold-over tokens' backs beside them; mistakes are located findings."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.core.options import STANDARD
from cardgen.core.workspace import Workspace
from cardgen.kit.pdfread import read_pdf
from cardgen.kit.pnpcheck import fit_problems
from cardgen.kit.tokenpdf import write_tokens
from cardgen.kit.tokenplan import plan_tokens
from cardgen.kit.tokens import TOKEN_BLEED, load_tokens, token_findings
from cardgen.project.studio import open_studio

from ..conftest import FIXTURE_WS, REPO

MM = 72 / 25.4


@pytest.fixture(scope="module")
def ivion():  # type: ignore[no-untyped-def]
    studio = open_studio(Workspace.find(REPO), "ivion")
    return studio, load_tokens(studio)


def overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] - 0.01 and b[0] < a[2] - 0.01 and a[1] < b[3] - 0.01 and b[1] < a[3] - 0.01


@pytest.mark.parametrize("paper", ["universal", "a4", "letter"])
def test_ivions_tokens_on_their_sheets(ivion, paper: str) -> None:  # type: ignore[no-untyped-def]
    studio, found = ivion
    assert [(t.name, t.copies, t.shape, t.fold, t.back is not None) for t in found.tokens] == [
        ("Difficult Terrain Tokens", 16, "hex", False, True),  # as the rulebook lists them
        ("Initiative Tokens", 6, "round", False, False),
        ("Mitigate/Duration Tokens", 12, "square", False, False),
        ("Standees", 12, "square", True, True),
    ]
    assert not found.findings
    pages = plan_tokens(found, STANDARD[paper])
    read = read_pdf(write_tokens(studio, found, pages))
    fronts = [p for p, page in zip(read.pages, _sides(pages)) if page == "front"]
    backs = [p for p, page in zip(read.pages, _sides(pages)) if page == "back"]
    forms = [f for page in fronts for f in page.forms]
    assert len(forms) == 16 + 6 + 12 + 2 * 12  # a fold-over token is its front and its back
    assert len([f for page in backs for f in page.forms]) == 16  # the Terrain tokens' backs
    for page in fronts:  # no token paints over another
        for i, a in enumerate(page.forms):
            for b in page.forms[i + 1 :]:
                assert not overlaps(a.painted, b.painted)
    hexes = [
        ln for page in fronts for ln in page.lines if not ln.dashed and ln.width == 0.5
    ]  # each hexagon's cut line: six solid segments (a circle's is curves, squares have marks)
    assert len(hexes) == 16 * 6
    side = 30 * MM / 3**0.5  # a 30 mm hex (across its flats) has sides of 17.3 mm
    for ln in hexes:
        assert ((ln.x2 - ln.x1) ** 2 + (ln.y2 - ln.y1) ** 2) ** 0.5 == pytest.approx(side, abs=0.01)
    tokens = [(t.size[0], t.size[1], TOKEN_BLEED) for t in found.tokens]
    if paper == "universal":  # on both papers: every cut line and token 5 mm clear of the edge
        assert not fit_problems("tokens", read, tokens + [(34.64 * MM, 30 * MM, TOKEN_BLEED)])
    for page in read.pages:  # on its own paper, every line 5 mm clear of the edge
        w, h = page.size
        for ln in page.lines:
            assert 5 * MM - 0.1 <= min(ln.x1, ln.x2) and max(ln.x1, ln.x2) <= w - 5 * MM + 0.1
            assert 5 * MM - 0.1 <= min(ln.y1, ln.y2) and max(ln.y1, ln.y2) <= h - 5 * MM + 0.1


def test_double_sided_tokens_backs_land_behind_their_fronts(ivion) -> None:  # type: ignore[no-untyped-def]
    studio, found = ivion
    pages = plan_tokens(found, STANDARD["universal"])
    read = read_pdf(write_tokens(studio, found, pages))
    sides = _sides(pages)
    index = sides.index("back")
    front, back = read.pages[index - 1], read.pages[index]
    width = front.size[0]
    terrain = [f for f in front.forms if abs(f.bbox[3] - f.bbox[1] - (30 + 3) * MM) < 0.1]
    assert 0 < len(terrain) == len(back.forms)  # each front's back, and no other
    fronts = sorted((round(width - f.painted[2], 2), round(f.painted[1], 2)) for f in terrain)
    assert fronts == sorted((round(f.painted[0], 2), round(f.painted[1], 2)) for f in back.forms)


def _sides(pages: list) -> list[str]:  # type: ignore[type-arg]
    out = []
    for page in pages:
        out.append("front")
        if page.duplex:
            out.append("back")
    return out


def test_token_mistakes_are_located_findings(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE_WS, root, ignore=shutil.ignore_patterns("fonts"))
    model = root / "rules" / "clean" / "game.yaml"
    model.write_text(
        model.read_text() + "components:\n"
        "  - {name: Coins, count: 10, shape: round, size: 20mm, template: coin.yaml}\n"
        "  - {name: Gems, count: 3, shape: hex, template: gem.yaml}\n"
        "  - {name: Flags, count: 2, size: 20mm}\n"
        "  - {name: Shields, count: 2, shape: square, size: 18mm, back: shield.yaml, fold: true}\n"
    )
    (root / "templates" / "clean" / "gem.yaml").write_text(
        "size: 40mm x 40mm\nelements:\n  - {type: text, x: 2mm, y: 2mm, w: 20mm, h: 6mm, "
        "text: '{{ card.name }} {{ card.colour }}'}\n"
    )
    (root / "templates" / "clean" / "shield.yaml").write_text(
        "size: 18mm x 18mm\nelements:\n  - {type: rect, box: bleed, fill: '#336699'}\n"
    )
    studio = open_studio(Workspace.find(root), "clean")
    shown = {(f.code, f.line, f.severity.name) for f in studio.findings + token_findings(studio)}
    lines = model.read_text().splitlines()
    at = {
        name: 1 + next(i for i, ln in enumerate(lines) if f"name: {name}" in ln)
        for name in ("Coins", "Gems", "Flags")
    }
    assert ("template-missing", at["Coins"], "ERROR") in shown  # coin.yaml does not exist
    assert ("template-name", 3, "ERROR") in shown  # gem.yaml: card.colour is no field
    assert ("token-size", at["Gems"], "WARNING") in shown  # a 40 mm template on a 40 mm hex cell
    assert ("model-missing", at["Flags"], "WARNING") in shown  # a size without a shape
    found = load_tokens(studio)
    assert [t.name for t in found.tokens] == ["Coins", "Gems", "Shields"]  # Flags is no token
    shields = found.tokens[2]
    assert shields.front is None and shields.back is not None  # a plain face, folded over
    pages = plan_tokens(found, STANDARD["a4"])
    read = read_pdf(write_tokens(studio, found, pages))
    assert sum(len(p.forms) for p in read.pages) == 3 + 2  # the gems' face, the shields' backs

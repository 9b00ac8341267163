"""`role: cost` on a whole-number field: a game whose costs are plain numbers gets the cost curve,
the gallery's cost, the exports' cost, and a cost of 0 counts; the role on another type is a
located model error. (tests/fixtures/market is sample content written for the tests.)"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from cardgen.core.workspace import Workspace
from cardgen.export.common import cost_of
from cardgen.gallery import charts
from cardgen.gallery.report import build_report
from cardgen.project.loaded import load_game
from cardgen.project.studio import open_studio

from ..conftest import TESTS

MARKET = TESTS / "fixtures" / "market"
PRICE = "  price: {type: integer, min: 0, max: 9}\n"


def _market(tmp_path: Path, price: str) -> Workspace:
    root = tmp_path / "ws"
    shutil.copytree(MARKET, root)
    model = root / "rules" / "market" / "game.yaml"
    text = model.read_text(encoding="utf-8")
    assert PRICE in text
    model.write_text(text.replace(PRICE, price), encoding="utf-8")
    return Workspace.find(root)


def test_a_whole_number_cost_is_the_cost_everywhere_and_0_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = _market(tmp_path, "  price: {type: integer, min: 0, max: 9, role: cost}\n")
    loaded = load_game(ws, "market")
    assert loaded.findings == [] and loaded.model.cost_field == "price"
    studio = open_studio(ws, "market")
    coin = studio.check.catalog.find("Coin")
    assert coin is not None and cost_of(studio, coin) == "0"
    drawn: list[dict[str, Counter[int]]] = []
    real = charts.cost_curve

    def kept(plt, curve, look):  # type: ignore[no-untyped-def]
        drawn.append(curve)
        return real(plt, curve, look)

    monkeypatch.setattr(charts, "cost_curve", kept)
    page = build_report(studio, [], ws.output_dir("market") / "report")
    assert "cost-curve" in page.read_text(encoding="utf-8")
    # a game without a faction role is not told of factions (the designer's trial #3)
    assert "faction" not in page.read_text(encoding="utf-8").lower()
    (curve,) = drawn
    costs = sum(curve.values(), Counter())
    prices = Counter(card.get("price") for card in studio.designs())
    assert costs == prices and costs[0] >= 1  # Coin's 0 is on the curve


def test_the_cost_role_on_text_is_a_located_model_error(tmp_path: Path) -> None:
    ws = _market(tmp_path, "  price: {type: text, role: cost}\n")
    loaded = load_game(ws, "market")
    found = [(f.file, f.line, f.column, f.code) for f in loaded.findings if "role" in f.code]
    assert found == [("rules/market/game.yaml", 16, 23, "model-role-type")]
    assert loaded.model.cost_field is None  # not read as the cost


def test_the_report_gives_each_severity_of_a_code_its_own_example(tmp_path: Path) -> None:
    """art-low-resolution is a warning at 198 dpi and an error at 19 (the designer's trial #4: the
    warning's row showed the error's message)."""
    from cardgen.core.errors import Finding, Severity

    ws = _market(tmp_path, PRICE)
    studio = open_studio(ws, "market")
    found = [
        Finding(
            "cards/market/cards.yaml",
            3,
            3,
            Severity.ERROR,
            "art-low-resolution",
            "coin",
            "at 19 dpi",
        ),
        Finding(
            "cards/market/cards.yaml",
            9,
            3,
            Severity.WARNING,
            "art-low-resolution",
            "well",
            "at 198 dpi",
        ),
    ]
    page = build_report(studio, found, ws.output_dir("market") / "report").read_text(
        encoding="utf-8"
    )
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", page, re.S)
    warning = next(r for r in rows if "warning" in r and "art-low-resolution" in r)
    error = next(r for r in rows if "error" in r and "art-low-resolution" in r)
    assert "at 198 dpi" in warning and "at 19 dpi" in error

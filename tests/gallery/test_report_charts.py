"""The set report's figures as a reader sees them: every series visible on white, legends beside the
data, whole-number count axes, no raw placeholder label, overlapping points set apart."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from cardgen.core.workspace import Workspace
from cardgen.gallery import charts
from cardgen.jobs.gallery import run_report
from cardgen.render.plots import Figures, pyplot

from ..conftest import REPO


def _contrast(colour: Any) -> float:
    """WCAG contrast of an RGBA colour against white."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour[:3])
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Power Trip's report figures, drawn (not taken from the figure cache) and kept open."""
    figures: dict[str, Any] = {}

    def png(self: Figures, name: str, data: object, draw: Any) -> bytes:
        figures[name] = draw(pyplot())
        return b""

    patch = pytest.MonkeyPatch()
    patch.setattr(Figures, "png", png)
    try:
        run_report(Workspace.find(REPO), "power-trip", tmp_path_factory.mktemp("report"))
    finally:
        patch.undo()
    for fig in figures.values():
        fig.canvas.draw()
    return figures


def test_power_trip_draws_all_six(drawn: dict[str, Any]) -> None:
    assert sorted(drawn) == ["cost-curve", "findings", "keywords", "kinds", "rarities", "stats"]


def test_count_axes_show_whole_numbers(drawn: dict[str, Any]) -> None:
    for name, fig in drawn.items():
        for ax in fig.axes:
            for axis, (low, high) in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
                ticks = [t for t in axis.get_majorticklocs() if low <= t <= high]
                assert ticks and all(t == int(t) for t in ticks), (name, ticks)


def test_legends_stand_beside_the_data(drawn: dict[str, Any]) -> None:
    legends = 0
    for name, fig in drawn.items():
        for ax in fig.axes:
            legend = ax.get_legend()
            if legend is not None:
                legends += 1
                box, data = legend.get_window_extent(), ax.get_window_extent()
                assert box.x0 >= data.x1, name
    assert legends == 5  # every figure but the keywords' single series


def test_no_raw_placeholder_is_a_label(drawn: dict[str, Any]) -> None:
    texts: set[str] = set()
    for fig in drawn.values():
        for ax in fig.axes:
            texts |= {t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()}
            if ax.get_legend():
                texts |= {t.get_text() for t in ax.get_legend().get_texts()}
    assert "[]" not in texts and "none" not in texts
    # Traumatize's kinds ["[]"] and Temporary Escape's rarity "[]" (cards/power-trip)
    assert {"(none)", "(placeholder)"} <= texts


def test_every_series_is_visible_on_white(drawn: dict[str, Any]) -> None:
    for name, fig in drawn.items():
        for ax in fig.axes:
            for bar in ax.patches:
                drawn_edge = bar.get_linewidth() > 0 and bar.get_edgecolor()[3] > 0
                edge = _contrast(bar.get_edgecolor()) if drawn_edge else 1.0
                seen = max(_contrast(bar.get_facecolor()), edge)
                assert seen >= 3, (name, bar.get_facecolor())
            for points in ax.collections:
                faces, edges = points.get_facecolors(), points.get_edgecolors()
                if not max(points.get_linewidths(), default=0) or not len(edges):
                    edges = faces
                for i in range(len(faces)):
                    edge = edges[i % len(edges)] if edges[i % len(edges)][3] else faces[i]
                    assert max(_contrast(faces[i]), _contrast(edge)) >= 3, name


def test_no_point_hides_another(drawn: dict[str, Any]) -> None:
    for ax in drawn["stats"].axes:
        spots = [tuple(c.get_offsets()[0]) for c in ax.collections]
        assert spots and len(spots) == len(set(spots))


def test_the_palette_is_okabe_ito_and_one_faction_keeps_its_colour() -> None:
    look = charts.styles(["Chaos", "Order", "(none)", "Fear"] + [f"x{i}" for i in range(8)])
    assert [look[n].colour for n in ("Chaos", "Order", "Fear")] == list(charts.OKABE_ITO[:3])
    assert look["(none)"].colour == charts.UNSET
    assert look["x5"] == charts.Style(charts.OKABE_ITO[0], "//", "s")  # the ninth: hatched


def test_overlapping_points_are_merged_sized_and_set_apart() -> None:
    points = [(1, 2, "Dark")] * 3 + [(1, 2, "Light"), (2, 2, "Dark")]
    assert charts.dodged(points, ["Dark", "Light"]) == [
        (1 - 0.09, 2, "Dark", 3),
        (1 + 0.09, 2, "Light", 1),
        (2.0, 2, "Dark", 1),
    ]


def test_counts_of_one_to_three_never_show_halves() -> None:
    fig = charts.cost_curve(pyplot(), {"Order": Counter({1: 1, 2: 3})}, charts.styles(["Order"]))
    fig.canvas.draw()
    ax = fig.axes[0]
    assert [t for t in ax.get_yticks() if 0 <= t <= ax.get_ylim()[1]] == [0, 1, 2, 3]

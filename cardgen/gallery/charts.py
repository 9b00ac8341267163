"""Turn the set report's tallies into matplotlib figures in one colour-blind-safe style: Okabe-Ito
series outlined against the background, legends beside the data, whole-number count axes, and
overlapping points moved apart and sized by how many designs they stand for."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

# Okabe & Ito (2008), "Color Universal Design": told apart under every common colour-vision
# deficiency. Blue first; the yellow, faint on white, last among the colours (every bar and point is
# outlined in EDGE, so it stays visible against the background too).
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#000000")
HATCHES = ("", "//", "..", "xx")  # a ninth series and on: the colours again, hatched
MARKERS = ("o", "s", "^", "D")  # the same for points
EDGE = "#333333"  # every bar's and point's outline: 12.6:1 against white
UNSET = "#BBBBBB"  # "(none)" and "(placeholder)": no value of the vocabulary, drawn neutral
NONE, PLACEHOLDER = "(none)", "(placeholder)"
SEVERITY_COLOURS = {"error": "#D55E00", "warning": "#F0E442", "info": "#56B4E9"}


@dataclass(frozen=True)
class Style:
    colour: str
    hatch: str
    marker: str


def styles(names: list[str]) -> dict[str, Style]:
    """Each series name's style, in order: the palette's colours, then again hatched (bars) or with
    another marker (points); NONE and PLACEHOLDER in grey. One mapping per report, so a faction has
    the same colour in every figure."""
    out: dict[str, Style] = {}
    n = 0
    for name in names:
        if name in (NONE, PLACEHOLDER):
            out[name] = Style(UNSET, "//" if name == PLACEHOLDER else "", "o")
            continue
        turn = n // len(OKABE_ITO)
        colour = OKABE_ITO[n % len(OKABE_ITO)]
        out[name] = Style(colour, HATCHES[turn % len(HATCHES)], MARKERS[turn % len(MARKERS)])
        n += 1
    return out


def _counts(axis: Any, top: int | None = None) -> None:
    """A count axis shows whole numbers only (never "0.5 designs"), from 0 to at least 1 when
    `top` (the largest count) is given."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
    if top is not None:
        limits = axis.axes.set_xlim if axis.axis_name == "x" else axis.axes.set_ylim
        limits(0, max(1, top) * 1.05)


def _legend(ax: Any, **kw: Any) -> None:
    """The legend beside the axes, right of the data, never over it."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0, frameon=False, **kw)


def _bars(ax: Any, xs: list[float], ys: list[int], width: float, style: Style, **kw: Any) -> None:
    ax.bar(
        xs,
        ys,
        width,
        color=style.colour,
        hatch=style.hatch,
        edgecolor=EDGE,
        linewidth=0.6,
        **kw,
    )


def cost_curve(plt: Any, curve: dict[str, Counter[int]], look: dict[str, Style]) -> Any:
    fig, ax = plt.subplots(figsize=(7, 3.2))
    groups = sorted(curve, key=lambda g: (-sum(curve[g].values()), g))[:8]
    top = max(max(v) for v in curve.values())
    width = 0.8 / len(groups)
    xs = list(range(top + 1))
    for i, g in enumerate(groups):
        at = [x + i * width - 0.4 + width / 2 for x in xs]
        _bars(ax, at, [curve[g][x] for x in xs], width, look[g], label=g)
    ax.set_xlabel("cost (symbols + generic)")
    ax.set_ylabel("designs")
    ax.set_xticks(xs)
    _counts(ax.yaxis)
    _legend(ax, fontsize=8, title="faction", title_fontsize=8)
    ax.set_title("Cost curve by faction")
    return fig


def dodged(
    points: list[tuple[int, int, str]], order: list[str]
) -> list[tuple[float, int, str, int]]:
    """Overlapping points made visible: the designs at one (cost, stat) of one faction are one point
    whose area grows with their number, and the factions sharing a spot are set side by side around
    it (always the same way: no randomness)."""
    at: dict[tuple[int, int], Counter[str]] = {}
    for x, y, g in points:
        at.setdefault((x, y), Counter())[g] += 1
    rank = {g: i for i, g in enumerate(order)}
    out = []
    for (x, y), groups in sorted(at.items()):
        names = sorted(groups, key=lambda g: (rank.get(g, len(rank)), g))
        step = min(0.18, 0.6 / len(names))
        for i, g in enumerate(names):
            out.append((x + (i - (len(names) - 1) / 2) * step, y, g, groups[g]))
    return out


def stats_plot(
    plt: Any,
    points: dict[str, list[tuple[int, int, str]]],
    labels: dict[str, str],
    look: dict[str, Style],
) -> Any:
    stats = list(points)
    fig, axes = plt.subplots(1, len(stats), figsize=(3.4 * len(stats), 3), squeeze=False)
    order = list(look)
    rank = {g: i for i, g in enumerate(order)}
    seen: dict[str, Style] = {}
    for ax, s in zip(axes[0], stats):
        for x, y, g, n in dodged(points[s], order):
            st = look.get(g, Style(UNSET, "", "o"))
            seen[g] = st
            ax.scatter(
                x, y, s=16 * n, marker=st.marker, color=st.colour, edgecolors=EDGE, linewidths=0.5
            )
        ax.set_xlabel("cost")
        ax.set_ylabel(labels[s])
        ax.set_title(f"{labels[s]} against cost")
        _counts(ax.xaxis)
        _counts(ax.yaxis)
    handles = [
        plt.Line2D(
            [], [], linestyle="", marker=st.marker, color=st.colour, markeredgecolor=EDGE, label=g
        )
        for g, st in sorted(seen.items(), key=lambda kv: rank.get(kv[0], len(rank)))
    ]
    axes[0][-1].legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.02, 1.0),
        borderaxespad=0,
        frameon=False,
        fontsize=8,
        title="faction (area: designs)",
        title_fontsize=8,
    )
    return fig


def rarity_plot(
    plt: Any,
    expected: dict[str, dict[str, int]],
    actual: dict[str, Counter[str]],
    rarities: list[str],
) -> Any:
    fig, ax = plt.subplots(figsize=(7, 3.2))
    names = list(expected)
    look = styles(rarities)
    width = 0.8 / len(rarities)
    for i, r in enumerate(rarities):
        centres = [n + i * width - 0.4 + width / 2 for n in range(len(names))]
        _bars(ax, centres, [actual[g][r] for g in names], width, look[r], label=r)
        ax.scatter(
            centres,
            [expected[g].get(r, 0) for g in names],
            marker="_",
            s=300,
            color="black",
            zorder=3,
            label="expected" if i == 0 else None,
        )
    ax.set_xticks(range(len(names)), names)
    ax.set_ylabel("designs")
    _counts(ax.yaxis)
    ax.set_title("Designs per rarity against the collation")
    _legend(ax, fontsize=8, title="rarity (bars: transcribed)", title_fontsize=8)
    return fig


def kinds_plot(plt: Any, mix: dict[str, Counter[str]], kinds: list[str]) -> Any:
    fig, ax = plt.subplots(figsize=(7, 3.2))
    names = sorted(mix, key=lambda g: -sum(mix[g].values()))[:10]
    look = styles(kinds)
    bottom = [0] * len(names)
    for k in kinds:
        vals = [mix[g][k] for g in names]
        ax.bar(
            names,
            vals,
            bottom=bottom,
            label=k,
            color=look[k].colour,
            hatch=look[k].hatch,
            edgecolor=EDGE,
            linewidth=0.6,
        )
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.tick_params(axis="x", rotation=30)
    ax.set_ylabel("designs")
    _counts(ax.yaxis)
    ax.set_title("Kinds per faction (aliases counted as their kind)")
    _legend(ax, fontsize=8, title="kind", title_fontsize=8)
    return fig


def keywords_plot(plt: Any, words: dict[str, int]) -> Any:
    fig, ax = plt.subplots(figsize=(7, 0.25 * len(words) + 1))
    items = sorted(words.items(), key=lambda kv: kv[1])
    ax.barh(
        [k for k, _ in items],
        [v for _, v in items],
        color=OKABE_ITO[0],
        edgecolor=EDGE,
        linewidth=0.6,
    )
    ax.set_xlabel("cards whose text uses it")
    _counts(ax.xaxis, max(words.values()))
    ax.set_title("Glossary keywords in use")
    return fig


def findings_plot(plt: Any, by_code: Counter[tuple[str, str]]) -> Any:
    from matplotlib.patches import Patch

    fig, ax = plt.subplots(figsize=(7, 0.25 * len(by_code) + 1))
    rows = sorted(by_code.items(), key=lambda kv: kv[1])
    twice = {c for c, n in Counter(c for (_, c), _ in rows).items() if n > 1}
    ax.barh(  # a code found at two severities: two bars, each named with its severity
        [f"{c} ({s})" if c in twice else c for (s, c), _ in rows],
        [v for _, v in rows],
        color=[SEVERITY_COLOURS[s] for (s, _), _ in rows],
        edgecolor=EDGE,
        linewidth=0.6,
    )
    ax.set_xlabel("findings")
    _counts(ax.xaxis, max(by_code.values()))
    ax.set_title("Open findings by category")
    shown = [s for s in SEVERITY_COLOURS if any(s == sev for (sev, _), _ in rows)]
    ax.legend(
        handles=[Patch(facecolor=SEVERITY_COLOURS[s], edgecolor=EDGE, label=s) for s in shown],
        loc="upper left",
        bbox_to_anchor=(1.02, 1.0),
        borderaxespad=0,
        frameon=False,
        fontsize=8,
    )
    return fig

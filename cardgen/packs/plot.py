"""Turn fairness statistics into a picture: per-card z-scores against the normal curve, observed
against expected."""

from __future__ import annotations

import math

from ..render.plots import figure_png, pyplot
from .stats import Stats


def stats_png(stats: Stats) -> bytes:
    plt = pyplot()
    ids = [i for i in stats.expected if stats.expected[i] > 0]
    z = [(stats.observed.get(i, 0) - stats.expected[i]) / math.sqrt(stats.expected[i]) for i in ids]
    panels = 3 if stats.by_round else 2
    fig, axes = plt.subplots(1, panels, figsize=(4 * panels, 3.4))
    ax = axes[0]
    ax.hist(z, bins=30, density=True, color="#6b3fa0", alpha=0.75, label="cards")
    xs = [x / 20 for x in range(-80, 81)]
    ax.plot(
        xs,
        [math.exp(-x * x / 2) / math.sqrt(2 * math.pi) for x in xs],
        color="black",
        lw=1,
        label="N(0, 1)",
    )
    ax.set_xlabel("(observed - expected) / sqrt(expected)")
    ax.set_title("Each card's deviation")
    ax.legend(frameon=False, fontsize=8)
    ax = axes[1]
    exp = [stats.expected[i] for i in ids]
    ax.scatter(exp, [stats.observed.get(i, 0) for i in ids], s=10, alpha=0.6, color="#24588f")
    top = max(exp + [stats.observed.get(i, 0) for i in ids]) * 1.05
    ax.plot([0, top], [0, top], color="black", lw=0.8)
    ax.set_xlabel("exact expected count")
    ax.set_ylabel("observed count")
    p = ", ".join(f"{s.sheet}: p = {s.p:.3f}" for s in stats.sheets)
    ax.set_title(f"Observed against expected\n{p}", fontsize=9)
    if stats.by_round:
        ax = axes[2]
        keys = sorted({k for c in stats.by_round.values() for k in c})
        rounds = sorted(stats.by_round)
        bottom = [0.0] * len(rounds)
        for k in keys:
            vals = [stats.by_round[r].get(k, 0) / sum(stats.by_round[r].values()) for r in rounds]
            ax.bar([str(r) for r in rounds], vals, bottom=bottom, label=k)
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax.set_xlabel("round")
        ax.set_ylabel("share of dealt cards")
        ax.set_title("Rarity mix by round")
        ax.legend(frameon=False, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle(
        f"{stats.format} ({stats.mode}): {stats.trials} "
        f"{'packs' if stats.mode == 'slots' else 'pods'}",
        fontsize=10,
        y=1.08,
    )
    return figure_png(fig)

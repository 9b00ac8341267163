"""Turn a validated game into a set report: an HTML page and PNG figures of its balance and open
findings."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from ..core.errors import Finding
from ..core.output import write_atomic
from ..model.cost import parse_cost
from ..model.game import Role, assign_groups
from ..project.studio import Studio
from ..render.plots import Figures
from .page import page_template
from .smallest import EditionTexts, as_rows, smallest_texts

SEVERITY_COLOURS = {"error": "#c62828", "warning": "#b7791f", "info": "#2b6cb0"}


def _label(card, field: str | None) -> str:  # type: ignore[no-untyped-def]
    return "/".join(map(str, card.values(field))) or "none" if field else "all"


def build_report(
    studio: Studio, findings: list[Finding], out: Path, editions: list[EditionTexts] | None = None
) -> Path:
    """The report page and its figures; a figure is drawn again only when what it shows changed (the
    figures are kept in output/GAME/.cache/report/). For a game with editions, a table per edition
    of the texts it set smallest (`editions`: every edition's, else this edition's own)."""
    made = Figures(studio.ws.output_dir(studio.game) / ".cache" / "report", Path(__file__))
    cards = studio.designs()
    model = studio.model
    cfield, kfield = model.role_field(Role.FACTION), model.role_field(Role.KIND)
    cost = model.cost_field or ""
    colours = {
        t.name: t.attrs.get("color")
        for t in (
            studio.model.vocab_for(cfield).terms
            if cfield and studio.model.vocab_for(cfield)
            else []
        )
    }
    figures: list[tuple[str, str, bytes]] = []

    # 1. cost curve per faction
    curve: dict[str, Counter[int]] = defaultdict(Counter)
    for c in cards:
        if c.get(cost):
            curve[_label(c, cfield)][parse_cost(str(c.get(cost)), studio.model.cost).total] += 1
    if curve:

        def cost_curve(plt: Any) -> Any:
            fig, ax = plt.subplots(figsize=(7, 3.2))
            groups = sorted(curve, key=lambda g: (-sum(curve[g].values()), g))[:8]
            top = max(max(v) for v in curve.values())
            width = 0.8 / len(groups)
            for i, g in enumerate(groups):
                xs = list(range(top + 1))
                ax.bar(
                    [x + i * width - 0.4 + width / 2 for x in xs],
                    [curve[g][x] for x in xs],
                    width,
                    label=g,
                    color=colours.get(g),
                )
            ax.set_xlabel("cost (symbols + generic)")
            ax.set_ylabel("designs")
            ax.set_xticks(range(top + 1))
            ax.legend(frameon=False, ncol=4, fontsize=8)
            ax.set_title("Cost curve by faction")
            return fig

        figures.append(
            (
                "cost-curve",
                "How many designs cost how much, per faction",
                made.png(
                    "cost-curve",
                    (sorted((g, sorted(n.items())) for g, n in curve.items()), colours),
                    cost_curve,
                ),
            )
        )

    # 2. stats against cost
    stats = model.role_fields(Role.ATTACK) + model.role_fields(Role.HEALTH)
    points = {
        s: [
            (parse_cost(str(c.get(cost)), studio.model.cost).total, c.get(s), _label(c, cfield))
            for c in cards
            if c.get(cost) and isinstance(c.get(s), int) and not isinstance(c.get(s), bool)
        ]
        for s in stats
    }
    stats = [s for s in stats if points[s]]
    if stats:
        labels = {s: studio.model.fields[s].label or s for s in stats}

        def stats_plot(plt: Any) -> Any:
            fig, axes = plt.subplots(1, len(stats), figsize=(3.4 * len(stats), 3), squeeze=False)
            for ax, s in zip(axes[0], stats):
                for x, y, g in points[s]:
                    ax.scatter(x, y, s=22, alpha=0.7, color=colours.get(g, "#555555"))
                ax.set_xlabel("cost")
                ax.set_ylabel(labels[s])
                ax.set_title(f"{labels[s]} against cost")
            return fig

        figures.append(
            (
                "stats",
                "Stats against cost (one dot per design; colour = faction)",
                made.png("stats", (points, labels, colours), stats_plot),
            )
        )

    # 3. rarity and kind mix per faction, against the collation
    assigned = assign_groups(studio.catalog, studio.model.collation)
    expected: dict[str, dict[str, int]] = {}
    actual: dict[str, Counter[str]] = defaultdict(Counter)
    for g in studio.model.collation:
        if g.rarities:
            expected[g.name] = {r: (n.designs or 0) for r, n in g.rarities.items()}
    for c in studio.catalog:
        group = assigned[c.order]
        if group is not None and group.name in expected:
            actual[group.name][str(model.role_value(c, Role.RARITY) or "no rarity").lower()] += 1
    if expected:

        def rarity_plot(plt: Any) -> Any:
            fig, ax = plt.subplots(figsize=(7, 3.2))
            names = list(expected)
            rarities = sorted(
                {r for e in expected.values() for r in e} | {r for a in actual.values() for r in a}
            )
            width = 0.8 / len(rarities)
            for i, r in enumerate(rarities):
                centres = [n + i * width - 0.4 + width / 2 for n in range(len(names))]
                ax.bar(centres, [actual[g][r] for g in names], width, label=f"{r} (transcribed)")
                ax.scatter(
                    centres,
                    [expected[g].get(r, 0) for g in names],
                    marker="_",
                    s=300,
                    color="black",
                    zorder=3,
                )
            ax.set_xticks(range(len(names)), names)
            ax.set_ylabel("designs")
            ax.set_title("Designs per rarity against the collation (black bars: expected)")
            ax.legend(frameon=False, fontsize=8)
            return fig

        figures.append(
            (
                "rarities",
                "Rarity mix per collation group, against what the collation expects",
                made.png(
                    "rarities",
                    (expected, sorted((g, sorted(n.items())) for g, n in actual.items())),
                    rarity_plot,
                ),
            )
        )
    if kfield and cfield:
        mix: dict[str, Counter[str]] = defaultdict(Counter)
        for c in cards:
            for k in c.values(kfield) or ["none"]:
                term = studio.model.term(kfield, str(k))
                mix[_label(c, cfield)][term.name if term else str(k)] += 1

        def kinds_plot(plt: Any) -> Any:
            fig, ax = plt.subplots(figsize=(7, 3.2))
            names = sorted(mix, key=lambda g: -sum(mix[g].values()))[:10]
            kinds = sorted({k for m in mix.values() for k in m})
            bottom = [0.0] * len(names)
            for k in kinds:
                vals = [mix[g][k] for g in names]
                ax.bar(names, vals, bottom=bottom, label=k)
                bottom = [b + float(v) for b, v in zip(bottom, vals)]
            ax.tick_params(axis="x", rotation=30)
            ax.set_ylabel("designs")
            ax.set_title("Kinds per faction (aliases counted as their kind)")
            ax.legend(frameon=False, fontsize=7, ncol=2)
            return fig

        figures.append(
            (
                "kinds",
                "Kinds per faction",
                made.png("kinds", [(g, sorted(n.items())) for g, n in mix.items()], kinds_plot),
            )
        )

    # 4. keyword usage
    words: Counter[str] = Counter()
    texts = [str(c.get(f) or "").lower() for c in cards for f in studio.model.text_fields]
    for kw in studio.model.keywords:
        words[kw.name] = sum(1 for t in texts if kw.name.lower() in t)
    if words:

        def keywords_plot(plt: Any) -> Any:
            fig, ax = plt.subplots(figsize=(7, 0.25 * len(words) + 1))
            items = sorted(words.items(), key=lambda kv: kv[1])
            ax.barh([k for k, _ in items], [v for _, v in items], color="#6b3fa0")
            ax.set_xlabel("cards whose text uses it")
            ax.set_title("Glossary keywords in use")
            return fig

        figures.append(
            (
                "keywords",
                "How many cards use each glossary keyword",
                made.png("keywords", list(words.items()), keywords_plot),
            )
        )

    # 5. open findings by category
    by_code: Counter[tuple[str, str]] = Counter((str(f.severity), f.code) for f in findings)
    if by_code:

        def findings_plot(plt: Any) -> Any:
            fig, ax = plt.subplots(figsize=(7, 0.25 * len(by_code) + 1))
            rows = sorted(by_code.items(), key=lambda kv: kv[1])
            ax.barh(
                [c for (_, c), _ in rows],
                [v for _, v in rows],
                color=[SEVERITY_COLOURS[s] for (s, _), _ in rows],
            )
            ax.set_xlabel("findings")
            ax.set_title("Open findings by category (red: errors, amber: warnings, blue: info)")
            return fig

        figures.append(
            (
                "findings",
                "Open findings by category",
                made.png("findings", sorted(by_code.items()), findings_plot),
            )
        )

    made.prune()
    for name, _, png in figures:
        write_atomic(out / f"{name}.png", png)
    if editions is None and studio.model.editions is not None:
        editions = [smallest_texts(studio)]
    page = _page(studio, figures, by_code, findings, as_rows(editions or []))
    return write_atomic(out / "index.html", page)


def _page(
    studio: Studio,
    figures: list[tuple[str, str, bytes]],
    by_code: Counter[Any],
    findings: list[Finding],
    editions: list[dict[str, object]],
) -> str:
    order = ["info", "warning", "error"]
    rows = [
        {
            "severity": s,
            "code": c,
            "count": n,
            "example": next(f.message for f in findings if f.code == c),
        }
        for (s, c), n in sorted(by_code.items(), key=lambda kv: (-order.index(kv[0][0]), kv[0][1]))
    ]
    return (
        page_template("report").render(
            name=studio.model.name,
            game=studio.game,
            cards=len(studio.catalog.designs()),
            rows=rows,
            figures=[{"file": n, "title": t} for n, t, _ in figures],
            editions=editions,
        )
        + "\n"
    )

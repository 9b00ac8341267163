"""Turn a validated game into a set report: an HTML page and PNG figures of its balance and open
findings."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from ..core.errors import Finding
from ..core.output import write_atomic
from ..load.card import Card
from ..model.cost import cost_text
from ..model.game import GameModel, Role, assign_groups, written
from ..project.studio import Studio
from ..render.plots import Figures
from . import charts
from .charts import NONE, PLACEHOLDER
from .page import page_template
from .smallest import EditionTexts, as_rows, smallest_texts


def _one(model: GameModel, value: object) -> str:
    """One value as a series name: NONE for nothing, PLACEHOLDER for a placeholder of the model
    (`[]`, `TBD`…): never the placeholder itself."""
    text = "" if value is None else str(value).strip()
    if not text:
        return NONE
    return text if written(text, model.placeholders) else PLACEHOLDER


def _label(model: GameModel, card: Card, field: str | None) -> str:
    """A card's value(s) of a field as one series name (a multi-valued field joined by '/')."""
    if not field:
        return "all"
    names = [_one(model, v) for v in card.values(field)]
    names = [n for n in names if n != NONE] or [NONE]
    return PLACEHOLDER if PLACEHOLDER in names else "/".join(names)


def _series(model: GameModel, field: str | None, used: set[str]) -> list[str]:
    """The series names in the vocabulary's order, then the others used (combinations) as sorted,
    NONE and PLACEHOLDER last."""
    vocab = model.vocab_for(field) if field else None
    first = [t.name for t in vocab.terms if t.name in used] if vocab else []
    rest = sorted(used - set(first) - {NONE, PLACEHOLDER})
    return first + rest + [n for n in (NONE, PLACEHOLDER) if n in used]


def build_report(
    studio: Studio, findings: list[Finding], out: Path, editions: list[EditionTexts] | None = None
) -> Path:
    """The report page and its figures; a figure is drawn again only when what it shows changed (the
    figures are kept in output/GAME/.cache/report/). For a game with editions, a table per edition
    of the texts it set smallest (`editions`: every edition's, else this edition's own)."""
    made = Figures(studio.ws.output_dir(studio.game) / ".cache" / "report", Path(charts.__file__))
    cards = studio.designs()
    model = studio.model
    cfield, kfield = model.role_field(Role.FACTION), model.role_field(Role.KIND)
    cost = model.cost_field or ""
    factions = _series(model, cfield, {_label(model, c, cfield) for c in cards})
    # the faction role's own word (a game of houses says house: the field's label, else its
    # vocabulary's name, as 'faction' for a `factions` list); a game without one says nothing
    spec = model.fields[cfield] if cfield else None
    group = (spec.label or spec.vocab or str(cfield)).lower() if spec else ""
    look = charts.styles(factions)
    figures: list[tuple[str, str, bytes]] = []

    # 1. cost curve per faction
    curve: dict[str, Counter[int]] = defaultdict(Counter)
    costs = {  # by the card's place in the list (0 is a cost, not none)
        n: model.parsed_cost(c.get(cost)).total
        for n, c in enumerate(cards)
        if cost_text(c.get(cost))
    }
    for n, c in enumerate(cards):
        if n in costs:
            curve[_label(model, c, cfield)][costs[n]] += 1
    if curve:
        figures.append(
            (
                "cost-curve",
                "How many designs cost how much" + (f", per {group}" if group else ""),
                made.png(
                    "cost-curve",
                    (sorted((g, sorted(n.items())) for g, n in curve.items()), look),
                    lambda plt: charts.cost_curve(plt, curve, look),
                ),
            )
        )

    # 2. stats against cost
    stats = model.role_fields(Role.ATTACK) + model.role_fields(Role.HEALTH)
    points = {
        s: [
            (costs[n], c.get(s), _label(model, c, cfield))
            for n, c in enumerate(cards)
            if n in costs and isinstance(c.get(s), int) and not isinstance(c.get(s), bool)
        ]
        for s in stats
    }
    points = {s: p for s, p in points.items() if p}
    if points:
        labels = {s: model.fields[s].label or s for s in points}
        figures.append(
            (
                "stats",
                "Stats against cost ("
                + (f"colour and shape: {group}; " if group else "")
                + "a bigger dot stands for more designs"
                + ("; dots sharing a spot are set side by side)" if group else ")"),
                made.png(
                    "stats",
                    (points, labels, look),
                    lambda plt: charts.stats_plot(plt, points, labels, look),
                ),
            )
        )

    # 3. rarity and kind mix per faction, against the collation
    rfield = model.role_field(Role.RARITY)
    assigned = assign_groups(studio.catalog, model.collation)
    expected: dict[str, dict[str, int]] = {}
    actual: dict[str, Counter[str]] = defaultdict(Counter)
    for g in model.collation:
        if g.rarities:
            expected[g.name] = {r: (n.designs or 0) for r, n in g.rarities.items()}
    for c in studio.catalog:
        group = assigned[c.order]
        if group is not None and group.name in expected:
            actual[group.name][_label(model, c, rfield).lower()] += 1
    if expected:
        used = {r for e in expected.values() for r in e} | {r for a in actual.values() for r in a}
        rarities = [t.name.lower() for t in model.rarity_terms() if t.name.lower() in used]
        rarities += [r for r in _series(model, None, used) if r not in rarities]
        figures.append(
            (
                "rarities",
                "Rarity mix per collation group, against what the collation expects",
                made.png(
                    "rarities",
                    (expected, sorted((g, sorted(n.items())) for g, n in actual.items()), rarities),
                    lambda plt: charts.rarity_plot(plt, expected, actual, rarities),
                ),
            )
        )
    if kfield and cfield:
        mix: dict[str, Counter[str]] = defaultdict(Counter)
        for c in cards:
            for k in c.values(kfield) or [None]:
                term = model.term(kfield, str(k)) if k is not None else None
                name = term.name if term else _one(model, k)
                mix[_label(model, c, cfield)][name] += 1
        kinds = _series(model, kfield, {k for m in mix.values() for k in m})
        figures.append(
            (
                "kinds",
                f"Kinds per {group}",
                made.png(
                    "kinds",
                    ([(g, sorted(n.items())) for g, n in mix.items()], kinds),
                    lambda plt: charts.kinds_plot(plt, mix, kinds),
                ),
            )
        )

    # 4. keyword usage
    words: Counter[str] = Counter()
    texts = [str(c.get(f) or "").lower() for c in cards for f in model.text_fields]
    for kw in model.keywords:
        words[kw.name] = sum(1 for t in texts if kw.name.lower() in t)
    if words:
        figures.append(
            (
                "keywords",
                "How many cards use each glossary keyword",
                made.png(
                    "keywords", list(words.items()), lambda plt: charts.keywords_plot(plt, words)
                ),
            )
        )

    # 5. open findings by category
    by_code: Counter[tuple[str, str]] = Counter((str(f.severity), f.code) for f in findings)
    if by_code:
        figures.append(
            (
                "findings",
                "Open findings by category",
                made.png(
                    "findings",
                    sorted(by_code.items()),
                    lambda plt: charts.findings_plot(plt, by_code),
                ),
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
            # of this severity: a code may be a warning on one card and an error on another
            "example": next(f.message for f in findings if f.code == c and str(f.severity) == s),
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

"""Turn a pull plan's new card-file texts into the catalog they would load as, in memory: what a
dry run validates, so that it reports the findings the real pull would give."""

from __future__ import annotations

from ..core.errors import Finding
from ..load.card import Card, Catalog
from ..load.yamlio import LocDict, LocList, parse_yaml
from .plan import PullPlan
from .source import card_id


def planned_catalog(
    plan: PullPlan, catalog: Catalog, findings: list[Finding]
) -> tuple[Catalog, list[Finding]]:
    """The cards and the reading's findings as they would be once the plan is written: each
    edited (or new) file read from its planned text, every other file as it was read."""
    texts = {shown: payload.decode("utf-8-sig") for shown, (_, payload) in plan.writes.items()}
    files = sorted(set(catalog.files) | set(texts))  # the loader's order: by path
    out = Catalog(catalog.game, files=files)
    found = [f for f in findings if f.file not in texts]
    by_file: dict[str, list[Card]] = {}
    for card in catalog:
        by_file.setdefault(card.file, []).append(card)
    for shown in files:
        if shown not in texts:
            for card in by_file.get(shown, []):
                out.cards.append(_moved(card, len(out.cards)))
            continue
        doc = parse_yaml(texts[shown], shown)
        found += doc.findings
        if not isinstance(doc.data, LocList):
            continue  # finish_plan refused a text that does not load as a list
        stem = shown.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        for index, item in enumerate(doc.data):
            if isinstance(item, LocDict):
                line, col = doc.data.item_loc(index)
                made = card_id(item, stem, index)
                out.cards.append(Card(made, item, shown, line, col, item.key_locs, len(out.cards)))
    return out, found


def _moved(card: Card, order: int) -> Card:
    if card.order == order:
        return card
    return Card(card.id, card.data, card.file, card.line, card.column, card.field_locs, order)

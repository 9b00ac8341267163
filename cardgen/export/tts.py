"""Turn cards into a Tabletop Simulator saved object: one deck per section, back and size (its
sheets: ttsparts.deck_sheets), or supply piles (export.piles)."""

from __future__ import annotations

from typing import Callable

from ..model.game import Role
from ..project.studio import Studio
from .common import ExportItem, ExportResult
from .ttsparts import _describe, _transform, back_group, deck_sheets, saved_file


def export_tts(
    studio: Studio, items: list[ExportItem], image_url: Callable[[str], str]
) -> ExportResult:
    """One deck object per deck-list section, card back and card size (a main deck, a sideboard, a
    resource deck, tarot heroes), with CardIDs unique across the whole save (Tabletop Simulator
    reads CustomDeck key × 100 + slot) and each deck's own aspect and scale."""
    from .piles import pile_spec

    spec = pile_spec(studio.model)
    if spec is not None:  # a supply of piles (tts: piles: in game.yaml): the cards themselves
        from .piles import export_piles

        return export_piles(studio, items, image_url, spec)
    result = ExportResult("tts")
    groups: dict[tuple[str, str, tuple[float, float]], list[ExportItem]] = {}
    for item in items:
        groups.setdefault(
            (item.section, back_group(studio, item), (item.front.width, item.front.height)), []
        ).append(item)
    sizes = len({size for _, _, size in groups})
    objects = []
    next_key = 1
    for g, ((section, back_key, _), group) in enumerate(groups.items()):
        back_face = group[0].back
        label = "-".join(
            x
            for x in (
                section if section != "main" else "",
                back_face.template.name if back_face else "deck",
                group[0].front.template.name if sizes > 1 else "",
            )
            if x
        )
        w_pt, h_pt = group[0].front.width, group[0].front.height  # this deck's own card size
        # each card's own second face: UniqueBack
        sheets = deck_sheets(studio, group, label, back_key.startswith("own:"), image_url, next_key)
        next_key += len(sheets.custom)
        result.files += sheets.files
        contained, deck_ids = [], []
        for item, (key, i) in zip(group, sheets.slots):
            card_id = int(key) * 100 + i
            for _ in range(item.copies):
                deck_ids.append(card_id)
                contained.append(
                    {
                        "Name": "CardCustom",
                        "Nickname": item.card.name or item.card.id,
                        "Description": _describe(studio, item),
                        "CardID": card_id,
                        "CustomDeck": {key: sheets.custom[key]},
                        "Transform": _transform(0, w_pt, h_pt),
                    }
                )
        if len(contained) == 1:  # a deck of one card is a card in Tabletop Simulator
            objects.append({**contained[0], "Transform": _transform(g * 3.0, w_pt, h_pt)})
            continue
        objects.append(
            {
                "Name": "DeckCustom",
                "Nickname": f"{studio.model.name} — {_deck_name(studio, section, group)}",
                "Description": "made with cardgen",
                "Transform": _transform(g * 3.0, w_pt, h_pt),
                "DeckIDs": deck_ids,
                "CustomDeck": sheets.custom,
                "ContainedObjects": contained,
            }
        )
    result.files.append(saved_file(studio, objects))
    result.notes.append(
        "images are linked as local files (only you see them in multiplayer): upload them and "
        "export again with --image-base URL for a table others can join"
    )
    return result


def _deck_name(studio: Studio, section: str, group: list[ExportItem]) -> str:
    """What a deck holds, as a player reads it at the table: its cards' kinds as the edition names
    them ('Creature, Spell'), up to three, else how many designs ('12 designs'); a section other
    than the main deck first ('sideboard: …', an `also:` face's 'randomizer: …')."""
    model = studio.model
    kinds: dict[str, None] = {}
    for item in group:
        for name in model.role_fields(Role.KIND):
            for value in item.card.values(name):
                if model.written(value):
                    kinds[model.shown_value(name, str(value))] = None
    designs = len({item.card.id for item in group})
    said = ", ".join(kinds) if 0 < len(kinds) <= 3 else f"{designs} design{'s' * (designs != 1)}"
    return f"{section}: {said}" if section != "main" else said

"""Turn a game's pack format into a Draftmancer custom card list: settings, custom cards, slots and
copies."""

from __future__ import annotations

import json

from ..core.errors import CardgenError
from ..load.card import Card, file_stem
from ..model.game import GameModel, Role
from ..model.packs import load_format
from ..project.studio import Studio
from ..render.raster import render_pngs
from .common import ExportFile, ExportResult, card_type_line, cost_of, stats_of


def export_draftmancer(studio: Studio, image_base: str = "images") -> ExportResult:
    result = ExportResult("draftmancer")
    model, catalog = studio.model, studio.catalog
    fmt = load_format(model, catalog)
    if fmt.mode == "setup":
        result.problems.append(
            f"the pack format '{fmt.name}' is a game setup (mode: setup): Draftmancer drafts "
            "boosters, so it needs a slots or exhaust format first in packs:"
        )
        return result
    slots: list[tuple[str, int | None, list[tuple[Card, int]]]]
    if fmt.mode == "exhaust":
        cards = [(c, n) for c, n in fmt.pool]
        slots = [("MainSlot", fmt.pack_size, cards)]
        layouts = None
    else:
        slots = [(name, None, list(zip(s.cards, s.weights))) for name, s in fmt.sheets.items()]
        layouts = {
            f"layout{i + 1}": {"weight": v.weight, "slots": {s.sheet: s.count for s in v.slots}}
            for i, v in enumerate(fmt.variants)
        }
    names: dict[str, str] = {}
    for _, _, entries in slots:
        for card, _ in entries:
            name = card.name or card.id
            if names.setdefault(name, card.id) != card.id:
                raise CardgenError(
                    f"two cards in the pack pool are named '{name}' ({card.where()}); "
                    "Draftmancer knows cards by name: rename one or give it an explicit name"
                )
    pool = {card.id: card for _, _, entries in slots for card, _ in entries}
    rules = [studio.faces.for_card(c) for c in pool.values()]
    backs = {rule.back.name for rule in rules if rule is not None and rule.back is not None}
    # cardgen's semantics in Draftmancer's terms: slot sheets are weights that never run out
    # (withReplacement), an exhaust run is a finite pool; duplicateProtection keeps copies out of
    # one pack
    settings = {
        "name": model.name,
        "boostersPerPlayer": fmt.packs_per_player,
        "withReplacement": fmt.mode == "slots",
        "colorBalance": False,
        "duplicateProtection": fmt.unique_in_pack,
    }
    for card in pool.values():
        for what, value, bad in (
            ("name", display_name(model, card), "(+"),
            ("id", card.id, "+ \t"),
        ):
            if any(ch in value for ch in bad) or value[:1].isdigit() and what == "name":
                result.problems.append(
                    f"'{value}' ({card.where()}): Draftmancer cannot read a card {what} with "
                    f"{' or '.join(repr(c) for c in bad.strip() or bad)} in a slot line"
                    + (" or starting with a digit" if what == "name" else "")
                )
    rarity_map = {
        str(k).lower(): v for k, v in ((model.draftmancer or {}).get("rarities") or {}).items()
    }
    fallback = (model.draftmancer or {}).get("default_rarity", "common")
    defaulted: list[str] = []
    if layouts:
        settings["layouts"] = layouts
    if len(backs) == 1:
        settings["cardBack"] = f"{image_base}/back.png"
    custom = []
    for card in pool.values():
        entry: dict[str, object] = {
            "name": display_name(model, card),
            "mana_cost": "",
            "type": card_type_line(studio, card) or "Card",
            "image_uris": {"en": f"{image_base}/{file_stem(card.id)}.png"},
            "set": "custom",
            "collector_number": card.id,
        }
        written = model.written(model.role_value(card, Role.RARITY)).lower()
        rarity = rarity_map.get(written) or (written if written in RARITIES else "")
        if not rarity:
            defaulted.append(display_name(model, card))
        entry.update(rarity=rarity or fallback)
        cost = model.written(cost_of(studio, card))
        text = "\n".join(
            x
            for x in (
                f"Cost: {cost}" if cost else "",
                model.written(model.role_value(card, Role.TEXT)),
            )
            if x
        )
        if text:
            entry["oracle_text"] = text
        stats = stats_of(studio, card)
        if stats:
            entry["power"], entry["toughness"] = stats
        custom.append(entry)
    out = [
        "[Settings]",
        json.dumps(settings, indent=2, ensure_ascii=False),
        "[CustomCards]",
        json.dumps(custom, indent=2, ensure_ascii=False),
    ]
    for name, count, entries in slots:
        out.append(f"[{name}({count})]" if count else f"[{name}]")
        out += [
            f"{n} {display_name(model, card)} (custom) {card.id}" for card, n in entries
        ]  # matched by id
    result.files.append(
        ExportFile(
            f"{studio.game}.draftmancer.txt",
            "\n".join(out) + "\n",
            f"custom card list ({fmt.name}, {fmt.mode})",
        )
    )
    faces = [studio.prepare(c, 0.0)[0] for c in pool.values()]
    for card, png in zip(pool.values(), render_pngs(faces, studio.fonts, model, dpi=200)):
        result.files.append(ExportFile(f"images/{file_stem(card.id)}.png", png))
    first = next(iter(pool.values()))
    back = studio.prepare(first, 0.0)[1]
    if back is not None:
        result.files.append(
            ExportFile(
                "images/back.png", next(iter(render_pngs([back], studio.fonts, model, dpi=200)))
            )
        )
    result.notes.append(
        f"image paths are '{image_base}/…': upload images/ there so Draftmancer can load them"
        if "://" in image_base
        else f"image paths are '{image_base}/…': upload the images and pass --image-base URL so "
        "Draftmancer can load them"
    )
    if defaulted:
        result.notes.append(
            f"{len(defaulted)} card(s) have no rarity Draftmancer knows (common, uncommon, rare, "
            "mythic, "
            f"special) and are exported as {fallback}: {', '.join(defaulted[:5])}"
            + (" …" if len(defaulted) > 5 else "")
            + " (map them with draftmancer.rarities)"
        )
    return result


RARITIES = (
    "common",
    "uncommon",
    "rare",
    "mythic",
    "special",
)  # the only ones Draftmancer's validator accepts


def display_name(model: GameModel, card: Card) -> str:
    return model.written(card.name) or card.id

"""Turn a game's cards into a Cockatrice version-4 card database (custom set) and pictures named by
card name."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..load.card import file_stem
from ..model.game import GameModel, Role
from ..project.studio import Studio
from ..render.raster import render_pngs
from .common import (
    ExportFile,
    ExportItem,
    ExportResult,
    cost_of,
    safe_stem,
    stats_of,
)


def set_code(studio: Studio) -> str:
    """The set's short name: the initials of the game's name ('HL' for Harbour Lights), or a
    one-word name's first three letters ('TID' for Tidebound: one letter says too little)."""
    words = [w for w in studio.model.name.replace(":", " ").split() if w[:1].isalnum()]
    if len(words) == 1:
        return "".join(c for c in words[0] if c.isalnum())[:3].upper()
    return ("".join(w[0] for w in words).upper() or "CG")[:6]


PICTURE_FORBIDDEN = '*<>:"\\?'  # Cockatrice removes these from a name to find its picture file


def picture_name(name: str) -> str | None:
    """The file name Cockatrice looks a card's picture up by (pics/CUSTOM/<corrected name>.png), or
    None when no file can have it (a slash, a control character)."""
    corrected = "".join(ch for ch in name if ch not in PICTURE_FORBIDDEN).strip()
    return corrected if corrected and safe_stem(corrected) is not None else None


def export_cockatrice(studio: Studio, items: list[ExportItem]) -> ExportResult:
    """A custom set: table rows, main types and colours from the model's `cockatrice:` section (rows
    default to 2 for cards with attack and health, else 1; no colours unless mapped), tokens as
    tokens with <related> from the cards whose text creates them, placeholders never exported."""
    result = ExportResult("cockatrice")
    model = studio.model
    config = model.cockatrice or {}
    rows, maintypes, colour_of = (
        config.get("rows") or {},
        config.get("maintypes") or {},
        config.get("colors") or {},
    )
    token_kinds, creates = set(config.get("tokens") or []), dict(config.get("creates") or {})
    code = set_code(studio)
    real = model.written
    seen: set[str] = set()
    unique = []
    for item in items:
        name = real(item.card.name) or item.card.id
        if name in seen:  # Cockatrice knows a card by its name
            result.notes.append(
                f"'{name}' appears twice ({item.card.where()}); Cockatrice keeps one card per name"
            )
            continue
        seen.add(name)
        unique.append(item)
    root = ET.Element("cockatrice_carddatabase", version="4")
    info = ET.SubElement(root, "info")
    ET.SubElement(info, "author").text = "cardgen"
    ET.SubElement(info, "sourceVersion").text = model.version
    set_el = ET.SubElement(ET.SubElement(root, "sets"), "set")
    for tag, value in (("name", code), ("longname", model.name), ("settype", "Custom")):
        ET.SubElement(set_el, tag).text = value
    cards_el = ET.SubElement(root, "cards")
    pictures: list[tuple[ExportItem, str]] = []
    for item in unique:
        card = item.card
        name = real(card.name) or card.id
        stem = picture_name(name)
        if stem is None:
            stem = file_stem(card.id)
            result.notes.append(
                f"'{name}' cannot be a picture file name; Cockatrice will not find {stem}.png "
                "by itself (rename the card, or add the picture by hand)"
            )
        picture = f"pics/CUSTOM/{stem}.png"
        pictures.append((item, picture))
        kinds = [
            _canonical(model, f, k)
            for f in model.role_fields(Role.KIND)
            for k in card.values(f)
            if real(k)
        ]
        factions = [
            _canonical(model, f, c)
            for f in model.role_fields(Role.FACTION)
            for c in card.values(f)
            if real(c)
        ]
        cost = real(cost_of(studio, card))
        parsed = model.parsed_cost(cost) if cost else None
        shown = [  # as the edition names them (a value's name@LANG)
            model.shown_value(f, v)
            for role in (Role.FACTION, Role.KIND)
            for f in model.role_fields(role)
            for v in (_canonical(model, f, c) for c in card.values(f) if real(c))
        ]
        props = [("type", " ".join(shown))]
        if kinds:
            kind_field = model.role_fields(Role.KIND)[-1]
            props.append(
                ("maintype", maintypes.get(kinds[-1], model.shown_value(kind_field, kinds[-1])))
            )
        if cost:
            props += [("manacost", cost), ("cmc", str(parsed.total if parsed else 0))]
        letters = "".join(dict.fromkeys(colour_of[f] for f in factions if f in colour_of))
        if letters:
            props.append(("colors", letters))
        stats = stats_of(studio, card)
        if stats:
            props.append(("pt", "/".join(map(str, stats))))
        el = ET.SubElement(cards_el, "card")
        ET.SubElement(el, "name").text = name
        text = real(model.role_value(card, Role.TEXT))
        ET.SubElement(el, "text").text = text
        prop = ET.SubElement(el, "prop")
        for key, value in props:
            ET.SubElement(prop, key).text = value
        rarity, number = (
            real(model.role_value(card, Role.RARITY)),
            real(model.role_value(card, Role.NUMBER)),
        )
        attrs = dict(rarity=rarity.lower()) if rarity else {}
        if number:
            attrs["num"] = number
        attrs["picurl"] = picture
        ET.SubElement(el, "set", attrs).text = code
        for phrase, token in creates.items():
            if phrase.lower() in text.lower() and token != name:
                ET.SubElement(el, "related", attach="attach").text = token
        if token_kinds & set(kinds):
            ET.SubElement(el, "token").text = "1"
        row = next((rows[k] for k in reversed(kinds) if k in rows), 2 if stats else 1)
        ET.SubElement(el, "tablerow").text = str(row)
    ET.indent(root, space="  ")
    xml = '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
    result.files.append(ExportFile(f"{code}.xml", xml, "card database (customsets folder)"))
    for (_, picture), png in zip(
        pictures, render_pngs([i.front for i, _ in pictures], studio.fonts, model, dpi=200)
    ):
        result.files.append(ExportFile(picture, png))
    result.notes.append(
        f"put {code}.xml in Cockatrice's customsets folder and pics/CUSTOM/ in its pictures folder"
    )
    return result


def _canonical(model: GameModel, field_name: str, value: object) -> str:
    """A vocabulary value as the model names it (an alias such as 'Phenomenon' becomes 'Power')."""
    term = model.term(field_name, str(value))
    return term.name if term else str(value)

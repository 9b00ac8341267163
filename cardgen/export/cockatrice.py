"""Turn a game's cards into a Cockatrice version-4 card database (custom set) and pictures named by card name."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from ..model.card import file_stem
from ..model.cost import parse_cost
from ..model.game import Role
from ..project import Studio
from ..render.raster import render_pngs
from .common import (
    ExportFile,
    ExportItem,
    ExportResult,
    card_type_line,
    cost_of,
    safe_stem,
    stats_of,
)


def set_code(studio: Studio) -> str:
    words = [w for w in studio.model.name.replace(":", " ").split() if w[:1].isalnum()]
    return ("".join(w[0] for w in words).upper() or "CG")[:6]


def export_cockatrice(studio: Studio, items: list[ExportItem]) -> ExportResult:
    result = ExportResult("cockatrice")
    code = set_code(studio)
    seen: set[str] = set()
    unique = []
    for item in items:
        name = item.card.name or item.card.id
        if name in seen:  # Cockatrice knows a card by its name
            result.notes.append(f"'{name}' appears twice ({item.card.where()}); Cockatrice keeps one card per name")
            continue
        seen.add(name)
        unique.append(item)
    root = ET.Element("cockatrice_carddatabase", version="4")
    info = ET.SubElement(root, "info")
    ET.SubElement(info, "author").text = "cardgen"
    ET.SubElement(info, "sourceVersion").text = studio.model.version
    set_el = ET.SubElement(ET.SubElement(root, "sets"), "set")
    for tag, value in (("name", code), ("longname", studio.model.name), ("settype", "Custom")):
        ET.SubElement(set_el, tag).text = value
    cards_el = ET.SubElement(root, "cards")
    for item in unique:
        card = item.card
        name = card.name or card.id
        stem = safe_stem(name)
        picture = f"pics/CUSTOM/{stem}.png" if stem else f"pics/CUSTOM/{file_stem(card.id)}.png"
        if stem is None:
            result.notes.append(f"'{name}' cannot be a file name on every system; its picture is {picture} "
                                f"and the set entry points at it")
        model = studio.model
        cost = cost_of(studio, card)
        parsed = parse_cost(cost, model.cost) if cost else None
        props = [("type", card_type_line(studio, card))]
        kinds = [str(k) for f in model.role_fields(Role.KIND) for k in card.values(f)]
        if kinds:
            props.append(("maintype", kinds[-1]))
        if cost:
            props += [("manacost", cost), ("cmc", str(parsed.total if parsed else 0))]
        colours = [str(c) for f in model.role_fields(Role.FACTION) for c in card.values(f)]
        if colours:
            props.append(("colors", "".join(c[:1] for c in colours)))
        stats = stats_of(studio, card)
        if stats:
            props.append(("pt", "/".join(map(str, stats))))
        el = ET.SubElement(cards_el, "card")
        ET.SubElement(el, "name").text = name
        ET.SubElement(el, "text").text = str(model.role_value(card, Role.TEXT) or "")
        prop = ET.SubElement(el, "prop")
        for key, value in props:
            ET.SubElement(prop, key).text = value
        rarity, number = model.role_value(card, Role.RARITY), model.role_value(card, Role.NUMBER)
        attrs = dict(rarity=str(rarity)) if rarity else {}
        if number:
            attrs["num"] = str(number)
        attrs["picurl"] = picture
        ET.SubElement(el, "set", attrs).text = code
        if "Token" in kinds:
            ET.SubElement(el, "token").text = "1"
        row = "0" if "Spell" in kinds or "Trick" in kinds else "2" if "Entity" in kinds or "Monster" in kinds else "1"
        ET.SubElement(el, "tablerow").text = row
    ET.indent(root, space="  ")
    xml = ET.tostring(root, encoding="unicode", xml_declaration=False)
    xml = '<?xml version="1.0" encoding="UTF-8"?>\n' + xml + "\n"
    result.files.append(ExportFile(f"{code}.xml", xml, "card database (customsets folder)"))
    for item, png in zip(unique, render_pngs([i.front for i in unique], studio.fonts, studio.model, dpi=200)):
        stem = safe_stem(item.card.name or item.card.id) or file_stem(item.card.id)
        result.files.append(ExportFile(f"pics/CUSTOM/{stem}.png", png))
    result.notes.append(f"put {code}.xml in Cockatrice's customsets folder and pics/CUSTOM/ in its pictures folder")
    return result

"""Turn a game's cards into a Cockatrice version-4 card database (custom set) and pictures named by card name."""
from __future__ import annotations

from xml.sax.saxutils import escape

from ..model.card import file_stem
from ..model.cost import parse_cost
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
    cards_xml = []
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
        kinds = [str(k) for f in model.role_fields("kind") for k in card.values(f)]
        if kinds:
            props.append(("maintype", kinds[-1]))
        if cost:
            props += [("manacost", cost), ("cmc", str(parsed.total if parsed else 0))]
        colours = [str(c) for f in model.role_fields("faction") for c in card.values(f)]
        if colours:
            props.append(("colors", "".join(c[:1] for c in colours)))
        stats = stats_of(studio, card)
        if stats:
            props.append(("pt", "/".join(map(str, stats))))
        text = str(card.get("text") or "")
        attrs = f' rarity="{escape(str(card.get("rarity")))}"' if card.get("rarity") else ""
        if card.get("number"):
            attrs += f' num="{escape(str(card.get("number")))}"'
        attrs += f' picurl="{escape(picture)}"'
        row = "0" if "Spell" in kinds or "Trick" in kinds else "2" if "Entity" in kinds or "Monster" in kinds else "1"
        token = "Token" in kinds
        cards_xml.append(
            "    <card>\n"
            f"      <name>{escape(name)}</name>\n"
            f"      <text>{escape(text)}</text>\n"
            "      <prop>\n" + "".join(f"        <{k}>{escape(v)}</{k}>\n" for k, v in props) + "      </prop>\n"
            f"      <set{attrs}>{escape(code)}</set>\n"
            + ("      <token>1</token>\n" if token else "")
            + f"      <tablerow>{row}</tablerow>\n"
            "    </card>\n")
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_carddatabase version="4">\n'
           f"  <info>\n    <author>cardgen</author>\n    <sourceVersion>{escape(studio.model.version)}</sourceVersion>\n"
           "  </info>\n  <sets>\n    <set>\n"
           f"      <name>{escape(code)}</name>\n      <longname>{escape(studio.model.name)}</longname>\n"
           "      <settype>Custom</settype>\n    </set>\n  </sets>\n  <cards>\n" + "".join(cards_xml)
           + "  </cards>\n</cockatrice_carddatabase>\n")
    result.files.append(ExportFile(f"{code}.xml", xml, "card database (customsets folder)"))
    for item, png in zip(unique, render_pngs([i.front for i in unique], studio.fonts, studio.model, dpi=200)):
        stem = safe_stem(item.card.name or item.card.id) or file_stem(item.card.id)
        result.files.append(ExportFile(f"pics/CUSTOM/{stem}.png", png))
    result.notes.append(f"put {code}.xml in Cockatrice's customsets folder and pics/CUSTOM/ in its pictures folder")
    return result

"""Turn cards into Tabletop Simulator deck sheets (10 x 7, the 70th slot hidden), a back image and a saved object."""
from __future__ import annotations

import io
import json

from PIL import Image

from ..model.game import Role
from ..project import Studio
from ..render.raster import render_pngs
from .common import ExportFile, ExportItem, ExportResult, card_type_line, cost_of

COLS, ROWS = 10, 7
PER_SHEET = COLS * ROWS - 1  # the last slot shows the hidden card
MAX_WIDTH = 4096


def export_tts(studio: Studio, items: list[ExportItem]) -> ExportResult:
    result = ExportResult("tts")
    w_pt, h_pt = items[0].front.width, items[0].front.height
    card_w = MAX_WIDTH // COLS
    card_h = round(card_w * h_pt / w_pt)
    dpi = card_w / (w_pt / 72)
    groups: dict[str, list[ExportItem]] = {}
    for item in items:  # one deck object per back: e.g. a main deck and a resource deck
        groups.setdefault(item.back.key if item.back else "", []).append(item)
    objects = []
    for g, group in enumerate(groups.values()):
        back_face = group[0].back
        label = back_face.template.name if back_face else "deck"
        faces = [it.front for it in group]
        pngs = list(render_pngs(faces + ([back_face] if back_face else []), studio.fonts, studio.model, dpi=round(dpi)))
        images = [_fit(png, card_w, card_h) for png in pngs]
        back_img = images[-1] if back_face else Image.new("RGB", (card_w, card_h), "#333333")
        back_name = f"{label}-back.png"
        result.files.append(ExportFile(back_name, _png(back_img), "card back"))
        custom: dict[str, dict] = {}
        contained, deck_ids = [], []
        for s in range(0, len(group), PER_SHEET):
            key = str(len(custom) + 1)
            chunk = images[s:s + PER_SHEET]
            sheet = Image.new("RGB", (card_w * COLS, card_h * ROWS), "#000000")
            for i, img in enumerate(chunk):
                sheet.paste(img, ((i % COLS) * card_w, (i // COLS) * card_h))
            sheet.paste(back_img, ((COLS - 1) * card_w, (ROWS - 1) * card_h))  # the hidden card
            name = f"{label}-sheet-{key}.png"
            result.files.append(ExportFile(name, _png(sheet), f"{len(chunk)} faces"))
            custom[key] = {"FaceURL": name, "BackURL": back_name, "NumWidth": COLS, "NumHeight": ROWS,
                           "BackIsHidden": True, "UniqueBack": False, "Type": 0}
            for i, item in enumerate(group[s:s + PER_SHEET]):
                card_id = int(key) * 100 + i
                for _ in range(item.copies):
                    deck_ids.append(card_id)
                    contained.append({
                        "Name": "Card", "Nickname": item.card.name or item.card.id,
                        "Description": _describe(studio, item), "CardID": card_id,
                        "CustomDeck": {key: custom[key]}, "Transform": _transform(0),
                    })
        objects.append({
            "Name": "DeckCustom", "Nickname": f"{studio.model.name} — {label}", "Description": "made with cardgen",
            "Transform": _transform(g * 3.0), "DeckIDs": deck_ids, "CustomDeck": custom,
            "ContainedObjects": contained,
        })
    saved = {"SaveName": studio.model.name, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
             "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects,
             "TabStates": {}, "VersionNumber": ""}
    result.files.append(ExportFile(f"{studio.game}.json", json.dumps(saved, indent=2, ensure_ascii=False) + "\n",
                                   "saved object (Saved Objects folder)"))
    result.notes.append("image paths in the JSON are relative: keep the files together, or replace them with "
                        "uploaded URLs (Tabletop Simulator: Modding > Cloud Manager)")
    return result


def _fit(png: bytes, w: int, h: int) -> Image.Image:
    with Image.open(io.BytesIO(png)) as im:
        return im.convert("RGB").resize((w, h), Image.Resampling.LANCZOS)


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def _transform(x: float) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def _describe(studio: Studio, item: ExportItem) -> str:
    card = item.card
    text = studio.model.role_value(card, Role.TEXT)
    lines = [x for x in (cost_of(studio, card), card_type_line(studio, card), str(text or "")) if x]
    return "\n".join(lines)

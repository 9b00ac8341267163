"""Turn cards into Tabletop Simulator deck sheets (10 x 7, the 70th slot hidden), a back image and a saved object."""
from __future__ import annotations

import io
import json
from typing import Callable

from PIL import Image

from ..model.game import Role
from ..project.studio import Studio
from ..render import imagefile
from ..render.raster import render_pngs
from .common import ExportFile, ExportItem, ExportResult, card_type_line, cost_of

COLS, ROWS = 10, 7
PER_SHEET = COLS * ROWS - 1  # the last slot shows the hidden card
MAX_WIDTH = 4096


def export_tts(studio: Studio, items: list[ExportItem], image_url: Callable[[str], str]) -> ExportResult:
    """One deck object per deck-list section, card back and card size (a main deck, a sideboard, a resource
    deck, tarot heroes), with CardIDs unique across the whole save (Tabletop Simulator reads CustomDeck key ×
    100 + slot) and each deck's own aspect and scale."""
    result = ExportResult("tts")
    groups: dict[tuple[str, str, tuple[float, float]], list[ExportItem]] = {}
    for item in items:
        groups.setdefault((item.section, item.back.key if item.back else "", (item.front.width, item.front.height)),
                          []).append(item)
    sizes = len({size for _, _, size in groups})
    objects = []
    next_key = 1
    for g, ((section, _, _), group) in enumerate(groups.items()):
        back_face = group[0].back
        label = "-".join(x for x in (section if section != "main" else "", back_face.template.name if back_face
                                     else "deck", group[0].front.template.name if sizes > 1 else "") if x)
        w_pt, h_pt = group[0].front.width, group[0].front.height  # this deck's own card size
        card_w = min(MAX_WIDTH // COLS, int(MAX_WIDTH / ROWS * w_pt / h_pt))  # the sheet stays within 4096 px
        card_h = min(round(card_w * h_pt / w_pt), MAX_WIDTH // ROWS)
        dpi = card_w / (w_pt / 72)
        faces = [it.front for it in group]
        pngs = list(render_pngs(faces + ([back_face] if back_face else []), studio.fonts, studio.model, dpi=round(dpi)))
        images = [_fit(png, card_w, card_h) for png in pngs]
        face_images = images[:len(faces)]
        back_img = images[-1] if back_face else Image.new("RGB", (card_w, card_h), "#333333")
        back_name = f"{label}-back.png"
        result.files.append(ExportFile(back_name, _png(back_img), "card back"))
        custom: dict[str, dict] = {}
        contained, deck_ids = [], []
        for s in range(0, len(group), PER_SHEET):
            key = str(next_key)
            next_key += 1
            chunk = face_images[s:s + PER_SHEET]
            sheet = Image.new("RGB", (card_w * COLS, card_h * ROWS), "#000000")
            for i, img in enumerate(chunk):
                sheet.paste(img, ((i % COLS) * card_w, (i // COLS) * card_h))
            sheet.paste(back_img, ((COLS - 1) * card_w, (ROWS - 1) * card_h))  # the hidden card
            name = f"{label}-sheet-{key}.png"
            result.files.append(ExportFile(name, _png(sheet), f"{len(chunk)} faces"))
            custom[key] = {"FaceURL": image_url(name), "BackURL": image_url(back_name), "NumWidth": COLS,
                           "NumHeight": ROWS, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
            for i, item in enumerate(group[s:s + PER_SHEET]):
                card_id = int(key) * 100 + i
                for _ in range(item.copies):
                    deck_ids.append(card_id)
                    contained.append({
                        "Name": "CardCustom", "Nickname": item.card.name or item.card.id,
                        "Description": _describe(studio, item), "CardID": card_id,
                        "CustomDeck": {key: custom[key]}, "Transform": _transform(0, w_pt, h_pt),
                    })
        if len(contained) == 1:  # a deck of one card is a card in Tabletop Simulator
            objects.append({**contained[0], "Transform": _transform(g * 3.0, w_pt, h_pt)})
            continue
        objects.append({
            "Name": "DeckCustom", "Nickname": f"{studio.model.name} — {label}", "Description": "made with cardgen",
            "Transform": _transform(g * 3.0, w_pt, h_pt), "DeckIDs": deck_ids, "CustomDeck": custom,
            "ContainedObjects": contained,
        })
    saved = {"SaveName": studio.model.name, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
             "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects,
             "TabStates": {}, "VersionNumber": ""}
    result.files.append(ExportFile(f"{studio.game}.json", json.dumps(saved, indent=2, ensure_ascii=False) + "\n",
                                   "saved object (Saved Objects folder)"))
    result.notes.append("images are linked as local files (only you see them in multiplayer): upload them and "
                        "export again with --image-base URL for a table others can join")
    return result


def _fit(png: bytes, w: int, h: int) -> Image.Image:
    with imagefile.opened(png, formats=("PNG",)) as im:  # cardgen's own PNG, opened as nothing else
        return im.convert("RGB").resize((w, h), Image.Resampling.LANCZOS)


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


POKER = (180.0, 252.0)  # points: the size Tabletop Simulator's card model has at scale 1


def _transform(x: float, w_pt: float = POKER[0], h_pt: float = POKER[1]) -> dict:
    """Scale a card model so a non-poker card (tarot, mini) has its true size and aspect on the table."""
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": round(w_pt / POKER[0], 4), "scaleY": 1.0, "scaleZ": round(h_pt / POKER[1], 4)}


def _describe(studio: Studio, item: ExportItem) -> str:
    card = item.card
    text = studio.model.role_value(card, Role.TEXT)
    lines = [x for x in (cost_of(studio, card), card_type_line(studio, card), str(text or "")) if x]
    return "\n".join(lines)

"""Turn cards and faces into the parts of a Tabletop Simulator save: deck sheets of faces with a
back image (or a sheet of each card's own back), fitted face images, PNG bytes, a card's transform
and description, the saved file around the objects on the table."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from typing import Any, Callable

from PIL import Image

from ..model.game import Role
from ..project.studio import Studio
from ..render import imagefile
from ..render.raster import render_pngs
from .common import ExportFile, ExportItem, card_type_line, cost_of

COLS, ROWS = 10, 7  # a deck sheet's grid, at most (Tabletop Simulator's largest)
PER_SHEET = COLS * ROWS - 1  # the last slot shows the hidden card


def grid_for(faces: int) -> tuple[int, int]:
    """The smallest grid (columns, rows) for `faces` and the hidden card's slot: at least 2 x 2,
    at most COLS x ROWS (Tabletop Simulator's limits), the wider of two of one area."""
    slots = faces + 1
    best = (COLS, ROWS)
    for rows in range(2, ROWS + 1):
        cols = max(2, -(-slots // rows))
        if cols <= COLS and cols * rows < best[0] * best[1]:
            best = (cols, rows)
    return best


def deck_sheet(
    faces: list[Image.Image], hidden: Image.Image, card_w: int, card_h: int, grid: tuple[int, int]
) -> Image.Image:
    """A deck sheet of `grid` (columns, rows) slots: the faces in order, and in the last slot the
    card Tabletop Simulator shows for a deck's unknown card."""
    cols, rows = grid
    sheet = Image.new("RGB", (card_w * cols, card_h * rows), "#000000")
    for i, img in enumerate(faces):
        sheet.paste(img, ((i % cols) * card_w, (i // cols) * card_h))
    sheet.paste(hidden, ((cols - 1) * card_w, (rows - 1) * card_h))
    return sheet


MAX_WIDTH = 4096  # pixels: a deck sheet stays within this


def back_group(studio: Studio, item: ExportItem) -> str:
    """What a card shares its deck sheets with: its back (a card's own second face: every card
    of that second template, each with its own back; an `also:` face has a shared back)."""
    if item.back is not None and not item.side and studio.own_back(item.card):
        return f"own:{item.back.template.file}"
    return item.back.key if item.back else ""


@dataclass
class Sheets:
    """The deck sheets of one group of cards (one back, or each its own, and one size): the files,
    the CustomDeck entries by key, and each card's (key, slot)."""

    files: list[ExportFile] = field(default_factory=list)
    custom: dict[str, dict[str, Any]] = field(default_factory=dict)
    slots: list[tuple[str, int]] = field(default_factory=list)


def deck_sheets(
    studio: Studio,
    group: list[ExportItem],
    label: str,
    unique: bool,
    image_url: Callable[[str], str],
    first_key: int,
) -> Sheets:
    """Sheets of 69 faces for `group` (cards of one size), CustomDeck keys counted from
    `first_key`: with a shared back, one back image (`LABEL-back.png`); with `unique` (each card's
    own second face), a back sheet per face sheet in the same grid (`LABEL-backs-KEY.png`, each
    card's back in its front's slot) and `UniqueBack`."""
    out = Sheets()
    back_face = group[0].back
    w_pt, h_pt = group[0].front.width, group[0].front.height  # this group's own card size
    card_w = min(MAX_WIDTH // COLS, int(MAX_WIDTH / ROWS * w_pt / h_pt))  # within 4096 px
    card_h = min(round(card_w * h_pt / w_pt), MAX_WIDTH // ROWS)
    faces = [it.front for it in group]
    seconds = [it.back for it in group if it.back is not None] if unique else []
    shared = [back_face] if back_face is not None and not unique else []
    pngs = list(
        render_pngs(
            faces + seconds + shared, studio.fonts, studio.model, dpi=round(card_w / (w_pt / 72))
        )
    )
    images = [_fit(png, card_w, card_h) for png in pngs]
    face_images = images[: len(faces)]
    back_images = images[len(faces) : len(faces) + len(seconds)]
    back_img = images[-1] if shared else Image.new("RGB", (card_w, card_h), "#333333")
    back_name = f"{label}-back.png"
    if not unique:
        out.files.append(ExportFile(back_name, _png(back_img), "card back"))
    for s in range(0, len(group), PER_SHEET):
        key = str(first_key + s // PER_SHEET)
        chunk = face_images[s : s + PER_SHEET]
        grid = grid_for(len(chunk))  # a small deck's sheet is no bigger than it needs
        name = f"{label}-sheet-{key}.png"
        sheet = deck_sheet(chunk, back_img, card_w, card_h, grid)
        out.files.append(ExportFile(name, _png(sheet), f"{len(chunk)} faces"))
        if unique:  # a back sheet in the same grid: each card's back in its front's slot
            back_name = f"{label}-backs-{key}.png"
            backs = deck_sheet(back_images[s : s + PER_SHEET], back_img, card_w, card_h, grid)
            out.files.append(ExportFile(back_name, _png(backs), f"{len(chunk)} second faces"))
        out.custom[key] = {
            "FaceURL": image_url(name),
            "BackURL": image_url(back_name),
            "NumWidth": grid[0],
            "NumHeight": grid[1],
            "BackIsHidden": True,
            "UniqueBack": unique,
            "Type": 0,
        }
        out.slots += [(key, i) for i in range(len(chunk))]
    return out


def saved_file(studio: Studio, objects: list[dict]) -> ExportFile:
    """The saved object: Tabletop Simulator's SaveState with these objects on the table."""
    saved = {
        "SaveName": studio.model.name,
        "GameMode": "",
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {},
        "VersionNumber": "",
    }
    return ExportFile(
        f"{studio.game}.json",
        json.dumps(saved, indent=2, ensure_ascii=False) + "\n",
        "saved object (Saved Objects folder)",
    )


def _fit(png: bytes, w: int, h: int) -> Image.Image:
    with imagefile.opened(png, formats=("PNG",)) as im:  # cardgen's own PNG, opened as nothing else
        return im.convert("RGB").resize((w, h), Image.Resampling.LANCZOS)


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


POKER = (180.0, 252.0)  # points: the size Tabletop Simulator's card model has at scale 1


def _transform(
    x: float, w_pt: float = POKER[0], h_pt: float = POKER[1], face_up: bool = False
) -> dict:
    """Scale a card model so a non-poker card (tarot, mini) has its true size and aspect on the
    table; face down (rotZ 180, a deck to draw from) unless `face_up` (a supply pile)."""
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 0.0 if face_up else 180.0,
        "scaleX": round(w_pt / POKER[0], 4),
        "scaleY": 1.0,
        "scaleZ": round(h_pt / POKER[1], 4),
    }


def _describe(studio: Studio, item: ExportItem) -> str:
    card = item.card
    text = studio.model.role_value(card, Role.TEXT)
    lines = [x for x in (cost_of(studio, card), card_type_line(studio, card), str(text or "")) if x]
    return "\n".join(lines)

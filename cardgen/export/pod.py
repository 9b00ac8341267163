"""Turn cards into print-on-demand uploads: exact-canvas PNGs (The Game Crafter, MakePlayingCards) with a
manifest of quantities, or one DriveThruCards PDF (a face per page, back before front, trim and bleed boxes)."""
from __future__ import annotations

import csv
import io

from ..model.card import file_stem
from ..project import Studio
from ..render.pdfsheets import define_forms, new_canvas
from ..render.raster import preset, render_pngs
from ..units import length
from .common import ExportFile, ExportItem, ExportResult

DTC_TRIM = (180.0, 252.0)  # DriveThruCards poker: 2.5 x 3.5 in trim
DTC_BLEED = length("0.125in")  # page = trim + 1/8 in on each side: 198 x 270 pt


def export_png_preset(studio: Studio, items: list[ExportItem], name: str) -> ExportResult:
    p = preset(f"{name}-poker")
    result = ExportResult(name)
    faces, names = [], []
    backs: dict[str, str] = {}
    for item in items:
        faces.append(item.front)
        names.append(f"fronts/{file_stem(item.card.id)}.png")
        if item.back is not None and item.back.key not in backs:
            backs[item.back.key] = f"backs/{item.back.template.name}.png"
            faces.append(item.back)
            names.append(backs[item.back.key])
    for fname, png in zip(names, render_pngs(faces, studio.fonts, studio.model, p=p)):
        result.files.append(ExportFile(fname, png))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["front", "back", "quantity", "name"])
    for item in items:
        w.writerow([f"fronts/{file_stem(item.card.id)}.png", backs.get(item.back.key, "") if item.back else "", item.copies,
                    item.card.name])
    result.files.append(ExportFile("manifest.csv", buf.getvalue(), "quantities"))
    result.notes.append(f"{p.title}: {p.canvas[0]} x {p.canvas[1]} px at {p.dpi} dpi — {p.source}")
    return result


def dtc_bleed(trim: tuple[float, float]) -> tuple[float, float]:
    """Scale and bleed (in card units) that put the card's trim on DTC's 2.5 x 3.5 in trim."""
    scale = max(DTC_TRIM[0] / trim[0], DTC_TRIM[1] / trim[1])
    return scale, DTC_BLEED / scale


def export_dtc(studio: Studio, items: list[ExportItem]) -> ExportResult:
    """One PDF: each card's back, then its front, one face per page (198 x 270 pt), TrimBox and BleedBox set."""
    result = ExportResult("dtc")
    scale, bleed = dtc_bleed((items[0].front.width, items[0].front.height))
    faces = {}
    pages = []
    for item in items:
        front, back = studio.prepare(item.card, bleed)
        faces[front.key] = front
        if back is not None:
            faces[back.key] = back
        for _ in range(item.copies):
            if back is not None:
                pages.append(back)
            pages.append(front)
    page_w, page_h = DTC_TRIM[0] + 2 * DTC_BLEED, DTC_TRIM[1] + 2 * DTC_BLEED
    buffer = io.BytesIO()
    c = new_canvas(buffer, (page_w, page_h), studio.model.name, "DriveThruCards upload", studio.fonts)
    define_forms(c, faces, studio.fonts, studio.model)
    for face in pages:
        c.setTrimBox((DTC_BLEED, DTC_BLEED, DTC_BLEED + DTC_TRIM[0], DTC_BLEED + DTC_TRIM[1]))
        c.setBleedBox((0, 0, page_w, page_h))
        c.saveState()
        fw, fh = (face.width + 2 * face.bleed) * scale, (face.height + 2 * face.bleed) * scale
        c.translate((page_w - fw) / 2, (page_h - fh) / 2)
        c.scale(scale, scale)
        c.doForm(f"F{face.key}")
        c.restoreState()
        c.showPage()
    c.save()
    result.files.append(ExportFile(f"{studio.game}-drivethrucards.pdf", buffer.getvalue(),
                                   f"{len(pages)} pages, back before front"))
    result.notes.append("DriveThruCards poker: page = 2.5 x 3.5 in trim + 1/8 in bleed (198 x 270 pt), one face per "
                        "page, each card's back before its front; fonts embedded")
    return result

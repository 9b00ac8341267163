"""Turn cards into print-on-demand uploads, each card size on the vendor's own product: exact-canvas PNGs (The
Game Crafter, MakePlayingCards) with a manifest of quantities, or DriveThruCards PDFs (one per product, a face
per page, back before front, trim and bleed boxes)."""
from __future__ import annotations

import csv
import io

from ..load.card import file_stem
from ..printrun.printing import vendor_canvases
from ..project.studio import Studio
from ..render.face import PreparedFace
from ..render.pdfsheets import define_forms, new_canvas
from ..render.press import CONDITION, flatten
from ..render.raster import render_pngs
from ..render.vendors import IN, Canvas, bleed_for, vendor
from .common import ExportFile, ExportItem, ExportResult


def by_product(studio: Studio, items: list[ExportItem], vendor_key: str, result: ExportResult) \
        -> dict[Canvas, list[ExportItem]]:
    """Items grouped by the vendor product their card size matches; sizes it does not sell become problems."""
    canvases, refused = vendor_canvases(studio, vendor_key, [item.card for item in items])
    result.problems.extend(refused)
    groups: dict[Canvas, list[ExportItem]] = {}
    for item in items:
        if item.card.id in canvases:
            groups.setdefault(canvases[item.card.id], []).append(item)
    return {} if refused else groups


def _prepared(studio: Studio, item: ExportItem, c: Canvas) -> tuple[PreparedFace, PreparedFace | None]:
    return studio.prepare(item.card, bleed_for(c, (item.front.width, item.front.height))[1])


def export_png_preset(studio: Studio, items: list[ExportItem], vendor_key: str) -> ExportResult:
    """One PNG per front and per back, each on its product's exact canvas, and manifest.csv of quantities."""
    result = ExportResult(vendor_key)
    rows = []
    for c, group in by_product(studio, items, vendor_key, result).items():
        fronts: dict[str, PreparedFace] = {}
        backs: dict[str, PreparedFace] = {}
        for item in group:
            front, back = _prepared(studio, item, c)
            fronts[f"fronts/{file_stem(item.card.id)}.png"] = front
            if back is not None:
                backs.setdefault(f"backs/{back.template.name}.png", back)
            rows.append([f"fronts/{file_stem(item.card.id)}.png", f"backs/{back.template.name}.png" if back else "",
                         item.copies, item.card.name, c.product.name])
        for faces in (fronts, backs):  # a back is of its front's size: vendor_canvases refused it otherwise
            for fname, png in zip(faces, render_pngs(list(faces.values()), studio.fonts, studio.model, p=c)):
                result.files.append(ExportFile(fname, png))
        result.notes.append(f"{c.title}: {c.canvas[0]} x {c.canvas[1]} px at {c.vendor.dpi} dpi, {len(fronts)} "
                            f"designs" + (f", printed at {c.scale:.3f} x their size" if abs(c.scale - 1) > 1e-3
                                          else ""))
    if result.problems:
        return result
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["front", "back", "quantity", "name", "product"])
    w.writerows(rows)
    result.files.append(ExportFile("manifest.csv", buf.getvalue(), "quantities and products"))
    result.notes.append(vendor(vendor_key).source)
    return result


def export_dtc(studio: Studio, items: list[ExportItem], press: bool = True) -> ExportResult:
    """One PDF per DriveThruCards product: each card's back, then its front, one face per page (trim + 1/8 in
    bleed), TrimBox and BleedBox set; with `press`, PDF/X-1a:2003 (CMYK, no transparency, output intent)."""
    result = ExportResult("dtc")
    for c, group in by_product(studio, items, "dtc", result).items():
        trim = c.product.trim
        bleed_pt = IN / 8
        faces: dict[str, PreparedFace] = {}
        pages = []
        for item in group:
            scale = max(trim[0] / item.front.width, trim[1] / item.front.height)
            front, back = studio.prepare(item.card, bleed_pt / scale + 0.5)
            if press:
                front, back = flatten(front), flatten(back) if back is not None else None
            faces[front.key] = front
            if back is not None:
                faces[back.key] = back
            for _ in range(item.copies):
                pages.extend([(back, scale)] if back is not None else [])
                pages.append((front, scale))
        page_w, page_h = trim[0] + 2 * bleed_pt, trim[1] + 2 * bleed_pt
        buffer = io.BytesIO()
        canvas = new_canvas(buffer, (page_w, page_h), studio.model.name, f"DriveThruCards upload, {c.product.name}",
                            studio.fonts, press=press)
        define_forms(canvas, faces, studio.fonts, studio.model, studio.renderer.recordings)
        for face, scale in pages:
            canvas.setTrimBox((bleed_pt, bleed_pt, bleed_pt + trim[0], bleed_pt + trim[1]))
            canvas.setBleedBox((0, 0, page_w, page_h))
            canvas.saveState()
            canvas.translate(page_w / 2 - (face.width / 2 + face.bleed) * scale,
                             page_h / 2 - (face.height / 2 + face.bleed) * scale)
            canvas.scale(scale, scale)
            canvas.doForm(f"F{face.key}")
            canvas.restoreState()
            canvas.showPage()
        canvas.save()
        suffix = "" if c.product.name == "poker" else f"-{c.product.name}"
        result.files.append(ExportFile(f"{studio.game}-drivethrucards{suffix}.pdf", buffer.getvalue(),
                                       f"{len(pages)} pages, {c.product.name}, back before front"))
        result.notes.append(f"DriveThruCards {c.product.name}: page = trim + 1/8 in bleed "
                            f"({page_w:.0f} x {page_h:.0f} pt), one face per page, each card's back before its "
                            f"front; fonts embedded"
                            + ("; PDF/X-1a:2003, CMYK for " + CONDITION if press else "; RGB (--no-press)"))
    return result

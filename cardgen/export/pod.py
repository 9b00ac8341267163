"""Turn cards into print-on-demand uploads, each card size on the vendor's own product: exact-canvas
PNGs (The Game Crafter, MakePlayingCards) with a manifest of quantities, or DriveThruCards PDFs (one
per product, a face per page, back before front, trim and bleed boxes); a landscape card on its
portrait product, turned 90 degrees."""

from __future__ import annotations

import csv
import io

from ..load.card import file_stem
from ..printrun.pngs import rotated_png, rotation_notes, vendor_canvases
from ..project.studio import Studio
from ..render.pdfsheets import define_forms, new_canvas
from ..render.prepared import PreparedFace
from ..render.press import CONDITION, flatten
from ..render.raster import render_pngs
from ..render.vendors import BACK_TURN, FRONT_TURN, IN, Canvas, bleed_for, vendor
from .common import ExportFile, ExportItem, ExportResult, item_faces


def by_product(
    studio: Studio, items: list[ExportItem], vendor_key: str, result: ExportResult
) -> dict[Canvas, list[ExportItem]]:
    """Items grouped by the vendor product their card size matches (a landscape card: its portrait
    product, turned). The cards of a size it does not sell are left out and named (`refused`: the
    others are still written); when that is every card, nothing is (`problems`). The summary says
    which cards are turned."""
    canvases, refused = vendor_canvases(studio, vendor_key, [item.card for item in items])
    groups: dict[Canvas, list[ExportItem]] = {}
    for item in items:
        if item.card.id in canvases:
            groups.setdefault(canvases[item.card.id], []).append(item)
    if refused and not groups:
        result.problems.extend(r.reason for r in refused)
        return {}
    result.refused.extend(r.finding(vendor_key) for r in refused)
    turned = list({i.card.id: i.card for i in items if i.card.id in canvases}.values())
    result.notes.extend(
        rotation_notes(studio, [c for c in turned if canvases[c.id].rotated], canvases)
    )
    return groups


def _prepared(
    studio: Studio, item: ExportItem, c: Canvas
) -> tuple[PreparedFace, PreparedFace | None]:
    return item_faces(studio, item, bleed_for(c, (item.front.width, item.front.height))[1])


def _own_size(studio: Studio, items: list[ExportItem], result: ExportResult) -> list[ExportItem]:
    """The items a card's product can print: an `also:` face of another size than its card's front
    is left out, and the notes say so."""
    fronts = {i.card.id: i.front for i in items if not i.side}
    kept: list[ExportItem] = []
    left: list[ExportItem] = []
    for item in items:
        front = fronts.get(item.card.id)
        same = front is None or (
            abs(front.width - item.front.width) < 0.2
            and abs(front.height - item.front.height) < 0.2
        )
        (kept if same else left).append(item)
    if left:
        result.notes.append(
            f"{len(left)} also: face{'s' * (len(left) != 1)} of another size than its card left "
            f"out ({', '.join(f'{i.card.name} {i.side}' for i in left[:5])}): print them with "
            "cardgen sheets or export --png"
        )
    return kept


def export_png_preset(studio: Studio, items: list[ExportItem], vendor_key: str) -> ExportResult:
    """One PNG per front and per back, each on its product's exact canvas, and manifest.csv of
    quantities."""
    result = ExportResult(vendor_key)
    rows = []
    items = _own_size(studio, items, result)
    for c, group in by_product(studio, items, vendor_key, result).items():
        fronts: dict[str, PreparedFace] = {}
        backs: dict[str, PreparedFace] = {}
        designs = 0
        for item in group:
            front, back = _prepared(studio, item, c)
            stem = file_stem(item.card.id) + (f"-{item.side}" if item.side else "")
            designs += not item.side and f"fronts/{stem}.png" not in fronts
            fronts[f"fronts/{stem}.png"] = front
            # a card's own second face is a back of its own, named by the card
            back_file = (
                f"backs/{stem}.png"
                if back is not None and not item.side and studio.own_back(item.card)
                else f"backs/{back.template.name}.png"
                if back is not None
                else ""
            )
            if back is not None:
                backs.setdefault(back_file, back)
            rows.append(
                [
                    f"fronts/{stem}.png",
                    back_file,
                    item.copies,
                    f"{item.card.name} ({item.side})" if item.side else item.card.name,
                    c.product.name,
                ]
            )
        # a back is of its front's size (vendor_canvases refused it otherwise); a landscape
        # card's front turns clockwise onto the portrait canvas, its back counter-clockwise
        for faces, turn in ((fronts, FRONT_TURN), (backs, BACK_TURN)):
            for fname, png in zip(
                faces, render_pngs(list(faces.values()), studio.fonts, studio.model, p=c)
            ):
                png = rotated_png(png, turn, c.vendor.dpi) if c.rotated else png
                result.files.append(ExportFile(fname, png))
        result.notes.append(
            f"{c.title}: {c.upload[0]} x {c.upload[1]} px at {c.vendor.dpi} dpi, {designs} "
            f"design{'s' * (designs != 1)}"
            + (f" and {len(fronts) - designs} also: faces" if len(fronts) > designs else "")
            + (" (landscape, turned onto the portrait canvas)" if c.rotated else "")
            + (f", printed at {c.scale:.3f} x their size" if abs(c.scale - 1) > 1e-3 else "")
        )
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
    """One PDF per DriveThruCards product: each card's back, then its front, one face per page (trim
    + 1/8 in bleed), TrimBox and BleedBox set; with `press`, PDF/X-1a:2003 (CMYK, no transparency,
    output intent)."""
    result = ExportResult("dtc")
    products: dict[str, list[tuple[Canvas, ExportItem]]] = {}  # one PDF per product, either way up
    items = _own_size(studio, items, result)
    for c, group in by_product(studio, items, "dtc", result).items():
        products.setdefault(c.product.name, []).extend((c, item) for item in group)
    for placed in products.values():
        c = placed[0][0]
        trim = c.product.trim
        bleed_pt = IN / 8
        faces: dict[str, PreparedFace] = {}
        pages = []
        turned = 0
        for canvas_of, item in placed:
            drawn = (trim[1], trim[0]) if canvas_of.rotated else trim  # the card's own way up
            turned += item.copies if canvas_of.rotated else 0
            scale = max(drawn[0] / item.front.width, drawn[1] / item.front.height)
            front, back = item_faces(studio, item, bleed_pt / scale + 0.5)
            if press:
                front, back = flatten(front), flatten(back) if back is not None else None
            faces[front.key] = front
            if back is not None:
                faces[back.key] = back
            rotated = canvas_of.rotated
            for _ in range(item.copies):
                pages.extend([(back, scale, BACK_TURN if rotated else 0)] if back else [])
                pages.append((front, scale, FRONT_TURN if rotated else 0))
        page_w, page_h = trim[0] + 2 * bleed_pt, trim[1] + 2 * bleed_pt
        buffer = io.BytesIO()
        canvas = new_canvas(
            buffer,
            (page_w, page_h),
            studio.model.name,
            f"DriveThruCards upload, {c.product.name}",
            studio.fonts,
            press=press,
        )
        define_forms(canvas, faces, studio.fonts, studio.model, studio.renderer.recordings)
        for face, scale, turn in pages:
            canvas.setTrimBox((bleed_pt, bleed_pt, bleed_pt + trim[0], bleed_pt + trim[1]))
            canvas.setBleedBox((0, 0, page_w, page_h))
            canvas.saveState()
            if turn:  # a landscape card on the portrait page, turned about its centre
                canvas.translate(page_w / 2, page_h / 2)
                canvas.rotate(turn)
                canvas.scale(scale, scale)
                canvas.translate(-(face.width / 2 + face.bleed), -(face.height / 2 + face.bleed))
            else:
                canvas.translate(
                    page_w / 2 - (face.width / 2 + face.bleed) * scale,
                    page_h / 2 - (face.height / 2 + face.bleed) * scale,
                )
                canvas.scale(scale, scale)
            canvas.doForm(f"F{face.key}")
            canvas.restoreState()
            canvas.showPage()
        canvas.save()
        suffix = "" if c.product.name == "poker" else f"-{c.product.name}"
        result.files.append(
            ExportFile(
                f"{studio.game}-drivethrucards{suffix}.pdf",
                buffer.getvalue(),
                f"{len(pages)} pages, {c.product.name}, back before front"
                + (f", {turned} landscape cards turned onto portrait pages" if turned else ""),
            )
        )
        result.notes.append(
            f"DriveThruCards {c.product.name}: page = trim + 1/8 in bleed "
            f"({page_w:.0f} x {page_h:.0f} pt), one face per page, each card's back before its "
            f"front; fonts embedded"
            + ("; PDF/X-1a:2003, CMYK for " + CONDITION if press else "; RGB (--no-press)")
        )
    return result

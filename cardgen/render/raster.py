"""Turn prepared faces into PNG files by rasterizing the same vector faces with pypdfium2, on all cores."""
from __future__ import annotations

import io
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Iterator

from ..errors import CardgenError, ignore_interrupts, suggest
from ..model.game import GameModel
from .face import PreparedFace
from .fonts import FontSet
from .pdfsheets import define_forms, new_canvas


@dataclass(frozen=True)
class Preset:
    """A print-on-demand canvas: the image size with bleed, the trim inside it, and the DPI it is meant at."""

    title: str
    canvas: tuple[int, int]
    trim: tuple[int, int]
    dpi: int
    source: str


PRESETS: dict[str, Preset] = {
    "tgc-poker": Preset("The Game Crafter, poker deck", (825, 1125), (750, 1050), 300,
                        "The Game Crafter poker card template: 825 x 1125 px with 1/8 in bleed at 300 dpi; "
                        "keep text 75 px from the image edge"),
    "mpc-poker": Preset("MakePlayingCards / PrinterStudio, poker", (822, 1122), (750, 1050), 300,
                        "MakePlayingCards poker card: 822 x 1122 px at 300 dpi (36 px = 3.048 mm bleed per side)"),
}


def preset(name: str) -> Preset:
    if name not in PRESETS:
        raise CardgenError(suggest(f"unknown preset '{name}' (presets: {', '.join(PRESETS)})", name, list(PRESETS)))
    return PRESETS[name]


def bleed_for(p: Preset, trim_pt: tuple[float, float]) -> tuple[float, float]:
    """(points per pixel scale, bleed in points) that make a card's trim cover the preset's trim exactly."""
    scale = max(p.trim[0] / trim_pt[0], p.trim[1] / trim_pt[1])
    bleed = max((p.canvas[0] / scale - trim_pt[0]) / 2, (p.canvas[1] / scale - trim_pt[1]) / 2)
    return scale, bleed + 0.5 / scale


def faces_pdf(faces: list[PreparedFace], fonts: FontSet, model: GameModel) -> bytes:
    """One page per face, the page being the face's bleed box."""
    buffer = io.BytesIO()
    first = faces[0]
    c = new_canvas(buffer, (first.width + 2 * first.bleed, first.height + 2 * first.bleed), model.name, "card faces", fonts)
    define_forms(c, {f.key: f for f in faces}, fonts, model)
    for face in faces:
        c.setPageSize((face.width + 2 * face.bleed, face.height + 2 * face.bleed))
        c.doForm(f"F{face.key}")
        c.showPage()
    c.save()
    return buffer.getvalue()


def _render_range(pdf: bytes, pages: list[int], scale: float, canvas: tuple[int, int] | None, dpi: int) -> list[bytes]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    out = []
    for index in pages:
        image = doc[index].render(scale=scale, draw_annots=False).to_pil().convert("RGB")
        if canvas is not None:  # centre-crop to the exact canvas the vendor's uploader checks
            w, h = image.size
            left, top = (w - canvas[0]) // 2, (h - canvas[1]) // 2
            image = image.crop((left, top, left + canvas[0], top + canvas[1]))
        buf = io.BytesIO()
        image.save(buf, format="PNG", dpi=(dpi, dpi))
        out.append(buf.getvalue())
    doc.close()
    return out


def render_pngs(faces: list[PreparedFace], fonts: FontSet, model: GameModel, *, dpi: int = 300,
                p: Preset | None = None, workers: int | None = None) -> Iterator[bytes]:
    """PNG bytes for each face, in order. Faces must have been prepared with the preset's bleed."""
    if not faces:
        return iter(())
    pdf = faces_pdf(faces, fonts, model)
    scale = (bleed_for(p, (faces[0].width, faces[0].height))[0] if p else dpi / 72.0)
    canvas = p.canvas if p else None
    out_dpi = p.dpi if p else dpi
    workers = workers or min(os.cpu_count() or 1, 8)
    indices = list(range(len(faces)))
    if workers <= 1 or len(faces) < 32:  # below this, starting worker processes costs more than it saves
        return iter(_render_range(pdf, indices, scale, canvas, out_dpi))
    chunks = [indices[i::workers] for i in range(workers)]

    def ordered() -> Iterator[bytes]:
        with ProcessPoolExecutor(workers, mp_context=get_context("spawn"), initializer=ignore_interrupts) as pool:
            results = list(pool.map(_render_range, [pdf] * len(chunks), chunks, [scale] * len(chunks),
                                    [canvas] * len(chunks), [out_dpi] * len(chunks)))
        by_index: dict[int, bytes] = {}
        for chunk, images in zip(chunks, results):
            by_index.update(zip(chunk, images))
        for i in indices:
            yield by_index[i]
    return ordered()


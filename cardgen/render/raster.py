"""Turn prepared faces into PNG files by rasterizing the same vector faces with pypdfium2, on all cores."""
from __future__ import annotations

import io
import struct
import zlib
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any, Iterator

from ..core.errors import ignore_interrupts
from ..model.game import GameModel
from ..speed.parallel import forkable
from ..speed.parallel import workers as pool_workers
from .face import PreparedFace
from .fonts import FontSet
from .pdfsheets import define_forms, new_canvas
from .pen import Recordings
from .vendors import Canvas, bleed_for

PNG_LEVEL = 1  # zlib level: 6 (the default) took two thirds of the time per face for files ~25 % smaller


def png_bytes(image: Any, dpi: int) -> bytes:
    """An RGB image as PNG: rows unfiltered, deflated at level 1, resolution in pHYs. Half the time of Pillow's
    encoder (which tries five filters on every row) and, for card faces' flat colours, slightly smaller."""
    width, height = image.size
    pixels = image.convert("RGB").tobytes() if image.mode != "RGB" else image.tobytes()
    stride = width * 3
    rows = b"".join(b"\0" + pixels[y:y + stride] for y in range(0, stride * height, stride))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    per_metre = round(dpi / 0.0254)
    return b"".join((b"\x89PNG\r\n\x1a\n",
                     chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
                     chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)),
                     chunk(b"IDAT", zlib.compress(rows, PNG_LEVEL)),
                     chunk(b"IEND", b"")))


def faces_pdf(faces: list[PreparedFace], fonts: FontSet, model: GameModel, recordings: Recordings | None = None) -> bytes:
    """One page per face, the page being the face's bleed box."""
    buffer = io.BytesIO()
    first = faces[0]
    c = new_canvas(buffer, (first.width + 2 * first.bleed, first.height + 2 * first.bleed), model.name, "card faces", fonts)
    define_forms(c, {f.key: f for f in faces}, fonts, model, recordings)
    for face in faces:
        c.setPageSize((face.width + 2 * face.bleed, face.height + 2 * face.bleed))
        c.doForm(f"F{face.key}")
        c.showPage()
    c.save()
    return buffer.getvalue()


JPEG_QUALITY = 92  # with full-resolution colour (no 4:2:0 subsampling): no visible artefact on type in print


def _render_range(pdf: bytes, pages: list[int], scale: float, canvas: tuple[int, int] | None, dpi: int,
                  jpeg: bool = False) -> list[bytes]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    out = []
    for index in pages:
        image = doc[index].render(scale=scale, draw_annots=False, rev_byteorder=True).to_pil()
        if canvas is not None:  # centre-crop to the exact canvas the vendor's uploader checks
            w, h = image.size
            left, top = (w - canvas[0]) // 2, (h - canvas[1]) // 2
            image = image.crop((left, top, left + canvas[0], top + canvas[1]))
        if jpeg:
            buf = io.BytesIO()
            image.save(buf, format="JPEG", quality=JPEG_QUALITY, subsampling=0, dpi=(dpi, dpi))
            out.append(buf.getvalue())
        else:
            out.append(png_bytes(image, dpi))
    doc.close()
    return out


def render_pngs(faces: list[PreparedFace], fonts: FontSet, model: GameModel, *, dpi: int = 300,
                p: Canvas | None = None, workers: int | None = None,
                recordings: Recordings | None = None, jpeg: bool = False) -> Iterator[bytes]:
    """PNG bytes for each face, in order (`jpeg`: JPEG, for pictures a PDF embeds as they are). With a vendor
    canvas, every face must be of one card size and prepared with the canvas's bleed (`vendors.bleed_for`)."""
    if not faces:
        return iter(())
    pdf = faces_pdf(faces, fonts, model, recordings)
    if p is not None and len({(f.width, f.height) for f in faces}) > 1:
        raise ValueError("render_pngs with a vendor canvas needs faces of one size")
    scale = bleed_for(p, (faces[0].width, faces[0].height))[0] if p else dpi / 72.0  # pixels per point
    canvas = p.canvas if p else None
    out_dpi = p.vendor.dpi if p else dpi
    workers = workers or pool_workers(8)
    indices = list(range(len(faces)))
    if workers <= 1 or len(faces) < 32:  # below this, starting worker processes costs more than it saves
        return iter(_render_range(pdf, indices, scale, canvas, out_dpi, jpeg))
    chunks = [indices[i::workers] for i in range(workers)]

    def ordered() -> Iterator[bytes]:
        # fork starts a worker in milliseconds with the render stack already imported; spawn (re-importing
        # reportlab, pypdfium2 and Pillow, ~0.4 s per worker) only where forking is unsafe (speed.parallel.forkable)
        method = "fork" if forkable() else "spawn"
        with ProcessPoolExecutor(workers, mp_context=get_context(method), initializer=ignore_interrupts) as pool:
            results = list(pool.map(_render_range, [pdf] * len(chunks), chunks, [scale] * len(chunks),
                                    [canvas] * len(chunks), [out_dpi] * len(chunks), [jpeg] * len(chunks)))
        by_index: dict[int, bytes] = {}
        for chunk, images in zip(chunks, results):
            by_index.update(zip(chunk, images))
        for i in indices:
            yield by_index[i]
    return ordered()


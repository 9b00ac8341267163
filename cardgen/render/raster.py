"""Turn prepared faces into PNG files by rasterizing the same vector faces with pypdfium2, on all
cores."""

from __future__ import annotations

import io
import struct
import threading
import zlib
from typing import Any, Iterator

from ..model.game import GameModel
from ..speed.parallel import Pool, PoolLost
from ..speed.parallel import workers as pool_workers
from .fonts import FontSet
from .paint import paint_op
from .pdfsheets import define_forms, new_canvas
from .pen import Recordings
from .prepared import Op, PreparedFace
from .vendors import Canvas, bleed_for

PNG_LEVEL = (
    1  # zlib level: 6 (the default) took two thirds of the time per face for files ~25 % smaller
)


def png_bytes(image: Any, dpi: int) -> bytes:
    """An RGB image as PNG: rows unfiltered, deflated at level 1, resolution in pHYs. Half the time
    of Pillow's encoder (which tries five filters on every row) and, for card faces' flat colours,
    slightly smaller."""
    width, height = image.size
    pixels = image.convert("RGB").tobytes() if image.mode != "RGB" else image.tobytes()
    stride = width * 3
    rows = b"".join(b"\0" + pixels[y : y + stride] for y in range(0, stride * height, stride))
    return _png(width, height, rows, dpi)


def _png(width: int, height: int, rows: Any, dpi: int) -> bytes:
    """The PNG file of RGB `rows` (each opening with its filter byte, 0: none)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    per_metre = round(dpi / 0.0254)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
            chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)),
            chunk(b"IDAT", zlib.compress(rows, PNG_LEVEL)),
            chunk(b"IEND", b""),
        )
    )


def page_png(page: Any, scale: float, dpi: int) -> bytes:
    """A PDFium page rendered at `scale` as png_bytes would encode it (the same bytes), drawn
    straight into PNG rows: each row one byte after the last (the byte between them, the next
    row's filter byte, set to 0 after drawing), so the pixels are never copied before deflating
    (a quarter less time per 300 dpi face than image, bytes, rows)."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    drawn: dict[str, Any] = {}

    def into_rows(width: int, height: int, format: int, rev_byteorder: bool = False) -> Any:
        if format != pdfium_c.FPDFBitmap_BGR:  # a white, opaque page is always drawn as BGR
            raise ValueError(f"page_png: PDFium asked for pixel format {format}, not BGR")
        stride = width * 3 + 1
        rows = bytearray(1 + stride * height)  # row y at 1 + y * stride, its filter byte before
        view = (ctypes.c_ubyte * (stride * height)).from_buffer(rows, 1)
        drawn.update(rows=rows, width=width, height=height, stride=stride)
        return pdfium.PdfBitmap.new_native(
            width, height, format, rev_byteorder, buffer=view, stride=stride
        )

    bitmap = page.render(scale=scale, draw_annots=False, rev_byteorder=True, bitmap_maker=into_rows)
    bitmap.close()  # the buffer is ours: only PDFium's bitmap is let go
    del bitmap
    rows, height, stride = drawn["rows"], drawn["height"], drawn["stride"]
    rows[0 : height * stride : stride] = bytes(height)  # every row unfiltered
    with memoryview(rows) as whole:
        return _png(drawn["width"], height, whole[: height * stride], dpi)


def faces_pdf(
    faces: list[PreparedFace],
    fonts: FontSet,
    model: GameModel,
    recordings: Recordings | None = None,
) -> bytes:
    """One page per face, the page being the face's bleed box."""
    buffer = io.BytesIO()
    first = faces[0]
    c = new_canvas(
        buffer,
        (first.width + 2 * first.bleed, first.height + 2 * first.bleed),
        model.name,
        "card faces",
        fonts,
    )
    define_forms(c, {f.key: f for f in faces}, fonts, model, recordings)
    for face in faces:
        c.setPageSize((face.width + 2 * face.bleed, face.height + 2 * face.bleed))
        c.doForm(f"F{face.key}")
        c.showPage()
    c.save()
    return buffer.getvalue()


def face_images(
    pages: list[tuple[list[Op], PreparedFace]], fonts: FontSet, model: GameModel, dpi: float
) -> list[Any]:
    """Each page's ops drawn alone on white paper (its face's bleed box) and rasterised at `dpi`, as
    an RGB image: all in one PDF, opened once (the contrast guard's backgrounds). In place of the
    image of a page that could not be drawn or rasterised, the exception."""
    import pypdfium2 as pdfium
    from reportlab.pdfgen.canvas import Canvas as PdfCanvas

    buffer = io.BytesIO()
    c = PdfCanvas(buffer)
    out: list[Any] = []
    for ops, face in pages:
        c.setPageSize((face.width + 2 * face.bleed, face.height + 2 * face.bleed))
        alone = PreparedFace(face.key, face.template, face.width, face.height, face.bleed, ops)
        try:
            for op in ops:
                c.saveState()
                paint_op(c, op, alone, fonts, model)
                c.restoreState()
            out.append(None)
        except Exception as exc:  # this page only: the others are drawn and measured
            out.append(exc)
        c.showPage()
    c.save()
    try:
        with PDFIUM:
            doc = pdfium.PdfDocument(buffer.getvalue())
            for i, failed in enumerate(out):
                if failed is None:
                    try:
                        out[i] = doc[i].render(scale=dpi / 72, draw_annots=False).to_pil()
                        out[i] = out[i].convert("RGB")
                    except Exception as exc:
                        out[i] = exc
            doc.close()
    except Exception as exc:  # the whole document: every page's measure fails alike
        return [exc if isinstance(o, Exception) or o is None else o for o in out]
    return out


JPEG_QUALITY = (
    92  # with full-resolution colour (no 4:2:0 subsampling): no visible artefact on type in print
)


def _render_task(
    task: tuple[bytes, list[int], float, tuple[int, int] | None, int, bool],
) -> list[bytes]:
    """A helper process's share: `_render_range` of one chunk of pages."""
    return _render_range(*task)


def _render_range(
    pdf: bytes,
    pages: list[int],
    scale: float,
    canvas: tuple[int, int] | None,
    dpi: int,
    jpeg: bool = False,
) -> list[bytes]:
    with PDFIUM:
        return _render_locked(pdf, pages, scale, canvas, dpi, jpeg)


# PDFium is not thread-safe: a gallery server's rebuild and its layout inspector render in threads
PDFIUM = threading.Lock()


def _render_locked(
    pdf: bytes,
    pages: list[int],
    scale: float,
    canvas: tuple[int, int] | None,
    dpi: int,
    jpeg: bool,
) -> list[bytes]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    out = []
    for index in pages:
        if canvas is None and not jpeg:
            out.append(page_png(doc[index], scale, dpi))
            continue
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


def render_pngs(
    faces: list[PreparedFace],
    fonts: FontSet,
    model: GameModel,
    *,
    dpi: int = 300,
    p: Canvas | None = None,
    workers: int | None = None,
    recordings: Recordings | None = None,
    jpeg: bool = False,
) -> Iterator[bytes]:
    """PNG bytes for each face, in order (`jpeg`: JPEG, for pictures a PDF embeds as they are). With
    a vendor canvas, every face must be of one card size and prepared with the canvas's bleed
    (`vendors.bleed_for`)."""
    if not faces:
        return iter(())
    pdf = faces_pdf(faces, fonts, model, recordings)
    if p is not None and len({(f.width, f.height) for f in faces}) > 1:
        raise ValueError("render_pngs with a vendor canvas needs faces of one size")
    scale = (
        bleed_for(p, (faces[0].width, faces[0].height))[0] if p else dpi / 72.0
    )  # pixels per point
    canvas = p.canvas if p else None
    out_dpi = p.vendor.dpi if p else dpi
    workers = workers or pool_workers(8)
    indices = list(range(len(faces)))
    # below 32 faces, starting helper processes costs more than it saves. Forked helpers start in
    # milliseconds with the render stack already imported; spawned ones (re-importing reportlab,
    # pypdfium2 and Pillow, ~0.4 s each) only where forking is unsafe (speed.parallel.forkable)
    pool: Pool[list[bytes]] | None = (
        Pool.start(workers, spawn=True) if workers > 1 and len(faces) >= 32 else None
    )
    if pool is None:
        return iter(_render_range(pdf, indices, scale, canvas, out_dpi, jpeg))
    chunks = [indices[i::workers] for i in range(workers)]

    def ordered() -> Iterator[bytes]:
        try:
            with pool:
                pool.ask(
                    _render_task, [(pdf, chunk, scale, canvas, out_dpi, jpeg) for chunk in chunks]
                )
                results = pool.answers()
        except PoolLost:  # rendered here instead
            yield from _render_range(pdf, indices, scale, canvas, out_dpi, jpeg)
            return
        by_index: dict[int, bytes] = {}
        for chunk, images in zip(chunks, results):
            by_index.update(zip(chunk, images))
        for i in indices:
            yield by_index[i]

    return ordered()

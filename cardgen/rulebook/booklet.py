"""Turn a PDF into a saddle-stitched booklet: pad to a multiple of 4, then two pages per sheet side in fold order."""
from __future__ import annotations

import io

from pypdf import PageObject, PdfReader, PdfWriter, Transformation


def booklet_order(pages: int) -> list[tuple[int | None, int | None]]:
    """Sheet sides (left, right) as 0-based page indices; None is a blank page. Fronts and backs alternate."""
    n = -(-pages // 4) * 4
    sides = []
    for i in range(n // 4):
        sides.append((n - 1 - 2 * i, 2 * i))  # front: last, first
        sides.append((2 * i + 1, n - 2 - 2 * i))  # back: second, second-to-last
    return [(a if a < pages else None, b if b < pages else None) for a, b in sides]


def impose(pdf: bytes) -> bytes:
    reader = PdfReader(io.BytesIO(pdf))
    first = reader.pages[0]
    w, h = float(first.mediabox.width), float(first.mediabox.height)
    writer = PdfWriter()
    for left, right in booklet_order(len(reader.pages)):
        sheet = PageObject.create_blank_page(width=2 * w, height=h)
        for index, dx in ((left, 0.0), (right, w)):
            if index is not None:
                sheet.merge_transformed_page(reader.pages[index], Transformation().translate(dx, 0))
        writer.add_page(sheet)
    writer.add_metadata({"/Title": str(reader.metadata.title or "") if reader.metadata else "",
                         "/Creator": "cardgen booklet"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()

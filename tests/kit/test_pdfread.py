"""kit.pdfread on PDFs made here for the purpose: a page's size and resources inherited from its
page tree, lines stroked on the page against a face's own drawing (marked content), forms placed
and where they land, pictures through forms at the resolution they print, fonts embedded or not,
the document's title and text, and its page count as pypdf counts it."""

from __future__ import annotations

import io

import pikepdf
import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from cardgen.kit.pdfread import page_count, read_pdf
from cardgen.render.replay import FACE_TAG


def _canvas() -> tuple[Canvas, io.BytesIO]:
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(300, 400), invariant=1)
    c.setTitle("read back")
    return c, buffer


def _drawn() -> bytes:
    """Page 1: a dashed line and a solid one, a face drawn inline (its own stroke is no mark), a
    form placed twice (once clipped) holding a 100 x 50 px picture drawn 50 x 25 pt; page 2: text
    in Helvetica (not embedded)."""
    c, buffer = _canvas()
    c.setDash(3, 2)
    c.line(10, 10, 110, 10)
    c.setDash()
    c.setLineWidth(2)
    c.line(10, 20, 10, 120)
    code = c._code  # a face drawn on its page as render.replay.Replayer.inline marks it
    code.append(f"/{FACE_TAG} <</Key (abc) /BBox [0 0 40.0000 60.0000]>> BDC")
    code.append("q 1 0 0 1 200 300 cm 0 0 m 40 60 l S Q")
    code.append("EMC")
    c.beginForm("card", 0, 0, 60, 80)
    picture = Image.new("RGB", (100, 50), (200, 30, 30))
    c.drawImage(ImageReader(picture), 5, 5, 50, 25)
    c.endForm()
    c.saveState()
    c.translate(20, 200)
    c.doForm("card")
    c.restoreState()
    c.saveState()
    path = c.beginPath()
    path.rect(100, 100, 30, 30)
    c.clipPath(path, stroke=0)
    c.translate(100, 100)
    c.scale(0.5, 0.5)
    c.doForm("card")
    c.restoreState()
    c.showPage()
    c.setFont("Helvetica", 12)
    c.drawString(20, 20, "Every card")
    c.showPage()
    c.save()
    return buffer.getvalue()


def test_lines_forms_faces_pictures_and_fonts_read_back() -> None:
    data = _drawn()
    read = read_pdf(data, text=True)
    assert read.size == len(data) and read.title == "read back"
    first, second = read.pages
    assert first.size == second.size == (300.0, 400.0)
    lines = [(ln.x1, ln.y1, ln.x2, ln.y2, ln.dashed, ln.width) for ln in first.lines]
    assert lines == [(10, 10, 110, 10, True, 1.0), (10, 20, 10, 120, False, 2.0)]
    face, whole, clipped = first.forms
    assert (face.name, face.bbox, face.painted) == ("/FormXob.Fabc", (0, 0, 40, 60), (0, 0, 40, 60))
    assert whole.name == clipped.name == "/FormXob.card"
    assert whole.painted == (20, 200, 80, 280) and whole.scale == 1
    assert clipped.painted == (100, 100, 130, 130) and clipped.scale == 0.5
    assert [round(p.dpi) for p in first.pictures] == [144, 288]  # 100 px over 50 pt, then 25 pt
    assert read.fonts == {"/Helvetica": False}
    assert "Every card" in second.text and not second.forms and not second.lines
    assert page_count(data) == 2 == len(PdfReader(io.BytesIO(data)).pages)


def test_size_and_resources_inherited_from_the_page_tree() -> None:
    """A page that names neither its /MediaBox nor its /Resources takes its parent's, as a
    reader must; a page with no content is read as empty."""
    source = pikepdf.open(io.BytesIO(_drawn()))
    pages = source.Root.Pages
    first = source.pages[0].obj
    pages.MediaBox = pikepdf.Array([0, 0, 612, 792])
    pages.Resources = first.Resources
    for page in source.pages:
        del page.obj["/MediaBox"]
    del first["/Resources"]
    del source.pages[1].obj["/Contents"]
    out = io.BytesIO()
    source.save(out)
    read = read_pdf(out.getvalue())
    assert [p.size for p in read.pages] == [(612.0, 792.0), (612.0, 792.0)]
    assert [round(p.dpi) for p in read.pages[0].pictures] == [144, 288]
    assert len(read.pages[0].forms) == 3 and len(read.pages[0].lines) == 2
    assert not read.pages[1].lines and not read.pages[1].forms


@pytest.mark.parametrize("count", [0, 3])
def test_page_count_reads_the_page_tree(count: int) -> None:
    c, buffer = _canvas()
    for _ in range(count):
        c.showPage()
    c.save()
    data = buffer.getvalue()
    assert page_count(data) == count == len(PdfReader(io.BytesIO(data)).pages)

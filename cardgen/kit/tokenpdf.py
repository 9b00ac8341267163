"""Turn tokens into token sheets: a grid per shape and size, each token drawn from its templates
and clipped to its shape, with its cut line (a circle, a hexagon; crop marks for squares), duplex
backs behind double-sided tokens, fold-over tokens front and back side by side."""

from __future__ import annotations

import io

from reportlab.lib.colors import black
from reportlab.pdfgen.canvas import Canvas

from ..project.studio import Studio
from ..render.pdfsheets import define_forms, new_canvas
from ..render.prepared import PreparedFace
from ..render.sheetframe import (
    back_angle,
    draw_fold_marks,
    fold_marks,
    frame,
    front_angle,
    local_size,
    to_local,
)
from ..render.sheetmarks import GREY, draw_marks
from ..render.sheets import back_slot, crop_marks
from .draw import CUT_WIDTH, LABEL_FONT, MM, SMALL_FONT, label
from .tokenplan import Band, TokenPage
from .tokens import TOKEN_BLEED, Token, TokenSet


def _shape_path(c: Canvas, token: Token, x: float, y: float, grow: float) -> object:
    """The token's shape at (x, y) (its cell's bottom-left corner), grown by `grow` all round."""
    w, h = token.cell
    path = c.beginPath()
    if token.shape == "round":
        path.circle(x + w / 2, y + h / 2, min(w, h) / 2 + grow)
        return path
    if token.shape == "hex":
        cx, cy = x + w / 2, y + h / 2
        scale = (w / 2 + grow * 2 / 3**0.5) / (w / 2)
        pts = [(cx + (px - cx) * scale, cy + (py - cy) * scale) for px, py in token.outline(x, y)]
    else:
        pts = [
            (x - grow, y - grow),
            (x + w + grow, y - grow),
            (x + w + grow, y + h + grow),
            (x - grow, y + h + grow),
        ]
    path.moveTo(*pts[0])
    for p in pts[1:]:
        path.lineTo(*p)
    path.close()
    return path


def _draw(
    c: Canvas,
    studio: Studio,
    token: Token,
    face: PreparedFace | None,
    x: float,
    y: float,
    clip: object,
) -> None:
    """One side of a token with its cell at (x, y): its face scaled to the cell, clipped."""
    w, h = token.cell
    c.saveState()
    c.clipPath(clip, stroke=0, fill=0)
    if face is not None:
        scale = min(w / face.width, h / face.height)
        c.translate(x + (w - face.width * scale) / 2, y + (h - face.height * scale) / 2)
        c.scale(scale, scale)
        c.translate(-face.bleed, -face.bleed)
        c.doForm(f"F{face.key}")
    else:
        c.setFillColor(black)
        label(
            c,
            studio.fonts,
            token.name,
            LABEL_FONT,
            9,
            x + w / 2,
            y + h / 2 - 3,
            w - 3 * MM,
            "centre",
        )
    c.restoreState()


def _cut(c: Canvas, token: Token, x: float, y: float) -> None:
    """The token's cut line: its circle or hexagon (squares are cut along their crop marks)."""
    if token.shape == "square":
        return
    c.saveState()
    c.setLineWidth(CUT_WIDTH)
    c.setStrokeColor(black)
    c.drawPath(_shape_path(c, token, x, y, 0.0), stroke=1, fill=0)
    c.restoreState()


def _side(c: Canvas, studio: Studio, band: Band, back: bool) -> None:
    spec, grid = band.spec, band.grid
    w = spec.card[0]
    for slot, token in zip(grid.slots, band.tokens):
        rect = back_slot(slot.trim, spec) if back else slot.trim
        paint = back_slot(slot.paint, spec) if back else slot.paint
        angle = back_angle(spec) if back else front_angle(spec)
        size = local_size(spec)
        local = to_local(paint, rect, angle, size)
        face = token.back if back else token.front
        with frame(c, rect, angle, size):
            if spec.layout == "fold":
                front_clip, back_clip = c.beginPath(), c.beginPath()
                front_clip.rect(local[0], local[1], w - local[0], local[3])
                back_clip.rect(w, local[1], local[0] + local[2] - w, local[3])
                _draw(c, studio, token, token.front, 0, 0, front_clip)
                _draw(c, studio, token, token.back, w, 0, back_clip)
                _cut(c, token, 0, 0)  # cut after folding and gluing
            elif spec.layout == "shared-cut":
                clip = c.beginPath()
                clip.rect(*local)
                _draw(c, studio, token, face, 0, 0, clip)
            else:
                _draw(c, studio, token, face, 0, 0, _shape_path(c, token, 0, 0, TOKEN_BLEED))
                if not back:
                    _cut(c, token, 0, 0)


HOW = {
    "fold": "cut each pair, fold on the dashed marks, glue, then cut the shape",
    "gutter": "cut along the outlines",
    "shared-cut": "cut along the marks",
}


def _caption(c: Canvas, studio: Studio, page: TokenPage, n: int, pages: int, back: bool) -> None:
    names = list(dict.fromkeys(t.name for band in page.bands for t in band.tokens))
    hows = list(dict.fromkeys(HOW[b.spec.layout] for b in page.bands))
    parts = [f"{studio.model.name} tokens", ", ".join(names), f"sheet {n} of {pages}"]
    if back:
        parts.append("backs")
    else:
        parts += hows + [
            "print at 100 %" + (", double-sided, flip on the long edge" if page.duplex else "")
        ]
    pw = page.bands[0].spec.paper[0]
    c.setFillColor(GREY)
    label(
        c,
        studio.fonts,
        "  ·  ".join(parts),
        SMALL_FONT,
        6.5,
        pw / 2,
        5.6 * MM,
        pw - 10 * MM,
        "centre",
    )


def write_tokens(studio: Studio, found: TokenSet, pages: list[TokenPage]) -> bytes:
    """The token sheets PDF: each sheet's fronts, then (when a band is double-sided) its backs."""
    buffer = io.BytesIO()
    title = f"{studio.model.name} tokens"
    paper = pages[0].bands[0].spec.paper
    c = new_canvas(buffer, paper, title, title, studio.fonts)
    faces = {f.key: f for t in found.tokens for f in (t.front, t.back) if f is not None}
    assert found.renderer is not None and found.model is not None
    define_forms(c, faces, studio.fonts, found.model, found.renderer.recordings)
    for n, page in enumerate(pages, 1):
        for band in page.bands:
            _side(c, studio, band, back=False)
            draw_marks(c, crop_marks(band.grid, band.spec))
            draw_fold_marks(c, fold_marks(band.grid, band.spec))
        _caption(c, studio, page, n, len(pages), back=False)
        c.showPage()
        if page.duplex:
            for band in page.bands:
                if band.spec.duplex != "none":
                    _side(c, studio, band, back=True)
            _caption(c, studio, page, n, len(pages), back=True)
            c.showPage()
    c.save()
    return buffer.getvalue()

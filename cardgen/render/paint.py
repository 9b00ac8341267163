"""Turn prepared face operations into reportlab drawing calls: shapes, fitted text, pictures.

Cost symbols are drawn by render.icons.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from ..model.game import GameModel
from . import imagefile
from . import richtext as rt
from .facetexts import badge_words, text_lines
from .fonts import FontSet
from .icons import draw_icon
from .prepared import OVERFLOW_RED, Op, PreparedFace
from .template import as_length
from .values import colour, cost_sequence


def _rect(
    face: PreparedFace, box: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
    """Template box (top-left origin, y down) -> PDF rect (x, y, w, h) with the bleed corner at the
    origin."""
    x, y, w, h = box
    return face.bleed + x, face.bleed + face.height - y - h, w, h


def _y(face: PreparedFace, y: float) -> float:
    return face.bleed + face.height - y


def _style(c: Canvas, props: dict[str, Any], fill_default: str | None = None) -> tuple[bool, bool]:
    fill = colour(props.get("fill"), fill_default)
    stroke = colour(props.get("stroke"))
    if fill is not None:
        c.setFillColor(fill)
    if stroke is not None:
        c.setStrokeColor(stroke)
        c.setLineWidth(as_length(props.get("stroke_width"), 0.5))
    if props.get("opacity") not in (
        None,
        "",
    ):  # after the colours: setting a colour resets its alpha
        c.setFillAlpha(float(props["opacity"]))
        c.setStrokeAlpha(float(props["opacity"]))
    return fill is not None, stroke is not None


def paint_op(c: Canvas, op: Op, face: PreparedFace, fonts: FontSet, model: GameModel) -> None:
    {
        "rect": _paint_rect,
        "circle": _paint_circle,
        "line": _paint_line,
        "polygon": _paint_polygon,
        "text": _paint_text,
        "icons": _paint_icons,
        "badge": _paint_badge,
        "image": _paint_image,
    }[op.type](c, op, face, fonts, model)


def _paint_rect(c: Canvas, op: Op, face: PreparedFace, fonts: FontSet, model: GameModel) -> None:
    x, y, w, h = _rect(face, op.box)
    fill, stroke = _style(c, op.props)
    radius = as_length(op.props.get("radius"), 0.0)
    if radius:
        c.roundRect(x, y, w, h, radius, stroke=int(stroke), fill=int(fill))
    else:
        c.rect(x, y, w, h, stroke=int(stroke), fill=int(fill))


def _paint_circle(c: Canvas, op: Op, face: PreparedFace, fonts: FontSet, model: GameModel) -> None:
    x, y, w, h = _rect(face, op.box)
    fill, stroke = _style(c, op.props)
    c.circle(x + w / 2, y + h / 2, min(w, h) / 2, stroke=int(stroke), fill=int(fill))


def _paint_line(c: Canvas, op: Op, face: PreparedFace, fonts: FontSet, model: GameModel) -> None:
    _style(c, {**op.props, "fill": None, "stroke": op.props.get("stroke") or "#000000"})
    p = op.props
    c.line(
        face.bleed + as_length(p.get("x1")),
        _y(face, as_length(p.get("y1"))),
        face.bleed + as_length(p.get("x2")),
        _y(face, as_length(p.get("y2"))),
    )


def _paint_polygon(c: Canvas, op: Op, face: PreparedFace, fonts: FontSet, model: GameModel) -> None:
    points = []
    for pt in op.props.get("points") or []:
        xs, ys = pt.split() if isinstance(pt, str) else pt
        points.append((face.bleed + as_length(xs), _y(face, as_length(ys))))
    if len(points) < 3:
        return
    fill, stroke = _style(c, op.props)
    path = c.beginPath()
    path.moveTo(*points[0])
    for pt in points[1:]:
        path.lineTo(*pt)
    path.close()
    c.drawPath(path, stroke=int(stroke), fill=int(fill))


def _icon_font(face: PreparedFace, family: rt.Family | None) -> str:
    spec = face.template.fonts.get("icon")
    return (
        spec["regular"]
        if spec
        else (family.bold if family else next(iter(face.template.fonts.values()))["bold"])
    )


def _paint_text(c: Canvas, op: Op, face: PreparedFace, fonts: FontSet, model: GameModel) -> None:
    assert op.fit is not None and op.family is not None
    lay, family = op.fit.layout, op.family
    size = lay.size
    x0, _, w, _ = op.box
    ink = colour(op.props.get("color"), "#000000")
    alpha = op.props.get("opacity")
    space = fonts.width(family.regular, " ", size)
    icon_font = _icon_font(face, family)
    cap = fonts.cap_height(family.regular, size)
    text = c.beginText()  # one text object per block: far cheaper than a drawString per run
    text.setFillColor(ink)
    if alpha not in (None, ""):
        c.setFillAlpha(float(alpha))
    icons: list[tuple[str, float, float]] = []
    for line, x, baseline, rule_y in text_lines(op):
        if rule_y is not None:
            c.setStrokeColor(colour(op.props.get("rule_color"), "#9a8f7a"))
            c.setLineWidth(0.4)
            c.line(
                face.bleed + x0 + w * 0.2,
                _y(face, rule_y + size * 0.4),
                face.bleed + x0 + w * 0.8,
                _y(face, rule_y + size * 0.4),
            )
        y_pdf = _y(face, baseline)
        if not any(a.icon or a.style or a.text in rt.SIGNS for word in line.words for a in word):
            whole = " ".join(["".join([a.text for a in word]) for word in line.words])
            runs = fonts.split_runs(family.regular, whole, family.fallback)
            if len(runs) == 1:  # plain text, one font: the line as one string
                if whole:
                    text.setTextOrigin(face.bleed + x, y_pdf)
                    text.setFont(fonts.name(runs[0][0]), size)
                    text.textOut(whole)
                continue
        run = _Run(
            text, fonts, size, face.bleed, y_pdf
        )  # a line's same-font text drawn as one string
        for n, (word, widths) in enumerate(zip(line.words, line.advances)):
            if n:
                run.space(family.regular, x)  # the layout's spaces are the regular face's
                x += space
            for atom, aw in zip(word, widths):
                if atom.icon:
                    run.flush()
                    icons.append(
                        (
                            atom.text,
                            face.bleed + x + size * 0.04 + size * rt.ICON_SCALE / 2,
                            y_pdf + cap / 2,
                        )
                    )
                else:
                    run.add(family.stem(atom.style), atom.text, x, family.fallback, atom.style)
                x += aw
        run.flush()
    c.drawText(text)
    low = op.props.get("ink") == "low"
    for letter, cx, cy in icons:
        draw_icon(c, letter, cx, cy, size * rt.ICON_SCALE, fonts, icon_font, model, low_ink=low)
    if not op.fit.fits:
        _overflow_mark(c, face, op.box)


class _Run:
    """Text of one line in one font, gathered and drawn with a single origin and string: a line
    costs a few text operators instead of three per word. Positions are the layout's: glyph advances
    add up the same."""

    def __init__(self, text: Any, fonts: FontSet, size: float, left: float, y: float) -> None:
        self.text, self.fonts, self.size, self.left, self.y = text, fonts, size, left, y
        self.stem: str | None = None
        self.parts: list[str] = []
        self.x = 0.0

    def add(
        self, stem: str, chars: str, x: float, fallback: tuple[str, ...] = (), style: int = 0
    ) -> None:
        runs = self.fonts.split_runs(stem, chars, fallback, style)
        squeeze = rt.squeeze(self.fonts, stem, chars, self.size)
        if squeeze or len(runs) > 1:  # a pulled-in sign or a fallback glyph: drawn on its own
            self.flush()
            self.text.setTextOrigin(self.left + x - squeeze, self.y)
            for part_stem, part in runs:
                self.text.setFont(self.fonts.name(part_stem), self.size)
                self.text.textOut(part)
            return
        if self.stem != runs[0][0]:
            self.flush()
            self.stem, self.x = runs[0][0], x
        self.parts.append(chars)

    def space(self, regular: str, x: float) -> None:
        if self.stem == regular and self.parts:
            self.parts.append(" ")
        else:
            self.flush()

    def flush(self) -> None:
        if self.parts and self.stem is not None:
            self.text.setTextOrigin(self.left + self.x, self.y)
            self.text.setFont(self.fonts.name(self.stem), self.size)
            self.text.textOut("".join(self.parts).rstrip(" "))
        self.stem, self.parts = None, []


def _overflow_mark(c: Canvas, face: PreparedFace, box: tuple[float, float, float, float]) -> None:
    """A red dashed outline and corner flag: overflowing text is visible on the proof, never
    hidden."""
    x, y, w, h = _rect(face, box)
    c.setStrokeColor(OVERFLOW_RED)
    c.setLineWidth(0.8)
    c.setDash(2, 1.5)
    c.rect(x, y, w, h, stroke=1, fill=0)
    c.setDash()
    c.setFillColor(OVERFLOW_RED)
    path = c.beginPath()
    path.moveTo(x + w, y)
    path.lineTo(x + w - 9, y)
    path.lineTo(x + w, y + 9)
    path.close()
    c.drawPath(path, stroke=0, fill=1)


def _paint_icons(c: Canvas, op: Op, face: PreparedFace, fonts: FontSet, model: GameModel) -> None:
    letters = cost_sequence(model, str(op.props.get("cost") or ""))
    if not letters:
        return
    x, y, w, h = _rect(face, op.box)
    d = as_length(op.props.get("size"), h)
    gap = as_length(op.props.get("gap"), d * 0.08)
    total = len(letters) * d + (len(letters) - 1) * gap
    if total > w:  # many symbols: shrink so the row never leaves its box
        d = (w - gap * (len(letters) - 1)) / len(letters)
        total = w
    align = op.props.get("align") or "right"
    start = {"left": x, "center": x + (w - total) / 2}.get(align, x + w - total)
    outline = str(op.props.get("outline", True)).lower() not in ("false", "0", "no")
    for i, letter in enumerate(letters):
        draw_icon(
            c,
            letter,
            start + i * (d + gap) + d / 2,
            y + h / 2,
            d,
            fonts,
            _icon_font(face, None),
            model,
            outline,
            low_ink=op.props.get("ink") == "low",
        )


def _paint_badge(c: Canvas, op: Op, face: PreparedFace, fonts: FontSet, model: GameModel) -> None:
    x, y, w, h = _rect(face, op.box)
    fill, stroke = _style(c, op.props, "#333333")
    shape = op.props.get("shape") or "circle"
    if shape == "circle":
        c.circle(x + w / 2, y + h / 2, min(w, h) / 2, stroke=int(stroke), fill=int(fill))
    elif shape == "shield":
        path = c.beginPath()
        path.moveTo(x, y + h)
        path.lineTo(x + w, y + h)
        path.lineTo(x + w, y + h * 0.45)
        path.curveTo(x + w, y + h * 0.15, x + w * 0.6, y + h * 0.05, x + w / 2, y)
        path.curveTo(x + w * 0.4, y + h * 0.05, x, y + h * 0.15, x, y + h * 0.45)
        path.close()
        c.drawPath(path, stroke=int(stroke), fill=int(fill))
    else:
        c.roundRect(x, y, w, h, min(w, h) * 0.2, stroke=int(stroke), fill=int(fill))
    text, stem, size, label, lstem, lsize = badge_words(op, face, fonts)
    c.setFillColor(colour(op.props.get("color"), "#ffffff"))
    cy = y + h / 2 - (h * 0.08 if label else 0)
    c.setFont(fonts.name(stem), size)
    c.drawCentredString(x + w / 2, cy - fonts.cap_height(stem, size) / 2, text)
    if label:
        c.setFont(fonts.name(lstem), lsize)
        c.drawCentredString(x + w / 2, y + h * 0.7, label)


def _paint_missing(
    c: Canvas,
    face: PreparedFace,
    fonts: FontSet,
    rect: tuple[float, float, float, float],
    name: str,
    unusable: bool = False,
) -> None:
    x, y, w, h = rect
    c.setFillColor(HexColor("#f1e9ea"))
    c.setStrokeColor(OVERFLOW_RED)
    c.setLineWidth(0.6)
    c.rect(x, y, w, h, stroke=1, fill=1)
    c.line(x, y, x + w, y + h)
    c.line(x, y + h, x + w, y)
    stem = next(iter(face.template.fonts.values()))["regular"]
    c.setFillColor(OVERFLOW_RED)
    c.setFont(fonts.name(stem), 6)
    said = "unusable art" if unusable else "missing art"  # a file that cannot be drawn, or none
    c.drawCentredString(x + w / 2, y + h / 2 - 2, f"{said}: {name}"[:60])


def _paint_image(c: Canvas, op: Op, face: PreparedFace, fonts: FontSet, model: GameModel) -> None:
    x, y, w, h = _rect(face, op.box)
    if "missing" in op.props:
        _paint_missing(c, face, fonts, (x, y, w, h), op.props["missing"], "unusable" in op.props)
        return
    press = op.props.get("press_image")  # already CMYK and without alpha (render.press.flatten)
    if press is not None:
        iw, ih = press.size
    else:
        # checked when the face was prepared; opened again through the allow-list, as the file may
        # have changed since (a face kept from an earlier run): reportlab gets only a path
        # that passes
        try:
            with imagefile.opened(Path(op.props["path"])) as im:
                iw, ih = im.size
        except imagefile.Unreadable:
            _paint_missing(c, face, fonts, (x, y, w, h), Path(op.props["path"]).name, True)
            return
    fit = op.props.get("fit") or "cover"
    path = c.beginPath()
    radius = as_length(op.props.get("radius"), 0.0)
    path.roundRect(x, y, w, h, radius) if radius else path.rect(x, y, w, h)
    c.clipPath(path, stroke=0, fill=0)
    scale = max(w / iw, h / ih) if fit == "cover" else min(w / iw, h / ih)
    dw, dh = iw * scale, ih * scale
    if press is not None:
        from reportlab.lib.utils import ImageReader

        c.drawImage(ImageReader(press), x + (w - dw) / 2, y + (h - dh) / 2, dw, dh)
        return
    c.drawImage(op.props["path"], x + (w - dw) / 2, y + (h - dh) / 2, dw, dh, mask="auto")


def draw_face(c: Canvas, face: PreparedFace, fonts: FontSet, model: GameModel) -> None:
    """Draw a prepared face with the bleed box's lower-left corner at the current origin."""
    for op in face.ops:
        c.saveState()
        paint_op(c, op, face, fonts, model)
        c.restoreState()

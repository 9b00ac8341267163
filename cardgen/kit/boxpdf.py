"""Turn a box plan into a PDF: each sheet's nets with the game's name and the deck's card faces on
their walls, cut lines solid, fold lines dashed, glue tabs hatched, and how to make it."""

from __future__ import annotations

import io

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from ..core.units import to_mm
from ..load.card import Card
from ..project.studio import Studio
from ..render.pdfsheets import define_forms, new_canvas
from ..render.prepared import PreparedFace
from .boxes import Box, BoxPlan
from .draw import (
    LABEL_FONT,
    MM,
    SMALL_FONT,
    TITLE_FONT,
    cut_lines,
    fold_lines,
    hatch,
    ink_for,
    label,
    path_of,
    place_face,
)
from .net import Net, Panel

BLANK = Card("back", {}, "", 0, 0)
BLEED = 1.5  # mm the walls' ground reaches past their cut lines


def _faces(studio: Studio, box: Box) -> tuple[PreparedFace | None, PreparedFace | None]:
    """The deck's shown card face and the back it shows."""
    deck = box.deck
    front = back = None
    if deck.shown is not None and deck.face is not None:
        front = studio.renderer.prepare(deck.shown, deck.face, None)
    if deck.back is not None:
        back = studio.renderer.prepare(BLANK, deck.back, None)
    elif deck.shown_back is not None:
        _, back = studio.prepare(deck.shown_back)
    return front, back


def write_boxes(studio: Studio, plan: BoxPlan) -> bytes:
    """The boxes PDF: one sheet per page of the plan."""
    faces: dict[int, tuple[PreparedFace | None, PreparedFace | None]] = {}
    forms: dict[str, PreparedFace] = {}
    by_net: dict[int, Box] = {}
    for box in plan.boxes:
        faces[id(box)] = _faces(studio, box)
        forms.update({f.key: f for f in faces[id(box)] if f is not None})
        for net in box.pieces:
            by_net[id(net)] = box
    buffer = io.BytesIO()
    paper = plan.paper
    title = f"{studio.model.name} boxes"
    c = new_canvas(buffer, paper.size, title, title, studio.fonts)
    define_forms(c, forms, studio.fonts, studio.model, studio.renderer.recordings)
    for n, page in enumerate(plan.pages, 1):
        names = []
        for net in page:
            assert net.design is not None
            box = by_net[id(net.design)]
            _draw_net(c, studio, net, box, faces[id(box)])
            names.append(net.name)
        _caption(c, studio, plan, n, names)
        c.showPage()
    c.save()
    return buffer.getvalue()


def _draw_net(
    c: Canvas,
    studio: Studio,
    net: Net,
    box: Box,
    faces: tuple[PreparedFace | None, PreparedFace | None],
) -> None:
    """One net in its own frame (as designed), placed by its frame on the sheet."""
    design = net.design or net
    front, back = faces
    ground = back.edge() if back is not None else None
    a, b, cc, d, e, f = net.frame
    c.saveState()
    c.transform(a, b, cc, d, e * MM, f * MM)
    walls = [p for p in design.panels if p.kind == "wall"]
    if ground is not None and ground != (255, 255, 255):
        c.saveState()
        colour = HexColor("#%02x%02x%02x" % ground)
        c.setFillColor(colour)
        c.setStrokeColor(colour)
        c.setLineWidth(2 * BLEED * MM)
        c.setLineJoin(1)
        for panel in walls:
            c.drawPath(path_of(c, panel.points), stroke=1, fill=1)
        c.restoreState()
    ink = ink_for(ground)
    root = design.panel(design.root)
    toward = None
    if design.root == "base":  # a lid: its walls' words stand up once folded down
        rx1, ry1, rx2, ry2 = root.box()
        toward = ((rx1 + rx2) / 2, (ry1 + ry2) / 2)
    for panel in design.panels:
        if panel.kind == "glue":
            hatch(c, panel.points, studio.fonts)
        elif panel.art:
            _art(c, studio, panel, box, front, back, ink, toward)
    fold_lines(c, design.fold_lines())
    cut_lines(c, design.cut_lines())
    c.restoreState()


def _art(
    c: Canvas,
    studio: Studio,
    panel: Panel,
    box: Box,
    front: PreparedFace | None,
    back: PreparedFace | None,
    ink: object,
    toward: tuple[float, float] | None = None,
) -> None:
    """What a panel shows; `toward`: the centre of the panel a lid's walls hang from."""
    x1, y1, x2, y2 = panel.box()
    w, h = x2 - x1, y2 - y1
    name = studio.model.name
    fonts = studio.fonts
    c.saveState()
    c.clipPath(path_of(c, panel.points), stroke=0, fill=0)
    c.setFillColor(ink)
    deck = box.deck.name
    count = f"{box.deck.cards} card{'s' * (box.deck.cards != 1)}"
    if panel.art == "front":
        top = min(10.0, w / 5, h / 4) + 3  # below the thumb notch
        if front is not None:
            place_face(c, front, (x1 + 4, y1 + 14, w - 8, h - 14 - top))
        label(
            c,
            fonts,
            name,
            TITLE_FONT,
            11,
            (x1 + w / 2) * MM,
            (y1 + 7.5) * MM,
            (w - 6) * MM,
            "centre",
        )
        label(
            c,
            fonts,
            f"{deck} · {count}",
            SMALL_FONT,
            6.5,
            (x1 + w / 2) * MM,
            (y1 + 3.5) * MM,
            (w - 6) * MM,
            "centre",
        )
    elif panel.art == "back" and back is not None:
        place_face(c, back, (x1 + 4, y1 + 4, w - 8, h - 8))
    elif panel.art in ("side", "lid", "bottom"):
        c.translate((x1 + w / 2) * MM, (y1 + h / 2) * MM)
        long_side, short_side = (h, w) if h > w else (w, h)
        c.rotate(_upright(panel, toward) if toward else 90 if h > w else 0)
        if panel.art == "bottom":
            text, size = f"{name} · {deck}", min(6.0, 0.3 * short_side * MM)
            label(c, fonts, text, SMALL_FONT, size, 0, -size / 3, (long_side - 6) * MM, "centre")
        else:
            size = min(12.0, 0.42 * short_side * MM)
            if short_side >= 9:
                label(c, fonts, name, TITLE_FONT, size, 0, 0.5 * MM, (long_side - 8) * MM, "centre")
                small = min(6.5, size * 0.6)
                label(
                    c,
                    fonts,
                    f"{deck} · {count}",
                    LABEL_FONT,
                    small,
                    0,
                    -small - 0.5 * MM,
                    (long_side - 8) * MM,
                    "centre",
                )
            else:
                label(
                    c, fonts, name, TITLE_FONT, size, 0, -size / 3, (long_side - 6) * MM, "centre"
                )
    c.restoreState()


def _upright(panel: Panel, toward: tuple[float, float]) -> int:
    """How far to turn a wall's words so that they stand up once it is folded down from the panel
    at `toward` (a lid's walls hang from its top): their tops face it."""
    x1, y1, x2, y2 = panel.box()
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    if x2 - x1 >= y2 - y1:
        return 0 if toward[1] > cy else 180
    return 90 if toward[0] < cx else -90


def _caption(c: Canvas, studio: Studio, plan: BoxPlan, n: int, names: list[str]) -> None:
    """What is on the sheet and how to make it, in the bottom margin."""
    pw = plan.paper.width_pt
    c.setFillColor(HexColor("#6b6b6b"))
    text = (
        f"{studio.model.name}: {', '.join(names)} · sheet {n} of {len(plan.pages)} · print at "
        f"100 % on {plan.board} card · cut the solid lines, score and fold the dashed ones, glue "
        "the hatched tabs"
    )
    room = pw - 10 * MM
    label(c, studio.fonts, text, SMALL_FONT, 6.5, pw / 2, 5.6 * MM, room, "centre")


def page_mm(plan: BoxPlan) -> tuple[float, float]:
    return to_mm(plan.paper.width_pt), to_mm(plan.paper.height_pt)

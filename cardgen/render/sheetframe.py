"""Turn a sheet slot (its rectangle, the card lying upright or turned, a fold pair) into the frame a
card's faces are drawn in, and place them there: fronts, duplex backs, fold marks."""

from __future__ import annotations

import contextlib
from typing import Callable, Iterator

from reportlab.lib.colors import black
from reportlab.pdfgen.canvas import Canvas

from .prepared import PreparedFace
from .sheets import MARK_WIDTH, MM, Grid, SheetSpec, Slot, back_slot

Rect = tuple[float, float, float, float]
FOLD_DASH = (2 * MM, 1.5 * MM)  # fold marks and fold lines: dashed; cut marks solid


def local_size(spec: SheetSpec) -> tuple[float, float]:
    """The slot's size in its own frame: a card, or a fold pair (front left, back right)."""
    w, h = spec.card
    return (2 * w if spec.layout == "fold" else w), h


@contextlib.contextmanager
def frame(c: Canvas, rect: Rect, angle: int, size: tuple[float, float]) -> Iterator[None]:
    """Draw in a frame whose box [0, w] x [0, h] (`size`) lands on the sheet rectangle `rect`,
    turned by `angle` (0, 90 counter-clockwise, -90 clockwise, 180 upside down)."""
    x, y, _, _ = rect
    w, h = size
    c.saveState()
    if angle == 90:
        c.translate(x + h, y)
        c.rotate(90)
    elif angle == -90:
        c.translate(x, y + w)
        c.rotate(-90)
    elif angle == 180:
        c.translate(x + w, y + h)
        c.rotate(180)
    else:
        c.translate(x, y)
    try:
        yield
    finally:
        c.restoreState()


def to_local(sheet: Rect, rect: Rect, angle: int, size: tuple[float, float]) -> Rect:
    """A sheet rectangle (a slot's painted area) in the frame `frame` sets up for `rect`."""
    px, py, pw, ph = sheet
    x, y, _, _ = rect
    w, h = size
    if angle == 90:  # (u, v) -> (x + h - v, y + u)
        return (py - y, x + h - px - pw, ph, pw)
    if angle == -90:  # (u, v) -> (x + v, y + w - u)
        return (y + w - py - ph, px - x, ph, pw)
    if angle == 180:  # (u, v) -> (x + w - u, y + h - v)
        return (x + w - px - pw, y + h - py - ph, pw, ph)
    return (px - x, py - y, pw, ph)


def _clip(rect: Rect, box: Rect) -> Rect:
    x1, y1 = max(rect[0], box[0]), max(rect[1], box[1])
    x2, y2 = min(rect[0] + rect[2], box[0] + box[2]), min(rect[1] + rect[3], box[1] + box[3])
    return (x1, y1, max(0.0, x2 - x1), max(0.0, y2 - y1))


Put = Callable[[Canvas, PreparedFace], None]  # draws a face at the origin (its bleed's corner)


def as_form(c: Canvas, face: PreparedFace) -> None:
    """A face defined as the form F<key>, placed by reference."""
    c.doForm(f"F{face.key}")


def _place(c: Canvas, face: PreparedFace, trim: Rect, paint: Rect, put: Put = as_form) -> None:
    """A face with its trim on `trim`, painting only inside `paint` (`put` draws it: by default
    the form F<key>)."""
    c.saveState()
    path = c.beginPath()
    path.rect(*paint)
    c.clipPath(path, stroke=0, fill=0)
    c.translate(trim[0] - face.bleed, trim[1] - face.bleed)
    put(c, face)
    c.restoreState()


def front_angle(spec: SheetSpec) -> int:
    return 90 if spec.turn else 0


def back_angle(spec: SheetSpec) -> int:
    """How a slot's back is turned on the backs page so that the cut card, turned over sideways,
    shows its back upright: a short-edge flip turns the sheet end over end, so every back is turned
    half a turn from its long-edge place (upright cards: upside down; a turned card's back turns
    the same way as its front, where a long-edge flip turns it the other way)."""
    if not spec.turn:
        return 180 if spec.duplex == "short" else 0
    return -90 if spec.duplex != "short" else 90


def place_front(
    c: Canvas,
    spec: SheetSpec,
    slot: Slot,
    front: PreparedFace,
    back: PreparedFace | None,
    stamp: object = None,
    put: Put = as_form,
) -> None:
    """A slot's front (with a fold layout, its back beside it, right of the fold); `stamp(trim)`
    is called in the front's frame to print small codes on it."""
    size = local_size(spec)
    angle = front_angle(spec)
    if not angle and spec.layout != "fold":  # upright: drawn in the sheet's own frame
        _place(c, front, slot.trim, slot.paint, put)
        if stamp is not None:
            stamp(slot.trim)  # type: ignore[operator]
        return
    paint = to_local(slot.paint, slot.trim, angle, size)
    w, h = spec.card
    with frame(c, slot.trim, angle, size):
        if spec.layout == "fold":
            front_paint = _clip(paint, (paint[0], paint[1], -paint[0] + w, 1e6))
            _place(c, front, (0, 0, w, h), front_paint, put)
            if back is not None:
                _place(c, back, (w, 0, w, h), _clip(paint, (w, paint[1], 1e6, 1e6)), put)
        else:
            _place(c, front, (0, 0, w, h), paint, put)
        if stamp is not None:
            stamp((0.0, 0.0, w, h))  # type: ignore[operator]


def place_back(
    c: Canvas,
    spec: SheetSpec,
    slot: Slot,
    back: PreparedFace,
    put: Put = as_form,
    stamp: object = None,
) -> Rect:
    """A slot's back on the backs page, behind its front for the flip edge; returns the back's
    rectangle on the sheet. `stamp(trim)` is called in the back's frame to print a code on it."""
    rect = back_slot(slot.trim, spec)
    size = local_size(spec)
    angle = back_angle(spec)
    if not angle:
        _place(c, back, rect, back_slot(slot.paint, spec), put)
        if stamp is not None:
            stamp(rect)  # type: ignore[operator]
        return rect
    paint = to_local(back_slot(slot.paint, spec), rect, angle, size)
    with frame(c, rect, angle, size):
        _place(c, back, (0, 0, *spec.card), paint, put)
        if stamp is not None:
            stamp((0.0, 0.0, *spec.card))  # type: ignore[operator]
    return rect


def fold_marks(grid: Grid, spec: SheetSpec) -> list[tuple[float, float, float, float]]:
    """A fold layout's fold lines, marked in the margins as the cuts are (drawn dashed): between
    each pair's front and back."""
    if not spec.crop_marks:
        return []
    segs = []
    left, bottom, right, top = grid.trim_box
    if grid.mark_x > 0:
        for y in grid.fold_y:
            segs.append((left - grid.off_x, y, left - grid.off_x - grid.mark_x, y))
            segs.append((right + grid.off_x, y, right + grid.off_x + grid.mark_x, y))
    if grid.mark_y > 0:
        for x in grid.fold_x:
            segs.append((x, top + grid.off_y, x, top + grid.off_y + grid.mark_y))
            segs.append((x, bottom - grid.off_y, x, bottom - grid.off_y - grid.mark_y))
    return segs


def draw_fold_marks(c: Canvas, segs: list[tuple[float, float, float, float]]) -> None:
    if not segs:
        return
    c.saveState()
    c.setLineWidth(MARK_WIDTH)
    c.setStrokeColor(black)
    c.setDash(*FOLD_DASH)
    for seg in segs:
        c.line(*seg)
    c.restoreState()

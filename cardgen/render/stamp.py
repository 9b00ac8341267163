"""Turn a template into where a card's version stamp and pack code go on its front (the template's
`stamp` and `pack_code` boxes, else the bottom corners inside the safe zone) or a pack's code on its
back, and into the finding when that place straddles the safe line or the edge of a frame, a panel
or a text (docs/guards.md)."""

from __future__ import annotations

from ..core.errors import Finding, Severity
from ..core.units import PT_PER_UNIT
from .elements import Element
from .geometry import Frame
from .template import Template
from .templateboxes import fixed_box, fixed_frame

MM = PT_PER_UNIT["mm"]
SLOT = (
    "stamp"  # the box a template names for the version stamp (and the pack code without the next)
)
CODE_SLOT = "pack_code"  # the box a template names for the pack code
STAMP_SIZE = 6.0  # pt: the version stamp and pack code, at the label minimum
PAD_W, PAD_H = 1.6 * MM, 1.0 * MM  # the white tab around the words
NOMINAL_W = 10 * MM  # a tab's width for the guard ('#3f9a1c' at 6 pt: 9.4 mm)
BACK_RAISE = 6 * MM  # a back's pack code without a `pack_code` box: this far above its bottom edge
EDGED = ("rect", "image", "badge", "circle", "text")  # elements whose edge a stamp must not cross
Box = tuple[float, float, float, float]


def tab_size(text_width: float, size: float = STAMP_SIZE) -> tuple[float, float]:
    """The tab's width and height around words `text_width` wide."""
    return text_width + PAD_W, size + PAD_H


def tab_box(template: Template, w: float, h: float, where: str, frame: Frame | None = None) -> Box:
    """Where a tab `w` × `h` goes on the template's face (template space, y down): on a front, the
    version ("left") at the left end of its `stamp` box, the pack code ("right") at the right end
    of its `pack_code` box (else of its `stamp` box), centred in the box's height; without one (or
    one placed per card), in that bottom corner inside the safe zone. On a back ("back"), the pack
    code centred in its `pack_code` box, else centred BACK_RAISE above the bottom edge. `frame`:
    the template's fixed_frame, when the caller has it already."""
    frame = frame or fixed_frame(template)
    cw, ch = template.size
    if where == "back":
        slot = frame.box(CODE_SLOT) if CODE_SLOT in template.boxes else None
        if slot is not None:
            x, y, sw, sh = slot
            return (x + (sw - w) / 2, y + (sh - h) / 2, w, h)
        return ((cw - w) / 2, ch - BACK_RAISE - h, w, h)
    name = CODE_SLOT if where == "right" and CODE_SLOT in template.boxes else SLOT
    slot = frame.box(name) if name in template.boxes else None
    if slot is not None:
        x, y, sw, sh = slot
        return (x if where == "left" else x + sw - w, y + (sh - h) / 2, w, h)
    s = template.safe
    return (s if where == "left" else cw - s - w, ch - s - h, w, h)


def _straddles(a: Box, b: Box) -> bool:
    """Whether `a` lies partly inside `b` and partly outside it."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    overlap = (
        min(ax + aw, bx + bw) - max(ax, bx) > 0.01 and min(ay + ah, by + bh) - max(ay, by) > 0.01
    )
    return overlap and not _inside(a, b)


def stamp_findings(template: Template, back: bool = False) -> list[Finding]:
    """A warning when the stamp's place (the `stamp` box, or a nominal tab in each bottom corner
    inside the safe zone) straddles the safe line or crosses the edge of a rectangle, picture,
    badge or circle: the tab would sit across a frame. With `back`, the place of the pack code a
    pack's sheets print on the back (its `pack_code` box, or a nominal tab centred near the bottom
    edge)."""
    frame = fixed_frame(template)
    places = []
    sides = (("back", CODE_SLOT),) if back else (("left", SLOT), ("right", CODE_SLOT))
    for side, name in sides:
        spec = template.boxes.get(name)
        if spec is not None:
            slot = frame.box(name)
            if slot is not None:  # else placed per card: not known without one
                places.append((f"its {name} box", slot, (spec.file, spec.line, spec.column)))
        elif back or SLOT not in template.boxes:
            box = tab_box(template, NOMINAL_W, STAMP_SIZE + PAD_H, side)
            where = "the pack code's place" if back else f"the stamp's {side} corner"
            places.append((where, box, (template.file, 1, 1)))
    what = (
        "the pack code a pack's sheets print on the back"
        if back
        else ("a version stamp or pack code printed there")
    )
    w, h = template.size
    s = template.safe
    out = []
    for name, box, (file, line, column) in places:
        crossed = []
        if _straddles(box, (s, s, w - 2 * s, h - 2 * s)):
            crossed.append(f"the {s / MM:.1f} mm safe line")
        crossed += [
            f"the edge of '{e.id or e.type}'" if e.type != "text" else f"text '{e.id or 'text'}'"
            for e, ebox in _edged(template, frame, box)
            if _straddles(box, ebox)
        ]
        if crossed:
            x, y, bw, bh = box
            out.append(
                Finding(
                    file,
                    line,
                    column,
                    Severity.WARNING,
                    "stamp-placement",
                    None,
                    f"{template.name}: {name} ({bw / MM:.1f} × {bh / MM:.1f} mm at "
                    f"{x / MM:.1f}, {y / MM:.1f} mm) crosses {', '.join(crossed[:3])}"
                    + (f" and {len(crossed) - 3} more" if len(crossed) > 3 else "")
                    + f": {what} sits across a frame or covers the face's words",
                    (
                        f"declare boxes: {{{CODE_SLOT}: {{x: …, bottom: …, w: …, h: …}}}} "
                        if back
                        else f"declare boxes: {{{SLOT}: {{x: …, bottom: …, w: …, h: …}}}} (and "
                        f"{CODE_SLOT}) "
                    )
                    + "inside the safe zone, on one ground and clear of text",
                )
            )
    return out


def _edged(template: Template, frame: object, place: Box) -> list[tuple[Element, Box]]:
    """The elements with an edge a stamp at `place` must not cross, and their boxes when fixed:
    those drawn after the last filled rectangle that holds the whole place (a panel hides the
    frame's edges beneath it)."""
    out: list[tuple[Element, Box]] = []
    for e in template.elements:
        if e.type in EDGED:
            box = fixed_box(e, frame)  # type: ignore[arg-type]
            if box is None:
                continue
            filled = "fill" in e.props and "opacity" not in e.props and e.when is None
            if e.type == "rect" and filled and _inside(place, box):
                out = []  # a ground under the whole place: what lies beneath it is hidden
            out.append((e, box))
    return out


def _inside(a: Box, b: Box) -> bool:
    return (
        a[0] >= b[0] - 0.01
        and a[1] >= b[1] - 0.01
        and a[0] + a[2] <= b[0] + b[2] + 0.01
        and a[1] + a[3] <= b[1] + b[3] + 0.01
    )

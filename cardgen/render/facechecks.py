"""Turn a template into the warnings about where its elements lie: a back's borders that show duplex
drift, text closer to the trim than the safe zone."""

from __future__ import annotations

from ..core.errors import Finding, Severity
from . import geometry
from .elements import Element
from .template import Template
from .templateboxes import fixed_box, fixed_frame

BORDER_ZONE = 10 * 72 / 25.4


def drift_borders(template: Template) -> list[Finding]:
    """A back's line or box edge running along the trim a few mm inside it turns duplex drift into
    uneven borders (4.5 mm on one side, 1.5 mm on the other): cards become recognisable from the
    back."""
    out = []
    w, h = template.size
    frame = fixed_frame(template)
    for e in template.elements:
        if e.type not in ("rect", "line") or "box" in e.props:
            continue
        span = fixed_span(e, frame)
        if span is None:
            continue
        x1, y1, x2, y2 = span
        edges = [(x1, y2 - y1, h), (w - x2, y2 - y1, h), (y1, x2 - x1, w), (h - y2, x2 - x1, w)]
        near = [dist for dist, span, side in edges if 0.3 < dist < BORDER_ZONE and span >= side / 2]
        if near:
            mm = min(near) * 25.4 / 72
            out.append(
                Finding(
                    e.file,
                    e.line,
                    e.column,
                    Severity.WARNING,
                    "back-border",
                    None,
                    f"back '{template.name}': '{e.id or e.type}' runs {mm:.1f} mm inside the trim; "
                    "a "
                    f"back printed 1.5 mm off its front shows it {mm - 1.5:.1f} mm from one edge "
                    "and "
                    f"{mm + 1.5:.1f} mm from the other, so cards can be told apart from the back",
                    "let the back's design reach the cut, or keep lines 10 mm or more inside it",
                )
            )
    return out


def fixed_span(e: Element, frame: geometry.Frame) -> tuple[float, float, float, float] | None:
    """A rectangle's or a line's extent (left, top, right, bottom) when written as constants."""
    if e.type == "rect":
        box = fixed_box(e, frame)
        return None if box is None else (box[0], box[1], box[0] + box[2], box[1] + box[3])
    keys = ("x1", "y1", "x2", "y2")
    if any(e.props.get(k) is None or e.props[k].compiled is not None for k in keys):
        return None
    inside = e.props.get("in")
    parent = frame.box(str(inside.raw)) if inside is not None else frame.box("trim")
    if parent is None:
        return None
    try:
        a, b, c, d = (
            geometry.length_of(e.props[k].raw, frame, parent, geometry.AXIS[k])
            + (parent[0] if k[0] == "x" else parent[1])
            for k in keys
        )
    except (geometry.GeometryError, ValueError, TypeError):
        return None
    return (min(a, c), min(b, d), max(a, c), max(b, d))


SAFE_TYPES = {"text": "text", "badge": "stat", "icons": "cost"}


def safe_zone(template: Template) -> list[Finding]:
    """Text, stat and cost elements reaching closer to the trim than the safe zone risk being cut (a
    1 mm miscut at home, a vendor's safe line)."""
    out = []
    w, h = template.size
    s = template.safe
    frame = fixed_frame(template)
    for e in template.elements:
        box = fixed_box(e, frame) if e.type in SAFE_TYPES and "box" not in e.props else None
        if box is None:
            continue
        x, y, ew, eh = box
        if x < s - 0.01 or y < s - 0.01 or x + ew > w - s + 0.01 or y + eh > h - s + 0.01:
            gap = min(x, y, w - x - ew, h - y - eh) / 72 * 25.4
            out.append(
                Finding(
                    e.file,
                    e.line,
                    e.column,
                    Severity.WARNING,
                    "outside-safe-zone",
                    None,
                    f"{SAFE_TYPES[e.type]} element '{e.id or e.type}' is {gap:.1f} mm from the "
                    "trim, "
                    f"inside the {s / 72 * 25.4:.1f} mm safe zone: a miscut or a vendor's safe "
                    "line "
                    f"can cut it",
                )
            )
    return out

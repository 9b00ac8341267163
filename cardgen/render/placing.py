"""Turn an element's written geometry on one face (its box, `in:`, anchors, the template's named
boxes worked out for the card) into points: the box and lengths painting reads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.errors import Finding, Severity
from . import geometry
from .elements import LENGTH_KEYS, Element

if TYPE_CHECKING:
    from ..load.card import Card
    from .prepared import PreparedFace
    from .template import Template

PLACING = ("x", "y", "w", "h", "right", "bottom")  # read by geometry.place, not one by one


def face_frame(
    template: Template, ctx: dict[str, Any], face: PreparedFace, card: Card
) -> geometry.Frame:
    """What this face's lengths are measured on: its trim, bleed and safe zone, and the template's
    named boxes worked out for this card (a box that cannot be is a finding at its key, and
    stands at the trim)."""
    boxes: dict[str, geometry.Box] = {}
    frame = geometry.Frame(face.width, face.height, face.bleed, template.safe, boxes)
    trim = (0.0, 0.0, face.width, face.height)
    for spec in template.boxes.values():
        try:
            props = {k: v.get(ctx) for k, v in spec.props.items()}
        except Exception as exc:  # a value that fails on one card is a finding, never a crash
            face.findings.append(
                Finding(
                    spec.file,
                    spec.line,
                    spec.column,
                    Severity.ERROR,
                    getattr(exc, "finding_code", "template-error"),
                    card.id,
                    f"box '{spec.name}' failed: {exc}",
                )
            )
            continue
        try:
            boxes[spec.name] = geometry.place(props, frame, frame.box(spec.parent) or trim)
        except geometry.GeometryError as exc:
            line, column = spec.at.get(exc.key or "", (spec.line, spec.column))
            face.findings.append(
                Finding(
                    spec.file,
                    line,
                    column,
                    Severity.ERROR,
                    "template-value",
                    card.id,
                    f"box '{spec.name}': {exc}",
                )
            )
            boxes[spec.name] = trim
    return frame


def place_element(
    element: Element, props: dict[str, Any], frame: geometry.Frame
) -> tuple[float, float, float, float]:
    """The element's box, and its other lengths in points (lines' ends and polygons' points in
    trim space), written into `props`. Raises GeometryError naming the key at fault."""
    parent = frame.box(str(props.get("in") or "trim")) or (0.0, 0.0, frame.width, frame.height)
    for key in [k for k in props if k in LENGTH_KEYS and k not in PLACING]:
        try:
            value = geometry.length_of(props[key], frame, parent, geometry.AXIS.get(key))
        except geometry.GeometryError as exc:
            raise geometry.GeometryError(str(exc), key) from None
        offset = parent[0] if key in ("x1", "x2") else parent[1] if key in ("y1", "y2") else 0.0
        props[key] = value + offset
    if element.type == "polygon":
        try:
            props["points"] = [geometry.point(p, frame, parent) for p in props.get("points") or []]
        except geometry.GeometryError as exc:
            raise geometry.GeometryError(str(exc), "points") from None
    if element.type in ("line", "polygon"):
        return (0.0, 0.0, 0.0, 0.0)
    if props.get("box"):
        named = frame.box(str(props["box"]))
        if named is None:
            raise geometry.GeometryError(
                f"'{props['box']}' is no box of this template "
                f"(boxes: {geometry.shown_boxes(frame)})",
                "box",
            )
        return named
    return geometry.place(props, frame, parent)

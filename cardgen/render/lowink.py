"""Turn a prepared face into its ink-saving twin: white ground, coloured outlines and type, the same
layout."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..core.units import PT_PER_UNIT
from .prepared import Op, PreparedFace, covers
from .values import rgb255

MM = PT_PER_UNIT["mm"]
INK_MODES = ("normal", "low")
DARK_TEXT = "#1a1a1a"


def _rgb(value: Any) -> tuple[float, float, float] | None:
    rgb = rgb255(value)
    return None if rgb is None else (rgb[0] / 255, rgb[1] / 255, rgb[2] / 255)


def light(value: Any, threshold: float = 0.72) -> bool:
    rgb = _rgb(value)
    return rgb is not None and 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > threshold


def outline(value: Any) -> str:
    """The colour to draw a filled shape's outline in: its fill, darkened when it is too pale to see
    on white."""
    rgb = _rgb(value)
    if rgb is None:
        return "#8a8a8a"
    if light(value):
        rgb = (rgb[0] * 0.55, rgb[1] * 0.55, rgb[2] * 0.55)
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgb)


def low_ink(face: PreparedFace) -> PreparedFace:
    """The same face drawn with a white ground: filled shapes become outlines in their colour, a
    background covering the card becomes a coloured rule just inside the trim (the card keeps its
    colour identity), pictures become a grey frame, pale type turns dark. Text layout and fitting
    are untouched. Its edge is the paper's white: no filled shape or picture is left."""
    return face.derived(f"{face.key}-lowink", _low_ops, edge=(255, 255, 255))


def _low_ops(face: PreparedFace) -> list[Op]:
    ops: list[Op] = []
    for op in face.ops:
        props = dict(op.props)
        if op.type in ("rect", "circle", "polygon") and props.get("fill"):
            if covers(op, face):
                ops.append(
                    Op(
                        "rect",
                        (1.5 * MM, 1.5 * MM, face.width - 3 * MM, face.height - 3 * MM),
                        {
                            "stroke": outline(props["fill"]),
                            "stroke_width": "1.2pt",
                            "radius": "2mm",
                        },
                    )
                )
                continue
            props["stroke"] = props.get("stroke") or outline(props["fill"])
            props["stroke_width"] = props.get("stroke_width") or "0.5pt"
            props.pop("fill")
            props.pop("opacity", None)
        elif op.type == "image":
            ops.append(
                Op(
                    "rect",
                    op.box,
                    {"stroke": "#b5b5b5", "stroke_width": "0.5pt", "radius": props.get("radius")},
                )
            )
            continue
        elif op.type == "badge":
            fill = props.get("fill") or "#333333"
            props["stroke"] = (
                outline(fill)
                if not props.get("stroke") or light(props.get("stroke"))
                else props["stroke"]
            )
            props["stroke_width"] = props.get("stroke_width") or "0.8pt"
            props["fill"] = "#ffffff"
            props["color"] = outline(fill)
        elif op.type in ("text", "icons"):
            props["ink"] = "low"
            if op.type == "text" and (props.get("color") is None or light(props.get("color"))):
                props["color"] = DARK_TEXT if light(props.get("color")) else props.get("color")
        elif op.type == "line" and light(props.get("stroke")):
            props["stroke"] = outline(props["stroke"])
        ops.append(replace(op, props=props, key=None))  # drawn anew: not the op its key names
    return ops

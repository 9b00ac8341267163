"""Turn faces drawn for screens into press output, PDF/X-1a:2003: every colour CMYK through the
bundled profile, transparency flattened before drawing, an output intent naming the printing
condition."""

from __future__ import annotations

from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.pdfgen.canvas import Canvas

from ..speed.memo import memo
from . import imagefile, rl
from .prepared import Op, PreparedFace
from .values import rgb255

PROFILE = "cardgen-cmyk-240.icc"
CONDITION = "FOGRA39 (ISO 12647-2:2004/Amd 1, offset, coated paper), total ink limited to 240 %"
PDFX_VERSION = "PDF/X-1:2003"


def profile_bytes() -> bytes:
    return (resources.files("cardgen") / "data" / "icc" / PROFILE).read_bytes()


# always: built from the bundled profile alone (a constant), and 13 ms to build, once per
# colour drawn without it (thousands on a press export)
@memo(1, always=True)
def _transform() -> Any:
    import io

    from PIL import ImageCms

    srgb = ImageCms.createProfile("sRGB")
    cmyk = ImageCms.getOpenProfile(io.BytesIO(profile_bytes()))
    return ImageCms.buildTransform(
        srgb, cmyk, "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC
    )


@memo(4096)
def cmyk_of(rgb: tuple[int, int, int]) -> tuple[float, float, float, float]:
    """An sRGB colour (0-255) as CMYK (0-1). Neutral greys and black print with black ink only, so
    small type stays sharp when the press's plates are slightly out of register; everything else
    goes through the profile."""
    r, g, b = rgb
    if max(rgb) - min(rgb) <= 3:
        return (0.0, 0.0, 0.0, round(1 - (r + g + b) / 765, 4))
    from PIL import Image, ImageCms

    converted = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), _transform())
    assert converted is not None
    pixel = converted.getpixel((0, 0))
    return tuple(round(v / 255, 4) for v in pixel)  # type: ignore[return-value, union-attr]


def _rgb255(colour: Color) -> tuple[int, int, int]:
    return (round(colour.red * 255), round(colour.green * 255), round(colour.blue * 255))


def to_cmyk(value: Any) -> CMYKColor:
    """reportlab's colour hook: whatever a painter sets becomes a plain CMYK colour without
    alpha."""
    colour = toColor(value)
    if isinstance(colour, CMYKColor):
        return CMYKColor(colour.cyan, colour.magenta, colour.yellow, colour.black, alpha=None)
    return CMYKColor(*cmyk_of(_rgb255(colour)), alpha=None)


def press_image(path: str, backdrop: tuple[int, int, int]) -> Any:
    """A picture as a CMYK image: its transparency composited onto the colour beneath it. Opened
    through the allow-list (cardgen.render.imagefile): Unreadable when it is no picture cardgen
    reads (any more)."""
    from PIL import Image, ImageCms

    with imagefile.opened(Path(path)) as im:
        rgba = im.convert("RGBA")
    flat = Image.new("RGB", rgba.size, backdrop)
    flat.paste(rgba, mask=rgba.split()[3])
    return ImageCms.applyTransform(flat, _transform())


def _mix(top: tuple[int, int, int], under: tuple[int, int, int], alpha: float) -> str:
    return "#" + "".join(f"{round(alpha * t + (1 - alpha) * u):02x}" for t, u in zip(top, under))


def flatten(face: PreparedFace) -> PreparedFace:
    """The face without transparency: an element drawn at an opacity below 1 gets the colour it
    shows over the opaque shape beneath its centre (the paper's white when none), pictures lose
    their alpha the same way."""
    return face.derived(f"{face.key}-press", _flat_ops)


def _flat_ops(face: PreparedFace) -> list[Op]:
    ops: list[Op] = []
    grounds: list[tuple[tuple[float, float, float, float], tuple[int, int, int]]] = []

    def beneath(box: tuple[float, float, float, float]) -> tuple[int, int, int]:
        cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
        for (x, y, w, h), rgb in reversed(grounds):
            if x <= cx <= x + w and y <= cy <= y + h:
                return rgb
        return (255, 255, 255)

    for op in face.ops:
        props = dict(op.props)
        opacity = props.pop("opacity", None)
        alpha = 1.0 if opacity in (None, "") else max(0.0, min(1.0, float(opacity)))
        under = beneath(op.box)
        if alpha < 1:
            for key in ("fill", "stroke", "color", "rule_color"):
                rgb = rgb255(props.get(key)) if props.get(key) else None
                if rgb is not None:
                    props[key] = _mix(rgb, under, alpha)
        if op.type == "image" and "path" in props and "missing" not in props:
            try:
                props["press_image"] = press_image(props["path"], under)
            except (
                imagefile.Unreadable
            ):  # changed since the face was prepared: drawn as unusable art
                props["missing"] = Path(props.pop("path")).name
                props["unusable"] = True
        fill = (
            rgb255(props.get("fill"))
            if props.get("fill") and op.type in ("rect", "circle", "badge")
            else None
        )
        if fill is not None:
            grounds.append((op.box, fill))
        ops.append(replace(op, props=props, key=None))  # drawn anew: not the op its key names
    return ops


def press_canvas(buffer: Any, size: tuple[float, float], **kwargs: Any) -> Canvas:
    """A reportlab canvas that writes PDF 1.4, converts every colour set on it (and its text
    objects) to CMYK, and ends up with the output intent and PDF/X keys."""
    c = Canvas(buffer, pagesize=size, pdfVersion=(1, 4), enforceColorSpace=to_cmyk, **kwargs)
    rl.make_pdfx(c, PDFX_VERSION, profile_bytes(), CONDITION)
    return c

"""Turn a picture (a workspace file or bytes) into an opened, allow-listed Pillow image, or say why
not.

The one picture policy: cardgen reads PNG, JPEG, WebP, GIF and TIFF, recognised by their bytes,
never by the file's name, and opens them with Pillow restricted to that one format. Everything else
(EPS and PostScript, which Pillow renders by running Ghostscript, PDF, ICO, BMP, PSD …) is refused
before any Pillow plugin sees it. SVG is no card art; the rulebook draws it with WeasyPrint's own
SVG renderer (`fetch_problem` lets it through). As a second line, Pillow's Ghostscript is switched
off for the whole process the first time this module is used.
"""

from __future__ import annotations

import io
import os
import stat
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Iterator

from ..speed.memo import memo

if TYPE_CHECKING:
    from PIL import Image as PILImage

FORMATS = ("PNG", "JPEG", "WEBP", "GIF", "TIFF")  # Pillow's names for the allow-listed formats
READABLE = "PNG, JPEG, WebP, GIF and TIFF"
MAX_PIXELS = (
    40_000_000  # 40 megapixels: a poker card at 1,200 dpi is 4 MP; more is a mistake or a bomb
)
HEAD = 64  # bytes read to tell what a file holds

# leading bytes of the allow-listed formats (WebP is RIFF....WEBP, checked apart)
_ALLOWED = (
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
    (b"II*\x00", "TIFF"),
    (b"MM\x00*", "TIFF"),
    (b"II+\x00", "TIFF"),
    (b"MM\x00+", "TIFF"),
)
# leading bytes of formats that are refused, only to say what a refused file holds
_FOREIGN = (
    (b"%!PS", "PostScript (EPS)"),
    (b"\xc5\xd0\xd3\xc6", "EPS"),
    (b"%PDF", "PDF"),
    (b"\x00\x00\x01\x00", "ICO"),
    (b"BM", "BMP"),
    (b"8BPS", "Photoshop (PSD)"),
    (b"icns", "ICNS"),
    (b"\x00\x00\x00\x0cjP  ", "JPEG 2000"),
    (b"\xff\x4f\xff\x51", "JPEG 2000"),
    (b"DDS ", "DDS"),
    (b"qoif", "QOI"),
    (b"\x01\xda", "SGI"),
    (b"\x59\xa6\x6a\x95", "Sun raster"),
    (b"SIMPLE  =", "FITS"),
    (b"\x1f\x8b", "gzip"),
    (b"PK\x03\x04", "zip"),
    (b"\x7fELF", "a program (ELF)"),
)


class Unreadable(Exception):
    """A picture cardgen does not draw; `why` completes "image 'art/x.png' …"."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def sniff(head: bytes) -> str | None:
    """The allow-listed format (Pillow's name) the bytes begin with, or None."""
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WEBP"
    return next((fmt for magic, fmt in _ALLOWED if head.startswith(magic)), None)


def is_svg(head: bytes) -> bool:
    """Whether the bytes begin like an SVG drawing (for messages: nothing is drawn on the strength
    of it)."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return text.startswith((b"<svg", b"<?xml", b"<!doctype svg")) or (
        text.startswith(b"<!--") and b"<svg" in text
    )


def describe(head: bytes) -> str:
    """What bytes that are no allow-listed picture hold, for a message."""
    if is_svg(head):
        return "an SVG drawing"
    if head[4:8] == b"ftyp":
        return "HEIF/AVIF data"
    if head[:1] == b"P" and head[1:2] in b"1234567" and head[2:3].isspace():
        return "Netpbm (PPM) data"
    found = next((name for magic, name in _FOREIGN if head.startswith(magic)), None)
    if found:
        return f"{found} data"
    if not head:
        return "nothing (the file is empty)"
    for cut in range(4):  # the head may end inside a UTF-8 character
        try:
            text = head[: len(head) - cut].decode("utf-8")
        except UnicodeDecodeError:
            continue
        if all(c.isprintable() or c in "\t\r\n" for c in text):
            return "text"
        break
    return "data of no picture format cardgen knows"


def refusal(head: bytes) -> str:
    """Why bytes that are no allow-listed picture are not drawn."""
    what = describe(head)
    if what == "an SVG drawing":
        must = READABLE.replace(" and ", " or ")
        return f"is an SVG drawing: card art must be {must} (export it as PNG)"
    return (
        f"is not a picture cardgen can read: it holds {what} "
        f"(cardgen reads {READABLE}, whatever the file's name)"
    )


@memo(1)
def _pillow() -> Any:
    """PIL.Image, with Ghostscript switched off for the process (EPS is never rendered, whoever
    opens it)."""
    from PIL import EpsImagePlugin, Image

    EpsImagePlugin.gs_binary = (
        False  # Pillow's own switch: has_ghostscript() is False, gs is never run
    )
    return Image


def disarm() -> None:
    """Switch off Pillow's Ghostscript for this process (done by every function here; for other
    libraries' sakes, call it before they may open pictures)."""
    _pillow()


@contextmanager
def opened(source: Path | bytes, formats: tuple[str, ...] = FORMATS) -> Iterator[PILImage.Image]:
    """The picture, opened lazily (its size and mode are known, its pixels not decoded yet) by the
    one Pillow plugin its bytes name, which must be in `formats`; Unreadable otherwise. Closed when
    the block ends."""
    Image = _pillow()
    fp: BinaryIO = io.BytesIO(source) if isinstance(source, bytes) else _regular_file(source)
    with fp:
        head = fp.read(HEAD)
        fmt = sniff(head)
        if fmt is None or fmt not in formats:
            raise Unreadable(refusal(head))
        fp.seek(0)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                im = Image.open(fp, formats=(fmt,))
        except (Image.DecompressionBombWarning, Image.DecompressionBombError) as exc:
            raise Unreadable(
                f"has too many pixels to draw safely (over {MAX_PIXELS // 1_000_000} "
                "megapixels; a poker card at 1,200 dpi is 4): scale it down"
            ) from exc
        except (
            OSError,
            ValueError,
            SyntaxError,
            EOFError,
        ) as exc:  # UnidentifiedImageError is an OSError
            raise Unreadable(f"is damaged or truncated: {exc}") from exc
        with im:
            if im.format not in (
                fmt,
                "MPO",
            ):  # MPO: Pillow's name for a JPEG holding several frames (cameras)
                raise Unreadable(refusal(head))
            yield im


def usable(path: str | Path) -> bool:
    """Whether a picture file opens through the allow-list (headers only): for code about to hand
    the path to a library that opens pictures itself (reportlab's drawImage)."""
    try:
        with opened(Path(path)):
            return True
    except Unreadable:
        return False


def _regular_file(path: Path) -> BinaryIO:
    """The file opened for reading, if it is a regular one (a FIFO or a device is never waited
    on)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise Unreadable(f"cannot be read: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise Unreadable("is not a regular file")
    return os.fdopen(fd, "rb")


def problem(path: Path, max_pixels: int = MAX_PIXELS) -> str | None:
    """Why a picture cannot be drawn (not allow-listed, corrupt, truncated, too many pixels), or
    None. The whole picture is decoded here once, with Pillow's warnings turned into errors, so
    nothing fails later at print time."""
    from PIL import ImageFile

    lenient = (
        ImageFile.LOAD_TRUNCATED_IMAGES
    )  # WeasyPrint switches this on for the whole process when imported
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with opened(path) as im:
            if im.width * im.height > max_pixels:
                return (
                    f"has {im.width} x {im.height} pixels, over {max_pixels // 1_000_000} "
                    "megapixels: "
                    "scale it down"
                )
            with warnings.catch_warnings():
                warnings.simplefilter("error", _pillow().DecompressionBombWarning)
                im.load()
    except Unreadable as exc:
        return exc.why
    except (OSError, ValueError, SyntaxError, EOFError, _pillow().DecompressionBombWarning) as exc:
        return f"is damaged or truncated: {exc}"
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = lenient
    return None


def _identified(data: bytes) -> str | None:
    """What picture Pillow, with every plugin it has, takes the bytes for (headers only: nothing is
    decoded, and Ghostscript is off), or None: what WeasyPrint's own Image.open would see in
    them."""
    Image = _pillow()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data)) as im:
                return (
                    f"{im.format} data"
                    if im.format
                    else "picture data of a format Pillow does not name"
                )
    except Image.DecompressionBombError:
        return "a picture with too many pixels"
    except Exception:  # any plugin's failure to read a header means "not this format"
        return None


def fetch_problem(data: bytes) -> str | None:
    """Why bytes WeasyPrint asked for (a chapter's picture, a font, a stylesheet: the request does
    not say which) are not handed to it, or None. Allow-listed pictures must open as what their
    bytes say; SVG, fonts and stylesheets pass when they are nothing Pillow would take for a picture
    (WeasyPrint gives whatever it draws as a picture to Pillow with every plugin, EPS's included,
    before it tries SVG)."""
    head = data[:HEAD]
    if sniff(head) is not None:
        try:
            with opened(data):
                return None
        except Unreadable as exc:
            return exc.why
    foreign = next((f"{name} data" for magic, name in _FOREIGN if head.startswith(magic)), None)
    seen = foreign or _identified(data)
    if seen is None:
        return None
    return f"is not a picture cardgen can read: it holds {seen} (cardgen reads {READABLE})"


def picture_size(path: Path) -> tuple[int, int]:
    """A checked picture's size in pixels ((0, 0) when it cannot be opened any more)."""
    try:
        with opened(path) as im:
            return im.size
    except Unreadable:
        return (0, 0)


def art_problem(path: Path, src: str) -> str | None:
    """Why a picture cannot be drawn (no allow-listed format whatever its name, corrupt, truncated,
    too many pixels), or None: decoded once here, so nothing fails later at print time."""
    why = problem(path)
    return f"image '{src}' {why}" if why else None


def natural_width_mm(path: Path) -> float | None:
    """A picture's width in mm at the resolution its file declares (96 dpi without one, as CSS
    lays out a pixel), or None for a drawing (SVG) or a file Pillow cannot size."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as im:
            dpi = im.info.get("dpi", (96, 96))[0]
            return float(im.width / (float(dpi) if dpi and float(dpi) >= 1 else 96.0) * 25.4)
    except (OSError, UnidentifiedImageError, ValueError, TypeError, Image.DecompressionBombError):
        return None


def book_picture_problem(path: Path) -> str | None:
    """Why a chapter's picture cannot be shown (render.imagefile's allow-list; an SVG drawing is
    WeasyPrint's to draw), or None."""
    try:
        with path.open("rb") as f:
            head = f.read(512)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    return None if is_svg(head) else problem(path)

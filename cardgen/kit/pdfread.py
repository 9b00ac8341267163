"""Turn a PDF cardgen (or anyone) wrote back into what a publisher checks: its pages' sizes, the
forms placed on each page (cards), the straight lines stroked (crop marks, cut and fold lines),
every picture with the resolution it is printed at, and whether each font is embedded. The bytes
are read with pikepdf (qpdf), which parses content streams in C++ and hands over only the
operators this reading uses (a face's text and colours never reach Python)."""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass, field
from typing import Any

import pikepdf

from ..render.replay import FACE_TAG

Matrix = tuple[float, float, float, float, float, float]
Rect = tuple[float, float, float, float]  # x1, y1, x2, y2
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
# the operators _Walker.walk acts on: qpdf drops the rest (text, colours, curves) as it parses
OPERATORS = "BDC BMC EMC q Q cm w d m l h re W W* S s n f f* B B* b b* Do"


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF order: a point goes through m first)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + b * c2,
        a * b2 + b * d2,
        c * a2 + d * c2,
        c * b2 + d * d2,
        e * a2 + f * c2 + e2,
        e * b2 + f * d2 + f2,
    )


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def placed_box(m: Matrix, rect: Rect) -> Rect:
    """A rectangle (x1, y1, x2, y2) through a matrix: the box it covers on the page."""
    pts = [_apply(m, x, y) for x in (rect[0], rect[2]) for y in (rect[1], rect[3])]
    return (
        min(p[0] for p in pts),
        min(p[1] for p in pts),
        max(p[0] for p in pts),
        max(p[1] for p in pts),
    )


def _meet(a: Rect | None, b: Rect | None) -> Rect | None:
    if a is None or b is None:
        return a or b
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


@dataclass
class Placed:
    """A face on the page — a form placed by reference, or a face drawn on the page in marked
    content (render.replay.Replayer.inline), named as its form would be: its name, its box
    (/BBox) and matrix, and where it lands, clipped."""

    name: str
    bbox: Rect
    matrix: Matrix
    painted: Rect

    @property
    def scale(self) -> float:
        return (self.matrix[0] ** 2 + self.matrix[1] ** 2) ** 0.5


@dataclass
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    dashed: bool
    width: float


@dataclass
class Picture:
    name: str
    pixels: tuple[int, int]
    placed: tuple[float, float]  # points, the image's unit square's sides as placed

    @property
    def dpi(self) -> float:
        w, h = self.placed
        if w <= 0 or h <= 0:
            return 0.0
        return min(self.pixels[0] / (w / 72), self.pixels[1] / (h / 72))


@dataclass
class PageRead:
    size: tuple[float, float]
    forms: list[Placed] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    pictures: list[Picture] = field(default_factory=list)
    text: str = ""


@dataclass
class PdfRead:
    size: int  # bytes
    pages: list[PageRead]
    fonts: dict[str, bool]  # font name -> embedded
    title: str = ""
    subject: str = ""


class _Walker:
    """One document's content streams, forms read once each (their lines and pictures in their
    own space, placed by every use)."""

    def __init__(self) -> None:
        self.fonts: dict[str, bool] = {}
        self._forms: dict[object, list[tuple[str, tuple[int, int], Matrix]]] = {}
        self._has: dict[object, bool] = {}

    def fonts_of(self, resources: Any) -> None:
        for _, font in (resources.get("/Font") or {}).items():
            name = str(font.get("/BaseFont", "?"))
            if name in self.fonts:
                continue
            desc = font.get("/FontDescriptor")
            if font.get("/Subtype") == "/Type0":
                kids = font.get("/DescendantFonts")
                kid = kids[0] if kids else {}
                desc = kid.get("/FontDescriptor")
            desc = desc if desc is not None else {}
            self.fonts[name] = any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))

    def walk(
        self, stream: Any, resources: Any, page: PageRead | None
    ) -> tuple[list[Line], list[tuple[str, tuple[int, int], Matrix]]]:
        """The lines and pictures of a content stream in its own space (the pictures of the forms
        it uses too); on a page, also the forms placed on it."""
        resources = resources if resources is not None else {}
        self.fonts_of(resources)
        xobjects = (resources.get("/XObject") or {}) if resources else {}
        lines: list[Line] = []
        pictures: list[tuple[str, tuple[int, int], Matrix]] = []
        ctm, dash, width, clip = IDENTITY, False, 1.0, None
        stack: list[tuple[Matrix, bool, float, Rect | None]] = []
        path: list[tuple[float, float]] = []
        segments: list[tuple[tuple[float, float], tuple[float, float]]] = []
        pending_clip: Rect | None = None
        rect: Rect | None = None
        marked: list[bool] = []  # open marked content: whether each is a face drawn on the page
        faces = 0  # how many of those are faces: their paths are a card's own drawing, not marks
        for instruction in pikepdf.parse_content_stream(stream, OPERATORS):
            op = str(instruction.operator)  # operands fetched only where they are used
            if op == "l":
                if faces:
                    continue
                operands = instruction.operands
                x, y = float(operands[0]), float(operands[1])
                if path:
                    segments.append((path[-1], (x, y)))
                path.append((x, y))
            elif op == "m":
                if not faces:
                    operands = instruction.operands
                    path = [(float(operands[0]), float(operands[1]))]
            elif op == "q":
                stack.append((ctm, dash, width, clip))
            elif op == "Q":
                if stack:
                    ctm, dash, width, clip = stack.pop()
            elif op in ("BDC", "BMC"):
                operands = instruction.operands
                face = op == "BDC" and str(operands[0]) == f"/{FACE_TAG}"
                marked.append(face)
                faces += face
                if face and page is not None:  # a face placed once, drawn on its page
                    bbox = tuple(float(v) for v in operands[1]["/BBox"])
                    painted = _meet(placed_box(ctm, bbox), clip)  # type: ignore[arg-type]
                    key = f"/FormXob.F{operands[1]['/Key']}"  # named as a placed form would be
                    page.forms.append(Placed(key, bbox, ctm, painted))  # type: ignore[arg-type]
            elif op == "EMC":
                if marked:
                    faces -= marked.pop()
            elif op == "cm":
                ctm = _mul(tuple(float(v) for v in instruction.operands), ctm)  # type: ignore[arg-type]
            elif op == "w":
                width = float(instruction.operands[0])
            elif op == "d":
                dash = bool(instruction.operands[0])
            elif op == "h":
                if not faces and len(path) > 2:  # closed: back to where the subpath began
                    segments.append((path[-1], path[0]))
                    path.append(path[0])
            elif op == "re":
                x, y, w, h = (float(v) for v in instruction.operands)
                rect = placed_box(ctm, (x, y, x + w, y + h))
            elif op in ("W", "W*"):
                pending_clip = rect
            elif op in ("S", "s"):
                if not faces:
                    for (x1, y1), (x2, y2) in segments:
                        a, b = _apply(ctm, x1, y1), _apply(ctm, x2, y2)
                        lines.append(Line(a[0], a[1], b[0], b[1], dash, width))
                segments, path, rect = [], [], None
            elif op in ("n", "f", "f*", "B", "B*", "b", "b*"):
                if op == "n" and pending_clip is not None:
                    clip = _meet(clip, pending_clip)
                pending_clip = None
                segments, path, rect = [], [], None
            elif op == "Do":
                name = str(instruction.operands[0])
                xobj = xobjects.get(name)
                if xobj is None:
                    continue
                kind = xobj.get("/Subtype")
                if kind == "/Image":
                    pictures.append((name, (int(xobj["/Width"]), int(xobj["/Height"])), ctm))
                elif kind == "/Form":
                    matrix = tuple(float(v) for v in xobj.get("/Matrix", IDENTITY))
                    inner = _mul(matrix, ctm)  # type: ignore[arg-type]
                    pictures += [(n, px, _mul(m, inner)) for n, px, m in self.form(xobj)]
                    if page is not None and not faces:  # not a face's own symbol
                        bbox = tuple(float(v) for v in xobj["/BBox"])
                        painted = _meet(placed_box(inner, bbox), clip)  # type: ignore[arg-type]
                        page.forms.append(Placed(name, bbox, inner, painted))  # type: ignore[arg-type]
        return lines, pictures

    def form(self, xobj: Any) -> list[tuple[str, tuple[int, int], Matrix]]:
        """The pictures a form draws, in its own space (its lines are a card's own drawing, not
        marks); a form with no picture in it, however deep, is not read at all."""
        key = _key(xobj)
        if key not in self._forms:
            self._forms[key] = (
                self.walk(xobj, xobj.get("/Resources"), None)[1] if self._pictured(xobj) else []
            )
        return self._forms[key]

    def _pictured(self, xobj: Any) -> bool:
        """Whether a form draws a picture (itself or through the forms it uses); its fonts noted."""
        key = _key(xobj)
        if key not in self._has:
            self._has[key] = False  # a form that uses itself: no loop
            resources = xobj.get("/Resources")
            resources = resources if resources is not None else {}
            self.fonts_of(resources)
            found = False
            for _, inner in (resources.get("/XObject") or {}).items():
                kind = inner.get("/Subtype")
                found = found or kind == "/Image" or (kind == "/Form" and self._pictured(inner))
            self._has[key] = found
        return self._has[key]


def _key(xobj: Any) -> object:
    return xobj.objgen if xobj.is_indirect else id(xobj)


def _inherited(page: Any, key: str) -> Any:
    """A page's attribute, or the nearest of its page tree's parents' (/Resources, /MediaBox)."""
    node, depth = page, 0
    while node is not None and depth < 64:  # a page tree that loops: not followed for ever
        if key in node:
            return node[key]
        node, depth = node.get("/Parent"), depth + 1
    return None


def page_count(data: bytes) -> int:
    """How many pages a PDF has (its page tree only: no page's content is read)."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return len(pdf.pages)


class UnreadablePdf(ValueError):
    """A file that is not a whole PDF (cut short, overwritten): what qpdf said of it."""


def read_pdf(data: bytes, text: bool = False) -> PdfRead:
    """Every page's size, forms, lines and pictures, and the document's fonts; `text` also
    extracts each page's words (pypdf). A file that is not a whole PDF raises UnreadablePdf."""
    try:
        return _read(data, text)
    except pikepdf.PdfError as e:
        raise UnreadablePdf(re.sub(r"^stream <[^>]*>: ", "", str(e))) from e


def _read(data: bytes, text: bool) -> PdfRead:
    walker = _Walker()
    pages = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for raw in pdf.pages:
            x1, y1, x2, y2 = (float(v) for v in _inherited(raw.obj, "/MediaBox"))
            page = PageRead((x2 - x1, y2 - y1))
            if "/Contents" in raw.obj:
                lines, pictures = walker.walk(raw.obj, _inherited(raw.obj, "/Resources"), page)
                page.lines = lines
                page.pictures = [
                    Picture(n, px, (math.hypot(m[0], m[1]), math.hypot(m[2], m[3])))
                    for n, px, m in pictures
                ]
            pages.append(page)
        meta: Any = pdf.trailer.get("/Info") or {}
        title, subject = str(meta.get("/Title", "")), str(meta.get("/Subject", ""))
    if text:
        from pypdf import PdfReader

        for page, read in zip(pages, PdfReader(io.BytesIO(data)).pages):
            page.text = read.extract_text() or ""
    return PdfRead(len(data), pages, walker.fonts, title, subject)

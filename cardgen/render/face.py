"""Turn one card and one template into a prepared face: resolved elements, fitted text, findings."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol

from reportlab.lib.colors import HexColor

from ..core.errors import Finding, Severity
from ..core.paths import file_stamp, workspace_file
from ..core.units import to_mm
from ..load.card import Card
from ..model.game import GameModel, Role
from . import imagefile
from . import richtext as rt
from .context import context, is_true
from .fonts import FontSet
from .pen import Recordings
from .template import Element, Template, as_length
from .values import rgb255, typed

OVERFLOW_RED = HexColor("#e0001b")


@dataclass
class Op:
    """One element ready to draw: its type, its box in template space (y down), resolved properties."""

    type: str
    box: tuple[float, float, float, float]
    props: dict[str, Any]
    fit: rt.Fit | None = None
    family: rt.Family | None = None


@dataclass
class PreparedFace:
    key: str
    template: Template
    width: float  # trim
    height: float
    bleed: float
    ops: list[Op] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    images: list[tuple[str, int, int]] = field(default_factory=list)  # (path, size, mtime) of each picture drawn

    def picture_key(self) -> str:
        """The key of what the face looks like: its key, and its pictures' files as they are now (a replaced
        picture under the same name gives the face another look, not another key). For caches of rasters."""
        if not self.images:
            return self.key
        return f"{self.key}-{hashlib.sha1(repr(sorted(self.images)).encode()).hexdigest()[:8]}"

    def edge(self) -> tuple[int, int, int] | None:
        """The colour the face shows at its cut: the paper's white, or the fill of the last opaque rectangle
        covering the whole card (None when the edge is art or several colours). Worked out once per face."""
        if "_edge" not in self.__dict__:
            edge: tuple[int, int, int] | None = (255, 255, 255)
            for op in self.ops:
                x, y, w, h = op.box
                near_edge = x < EDGE_BAND or y < EDGE_BAND or x + w > self.width - EDGE_BAND or \
                    y + h > self.height - EDGE_BAND
                fill = rgb255(op.props.get("fill"))
                if covers(op, self) and op.type == "rect" and fill is not None and \
                        float(op.props.get("opacity", 1) or 1) >= 1:
                    edge = fill
                elif near_edge and op.type in ("rect", "image", "circle") and (fill is not None or op.type == "image"):
                    edge = None
            self.__dict__["_edge"] = edge
        return self.__dict__["_edge"]  # type: ignore[no-any-return]


EDGE_BAND = 1.0 * 72 / 25.4  # a home cut lands within about this of the line


class FaceStore(Protocol):
    """Where prepared faces outlive a run (render.facecache.FaceCache)."""

    def get(self, key: str, template: Template, relayout: Callable[[], list[Op]]) -> PreparedFace | None: ...

    def put(self, face: PreparedFace) -> None: ...

    def save(self) -> None: ...


_FONT_DIGESTS: dict[tuple[str, int, int], str] = {}


def font_digest(path: Path) -> str:
    """A font file's content digest, read once per process for each (path, size, time) it is seen with."""
    stamp = file_stamp(path)
    found = _FONT_DIGESTS.get(stamp)
    if found is None:
        found = _FONT_DIGESTS[stamp] = hashlib.sha1(path.read_bytes()).hexdigest()[:16]
    return found


class FaceRenderer:
    """Prepares and draws faces for one game; prepared faces are memoised by content."""

    def __init__(self, root: Path, model: GameModel, fonts: FontSet) -> None:
        self.root, self.model, self.fonts = root, model, fonts
        self.rules = rt.RichRules.from_model(model)
        self._measurers: dict[rt.Family, rt.Measurer] = {}
        self._prepared: dict[str, PreparedFace] = {}
        self._font_prints: dict[str, str] = {}
        self._keys: dict[tuple[int, str, float], tuple[Card | None, str]] = {}
        # fitting is the costly part and does not depend on the bleed: faces drawn with another bleed
        # (trim-only pictures, vendor canvases) reuse it
        self._fits: dict[tuple, tuple[rt.Fit, list[str]]] = {}
        self.store: FaceStore | None = None  # an optional cache on disk (render.facecache)
        self.recordings = Recordings(fonts)  # each face's drawing, replayed into every document that shows it
        self._art: dict[tuple[Path, str], str | None] = {}  # a picture is decoded once however many cards use it

    def measurer(self, family: rt.Family) -> rt.Measurer:
        if family not in self._measurers:
            self._measurers[family] = rt.Measurer(self.fonts, family)
        return self._measurers[family]

    def fonts_print(self, template: Template) -> str:
        """The template's font files by content (a replaced font changes every layout; a font only touched or
        reinstalled, same bytes, changes nothing: face keys are in the PDF, whose bytes must not follow a
        file's time)."""
        if template.file not in self._font_prints:
            stems = sorted({stem for family in template.fonts.values() for stem in family.values()})
            self._font_prints[template.file] = "|".join(
                f"{s}:{font_digest(self.fonts._path(s))}" for s in stems if self.fonts.exists(s))
        return self._font_prints[template.file]

    def key(self, card: Card | None, template: Template, bleed: float) -> str:
        """The face's cache key: memoised per card object (a run asks for it several times per card)."""
        memo = (id(card), template.file, bleed)
        found = self._keys.get(memo)
        if found is not None and found[0] is card:
            return found[1]
        key = self._key(card, template, bleed)
        self._keys[memo] = (card, key)  # holding the card keeps its id from being reused
        return key

    def _key(self, card: Card | None, template: Template, bleed: float) -> str:
        h = hashlib.sha1(template.digest.encode())
        h.update(self.fonts_print(template).encode())
        h.update(repr(sorted((card.data if card else {}).items(), key=lambda kv: kv[0])).encode())
        h.update(f"{bleed:.4f}|{self.model.digest}".encode())
        return h.hexdigest()[:20]

    def prepare(self, card: Card, template: Template, bleed: float | None = None) -> PreparedFace:
        bleed = template.bleed if bleed is None else bleed
        key = self.key(card, template, bleed)
        if key in self._prepared:
            return self._prepared[key]
        if self.store is not None:
            cached = self.store.get(key, template, lambda: self._lay_out(key, card, template, bleed).ops)
            if cached is not None:
                self._prepared[key] = cached
                return cached
        face = self._lay_out(key, card, template, bleed)
        self._prepared[key] = face
        if self.store is not None:
            self.store.put(face)
        return face

    def _lay_out(self, key: str, card: Card, template: Template, bleed: float) -> PreparedFace:
        w, h = template.size
        face = PreparedFace(key, template, w, h, bleed)
        ctx = context(card, self.model, template)
        for element in template.elements:
            try:
                if not is_true(element, ctx):
                    continue
                op = self._op(element, ctx, face, card)
                if op is not None:
                    face.ops.append(op)
            except Exception as exc:  # a template that fails on one card is a finding, never a crash
                face.findings.append(Finding(element.file, element.line, element.column, Severity.ERROR,
                                             getattr(exc, "finding_code", "template-error"), card.id,
                                             f"element '{element.id or element.type}' failed: {exc}"))
        return face

    def _box(self, element: Element, props: dict[str, Any], face: PreparedFace) -> tuple[float, float, float, float]:
        box = props.get("box")
        w, h, b, s = face.width, face.height, face.bleed, face.template.safe
        if box == "bleed":
            return (-b, -b, w + 2 * b, h + 2 * b)
        if box == "trim":
            return (0.0, 0.0, w, h)
        if box == "safe":
            return (s, s, w - 2 * s, h - 2 * s)
        return (as_length(props.get("x")), as_length(props.get("y")), as_length(props.get("w")), as_length(props.get("h")))

    def _op(self, element: Element, ctx: dict[str, Any], face: PreparedFace, card: Card) -> Op | None:
        props = {k: v.get(ctx) for k, v in element.props.items()}
        for key, problem in typed(props, face.template):  # painting reads only values that are known good
            face.findings.append(Finding(element.file, element.line, element.column, Severity.ERROR,
                                         "template-value", card.id,
                                         f"element '{element.id or element.type}': {key} {problem}"))
        props["_id"] = element.id
        if element.type in ("line", "polygon"):
            return Op(element.type, (0, 0, 0, 0), props)
        box = self._box(element, props, face)
        if element.type == "text":
            return self._text_op(element, props, box, face, card)
        if element.type == "image":
            return self._image_op(element, props, box, face, card)
        return Op(element.type, box, props)

    def _family(self, props: dict[str, Any], template: Template) -> rt.Family:
        spec = template.fonts[props.get("font") or next(iter(template.fonts))]
        return rt.Family(spec["regular"], spec["bold"], spec["italic"], spec["bolditalic"])

    def _text_op(self, element: Element, props: dict[str, Any], box, face: PreparedFace, card: Card) -> Op | None:
        text = str(props.get("text") or "").strip("\n")
        flavor = str(props.get("flavor") or "").strip("\n")
        if not text and not flavor:
            return None
        family = self._family(props, face.template)
        rich = str(props.get("rich", False)).lower() in ("true", "1", "yes")
        size = as_length(props.get("size"), 9.0)
        max_lines = int(props["max_lines"]) if props.get("max_lines") not in (None, "") else None  # checked by typed()
        spec = rt.FitSpec(size, as_length(props.get("min_size"), size), float(props.get("leading") or 1.18),
                          float(props.get("min_leading") or 1.0), max_lines=max_lines)
        fit_key = (face.template.digest, text, flavor, rich, family, spec.size, spec.min_size, spec.leading,
                   spec.min_leading, max_lines, round(box[2], 3), round(box[3], 3))
        known = self._fits.get(fit_key)  # texts repeat from card to card: parsed, fitted and checked once
        if known is None:
            rules = self.rules if rich else rt.RichRules()
            blocks = [rt.parse(text, rules)] if text else [[]]
            if flavor:
                blocks.append(rt.parse(flavor, rt.RichRules(), base_style=rt.ITALIC))
            known = self._fits[fit_key] = (rt.fit(blocks, self.measurer(family), spec, box[2], box[3]),
                                           self._missing_glyphs(blocks, family))
        fit, missing = known
        if fit.wrapped and fit.fits:
            face.findings.append(Finding(card.file, card.line, card.column, Severity.WARNING, "text-wraps", card.id,
                                         f"'{element.id or 'text'}' of {face.template.name} does not fit on "
                                         f"{max_lines} line{'s' * (max_lines != 1)} even at {spec.min_size:g}pt: "
                                         f"it wraps to {len(fit.layout.lines)}",
                                         "shorten it, or lower the element's min_size"))
        if not fit.fits:
            over = fit.layout.overflow or max(0.0, fit.layout.widest - box[2])
            what = "high" if fit.layout.overflow else "wide"
            face.findings.append(Finding(card.file, card.line, card.column, Severity.ERROR, "text-overflow", card.id,
                                         f"text box '{element.id or 'text'}' of {face.template.name} overflows: "
                                         f"{to_mm(over):.1f} mm too {what} at the minimum size {spec.min_size:g}pt",
                                         "shorten the text or lower the box's min_size"))
        if missing:
            face.findings.append(Finding(card.file, card.line, card.column, Severity.ERROR, "missing-glyph", card.id,
                                         f"no bundled font can draw {' '.join(missing)!r} in "
                                         f"'{element.id or 'text'}'", "add a font with those glyphs to fonts/"))
        return Op("text", box, props, fit, family)

    def _missing_glyphs(self, blocks: list[list[rt.Paragraph]], family: rt.Family) -> list[str]:
        """The characters of the first font of the text that neither it nor the fallback can draw."""
        chars = "".join(a.text for block in blocks for p in block for w in p for a in w if not a.icon)
        for stem in sorted({family.stem(a.style) for block in blocks for p in block for w in p for a in w if not a.icon}):
            missing = self.fonts.missing(stem, chars)
            if missing:
                return sorted(missing)
        return []

    def _image_op(self, element: Element, props: dict[str, Any], box, face: PreparedFace, card: Card) -> Op | None:
        src = str(props.get("src") or "").strip()
        if not src:
            return None
        found, why = workspace_file(self.root, self.root, src)
        face.images.append(file_stamp(found if found is not None else self.root / src))  # a cached face is
        # only good while its pictures are the same files (a new aspect ratio changes the drawing)
        art = self.model.role_field(Role.ART)
        line, col = card.loc(art) if art and art in card.data else (card.line, card.column)
        code, problem = "image-missing", f"image '{src[:80]}' {why}" if why else None
        if found is not None:
            if (found, src) not in self._art:
                self._art[found, src] = art_problem(found, src)
            code, problem = "image-unreadable", self._art[found, src]
        if problem:
            face.findings.append(Finding(card.file, line, col, Severity.WARNING, code, card.id, problem))
            props = {**props, "missing": src}
        else:
            props = {**props, "path": str(found)}
        return Op("image", box, props)


def covers(op: Op, face: PreparedFace) -> bool:
    """Whether an element's box covers the whole card (a background: what shows at the cut)."""
    x, y, w, h = op.box
    return x <= 0 and y <= 0 and x + w >= face.width and y + h >= face.height


def art_problem(path: Path, src: str) -> str | None:
    """Why a picture cannot be drawn (no allow-listed format whatever its name, corrupt, truncated, too many
    pixels), or None: decoded once here (cardgen.render.imagefile), so nothing fails later at print time."""
    why = imagefile.problem(path)
    return f"image '{src}' {why}" if why else None

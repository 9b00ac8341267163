"""Turn prepared faces into the contrast guard's findings: each text (and badge label) measured
against what its face draws beneath it, rasterised without the text, by WCAG contrast ratio
(docs/guards.md)."""

from __future__ import annotations

import hashlib
from functools import partial
from itertools import islice
from typing import Any, Iterable, Iterator

from ..core.errors import Finding, Severity
from ..load.card import Card
from ..model.guards import Guards
from ..speed.live import is_live
from ..speed.memo import Memo
from .contrastcache import ContrastCache, Measured, Result
from .facetexts import Text, face_texts
from .fonts import FontSet
from .prepared import Op, PreparedFace

DPI = 96  # the background's raster: a 6 pt capital is about 6 px tall
WORST = 0.1  # the share of the area under the glyphs that may have less contrast unreported
BOLD_LARGE = 14 / 18  # WCAG: 14 pt bold is as large as 18 pt regular
SHOWN_CARDS = 3
KEEP_RASTERS = 64  # backgrounds drawn and kept at once (about 0.3 MB each at DPI)
WINDOW = 128  # faces planned and measured at a time


def luminance(rgb: tuple[float, ...]) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0-255 channels)."""

    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """WCAG contrast ratio of two colours, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def hex_of(rgb: tuple[float, ...]) -> str:
    return "#" + "".join(f"{round(c):02x}" for c in rgb[:3])


def _beneath(face: PreparedFace, text: Text) -> list[tuple[int, Op]]:
    """What the face draws before the text where its glyphs stand (a badge's own shape without its
    words), each op with its index on the face (-1: that badge): cost symbols and other text are
    left out."""
    left = min(r[0] for r in text.rects)
    top = min(r[1] for r in text.rects)
    right = max(r[2] for r in text.rects)
    bottom = max(r[3] for r in text.rects)
    out = []
    for i, op in enumerate(face.ops[: text.index + 1]):
        if op.type in ("text", "icons"):
            continue
        if i == text.index:
            out.append((-1, Op(op.type, op.box, {**op.props, "text": "", "label": ""})))
            continue
        if op.type != "line":
            x, y, w, h = op.box
            if x > right or y > bottom or x + w < left or y + h < top:
                continue
        out.append((i, op))
    return out


def _op_drawn(op: Op) -> str:
    """What one op draws, as a key: its kind, box and properties (by the op's own key, when it has
    one, once per process: its props change only with it)."""
    if op.key is None or not is_live():  # a one-off run judges each face once
        return _drawn_as(op)
    return _DRAWN_AS.get((op.key, op.props.get("_n")), partial(_drawn_as, op))


def _drawn_as(op: Op) -> str:
    return repr((op.type, op.box, sorted((k, repr(v)) for k, v in op.props.items() if k != "_n")))


_DRAWN_AS: Memo[str] = Memo(40_000)  # _op_drawn by the op's key and place


class _Drawn:
    """What a face's ops draw, as keys: their kinds, boxes and properties (and the face's size and
    pictures' files), each op's made once for all the face's texts."""

    def __init__(self, face: PreparedFace) -> None:
        self.face = face
        self.ops: dict[int, str] = {}
        self.tail = repr((face.width, face.height, face.bleed, sorted(face.images)))

    def key(self, ops: list[tuple[int, Op]]) -> str:
        parts = []
        for i, op in ops:
            if i < 0:
                parts.append(_op_drawn(op))
                continue
            part = self.ops.get(i)
            if part is None:
                part = self.ops[i] = _op_drawn(op)
            parts.append(part)
        return "\x1f".join(parts) + "\x1e" + self.tail


def measure(image: Any, text: Text, bleed: float) -> Result:
    """The contrast the worst tenth of the area under the glyphs gives the text, and the colour
    there."""
    s = DPI / 72
    boxes = []
    for left, top, right, bottom in text.rects:
        box = (
            max(0, int((left + bleed) * s)),
            max(0, int((top + bleed) * s)),
            min(image.width, max(int((left + bleed) * s) + 1, round((right + bleed) * s))),
            min(image.height, max(int((top + bleed) * s) + 1, round((bottom + bleed) * s))),
        )
        if box[2] > box[0] and box[3] > box[1]:
            boxes.append(box)
    if not boxes:
        return 21.0, "#ffffff"
    if len(boxes) > 1:  # one colour all over the boxes' bounds: that colour is beneath every glyph
        bounds = (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )
        found = image.crop(bounds).getcolors(1)
        if found:
            boxes = [bounds]
    counts: dict[tuple[int, ...], int] = {}
    for box in boxes:
        crop = image.crop(box)
        for count, rgb in crop.getcolors(crop.width * crop.height) or []:
            counts[rgb] = counts.get(rgb, 0) + count
    a = text.alpha
    scored = []
    for rgb, count in counts.items():
        ink = tuple(a * i + (1 - a) * b for i, b in zip(text.ink, rgb))
        scored.append((ratio(ink, rgb), rgb, count))
    scored.sort()
    total, seen = sum(counts.values()), 0
    for value, rgb, count in scored:
        seen += count
        if seen > total * WORST:
            return round(value, 2), hex_of(rgb)
    return round(scored[-1][0], 2), hex_of(scored[-1][1])


def contrast_findings(
    faces: Iterable[tuple[Card, PreparedFace]],
    fonts: FontSet,
    model: Any,
    cache: ContrastCache | None = None,
) -> list[Finding]:
    """A warning for each text whose contrast against what is drawn beneath it is below
    `guards.contrast_body` (`contrast_large` for large type): one at the template element for
    each pair of colours, naming the cards that show it."""
    guards: Guards = model.guards
    faces_known = cache.faces if cache is not None else {}
    known = cache.known if cache is not None else {}
    rasters: dict[str, Any] = {}  # this call's: a background is rasterised once
    low: dict[tuple, list[str]] = {}
    where: dict[tuple, Any] = {}
    failed: dict[tuple, Finding] = {}
    for window in _windows(faces):  # a window's plans at a time: memory bounded by the window
        # what each face not yet measured asks for
        plans = _plans([face for _, face in window], fonts, faces_known)
        broken = _measure_plans(plans, fonts, model, known, rasters)
        for card, face in window:
            key = face.picture_key()
            measured = faces_known.get(key)
            if measured is None:
                measured = _measured(face, plans[key][1], known, broken, failed)
                if measured is not None:
                    faces_known[key] = measured
                if cache is not None:
                    cache.changed = True
            for n, what, ink, size, bold, value, under in measured or []:
                large = size >= guards.large_type - 0.01 or (
                    bold and size >= guards.large_type * BOLD_LARGE - 0.01
                )
                least = guards.contrast_large if large else guards.contrast_body
                if value < least - 0.005 and 0 <= n < len(face.template.elements):
                    element = face.template.elements[n]
                    place = (element.file, element.line, element.column, face.template.name)
                    where[place] = element
                    cards = low.setdefault((place, what, ink, under, value, least, large), [])
                    if card.id not in cards:
                        cards.append(card.id)
    return list(failed.values()) + [
        _finding(where[place], place[3], what, ink, under, value, least, large, shown)
        for (place, what, ink, under, value, least, large), shown in low.items()
    ]


def _windows(
    faces: Iterable[tuple[Card, PreparedFace]],
) -> Iterator[list[tuple[Card, PreparedFace]]]:
    """The faces, WINDOW at a time."""
    it = iter(faces)
    while window := list(islice(it, WINDOW)):
        yield window


# a face's texts to measure: each with what is drawn beneath it (its key, its ops) and its measure's
# key among the known ones
Plan = list[tuple[Text, str, list[Op], str]]


def _plans(
    faces: Iterable[PreparedFace], fonts: FontSet, faces_known: dict[str, list[Measured]]
) -> dict[str, tuple[PreparedFace, Plan]]:
    """What each face not yet measured asks for, by its picture key."""
    plans: dict[str, tuple[PreparedFace, Plan]] = {}
    for face in faces:
        key = face.picture_key()
        if key in faces_known or key in plans:
            continue
        plan: Plan = []
        plans[key] = (face, plan)
        keys = _Drawn(face)
        for text in face_texts(face, fonts):
            if not 0 <= text.n < len(face.template.elements):
                continue
            under = _beneath(face, text)
            drawn = keys.key(under)
            known = hashlib.sha1(repr((drawn, text.rects, text.ink, text.alpha)).encode())
            plan.append((text, drawn, [op for _, op in under], known.hexdigest()[:24]))
    return plans


def measure_faces(
    faces: list[PreparedFace],
    fonts: FontSet,
    model: Any,
    cache: ContrastCache,
    rasters: dict[str, Any],
) -> list[str]:
    """The faces' texts measured into `cache` while their layouts are at hand (render.prefetch: a
    face laid out by a helper is judged there, so no process lays it out again for the guard), as
    `contrast_findings` measures them; the picture keys of the faces measured. A face one of whose
    texts could not be measured is left out: `contrast_findings` measures it and says why."""
    plans = _plans(faces, fonts, cache.faces)
    broken = _measure_plans(plans, fonts, model, cache.known, rasters)
    done = []
    for key, (face, plan) in plans.items():
        measured = _measured(face, plan, cache.known, broken, {})
        if measured is not None:
            cache.faces[key] = measured
            cache.changed = True
            done.append(key)
    return done


def _measure_plans(
    plans: dict[str, tuple[PreparedFace, Plan]],
    fonts: FontSet,
    model: Any,
    known: dict[str, Result],
    rasters: dict[str, Any],
) -> dict[str, Exception]:
    """Every text the plans ask for and `known` lacks measured into it, each background drawn once
    (KEEP_RASTERS of them drawn and rasterised together at a time, and kept in `rasters` for the
    next windows); what could not be, the exception by the background's key (it could not be
    drawn) or the text's (not measured)."""
    from .raster import face_images

    wanted: dict[str, list[tuple[Text, str]]] = {}  # by what is drawn beneath
    grounds: dict[str, tuple[list[Op], PreparedFace]] = {}
    for face, plan in plans.values():
        for text, drawn, ops, key in plan:
            if key not in known:
                wanted.setdefault(drawn, []).append((text, key))
                grounds.setdefault(drawn, (ops, face))
    broken: dict[str, Exception] = {}
    order = [drawn for drawn in wanted if drawn not in rasters]
    for drawn in wanted:
        if drawn in rasters:
            _measure_on(rasters[drawn], wanted[drawn], grounds[drawn][1].bleed, known, broken)
    for start in range(0, len(order), KEEP_RASTERS):
        batch = order[start : start + KEEP_RASTERS]
        if len(rasters) + len(batch) > KEEP_RASTERS:  # at most KEEP_RASTERS held at once
            rasters.clear()
        try:
            images = face_images([grounds[d] for d in batch], fonts, model, DPI)
        except Exception as exc:  # no background of the batch: each text's finding says why
            images = [exc] * len(batch)
        for drawn, image in zip(batch, images):
            if isinstance(image, Exception):
                broken[drawn] = image
                continue
            rasters[drawn] = image
            _measure_on(image, wanted[drawn], grounds[drawn][1].bleed, known, broken)
    return broken


def _measure_on(
    image: Any,
    texts: list[tuple[Text, str]],
    bleed: float,
    known: dict[str, Result],
    broken: dict[str, Exception],
) -> None:
    """The texts measured on their background into `known` (by their keys), or into `broken`."""
    for text, key in texts:
        if key in known:
            continue
        try:
            known[key] = measure(image, text, bleed)
        except Exception as exc:  # a guard that fails is a finding, never a crash
            broken[key] = exc


def _measured(
    face: PreparedFace,
    plan: Plan,
    known: dict[str, Result],
    broken: dict[str, Exception],
    failed: dict[tuple, Finding],
) -> list[Measured] | None:
    """Each text of the face measured against what is drawn beneath it (None when one could not
    be: its finding is in `failed`)."""
    out: list[Measured] = []
    complete = True
    for text, drawn, _, key in plan:
        found = known.get(key)
        if found is None:
            element = face.template.elements[text.n]
            exc = broken.get(key) or broken.get(drawn) or RuntimeError("not measured")
            failed.setdefault((element.file, element.line), _unmeasured(element, exc))
            complete = False
            continue
        value, under = found
        out.append((text.n, text.what, hex_of(text.ink), text.size, text.bold, value, under))
    return out if complete else None


def _unmeasured(element: Any, exc: Exception) -> Finding:
    return Finding(
        element.file,
        element.line,
        element.column,
        Severity.WARNING,
        "contrast-unmeasured",
        None,
        f"the contrast of '{element.id or element.type}' could not be measured: "
        f"{str(exc)[:200] or type(exc).__name__}",
    )


def _finding(
    element: Any,
    face_name: str,
    what: str,
    ink: str,
    under: str,
    value: float,
    least: float,
    large: bool,
    cards: list[str],
) -> Finding:
    line, column = element.at.get("color", (element.line, element.column))
    shown = ", ".join(cards[:SHOWN_CARDS]) + (
        f" and {len(cards) - SHOWN_CARDS} more" if len(cards) > SHOWN_CARDS else ""
    )
    kind = "large type" if large else "text"
    return Finding(
        element.file,
        line,
        column,
        Severity.WARNING,
        "low-contrast",
        None,
        f"{what} of {face_name} ({ink}) on {under} beneath it: contrast {value:.1f}:1, "
        f"below {least:g}:1 for {kind}, on {len(cards)} card{'s' * (len(cards) != 1)} ({shown})",
        "darken or lighten the text or what is beneath it (game.yaml's guards: sets the ratio)",
    )

"""Turn a face's drawing calls into a recording (content-stream text plus the few parts that name
document resources: text, transparency, pictures, cost symbols) and replay a recording into any PDF
document.

A face is laid out and drawn once; its recording is kept by face key (in memory and in the face
cache), so a rebuild replays the bytes of every unchanged face instead of drawing it again. Text is
recorded as Unicode and encoded for the document it is replayed into (a TrueType subset's codes
depend on the whole document).
"""

from __future__ import annotations

import io
from functools import partial
from typing import Any, Callable, Iterable, MutableMapping, Union

from reportlab.pdfgen.canvas import Canvas

from ..speed.live import is_live
from ..speed.memo import Memo
from . import rl
from .fonts import FontSet
from .rl import fp_str

# One text run: (font stem, size as written, "1 0 0 1 x y Tm" or None where the run continues the
# previous one, text): numbers are formatted once, when recorded, not at every replay.
Run = tuple[str, str, Union[str, None], str]
# A recording: content-stream text, and marks ("T", runs) text, ("A", key, value) transparency,
# ("I", image, x, y, w, h, mask) a picture, ("F", icon key, x, y, size) a cost symbol's form.
Part = Union[str, tuple]
Recording = list[Part]

ICON_UNIT = 100.0  # an icon form is drawn at this diameter and scaled where it is placed


class _TextRecorder:
    """What a text object records: runs at origins, in the fonts set on it (reportlab's textobject
    subset)."""

    def __init__(self, canvas: RecordingCanvas, x: float, y: float) -> None:
        self.canvas = canvas
        self.runs: list[Run] = []
        self.x: float | None = x
        self.y: float | None = y
        self.origin = (
            x,
            y,
        )  # the line's start, and what was drawn since (a run continuing the text after a
        self.since: list[tuple[str, float, str]] = []  # colour change must say where it starts)
        self.font, self.size = rl.font_state(canvas)

    def setFillColor(self, colour: Any) -> None:
        self.canvas.drawText(self)  # runs so far keep the colour they were drawn in
        self.canvas.setFillColor(colour)

    def setTextOrigin(self, x: float, y: float) -> None:
        self.x, self.y = x, y
        self.origin, self.since = (x, y), []

    def setFont(self, name: str, size: float, leading: float | None = None) -> None:
        self.font, self.size = name, size

    def textOut(self, text: str) -> None:
        if text:
            if not self.runs and self.x is None:  # a block's first run always says where it starts
                self.x = self.origin[0] + sum(
                    self.canvas.stringWidth(t, f, s) for f, s, t in self.since
                )
                self.y = self.origin[1]
            self.runs.append(
                (self.canvas.stem(self.font), fp_str(self.size), _origin(self.x, self.y), text)
            )
            self.x = self.y = None
            self.since.append((self.font, self.size, text))

    def textLine(self, text: str) -> None:
        self.textOut(text)


def _origin(x: float | None, y: float | None) -> str | None:
    return None if x is None else f"1 0 0 1 {fp_str(x)} {fp_str(y)} Tm"


class RecordingCanvas(Canvas):
    """A reportlab canvas that never writes a file: shapes and colours become content-stream text as
    usual, while everything naming a document resource becomes a mark the replay resolves in the
    target document."""

    def __init__(self, fonts: FontSet, enforce: Callable[[Any], Any] | None = None) -> None:
        super().__init__(io.BytesIO(), invariant=1, enforceColorSpace=enforce)
        self.fonts = fonts
        self.parts: Recording = []
        self.volatile = False  # a mark holds an object that cannot be stored (a press picture)
        self._stems: dict[str, str] = {}

    def stem(self, font_name: str) -> str:
        stem = self._stems.get(font_name)
        if stem is None:
            self._stems = {font.fontName: stem for stem, font in self.fonts.fonts.items()}
            stem = self._stems[
                font_name
            ]  # a font not loaded through the workspace's FontSet is a bug
        return stem

    def record(self, draw: Callable[[Canvas], None]) -> Recording:
        rl.restart_code(self)
        self.parts = []
        self.volatile = False
        self.init_graphics_state()
        draw(self)
        self._flush()
        return self.parts

    def _flush(self) -> None:
        lines = rl.code(self)
        if lines:
            self.parts.append("\n".join(lines))
            rl.restart_code(self)

    def _mark(self, part: tuple) -> None:
        self._flush()
        self.parts.append(part)

    # text: recorded as Unicode runs
    def setFont(self, psfontname: str, size: float, leading: float | None = None) -> None:
        rl.set_font_state(self, psfontname, size)

    def beginText(self, x: float = 0, y: float = 0, direction: Any = None) -> Any:
        return _TextRecorder(self, x, y)

    def drawText(self, aTextObject: Any) -> None:
        if aTextObject.runs:
            self._mark(("T", tuple(aTextObject.runs)))
            aTextObject.runs = []

    def drawString(self, x: float, y: float, text: str, *args: Any, **kwargs: Any) -> None:
        if text:
            name, size = rl.font_state(self)
            self._mark(("T", ((self.stem(name), fp_str(size), _origin(x, y), text),)))

    def drawCentredString(self, x: float, y: float, text: str, *args: Any, **kwargs: Any) -> None:
        self.drawString(x - self.stringWidth(text, *rl.font_state(self)) / 2, y, text)

    def drawRightString(self, x: float, y: float, text: str, *args: Any, **kwargs: Any) -> None:
        self.drawString(x - self.stringWidth(text, *rl.font_state(self)), y, text)

    # resources: named by the document the recording is replayed into
    def _alpha(self, key: str, value: float) -> None:
        if rl.alpha_changed(
            self, key, value
        ):  # reportlab's own bookkeeping: emitted only when it changes
            self._mark(("A", key, value))

    def setFillAlpha(self, a: float) -> None:
        self._alpha("ca", a)

    def setStrokeAlpha(self, a: float) -> None:
        self._alpha("CA", a)

    def drawImage(
        self,
        image: Any,
        x: float,
        y: float,
        width: float | None = None,
        height: float | None = None,
        mask: Any = None,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        self.volatile = self.volatile or not isinstance(image, str)
        self._mark(("I", image, x, y, width, height, mask))

    def record_icon(self, key: tuple, cx: float, cy: float, d: float) -> None:
        self._mark(("F", key, cx, cy, d))

    def doForm(self, name: str) -> None:
        raise NotImplementedError("a recorded face places cost symbols with record_icon")


def icon_keys(recordings: Iterable[Recording]) -> set[tuple]:
    """Every cost symbol (letter, font, outline, low ink) the recordings place."""
    return {part[1] for rec in recordings for part in rec if type(part) is tuple and part[0] == "F"}


class Recordings:
    """Recorded faces by key, for one set of fonts: kept in memory and, given a dict loaded from the
    face cache (render.facecache), on disk. Press faces (CMYK, flattened pictures) are recorded with
    their own keys."""

    def __init__(
        self, fonts: FontSet, stored: MutableMapping[str, Recording] | None = None
    ) -> None:
        self.fonts = fonts
        self.stored = stored
        self.memory: dict[str, Recording] = {}
        self._canvases: dict[Any, RecordingCanvas] = {}

    def face(
        self,
        face: Any,
        paint: Callable[[Canvas, Any], None],
        enforce: Callable[[Any], Any] | None = None,
    ) -> Recording:
        """A prepared face's recording (as `get` keeps it, by the face's key), made op by op: an
        op with a key (render.face: the element and all it read) is drawn once per process and its
        part of the recording reused by every face that has it: a template saved with one element
        changed draws that element again, not the whole face. The parts join into exactly the
        recording drawing the whole face at once makes. `paint(canvas, op)` draws one op."""
        if enforce is not None:  # a press recording holds pictures as objects: drawn whole

            def draw_all(c: Canvas) -> None:
                for op in face.ops:
                    _one(c, paint, op)

            return self.get(face.key, draw_all, enforce)

        def draw_ops(c: Canvas) -> None:
            assert isinstance(c, RecordingCanvas)
            live = is_live()
            parts: Recording = []
            for op in face.ops:
                if op.key is None:
                    _join(parts, _recorded(c, paint, op))
                    continue
                # an op keeps its key only while its props are as laid out (low ink and press
                # give a changed op none: drawn anew), so the key and the element's place name
                # what it draws, on a face of this size
                sized = (op.key, op.props.get("_n"), face.width, face.height, face.bleed)
                first = partial(_first_drawn, c, paint, op, face)
                # a one-off run draws each face once: only the shapes alike are worth keeping
                _join(parts, DRAWN.get(sized, first) if live else first())
            c.parts = parts

        return self.get(face.key, draw_ops)

    def kept(self, key: str) -> Recording | None:
        """The screen-colour recording of the face `key` when one is kept, else None (nothing
        drawn)."""
        found = self.memory.get(key)
        if found is None and self.stored is not None:
            found = self.stored.get(key)
        return found

    def get(
        self, key: str, draw: Callable[[Canvas], None], enforce: Callable[[Any], Any] | None = None
    ) -> Recording:
        """The face's recording; `draw` is called only when none is kept. Only screen-colour
        recordings are stored (a press recording holds pictures as objects)."""
        stored = self.stored if enforce is None else None
        found = self.memory.get(key) if enforce is None else None
        if found is None and stored is not None:
            found = stored.get(key)
        if found is None:
            canvas = self._canvases.get(enforce)
            if canvas is None:
                canvas = self._canvases[enforce] = RecordingCanvas(self.fonts, enforce)
            found = canvas.record(draw)
            if stored is not None and not canvas.volatile:
                stored[key] = found  # the store keeps it (compactly: render.facecache)
            elif enforce is None:
                self.memory[key] = found
        return found


# each op's part of a recording by (its key, the face's size and bleed): what a live rebuild's
# faces share with the last ones (render.face keeps the ops; this, their drawing)
DRAWN: Memo[Recording] = Memo(40_000)


def _one(c: Canvas, paint: Callable[[Canvas, Any], None], op: Any) -> None:
    c.saveState()
    paint(c, op)
    c.restoreState()


def _recorded(c: RecordingCanvas, paint: Callable[[Canvas, Any], None], op: Any) -> Recording:
    """One op drawn as a face's draw_face draws it (in its own saved state), as recording parts."""
    return c.record(lambda c: _one(c, paint, op))


SHAPES = ("rect", "circle", "line", "polygon")  # drawn from their box and props alone


def _first_drawn(
    c: RecordingCanvas, paint: Callable[[Canvas, Any], None], op: Any, face: Any
) -> Recording:
    """An op's drawing the first time its key is drawn: a shape drawn alike by another op (the same
    kind, box and props on a face of the same size: a template's frame on every card, a colour
    saved again) is not drawn again."""
    if op.type not in SHAPES:
        return _recorded(c, paint, op)
    props = sorted((k, v) for k, v in op.props.items() if k not in ("_n", "_id"))
    alike = ("shape", op.type, op.box, repr(props), face.width, face.height, face.bleed)
    return DRAWN.get(alike, partial(_recorded, c, paint, op))


def _join(parts: Recording, more: Recording) -> None:
    """Append `more`, joining text to text with a line break as one recording's flush does."""
    for part in more:
        if isinstance(part, str) and parts and isinstance(parts[-1], str):
            parts[-1] = parts[-1] + "\n" + part
        else:
            parts.append(part)

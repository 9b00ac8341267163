"""Turn a face's drawing calls into a recording (content-stream text plus the few parts that name document
resources: text, transparency, pictures, cost symbols) and replay a recording into any PDF document.

A face is laid out and drawn once; its recording is kept by face key (in memory and in the face cache), so a
rebuild replays the bytes of every unchanged face instead of drawing it again. Text is recorded as Unicode
and encoded for the document it is replayed into (a TrueType subset's codes depend on the whole document).
"""
from __future__ import annotations

import io
import threading
import zlib
from typing import Any, Callable, Iterable, MutableMapping, Union

from reportlab.pdfgen.canvas import Canvas

from . import imagefile, rl
from .fonts import FontSet
from .rl import fp_str

# One text run: (font stem, size as written, "1 0 0 1 x y Tm" or None where the run continues the previous one,
# text): numbers are formatted once, when recorded, not at every replay.
Run = tuple[str, str, Union[str, None], str]
# A recording: content-stream text, and marks ("T", runs) text, ("A", key, value) transparency,
# ("I", image, x, y, w, h, mask) a picture, ("F", icon key, x, y, size) a cost symbol's form.
Part = Union[str, tuple]
Recording = list[Part]

ICON_UNIT = 100.0  # an icon form is drawn at this diameter and scaled where it is placed


class _TextRecorder:
    """What a text object records: runs at origins, in the fonts set on it (reportlab's textobject subset)."""

    def __init__(self, canvas: RecordingCanvas, x: float, y: float) -> None:
        self.canvas = canvas
        self.runs: list[Run] = []
        self.x: float | None = x
        self.y: float | None = y
        self.origin = (x, y)  # the line's start, and what was drawn since (a run continuing the text after a
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
                self.x = self.origin[0] + sum(self.canvas.stringWidth(t, f, s) for f, s, t in self.since)
                self.y = self.origin[1]
            self.runs.append((self.canvas.stem(self.font), fp_str(self.size), _origin(self.x, self.y), text))
            self.x = self.y = None
            self.since.append((self.font, self.size, text))

    def textLine(self, text: str) -> None:
        self.textOut(text)


def _origin(x: float | None, y: float | None) -> str | None:
    return None if x is None else f"1 0 0 1 {fp_str(x)} {fp_str(y)} Tm"


class RecordingCanvas(Canvas):
    """A reportlab canvas that never writes a file: shapes and colours become content-stream text as usual,
    while everything naming a document resource becomes a mark the replay resolves in the target document."""

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
            stem = self._stems[font_name]  # a font not loaded through the workspace's FontSet is a bug
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
        if rl.alpha_changed(self, key, value):  # reportlab's own bookkeeping: emitted only when it changes
            self._mark(("A", key, value))

    def setFillAlpha(self, a: float) -> None:
        self._alpha("ca", a)

    def setStrokeAlpha(self, a: float) -> None:
        self._alpha("CA", a)

    def drawImage(self, image: Any, x: float, y: float, width: float | None = None, height: float | None = None,
                  mask: Any = None, *args: Any, **kwargs: Any) -> Any:
        self.volatile = self.volatile or not isinstance(image, str)
        self._mark(("I", image, x, y, width, height, mask))

    def record_icon(self, key: tuple, cx: float, cy: float, d: float) -> None:
        self._mark(("F", key, cx, cy, d))

    def doForm(self, name: str) -> None:
        raise NotImplementedError("a recorded face places cost symbols with record_icon")


def icon_keys(recordings: Iterable[Recording]) -> set[tuple]:
    """Every cost symbol (letter, font, outline, low ink) the recordings place."""
    return {part[1] for rec in recordings for part in rec if type(part) is tuple and part[0] == "F"}


class KeptFlate:
    """Flate compression remembering each stream's compressed bytes by its content for the life of the
    process: a live rebuild (`--watch`, the gallery server) writes documents whose pages, faces and font
    subsets are nearly all those of the last one, and compressing them again took a fifth of the rebuild.
    The bytes are zlib's, as reportlab's own filter makes them."""

    LIMIT = 32 << 20  # bytes of content remembered; past it, forgotten all at once and remembered afresh

    def __init__(self) -> None:
        self._kept: dict[bytes, bytes] = {}
        self._size = 0

    def encode(self, text: str | bytes) -> bytes:
        data = text.encode("utf8") if isinstance(text, str) else text  # as reportlab's PDFZCompress does
        got = self._kept.get(data)
        if got is None:
            got = zlib.compress(data)
            if self._size + len(data) > self.LIMIT:
                self._kept.clear()
                self._size = 0
            self._kept[data] = got
            self._size += len(data)
        return got


FLATE = KeptFlate()


def keep_compressed() -> None:
    """Route reportlab's Flate filter (pages, forms, font subsets: it is one shared object) through FLATE."""
    rl.route_flate(FLATE.encode)


class FaceForm(rl.StreamForm):
    """A face as a Form XObject written directly: its content stream, compressed, and a reference to the
    resources every face of the document shares (one dictionary instead of one per face)."""

    def __init__(self, content: str, width: float, height: float, resources: Any) -> None:
        super().__init__(width, height, resources)
        self.content = content
        self.compressed: bytes | None = None  # made ahead of time by a Replayer's background thread
        self.compressor: threading.Thread | None = None

    def compressed_content(self) -> bytes:
        if self.compressor is not None:
            self.compressor.join()  # ended, not only done: no thread outlives the document (forking checks)
        return self.compressed if self.compressed is not None else FLATE.encode(self.content.encode("latin-1"))


RESOURCES = "cardgenFaceResources"
BACKGROUND_FORMS = 200  # from this many faces, compressing them on a second thread pays for starting it


def _compress(forms: list[FaceForm]) -> None:
    for form in forms:  # a form left without bytes (an error here) is compressed when it is written
        form.compressed = FLATE.encode(form.content.encode("latin-1"))


class Replayer:
    """Writes recordings into one document as face forms, encoding text for that document's font subsets and
    naming transparency states, pictures and cost-symbol forms once for all faces."""

    def __init__(self, c: Canvas, fonts: FontSet) -> None:
        self.c, self.fonts = c, fonts
        self._encoded: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self._states: dict[tuple[str, float], str] = {}
        self._xobjects: set[str] = set()
        self._resources = rl.reference(RESOURCES)
        self._forms: list[FaceForm] = []

    def _encode(self, stem: str, text: str) -> list[tuple[str, str]]:
        """(subset font name, escaped string) pieces of a run, memoised: names and labels repeat."""
        got = self._encoded.get((stem, text))
        if got is None:
            got = rl.subset_runs(self.c, self.fonts.get(stem), text)
            self._encoded[stem, text] = got
        return got

    def text_code(self, stem: str, size: float, x: float, y: float, text: str) -> str:
        """One line of text as operators, in this document's font subsets."""
        return self._text(((stem, fp_str(size), _origin(x, y), text),))

    def _text(self, runs: tuple[Run, ...]) -> str:
        out = ["BT"]
        current = None
        for stem, size, origin, text in runs:
            if origin is not None:
                out.append(origin)
            for name, escaped in self._encode(stem, text):
                if current != (name, size):
                    out.append(f"{name} {size} Tf")
                    current = (name, size)
                out.append(f"({escaped}) Tj")
        out.append("ET")
        return " ".join(out)

    def form(self, name: str, recording: Recording, width: float, height: float) -> None:
        """Define the form `name` (placed with canvas.doForm) from a recording."""
        c = self.c
        code: list[str] = []
        with rl.drawing_into(c, code) as used:  # pictures and symbol forms drawn by the canvas land here
            for part in recording:
                if isinstance(part, str):
                    code.append(part)
                    continue
                kind = part[0]
                if kind == "T":
                    code.append(self._text(part[1]))
                elif kind == "A":
                    state = self._states.get((part[1], part[2]))
                    if state is None:
                        state = self._states[part[1], part[2]] = f"cgGS{len(self._states)}"
                    code.append(f"/{state} gs")
                elif kind == "I":  # a kept face names its art: opened through the allow-list again here
                    if not isinstance(part[1], str) or imagefile.usable(part[1]):
                        c.drawImage(part[1], part[2], part[3], part[4], part[5], mask=part[6])
                elif kind == "F":
                    _, key, cx, cy, d = part
                    scale = fp_str(d / ICON_UNIT)
                    code.append(f"q\n1 0 0 1 {fp_str(cx - d / 2)} {fp_str(cy - d / 2)} cm\n{scale} 0 0 {scale} 0 0 cm")
                    c.doForm(rl.icon_form(c, key))
                    code.append("Q")
        self._xobjects.update(used)
        form = FaceForm("\n".join(code), width, height, self._resources)
        self._forms.append(form)
        rl.define_form(c, form, name)

    def finish(self) -> None:
        """The faces' shared resources: every font, the pictures and symbol forms, the transparency states.
        Many faces' streams are compressed on a second thread meanwhile: zlib lets go of the interpreter
        while it works, so that runs on the other core while this one lays out the pages."""
        if len(self._forms) >= BACKGROUND_FORMS:
            forms = self._forms
            worker = threading.Thread(target=_compress, args=(forms,), name="cardgen-compress", daemon=True)
            for form in forms:
                form.compressor = worker
            worker.start()
        self._forms = []
        rl.define_resources(self.c, RESOURCES, self._xobjects, self._states)


class Recordings:
    """Recorded faces by key, for one set of fonts: kept in memory and, given a dict loaded from the face cache
    (render.facecache), on disk. Press faces (CMYK, flattened pictures) are recorded with their own keys."""

    def __init__(self, fonts: FontSet, stored: MutableMapping[str, Recording] | None = None) -> None:
        self.fonts = fonts
        self.stored = stored
        self.memory: dict[str, Recording] = {}
        self._canvases: dict[Any, RecordingCanvas] = {}

    def get(self, key: str, draw: Callable[[Canvas], None], enforce: Callable[[Any], Any] | None = None) -> Recording:
        """The face's recording; `draw` is called only when none is kept. Only screen-colour recordings are
        stored (a press recording holds pictures as objects)."""
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
                stored[key] = found
        if enforce is None:
            self.memory[key] = found
        return found

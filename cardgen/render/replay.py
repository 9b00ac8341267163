"""Turn recordings (render.pen) into one PDF document: each face a Form XObject whose content is
the recording with its text encoded for this document's font subsets and its transparency states,
pictures and cost-symbol forms named once for every face; streams compressed once per content."""

from __future__ import annotations

import hashlib
import threading
import zlib
from typing import Any, Callable

from reportlab.pdfgen.canvas import Canvas

from ..speed.memo import Memo
from . import imagefile, rl
from .fonts import FontSet
from .pen import ICON_UNIT, Recording, Run, _origin
from .rl import fp_str

# Flate compression remembering each stream's compressed bytes by its content's digest, up to
# 8 MB of compressed bytes (some 32 MB of content), for the life of the process: a live rebuild
# (`--watch`, the gallery server) writes documents whose pages, faces and font subsets are nearly
# all those of the last one, and compressing them again took a fifth of the rebuild. Keyed by
# digest, not by the content itself: a long run's pages are not held twice. The bytes are zlib's,
# as reportlab's own filter makes them.
FLATE: Memo[bytes] = Memo(8 << 20, weigh=lambda _, packed: len(packed) + 64)

ENCODED_KEPT = 8192  # text runs a document remembers encoded (names and labels repeat; rules not)


def flate(text: str | bytes) -> bytes:
    """`text` (as reportlab's PDFZCompress takes it) compressed, or remembered compressed."""
    data = text.encode("utf8") if isinstance(text, str) else text
    return FLATE.get(hashlib.sha1(data).digest(), lambda: zlib.compress(data))


def keep_compressed() -> None:
    """Route reportlab's Flate filter (pages, forms, font subsets: it is one shared object) through
    FLATE."""
    rl.route_flate(flate)


class FaceForm(rl.StreamForm):
    """A face as a Form XObject written directly: its content stream, compressed, and a reference to
    the resources every face of the document shares (one dictionary instead of one per face)."""

    def __init__(self, content: str, width: float, height: float, resources: Any) -> None:
        super().__init__(width, height, resources)
        self.content = content
        self.compressed: bytes | None = None  # made ahead of time by a Replayer's background thread
        self.compressor: threading.Thread | None = None

    def compressed_content(self) -> bytes:
        if self.compressor is not None:
            # ended, not only done: no thread outlives the document (forking checks)
            self.compressor.join()
        return (
            self.compressed
            if self.compressed is not None
            else flate(self.content.encode("latin-1"))
        )


RESOURCES = "cardgenFaceResources"
FACE_TAG = "cgFace"  # marked content around a face drawn on its page (Replayer.inline)
BACKGROUND_FORMS = (
    200  # from this many faces, compressing them on a second thread pays for starting it
)


def _compress(forms: list[FaceForm]) -> None:
    for form in forms:  # a form left without bytes (an error here) is compressed when it is written
        form.compressed = flate(form.content.encode("latin-1"))


class Replayer:
    """Writes recordings into one document as face forms, encoding text for that document's font
    subsets and naming transparency states, pictures and cost-symbol forms once for all faces."""

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
            if len(self._encoded) >= ENCODED_KEPT:  # a long run's texts: not all kept to the end
                self._encoded.clear()
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

    def _play(
        self, code: list[str], recording: Recording, state: Callable[[str, float], str]
    ) -> None:
        """A recording's operators onto `code`, the canvas's content stream as it draws (pictures
        and cost-symbol forms are drawn by the canvas); `state` names a transparency state."""
        c = self.c
        for part in recording:
            if isinstance(part, str):
                code.append(part)
                continue
            kind = part[0]
            if kind == "T":
                code.append(self._text(part[1]))
            elif kind == "A":
                code.append(f"/{state(part[1], part[2])} gs")
            elif kind == "I":  # a kept face names its art: opened through the allow-list again here
                if not isinstance(part[1], str) or imagefile.usable(part[1]):
                    c.drawImage(part[1], part[2], part[3], part[4], part[5], mask=part[6])
            elif kind == "F":
                _, key, cx, cy, d = part
                scale = fp_str(d / ICON_UNIT)
                code.append(
                    f"q\n1 0 0 1 {fp_str(cx - d / 2)} {fp_str(cy - d / 2)} cm\n{scale} 0 0 "
                    f"{scale} 0 0 cm"
                )
                c.doForm(rl.icon_form(c, key))
                code.append("Q")

    def _state(self, key: str, value: float) -> str:
        """A transparency state's name in the faces' shared resources."""
        state = self._states.get((key, value))
        if state is None:
            state = self._states[key, value] = f"cgGS{len(self._states)}"
        return state

    def form(self, name: str, recording: Recording, width: float, height: float) -> None:
        """Define the form `name` (placed with canvas.doForm) from a recording."""
        c = self.c
        code: list[str] = []
        with rl.drawing_into(c, code) as used:  # pictures and symbol forms drawn land here
            self._play(code, recording, self._state)
        self._xobjects.update(used)
        form = FaceForm("\n".join(code), width, height, self._resources)
        self._forms.append(form)
        rl.define_form(c, form, name)

    def inline(self, key: str, recording: Recording, width: float, height: float) -> None:
        """Draw a recording straight onto the canvas's page, marked as the face `key` with its box
        (bleed included) as a form's /BBox would be (a face placed once: a form of its own would
        cost an object and a stream compressed apart from the page's, more than twice the bytes);
        readers such as kit.pdfread find it there."""
        c = self.c
        code = rl.code(c)
        code.append(f"/{FACE_TAG} <</Key ({key}) /BBox [0 0 {width:.4f} {height:.4f}]>> BDC")
        self._play(code, recording, lambda k, v: rl.state_name(c, k, v))
        code.append("EMC")

    def finish(self) -> None:
        """The faces' shared resources: every font, the pictures and symbol forms, the transparency
        states. Many faces' streams are compressed on a second thread meanwhile: zlib lets go of the
        interpreter while it works, so that runs on the other core while this one lays out the
        pages."""
        if len(self._forms) >= BACKGROUND_FORMS:
            forms = self._forms
            worker = threading.Thread(
                target=_compress, args=(forms,), name="cardgen-compress", daemon=True
            )
            for form in forms:
                form.compressor = worker
            worker.start()
        self._forms = []
        rl.define_resources(self.c, RESOURCES, self._xobjects, self._states)

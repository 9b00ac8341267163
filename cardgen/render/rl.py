"""Turn cardgen's needs of reportlab into calls of its API: the only module that touches reportlab's
private parts.

Everything else in cardgen uses reportlab's public drawing API (Canvas.drawString, colours,
pdfmetrics) and comes here for the rest: a canvas's content stream and document, its font and
transparency state, the Flate filter and ASCII85 switch (process-wide), hand-written PDF objects
(face forms, shared resources, PDF/X keys). These lean on reportlab's internals, so the reportlab
versions they were tested with (SUPPORTED) are checked at import; tests/render/test_rl.py tests the
check and scans cardgen for any private touch outside this module.
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterable, Iterator

import reportlab
from reportlab import rl_config
from reportlab.lib import rl_accel
from reportlab.pdfbase import pdfdoc, ttfonts
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from ..core.errors import CardgenError

# reportlab >=4.4.10,<5.2: 4.4.10, 4.5.1, 5.0.1 and 5.1.0 pass tests/render and tests/test_build.py
# and build the bundled games to the same bytes. 4.4.0 passes the tests but writes another header
# comment (other bytes): a version is let in here only once it does both.
SUPPORTED: tuple[tuple[int, ...], tuple[int, ...]] = ((4, 4, 10), (5, 2))


def supported_range() -> str:
    low, high = (".".join(map(str, bound)) for bound in SUPPORTED)
    return f">={low},<{high}"


def check_version(version: str) -> None:
    """Refuse a reportlab this module was not tested with: its private parts change between
    releases."""
    try:
        found = tuple(int(part) for part in version.split(".")[:3])
    except ValueError:
        found = ()
    if len(found) < 2 or not SUPPORTED[0] <= found < SUPPORTED[1]:
        raise CardgenError(
            f"reportlab {version} is installed; cardgen supports reportlab {supported_range()}: "
            f"install a supported version (pip install 'reportlab{supported_range()}')"
        )


check_version(reportlab.Version)

fp_str: Callable[..., str] = (
    rl_accel.fp_str
)  # numbers as reportlab writes them into a content stream


# a canvas's content stream (the operators of the page or form being drawn)


def code(c: Canvas) -> list[str]:
    """The canvas's content-stream lines so far (append to add operators)."""
    result: list[str] = c._code
    return result


def restart_code(c: Canvas) -> None:
    """Start the canvas's content stream afresh (a recording canvas, between faces)."""
    c._code = []


@contextlib.contextmanager
def captured(c: Canvas) -> Iterator[list[str]]:
    """The operators the canvas writes inside the block, kept apart from its content stream."""
    saved = c._code
    lines: list[str] = []
    c._code = lines
    try:
        yield lines
    finally:
        c._code = saved


@contextlib.contextmanager
def drawing_into(c: Canvas, lines: list[str]) -> Iterator[list[str]]:
    """Operators and forms the canvas draws inside the block land in `lines` and in the list yielded
    (the names of the forms used), not on its page."""
    saved = c._code, c._formsinuse
    forms: list[str] = []
    c._code, c._formsinuse = lines, []
    try:
        yield forms
        forms.extend(c._formsinuse)
    finally:
        c._code, c._formsinuse = saved


def path_code(path: PDFPathObject) -> str:
    """A path object's operators."""
    return "\n".join(path._code)


# a canvas's state


def colour_enforcer(c: Canvas) -> Any:
    """The colour hook the canvas was made with (enforceColorSpace), or None."""
    return c._enforceColorSpace


def font_state(c: Canvas) -> tuple[str, float]:
    """The canvas's current font name and size."""
    return c._fontname, c._fontsize


def set_font_state(c: Canvas, name: str, size: float) -> None:
    """Set the current font without writing an operator (a recording canvas writes text itself)."""
    c._fontname, c._fontsize = name, size


def alpha_changed(c: Canvas, key: str, value: float) -> bool:
    """Let reportlab's bookkeeping decide whether transparency `key` ('ca', 'CA') changes to
    `value`; the operator it would write is taken back off the content stream (the caller names the
    state itself)."""
    before = len(c._code)
    c._extgstate.set(c, key, value)
    if len(c._code) > before:
        c._code.pop()
        return True
    return False


def state_name(c: Canvas, key: str, value: float) -> str:
    """The name of the transparency state `key` ('ca', 'CA') = `value` in the resources of the
    canvas's pages (reportlab's own naming, listed on every page from the one drawing it on)."""
    states: dict[tuple[str, Any], str] = c._extgstate._c
    name = states.get((key, value))
    if name is None:
        name = states[key, value] = f"gRLs{len(states)}"
    return name


def set_icon_forms(c: Canvas, names: dict[Any, str]) -> None:
    """Remember on the canvas which form draws each cost symbol."""
    c._cardgen_icons = names


def icon_form(c: Canvas, key: Any) -> str:
    result: str = c._cardgen_icons[key]
    return result


# text in a document's font subsets


def subset_runs(c: Canvas, font: Any, text: str) -> list[tuple[str, str]]:
    """(subset font name, escaped string) pieces of `text` in a TrueType font, for the canvas's
    document."""
    doc = c._doc
    return [
        (font.getSubsetInternalName(subset, doc), c._escape(codes))
        for subset, codes in font.splitString(text, doc)
    ]


# process-wide settings


def route_flate(encode: Callable[[Any], bytes]) -> None:
    """Route reportlab's Flate filter (pages, forms, font subsets: it is one shared object) through
    `encode`."""
    pdfdoc.PDFZCompress.encode = encode  # type: ignore[method-assign]


_TO_UNICODE: Callable[[Any, list[int]], str] = ttfonts.makeToUnicodeCMap


def _to_unicode(fontname: Any, subset: list[int]) -> str:
    """reportlab's ToUnicode map of a subset, with characters past U+FFFF (emoji from a fallback
    font) as UTF-16 surrogate pairs: reportlab writes their code point as an odd-length hex string,
    which readers reject (searching and copying lose the character)."""
    text = _TO_UNICODE(fontname, subset)
    for code, point in enumerate(subset):
        if point > 0xFFFF:
            high, low = divmod(point - 0x10000, 0x400)
            text = text.replace(
                "<%02X> <%04X>\n" % (code, point),
                "<%02X> <%04X%04X>\n" % (code, 0xD800 + high, 0xDC00 + low),
                1,
            )
    return text


def astral_to_unicode() -> None:
    """Route reportlab's ToUnicode maps of TrueType subsets through `_to_unicode` (process-wide)."""
    ttfonts.makeToUnicodeCMap = _to_unicode


def binary_streams() -> None:
    """Write Flate streams as binary, not ASCII85: a quarter smaller, and faster to write."""
    rl_config.useA85 = 0


def compress_ended_page(c: Canvas, encode: Callable[[str], bytes]) -> None:
    """Compress the content of the page just ended now, as the document would when written (the
    same bytes): a long document holds each page compressed, not its text until the end."""
    page = c._doc.Pages.pages[-1]
    if page.Contents or not page.compression or rl_config.useA85 or not page.stream:
        return
    flate = pdfdoc.PDFDictionary({"Filter": pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")])})
    stream = pdfdoc.PDFStream(flate, encode(page.stream))
    stream.__Comment__ = "page stream"
    page.Contents, page.stream = stream, None


# PDF objects written by hand


class StreamForm(pdfdoc.PDFObject):
    """A Form XObject written directly: compressed content (from `compressed_content`) and a
    reference to a resource dictionary (shared by many forms instead of one per form)."""

    __RefOnly__ = 1

    def __init__(self, width: float, height: float, resources: Any) -> None:
        self.width, self.height, self.resources = width, height, resources

    def compressed_content(self) -> bytes:
        raise NotImplementedError

    def format(self, document: Any) -> bytes:
        data = document.encrypt.encode(self.compressed_content())
        head = (
            (
                f"<< /BBox [0 0 {fp_str(self.width)} {fp_str(self.height)}] /Filter /FlateDecode "
                "/FormType 1 "
                f"/Length {len(data)} /Matrix [1 0 0 1 0 0] /Resources "
            ).encode()
            + self.resources.format(document)
            + b" /Subtype /Form /Type /XObject >>"
        )
        return head + b"\nstream\n" + data + b"\nendstream\n"


def reference(name: str) -> Any:
    """A reference to the document object named `name` (defined before or after)."""
    return pdfdoc.PDFObjectReference(name)


def define_form(c: Canvas, form: StreamForm, name: str) -> None:
    """Add the form to the canvas's document under the form name `name` (placed with
    canvas.doForm)."""
    c._doc.Reference(form, pdfdoc.xObjectName(name))


def define_resources(
    c: Canvas, name: str, forms: Iterable[str], states: dict[tuple[str, float], str]
) -> None:
    """The resource dictionary `name`: every font, the forms (by form name) and the transparency
    states ((key, value) -> state name)."""
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    names = sorted({pdfdoc.xObjectName(n) for n in forms})
    resources.XObject = {n: pdfdoc.PDFObjectReference(n) for n in names}
    resources.ExtGState = {
        state: pdfdoc.PDFDictionary({key: value}) for (key, value), state in states.items()
    }
    c._doc.Reference(resources, name)


class _PDFXInfo(pdfdoc.PDFInfo):
    """The document information dictionary with the PDF/X version key (Trapped is already False)."""

    version = ""

    def format(self, document: Any) -> bytes:
        text: bytes = super().format(document)
        return text.replace(
            b"/Trapped", b"/GTS_PDFXVersion (" + self.version.encode() + b") /Trapped", 1
        )


def make_pdfx(c: Canvas, version: str, profile: bytes, condition: str) -> None:
    """Give the canvas's document the PDF/X version key and an output intent with the CMYK
    `profile`."""
    doc = c._doc
    info = type(
        "PDFXInfo", (_PDFXInfo,), {"version": version}
    )()  # a class attribute: not a key of the dict
    info.__dict__.update(doc.info.__dict__)
    doc.info = info
    stream = pdfdoc.PDFStream(
        pdfdoc.PDFDictionary({"N": 4}), profile, filters=[pdfdoc.PDFZCompress]
    )
    intent = pdfdoc.PDFDictionary(
        {
            "Type": pdfdoc.PDFName("OutputIntent"),
            "S": pdfdoc.PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": pdfdoc.PDFString("Custom"),
            "OutputCondition": pdfdoc.PDFString(condition),
            "Info": pdfdoc.PDFString(condition),
            "RegistryName": pdfdoc.PDFString("http://www.color.org"),
            "DestOutputProfile": doc.Reference(stream, "cardgenCMYKProfile"),
        }
    )
    doc.Catalog.OutputIntents = pdfdoc.PDFArray([intent])
    doc.Catalog.__NoDefault__ = [*pdfdoc.PDFCatalog.__NoDefault__, "OutputIntents"]

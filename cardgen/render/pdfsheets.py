"""Turn a SheetPlan and prepared faces into PDF bytes: each face drawn once, placed by reference.

Each face is a Form XObject; the marks around the cards are render.sheetmarks'.
"""

from __future__ import annotations

import io
from collections import ChainMap
from typing import Callable, Collection, Mapping

from reportlab.pdfgen.canvas import Canvas

from .. import __version__
from ..core.units import size_name
from ..model.game import GameModel
from . import rl
from .fonts import FontSet
from .icons import define_icon_forms
from .paint import paint_op
from .pen import Recording, Recordings, icon_keys
from .prepared import Op, PreparedFace
from .replay import Replayer, flate, keep_compressed
from .sheetframe import draw_fold_marks, fold_marks, place_back, place_front
from .sheetmarks import LABEL_FONT, CodeTabs, calibration_pages, caption, draw_marks
from .sheets import Placement, SheetPlan, crop_marks, sheet_warnings
from .template import Template


def new_canvas(
    buffer: io.BytesIO,
    size: tuple[float, float],
    title: str,
    subject: str,
    fonts: FontSet,
    press: bool = False,
) -> Canvas:
    """A canvas for byte-identical output; `press` makes it PDF/X-1a:2003 (render.press: CMYK,
    output intent)."""
    keep_compressed()
    rl.binary_streams()  # binary Flate streams: a quarter smaller than ASCII85, and faster to write
    rl.astral_to_unicode()  # emoji in a PDF's text: found by search, copied as themselves
    # the initial font is listed in every resource dictionary: make it an embedded TrueType font,
    # not Helvetica
    options = dict(invariant=1, pageCompression=1, initialFontName=fonts.name(LABEL_FONT))
    if press:
        from .press import press_canvas

        c = press_canvas(buffer, size, **options)
    else:
        c = Canvas(buffer, pagesize=size, **options)
    c.setTitle(title)
    c.setSubject(subject)
    c.setCreator(f"cardgen {__version__}")
    c.setAuthor("cardgen")
    c.setViewerPreference("PrintScaling", "None")  # print at 100 %: a scaled sheet cuts wrong
    return c


class _Kept(io.BytesIO):
    """A file that keeps what is written to it as given: reportlab's save writes the whole PDF in
    one piece, which is then the document's bytes, not copied into a buffer and out again (a
    run of 100,000 cards: two copies of the PDF fewer at the run's peak)."""

    def __init__(self) -> None:
        super().__init__()
        self._parts: list[bytes] = []

    def write(self, data: bytes) -> int:  # type: ignore[override]
        self._parts.append(bytes(data))
        return len(data)

    def getvalue(self) -> bytes:
        return self._parts[0] if len(self._parts) == 1 else b"".join(self._parts)


def painter(face: PreparedFace, fonts: FontSet, model: GameModel) -> Callable[[Canvas, Op], None]:
    """What draws one op of `face` (render.paint), as render.pen records faces op by op."""
    return lambda c, op: paint_op(c, op, face, fonts, model)


def define_forms(
    c: Canvas,
    faces: Mapping[str, PreparedFace],
    fonts: FontSet,
    model: GameModel,
    recordings: Recordings | None = None,
    shared: Collection[str] | None = None,
) -> Callable[[str], Recording]:
    """Each face once as a form (and each cost symbol the faces use, once, before them), replayed
    from its recording (render.pen): a face drawn by an earlier run or for another document is not
    drawn again. With `shared`, only those faces become forms; the rest are drawn on their page
    (`Replayer.inline`) from their recording, which the function returned gives when asked (not
    all held at once: a run of 100,000 faces). `faces` may make each face when asked for
    (printrun.printing.RunFaces): a face whose recording is kept is not asked for here unless it
    becomes a form."""
    kept = recordings or Recordings(fonts)
    enforce = rl.colour_enforcer(c)

    def recorded(key: str) -> Recording:
        found = kept.kept(key) if enforce is None else None
        if found is not None:  # the face itself is not asked for (it may be made on demand)
            return found
        face = faces[key]
        return kept.face(face, painter(face, fonts, model), enforce)

    icons: set[tuple] = set()
    formed: dict[str, Recording] = {}
    for key in sorted(faces):
        recording = recorded(key)
        icons.update(icon_keys((recording,)))
        if shared is None or key in shared:
            formed[key] = recording
    define_icon_forms(c, icons, fonts, model)
    player = Replayer(c, fonts)
    for key, recording in formed.items():
        face = faces[key]
        size = (face.width + 2 * face.bleed, face.height + 2 * face.bleed)
        player.form(f"F{key}", recording, *size)
    if formed:
        player.finish()
    return recorded


def placed_more_than_once(plan: SheetPlan, backs: bool, fold: bool) -> set[str]:
    """The faces a plan places twice or more (forms, drawn once and placed by reference); the rest
    are drawn on their page."""
    seen: set[str] = set()
    again: set[str] = set()
    for page in plan.pages:
        for p in page.placements:
            for key in (p.front, p.back if (backs or fold) else None):
                if key is None:
                    continue
                if key in seen:
                    again.add(key)
                seen.add(key)
    return again


def write_sheets(
    plan: SheetPlan,
    faces: Mapping[str, PreparedFace],
    fonts: FontSet,
    model: GameModel,
    title: str,
    backs: Mapping[str, PreparedFace] | None = None,
    stamps: Mapping[str, str] | None = None,
    preface: Callable[[Canvas], object] | None = None,
    recordings: Recordings | None = None,
) -> tuple[bytes, list[str]]:
    """The sheets PDF, and warnings about what the paper had no room for (crop marks, captions).
    `stamps` prints each card's version small on its front; `preface` draws pages before the sheets
    (a change log)."""
    spec = plan.base
    buffer = _Kept()
    c = new_canvas(buffer, spec.paper, title, f"{model.name} print sheets", fonts)
    fold = spec.layout == "fold"  # one-sided: each back beside its front, to fold and glue
    duplex = spec.duplex != "none" and not fold
    shared = placed_more_than_once(plan, duplex, fold)
    every: ChainMap[str, PreparedFace] = ChainMap(backs or {}, faces)  # type: ignore[arg-type]
    recorded = define_forms(c, every, fonts, model, recordings, shared)
    stamp = Replayer(c, fonts)  # versions and pack codes: thousands of short texts on a big run
    code_tab = CodeTabs(c, fonts, stamp).draw
    # the faces of the page being drawn, each asked for once (faces may be made on demand: a long
    # run holds one page's, not all of them)
    page_faces: dict[tuple[bool, str], PreparedFace] = {}

    def face_of(key: str, back: bool = False) -> PreparedFace:
        face = page_faces.get((back, key))
        if face is None:
            face = page_faces[back, key] = ((backs or faces) if back else faces)[key]
        return face

    def put(c: Canvas, face: PreparedFace) -> None:
        if face.key in shared:
            c.doForm(f"F{face.key}")
        else:
            bleed = 2 * face.bleed
            stamp.inline(face.key, recorded(face.key), face.width + bleed, face.height + bleed)

    if spec.calibration:
        calibration_pages(c, fonts, spec)
    if preface is not None:
        preface(c)
    marks: dict[int, list[tuple[float, float, float, float]]] = {}
    pages = len(plan.pages)
    sizes = len(plan.grids())
    unlabelled = 0
    for n, page in enumerate(plan.pages, 1):
        page_faces.clear()
        for p in page.placements:

            def tabs(
                trim: tuple[float, float, float, float], p: Placement = p, code: str = page.code
            ) -> None:
                front = face_of(p.front).template
                if code and not duplex:
                    code_tab(code, trim, "right", template=front)
                if stamps and p.card_id in stamps:
                    code_tab(stamps[p.card_id], trim, "left", template=front)

            folded = face_of(p.back, True) if fold and p.back is not None else None
            place_front(c, page.spec, p.slot, face_of(p.front), folded, tabs, put)
        if id(page.grid) not in marks:
            marks[id(page.grid)] = crop_marks(page.grid, page.spec)
        draw_marks(c, marks[id(page.grid)])
        draw_fold_marks(c, fold_marks(page.grid, page.spec))
        head = (
            [title]
            + ([page.label] if page.label else [])
            + ([size_name(page.spec.card)] if sizes > 1 else [])
        )
        if not caption(
            c,
            fonts,
            page,
            head
            + [
                f"sheet {n} of {pages}, fronts",
                "print at 100 % (no scaling)"
                + (f", double-sided, flip on the {spec.duplex} edge" if duplex else ""),
            ],
        ):
            unlabelled += 1
        c.showPage()
        rl.compress_ended_page(c, flate)
        if duplex:
            for p in page.placements:
                if p.back is None:
                    continue
                face = face_of(p.back, True)

                def back_tab(
                    trim: tuple[float, float, float, float],
                    code: str = page.code,
                    template: Template = face.template,
                ) -> None:
                    code_tab(code, trim, "back", template=template)

                place_back(c, page.spec, p.slot, face, put, back_tab if page.code else None)
            caption(c, fonts, page, head + [f"sheet {n} of {pages}, backs"])
            c.showPage()
            rl.compress_ended_page(c, flate)
    c.save()
    warnings = sheet_warnings(plan)
    if unlabelled:
        warnings.append(
            f"{unlabelled} sheet{'s' * (unlabelled != 1)} had no margin with room for a caption "
            f"5 mm from the paper edge: their label is left out"
        )
    return buffer.getvalue(), warnings

"""Recorded faces (render.pen): a replayed face looks exactly like one drawn directly, keeps its
transparency, and a warm print run replays every unchanged face instead of drawing it again."""

from __future__ import annotations

import io
import marshal

import pypdfium2 as pdfium
import pytest
from PIL import ImageChops
from pypdf import PdfReader

from cardgen.core.workspace import Workspace
from cardgen.printrun.printing import SheetOptions, choose_cards, sheet_bytes
from cardgen.project.studio import Studio, open_studio, save_disk_cache, with_disk_cache
from cardgen.render import pdfsheets
from cardgen.render.icons import define_icon_forms
from cardgen.render.paint import draw_face
from cardgen.render.pdfsheets import define_forms, new_canvas
from cardgen.render.pen import Recordings, icon_keys
from cardgen.render.prepared import PreparedFace


def _page(
    studio: Studio, face: PreparedFace, replay: bool, recordings: Recordings | None = None
) -> bytes:
    """A one-page PDF showing the face: replayed from a recording, or drawn straight onto the canvas
    as before."""
    buffer = io.BytesIO()
    size = (face.width + 2 * face.bleed, face.height + 2 * face.bleed)
    c = new_canvas(buffer, size, "t", "t", studio.fonts)
    if replay:
        define_forms(c, {face.key: face}, studio.fonts, studio.model, recordings)
        c.doForm(f"F{face.key}")
    else:
        probe = Recordings(studio.fonts)  # only to learn which symbol forms the face places
        define_icon_forms(
            c,
            icon_keys(
                [probe.get(face.key, lambda r: draw_face(r, face, studio.fonts, studio.model))]
            ),
            studio.fonts,
            studio.model,
        )
        draw_face(_Direct(c), face, studio.fonts, studio.model)  # type: ignore[arg-type]
    c.showPage()
    c.save()
    return buffer.getvalue()


class _Direct:
    """The canvas as the painter used it before recordings: cost symbols placed by reference to
    their forms."""

    def __init__(self, c) -> None:  # type: ignore[no-untyped-def]
        self._c = c

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self._c, name)

    def record_icon(self, key, cx, cy, d) -> None:  # type: ignore[no-untyped-def]
        c = self._c
        c.saveState()
        c.translate(cx - d / 2, cy - d / 2)
        c.scale(d / 100, d / 100)
        c.doForm(c._cardgen_icons[key])
        c.restoreState()


def _cached_sheets(ws: Workspace, **options: str) -> bytes:
    """One of each card's sheets, with the workspace's face cache read and saved, as `cardgen
    sheets` does."""
    studio = with_disk_cache(open_studio(ws, "clean"))
    opts = SheetOptions(copies="one", **options)  # type: ignore[arg-type]
    chosen, _, _ = choose_cards(studio, opts)
    pdf = sheet_bytes(studio, opts, chosen).pdf
    save_disk_cache(studio)
    return pdf


def _raster(pdf: bytes):  # type: ignore[no-untyped-def]
    return pdfium.PdfDocument(pdf)[0].render(scale=3).to_pil().convert("RGB")


@pytest.mark.parametrize(
    "where, game",
    [
        ("fixtures/ws", "clean"),
        ("fixtures/lantern", "lantern"),
        ("..", "power-trip"),
        ("..", "ivion"),
        ("..", "aether-duel"),
    ],
)
def test_every_template_replays_exactly_as_drawn(where: str, game: str) -> None:
    from ..conftest import TESTS

    studio = open_studio(Workspace.find(TESTS / where), game)
    faces: dict[str, PreparedFace] = {}  # one card of each front template, and each back
    for card in studio.designs(printable=True):
        front, back = studio.prepare(card)
        faces.setdefault(front.template.file, front)
        if back is not None:
            faces.setdefault(back.template.file, back)
    assert faces
    for face in faces.values():
        drawn, replayed = _raster(_page(studio, face, False)), _raster(_page(studio, face, True))
        assert ImageChops.difference(drawn, replayed).getbbox() is None, face.template.name


def test_a_recording_survives_the_cache_format_and_replays_byte_identically(
    fixture_ws: Workspace,
) -> None:
    studio = open_studio(fixture_ws, "clean")
    face = studio.prepare(studio.designs(printable=True)[0])[0]
    fresh = Recordings(studio.fonts, {})
    first = _page(studio, face, True, fresh)
    stored = marshal.loads(
        marshal.dumps(dict(fresh.stored or {}))
    )  # what a later run reads from disk
    assert face.key in stored
    again = Recordings(studio.fonts, stored)
    assert _page(studio, face, True, again) == first
    assert any(
        isinstance(p, tuple) and p[0] == "T" for p in stored[face.key]
    )  # text kept as Unicode runs


def test_translucent_elements_keep_their_opacity(scratch_ws: Workspace) -> None:
    front = scratch_ws.templates_dir("clean") / "front.yaml"
    plain = open_studio(scratch_ws, "clean")
    ground = _raster(_page(plain, plain.prepare(plain.designs(printable=True)[0])[0], True))
    front.write_text(
        front.read_text().rstrip("\n")
        + '\n  - {id: veil, type: rect, x: 0mm, y: 0mm, w: 63mm, h: 88mm, fill: "#0000ff", '
        "opacity: 0.5}\n"
    )
    studio = open_studio(scratch_ws, "clean")
    face = studio.prepare(studio.designs(printable=True)[0])[0]
    pdf = _page(studio, face, True)
    reader = PdfReader(io.BytesIO(pdf))
    form = next(iter(reader.pages[0]["/Resources"]["/XObject"].values())).get_object()
    states = form["/Resources"]["/ExtGState"]
    assert sorted((k, float(v)) for s in states.values() for k, v in s.get_object().items()) == [
        ("/CA", 0.5),
        ("/ca", 0.5),
    ]  # fill and stroke, named once for every face of the document
    assert (
        ImageChops.difference(_raster(pdf), _raster(_page(studio, face, False))).getbbox() is None
    )
    image = _raster(pdf)
    for xy in ((image.width // 2, image.height // 2), (image.width // 3, image.height // 5)):
        mixed = [(u + v) / 2 for u, v in zip(ground.getpixel(xy), (0, 0, 255))]
        assert all(
            abs(a - b) <= 3 for a, b in zip(image.getpixel(xy), mixed)
        )  # half blue, half the card


def test_a_warm_run_replays_and_an_edit_draws_one_face(scratch_ws: Workspace, monkeypatch) -> None:
    from cardgen.render.face import _ELEMENTS
    from cardgen.render.pen import DRAWN

    _ELEMENTS.clear()  # what earlier tests in this process laid out and drew
    DRAWN.clear()
    drawn: set[str] = set()  # the faces with an element drawn (faces are drawn op by op)
    real = pdfsheets.paint_op

    def counting(c, op, face, fonts, model):  # type: ignore[no-untyped-def]
        drawn.add(face.key)
        real(c, op, face, fonts, model)

    monkeypatch.setattr(pdfsheets, "paint_op", counting)

    def run() -> bytes:
        return _cached_sheets(scratch_ws)

    cold = run()
    assert len(drawn) == 4  # three fronts and the back
    drawn.clear()
    assert run() == cold and drawn == set()  # byte-identical, nothing drawn again
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(cards.read_text().replace("Deal 2 damage", "Deal 3 damage"))
    edited = run()
    assert len(drawn) == 1 and edited != cold


def test_faces_laid_out_by_workers_equal_a_serial_run(tmp_path, monkeypatch) -> None:
    import shutil

    from cardgen.render import prefetch as prefetch_module

    from ..conftest import TESTS

    def run(root, parallel: bool, expect: int) -> tuple[bytes, list]:  # type: ignore[no-untyped-def]
        monkeypatch.setattr(prefetch_module, "MIN_FACES", 1 if parallel else 10**9)
        monkeypatch.setattr(prefetch_module, "PROBE", 0)  # no timed probe: helpers whatever it says
        studio = with_disk_cache(open_studio(Workspace.find(root), "lantern"))
        chosen, _, _ = choose_cards(studio, SheetOptions(copies="one"))
        made = studio.prefetch([card for card, _ in chosen])
        pdf = sheet_bytes(studio, SheetOptions(copies="one"), chosen).pdf
        save_disk_cache(studio)
        assert made == expect  # faces (fronts and backs) the workers laid out
        return pdf, studio.face_findings()

    roots = []
    for name in ("serial", "parallel"):
        shutil.copytree(TESTS / "fixtures" / "lantern", tmp_path / name)
        roots.append(tmp_path / name)
    serial, parallel = run(roots[0], False, 0), run(roots[1], True, 5)
    assert serial == parallel  # the same bytes and findings, wherever the faces were laid out
    assert run(roots[1], True, 0)[0] == parallel[0]  # and the cache they left serves the next run


def test_faces_laid_out_by_workers_are_judged_there(scratch_ws: Workspace, monkeypatch) -> None:
    """A cold one-off run's helpers measure the contrast of the faces they lay out and hand the
    measures back: the guard then lays no face out again, and finds what a serial run finds."""
    import shutil

    from cardgen.render import prefetch as prefetch_module
    from cardgen.render.face import FaceRenderer

    front = scratch_ws.root / "templates" / "clean" / "front.yaml"  # grey rules text: low contrast
    front.write_text(
        front.read_text().replace(
            "rich: true, font: body,", 'rich: true, color: "#aaaaaa", font: body,', 1
        )
    )
    monkeypatch.setattr(prefetch_module, "PROBE", 0)  # no timed probe: helpers whatever it says
    found = []
    for least in (10**9, 1):  # serial, then helpers: each cold
        shutil.rmtree(scratch_ws.output_dir("clean") / ".cache", ignore_errors=True)
        monkeypatch.setattr(prefetch_module, "MIN_FACES", least)
        studio = with_disk_cache(open_studio(scratch_ws, "clean"))
        chosen, _, _ = choose_cards(studio, SheetOptions(copies="one"))
        assert studio.prefetch([card for card, _ in chosen]) == (0 if least > 1 else 4)
        laid: list[str] = []
        real = FaceRenderer._lay_out

        def counting(self, key, *rest, laid=laid, real=real):  # type: ignore[no-untyped-def]
            laid.append(key)
            return real(self, key, *rest)

        monkeypatch.setattr(FaceRenderer, "_lay_out", counting)
        found.append(studio.face_findings())
        monkeypatch.setattr(FaceRenderer, "_lay_out", real)
        # serial: laid out here as the guard asks; helpers: every face judged where laid out
        assert bool(laid) == (least > 1)
    assert found[0] == found[1] and any(f.code == "low-contrast" for f in found[0])


def test_text_continuing_after_a_colour_change_keeps_its_place(fixture_ws: Workspace) -> None:
    from cardgen.render.pen import RecordingCanvas

    studio = open_studio(fixture_ws, "clean")
    canvas = RecordingCanvas(studio.fonts)
    name = studio.fonts.name("CharisSIL-Regular")

    def draw(c) -> None:  # type: ignore[no-untyped-def]
        t = c.beginText()
        t.setTextOrigin(10, 20)
        t.setFont(name, 8)
        t.textOut("ab")
        t.setFillColor("#ff0000")
        t.textOut("cd")  # no new origin: it follows "ab", in red
        c.drawText(t)

    runs = [part[1] for part in canvas.record(draw) if isinstance(part, tuple) and part[0] == "T"]
    from reportlab.lib.rl_accel import fp_str

    assert [r[0][2] for r in runs] == [
        "1 0 0 1 10 20 Tm",
        f"1 0 0 1 {fp_str(10 + canvas.stringWidth('ab', name, 8))} 20 Tm",
    ]


def test_a_picture_replaced_under_the_same_name_is_drawn_anew(scratch_ws: Workspace) -> None:
    import shutil

    from PIL import Image

    from cardgen.printrun.pngs import PngOptions, export_pngs

    art = scratch_ws.root / "cards" / "clean" / "art.png"
    Image.new("RGB", (60, 40), (40, 90, 200)).save(art)
    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    cards.write_text(
        cards.read_text().replace(
            "- name: Tide Caller\n", "- name: Tide Caller\n  art: cards/clean/art.png\n"
        )
    )

    def sheets() -> bytes:
        return _cached_sheets(scratch_ws)

    pngs = scratch_ws.root / "output" / "clean" / "png"
    sheets()
    export_pngs(open_studio(scratch_ws, "clean"), PngOptions(dpi=72, cache=True), pngs)
    Image.new("RGB", (20, 80), (200, 40, 40)).save(art)  # same name, another shape and colour
    warm = sheets()
    shutil.rmtree(scratch_ws.root / "output" / "clean" / ".cache")
    assert (
        warm == sheets()
    )  # the same as without any cache: the new picture, at its own aspect ratio
    export_pngs(open_studio(scratch_ws, "clean"), PngOptions(dpi=72, cache=True), pngs)
    face = Image.open(pngs / "tide-caller.png").convert("RGB")
    assert any(
        r > 150 and b < 80 for _, (r, g, b) in face.getcolors(1 << 20)
    )  # the red picture, not the blue


def test_a_cached_face_is_laid_out_again_when_its_layout_is_needed(scratch_ws: Workspace) -> None:
    """The cache keeps no layouts: a low-ink copy of a cached face re-lays it out, to the same
    bytes."""

    def low_ink() -> bytes:
        return _cached_sheets(scratch_ws, ink="low")

    studio = with_disk_cache(open_studio(scratch_ws, "clean"))
    fresh = studio.prepare(studio.designs(printable=True)[0])[0]
    save_disk_cache(studio)
    cached = with_disk_cache(open_studio(scratch_ws, "clean")).prepare(
        studio.designs(printable=True)[0]
    )[0]
    assert "ops" not in cached.__dict__ and [(op.type, op.box) for op in cached.ops] == [
        (op.type, op.box) for op in fresh.ops
    ]
    first = low_ink()
    assert low_ink() == first


def test_a_warm_low_ink_run_draws_from_its_recordings_without_laying_out(
    scratch_ws: Workspace, monkeypatch
) -> None:
    """A low-ink copy of a cached face is drawn from the copy's kept recording: neither the face
    nor its copy is laid out again (the print-and-play set's ink-saving version, every build)."""
    from cardgen.render.face import FaceRenderer

    laid: list[str] = []
    real = FaceRenderer._lay_out

    def counting(self, key, card, template, bleed):  # type: ignore[no-untyped-def]
        laid.append(key)
        return real(self, key, card, template, bleed)

    monkeypatch.setattr(FaceRenderer, "_lay_out", counting)
    cold = _cached_sheets(scratch_ws, ink="low")
    assert laid  # the cold run laid the faces out
    laid.clear()
    assert _cached_sheets(scratch_ws, ink="low") == cold and laid == []
    monkeypatch.setenv("CARDGEN_NO_CACHE", "1")
    from cardgen.speed.cache import set_enabled

    set_enabled(True)  # reads the environment: off
    try:
        assert _cached_sheets(scratch_ws, ink="low") == cold  # the plain pipeline's bytes
    finally:
        monkeypatch.delenv("CARDGEN_NO_CACHE")
        set_enabled(True)


def test_remembered_compression_gives_zlibs_bytes_and_forgets_past_its_limit(monkeypatch) -> None:
    import random
    import zlib

    from cardgen.render import replay as pen
    from cardgen.speed.memo import Memo

    kept: Memo[bytes] = Memo(10_000, weigh=pen.FLATE.weigh)  # by the compressed bytes
    monkeypatch.setattr(pen, "FLATE", kept)
    rng = random.Random(7)
    streams = [
        bytes(rng.choice(b"0123456789 qQ.cmTf") for _ in range(rng.randrange(1, 4000)))
        for _ in range(40)
    ]
    for data in streams + streams:  # the second pass comes from memory
        assert pen.flate(data) == zlib.compress(data)
    assert pen.flate("text é") == zlib.compress(
        "text é".encode()
    )  # text as reportlab's filter takes it
    assert 0 < kept.weight <= 10_000 and 0 < len(kept) < len(streams)
    assert kept.weight == sum(len(packed) + 64 for packed in kept._kept.values())
    assert all(len(key) == 20 for key in kept._kept)  # by the content's digest, not the content


def test_a_document_written_again_in_one_process_is_byte_identical(fixture_ws: Workspace) -> None:
    """A live rebuild takes compressed streams, page environments and converted chapters from
    memory: the bytes must be those of a first run."""
    studio = open_studio(fixture_ws, "clean")
    opts = SheetOptions(copies="one")
    chosen, _, _ = choose_cards(studio, opts)
    first = sheet_bytes(studio, opts, chosen).pdf
    from cardgen.render.replay import FLATE

    assert len(FLATE)  # remembered
    assert sheet_bytes(open_studio(fixture_ws, "clean"), opts, chosen).pdf == first


def test_faces_compressed_on_a_second_thread_give_the_same_document(
    fixture_ws: Workspace, monkeypatch
) -> None:
    import threading

    from cardgen.render import replay as pen
    from cardgen.speed.memo import Memo

    def fresh() -> Memo[bytes]:
        return Memo(32 << 20, weigh=lambda data, _: len(data))

    studio = open_studio(fixture_ws, "clean")
    opts = SheetOptions(copies="collation")
    chosen, _, _ = choose_cards(studio, opts)
    monkeypatch.setattr(pen, "FLATE", fresh())  # nothing remembered: every stream compressed here
    monkeypatch.setattr(pen, "BACKGROUND_FORMS", 10**9)
    inline = sheet_bytes(studio, opts, chosen).pdf
    monkeypatch.setattr(pen, "FLATE", fresh())
    monkeypatch.setattr(pen, "BACKGROUND_FORMS", 1)
    started = []
    real_start = threading.Thread.start
    monkeypatch.setattr(
        threading.Thread, "start", lambda self: started.append(self.name) or real_start(self)
    )
    assert sheet_bytes(studio, opts, chosen).pdf == inline
    assert (
        started == ["cardgen-compress"] and threading.active_count() == 1
    )  # ended once the PDF was written

"""Pictures from someone else's game folder: only PNG, JPEG, WebP, GIF and TIFF (by their bytes,
whatever the file's name) reach Pillow; anything else is an image-unreadable finding and Ghostscript
never runs."""

from __future__ import annotations

import base64
import io
import os
import re
import struct
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from cardgen.cli.main import main
from cardgen.core.workspace import Workspace
from cardgen.render import imagefile

EPS = (
    b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n%%EndComments\n"
    b"newpath 0 0 moveto 10 10 lineto stroke\nshowpage\n%%EOF\n"
)
PS = (
    b"%!PS-Adobe-3.0\n%%BoundingBox: 0 0 10 10\n%%Pages: 1\n%%EndComments\n%%Page: 1 1\n"
    b"newpath 0 0 moveto 10 10 lineto stroke\nshowpage\n%%EOF\n"
)
DOS_EPS = (
    struct.pack("<4sIIIIIIH", b"\xc5\xd0\xd3\xc6", 30, len(EPS), 0, 0, 0, 0, 0xFFFF) + EPS
)  # binary EPS
SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    b'<rect width="10" height="10" fill="#00f"/></svg>'
)
CARDS = (("R1/2", "ember-guard"), ("R2/2", "firestorm"), ("U1/1", "tide-caller"))


def picture(fmt: str, mode: str = "RGB", size: tuple[int, int] = (16, 16)) -> bytes:
    buf = io.BytesIO()
    Image.new(mode, size, "red").save(buf, format=fmt)
    return buf.getvalue()


PRINTABLE = (640, 300)  # the clean front's 53 x 25 mm art box at about 300 dpi (the art guards)


def stand_in_ghostscript(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An environment whose PATH starts with a `gs` that only records being called, and its
    record."""
    record = tmp_path / "gs-called"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    gs = bin_dir / "gs"
    gs.write_text(f'#!/bin/sh\necho "gs $*" >> "{record}"\nexit 0\n')
    gs.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "XDG_CACHE_HOME": str(tmp_path / "user-cache"),
    }
    return env, record


def give_art(ws: Workspace, files: dict[str, bytes]) -> dict[str, int]:
    """Write art/NAME for each file and give the clean game's cards one each, in order; each card's
    art line."""
    art = ws.root / "art"
    art.mkdir(exist_ok=True)
    cards = ws.cards_dir("clean") / "cards.yaml"
    text = cards.read_text()
    for (number, _), (name, data) in zip(CARDS, files.items()):
        (art / name).write_bytes(data)
        text = text.replace(f"number: {number}\n", f"number: {number}\n  art: art/{name}\n")
    cards.write_text(text)
    lines = text.splitlines()
    return {name: lines.index(f"  art: art/{name}") + 1 for name in list(files)[: len(CARDS)]}


def image_findings(ws: Workspace) -> list[str]:
    result = CliRunner().invoke(main, ["--root", str(ws.root), "validate", "clean"])
    assert "Traceback" not in result.output, result.output
    return [line for line in result.output.splitlines() if "[image-" in line]


def test_the_stand_in_is_what_plain_pillow_runs_on_these_files(tmp_path: Path) -> None:
    """The fixtures are the real threat: Pillow left to itself hands each of them to Ghostscript."""
    env, record = stand_in_ghostscript(tmp_path)
    for name, data in (("x.png", EPS), ("y.jpg", PS), ("z.webp", DOS_EPS)):
        (tmp_path / name).write_bytes(data)
        code = (
            f"from PIL import Image\ntry:\n    Image.open({str(tmp_path / name)!r}).load()\n"
            "except OSError:\n    pass"
        )
        subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=120)
        assert name in record.read_text()


def test_ghostscript_is_off_in_a_process_that_used_cardgen_pictures(tmp_path: Path) -> None:
    """The second line: once cardgen.render.imagefile is used, Pillow's own EPS plugin cannot run gs
    either."""
    env, record = stand_in_ghostscript(tmp_path)
    (tmp_path / "x.png").write_bytes(EPS)
    code = (
        "from cardgen.render import imagefile\nimagefile.disarm()\nfrom PIL import Image\n"
        f"try:\n    Image.open({str(tmp_path / 'x.png')!r}).load()\nexcept OSError as exc:\n    "
        "print(exc)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert "Unable to locate Ghostscript" in done.stdout, done.stderr
    assert not record.exists()


DISGUISED = {  # name -> (bytes, what the finding says they hold)
    "eps.png": (EPS, "it holds PostScript (EPS) data"),
    "ps.jpg": (PS, "it holds PostScript (EPS) data"),
    "dos-eps.webp": (DOS_EPS, "it holds EPS data"),
    "pdf.png": (
        b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n",
        "it holds PDF data",
    ),
    "icon.png": (picture("ICO"), "it holds ICO data"),
    "bitmap.gif": (picture("BMP"), "it holds BMP data"),
    "targa.tiff": (picture("TGA"), "it holds data of no picture format cardgen knows"),
    "netpbm.png": (picture("PPM"), "it holds Netpbm (PPM) data"),
    "empty.png": (b"", "it holds nothing (the file is empty)"),
}


@pytest.mark.parametrize("start", range(0, len(DISGUISED), len(CARDS)))
def test_disguised_art_is_an_image_unreadable_finding_at_the_cards_art(
    scratch_ws: Workspace, start: int
) -> None:
    names = list(DISGUISED)[start : start + len(CARDS)]
    lines = give_art(scratch_ws, {name: DISGUISED[name][0] for name in names})
    expected = [
        f"cards/clean/cards.yaml:{lines[name]}:3: error[image-unreadable] {card}: image "
        f"'art/{name}' "
        f"is not a picture cardgen can read: {DISGUISED[name][1]} (cardgen reads PNG, JPEG, WebP, "
        "GIF and "
        "TIFF, whatever the file's name)"
        for name, (_, card) in zip(names, CARDS)
    ]
    assert image_findings(scratch_ws) == expected


def test_svg_art_says_it_is_an_svg_drawing(scratch_ws: Workspace) -> None:
    lines = give_art(scratch_ws, {"drawing.png": SVG})
    assert image_findings(scratch_ws) == [
        f"cards/clean/cards.yaml:{lines['drawing.png']}:3: error[image-unreadable] ember-guard: "
        "image "
        "'art/drawing.png' is an SVG drawing: card art must be PNG, JPEG, WebP, GIF or TIFF "
        "(export it as PNG)"
    ]


def test_allow_listed_pictures_are_drawn_whatever_their_names(scratch_ws: Workspace) -> None:
    from pypdf import PdfReader

    cards = scratch_ws.cards_dir("clean") / "cards.yaml"
    plain = cards.read_text()
    give_art(
        scratch_ws, {"gif.tif": picture("GIF"), "tiff.webp": picture("TIFF"), "mpo.png": _mpo()}
    )
    assert image_findings(scratch_ws) == []
    cards.write_text(plain)
    give_art(
        scratch_ws,
        {
            "png.jpg": picture("PNG", "RGBA", PRINTABLE),
            "jpeg.png": picture("JPEG", size=PRINTABLE),
            "webp.gif": picture("WEBP", size=PRINTABLE),
        },
    )
    assert image_findings(scratch_ws) == []
    result = CliRunner().invoke(main, ["--root", str(scratch_ws.root), "sheets", "clean"])
    assert result.exit_code == 0, result.output
    pdf = PdfReader(scratch_ws.output_dir("clean") / "sheets.pdf")
    assert (
        len({key for page in pdf.pages for key in _image_names(page)}) == 3
    )  # the three cards' pictures


def _mpo() -> bytes:
    """A JPEG holding two frames (what cameras write; Pillow calls it MPO)."""
    buf = io.BytesIO()
    Image.new("RGB", (16, 16), "red").save(
        buf, format="MPO", save_all=True, append_images=[Image.new("RGB", (16, 16), "blue")]
    )
    assert Image.open(io.BytesIO(buf.getvalue())).format == "MPO"
    return buf.getvalue()


def _image_names(page) -> set[str]:  # type: ignore[no-untyped-def]
    found = set()
    todo = [page["/Resources"]]
    while todo:
        resources = todo.pop()
        for name, xobject in (resources.get("/XObject") or {}).items():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Image":
                found.add(name)
            elif "/Resources" in xobject:
                todo.append(xobject["/Resources"])
    return found


def test_art_that_changed_after_the_check_is_drawn_as_missing(scratch_ws: Workspace) -> None:
    """A face kept from an earlier run names a file that is now EPS: painting (screen and press)
    opens it through the allow-list again, and reportlab never gets the path."""
    from cardgen.project.studio import open_studio
    from cardgen.render.paint import draw_face
    from cardgen.render.pen import RecordingCanvas
    from cardgen.render.press import flatten

    give_art(scratch_ws, {"art.png": picture("PNG")})
    studio = open_studio(scratch_ws, "clean")
    front, _ = studio.prepare(studio.designs()[0])
    drawn = RecordingCanvas(studio.fonts).record(
        partial(draw_face, face=front, fonts=studio.fonts, model=studio.model)
    )
    assert [p[1] for p in drawn if isinstance(p, tuple) and p[0] == "I"] == [
        str(scratch_ws.root / "art" / "art.png")
    ]
    (scratch_ws.root / "art" / "art.png").write_bytes(EPS)
    redrawn = RecordingCanvas(studio.fonts).record(
        partial(draw_face, face=front, fonts=studio.fonts, model=studio.model)
    )
    assert [p for p in redrawn if isinstance(p, tuple) and p[0] == "I"] == []
    assert any(
        isinstance(p, tuple) and p[0] == "T" and "unusable art: art.png" in p[1][0][3]
        for p in redrawn
    )
    images = [op for op in flatten(front).ops if op.type == "image"]
    assert [
        (op.props.get("missing"), "path" in op.props, "press_image" in op.props) for op in images
    ] == [("art.png", False, False)]


def test_the_rulebook_takes_allow_listed_pictures_and_svg_and_refuses_the_rest_by_their_bytes(
    scratch_ws: Workspace,
) -> None:
    from pypdf import PdfReader

    def pictures_in_the_book() -> tuple[int, int]:
        """The book's pictures (WeasyPrint shares them between pages), and its pure blue pixels: the
        SVG's."""
        import pypdfium2

        path = scratch_ws.output_dir("clean") / "rulebook.pdf"
        pictures = len({name for page in PdfReader(path).pages for name in _image_names(page)})
        document = pypdfium2.PdfDocument(path.read_bytes())
        blue = sum(
            any(
                colour == (0, 0, 255)
                for _, colour in page.render(scale=1).to_pil().convert("RGB").getcolors(2**24)
            )
            for page in document
        )
        return pictures, blue

    assert (
        CliRunner().invoke(main, ["--root", str(scratch_ws.root), "rulebook", "clean"]).exit_code
        == 0
    )
    before = pictures_in_the_book()  # the card faces the book shows
    assert before[1] == 0
    book = scratch_ws.root / "rules" / "clean" / "rulebook"
    (book / "photo.jpg").write_bytes(picture("PNG"))  # a PNG named .jpg: drawn
    (book / "drawing.png").write_bytes(SVG)  # SVG named .png: WeasyPrint's own SVG renderer
    (book / "eps.png").write_bytes(EPS)
    (book / "icon.gif").write_bytes(picture("ICO"))
    inline = "data:image/png;base64," + base64.b64encode(EPS).decode()
    basics = book / "basics.md"
    text = basics.read_text()
    basics.write_text(
        text + "\n![photo](photo.jpg)\n\n![drawing](drawing.png)\n\n![eps](eps.png)\n\n"
        f'<img src="{inline}">\n\n<img src="icon.gif">\n'
    )
    inline_line = len(text.splitlines()) + 8
    result = CliRunner().invoke(main, ["--root", str(scratch_ws.root), "rulebook", "clean"])
    assert "Traceback" not in result.output, result.output
    # each refused picture is a located finding at its chapter line, found before typesetting
    refused = re.findall(r"^(\S+): error\[image-unreadable\] (.*)$", result.output, re.M)
    eps_line, gif_line = inline_line - 2, inline_line + 2
    assert [where for where, _ in refused] == [
        f"rules/clean/rulebook/basics.md:{eps_line}:1",
        f"rules/clean/rulebook/basics.md:{inline_line}:1",
        f"rules/clean/rulebook/basics.md:{gif_line}:1",
    ], result.output
    assert "it holds PostScript (EPS) data" in refused[0][1]
    assert "an inline picture (a data: URI)" in refused[1][1]
    assert "icon.gif, which is not a picture it can read" in refused[2][1]
    assert result.exit_code == 1
    assert pictures_in_the_book() == (
        before[0] + 1,
        1,
    )  # the photo, and the SVG drawn as vectors on one page


def test_a_build_with_disguised_pictures_everywhere_never_runs_ghostscript(
    scratch_ws: Workspace, tmp_path: Path
) -> None:
    """Faces, painting, PNGs, gallery, rulebook, press export and Tabletop Simulator export, in a
    process of its own with the stand-in first on PATH: once with the allow-list alone (cardgen's
    switching off of Ghostscript undone), so that the second line does not hide a hole in the first,
    then as shipped. (WeasyPrint switches Ghostscript off itself when imported: the rulebook's own
    line is its refusals, above.)"""
    env, record = stand_in_ghostscript(tmp_path)
    give_art(scratch_ws, {"eps.png": EPS, "ps.jpg": PS, "dos.webp": DOS_EPS})
    book = scratch_ws.root / "rules" / "clean" / "rulebook"
    (book / "eps.png").write_bytes(EPS)
    inline = "data:image/png;base64," + base64.b64encode(DOS_EPS).decode()
    with (book / "basics.md").open("a") as f:
        f.write(f'\n![eps](eps.png)\n\n<img src="{inline}">\n\n<img src="../../../art/ps.jpg">\n')
    allow_list_alone = (
        "import sys\nfrom PIL import Image\nimport cardgen.render.imagefile as f\n"
        "f._pillow = lambda: Image\nfrom cardgen.cli.main import run\nsys.argv[0] = "
        "'cardgen'\nrun()"
    )
    runs = [
        (["-c", allow_list_alone], ["build", "clean"]),
        (["-c", allow_list_alone], ["export", "clean", "--to", "dtc"]),
        (["-m", "cardgen"], ["build", "clean"]),
        (["-m", "cardgen"], ["export", "clean", "--to", "dtc"]),
        (["-m", "cardgen"], ["export", "clean", "--to", "tts"]),
    ]
    for python, args in runs:
        done = subprocess.run(
            [sys.executable, *python, "--root", str(scratch_ws.root), *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert not record.exists(), (python[0], args, record.read_text())
        assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
        # a picture given but unusable is an error of its card: every command that ships the
        # card's face exits 1 by it
        assert done.returncode == 1, done.stdout + done.stderr
    assert (
        "error[image-unreadable]" in (scratch_ws.output_dir("clean") / "validation.txt").read_text()
    )


def test_what_the_rulebook_fetcher_lets_through() -> None:
    fonts = sorted((Path(imagefile.__file__).parent / "data" / "fonts").glob("*.ttf"))
    passing = [f.read_bytes() for f in fonts] + [
        b"body { width: 10px }\n",
        b"@font-face { src: url(x.ttf) }",
        SVG,
        b"\xef\xbb\xbf<?xml version='1.0'?>" + SVG,
        picture("PNG"),
        picture("JPEG"),
        picture("WEBP"),
        picture("GIF"),
        picture("TIFF"),
    ]
    assert [imagefile.fetch_problem(data) for data in passing] == [None] * len(passing)
    refused = {
        "EPS": EPS,
        "PS": PS,
        "DOS": DOS_EPS,
        "ICO": picture("ICO"),
        "BMP": picture("BMP"),
        "TGA": picture("TGA"),
        "PPM": picture("PPM"),
        "PCX": picture("PCX"),
        "SGI": picture("SGI"),
        "QOI": picture("QOI"),
        "PNG-ish": b"\x89PNG\r\n\x1a\n" + b"\0" * 40,
    }
    problems = {name: imagefile.fetch_problem(data) for name, data in refused.items()}
    assert problems == {
        "EPS": "is not a picture cardgen can read: it holds PostScript (EPS) data (cardgen reads "
        "PNG, JPEG, WebP, "
        "GIF and TIFF)",
        "PS": "is not a picture cardgen can read: it holds PostScript (EPS) data (cardgen reads "
        "PNG, JPEG, WebP, "
        "GIF and TIFF)",
        **{
            name: f"is not a picture cardgen can read: it holds {name} data (cardgen reads PNG, "
            "JPEG, WebP, GIF "
            "and TIFF)"
            for name in ("ICO", "BMP", "SGI", "QOI")
        },
        "DOS": "is not a picture cardgen can read: it holds EPS data (cardgen reads PNG, JPEG, "
        "WebP, GIF and TIFF)",
        **{
            name: f"is not a picture cardgen can read: it holds {name} data (cardgen reads PNG, "
            "JPEG, WebP, GIF "
            "and TIFF)"
            for name in ("TGA", "PPM", "PCX")
        },  # named by Pillow, which was asked
        "PNG-ish": problems["PNG-ish"],
    }
    assert (problems["PNG-ish"] or "").startswith("is damaged or truncated: ")


def test_a_fifo_or_a_folder_where_a_picture_was_is_never_waited_on(tmp_path: Path) -> None:
    import threading

    fifo = tmp_path / "art.png"
    os.mkfifo(fifo)
    found: list[str | None] = []
    worker = threading.Thread(
        target=lambda: found.extend(imagefile.problem(p) for p in (fifo, tmp_path)), daemon=True
    )
    worker.start()
    worker.join(
        timeout=60
    )  # guards against a hang only: opening a FIFO for reading waits for a writer
    assert found == ["is not a regular file", "is not a regular file"]
    assert not imagefile.usable(fifo) and not imagefile.usable(str(tmp_path / "missing.png"))
    (tmp_path / "ok.png").write_bytes(picture("PNG"))
    assert imagefile.usable(tmp_path / "ok.png")

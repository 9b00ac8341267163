"""Turn a Studio and its findings into the gallery: face PNGs (rendered once per face key),
index.html and the manifest of the faces cardgen wrote (the only files it ever prunes)."""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Template, TemplateError

from ..core.errors import CardgenError, Finding, count
from ..core.output import guard, refuse_links, write_atomic
from ..core.sandbox import LimitedSandbox, page_environment
from ..load.yamlio import UNREAD_CODES
from ..model.cost import cost_text
from ..project.studio import Studio
from ..render.prepared import PreparedFace
from ..render.raster import render_pngs

DPI = 150  # a 63 mm card is 372 px wide: sharp on screen, light to load
BLOCKING = UNREAD_CODES  # a file that could not be read: listed above the cards
MANIFEST = (
    ".cardgen-manifest.json"  # in the gallery folder: the faces cardgen wrote there (plain JSON)
)
MANIFEST_FORMAT = 1
MANIFEST_LIMIT = 16 << 20  # bytes; a larger manifest is not one cardgen wrote, and is ignored
# the layout inspector's style and scripts, written beside a live gallery's inspect.html
INSPECTOR_FILES = ("inspect.css", "inspect.js", "inspect-stage.js", "inspect-panel.js")
FACE_FILE = re.compile(r"cards/[0-9a-f][0-9a-f-]{7,79}\.png")  # a face's name: its content key


@dataclass
class GalleryResult:
    path: Path
    cards: int
    rendered: int  # faces rendered this time (the others were already on disk)
    findings: list[Finding] = field(default_factory=list)
    used: frozenset[str] = (
        frozenset()
    )  # the faces the page shows, as the page names them ("cards/KEY.png")


def facet_fields(studio: Studio) -> list[str]:
    """The fields the page filters on: the enum and list fields whose vocabulary offers a choice, in
    model order, less the draft marker."""
    model = studio.model
    return [
        f.name
        for f in model.fields.values()
        if f.type in ("enum", "list")
        and f.vocab in model.vocabularies
        and len(model.vocabularies[f.vocab].terms) > 1
        and f.name != model.draft_field
    ]


def _pixels(face: PreparedFace) -> list[int]:
    """A face's picture size in pixels at the gallery's resolution: the page gives each picture its
    own aspect ratio (a tarot or landscape face is never cropped to a poker card's shape)."""
    return [round(face.width / 25.4 * DPI), round(face.height / 25.4 * DPI)]


def _env(studio: Studio) -> LimitedSandbox:
    own = studio.ws.templates_dir(studio.game) / "gallery"
    shared = studio.ws.root / "templates" / "_shared" / "gallery"
    bundled = Path(__file__).resolve().parents[1] / "data" / "templates" / "gallery"
    return page_environment([own, shared, bundled], html_only=True)


def own_folders(out: Path, root: Path | None = None) -> None:
    """Refuse a gallery folder, or its cards/ folder, that is a symbolic link, with the one rule of
    every output folder (core.output): cardgen writes and prunes only in folders of its own (a link
    received with a workspace could point at the user's pictures). An --out folder elsewhere is
    guarded from now on too."""
    guard(out)
    refuse_links(out)
    refuse_links(out / "cards")


def write_gallery(
    studio: Studio,
    findings: list[Finding],
    out: Path,
    live: bool = False,
    version: str = "",
    keep: Collection[str] = (),
) -> GalleryResult:
    """Write the page and the faces it lacks, then prune the faces cardgen wrote that neither this
    page nor `keep` (a live server's earlier pages, still open in a browser) shows."""
    own_folders(out, studio.ws.root)
    ours = read_manifest(out)
    entries: list[dict[str, Any]] = []
    todo = []
    wanted: set[str] = set()
    by_card: dict[str, list[Finding]] = {}
    for f in findings:
        if f.card:
            by_card.setdefault(f.card, []).append(f)
    facets = facet_fields(studio)
    any_sides = False
    for card in studio.designs():
        image, size = None, None
        sides: list[dict[str, Any]] = []  # its own second face, its `also:` faces
        if studio.faces.for_card(card) is not None:
            front, back = studio.prepare(card, 0.0)
            # each face with its number in the layout inspector (live.layout.sides: 0 the front,
            # 1 the back, shared or not, then the `also:` faces)
            shown = [(front, "", 0)]
            if back is not None and studio.own_back(card):
                shown.append((back, "second face", 1))
            also = studio.other_faces(card, 0.0)
            first = 1 + (back is not None)
            shown += [(other, other.template.name, first + i) for i, (other, _) in enumerate(also)]
            for face, label, which in shown:
                picture = f"cards/{face.key}.png"
                if label:
                    sides.append(
                        {"image": picture, "label": label, "face": which, "size": _pixels(face)}
                    )
                else:
                    image, size = picture, _pixels(face)
                if (picture not in ours or not _regular(out / picture)) and picture not in wanted:
                    wanted.add(
                        picture
                    )  # reused only when cardgen wrote it (the manifest); else drawn (again)
                    todo.append((face, out / picture, picture))
        any_sides = any_sides or bool(sides)
        cost = cost_text(card.get(studio.model.cost_field or ""))
        entries.append(
            {
                "id": card.id,
                "name": card.name or card.id,
                "image": image,
                "size": size,
                "where": f"{card.file}:{card.line}",
                "facets": {k: [str(v) for v in card.values(k)] for k in facets},
                "cost": studio.model.parsed_cost(cost).total if cost else None,
                "fields": [
                    [k, v if isinstance(v, (str, int, float)) else ", ".join(map(str, v))]
                    for k, v in card.data.items()
                    if v is not None
                ],
                "search": " ".join(
                    [card.name, card.id] + [str(v) for v in card.data.values()]
                ).lower(),
                "findings": [_finding(f) for f in by_card.get(card.id, [])],
            }
        )
        if sides:  # only then: a game without second faces keeps its page byte for byte
            entries[-1]["sides"] = sides
    blocked = [_finding(f) for f in findings if f.code in BLOCKING]
    others = [_finding(f) for f in findings if not f.card and f.code not in BLOCKING]
    data = {
        "game": studio.game,
        "name": studio.model.name,
        "cards": entries,
        "facets": facets,
        "values": {k: _values(studio, k, entries) for k in facets},
        "broken": blocked,
        "set": others,
        "counts": count(findings),
        "live": live,
        "version": version,
    }
    if any_sides:
        data["sides"] = True
    try:
        html = (
            _env(studio)
            .get_template("index.html.j2")
            .render(data=data, data_json=script_json(data))
        )
    except (
        TemplateError
    ) as exc:  # a workspace's own gallery template: its mistake, one line, never a traceback
        filename = getattr(exc, "filename", None)
        where = f"{filename}:{getattr(exc, 'lineno', 0)}: " if filename else ""
        raise CardgenError(f"{where}the gallery template failed: {exc}") from exc
    # the swap: new faces first (named by content, so nothing the old page shows is touched; listed
    # in the manifest before they are written, so an interrupted run leaves no face cardgen would
    # not know as its own), then the page itself atomically, and only then the faces nothing links
    # to any more: a reader never sees a broken page
    listed = ours | {image for _, _, image in todo}
    if listed != ours:
        _write_manifest(out, listed)
    for (_, path, _), png in zip(
        todo, render_pngs([t[0] for t in todo], studio.fonts, studio.model, dpi=DPI)
    ):
        write_atomic(path, png)
    if live:
        write_inspector(out, studio)
    path = write_atomic(out / "index.html", html)
    used = frozenset(e["image"] for e in entries if e["image"]) | {
        side["image"] for e in entries for side in e.get("sides", ())
    }
    left = prune(out, listed, used | set(keep))
    if left != listed or not _regular(out / MANIFEST):
        _write_manifest(out, left)
    return GalleryResult(path, len(entries), len(todo), findings, used)


def write_inspector(out: Path, studio: Studio) -> None:
    """The layout inspector beside a live gallery: inspect.html and its style and scripts (from
    data/templates/inspect/), each written only when it differs from what is there."""
    folder = Path(__file__).resolve().parents[1] / "data" / "templates" / "inspect"
    html = page_template("inspect").render(game=studio.game, name=studio.model.name)
    files: list[tuple[str, bytes]] = [("inspect.html", html.encode("utf-8"))]
    files += [(name, (folder / name).read_bytes()) for name in INSPECTOR_FILES]
    for name, payload in files:
        target = out / name
        if not (_regular(target) and target.read_bytes() == payload):
            write_atomic(target, payload)


def read_manifest(out: Path) -> set[str]:
    """The faces cardgen wrote in `out` (names as "cards/KEY.png"), as its manifest lists them; none
    when there is no manifest, or one cardgen did not write (not a regular file, too large, not JSON
    of this form). Entries that are not face names are dropped: nothing the manifest says can name a
    file outside cards/."""
    try:
        fd = os.open(
            out / MANIFEST,
            os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0),
        )
    except OSError:
        return set()
    try:
        with os.fdopen(fd, "rb") as fh:
            raw = (
                fh.read(MANIFEST_LIMIT + 1) if stat.S_ISREG(os.fstat(fh.fileno()).st_mode) else b""
            )
        doc = json.loads(raw.decode("utf-8")) if 0 < len(raw) <= MANIFEST_LIMIT else None
    except (
        OSError,
        ValueError,
        RecursionError,
    ):  # unreadable, not UTF-8, not JSON, nested past the parser
        return set()
    files = (
        doc.get("files") if isinstance(doc, dict) and doc.get("format") == MANIFEST_FORMAT else None
    )
    return (
        {f for f in files if isinstance(f, str) and FACE_FILE.fullmatch(f)}
        if isinstance(files, list)
        else set()
    )


def _write_manifest(out: Path, files: set[str]) -> None:
    doc = {"format": MANIFEST_FORMAT, "written by": "cardgen", "files": sorted(files)}
    write_atomic(out / MANIFEST, json.dumps(doc, indent=1) + "\n")


def prune(out: Path, listed: set[str], keep: Collection[str]) -> set[str]:
    """Delete the listed faces not in `keep`; what is still listed afterwards. A listed name that is
    not a regular file (a link, a folder: not something cardgen wrote) is dropped from the list and
    left as it is; the cards/ folder itself is never a link (own_folders), so a name can only ever
    remove a file from it."""
    left = set()
    for name in listed:
        target = out / name
        if not _regular(target):
            continue  # gone, or not cardgen's: forgotten, untouched
        if name in keep:
            left.add(name)
            continue
        try:
            target.unlink()
        except FileNotFoundError:
            pass
        except OSError:
            left.add(name)  # cannot be removed now (permissions): tried again next time
    return left


def _regular(path: Path) -> bool:
    """A regular file itself, not through a link."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def _values(studio: Studio, field_name: str, entries: list[dict[str, Any]]) -> list[str]:
    vocab = studio.model.vocab_for(field_name)
    declared = vocab.names() if vocab else []
    used = sorted({v for e in entries for v in e["facets"][field_name]} - set(declared))
    return [v for v in declared if any(v in e["facets"][field_name] for e in entries)] + used


def _finding(f: Finding) -> dict[str, Any]:
    return (
        f.as_dict()
    )  # the one JSON form of a finding (cardgen validate --format json gives the same)


def script_json(data: object) -> str:
    """JSON safe inside a <script> element: no '<', '>' or '&' (so no '</script>' or '<!--' from
    card text)."""
    text = json.dumps(data, ensure_ascii=False)
    for ch, esc in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(ch, esc)
    return text


def page_template(name: str) -> Template:
    """One of cardgen's own HTML pages (report, error page), from the package, autoescaped,
    sandboxed."""
    return page_environment(
        [Path(__file__).resolve().parents[1] / "data" / "templates" / name]
    ).get_template("index.html.j2")

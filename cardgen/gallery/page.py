"""Turn a Studio and its findings into the gallery: face PNGs (rendered once per face key) and index.html."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Template, TemplateError

from ..errors import CardgenError, Finding, count
from ..model.cost import parse_cost
from ..output import write_atomic
from ..project import Studio
from ..render.raster import render_pngs
from ..sandbox import LimitedSandbox, page_environment

DPI = 150  # a 63 mm card is 372 px wide: sharp on screen, light to load
BLOCKING = {"yaml-syntax", "not-utf8", "not-a-list", "alias-bomb", "file-too-large", "unreadable-file"}


@dataclass
class GalleryResult:
    path: Path
    cards: int
    rendered: int  # faces rendered this time (the others were already on disk)
    findings: list[Finding] = field(default_factory=list)


def facet_fields(studio: Studio) -> list[str]:
    """The fields the page filters on: the enum and list fields whose vocabulary offers a choice, in model
    order, less the draft marker."""
    model = studio.model
    return [f.name for f in model.fields.values() if f.type in ("enum", "list") and f.vocab in model.vocabularies
            and len(model.vocabularies[f.vocab].terms) > 1 and f.name != model.draft_field]


def _env(studio: Studio) -> LimitedSandbox:
    own = studio.ws.templates_dir(studio.game) / "gallery"
    shared = studio.ws.root / "templates" / "_shared" / "gallery"
    bundled = Path(__file__).resolve().parents[1] / "data" / "templates" / "gallery"
    return page_environment([own, shared, bundled], html_only=True)


def write_gallery(studio: Studio, findings: list[Finding], out: Path, live: bool = False,
                  version: str = "") -> GalleryResult:
    entries: list[dict[str, Any]] = []
    todo = []
    by_card: dict[str, list[Finding]] = {}
    for f in findings:
        if f.card:
            by_card.setdefault(f.card, []).append(f)
    facets = facet_fields(studio)
    for card in studio.designs():
        image = None
        if studio.faces.for_card(card) is not None:
            face = studio.prepare(card, 0.0)[0]
            image = f"cards/{face.key}.png"
            if not (out / image).is_file():
                todo.append((face, out / image))
        cost = str(card.get(studio.model.cost_field or "") or "")
        entries.append({
            "id": card.id, "name": card.name or card.id, "image": image,
            "where": f"{card.file}:{card.line}",
            "facets": {k: [str(v) for v in card.values(k)] for k in facets},
            "cost": parse_cost(cost, studio.model.cost).total if cost else None,
            "fields": [[k, v if isinstance(v, (str, int, float)) else ", ".join(map(str, v))]
                       for k, v in card.data.items() if v is not None],
            "search": " ".join([card.name, card.id] + [str(v) for v in card.data.values()]).lower(),
            "findings": [_finding(f) for f in by_card.get(card.id, [])],
        })
    blocked = [_finding(f) for f in findings if f.code in BLOCKING]
    others = [_finding(f) for f in findings if not f.card and f.code not in BLOCKING]
    data = {"game": studio.game, "name": studio.model.name, "cards": entries, "facets": facets,
            "values": {k: _values(studio, k, entries) for k in facets}, "broken": blocked, "set": others,
            "counts": count(findings), "live": live, "version": version}
    try:
        html = _env(studio).get_template("index.html.j2").render(data=data, data_json=script_json(data))
    except TemplateError as exc:  # a workspace's own gallery template: its mistake, one line, never a traceback
        filename = getattr(exc, "filename", None)
        where = f"{filename}:{getattr(exc, 'lineno', 0)}: " if filename else ""
        raise CardgenError(f"{where}the gallery template failed: {exc}") from exc
    # the swap: new faces first (named by content, so nothing the old page shows is touched), then the page
    # itself atomically, and only then the faces nothing links to any more; a reader never sees a broken page
    for (_, path), png in zip(todo, render_pngs([t[0] for t in todo], studio.fonts, studio.model, dpi=DPI)):
        write_atomic(path, png)
    path = write_atomic(out / "index.html", html)
    used = {e["image"] for e in entries if e["image"]}
    for old in (out / "cards").glob("*.png"):
        if f"cards/{old.name}" not in used:
            old.unlink(missing_ok=True)
    return GalleryResult(path, len(entries), len(todo), findings)


def _values(studio: Studio, field_name: str, entries: list[dict[str, Any]]) -> list[str]:
    vocab = studio.model.vocab_for(field_name)
    declared = vocab.names() if vocab else []
    used = sorted({v for e in entries for v in e["facets"][field_name]} - set(declared))
    return [v for v in declared if any(v in e["facets"][field_name] for e in entries)] + used


def _finding(f: Finding) -> dict[str, Any]:
    return f.as_dict()  # the one JSON form of a finding (cardgen validate --format json gives the same)


def script_json(data: object) -> str:
    """JSON safe inside a <script> element: no '<', '>' or '&' (so no '</script>' or '<!--' from card text)."""
    text = json.dumps(data, ensure_ascii=False)
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                    ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text


def page_template(name: str) -> Template:
    """One of cardgen's own HTML pages (report, error page), from the package, autoescaped, sandboxed."""
    return page_environment([Path(__file__).resolve().parents[1] / "data" / "templates" / name]).get_template(
        "index.html.j2")

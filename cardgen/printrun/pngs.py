"""Turn a project's faces into PNG files: one per face, or each on a vendor's canvas for its size
(turned when only the turned size is a product), cached by face, resolution and drawing code."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.errors import CardgenError, Finding, Severity
from ..core.options import Ink
from ..core.output import JobResult, Output, inside, write_atomic
from ..core.units import size_name
from ..load.card import Card, file_stem
from ..model.game import Role
from ..project.studio import Studio
from ..render.prepared import PreparedFace
from ..render.vendors import BACK_TURN, FRONT_TURN, Canvas, bleed_for, product_for, vendor
from .printing import Progress, inked, matched_nothing, quiet


@dataclass
class PngOptions:
    dpi: int = 300
    preset: str | None = None
    out: Path | None = None
    only: str | None = None
    cache: bool = (
        False  # keep rendered PNGs in the workspace's output/GAME/.cache/png (build, export --png)
    )
    ink: Ink = "normal"


@dataclass
class Refused:
    """Cards a vendor cannot print, for one reason: a size it sells neither way up, or a back of
    another size than its front."""

    reason: str
    file: str  # the template whose size it is (as findings show it)
    cards: list[Card]

    def finding(self, target: str) -> Finding:
        names = [card.name or card.id for card in self.cards]
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        n = len(names)
        return Finding(
            self.file,
            0,
            0,
            Severity.ERROR,
            "export-size-refused",
            None,
            f"{target}: {n} card{'s' * (n != 1)} left out ({shown}): {self.reason}",
            "the export's other cards are written",
        )


def vendor_canvases(
    studio: Studio, vendor_key: str, cards: list[Card]
) -> tuple[dict[str, Canvas], list[Refused]]:
    """Each card's canvas at a print-on-demand vendor (by card id; a landscape card's is its
    portrait product's, turned), and the cards it cannot print, one refusal per reason."""
    v = vendor(
        vendor_key.removesuffix("-poker")
    )  # 'tgc-poker' was the preset's name before other sizes
    out: dict[str, Canvas] = {}
    refused: dict[str, Refused] = {}
    for card in cards:
        rule = studio.faces.for_card(card)
        if rule is None:
            continue
        problem: tuple[str, str, str] | None = None  # (key, reason, template file)
        got = product_for(v, rule.front.size)
        back = rule.back
        if isinstance(got, str):
            problem = (size_name(rule.front.size), got, rule.front.file)
        elif back is not None and back.size != rule.front.size:
            problem = (
                f"back {back.name}",
                f"back template '{back.name}' is {size_name(back.size)}, its front "
                f"'{rule.front.name}' {size_name(rule.front.size)}: a vendor prints both sides "
                "one size",
                back.file,
            )
        if problem is None:
            out[card.id] = got  # type: ignore[assignment]
            continue
        key, reason, file = problem
        refused.setdefault(key, Refused(reason, file, [])).cards.append(card)
    return out, list(refused.values())


def rotation_notes(studio: Studio, cards: list[Card], canvases: dict[str, Canvas]) -> list[str]:
    """What the summary says of landscape cards turned onto a portrait product: '12 Location
    cards rotated to poker portrait' (by kind, each design once)."""
    counts: dict[tuple[str, str], int] = {}
    for card in cards:
        kind = studio.model.role_value(card, Role.KIND)
        label = " ".join(map(str, kind)) if isinstance(kind, list) else str(kind or "landscape")
        key = (canvases[card.id].product.name, label)
        counts[key] = counts.get(key, 0) + 1
    return [
        f"{n} {label} card{'s' * (n != 1)} rotated to {product} portrait (fronts clockwise, "
        "backs counter-clockwise: turned over sideways, the printed card shows its back upright)"
        for (product, label), n in counts.items()
    ]


def rotated_png(png: bytes, turn: int, dpi: int) -> bytes:
    """A PNG face turned by `turn` degrees counter-clockwise (a multiple of 90), encoded as every
    PNG face is."""
    from PIL import Image

    from ..render import imagefile
    from ..render.raster import png_bytes

    with imagefile.opened(png, formats=("PNG",)) as im:  # cardgen's own PNG, opened as nothing else
        turned = im.convert("RGB").transpose(
            Image.Transpose.ROTATE_90 if turn % 360 == 90 else Image.Transpose.ROTATE_270
        )
    return png_bytes(turned, dpi)


def export_pngs(
    studio: Studio, opts: PngOptions, out_dir: Path, progress: Progress = quiet
) -> JobResult:
    """One PNG per unique face, named by card id (a card's own second face NAME-back, an `also:`
    face NAME-TEMPLATE, a shared back back-TEMPLATE); with a vendor preset, each on the vendor's
    canvas for its card size."""
    if not 36 <= opts.dpi <= 1200:
        raise CardgenError(f"--dpi must be between 36 and 1200, not {opts.dpi}")
    keep = studio.selector(opts.only)
    designs = studio.designs(printable=True)
    cards = [card for card in designs if keep(card)]
    nothing = matched_nothing(opts.only, cards, len(designs))
    canvases: dict[str, Canvas] = {}
    if opts.preset:  # the cards the vendor cannot print are named (exit 1), the others written
        canvases, refused = vendor_canvases(studio, opts.preset, cards)
        nothing = nothing + [r.finding(f"--preset {opts.preset}") for r in refused]
        left_out = {card.id for r in refused for card in r.cards}
        cards = [card for card in cards if card.id not in left_out]
    named: dict[str, PreparedFace] = {}
    canvas_of: dict[str, Canvas | None] = {}
    backs: set[str] = set()
    for card in cards:
        c = canvases.get(card.id)
        bleed = bleed_for(c, studio.faces.for_card(card).front.size)[1] if c else None  # type: ignore[union-attr]
        front, back = inked(studio.prepare(card, bleed), opts.ink)
        named[file_stem(card.id)] = front
        canvas_of[file_stem(card.id)] = c
        if back is not None and studio.own_back(card):  # its own second face: NAME-back.png
            named[f"{file_stem(card.id)}-back"] = back
            canvas_of[f"{file_stem(card.id)}-back"] = c
            backs.add(f"{file_stem(card.id)}-back")
            back = None
        for pair in studio.other_faces(card, bleed):  # `also:` faces: NAME-TEMPLATE.png
            other, other_back = inked(pair, opts.ink)
            named[f"{file_stem(card.id)}-{other.template.name}"] = other
            canvas_of[f"{file_stem(card.id)}-{other.template.name}"] = c
            if other_back is not None and f"back-{other_back.template.name}" not in named:
                named[f"back-{other_back.template.name}"] = other_back
                canvas_of[f"back-{other_back.template.name}"] = c
                backs.add(f"back-{other_back.template.name}")
        if back is not None and f"back-{back.template.name}" not in named:
            named[f"back-{back.template.name}"] = back
            backs.add(f"back-{back.template.name}")
            # a back of a size the vendor has no product for is the model's error (its fronts'
            # size is then used): see validate's back-size check
            product = product_for(c.vendor, back.template.size) if c else None
            canvas_of[f"back-{back.template.name}"] = product if not isinstance(product, str) else c

    # here: a print run never loads Pillow or a process pool
    from ..render.raster import render_pngs

    def render(names: list[str]) -> dict[str, bytes]:
        """Faces grouped by canvas (a vendor canvas holds one card size), rendered group by
        group."""
        groups: dict[object, list[str]] = {}
        for name in names:
            groups.setdefault(canvas_of[name], []).append(name)
        out: dict[str, bytes] = {}
        for canvas, group in groups.items():
            pngs = render_pngs(
                [named[n] for n in group],
                studio.fonts,
                studio.model,
                dpi=opts.dpi,
                p=canvas,  # type: ignore[arg-type]
                recordings=studio.renderer.recordings,
            )
            for name, png in zip(group, pngs):
                if isinstance(canvas, Canvas) and canvas.rotated:  # onto the portrait product
                    turn = BACK_TURN if name in backs else FRONT_TURN
                    png = rotated_png(png, turn, canvas.vendor.dpi)
                out[name] = png
        return out

    turned = [card for card in cards if canvases.get(card.id) and canvases[card.id].rotated]
    result = JobResult(findings=nothing, notes=rotation_notes(studio, turned, canvases))
    if not opts.cache:
        pngs = render(list(named))
        for i, name in enumerate(named):
            result.outputs.append(
                Output(write_atomic(inside(out_dir, f"{name}.png"), pngs[name]), name)
            )
            progress("png", i + 1, len(named))
        return result
    # cached by face, resolution and cardgen's drawing code (signed, in output/GAME/.cache/png): a
    # rebuild rasterises only the faces that changed
    from ..render.facecache import code_digest
    from ..speed.cache import Store

    store = Store(studio.ws.output_dir(studio.game) / ".cache" / "png")
    tag = (
        f"{opts.dpi}-{opts.preset or 'plain'}-{code_digest()}"  # the ink mode is in each face's key
    )
    cached = {name: f"{face.picture_key()}-{tag}.png" for name, face in named.items()}
    # an output PNG written from the same cached face and untouched since (size and time, as the
    # last run left it, in the signed manifest) is not written again: a rebuild rewrites only the
    # faces that changed
    written = store.get("written")
    written = written if isinstance(written, dict) else {}
    mine = written.get(str(out_dir.resolve()))
    mine = mine if isinstance(mine, dict) else {}
    stamps: dict[str, list[object] | None] = {}
    for name in named:
        try:
            st = inside(out_dir, f"{name}.png").stat()
            stamps[name] = [cached[name], st.st_size, st.st_mtime_ns]
        except OSError:
            stamps[name] = None
    stale = [name for name in named if stamps[name] is None or mine.get(name) != stamps[name]]
    pictures = {name: store.get_bytes(cached[name]) for name in stale}
    missing = [name for name, png in pictures.items() if png is None]
    for name, png in render(missing).items():
        store.put_bytes(cached[name], png)
        pictures[name] = png
    now: dict[str, list[object] | None] = {}
    for i, name in enumerate(named):
        path = inside(out_dir, f"{name}.png")
        picture = pictures.get(name)
        if picture is not None:
            write_atomic(path, picture)
            st = path.stat()
            stamps[name] = [cached[name], st.st_size, st.st_mtime_ns]
        now[name] = stamps[name]
        result.outputs.append(Output(path, name))
        progress("png", i + 1, len(named))
    if now != mine:
        written[str(out_dir.resolve())] = now
        store.put("written", written)
    store.prune(f"*-{tag}.png", set(cached.values()))  # this kind's faces no face uses any more
    return result

"""Turn a game's print-and-play files, read back, into the checklist a publisher goes through
before uploading (pages and sizes, fonts embedded, picture resolution, a one-sided and an
ink-saving version, every card and mark on paper that fits A4 and Letter, cards per page, the box,
the tokens), and a PDF's rasterised pages into the toner they take: ink coverage as darkness and as
cyan, magenta, yellow and black, in the 5 %-coverage pages cartridges are rated in (ISO/IEC 19752
for black, 19798 for colour)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from ..core.options import STANDARD
from ..core.units import PT_PER_UNIT
from ..render.raster import PDFIUM
from ..speed.memo import Memo
from .pdfread import PdfRead, Placed, placed_box

MM = PT_PER_UNIT["mm"]
UNIVERSAL = STANDARD["universal"].size
PRINTABLE = 5 * MM  # every mark and card trim at least this far from the edge of both papers
PAINTED = 3 * MM  # a card's outer bleed may reach this close (losing it there is harmless)
LARGE = 20 * 1024 * 1024  # a file larger than this is a slow download for many players
LOW_DPI, GOOD_DPI = 150, 300
STATUSES = ("ok", "warn", "fail", "none")
DPI = 24  # coverage is an average: a coarse raster gives it within a point
ISO_COVERAGE = 0.05  # a cartridge's rated yield is in pages of 5 % coverage of each colour


@dataclass(frozen=True)
class Coverage:
    """A document's ink: pages, mean darkness (0-1) and mean cyan, magenta, yellow, black
    coverage of a page (0-1 each)."""

    pages: int
    darkness: float
    cmyk: tuple[float, float, float, float]

    @property
    def iso_pages(self) -> float:
        """The toner of this many rated pages (5 % of each colour): the mean colour's coverage
        over all pages, in 5 % pages."""
        return self.pages * (sum(self.cmyk) / 4) / ISO_COVERAGE

    def shown(self) -> str:
        c, m, y, k = (round(v * 100) for v in self.cmyk)
        return (
            f"ink {percent(self.darkness)} of a page (C {c} · M {m} · Y {y} · K {k} %), the "
            f"toner of {self.iso_pages:,.0f} pages at 5 % (ISO)"
        )


def percent(share: float) -> str:
    """0.41 -> '41 %'."""
    return f"{share * 100:.0f} %"


# a build's toner line and its check measure the same files: one measure per document's bytes
_MEASURED: Memo[Coverage] = Memo(32)


def coverage(pdf: bytes, dpi: int = DPI) -> Coverage:
    """Every page rendered at `dpi` (pypdfium2) and averaged; a plain RGB -> CMYK separation
    (black = 1 - the brightest channel, the rest under it), which is what a printer driver's is
    close to. Measured once per document's bytes in a process (speed.memo)."""
    return _MEASURED.get((hashlib.sha1(pdf).hexdigest(), dpi), lambda: _coverage(pdf, dpi))


def _coverage(pdf: bytes, dpi: int) -> Coverage:
    import numpy as np
    import pypdfium2 as pdfium

    with PDFIUM:  # not thread-safe: the gallery server renders in threads too
        return _measure(pdfium.PdfDocument(pdf), dpi, np)


def _measure(doc: Any, dpi: int, np: Any) -> Coverage:
    total_dark = 0.0
    sums = np.zeros(4)
    pages = len(doc)
    share = np.arange(256) / 255  # a channel's byte as a share of full
    luma = np.array([0.299, 0.587, 0.114])
    try:
        for index in range(pages):
            page = doc[index]
            bitmap = page.render(scale=dpi / 72, rev_byteorder=True)  # RGB, as a picture has it
            rgb = share[bitmap.to_numpy()[..., :3]]
            page.close()
            grey = rgb @ luma
            total_dark += float(np.subtract(1, grey, out=grey).mean())
            # black = 1 - the brightest channel; colour = (1 - rgb - black) / (1 - black), 1 under
            # full black: computed in place (the same values, half the time)
            black = np.maximum(rgb[..., 0], rgb[..., 1])
            np.maximum(black, rgb[..., 2], out=black)
            np.subtract(1, black, out=black)
            rest = np.subtract(1, black)
            rest[black >= 1] = 1.0
            colour = np.subtract(1, rgb)
            colour -= black[..., None]
            colour /= rest[..., None]
            sums += np.concatenate([colour.mean(axis=(0, 1)), [black.mean()]])
    finally:
        doc.close()
    if not pages:
        return Coverage(0, 0.0, (0.0, 0.0, 0.0, 0.0))
    c, m, y, k = (float(v) / pages for v in sums)
    return Coverage(pages, total_dark / pages, (c, m, y, k))


def set_names(game: str) -> dict[str, str]:
    """The print-and-play set's files in output/GAME/pnp/, by role."""
    return {
        "cards": f"{game}-cards.pdf",
        "one-sided": f"{game}-cards-one-sided.pdf",
        "low-ink": f"{game}-cards-low-ink.pdf",
        "box": f"{game}-box.pdf",
        "tokens": f"{game}-tokens.pdf",
        "rulebook": f"{game}-rulebook.pdf",
    }


@dataclass
class Check:
    name: str
    status: str  # ok, warn, fail, none (nothing to check)
    detail: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class KitFiles:
    """What the check reads: each file's bytes and reading by name, the set's roles, the faces'
    sizes with bleed (points: trim width, height, bleed) to find cards' trims, and what the game
    declares."""

    read: dict[str, PdfRead]
    raw: dict[str, bytes]
    roles: dict[str, str]  # role -> file name (present or not)
    faces: list[tuple[float, float, float]]
    tokens_declared: bool
    boxes: tuple[int, int] = (0, 0)  # decks boxed, decks
    sleeves: str = ""
    sleeve_warning: bool = False
    rulebook: bool = False  # the game has one
    unreadable: dict[str, str] = field(default_factory=dict)  # file name -> why it is no PDF


def _mb(size: int) -> str:
    return f"{size / 1024:,.0f} KB" if size < 1024 * 1024 else f"{size / 1048576:.1f} MB"


def _trim(form: Placed, faces: list[tuple[float, float, float]]) -> tuple[float, ...] | None:
    """A placed card's trim on the page: its form's box less the bleed of the face of that size."""
    x1, y1, x2, y2 = form.bbox
    for w, h, b in faces:
        if abs(x2 - x1 - w - 2 * b) < 0.05 and abs(y2 - y1 - h - 2 * b) < 0.05:
            return placed_box(form.matrix, (x1 + b, y1 + b, x2 - b, y2 - b))
    return None


def fit_problems(name: str, doc: PdfRead, faces: list[tuple[float, float, float]]) -> list[str]:
    """Why a file would not print whole on both A4 and Letter: a page larger than 210 x 279.4 mm,
    a mark or a card's trim within 5 mm of the edge, a card's painted bleed within 3 mm."""
    out = []
    uw, uh = UNIVERSAL
    for n, page in enumerate(doc.pages, 1):
        pw, ph = page.size
        where = f"{name} page {n}"
        if pw > uw + 0.5 or ph > uh + 0.5:
            out.append(f"{where} is {pw / MM:.1f} x {ph / MM:.1f} mm, larger than 210 x 279.4 mm")
            continue
        for line in page.lines:
            xs, ys = (line.x1, line.x2), (line.y1, line.y2)
            if (
                min(xs) < PRINTABLE - 0.1
                or max(xs) > pw - PRINTABLE + 0.1
                or min(ys) < PRINTABLE - 0.1
                or max(ys) > ph - PRINTABLE + 0.1
            ):
                out.append(f"{where}: a line reaches {_edge(xs, ys, pw, ph):.1f} mm from the edge")
                break
        for form in page.forms:
            trim = _trim(form, faces)
            inset = PRINTABLE if trim is not None else PAINTED
            x1, y1, x2, y2 = trim if trim is not None else form.painted
            if (
                x1 < inset - 0.1
                or y1 < inset - 0.1
                or x2 > pw - inset + 0.1
                or y2 > ph - inset + 0.1
            ):
                what = "a card's trim" if trim is not None else "a picture"
                edge = _edge((x1, x2), (y1, y2), pw, ph)
                out.append(f"{where}: {what} reaches {edge:.1f} mm from the edge")
                break
    return out


def _edge(xs: tuple[float, ...], ys: tuple[float, ...], pw: float, ph: float) -> float:
    return min(min(xs), min(ys), pw - max(xs), ph - max(ys)) / MM


def check_kit(kit: KitFiles) -> list[Check]:
    """The checklist, in a publisher's order."""
    roles, read = kit.roles, kit.read
    checks: list[Check] = []
    names = sorted(read)
    pages = sum(len(read[n].pages) for n in names)
    size = sum(read[n].size for n in names)
    listed = ", ".join(f"{n} {len(read[n].pages)} p. {_mb(read[n].size)}" for n in names)
    large = [n for n in names if read[n].size > LARGE]
    broken = "; ".join(f"{n} is not a whole PDF ({why})" for n, why in kit.unreadable.items())
    checks.append(
        Check(
            "files",
            "fail" if roles["cards"] not in read or broken else "warn" if large else "ok",
            f"{len(names)} PDFs, {pages} pages, {_mb(size)}: {listed}"
            + (f"; {broken}: cardgen build writes it again" if broken else "")
            + (f"; larger than 20 MB: {', '.join(large)}" if large else "")
            + (
                "" if roles["cards"] in read else "; no print-and-play set (cardgen build makes it)"
            ),
            {n: {"pages": len(read[n].pages), "bytes": read[n].size} for n in names},
        )
    )
    loose = sorted({f"{n}: {font}" for n in names for font, ok in read[n].fonts.items() if not ok})
    fonts = sorted({font for n in names for font in read[n].fonts})
    checks.append(
        Check(
            "fonts embedded",
            "fail" if loose else "ok",
            f"not embedded: {'; '.join(loose)}" if loose else f"all {len(fonts)} embedded",
            {"fonts": fonts, "not_embedded": loose},
        )
    )
    dpis = [
        (p.dpi, n, i)
        for n in names
        for i, page in enumerate(read[n].pages, 1)
        for p in page.pictures
    ]
    if dpis:
        low, where, on = min(dpis)
        status = "fail" if low < LOW_DPI else "warn" if low < GOOD_DPI else "ok"
        detail = f"{len(dpis)} pictures placed, the lowest at {low:.0f} dpi ({where}, page {on}"
        # the card and its picture: validate's art-low-resolution names them
        detail += "; validate's art-low-resolution names a card's)" if low < GOOD_DPI else ")"
    else:
        status, detail, low = "ok", "no pictures: every face is drawn as vectors", 0.0
    checks.append(
        Check("image resolution", status, detail, {"lowest_dpi": round(low), "pictures": len(dpis)})
    )
    checks.append(_one_sided(kit))
    checks.append(_low_ink(kit))
    checks.append(_fits(kit))
    checks.append(_per_page(kit))
    checks.append(_box(kit))
    checks.append(_tokens(kit))
    checks.append(_rulebook(kit))
    checks.append(
        Check("sleeves", "warn" if kit.sleeve_warning else "ok", kit.sleeves or "no card size")
    )
    return checks


def _fits(kit: KitFiles) -> Check:
    """Every file of the set on pages that fit both papers, every card and mark inside what both
    print."""
    roles, read = kit.roles, kit.read
    checked = [roles[r] for r in roles if roles[r] in read]
    problems = [p for name in checked for p in fit_problems(name, read[name], kit.faces)]
    if problems:
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        status, detail = "fail", "; ".join(problems[:3]) + more
    elif not checked:
        status, detail = "fail", "no print-and-play set to check"
    else:
        status = "ok"
        detail = (
            "every page at most 210 x 279.4 mm, every card and mark 5 mm clear of its edge: "
            + ", ".join(checked)
        )
    return Check("fits A4 and Letter", status, detail, {"problems": problems, "files": checked})


def _missing(kit: KitFiles, name: str) -> str:
    """Why a file of the set cannot be checked: not there, or not a whole PDF."""
    gone = "is not a whole PDF" if name in kit.unreadable else "is missing"
    return f"{name} {gone} (cardgen build makes it)"


def _rulebook(kit: KitFiles) -> Check:
    name = kit.roles["rulebook"]
    if not kit.rulebook:
        return Check("rulebook", "none", "the game has no rulebook (rules/GAME/rulebook/)")
    if name not in kit.read:
        return Check("rulebook", "fail", _missing(kit, name))
    pages = len(kit.read[name].pages)
    return Check("rulebook", "ok", f"{name}: {pages} pages", {"pages": pages})


def _cards(doc: PdfRead) -> list[int]:
    return [len(p.forms) for p in doc.pages if p.forms]


def _one_sided(kit: KitFiles) -> Check:
    name = kit.roles["one-sided"]
    doc = kit.read.get(name)
    if doc is None:
        return Check("one-sided version", "fail", _missing(kit, name))
    folds = sum(1 for p in doc.pages for line in p.lines if line.dashed)
    cards = _cards(doc)
    return Check(
        "one-sided version",
        "ok" if folds else "warn",
        f"{name}: {len(doc.pages)} pages, each card's back beside its front, "
        f"{max(cards, default=0) // 2} a page" + ("" if folds else "; no fold marks found"),
        {"pages": len(doc.pages), "fold_marks": folds},
    )


def _low_ink(kit: KitFiles) -> Check:
    name, full = kit.roles["low-ink"], kit.roles["cards"]
    if name not in kit.raw:
        return Check("ink-saving version", "fail", _missing(kit, name))
    low = coverage(kit.raw[name])
    normal = coverage(kit.raw[full]) if full in kit.raw else None
    data = {
        "coverage": round(low.darkness, 3),
        "full_coverage": round(normal.darkness, 3) if normal else None,
    }
    if normal is None:
        return Check(
            "ink-saving version", "ok", f"{name}: ink {percent(low.darkness)} of a page", data
        )
    saves = low.darkness < 0.75 * normal.darkness
    return Check(
        "ink-saving version",
        "ok" if saves else "warn",
        f"{name}: ink {percent(low.darkness)} of a page, against {percent(normal.darkness)} in "
        f"{full}" + ("" if saves else ": it saves little"),
        data,
    )


def _per_page(kit: KitFiles) -> Check:
    parts = []
    data = {}
    for role in ("cards", "one-sided"):
        doc = kit.read.get(kit.roles[role])
        if doc is None:
            continue
        pair = 2 if role == "one-sided" else 1  # a front and its back are two forms
        cards = [n // pair for n in _cards(doc)]
        sheets = len(doc.pages) // 2 if role == "cards" else len(doc.pages)  # duplex: two pages
        data[role] = {"most": max(cards, default=0), "sheets": sheets, "pages": len(doc.pages)}
        mixed = len(set(cards[: -2 if role == "cards" else -1])) > 1  # the last sheet aside
        parts.append(
            f"{kit.roles[role]}: {'up to ' if mixed else ''}{max(cards, default=0)} a sheet, "
            f"{sheets} sheets ({len(doc.pages)} pages)"
        )
    return Check(
        "cards per page", "ok" if parts else "none", "; ".join(parts) or "no card sheets", data
    )


def _box(kit: KitFiles) -> Check:
    name = kit.roles["box"]
    made, decks = kit.boxes
    if name not in kit.read:
        return Check(
            "box", "fail" if decks else "none", _missing(kit, name) if decks else "no deck to box"
        )
    sheets = len(kit.read[name].pages)
    return Check(
        "box",
        "ok" if made == decks else "warn",
        f"{name}: {made} of {decks} decks boxed on {sheets} sheet{'s' * (sheets != 1)}"
        + ("" if made == decks else " (box-too-large says why)"),
        {"decks": decks, "boxed": made, "sheets": sheets},
    )


def _tokens(kit: KitFiles) -> Check:
    name = kit.roles["tokens"]
    if not kit.tokens_declared:
        return Check("tokens", "none", "game.yaml declares no token (components: with a shape)")
    if name not in kit.read:
        return Check("tokens", "fail", _missing(kit, name))
    sheets = len(kit.read[name].pages)
    return Check("tokens", "ok", f"{name}: {sheets} page{'s' * (sheets != 1)}", {"pages": sheets})


def checklist_text(game: str, checks: list[Check]) -> str:
    marks = {"ok": "[ok]  ", "warn": "[warn]", "fail": "[FAIL]", "none": "[--]  "}
    lines = [f"print-and-play check of {game}:"]
    lines += [f"  {marks[c.status]} {c.name}: {c.detail}" for c in checks]
    ok, warn, failed = (sum(c.status == s for c in checks) for s in ("ok", "warn", "fail"))
    lines.append(f"  {ok} passed, {warn} warning{'s' * (warn != 1)}, {failed} failed")
    return "\n".join(lines) + "\n"

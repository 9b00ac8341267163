"""Turn a game's decks, its card stock and sleeves into boxes: each deck's inside size, its nets
(a tuck box, or a tray and a lid), and the nets laid out on sheets of paper, split in two or
refused (a finding) when a sheet is too small."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import Finding, Severity
from ..core.options import Paper
from ..core.stock import (
    DEFAULT_STOCK,
    SLEEVE_FILM,
    Sleeve,
    Stock,
    film,
    sleeve_for,
    sleeve_named,
    sleeved_size,
    stock,
)
from ..core.stock import fits as sleeve_fits
from ..core.units import length, to_mm
from ..project.studio import Studio
from .decks import Deck, decks_for
from .net import Net, fits
from .tuck import split_tuck, tray, tuck_box

STYLES = ("tuck", "two-piece")
MARGIN = 5.0  # mm: many home printers print no closer to the paper's edge
CAPTION = 5.0  # mm above the bottom margin kept for the sheet's caption
GAP = 6.0  # mm between two nets on one sheet
ACROSS, ALONG = 1.5, 1.0  # mm of room beside the cards and above them in a tuck box
FLAT = 1.5  # mm of room around cards lying in a tray
OVER = 0.8  # mm a lid is wider than the tray it slides over


@dataclass
class BoxOptions:
    """A box command's choices; None: the model's `box:` and `card:` sections, else the defaults."""

    per: str | None = None  # back, game, lists
    style: str | None = None  # tuck, two-piece
    stock: str | None = None  # the cards' stock
    board: str | None = None  # the box's stock
    sleeves: str | None = None  # none, fit, or a sleeve's name
    players: int | None = None


@dataclass
class Box:
    """One deck's box: what one card takes (mm thick, outside size), the stack of them, the inside
    the box is made to (stack + room), its nets as designed and the pieces laid on sheets."""

    deck: Deck
    style: str
    card_mm: float
    card_size: tuple[float, float]
    sleeve: Sleeve | None
    stack: tuple[float, float, float]
    inner: tuple[float, float, float]
    nets: list[Net]
    pieces: list[Net] = field(default_factory=list)
    refused: str = ""


@dataclass
class BoxPlan:
    boxes: list[Box]
    pages: list[list[Net]]  # each sheet's nets, placed (mm from the sheet's bottom-left corner)
    paper: Paper
    stock: Stock
    board: Stock
    findings: list[Finding] = field(default_factory=list)


def _choice(value: str | None, model_value: object, default: str) -> str:
    if value is not None:
        return value
    return model_value if isinstance(model_value, str) else default


def card_sleeve(studio: Studio, chosen: str, size: tuple[float, float]) -> Sleeve | None:
    """The sleeve the cards are in: none, the snuggest that fits, or the one named when they fit it
    (else none: `sleeve-misfit` says so)."""
    if chosen == "none":
        return None
    if chosen == "fit":
        return sleeve_for(size)
    named = sleeve_named(chosen)
    return named if named is not None and sleeve_fits(named, size) else None


def plan_boxes(studio: Studio, paper: Paper, opts: BoxOptions) -> BoxPlan:
    """Every deck's box, laid out on `paper`; a net too large even in two pieces is left out with a
    `box-too-large` finding."""
    model = studio.model
    per = _choice(opts.per, model.box.get("per"), "back")
    style = _choice(opts.style, model.box.get("style"), "tuck")
    card_stock = stock(_choice(opts.stock, model.card.get("stock"), DEFAULT_STOCK))
    board = stock(_choice(opts.board, model.box.get("board"), DEFAULT_STOCK))
    sleeves = _choice(opts.sleeves, model.card.get("sleeves"), "none")
    sheath = film(model.box["sleeve_thickness"]) if "sleeve_thickness" in model.box else SLEEVE_FILM
    decks, findings = decks_for(studio, per, opts.players)
    boxes = []
    for deck in decks:
        sleeve = card_sleeve(studio, sleeves, deck.size)
        size = sleeved_size(deck.size, sleeve) if sleeve else deck.size
        thick = card_stock.mm + (sheath if sleeve else 0.0)
        default_slack = 4.0 if sleeve else 3.0
        slack = to_mm(length(model.box["slack"])) if "slack" in model.box else default_slack
        stack = (size[0], size[1], round(deck.cards * thick, 2))
        if style == "two-piece":
            inner = (size[0] + FLAT, size[1] + FLAT, stack[2] + slack)
            t = board.mm
            lid_inner = (inner[0] + 2 * t + OVER, inner[1] + 2 * t + OVER, inner[2] + t)
            nets = [
                tray(inner, t, f"{deck.name} tray", "", notch=True),
                tray(lid_inner, t, f"{deck.name} lid", "front", notch=False),
            ]
        else:
            inner = (size[0] + ACROSS, size[1] + ALONG, stack[2] + slack)
            nets = [tuck_box(inner, board.mm, f"{deck.name} tuck box")]
        boxes.append(Box(deck, style, thick, size, sleeve, stack, inner, nets))
    room = (to_mm(paper.width_pt) - 2 * MARGIN, to_mm(paper.height_pt) - 2 * MARGIN - CAPTION)
    for box in boxes:
        _pieces(box, room)
        if box.refused:
            findings.append(_too_large(studio, box, paper))
    return BoxPlan(boxes, _pages(boxes, paper, room), paper, card_stock, board, findings)


def _pieces(box: Box, room: tuple[float, float]) -> None:
    """The nets as they go on sheets: whole when they fit, a tuck box in two pieces when those
    fit, else none (and why)."""
    if all(fits(net.size(), room) is not None for net in box.nets):
        box.pieces = list(box.nets)
        return
    if box.style == "tuck":
        pieces = split_tuck(box.nets[0])
        if all(fits(p.size(), room) is not None for p in pieces):
            box.pieces = pieces
            return
        sizes = " and ".join(_mm(p.size()) for p in pieces)
        box.refused = f"{_mm(box.nets[0].size())} as one piece, {sizes} in two"
    else:
        box.refused = " and ".join(_mm(n.size()) for n in box.nets)


def _mm(size: tuple[float, float]) -> str:
    return f"{size[0]:.0f} x {size[1]:.0f} mm"


def _too_large(studio: Studio, box: Box, paper: Paper) -> Finding:
    model = studio.model
    line, column = model.section_locs.get("box") or model.section_locs.get("card") or (1, 1)
    printable = (to_mm(paper.width_pt) - 2 * MARGIN, to_mm(paper.height_pt) - 2 * MARGIN - CAPTION)
    hint = (
        "a two-piece box (--style two-piece) lies flatter"
        if box.style == "tuck"
        else "split the deck (--per lists, a box per deck list), or print on larger paper"
    )
    return Finding(
        model.file,
        line,
        column,
        Severity.WARNING,
        "box-too-large",
        None,
        f"the {box.deck.name} box ({box.deck.cards} cards, inside {_dims(box.inner)}) needs "
        f"{box.refused}: more than the {_mm(printable)} {paper} prints on; it is not made",
        hint,
        about="box",
    )


def _dims(inner: tuple[float, float, float]) -> str:
    return " x ".join(f"{v:.1f}" for v in inner) + " mm"


def _pages(boxes: list[Box], paper: Paper, room: tuple[float, float]) -> list[list[Net]]:
    """The pieces in a column down each sheet, as many as fit (each upright, else turned), each
    column centred on the sheet."""
    pw, ph = to_mm(paper.width_pt), to_mm(paper.height_pt)
    pages: list[list[tuple[Net, bool]]] = []
    used = 0.0
    for net in [p for box in boxes for p in box.pieces]:
        upright = fits(net.size(), room)
        if upright is None:
            continue
        turn = not upright
        height = net.size()[0] if turn else net.size()[1]
        if pages and used + GAP + height <= room[1] + 1e-6:
            pages[-1].append((net, turn))
            used += GAP + height
        else:
            pages.append([(net, turn)])
            used = height
    placed = []
    for page in pages:
        heights = [n.size()[0] if t else n.size()[1] for n, t in page]
        y = (ph + CAPTION + sum(heights) + GAP * (len(page) - 1)) / 2
        column = []
        for (net, turn), height in zip(page, heights):
            width = net.size()[1] if turn else net.size()[0]
            y -= height
            column.append(net.placed((pw - width) / 2, y, turn))
            y -= GAP
        placed.append(column)
    return placed


def describe(box: Box) -> str:
    """'main: 228 cards 63 x 88 mm, 0.32 mm each: inside 64.5 x 89.0 x 76.0 mm (tuck box, 2
    pieces)'."""
    deck = box.deck
    sleeve = f", in {box.sleeve.shown()}" if box.sleeve else ""
    shape = "tuck box" if box.style == "tuck" else "tray and lid"
    pieces = f", {len(box.pieces)} pieces" if box.style == "tuck" and len(box.pieces) > 1 else ""
    made = f"not made ({box.refused})" if box.refused else f"{shape}{pieces}"
    return (
        f"{deck.name}: {deck.cards} card{'s' * (deck.cards != 1)} {deck.size[0]:g} x "
        f"{deck.size[1]:g} mm{sleeve}, {box.card_mm:.2f} mm each: inside {_dims(box.inner)} "
        f"({made})"
    )

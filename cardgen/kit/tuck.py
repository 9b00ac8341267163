"""Turn a deck's inside size (width, height, depth in mm) and the board's thickness into the nets
of its box: a one-piece tuck box (or the same in two pieces when it is too big for a sheet), and a
two-piece box, a tray and a lid that slides over it.

Panel widths are measured between fold lines, which a fold puts at the middle of the board: two
walls a panel-width apart hold the panel width less one board thickness, so each wall is made the
inside it must hold plus one thickness.
"""

from __future__ import annotations

import math

from .net import Net, Panel, Point

ARC = 8  # segments of a quarter circle (rounded corners, thumb notches)


def _arc(cx: float, cy: float, r: float, start: float, end: float, n: int = ARC) -> list[Point]:
    """Points on a circle from angle `start` to `end` (degrees), both ends included."""
    return [
        (
            cx + r * math.cos(math.radians(start + (end - start) * i / n)),
            cy + r * math.sin(math.radians(start + (end - start) * i / n)),
        )
        for i in range(n + 1)
    ]


def _rect(name: str, x: float, y: float, w: float, h: float, kind: str, art: str = "") -> Panel:
    return Panel(name, ((x, y), (x + w, y), (x + w, y + h), (x, y + h)), kind, art)


def _flap(name: str, x: float, y: float, w: float, h: float, taper: float, kind: str) -> Panel:
    """A flap on the edge (x, y)-(x + w, y), reaching h up (down when h < 0), narrowing by `taper`
    on each side so its edges never lie on a neighbour's."""
    pts = [(x, y), (x + w, y), (x + w - taper, y + h), (x + taper, y + h)]
    return Panel(name, tuple(pts if h > 0 else pts[::-1]), kind)


def _tuck(name: str, x: float, y: float, w: float, h: float) -> Panel:
    """A tuck flap with rounded outer corners, a little narrower than the wall it slides behind."""
    r = min(5.0, abs(h) / 2, w / 4)
    s = 1.0 if h > 0 else -1.0
    top = y + h
    pts: list[Point] = [(x, y), (x + w, y), (x + w - 0.8, top - s * r)]
    pts += _arc(x + w - 0.8 - r, top - s * r, r, 0, 90 * s)[1:]
    pts += _arc(x + 0.8 + r, top - s * r, r, 90 * s, 180 * s)[:-1]
    pts += [(x + 0.8, top - s * r)]
    return Panel(name, tuple(pts if h > 0 else pts[::-1]), "tuck")


def _glue(name: str, x: float, y: float, w: float, h: float) -> Panel:
    """A glue tab on the vertical edge (x, y)-(x, y + h), reaching w to the right."""
    c = min(w, h / 4, 4.0)
    return Panel(name, ((x, y), (x + w, y + c), (x + w, y + h - c), (x, y + h)), "glue")


def tuck_box(inner: tuple[float, float, float], board: float, name: str = "tuck box") -> Net:
    """A one-piece tuck box: front, side, back, side and a glue tab in a row; a lid and its tuck
    flap on the back's top, the bottom and its tuck flap on the front's foot, dust flaps on the
    sides, a thumb notch in the front. The cards stand in it upright, their faces toward the
    front."""
    w, h, d = inner
    wp, hp, dp = w + board, h + board, d + board
    glue = min(12.0, max(6.0, 0.8 * dp), wp / 2)
    tuck = min(20.0, max(12.0, 0.25 * wp), hp / 3)
    dust = min(wp / 2 - 1.0, max(8.0, 0.8 * dp))
    taper = min(3.0, dp / 4)
    x1, x2, x3, x4 = wp, wp + dp, 2 * wp + dp, 2 * wp + 2 * dp
    notch = min(10.0, wp / 5, hp / 4)
    front = [(0.0, 0.0), (wp, 0.0), (wp, hp)]
    front += _arc(wp / 2, hp, notch, 0, -180, 2 * ARC)
    front += [(0.0, hp)]
    panels = [
        Panel("front", tuple(front), "wall", "front"),
        _rect("side-left", x1, 0.0, dp, hp, "wall", "side"),
        _rect("back", x2, 0.0, wp, hp, "wall", "back"),
        _rect("side-right", x3, 0.0, dp, hp, "wall", "side"),
        _glue("glue", x4, 0.0, glue, hp),
        _rect("lid", x2, hp, wp, dp, "wall", "lid"),
        _tuck("tuck", x2, hp + dp, wp, tuck),
        _flap("dust-left", x1, hp, dp, dust, taper, "flap"),
        _flap("dust-right", x3, hp, dp, dust, taper, "flap"),
        Panel("bottom", ((0.0, -dp), (wp, -dp), (wp, 0.0), (0.0, 0.0)), "wall", "bottom"),
        _tuck("bottom-tuck", 0.0, -dp, wp, -tuck),
        _flap("dust-left-bottom", x1, 0.0, dp, -dust, taper, "flap"),
        _flap("dust-right-bottom", x3, 0.0, dp, -dust, taper, "flap"),
    ]
    return Net(name, panels, board, inner, "back")


def split_tuck(net: Net) -> list[Net]:
    """The tuck box in two pieces that each fit a smaller sheet, cut along the fold between the
    left side and the back: the front and left side with a new glue tab (glued inside the back),
    and the back with the lid, the right side and the old glue tab."""
    left = {"front", "side-left", "dust-left", "dust-left-bottom", "bottom", "bottom-tuck"}
    side = net.panel("side-left")
    x1, y1, x2, y2 = side.box()
    glue = min(12.0, max(6.0, 0.8 * (x2 - x1)))
    one = [p for p in net.panels if p.name in left] + [_glue("glue-back", x2, y1, glue, y2 - y1)]
    two = [p for p in net.panels if p.name not in left]
    return [
        Net(f"{net.name}, piece 1 of 2", one, net.board, net.inner, "side-left"),
        Net(f"{net.name}, piece 2 of 2", two, net.board, net.inner, "back"),
    ]


def tray(inner: tuple[float, float, float], board: float, name: str, art: str, notch: bool) -> Net:
    """An open box: a base (the cards lie on it, `inner` width x height) and four walls `inner`
    depth high, with glue tabs at the ends of the long walls; finger notches in the long walls. With
    `art` (a lid: 'front'), the base shows the deck's card and the walls the game's name; a tray,
    hidden by its lid, shows none."""
    walls = "side" if art else ""
    w, h, d = inner
    wp, hp = w + board, h + board
    dp = d + board / 2  # a wall stands on the base's mid-line and stops at its cut edge
    tab = min(12.0, max(5.0, 0.8 * dp), wp / 3)
    r = min(12.0, 0.6 * dp, wp / 5) if notch else 0.0
    base = _rect("base", 0.0, 0.0, wp, hp, "wall", art)
    south: list[Point] = [(0.0, -dp), (wp / 2 - r, -dp)] if r else [(0.0, -dp)]
    if r:
        south += _arc(wp / 2, -dp, r, 180, 0, 2 * ARC)[1:-1]
        south += [(wp / 2 + r, -dp)]
    south += [(wp, -dp), (wp, 0.0), (0.0, 0.0)]
    north: list[Point] = [(0.0, hp), (wp, hp), (wp, hp + dp)]
    if r:
        north += [(wp / 2 + r, hp + dp)] + _arc(wp / 2, hp + dp, r, 0, -180, 2 * ARC)[1:-1]
        north += [(wp / 2 - r, hp + dp)]
    north += [(0.0, hp + dp)]
    panels = [
        base,
        Panel("wall-south", tuple(south), "wall", walls),
        Panel("wall-north", tuple(north), "wall", walls),
        _rect("wall-west", -dp, 0.0, dp, hp, "wall", walls),
        _rect("wall-east", wp, 0.0, dp, hp, "wall", walls),
        *_corner_tabs(wp, hp, dp, tab),
    ]
    return Net(name, panels, board, inner, "base")


def _corner_tabs(wp: float, hp: float, dp: float, tab: float) -> list[Panel]:
    """Glue tabs on the ends of the south and north walls, folded in against the west and east
    walls."""
    c = min(2.0, dp / 4)
    return [
        Panel("tab-sw", ((0.0, 0.0), (-tab, -c), (-tab, -dp + c), (0.0, -dp)), "glue"),
        Panel("tab-se", ((wp, -dp), (wp + tab, -dp + c), (wp + tab, -c), (wp, 0.0)), "glue"),
        Panel("tab-nw", ((0.0, hp + dp), (-tab, hp + dp - c), (-tab, hp + c), (0.0, hp)), "glue"),
        Panel(
            "tab-ne", ((wp, hp), (wp + tab, hp + c), (wp + tab, hp + dp - c), (wp, hp + dp)), "glue"
        ),
    ]

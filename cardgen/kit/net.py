"""Turn a box's panels (polygons in millimetres) into a net: its cut and fold lines, its size, its
pieces placed on a sheet, and the box it folds into (each panel's corners in 3D)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

Point = tuple[float, float]
Segment = tuple[Point, Point]
Point3 = tuple[float, float, float]


@dataclass(frozen=True)
class Panel:
    """One flat piece of a net: a wall, a flap, a glue tab. `art` says what is printed on it
    (front, back, side, lid, '' for nothing); `kind` is wall, flap, tuck or glue."""

    name: str
    points: tuple[Point, ...]  # counter-clockwise, as seen from the printed side
    kind: str = "wall"
    art: str = ""

    def moved(self, dx: float, dy: float) -> Panel:
        return replace(self, points=tuple((x + dx, y + dy) for x, y in self.points))

    def turned(self) -> Panel:
        """Turned a quarter counter-clockwise about the origin."""
        return replace(self, points=tuple((-y, x) for x, y in self.points))

    def edges(self) -> list[Segment]:
        pts = self.points
        return [(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]

    def box(self) -> tuple[float, float, float, float]:
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        return min(xs), min(ys), max(xs), max(ys)


def _key(p: Point) -> tuple[float, float]:
    return (round(p[0], 4) + 0.0, round(p[1], 4) + 0.0)


@dataclass
class Net:
    """A box (or one piece of it) laid flat: its panels, the board it is printed on (mm thick), the
    inside it is made to hold (width, height, depth in mm), and the panel folding starts from."""

    name: str
    panels: list[Panel]
    board: float
    inner: tuple[float, float, float]
    root: str
    turned: bool = False  # laid a quarter turn round on its sheet
    # placed on a sheet: the net as designed, and the map from its coordinates to the sheet's
    # (x' = a x + c y + e, y' = b x + d y + f, as a PDF's `cm`)
    design: Net | None = None
    frame: tuple[float, float, float, float, float, float] = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

    def panel(self, name: str) -> Panel:
        return next(p for p in self.panels if p.name == name)

    def folds(self) -> list[tuple[str, str, Segment]]:
        """Every edge two panels share (parent first: the one nearer the root), as (parent,
        child, edge as the parent walks it)."""
        owners: dict[frozenset[tuple[float, float]], list[tuple[str, Segment]]] = {}
        for panel in self.panels:
            for a, b in panel.edges():
                owners.setdefault(frozenset((_key(a), _key(b))), []).append((panel.name, (a, b)))
        pairs = [v for v in owners.values() if len(v) == 2]
        order = self._order(pairs)
        out = []
        for (one, edge_one), (two, edge_two) in pairs:
            if order.get(one, 1e9) <= order.get(two, 1e9):
                out.append((one, two, edge_one))
            else:
                out.append((two, one, edge_two))
        return sorted(out, key=lambda f: (order.get(f[1], 1e9), f[1]))

    def _order(self, pairs: list[list[tuple[str, Segment]]]) -> dict[str, int]:
        """Each panel's distance from the root, over shared edges."""
        links: dict[str, set[str]] = {}
        for (one, _), (two, _) in pairs:
            links.setdefault(one, set()).add(two)
            links.setdefault(two, set()).add(one)
        order, front = {self.root: 0}, [self.root]
        while front:
            nxt = []
            for name in front:
                for other in sorted(links.get(name, ())):
                    if other not in order:
                        order[other] = order[name] + 1
                        nxt.append(other)
            front = nxt
        return order

    def fold_lines(self) -> list[Segment]:
        return [edge for _, _, edge in self.folds()]

    def cut_lines(self) -> list[Segment]:
        shared = {frozenset((_key(a), _key(b))) for a, b in self.fold_lines()}
        return [
            (a, b)
            for panel in self.panels
            for a, b in panel.edges()
            if frozenset((_key(a), _key(b))) not in shared
        ]

    def box(self) -> tuple[float, float, float, float]:
        boxes = [p.box() for p in self.panels]
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )

    def size(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box()
        return x2 - x1, y2 - y1

    def placed(self, dx: float, dy: float, turn: bool = False) -> Net:
        """The net moved (and first turned a quarter counter-clockwise) so that its box starts at
        (dx, dy), remembering how (`design`, `frame`)."""
        panels = [p.turned() for p in self.panels] if turn else list(self.panels)
        moved = replace(self, panels=panels, turned=turn, design=self)
        x1, y1, _, _ = moved.box()
        moved.panels = [p.moved(dx - x1, dy - y1) for p in panels]
        e, f = dx - x1, dy - y1
        moved.frame = (0.0, 1.0, -1.0, 0.0, e, f) if turn else (1.0, 0.0, 0.0, 1.0, e, f)
        return moved


def fits(size: tuple[float, float], room: tuple[float, float]) -> bool | None:
    """True: fits upright; False: fits turned; None: does not fit."""
    if size[0] <= room[0] + 1e-6 and size[1] <= room[1] + 1e-6:
        return True
    if size[1] <= room[0] + 1e-6 and size[0] <= room[1] + 1e-6:
        return False
    return None


# folding: each panel turns a quarter about the edge it shares with its parent, away from the
# printed side (the printed side stays outside), carried along by its parent's own turn

Matrix = tuple[tuple[float, float, float, float], ...]  # 3 x 4: rotation | translation


def _compose(m: Matrix, n: Matrix) -> Matrix:
    rows: list[tuple[float, float, float, float]] = []
    for i in range(3):
        a, b, c = (float(sum(m[i][k] * n[k][j] for k in range(3))) for j in range(3))
        rows.append((a, b, c, float(sum(m[i][k] * n[k][3] for k in range(3)) + m[i][3])))
    return tuple(rows)


def _hinge(a: Point, b: Point, inside: Point) -> Matrix:
    """A quarter turn about the line a-b (in the plane z = 0) that moves `inside` toward -z."""
    ux, uy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(ux, uy)
    ux, uy = ux / n, uy / n
    vx, vy = inside[0] - a[0], inside[1] - a[1]
    sign = 1.0 if ux * vy - uy * vx < 0 else -1.0  # (u x v).z after +90 degrees must be < 0
    s, c = sign, 0.0  # sin, cos of +-90 degrees
    # Rodrigues about the unit axis (ux, uy, 0)
    r = (
        (c + ux * ux * (1 - c), ux * uy * (1 - c), uy * s),
        (uy * ux * (1 - c), c + uy * uy * (1 - c), -ux * s),
        (-uy * s, ux * s, c),
    )
    ax, ay = a
    t = [
        ax - (r[0][0] * ax + r[0][1] * ay),
        ay - (r[1][0] * ax + r[1][1] * ay),
        -(r[2][0] * ax + r[2][1] * ay),
    ]
    return (
        (r[0][0], r[0][1], r[0][2], t[0]),
        (r[1][0], r[1][1], r[1][2], t[1]),
        (r[2][0], r[2][1], r[2][2], t[2]),
    )


def _centre(panel: Panel) -> Point:
    xs, ys = [p[0] for p in panel.points], [p[1] for p in panel.points]
    return sum(xs) / len(xs), sum(ys) / len(ys)


def fold(net: Net) -> dict[str, list[Point3]]:
    """Every panel's corners once the net is folded (the root stays in the plane z = 0, printed
    side up; every fold a quarter turn inward)."""
    identity: Matrix = ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0))
    where: dict[str, Matrix] = {net.root: identity}
    for parent, child, (a, b) in net.folds():
        if parent not in where or child in where:
            continue
        where[child] = _compose(where[parent], _hinge(a, b, _centre(net.panel(child))))
    out = {}
    for panel in net.panels:
        m = where.get(panel.name)
        if m is None:
            continue
        out[panel.name] = [
            (
                m[0][0] * x + m[0][1] * y + m[0][3],
                m[1][0] * x + m[1][1] * y + m[1][3],
                m[2][0] * x + m[2][1] * y + m[2][3],
            )
            for x, y in panel.points
        ]
    return out


def extent(corners: list[Point3], axis: int) -> tuple[float, float]:
    values = [p[axis] for p in corners]
    return min(values), max(values)

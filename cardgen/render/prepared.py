"""Turn a laid-out face into the value later steps read: its operations, size, findings and edge."""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Protocol

from reportlab.lib.colors import HexColor

from ..core.errors import Finding
from ..load.card import Card
from . import richtext as rt
from .template import Template
from .values import rgb255

OVERFLOW_RED = HexColor("#e0001b")


@dataclass
class Op:
    """One element ready to draw: its type, its box in template space (y down), resolved
    properties."""

    type: str
    box: tuple[float, float, float, float]
    props: dict[str, Any]
    fit: rt.Fit | None = None
    family: rt.Family | None = None
    # what the element and everything it read were (render.face's memo key): ops of one key draw
    # the same, so their drawing is recorded once (render.pen); None: recorded with its face
    key: str | None = None


@dataclass
class PreparedFace:
    key: str
    template: Template
    width: float  # trim
    height: float
    bleed: float
    ops: list[Op] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    images: list[tuple[str, int, int]] = field(
        default_factory=list
    )  # (path, size, mtime) of each picture drawn
    # where the card its findings were made for stands: (file, ((field, line, column), …)), the
    # card itself as field ''. A face is keyed by content, so a card that moved (a line added
    # above it) gets the face with its findings moved along (moved_to)
    anchor: tuple = ()

    def moved_to(self, anchor: tuple) -> "PreparedFace":
        """The face with its findings at the places they stand for a card at `anchor`."""
        if self.anchor == anchor or not self.findings or not self.anchor:
            return self
        file, places = self.anchor
        name_at: dict[tuple[int, int], str] = {}
        for name, line, column in places:  # the card itself first: it wins a shared place
            name_at.setdefault((line, column), name)
        new_file, new_places = anchor
        now = {name: (line, column) for name, line, column in new_places}
        moved = []
        for f in self.findings:
            name = name_at.get((f.line, f.column)) if f.file == file else None
            if name is not None and name in now:
                f = replace(f, file=new_file, line=now[name][0], column=now[name][1])
            moved.append(f)
        face = copy.copy(self)
        face.findings, face.anchor = moved, anchor
        return face

    def picture_key(self) -> str:
        """The key of what the face looks like: its key, and its pictures' files as they are now (a
        replaced picture under the same name gives the face another look, not another key). For
        caches of rasters."""
        if not self.images:
            return self.key
        return f"{self.key}-{hashlib.sha1(repr(sorted(self.images)).encode()).hexdigest()[:8]}"

    def edge(self) -> tuple[int, int, int] | None:
        """The colour the face shows at its cut: the paper's white, or the fill of the last opaque
        rectangle covering the whole card (None when the edge is art or several colours). Worked out
        once per face."""
        if "_edge" not in self.__dict__:
            edge: tuple[int, int, int] | None = (255, 255, 255)
            for op in self.ops:
                x, y, w, h = op.box
                near_edge = (
                    x < EDGE_BAND
                    or y < EDGE_BAND
                    or x + w > self.width - EDGE_BAND
                    or y + h > self.height - EDGE_BAND
                )
                fill = rgb255(op.props.get("fill"))
                if (
                    covers(op, self)
                    and op.type == "rect"
                    and fill is not None
                    and float(op.props.get("opacity", 1) or 1) >= 1
                ):
                    edge = fill
                elif (
                    near_edge
                    and op.type in ("rect", "image", "circle")
                    and (fill is not None or op.type == "image")
                ):
                    edge = None
            self.__dict__["_edge"] = edge
        return self.__dict__["_edge"]  # type: ignore[no-any-return]

    def derived(
        self,
        key: str,
        ops: Callable[["PreparedFace"], list[Op]],
        edge: tuple[int, int, int] | None | str = "ops",
    ) -> "PreparedFace":
        """A face of this one's size, findings and pictures under another key, its ops `ops(self)`
        (a low-ink or press copy), its edge `edge` when the caller knows it ("ops": worked out from
        the ops). A face read from the face cache makes its ops only when something reads them: a
        print run draws the copy from its kept recording and never does."""
        face = replace(self, key=key, ops=ops(self))
        if edge != "ops":
            face.__dict__["_edge"] = edge
        return face


EDGE_BAND = 1.0 * 72 / 25.4  # a home cut lands within about this of the line


class FaceStore(Protocol):
    """Where prepared faces outlive a run (render.facecache.FaceCache): what the renderer, the
    parallel layout (render.prefetch) and a live build's twin (jobs.build) ask of it."""

    def get(
        self, key: str, template: Template, relayout: Callable[[], list[Op]]
    ) -> PreparedFace | None: ...

    def put(self, face: PreparedFace) -> None: ...

    def save(self) -> None: ...

    def settle(self, key: str) -> None:
        """Keep a face laid out this run without its layout, now that its recording is kept."""
        ...

    def holds(self, key: str, drawn: bool = False) -> bool:
        """Whether the face of `key` is kept (with `drawn`: its recording too)."""
        ...

    def entry(self, face: PreparedFace) -> tuple:
        """A face as plain data, made in a helper process and handed back to `add`."""
        ...

    def add(self, key: str, entry: tuple | bytes, recording: Any = None) -> None:
        """Keep a face laid out (and its `recording`, a render.pen.Recording, drawn) elsewhere;
        either may be given as its marshal bytes."""
        ...

    def reads(self) -> tuple[set[str], set[str]]:
        """The faces and the recordings this run read or made so far (kept on `save`)."""
        ...

    def keep_reads(self, reads: tuple[set[str], set[str]]) -> None:
        """Keep on `save` what another process (a twin) read from its copy of this store."""
        ...


def covers(op: Op, face: PreparedFace) -> bool:
    """Whether an element's box covers the whole card (a background: what shows at the cut)."""
    x, y, w, h = op.box
    return x <= 0 and y <= 0 and x + w >= face.width and y + h >= face.height


def anchor_of(card: Card) -> tuple:
    """Where a card and each of its fields stand (PreparedFace.anchor)."""
    return (
        card.file,
        (("", card.line, card.column), *((k, *loc) for k, loc in card.field_locs.items())),
    )

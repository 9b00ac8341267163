"""Turn prepared faces and their recordings into a cache on disk (output/GAME/.cache/), so a rebuild
lays out and draws only what changed.

Entries are keyed by the face key (card data, template files, model, bleed, the fonts'
fingerprints); the file name carries a digest of the code that lays out and draws faces
(speed.codekey: every module that code imports), so other code never reads an old layout. The file
is one signed table (speed.cachetable: read a value at a time, when asked for): per face its size,
edge colour, findings and pictures, and its recording (render.pen): the content stream a sheet
replays, each as marshal bytes of plain data. Layouts are not kept:
the rare reader of one (a low-ink copy, a rulebook figure) has the face laid out again. A cache this
user's cardgen did not write is never read.
"""

from __future__ import annotations

import copy
import marshal
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

from ..core.paths import file_stamp
from ..load.plaindata import findings_from_plain, findings_to_plain
from ..speed.cache import Store
from ..speed.cachetable import Backed, Spill, Table, open_table, put_table
from ..speed.codekey import code_digest as reach_digest
from ..speed.gcpause import no_cyclic_gc
from .pen import Recording
from .prepared import Op, PreparedFace
from .template import Template

FORMAT = 10  # bump when the layout of an entry (or of a recording) changes


CODE = (
    "cardgen.render.face",
    "cardgen.render.paint",
    __name__,
)  # what lays out, draws and keeps a face


def code_files() -> list[Path]:
    """The code a prepared face depends on: every module that laying out, drawing and keeping it
    imports."""
    from ..speed.codekey import modules, reach

    return sorted({modules()[m] for name in CODE for m in reach(name)})


def code_digest() -> str:
    return reach_digest(*CODE, salt=str(FORMAT))


class _CachedFace(PreparedFace):
    """A face read from the cache: its size, edge, findings, pictures and (in the recordings) its
    drawing are at hand; its layout (`ops`) is laid out again the first time something reads it (a
    low-ink or press copy, a rulebook figure's callouts), which a print run never does."""

    def __getattr__(
        self, name: str
    ) -> Any:  # called only for attributes not set: `ops` before its first use
        if name != "ops" or "_relayout" not in self.__dict__:
            raise AttributeError(name)
        ops = self.__dict__.pop("_relayout")()
        self.__dict__["ops"] = ops
        return ops

    def derived(
        self,
        key: str,
        ops: Callable[[PreparedFace], list[Op]],
        edge: tuple[int, int, int] | None | str = "ops",
    ) -> PreparedFace:
        if "ops" in self.__dict__:  # laid out already
            return super().derived(key, ops, edge)
        face = object.__new__(_CachedFace)
        face.__dict__.update(self.__dict__, key=key, _relayout=lambda: ops(self))
        face.__dict__.pop("_edge", None)
        if edge != "ops":
            face.__dict__["_edge"] = edge
        return face


class KeptRecordings(Backed):
    """Face recordings by key that remember which ones this run read or wrote (the rest is dropped
    on save). Each is its marshal bytes, left in the cache file (or held, when made this run) and
    read back when asked for: a run of 100,000 faces does not hold them all as lists of strings."""

    def __init__(
        self,
        table: Table | None = None,
        places: dict[str, int] | None = None,
        spill: Spill | None = None,
    ) -> None:
        super().__init__(table, places, spill)
        self.used: set[str] = set()
        self.dirty = False

    def get(self, key: str, default: Any = None) -> Any:
        found = super().get(key)
        if found is None:
            return default
        self.used.add(key)
        return found

    def __setitem__(self, key: str, value: Recording) -> None:
        self.keep_bytes(key, marshal.dumps(value))

    def keep_bytes(self, key: str, data: bytes) -> None:
        """Keep a recording given as its marshal bytes."""
        self.keep_packed(key, data)
        self.used.add(key)
        self.dirty = True


def entry_of(face: PreparedFace) -> tuple:
    """A face as the cache stores it: (width, height, bleed, edge colour, findings, pictures, the
    places its findings were made for). Not its layout: keeping layouts cost more than laying out
    again the few faces whose layout is asked for."""
    findings = findings_to_plain(face.findings) if face.findings else ()
    return (
        face.width,
        face.height,
        face.bleed,
        face.edge(),
        findings,
        tuple(face.images),
        face.anchor if face.findings else (),
    )


class FaceCache:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.store = Store(folder)
        self.name = f"faces-{code_digest()}"
        self.fresh: dict[str, PreparedFace] = {}  # laid out this run, serialised on save
        self.used: set[str] = set()
        self.added = False
        table = open_table(self.store.folder, self.name)
        meta: Any = table.meta if table is not None else None
        if (
            table is None
            or not isinstance(meta, dict)
            or meta.get("format") != FORMAT
            or type(meta.get("faces")) is not int
        ):
            table, meta = None, {"faces": 0}  # no cache yet, or not one this cardgen wrote
        places = table.places if table is not None else []
        if table is not None:
            table.places = []  # held once, below
        faces = meta["faces"]
        # key -> entry_of(face) as its marshal bytes (in the file, or made this run), read when
        # the face is asked for: a warm run of 100,000 faces holds no entry it does not draw
        # what this run makes waits for the save in a spill file, not in memory
        spill = Spill(self.store.folder)
        self.entries = Backed(table, {sys.intern(k): p for k, p in places[:faces]}, spill)
        self.recordings = KeptRecordings(
            table, {sys.intern(k): p for k, p in places[faces:]}, spill
        )
        del places

    def get(
        self, key: str, template: Template, relayout: Callable[[], list[Op]]
    ) -> PreparedFace | None:
        """The cached face of `key`, whose layout `relayout` makes when it is read; None when there
        is none or one of its pictures changed."""
        if key in self.fresh:
            self.used.add(key)
            face = copy.copy(self.fresh[key])
            face.template = template
            return face
        entry = self.entries.get(key)
        if entry is None:
            return None
        width, height, bleed, edge, findings, images, anchor = entry
        if any(file_stamp(Path(path)) != (path, size, mtime) for path, size, mtime in images):
            # a picture was replaced, fixed or removed since: the layout, its findings and
            # recordings are stale
            del self.entries[key]
            for stale in [k for k in self.recordings if k == key or k.startswith(f"{key}-")]:
                del self.recordings[stale]
            return None
        self.used.add(key)
        face = object.__new__(_CachedFace)
        face.__dict__.update(
            key=key,
            template=template,
            width=width,
            height=height,
            bleed=bleed,
            _relayout=relayout,
            findings=findings_from_plain(findings),
            images=[tuple(i) for i in images],
            anchor=anchor,
        )
        face.__dict__["_edge"] = edge
        return face

    def put(self, face: PreparedFace) -> None:
        self.fresh[face.key] = face
        self.used.add(face.key)

    def settle(self, key: str) -> None:
        """Keep a face laid out this run as its entry only (its layout is dropped: laid out again
        if something reads it), once its recording is made."""
        face = self.fresh.pop(key, None)
        if face is not None:
            self.entries[key] = entry_of(face)
            self.added = True

    def holds(self, key: str, drawn: bool = False) -> bool:
        """Whether the face of `key` is kept (with `drawn`: its recording too)."""
        return (key in self.entries or key in self.fresh) and (not drawn or key in self.recordings)

    def entry(self, face: PreparedFace) -> tuple:
        return entry_of(face)

    def add(
        self, key: str, entry: tuple | bytes, recording: Recording | bytes | None = None
    ) -> None:
        """An entry (and recording), or their marshal bytes, made elsewhere (render.prefetch's
        helpers)."""
        if isinstance(entry, bytes):
            self.entries.keep_packed(key, entry)
        else:
            self.entries[key] = entry
        self.used.add(key)
        self.added = True
        if isinstance(recording, bytes):  # already as kept (a helper's: render.prefetch)
            self.recordings.keep_bytes(key, recording)
        elif recording is not None:
            self.recordings[key] = recording

    def reads(self) -> tuple[set[str], set[str]]:
        return set(self.used), set(self.recordings.used)

    def keep_reads(self, reads: tuple[set[str], set[str]]) -> None:
        self.used |= reads[0] & set(self.entries)
        self.recordings.used |= reads[1] & set(self.recordings)

    def save(self) -> None:
        """Keep the faces and recordings this run used (so the cache never grows without bound)."""
        drawn = self.recordings
        if (
            not self.fresh
            and not self.added
            and not drawn.dirty
            and self.used == set(self.entries)
            and drawn.used == set(drawn)
        ):
            return
        entries = [k for k in self.entries if k in self.used and k not in self.fresh]
        kept = [k for k in drawn if k in drawn.used]
        with (
            no_cyclic_gc()
        ):  # one pause for all faces: re-enabling the collector per face costs a collection each
            made = {k: marshal.dumps(entry_of(face)) for k, face in self.fresh.items()}
            sizes = [(k, self.entries.size(k)) for k in entries]
            sizes += [(k, len(v)) for k, v in made.items()]
            sizes += [(k, drawn.size(k)) for k in kept]

            def parts() -> Iterator[bytes]:  # each read (or made) as it is written
                for k in entries:
                    yield self.entries.packed(k) or b""
                yield from made.values()
                for k in kept:
                    yield drawn.packed(k) or b""

            meta = {"format": FORMAT, "faces": len(entries) + len(made)}
            put_table(
                self.store.folder, self.name, meta, sizes, parts(), "faces-*"
            )  # other code's caches go, the unsigned ones of old too

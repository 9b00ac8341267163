"""Turn prepared faces into a cache on disk (output/GAME/.cache/), so a rebuild only lays out what changed.

Entries are keyed by the face key (card data, template files, model, bleed, the fonts' fingerprints); the
file name carries a hash of cardgen's own rendering code, so a new cardgen never reads an old layout. The
cache lives in the workspace's output folder and is trusted like the workspace itself (it is a pickle).
"""
from __future__ import annotations

import copy
import hashlib
import pickle
from functools import lru_cache
from pathlib import Path

from ..gcpause import no_cyclic_gc
from ..output import write_atomic
from .face import PreparedFace
from .template import Template


def code_files() -> list[Path]:
    """The code a prepared face depends on: the renderer, units, and the model's cost and text grammars."""
    here = Path(__file__).resolve().parent
    package = here.parent
    return sorted([*here.glob("*.py"), package / "units.py", package / "model" / "cost.py",
                   package / "model" / "text.py", package / "model" / "game.py"])


@lru_cache(maxsize=1)
def code_digest() -> str:
    from .. import __version__

    h = hashlib.sha1(__version__.encode())
    for path in code_files():
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


class FaceCache:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / f"faces-{code_digest()}.pickle"
        self.entries: dict[str, PreparedFace] = {}
        self.used: set[str] = set()
        self.dirty = False
        try:
            with no_cyclic_gc():
                self.entries = pickle.loads(self.path.read_bytes())
        except (OSError, pickle.PickleError, EOFError, AttributeError, ImportError, TypeError, ValueError):
            self.entries = {}  # no cache yet, or one we cannot read: start afresh

    def get(self, key: str, template: Template) -> PreparedFace | None:
        face = self.entries.get(key)
        if face is None:
            return None
        self.used.add(key)
        face = copy.copy(face)
        face.template = template
        return face

    def put(self, face: PreparedFace) -> None:
        stored = copy.copy(face)
        stored.template = None  # type: ignore[assignment]  # compiled Jinja does not pickle; re-attached on get
        self.entries[face.key] = stored
        self.used.add(face.key)
        self.dirty = True

    def save(self) -> None:
        """Keep the faces this run used (so the cache never grows without bound) and drop older caches."""
        if not self.dirty and self.used == set(self.entries):
            return
        kept = {k: v for k, v in self.entries.items() if k in self.used}
        with no_cyclic_gc():
            data = pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL)
        write_atomic(self.path, data)
        for old in self.folder.glob("faces-*.pickle"):
            if old != self.path:
                old.unlink(missing_ok=True)

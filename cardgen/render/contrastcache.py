"""Turn the contrast guard's measures (render.contrast) into a cache on disk (output/GAME/.cache/)
and back: each face's measures by its picture key, each text's ratio by what is drawn beneath it;
and a forked helper's new measures into its parent's (render.prefetch)."""

from __future__ import annotations

import marshal
from itertools import islice
from pathlib import Path
from typing import cast

from ..speed.cache import Packed, Store
from ..speed.codekey import code_digest

Result = tuple[float, str]  # the ratio, the colour beneath
# one text of a face as measured: element index, what it is, ink, printed size, bold, the Result
Measured = tuple[int, str, str, float, bool, float, str]


class ContrastCache:
    """Each face's measures by its key and pictures (a warm run neither lays a face out again nor
    rasterises anything), and each text's ratio and the colour beneath it by what is drawn there
    (a changed card whose grounds are the same rasterises nothing): kept in output/GAME/.cache/
    (speed.cache)."""

    def __init__(self, folder: Path | None) -> None:
        self.store = Store(folder)
        # keyed by the code of the guard that measures (its module and all it imports, this one too)
        self.name = f"contrast-{code_digest('cardgen.render.contrast')}"
        found = self.store.get(self.name)
        found = found if isinstance(found, dict) else {}
        # each face's measures as marshal bytes, read when the face is judged; the texts' only
        # when a face not yet measured asks (a warm run never does): 100,000 faces are not held
        # as objects
        self.faces: dict[str, list[Measured]] = Packed(found.get("faces"))
        texts = found.get("texts")
        self._texts: bytes = texts if isinstance(texts, bytes) else marshal.dumps({})
        self._known: dict[str, Result] | None = None
        self.changed = False

    @property
    def known(self) -> dict[str, Result]:
        if self._known is None:
            texts = marshal.loads(self._texts)
            self._known, self._texts = texts if isinstance(texts, dict) else {}, b""
        return self._known

    def sent(self, faces: list[str], texts: int) -> tuple[list[tuple[str, bytes]], bytes]:
        """What a forked helper measured, for its parent's `adopt`: the faces' measures as kept,
        and the texts measured since there were `texts` of them, as marshal bytes."""
        packed = cast(Packed, self.faces)
        new = dict(islice(self.known.items(), texts, None))
        return [(k, v) for k in faces if (v := packed.packed(k)) is not None], marshal.dumps(new)

    def adopt(self, faces: list[tuple[str, bytes]], texts: bytes) -> None:
        """Keep what a helper measured (`sent`) as if measured here."""
        packed = cast(Packed, self.faces)
        for key, data in faces:
            packed.keep_packed(key, data)
        new = marshal.loads(texts)
        self.known.update(new)
        self.changed = self.changed or bool(faces or new)

    def save(self) -> None:
        texts = marshal.dumps(self._known) if self._known is not None else self._texts
        data = {"faces": dict(self.faces), "texts": texts}
        if self.changed and self.store.put(self.name, data, stale="contrast-*"):
            self.changed = False

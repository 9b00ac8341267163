"""Turn a watch loop's idle seconds into laid-out and drawn elements: every face of the game is laid
out once in the background, so the first template save after starting re-lays and redraws only the
elements it changed (render.face, render.pen keep them), as every later save does."""

from __future__ import annotations

import threading
from typing import Callable

from ..core.workspace import Workspace
from ..render.prepared import PreparedFace
from ..speed.cache import enabled
from ..speed.memo import Memo

# faces already laid out and drawn in the background by this process (their keys carry the
# templates' and the card's content: a changed one is a new key)
_WARMED: Memo[bool] = Memo(50_000)


class Warmer:
    """One background pass at a time; `pause()` stops it between two faces (a save arrived: the
    rebuild has the CPU), `resume()` starts a new pass, which skips what earlier ones made."""

    def __init__(self, ws: Workspace, game: str) -> None:
        self.ws, self.game = ws, game
        self.cancel = threading.Event()
        self.thread: threading.Thread | None = None

    def resume(self) -> None:
        if not enabled():  # --no-cache: nothing is kept, so nothing to warm
            return
        self.pause()
        self.cancel = threading.Event()
        self.thread = threading.Thread(
            target=warm_faces, args=(self.ws, self.game, self.cancel.is_set), daemon=True
        )
        self.thread.start()

    def pause(self) -> None:
        self.cancel.set()
        if self.thread is not None:
            self.thread.join(5)
            self.thread = None


def warm_faces(ws: Workspace, game: str, cancelled: Callable[[], bool]) -> int:
    """Lay out and draw every face of the game's designs (with the templates' bleed, as sheets
    print them, and without, as the gallery and PNGs show them) into the process's memos; returns
    how many were made. Any problem just ends the pass: the rebuilds report it."""
    from ..jobs.sheets import live_check
    from ..project.studio import open_studio
    from ..render.pdfsheets import painter

    made: list[str] = []
    try:
        # the cards and model as the rebuild before read and checked them (while their files are
        # unchanged): a pass after a template save reads no card
        studio = open_studio(ws, game, live_check(ws, game))
        cards = studio.designs(printable=True)
        for bleed, card in [(b, c) for b in (None, 0.0) for c in cards]:  # the print's first
            if cancelled():
                return len(made)
            front, back = studio.prepare(card, bleed)
            faces = [front, *([back] if back is not None else [])]
            faces += [f for pair in studio.other_faces(card, bleed) for f in pair if f]
            for face in faces:

                def draw(face: PreparedFace = face) -> bool:
                    paint = painter(face, studio.fonts, studio.model)
                    studio.renderer.recordings.face(face, paint)
                    made.append(face.key)
                    return True

                _WARMED.get(face.key, draw)  # drawn once per face and process
    except Exception:  # a broken model or template mid-edit: the rebuild says what is wrong
        return len(made)
    return len(made)

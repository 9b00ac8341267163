"""Turn the layout inspector's requests on `cardgen serve` into answers: a face's layout (JSON) and
picture (PNG), an edit written into its template in place, an undo. Writes need the page's token,
a JSON body and no foreign Origin, so no other web page can make them."""

from __future__ import annotations

import hmac
import json
import secrets
import threading
import time
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

from ..core.errors import CardgenError
from ..core.workspace import Workspace
from ..jobs.sheets import live_check
from ..project.studio import Studio, open_studio
from ..render.prepared import PreparedFace
from ..speed.memo import Memo
from .edits import Conflict, Edit, Refused, Writer, plan
from .layout import face_png, layout, side
from .watch import source_folders

Answer = tuple[int, str, bytes]
MAX_BODY = 64 * 1024
JSON = "application/json; charset=utf-8"
IDLE = 0.25  # seconds without a request after which the page has what it asked for
YIELD_MOST = 1.5  # the longest a rebuild waits for the page


class Inspector:
    """The API under /api/ of the gallery server. The studio it answers from is opened again
    whenever a file of the game changed (about 0.03 s warm: its cards and model are read and
    checked again only when one of their files changed, jobs.sheets.live_check), so an edit's face
    is shown at once, before the gallery's own rebuild."""

    def __init__(
        self, ws: Workspace, game: str, prepared: dict[str, PreparedFace] | None = None
    ) -> None:
        self.ws, self.game = ws, game
        self.token = secrets.token_urlsafe(24)
        self.writer = Writer(ws.root)
        self.prepared = prepared if prepared is not None else {}
        self.lock = threading.Lock()
        self._studio: tuple[tuple[Any, ...], Studio] | None = None
        self._pictures: Memo[bytes] = Memo(64)  # asked from the server's threads
        self.asked = 0.0  # when the page last asked something (time.monotonic)

    def idle(self, quiet: float = IDLE, most: float = YIELD_MOST) -> None:
        """Wait until the page has asked nothing for `quiet` seconds (at most `most`): the gallery's
        rebuild after an edit waits for the edited face's layout and picture, which would share
        the interpreter with it otherwise (each answer slower by the rebuild's work)."""
        deadline = time.monotonic() + most
        while True:
            now = time.monotonic()
            wait = min(self.asked + quiet, deadline) - now
            if wait <= 0:
                return
            time.sleep(wait)

    def studio(self) -> Studio:
        with self.lock:
            stamp = _stamp(self.ws, self.game)
            if self._studio is None or self._studio[0] != stamp:
                # a template edited: the cards and model as the last read of them checked them
                check = live_check(self.ws, self.game)
                self._studio = (stamp, open_studio(self.ws, self.game, check, self.prepared))
            return self._studio[1]

    def get(self, target: str) -> Answer:
        self.asked = time.monotonic()
        url = urlsplit(target)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        try:
            if url.path == "/api/token":  # same-origin pages only: no CORS, Host checked
                return _json(200, {"token": self.token, "game": self.game})
            if url.path == "/api/layout":
                return _json(200, layout(self.studio(), self._side(query)))
            if url.path == "/api/face":
                return 200, "image/png", self._picture(query)
        except CardgenError as exc:
            return _json(404, {"error": exc.message})
        return _json(404, {"error": "no such page"})

    def post(self, target: str, headers: Any, body: bytes) -> Answer:
        self.asked = time.monotonic()
        problem = self._refused(headers)
        if problem:
            return _json(403, {"error": problem})
        try:
            data = json.loads(body.decode("utf-8") or "{}")
        except (UnicodeDecodeError, ValueError):
            return _json(400, {"error": "the body must be JSON"})
        if not isinstance(data, dict):
            return _json(400, {"error": "the body must be a JSON object"})
        path = urlsplit(target).path
        try:
            if path == "/api/edit":
                return _json(200, self._edit(data))
            if path == "/api/undo":
                undone = self.writer.undo(self.studio())
                return _json(200, {"written": [c.as_dict() for c in undone]})
        except Conflict as exc:
            return _json(409, {"error": exc.message})
        except CardgenError as exc:  # Refused and the like: said on the page, nothing written
            return _json(422, {"error": exc.message})
        return _json(404, {"error": "no such page"})

    def _refused(self, headers: Any) -> str | None:
        given = headers.get("X-Cardgen-Token") or ""
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return "this page's token is missing or stale: reload the page"
        if (headers.get("Content-Type") or "").split(";")[0].strip() != "application/json":
            return "edits are JSON"
        origin = headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != (headers.get("Host") or ""):
            return "edits come only from the gallery's own page"
        return None

    def _side(self, query: dict[str, str]):  # type: ignore[no-untyped-def]
        try:
            which = int(query.get("face", "0"))
        except ValueError:
            raise CardgenError("face must be a number") from None
        return side(self.studio(), query.get("card", ""), which)

    def _picture(self, query: dict[str, str]) -> bytes:
        found = self._side(query)
        key = found.face.picture_key()
        return self._pictures.get(key, lambda: face_png(self.studio(), found.face))

    def _edit(self, data: dict[str, Any]) -> dict[str, Any]:
        query = {"card": str(data.get("card", "")), "face": str(data.get("face", 0))}
        studio = self.studio()
        shown = layout(studio, self._side(query))
        entry = next((e for e in shown["elements"] if e["n"] == data.get("n")), None)
        if entry is None:
            raise Refused("no such element on this face")
        seen = data.get("seen")  # the element's YAML as the page showed it: changed since? 409
        if isinstance(seen, str) and seen != entry["yaml"]:
            raise Conflict(
                f"{entry['file']}: '{entry['id'] or entry['type']}' was edited on disk since the "
                "page showed it: nothing written; the page reloads with the file as it is"
            )
        edit = Edit(_numbers(data.get("edges")), _texts(data.get("values")))
        template = self._side(query).face.template
        boxes = ["card", "trim", "bleed", "safe", *template.boxes]
        changes = plan(entry, edit, boxes, list(template.fonts))
        written = self.writer.write(studio, entry, changes)
        return {"written": [c.as_dict() for c in written], "file": entry["file"]}


def _numbers(value: Any) -> dict[str, float]:
    if not isinstance(value, dict):
        return {}
    out = {}
    for k in ("left", "top", "right", "bottom"):
        v = value.get(k, 0)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) < 1000:
            out[k] = float(v)
    return out


def _texts(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    return {str(k)[:40]: str(v)[:2000] for k, v in list(value.items())[:20]}


def _json(status: int, data: Any) -> Answer:
    return status, JSON, json.dumps(data, ensure_ascii=False).encode("utf-8")


def _stamp(ws: Workspace, game: str) -> tuple[Any, ...]:
    """What the game's files are now (name, size, time of each): a changed one opens the studio
    again."""
    out = []
    for folder in source_folders(ws, game):
        if folder.is_dir():
            for path in sorted(folder.rglob("*")):
                try:
                    st = path.stat()
                except OSError:
                    continue
                out.append((str(path), st.st_size, st.st_mtime_ns))
    return tuple(out)


Log = Callable[[str], None]
__all__ = ["Inspector", "Path"]

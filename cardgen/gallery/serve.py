"""Serve a game's gallery on 127.0.0.1 and rebuild it whenever a card, model, template or font file changes."""
from __future__ import annotations

import errno
import functools
import os
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable

from ..errors import CardgenError
from ..gcpause import settle
from ..output import write_atomic
from ..render.face import PreparedFace
from ..watch import source_folders
from ..workspace import Workspace
from .job import build_gallery, error_text, write_error_page


class LiveGallery:
    """Rebuilds the gallery on demand; prepared faces and rendered PNGs carry over between rebuilds."""

    def __init__(self, ws: Workspace, game: str, out: Path, log: Callable[[str], None] = print) -> None:
        self.ws, self.game, self.out, self.log = ws, game, out, log
        self.prepared: dict[str, PreparedFace] = {}
        self.generation = 0
        self.lock = threading.Lock()

    def watched(self) -> list[Path]:
        return source_folders(self.ws, self.game)

    def rebuild(self) -> None:
        with self.lock:
            self.generation += 1
            version = f"{self.generation}-{time.monotonic_ns()}"
            started = time.perf_counter()
            try:
                result = build_gallery(self.ws, self.game, self.out, live=True, version=version,
                                       prepared=self.prepared)
                self.log(f"rebuilt the {result.outputs[0].what} in {time.perf_counter() - started:.2f} s")
            except Exception as exc:  # the server never dies on bad input: the page shows the problem
                write_error_page(self.out, self.game, error_text(exc), version)
                self.log(f"cannot build: {error_text(exc)}")
            write_atomic(self.out / "version.txt", version)

    def watch(self, stop: threading.Event) -> None:
        """Rebuild after each burst of saves: watchfiles waits for 50 ms of quiet (an editor writes a file in
        several steps) and gives the changes of the burst together."""
        from watchfiles import watch

        folders = [str(p) for p in self.watched() if p.is_dir()]
        for _changes in watch(*folders, stop_event=stop, step=50, debounce=1600, raise_interrupt=False):
            self.rebuild()


class _Handler(SimpleHTTPRequestHandler):
    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:  # quiet: the rebuild log is what matters
        pass

    def send_head(self):  # type: ignore[no-untyped-def]
        """Files of the gallery only: no directory listings, and a bad path ('%00') is a 400, not a traceback."""
        try:
            path = self.translate_path(self.path)
            if os.path.isdir(path) and not os.path.isfile(os.path.join(path, "index.html")):
                self.send_error(404, "Not found")
                return None
            return super().send_head()
        except ValueError:
            self.send_error(400, "Bad request")
            return None

    def list_directory(self, path):  # type: ignore[no-untyped-def]
        self.send_error(404, "Not found")
        return None


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        pass  # a client that hangs up or sends garbage is not the designer's problem


def open_server(out: Path, host: str, port: int) -> ThreadingHTTPServer:
    handler = functools.partial(_Handler, directory=str(out))
    if not 0 < port < 65536:
        raise CardgenError(f"--port must be between 1 and 65535, not {port}")
    try:
        return _Server((host, port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise CardgenError(f"port {port} is already in use; try --port {port + 1}") from None
        raise CardgenError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def serve(ws: Workspace, game: str, port: int = 8000, host: str = "127.0.0.1",
          log: Callable[[str], None] = print, stop: threading.Event | None = None) -> None:
    ws.check_game(game)
    out = ws.output_dir(game) / "gallery"
    server = open_server(out, host, port)  # fail fast on a busy port, before building anything
    live = LiveGallery(ws, game, out, log)
    live.rebuild()
    settle()  # a long-running process: the first build's leftovers go back to the garbage collector
    stop = stop or threading.Event()
    watcher = threading.Thread(target=live.watch, args=(stop,), daemon=True)
    watcher.start()
    def shut_down() -> None:
        stop.wait()
        server.shutdown()

    threading.Thread(target=shut_down, daemon=True).start()
    log(f"serving {ws.shown(out)} on http://{host}:{port}/ — edit the game's files and the page follows; Ctrl-C stops")
    try:
        server.serve_forever(poll_interval=0.2)
    finally:  # Ctrl-C goes on up: the command exits 130
        stop.set()
        server.server_close()

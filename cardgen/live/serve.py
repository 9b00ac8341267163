"""Serve a game's gallery on loopback and rebuild it whenever a card, model, template or font file
changes: files of the gallery folder only (regular files, no link followed), to requests that name
this server only."""

from __future__ import annotations

import email.utils
import errno
import os
import socket
import socketserver
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, cast

from ..core.errors import CardgenError, Finding, ModelUnusable, count
from ..core.output import JobResult, write_atomic
from ..core.workspace import Workspace
from ..gallery.page import own_folders
from ..jobs.gallery import error_text, gallery_page, write_error_page
from ..project.check import model_errors, presented
from ..render.prepared import PreparedFace
from ..speed.gcpause import settle
from .inspector import MAX_BODY, Inspector
from .requests import host_names, host_problem, loopback, open_inside, request_parts, url
from .watch import watch_job

# seconds an earlier page's faces outlive the rebuild after the one that superseded it (a page in
# a background tab polls version.txt about once a minute)
GRACE = 60.0


class LiveGallery:
    """Rebuilds the gallery on demand; prepared faces and rendered PNGs carry over between rebuilds.
    The faces of the page before (still open in a browser until it polls version.txt and reloads)
    are kept for one more rebuild, and older pages' faces for `grace` seconds after they were
    superseded: a page being read never loses an image."""

    def __init__(
        self,
        ws: Workspace,
        game: str,
        out: Path,
        log: Callable[[str], None] = print,
        grace: float = GRACE,
    ) -> None:
        self.ws, self.game, self.out, self.log, self.grace = ws, game, out, log, grace
        self.prepared: dict[str, PreparedFace] = {}
        self.generation = 0
        self.lock = threading.Lock()
        self.shown: frozenset[str] = frozenset()  # the faces of the page being served now
        self.earlier: list[
            tuple[frozenset[str], float]
        ] = []  # earlier pages' faces, and when each was superseded
        self.roots: list[Finding] = []  # the model's and templates' errors printed last
        # waited for before a rebuild of the watch loop (serve's: the inspector's page quiet)
        self.before: Callable[[], None] = lambda: None

    def tell_roots(self, findings: list[Finding]) -> None:
        """The model's and templates' errors, located, as every command prints them first: at the
        first build, then whenever a save changes them (and once when they are all fixed)."""
        roots = model_errors(findings)
        if roots == self.roots:
            return
        for f, hidden in presented(roots):
            self.log(f.format())
            if hidden:
                self.log(f"  … and {hidden} findings that follow from it")
        if not roots:
            self.log("the model's and templates' errors are fixed")
        self.roots = roots

    def rebuild(self) -> None:
        with self.lock:
            self.generation += 1
            version = f"{self.generation}-{time.monotonic_ns()}"
            started = time.perf_counter()
            now = time.monotonic()
            earlier = [(self.shown, now)] + [
                (faces, at) for faces, at in self.earlier if now - at < self.grace
            ]
            try:
                result = gallery_page(
                    self.ws,
                    self.game,
                    self.out,
                    live=True,
                    version=version,
                    prepared=self.prepared,
                    keep=frozenset().union(*(f for f, _ in earlier)),
                )
                self.shown, self.earlier = result.used, earlier
                self.tell_roots(result.findings)
                c = count(result.findings)
                self.log(
                    f"rebuilt the gallery of {result.cards} designs with their findings "
                    f"({result.rendered} faces rendered) in {time.perf_counter() - started:.2f} s: "
                    f"{c['error']} error{'s' * (c['error'] != 1)}, "
                    f"{c['warning']} warning{'s' * (c['warning'] != 1)}, {c['info']} info"
                )
            except (
                Exception
            ) as exc:  # the server never dies on bad input: the page shows the problem
                if isinstance(exc, ModelUnusable):
                    self.tell_roots(exc.findings)
                self.log(f"cannot build: {error_text(exc)}")
                try:
                    write_error_page(self.out, self.game, error_text(exc), version, self.ws.root)
                except (
                    CardgenError
                ) as why:  # the folder itself is refused (a link): nothing is written there
                    self.log(f"cannot show the error: {why.format()}")
                    return
            try:
                write_atomic(self.out / "version.txt", version)
            except CardgenError as exc:
                self.log(f"cannot write version.txt: {exc.format()}")

    def job(self) -> JobResult:
        """A rebuild as the watch loop's job (live.watch): the page shows the result, so there is
        nothing to return. It waits for the layout inspector's answers first (`before`)."""
        self.before()
        self.rebuild()
        return JobResult()

    def watch(self, stop: threading.Event, ready: threading.Event | None = None) -> None:
        """Rebuild after each burst of saves, in the one watch loop `--watch` uses too (`ready`:
        set once saves are seen)."""
        watch_job(self.ws, self.game, self.job, lambda *shown: None, stop, first=False, ready=ready)


class _Handler(SimpleHTTPRequestHandler):
    timeout = 30  # an idle or stalled client gives its thread back

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(
        self, format: str, *args: object
    ) -> None:  # quiet: the rebuild log is what matters
        pass

    def _foreign(self) -> bool:
        """A request that does not name this server (DNS rebinding): answered 400 or 421."""
        server = cast(_Server, self.server)
        problem = host_problem(
            self.headers.get_all("Host") or [],
            server.server_address[1],
            server.names,
            server.any_ip,
        )
        if problem is not None:
            self.send_error(*problem)
        return problem is not None

    def _answer(self, answer: tuple[int, str, bytes]) -> None:
        status, kind, body = answer
        self.send_response(status)
        self.send_header("Content-type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        inspector = cast(_Server, self.server).inspector
        if inspector is not None and self.path.startswith("/api/"):
            if not self._foreign():
                self._answer(inspector.get(self.path))
            return
        super().do_GET()

    def do_POST(self) -> None:
        """The layout inspector's writes (an edit, an undo), only with its token."""
        inspector = cast(_Server, self.server).inspector
        if self._foreign():
            return
        if inspector is None or not self.path.startswith("/api/"):
            self.send_error(501, "Unsupported method (POST)")
            return
        try:
            size = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            size = -1
        if not 0 <= size <= MAX_BODY:
            self.send_error(413, "Body too large")
            return
        self._answer(inspector.post(self.path, self.headers, self.rfile.read(size)))

    def send_head(self):  # type: ignore[no-untyped-def]
        """A regular file of the gallery, to a request for this server: no listings, no links, no
        dot files; a bad path ('%00') is a 400, a forged Host a 400 or 421, never a traceback."""
        if self._foreign():
            return None
        server = cast(_Server, self.server)
        try:
            parts = request_parts(self.path)
        except ValueError:
            self.send_error(400, "Bad request")
            return None
        fh = open_inside(server.root, parts) if parts is not None else None
        if fh is None or parts is None:
            self.send_error(404, "Not found")
            return None
        st = os.fstat(fh.fileno())
        self.send_response(200)
        self.send_header("Content-type", self.guess_type(parts[-1]))
        self.send_header("Content-Length", str(st.st_size))
        self.send_header("Last-Modified", email.utils.formatdate(st.st_mtime, usegmt=True))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        return fh


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # fifty clients at once are not turned away by a short listen backlog

    def __init__(self, address: tuple[str, int], root: str, host: str) -> None:
        self.root = root
        self.inspector: Inspector | None = None  # the layout inspector's API (serve sets it)
        self.names, self.any_ip = host_names(host)
        super().__init__(address, _Handler)

    def server_bind(self) -> None:  # no reverse DNS look-up of the address (HTTPServer's getfqdn)
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = (
            str(self.server_address[0]),
            int(self.server_address[1]),
        )

    def handle_error(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        pass  # a client that hangs up or sends garbage is not the designer's problem


class _Server6(_Server):
    address_family = socket.AF_INET6


def open_server(out: Path, host: str, port: int) -> ThreadingHTTPServer:
    if not 0 < port < 65536:
        raise CardgenError(f"--port must be between 1 and 65535, not {port}")
    return listen(out, host, port)


def listen(out: Path, host: str, port: int) -> ThreadingHTTPServer:
    """A server for the files of `out` on host:port (0: any free port, for tests and tools)."""
    kind = _Server6 if ":" in host else _Server
    try:
        return kind((host.strip("[]"), port), str(out.absolute()), host)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise CardgenError(f"port {port} is already in use; try --port {port + 1}") from None
        raise CardgenError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def serve(
    ws: Workspace,
    game: str,
    port: int = 8000,
    host: str = "127.0.0.1",
    log: Callable[[str], None] = print,
    stop: threading.Event | None = None,
) -> None:
    ws.check_game(game)
    out = ws.output_dir(game) / "gallery"
    own_folders(
        out, ws.root
    )  # a linked gallery folder is refused before anything is served or written
    server = open_server(out, host, port)  # fail fast on a busy port, before building anything
    live = LiveGallery(ws, game, out, log)
    inspector = cast(_Server, server).inspector = Inspector(ws, game)
    live.before = inspector.idle  # an edit's face is answered before the gallery is rebuilt
    live.rebuild()
    settle()  # a long-running process: the first build's leftovers go back to the garbage collector
    stop = stop or threading.Event()
    watcher = threading.Thread(target=live.watch, args=(stop,), daemon=True)
    watcher.start()

    def shut_down() -> None:
        stop.wait()
        server.shutdown()

    threading.Thread(target=shut_down, daemon=True).start()
    if not loopback(host):
        any_ip = host_names(host)[1]
        log(
            f"note: serving on {host or 'every interface'}, not only on loopback: anyone who can "
            "reach it sees the "
            "gallery (there is no password). Requests are answered when they name this machine "
            + (
                "by an IP address or as localhost"
                if any_ip
                else f"as {host.strip('[]')} or localhost"
            )
            + ", never through another name"
        )
    log(
        f"serving {ws.shown(out)} on {url(host, port)} — edit the game's files and the page "
        "follows; Ctrl-C stops"
    )
    try:
        server.serve_forever(poll_interval=0.2)
    finally:  # Ctrl-C goes on up: the command exits 130
        stop.set()
        server.server_close()

"""Serve a game's gallery on loopback and rebuild it whenever a card, model, template or font file changes: files
of the gallery folder only (regular files, no link followed), to requests that name this server only."""
from __future__ import annotations

import email.utils
import errno
import ipaddress
import os
import re
import socket
import socketserver
import stat
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import BinaryIO, Callable, cast
from urllib.parse import unquote

from ..core.errors import CardgenError
from ..core.output import write_atomic
from ..core.workspace import Workspace
from ..gallery.page import own_folders
from ..jobs.gallery import error_text, gallery_page, write_error_page
from ..render.face import PreparedFace
from ..speed.gcpause import settle
from .watch import source_folders

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARD = frozenset({"", "0.0.0.0", "::"})
GRACE = 60.0  # seconds an earlier page's faces outlive the rebuild after the one that superseded it (a page in
# a background tab polls version.txt about once a minute)
_HOST = re.compile(r"(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9.-]+))(?::(?P<port>[0-9]{1,5}))?")


class LiveGallery:
    """Rebuilds the gallery on demand; prepared faces and rendered PNGs carry over between rebuilds. The faces of
    the page before (still open in a browser until it polls version.txt and reloads) are kept for one more
    rebuild, and older pages' faces for `grace` seconds after they were superseded: a page being read never loses
    an image."""

    def __init__(self, ws: Workspace, game: str, out: Path, log: Callable[[str], None] = print,
                 grace: float = GRACE) -> None:
        self.ws, self.game, self.out, self.log, self.grace = ws, game, out, log, grace
        self.prepared: dict[str, PreparedFace] = {}
        self.generation = 0
        self.lock = threading.Lock()
        self.shown: frozenset[str] = frozenset()  # the faces of the page being served now
        self.earlier: list[tuple[frozenset[str], float]] = []  # earlier pages' faces, and when each was superseded

    def watched(self) -> list[Path]:
        return source_folders(self.ws, self.game)

    def rebuild(self) -> None:
        with self.lock:
            self.generation += 1
            version = f"{self.generation}-{time.monotonic_ns()}"
            started = time.perf_counter()
            now = time.monotonic()
            earlier = [(self.shown, now)] + [(faces, at) for faces, at in self.earlier if now - at < self.grace]
            try:
                result = gallery_page(self.ws, self.game, self.out, live=True, version=version,
                                      prepared=self.prepared, keep=frozenset().union(*(f for f, _ in earlier)))
                self.shown, self.earlier = result.used, earlier
                self.log(f"rebuilt the gallery of {result.cards} cards with their findings ({result.rendered} faces "
                         f"rendered) in {time.perf_counter() - started:.2f} s")
            except Exception as exc:  # the server never dies on bad input: the page shows the problem
                self.log(f"cannot build: {error_text(exc)}")
                try:
                    write_error_page(self.out, self.game, error_text(exc), version, self.ws.root)
                except CardgenError as why:  # the folder itself is refused (a link): nothing is written there
                    self.log(f"cannot show the error: {why.format()}")
                    return
            try:
                write_atomic(self.out / "version.txt", version)
            except CardgenError as exc:
                self.log(f"cannot write version.txt: {exc.format()}")

    def watch(self, stop: threading.Event) -> None:
        """Rebuild after each burst of saves: watchfiles waits for 50 ms of quiet (an editor writes a file in
        several steps) and gives the changes of the burst together."""
        from watchfiles import watch

        folders = [str(p) for p in self.watched() if p.is_dir()]
        for _changes in watch(*folders, stop_event=stop, step=50, debounce=1600, raise_interrupt=False):
            self.rebuild()


def host_names(host: str) -> tuple[frozenset[str], bool]:
    """The names a request's Host may give for a server bound to `host`, and whether any IP address is also
    fine: loopback's three names always; the address or name the user bound to; and, bound to every interface,
    any IP address (a DNS-rebinding page is always reached through a name of the attacker's, never an address)."""
    name = host.strip().strip("[]").lower()
    if name in WILDCARD:
        return LOOPBACK, True
    try:
        name = str(ipaddress.ip_address(name))
    except ValueError:
        pass
    return LOOPBACK | {name}, False


def host_problem(values: list[str], port: int, names: frozenset[str], any_ip: bool) -> tuple[int, str] | None:
    """Why a request's Host headers do not name this server (400: missing, repeated or malformed; 421: another
    host or port), or None when they do."""
    if len(values) != 1:
        return 400, "exactly one Host header is needed"
    match = _HOST.fullmatch(values[0].strip())
    if match is None:
        return 400, "malformed Host header"
    name = (match["v6"] or match["name"] or "").lower()
    try:
        address: ipaddress.IPv4Address | ipaddress.IPv6Address | None = ipaddress.ip_address(name)
        name = str(address)
    except ValueError:
        if match["v6"]:
            return 400, "malformed Host header"
        address = None
    if int(match["port"] or 80) != port:
        return 421, "this server does not answer for that port"
    if name not in names and not (any_ip and address is not None):
        return 421, "this server answers only requests for its own address (localhost)"
    return None


def request_parts(target: str) -> list[str] | None:
    """The path segments a request asks for (index.html for a folder), or None for a name the gallery cannot
    hold (dot files and '..' included). ValueError: not a path, or not one that decodes."""
    if not target.startswith("/"):
        raise ValueError("not an origin-form request target")
    text = unquote(target.split("?", 1)[0].split("#", 1)[0], errors="strict")
    if "\x00" in text:
        raise ValueError("a NUL in the path")
    parts = [p for p in text.split("/") if p]
    if not parts or text.endswith("/"):
        parts.append("index.html")
    return None if any(p.startswith(".") or "\\" in p for p in parts) else parts


def open_inside(root: str, parts: list[str]) -> BinaryIO | None:
    """The regular file at root/parts, opened, or None. No link is followed on the way, the root included: each
    folder is opened relative to the one before with O_NOFOLLOW, so a link swapped in meanwhile is no way out;
    a FIFO or device is never opened for reading (O_NONBLOCK, then not a regular file)."""
    nofollow, directory = getattr(os, "O_NOFOLLOW", 0), getattr(os, "O_DIRECTORY", 0)
    if not nofollow or os.open not in os.supports_dir_fd:
        return _open_checked(root, parts)
    flags = os.O_RDONLY | nofollow | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        folder = os.open(root, os.O_RDONLY | directory | nofollow)
    except OSError:
        return None
    try:
        for part in parts[:-1]:
            inner = os.open(part, os.O_RDONLY | directory | nofollow, dir_fd=folder)
            os.close(folder)
            folder = inner
        fd = os.open(parts[-1], flags, dir_fd=folder)
    except OSError:  # missing, a link (ELOOP), not a folder
        return None
    finally:
        os.close(folder)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return os.fdopen(fd, "rb")


def _open_checked(root: str, parts: list[str]) -> BinaryIO | None:
    """open_inside where the OS has no O_NOFOLLOW or dir_fd (Windows): each step looked at (lstat) first."""
    path = root
    try:
        for i, part in enumerate(["", *parts]):
            path = os.path.join(path, part) if part else path
            mode = os.lstat(path).st_mode
            if not (stat.S_ISREG(mode) if i == len(parts) else stat.S_ISDIR(mode)):
                return None
        before = os.lstat(path)
        fh = open(path, "rb")
    except OSError:
        return None
    now = os.fstat(fh.fileno())
    if (now.st_dev, now.st_ino) != (before.st_dev, before.st_ino) or not stat.S_ISREG(now.st_mode):
        fh.close()
        return None
    return fh


class _Handler(SimpleHTTPRequestHandler):
    timeout = 30  # an idle or stalled client gives its thread back

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:  # quiet: the rebuild log is what matters
        pass

    def send_head(self):  # type: ignore[no-untyped-def]
        """A regular file of the gallery, to a request for this server: no listings, no links, no dot files;
        a bad path ('%00') is a 400, a forged Host a 400 or 421, never a traceback."""
        server = cast(_Server, self.server)
        problem = host_problem(self.headers.get_all("Host") or [], server.server_address[1], server.names,
                               server.any_ip)
        if problem is not None:
            self.send_error(*problem)
            return None
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
        self.names, self.any_ip = host_names(host)
        super().__init__(address, _Handler)

    def server_bind(self) -> None:  # no reverse DNS look-up of the address (HTTPServer's getfqdn)
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = str(self.server_address[0]), int(self.server_address[1])

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


def loopback(host: str) -> bool:
    name = host.strip().strip("[]").lower()
    try:
        return name == "localhost" or ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def url(host: str, port: int) -> str:
    """The address to open: for a server on every interface, this machine's loopback one."""
    name = host.strip("[]")
    name = "127.0.0.1" if name in ("", "0.0.0.0") else "::1" if name == "::" else name
    return f"http://[{name}]:{port}/" if ":" in name else f"http://{name}:{port}/"


def serve(ws: Workspace, game: str, port: int = 8000, host: str = "127.0.0.1",
          log: Callable[[str], None] = print, stop: threading.Event | None = None) -> None:
    ws.check_game(game)
    out = ws.output_dir(game) / "gallery"
    own_folders(out, ws.root)  # a linked gallery folder is refused before anything is served or written
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
    if not loopback(host):
        any_ip = host_names(host)[1]
        log(f"note: serving on {host or 'every interface'}, not only on loopback: anyone who can reach it sees the "
            "gallery (there is no password). Requests are answered when they name this machine "
            + ("by an IP address or as localhost" if any_ip else f"as {host.strip('[]')} or localhost")
            + ", never through another name")
    log(f"serving {ws.shown(out)} on {url(host, port)} — edit the game's files and the page follows; Ctrl-C stops")
    try:
        server.serve_forever(poll_interval=0.2)
    finally:  # Ctrl-C goes on up: the command exits 130
        stop.set()
        server.server_close()

"""Turn an HTTP request to the gallery server into what it may answer: whether its Host names this
server (DNS rebinding is refused), and which regular file of the gallery folder its path names (no
links followed, no dot files, no way out)."""

from __future__ import annotations

import ipaddress
import os
import re
import stat
from typing import BinaryIO
from urllib.parse import unquote

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARD = frozenset({"", "0.0.0.0", "::"})
_HOST = re.compile(
    r"(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9.-]+))(?::(?P<port>[0-9]{1,5}))?"
)


def host_names(host: str) -> tuple[frozenset[str], bool]:
    """The names a request's Host may give for a server bound to `host`, and whether any IP address
    is also fine: loopback's three names always; the address or name the user bound to; and, bound
    to every interface, any IP address (a DNS-rebinding page is always reached through a name of the
    attacker's, never an address)."""
    name = host.strip().strip("[]").lower()
    if name in WILDCARD:
        return LOOPBACK, True
    try:
        name = str(ipaddress.ip_address(name))
    except ValueError:
        pass
    return LOOPBACK | {name}, False


def host_problem(
    values: list[str], port: int, names: frozenset[str], any_ip: bool
) -> tuple[int, str] | None:
    """Why a request's Host headers do not name this server (400: missing, repeated or malformed;
    421: another host or port), or None when they do."""
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
    """The path segments a request asks for (index.html for a folder), or None for a name the
    gallery cannot hold (dot files and '..' included). ValueError: not a path, or not one that
    decodes."""
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
    """The regular file at root/parts, opened, or None. No link is followed on the way, the root
    included: each folder is opened relative to the one before with O_NOFOLLOW, so a link swapped in
    meanwhile is no way out; a FIFO or device is never opened for reading (O_NONBLOCK, then not a
    regular file)."""
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
    """open_inside where the OS has no O_NOFOLLOW or dir_fd (Windows): each step looked at (lstat)
    first."""
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

"""Turn plain data into signed cache files (output/GAME/.cache/) and back: the one disk-cache
mechanism.

A cache file is trusted only when this user's cardgen wrote it. Each file carries an HMAC-SHA256 of
its name and payload under a random per-user key kept outside every workspace
(`$XDG_CACHE_HOME/cardgen/cache-key`, by default `~/.cache/cardgen/cache-key`). A game folder from
someone else may ship an `output/` full of caches: they fail the check and are ignored (rebuilt),
never unpacked. Payloads are `marshal` of plain data (dict, list, tuple, str, bytes, int, float,
bool, None) and never pickle, so not even a file that passes the check can run code. A damaged,
truncated, foreign or hostile file reads as "no cache": never an error.

`--no-cache` or `CARDGEN_NO_CACHE=1` turns every store off (and, through the same switch, every
memo and extra process): nothing is read or written and the plain pipeline runs, making the same
bytes.
"""

from __future__ import annotations

import hashlib
import hmac
import marshal
import os
import secrets
import stat
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.output import link_in, write_cache

MAGIC = b"cardgen-cache-1\n"  # the container's format: a new one never reads an old file
MAC_BYTES = 32
MAX_BYTES = 1 << 30  # a larger file is not read (no cardgen cache comes near it)


def _off_by_environment() -> bool:
    return os.environ.get("CARDGEN_NO_CACHE", "").strip().lower() in ("1", "true", "yes")


_state = {"off": _off_by_environment()}  # the one switch: read as cardgen starts and by set_enabled


def set_enabled(on: bool) -> None:
    """The switch, set by the CLI as every command starts: off with --no-cache, or while
    CARDGEN_NO_CACHE=1 is in the environment (also read when cardgen is imported); on again
    otherwise."""
    _state["off"] = not on or _off_by_environment()


def enabled() -> bool:
    """Whether caches, memos (speed.memo) and extra processes (speed.parallel) may be used: not
    with --no-cache or CARDGEN_NO_CACHE=1. Cheap: memos ask it on every call."""
    return not _state["off"]


def key_file() -> Path:
    """Where this user's cache key lives: outside any workspace, in the user's own cache folder."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cardgen" / "cache-key"


@lru_cache(maxsize=1)
def user_key() -> bytes:
    """This user's random cache key, made on first use (mode 0600). Where none can be kept (no home,
    a read-only one) a key for this process alone: caches then last as long as the process (a live
    rebuild)."""
    path = key_file()
    for _ in range(2):
        try:
            return _read_key(path)
        except FileNotFoundError:
            try:
                _make_key(path)
            except FileExistsError:  # another cardgen made it at the same moment: read theirs
                continue
            except OSError:
                break
        except (OSError, ValueError):
            break
    return secrets.token_bytes(MAC_BYTES)


def _read_key(path: Path) -> bytes:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != MAC_BYTES:
            raise ValueError(f"{path} is not a cardgen cache key")
        data = os.read(fd, MAC_BYTES)
    finally:
        os.close(fd)
    if len(data) != MAC_BYTES:
        raise ValueError(f"{path} is not a cardgen cache key")
    return data


def _make_key(path: Path) -> None:
    """Write a new key where none is: to a private temporary file, then linked into place (fails if
    another process won the race, so two processes never hold different keys)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, secrets.token_bytes(MAC_BYTES))
        os.close(fd)
        os.link(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def mac_start(name: str) -> "hmac.HMAC":
    """The signature of a cache file named `name`, its payload still to be added (update)."""
    return hmac.new(user_key(), name.encode("utf-8") + b"\0", hashlib.sha256)


def _mac(name: str, payload: bytes | memoryview) -> bytes:
    mac = mac_start(name)
    mac.update(payload)
    return mac.digest()


def read_signed(path: Path) -> memoryview | None:
    """The payload of a cache file this user's cardgen wrote at `path`, or None (none, foreign,
    damaged, a link, not a regular file, too large)."""
    if link_in(path) is not None:
        return None  # never read through a link in the output tree (writing there is refused)
    try:  # not through a link, and not waiting on a FIFO planted in the cache's place
        fd = os.open(
            path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        )
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if (
            not stat.S_ISREG(info.st_mode)
            or info.st_size > MAX_BYTES
            or info.st_size < len(MAGIC) + MAC_BYTES
        ):
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            raw = fh.read(MAX_BYTES + 1)
    except (OSError, MemoryError):
        return None
    finally:
        os.close(fd)
    if not raw.startswith(MAGIC):
        return None
    start = len(MAGIC) + MAC_BYTES
    payload = memoryview(raw)[start:]
    if not hmac.compare_digest(raw[len(MAGIC) : start], _mac(path.name, payload)):
        return None
    return payload


class Store:
    """One cache folder: named entries of plain data (get/put) or bytes (get_bytes/put_bytes),
    signed; off (every get None, every put a no-op) when caches are switched off or there is no
    folder."""

    def __init__(self, folder: Path | None) -> None:
        self.root = folder
        self.folder = folder if enabled() else None

    @property
    def on(self) -> bool:
        return self.folder is not None

    def get_bytes(self, name: str) -> bytes | None:
        payload = self._payload(name)
        return bytes(payload) if payload is not None else None

    def _payload(self, name: str) -> memoryview | None:
        return read_signed(self.folder / name) if self.folder is not None else None

    def put_bytes(self, name: str, data: bytes, stale: str | None = None) -> bool:
        """Keep `data` under `name`; with `stale` (a glob of the same cache under other keys) drop
        those."""
        if self.folder is None:
            return False
        # in parts: a cache of 100,000 faces is not copied whole once more to be written
        return write_cache(self.folder / name, (MAGIC, _mac(name, data), data), stale)

    def get(self, name: str) -> Any | None:
        """The plain data kept under `name`, or None."""
        payload = self._payload(name)
        if payload is None:
            return None
        try:
            return marshal.loads(payload)
        except (
            EOFError,
            ValueError,
            TypeError,
            MemoryError,
            RecursionError,
        ):  # signed, yet unreadable here
            return None

    def put(self, name: str, data: object, stale: str | None = None) -> bool:
        """Keep plain data under `name` (False when it cannot be kept: off, unmarshallable,
        unwritable)."""
        if self.folder is None:
            return False
        try:
            payload = marshal.dumps(data)  # type: ignore[arg-type]
        except (
            ValueError,
            RecursionError,
        ):  # not plain data, or nested too deep to keep: made again next time
            return False
        return self.put_bytes(name, payload, stale)

    def file(self, name: str) -> Path | None:
        """A plain file another program reads (a picture the rulebook embeds), kept by put_file: its
        path when its content is still what this user's cardgen wrote (its signature beside it,
        `name.sig`), else None."""
        if self.folder is None:
            return None
        path, sig = self.folder / name, read_signed(self.folder / f"{name}.sig")
        if sig is None or link_in(path) is not None or path.is_symlink() or not path.is_file():
            return None
        try:
            same = hmac.compare_digest(bytes(sig), hashlib.sha256(path.read_bytes()).digest())
        except OSError:
            return None
        return path if same else None

    def put_file(self, name: str, data: bytes) -> Path:
        """Write `data` as a plain file in the folder and sign it (signed only while caches are on:
        off, the file is a working file, made again every time). Raises CardgenError where it cannot
        be written."""
        if self.root is None:
            raise ValueError("a store without a folder keeps no files")
        from ..core.output import clear_place, refuse_links, write_atomic

        refuse_links(self.root / name)  # first: nothing is removed through a linked folder
        clear_place(self.root / name)
        path = write_atomic(self.root / name, data)
        if self.folder is not None:
            self.put_bytes(f"{name}.sig", hashlib.sha256(data).digest())
        return path

    def prune(self, pattern: str, keep: set[str]) -> None:
        """Drop this store's files matching `pattern` that are not in `keep` (links and folders left
        alone)."""
        if self.folder is None or not self.folder.is_dir() or link_in(self.folder) is not None:
            return
        for old in self.folder.glob(pattern):
            if old.name not in keep and old.is_file() and not old.is_symlink():
                try:
                    old.unlink()
                except OSError:
                    pass


class Packed(dict):  # type: ignore[type-arg]
    """Values by key, each held as its marshal bytes (as a cache file keeps it) and read back when
    asked for: a cache of 100,000 entries read whole holds 100,000 short byte strings, not millions
    of small objects. `get` and `[key]` give the value; `packed` the bytes (to keep them again);
    `items`, `values` and iteration are those of the bytes."""

    def __init__(self, data: dict[str, bytes] | None = None) -> None:
        super().__init__(
            {k: v for k, v in data.items() if isinstance(v, bytes)}
            if isinstance(data, dict)
            else {}
        )

    def get(self, key: Any, default: Any = None) -> Any:
        found = super().get(key)
        return default if found is None else marshal.loads(found)

    def __getitem__(self, key: Any) -> Any:
        return marshal.loads(super().__getitem__(key))

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, marshal.dumps(value))

    def packed(self, key: Any) -> bytes | None:
        found: bytes | None = super().get(key)
        return found

    def keep_packed(self, key: Any, data: bytes) -> None:
        """Keep a value given as its marshal bytes."""
        super().__setitem__(key, data)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

"""Turn named byte values into one signed table file of the disk cache (output/GAME/.cache/), and
the file back into values read from disk one at a time, when asked for.

A `speed.cache.Store` file is one marshal payload, read whole and held: a face cache of 100,000
faces would be held twice over as it is read (the file, then its values) and once more as it is
written (the payload joined). A table is written part after part (its values never joined) and
read lazily: opening it checks its signature once, reading the file in pieces, and keeps only its
header (the keys, each value's place); a value is read (`pread`) from the file opened then when it
is asked for. Its layout, after its magic line: an 8-byte header length, the header (marshal of
plain data: (meta, keys, lengths)), the values one after the other, and an HMAC-SHA256 (this
user's key, speed.cache) of the file's name and everything between the magic line and it. A file
of another layout, a damaged, truncated, foreign or hostile one reads as no table: never an error.
The file opened stays open while its table is in use, so a cardgen writing the cache again
(atomically: a new file) meanwhile changes nothing this one reads.
"""

from __future__ import annotations

import hmac
import marshal
import os
import stat
import tempfile
from pathlib import Path
from typing import Any, BinaryIO, Iterable, Iterator

from ..core.output import link_in, write_cache
from .cache import MAC_BYTES, MAX_BYTES, Packed, mac_start

MAGIC = b"cardgen-table-1\n"
CHUNK = 1 << 20
HEAD = 8  # bytes of the header's length


class Table:
    """An open table file: its meta (plain data), its keys in order with their values' places, and
    each value read when asked for (`at(place)`)."""

    def __init__(self, fd: int, meta: Any, places: list[tuple[str, int]]) -> None:
        self._fd: int | None = fd
        self.meta = meta
        # (key, the value's place: one int, its offset in the file * 2**32 + its length), in the
        # order written (a key may stand more than once: the meta says what each part is)
        self.places = places

    def at(self, place: int) -> bytes | None:
        """The value at a place (as `places` gives it); None when the file can no longer be
        read."""
        return _pread(self._fd, place)

    def close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass

    def __del__(self) -> None:
        self.close()


def open_table(folder: Path | None, name: str) -> Table | None:
    """The table kept under `name` in `folder`, its signature checked, or None (no folder, no
    file, a link, not a regular file, too large, not a table, not this user's, damaged)."""
    if folder is None:
        return None
    path = folder / name
    if link_in(path) is not None:
        return None
    try:
        fd = os.open(
            path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        )
    except OSError:
        return None
    try:
        table = _checked(fd, name)
    except (OSError, MemoryError, EOFError, ValueError, TypeError, RecursionError):
        table = None
    if table is None:
        os.close(fd)
    return table


def _checked(fd: int, name: str) -> Table | None:
    info = os.fstat(fd)
    size = info.st_size
    if not stat.S_ISREG(info.st_mode) or size > MAX_BYTES or size < len(MAGIC) + HEAD + MAC_BYTES:
        return None
    if os.pread(fd, len(MAGIC), 0) != MAGIC:
        return None
    end = size - MAC_BYTES
    mac = mac_start(name)
    offset = len(MAGIC)
    while offset < end:  # the signature over the whole file, read in pieces
        piece = os.pread(fd, min(CHUNK, end - offset), offset)
        if not piece:
            return None
        mac.update(piece)
        offset += len(piece)
    if not hmac.compare_digest(os.pread(fd, MAC_BYTES, end), mac.digest()):
        return None
    length = int.from_bytes(os.pread(fd, HEAD, len(MAGIC)), "little")
    start = len(MAGIC) + HEAD
    if start + length > end:
        return None
    meta, keys, lengths = marshal.loads(os.pread(fd, length, start))
    if not isinstance(keys, tuple) or not isinstance(lengths, tuple) or len(keys) != len(lengths):
        return None
    places: list[tuple[str, int]] = []
    offset = start + length
    for key, size in zip(keys, lengths):
        if type(key) is not str or type(size) is not int or not 0 <= size < 1 << 32:
            return None
        places.append((key, offset << 32 | size))
        offset += size
    if offset != end:
        return None
    return Table(fd, meta, places)


def put_table(
    folder: Path | None,
    name: str,
    meta: Any,
    values: Iterable[tuple[str, int]],
    parts: Iterable[bytes],
    stale: str | None = None,
) -> bool:
    """Keep a table under `name`: its meta (plain data), its keys and their values' lengths
    (`values`), and the values themselves, one part each in the same order (`parts`: made as
    they are written, never all held). False when it cannot be kept (no folder, unwritable, a
    value that is not what its length said)."""
    if folder is None:
        return False
    listed = list(values)
    keys = tuple(key for key, _ in listed)
    lengths = tuple(size for _, size in listed)
    del listed
    try:
        header = marshal.dumps((meta, keys, lengths))
    except ValueError:
        return False
    mac = mac_start(name)

    def written() -> Iterator[bytes]:
        for part in (len(header).to_bytes(HEAD, "little"), header):
            mac.update(part)
            yield part
        count = 0
        for part, size in zip(parts, lengths):
            if len(part) != size:
                raise _Wrong
            mac.update(part)
            count += 1
            yield part
        if count != len(lengths):
            raise _Wrong
        yield mac.digest()

    try:
        return write_cache(folder / name, _chain(MAGIC, written()), stale)
    except _Wrong:
        return False


class _Wrong(Exception):
    """A value's part was not the length the table's header gave it (nothing is kept)."""


def _chain(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    yield first
    yield from rest


class Spill:
    """Values set aside in a nameless file of the cache folder (gone when closed, or when the
    process ends), each read back by its place: a cold run of 100,000 faces holds the places of
    what it made, not its bytes, until the table is written. Where no such file can be made, the
    values are held (`add` gives None)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._file: BinaryIO | None = None
        self.end = 0
        self.pid = os.getpid()  # a forked helper holds what it makes: the file is its parent's

    def _fd(self) -> int | None:
        """The spill file's descriptor, made when first asked for (the folder too, as saving the
        table would make it); None where it cannot be."""
        if self._file is None and self.folder is not None:
            folder, self.folder = self.folder, None  # one attempt
            try:
                folder.mkdir(parents=True, exist_ok=True)
                if link_in(folder) is None and not folder.is_symlink():
                    self._file = tempfile.TemporaryFile(dir=folder, buffering=0)
            except OSError:
                self._file = None
        return self._file.fileno() if self._file is not None else None

    def add(self, data: bytes) -> int | None:
        """Where `data` now stands (as Table.at takes it), or None: not set aside."""
        fd = self._fd() if os.getpid() == self.pid else None
        if fd is None or len(data) >= 1 << 32:
            return None
        try:
            os.pwrite(fd, data, self.end)
        except OSError:
            return None
        place = self.end << 32 | len(data)
        self.end += len(data)
        return place

    def at(self, place: int) -> bytes | None:
        return _pread(self._file.fileno() if self._file is not None else None, place)

    def close(self) -> None:
        file, self._file = self._file, None
        if file is not None:
            file.close()


def _pread(fd: int | None, place: int) -> bytes | None:
    if fd is None:
        return None
    offset, length = place >> 32, place & 0xFFFFFFFF
    try:
        data = os.pread(fd, length, offset)
    except OSError:
        return None
    return data if len(data) == length else None


class Backed(Packed):
    """Packed values (speed.cache.Packed: each held as its marshal bytes) of which those read from
    a table stay in its file, and those kept since in a spill file (Spill), each read when asked
    for: a run of 100,000 faces holds their keys and places, not their bytes. A place in the spill
    is held as its bitwise inverse (negative), one in the table as it is."""

    def __init__(
        self,
        table: Table | None = None,
        places: dict[str, int] | None = None,
        spill: Spill | None = None,
    ) -> None:
        super().__init__()
        self.table, self.spill = table, spill
        if places:
            dict.update(self, places)

    def packed(self, key: Any) -> bytes | None:
        found = dict.get(self, key)
        if type(found) is int:
            if found < 0:
                return self.spill.at(~found) if self.spill is not None else None
            return self.table.at(found) if self.table is not None else None
        return found  # type: ignore[no-any-return]

    def keep_packed(self, key: Any, data: bytes) -> None:
        place = self.spill.add(data) if self.spill is not None else None
        dict.__setitem__(self, key, data if place is None else ~place)

    def __setitem__(self, key: Any, value: Any) -> None:
        self.keep_packed(key, marshal.dumps(value))

    def size(self, key: Any) -> int:
        """The length of a key's bytes, without reading them."""
        found = dict.__getitem__(self, key)
        if type(found) is int:
            return (~found if found < 0 else found) & 0xFFFFFFFF
        return len(found)

    def get(self, key: Any, default: Any = None) -> Any:
        found = self.packed(key)
        return default if found is None else marshal.loads(found)

    def __getitem__(self, key: Any) -> Any:
        found = self.packed(key)
        if found is None:
            raise KeyError(key)
        return marshal.loads(found)

"""Turn bytes into files atomically (temp file + rename), so an interrupted build never leaves half a file, and
keep the caches of output/GAME/.cache/ (read and written best effort: a cache is never worth failing for)."""
from __future__ import annotations

import os
import pickle
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .errors import CardgenError, Finding, Severity


@dataclass
class Output:
    """A file (or folder) a job wrote, and what it is, for the closing summary."""

    path: Path
    what: str

    @property
    def size(self) -> int:
        return self.path.stat().st_size if self.path.is_file() else 0


@dataclass
class JobResult:
    """What a job made (outputs), what it found (findings) and what the user should know (notes)."""

    outputs: list[Output] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    text: str = ""  # what the command prints as its result (packs, a deck verdict, one card), if anything
    later: Callable[[], JobResult] | None = None  # work left for after this is shown (a live rebuild's book)
    pending: str = ""  # what `later` does, for the user

    def failed(self, strict: bool = False) -> bool:
        """Exit 1: the data has errors (with strict, warnings too)."""
        worst = Severity.WARNING if strict else Severity.ERROR
        return any(f.severity >= worst for f in self.findings)


def inside(folder: Path, relative: str) -> Path:
    """folder/relative, refused when it would land outside the folder (a hostile name, never a user's choice)."""
    target = folder / relative
    if relative not in ("", ".", "..") and "/" not in relative and "\\" not in relative and ":" not in relative:
        return target  # a plain name lands in the folder (write_atomic refuses a link in its place)
    base = folder.resolve()
    if not target.resolve().is_relative_to(base) or Path(relative).is_absolute():
        raise CardgenError(f"refusing to write '{relative}': it would land outside {folder}")
    return target


def write_atomic(path: Path, data: bytes | str) -> Path:
    """Write a regular file atomically. Anything else already at the path (a folder, a device such as
    /dev/full, a FIFO) is refused rather than replaced; an OS error is one line naming the path."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise CardgenError(f"refusing to write {path}: it is not a regular file (a folder, device, pipe or link)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except OSError as exc:
        raise CardgenError(f"cannot write {path}: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes private files; outputs are ordinary files
        os.replace(tmp, path)
    except BaseException as exc:  # a full disk, or Ctrl-C mid-write: no half file left behind
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise CardgenError(f"cannot write {path}: {exc.strerror or exc}") from exc
        raise
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


UNREADABLE = (OSError, pickle.PickleError, EOFError, AttributeError, ImportError, TypeError, ValueError)


def read_cache(path: Path) -> object | None:
    """What an earlier run kept at `path` (a pickle in output/GAME/.cache/), or None: none there, or one this
    cardgen cannot read (damaged, another version's)."""
    try:
        return pickle.loads(path.read_bytes())
    except UNREADABLE:
        return None


def write_cache(path: Path, data: bytes, stale: str | None = None) -> bool:
    """Keep a cache file for the next run, atomically; with `stale` (a glob of the same cache under other keys),
    drop the older ones beside it. A cache is never worth failing for: a workspace that cannot be written is
    only read (False)."""
    try:
        write_atomic(path, data)
    except CardgenError:
        return False
    for old in path.parent.glob(stale) if stale else ():
        if old != path:
            try:
                old.unlink(missing_ok=True)
            except OSError:  # not ours to remove (a folder of that name): left as it is
                pass
    return True

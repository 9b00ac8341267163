"""Turn bytes into files atomically (temp file + rename), so an interrupted build never leaves half
a file, and write cache files best effort (speed.cache signs and reads them: a cache is never worth
failing for)."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

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
    text: str = (
        ""  # what the command prints as its result (packs, a deck verdict, one card), if anything
    )
    later: Callable[[], JobResult] | None = (
        None  # work left for after this is shown (a live rebuild's book)
    )
    pending: str = ""  # what `later` does, for the user
    step: str = ""  # a step of a live rebuild shown on its own ('pulled cards.xlsx:'), not the job
    # findings that decide the exit code and are counted, not listed (the card errors behind a
    # rulebook: `cardgen validate` lists them)
    counted: list[Finding] = field(default_factory=list)
    # the command's own checks of what it read (pnp-check's checklist, printed in `text`): how many
    # failed and how many gave a warning
    checks: tuple[int, int] = (0, 0)
    # when (time.perf_counter()) its outputs were on disk, when that was before the job ended (a
    # live sheet run writes its PDF, then waits for its findings helper): a watch loop shows both
    written_at: float | None = None

    def failed(self, strict: bool = False) -> bool:
        """Exit 1: the data has errors, or a check failed (with strict, warnings too)."""
        worst = Severity.WARNING if strict else Severity.ERROR
        failed, warned = self.checks
        if failed or (strict and warned):
            return True
        return any(f.severity >= worst for f in [*self.findings, *self.counted])


def inside(folder: Path, relative: str) -> Path:
    """folder/relative, refused when it would land outside the folder (a hostile name, never a
    user's choice)."""
    target = folder / relative
    if (
        relative not in ("", ".", "..")
        and "/" not in relative
        and "\\" not in relative
        and ":" not in relative
    ):
        return target  # a plain name lands in the folder (write_atomic refuses a link in its place)
    base = folder.resolve()
    if not target.resolve().is_relative_to(base) or Path(relative).is_absolute():
        raise CardgenError(f"refusing to write '{relative}': it would land outside {folder}")
    return target


class LinkRefused(CardgenError):
    """A folder of a workspace's output/ is a symbolic link: cardgen would write (or delete)
    somewhere else."""


_GUARDED: set[Path] = set()  # workspaces' output/ folders: no link may stand anywhere below them


def guard(folder: Path) -> None:
    """Keep every write below `folder` (a workspace's output/) off symbolic links, from now on."""
    _GUARDED.add(folder)


def link_in(path: Path) -> Path | None:
    """The first symbolic link among the folders on the way from a guarded output/ folder down to
    `path` (`path` itself included when it is a folder), or None: none, or `path` is not below a
    guarded folder. A link in a file's own place is write_atomic's to refuse (a cache's to
    ignore)."""
    for root in _GUARDED:
        if path == root or path.is_relative_to(root):
            current = root
            parts = path.relative_to(root).parts
            if parts and not path.is_dir():
                parts = parts[:-1]
            for part in (None, *parts):
                current = current / part if part else current
                if current.is_symlink():
                    return current
    return None


def refuse_links(path: Path) -> None:
    """One line, exit 2, when a folder of the output tree (or the file) is a symbolic link."""
    link = link_in(path)
    if link is not None:
        try:
            target = f" (to {os.readlink(link)})"
        except OSError:
            target = ""
        raise LinkRefused(
            f"{link}: it is a symbolic link{target}, and cardgen writes and removes files in its "
            "output folders only where they are, never through a link (remove the link, or give "
            "the folder itself; the outputs are made again)"
        )


def write_atomic(path: Path, data: bytes | str | Iterable[bytes]) -> Path:
    """Write a regular file atomically (parts, a tuple or made as they are written, go part after
    part, never joined in memory first). Anything else already at the path (a folder, a
    device such as /dev/full, a FIFO) is refused rather than replaced; an OS error is one line
    naming the path. Below a workspace's output/ no folder on the way may be a link
    (LinkRefused)."""
    parts: Iterable[bytes | bytearray | memoryview] = (
        (data.encode("utf-8") if isinstance(data, str) else data,)
        if isinstance(data, (bytes, bytearray, memoryview, str))
        else data
    )
    refuse_links(path)
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise CardgenError(
            f"refusing to write {path}: it is not a regular file (a folder, device, pipe or link)"
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except OSError as exc:
        raise CardgenError(f"cannot write {path}: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            for part in parts:
                fh.write(part)
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


def clear_place(path: Path) -> None:
    """Remove a link, FIFO or device standing where a cache file goes (in cardgen's own cache
    folder: the link itself goes, never what it points to); a folder there is left alone."""
    try:
        if path.is_symlink() or (path.exists() and not path.is_file() and not path.is_dir()):
            path.unlink()
    except OSError:
        pass


def write_cache(path: Path, data: bytes | Iterable[bytes], stale: str | None = None) -> bool:
    """Keep a cache file for the next run, atomically; with `stale` (a glob of the same cache under
    other keys), drop the older ones beside it. A cache is never worth failing for: a workspace that
    cannot be written is only read (False)."""
    refuse_links(path)  # first: nothing is removed through a linked folder
    clear_place(path)
    try:
        write_atomic(path, data)
    except LinkRefused:
        raise  # a link in the output tree is the user's to hear about, not a cache miss
    except CardgenError:
        return False
    for old in path.parent.glob(stale) if stale else ():
        if old != path and not old.is_symlink():
            try:
                old.unlink(missing_ok=True)
            except OSError:  # not ours to remove (a folder of that name): left as it is
                pass
    return True


def write_record(path: Path, data: dict[str, Any]) -> bool:
    """A small record (a sheet command's) as JSON, keys sorted (the same data, the same bytes);
    False when it cannot be written."""
    try:
        write_atomic(path, json.dumps(data, indent=1, sort_keys=True) + "\n")
    except (CardgenError, OSError):
        return False
    return True

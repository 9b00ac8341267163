"""Turn a file name a workspace gives (a template, a chapter, an image) into a file inside it, or
say why not.

The one path policy: everything cardgen reads for a game resolves inside the workspace, symlinks
included, so a shared game repository cannot make a build read (or embed in a PDF) a file elsewhere
on the machine.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Iterable


def workspace_file(root: Path, base: Path, name: object) -> tuple[Path | None, str | None]:
    """(the file, None), or (None, why not): `name` is relative to `base` and must land inside
    `root`."""
    if not isinstance(name, str) or not name.strip():
        return None, "names no file"
    try:
        path = (base / name).resolve()
        if not path.is_relative_to(root.resolve()):
            return None, "is outside the workspace"
        if not path.is_file():
            return None, "does not exist"
    except (OSError, ValueError):  # a name too long for the file system, or with a NUL byte
        return None, "is not a usable file name"
    return path, None


def file_stamp(path: Path) -> tuple[str, int, int]:
    """A file as caches remember it: (path, size, modification time in ns); (path, -1, -1) when
    there is none."""
    try:
        st = path.stat()
    except OSError:
        return (str(path), -1, -1)
    return (str(path), st.st_size, st.st_mtime_ns)


def content_digest(files: Iterable[Path], salt: str = "") -> str:
    """A digest of files by content (and a salt: cardgen's version, a format number): what a cache
    of something those files compute is keyed by, so a changed parser, renderer or plot never reads
    old results."""
    h = hashlib.sha1(salt.encode())
    for path in files:
        h.update(path.read_bytes())
    return h.hexdigest()

"""Turn a cardgen module into a digest of the code it reaches (its import graph): what cache keys
carry.

A cache of something a stage computes is valid only for the code that computed it. Listing that code
by hand goes stale the day a stage imports one more module; so the list is the import graph itself,
read from the package's source (every `import`, at the top of a module or inside a function): the
module, everything it imports, everything those import, and so on. A change to any of them (and a
new cardgen version) gives another digest, so a warm cache never serves layouts, parses or findings
made by other code.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
ROOT = PACKAGE.name  # "cardgen"

_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^#\n]+)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^#\n]+)", re.M)


@lru_cache(maxsize=1)
def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = (ROOT, *path.relative_to(PACKAGE).with_suffix("").parts)
        name = ".".join(parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imports_of(name: str, source: str, known: dict[str, Path]) -> set[str]:
    """The package's modules that `source` (module `name`) imports anywhere in its text."""
    is_pkg = known.get(name, Path()).name == "__init__.py"
    package = name if is_pkg else name.rpartition(".")[0]
    wanted: list[str] = []
    for dots, module, names in _FROM.findall(source):
        if dots:
            base = package.split(".")
            base = base[: len(base) - len(dots) + 1]
            target = ".".join(base + ([module] if module else []))
        else:
            target = module
        wanted.append(target)
        wanted += [
            f"{target}.{n.split()[0]}"
            for n in names.strip("() \n").replace("\n", " ").split(",")
            if n.strip() and n.split()[0].isidentifier()
        ]
    for names in _IMPORT.findall(source):
        wanted += [n.split()[0] for n in names.split(",") if n.strip()]
    out: set[str] = set()
    for target in wanted:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            out.add(target)
    return out


@lru_cache(maxsize=None)
def reach(name: str) -> tuple[str, ...]:
    """`name` and every package module it imports, directly or not, sorted."""
    known = modules()
    seen, todo = {name}, [name]
    while todo:
        current = todo.pop()
        path = known.get(current)
        if path is None:
            continue
        parents = current.split(".")
        for i in range(1, len(parents)):  # importing a.b.c runs a/__init__ and a/b/__init__ too,
            package = ".".join(parents[:i])  # and what they import: walked as any module is (a
            if package not in seen:  # package only marked seen kept its imports out, depending
                seen.add(package)  # on the order the sets were walked in: another digest in
                todo.append(package)  # each process)
        for nxt in imports_of(current, path.read_text(encoding="utf-8"), known):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return tuple(sorted(m for m in seen if m in known))


@lru_cache(maxsize=None)
def code_digest(*names: str, salt: str = "") -> str:
    """A short digest of the code the modules `names` reach, cardgen's version and `salt` (a format
    number)."""
    from .. import __version__

    known = modules()
    h = hashlib.sha256(f"{__version__}|{salt}".encode())
    for module in sorted({m for name in names for m in reach(name)}):
        h.update(module.encode() + b"\0" + known[module].read_bytes() + b"\0")
    return h.hexdigest()[:16]

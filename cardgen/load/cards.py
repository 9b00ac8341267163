"""Turn cards/<game>/**/*.yaml into a Catalog of located cards (read_cards), with findings for
unreadable input."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from ..core.errors import Finding, Severity
from ..core.paths import file_stamp
from ..speed.gcpause import no_cyclic_gc
from ..speed.parallel import Pool, PoolLost
from .card import Card, Catalog, slug
from .cardfile import card_file_bytes, join_pieces, load_card_file
from .yamlio import MAX_FILE_BYTES, LocDict, LocList, YamlDoc, parse_yaml
from .yamltext import sequence_pieces


def card_files(cards_dir: Path) -> list[Path]:
    """The card files below `cards_dir`, in path order. A folder that cannot be read raises
    (PermissionError:
    one line, exit 2) instead of being read as empty; a linked folder seen twice (a loop) is walked
    once."""
    if not cards_dir.is_dir():
        return []

    def fail(error: OSError) -> None:
        raise error

    files, seen = [], set()
    for folder, dirs, names in os.walk(cards_dir, onerror=fail, followlinks=True):
        real = os.path.realpath(folder)
        if real in seen:
            dirs[:] = []
            continue
        seen.add(real)
        files += [
            Path(folder, n)
            for n in names
            if n.endswith((".yaml", ".yml")) and Path(folder, n).is_file()
        ]
    return sorted(files, key=lambda p: p.relative_to(cards_dir).as_posix())


def read_cards(
    game: str,
    cards_dir: Path,
    root: Path,
    progress: Callable[[str, int, int], None] | None = None,
    cache: Path | None = None,
    max_bytes: int = card_file_bytes(None),
) -> tuple[Catalog, list[Finding]]:
    """Every card of every file, in file order. Bad files and entries become findings; nothing
    raises. With a `cache` folder, files parsed by an earlier run and unchanged since (size and
    time) are not parsed again. A file larger than `max_bytes` is refused with a finding, and the
    other files are read as ever."""
    catalog = Catalog(game)
    findings: list[Finding] = []
    files = []
    inside = root.resolve()
    for path in card_files(cards_dir):
        if path.resolve().is_relative_to(inside):
            files.append(path)
        else:
            # a symlink out of the workspace: a shared game repository must not read
            # the machine's files
            findings.append(
                Finding(
                    path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name,
                    0,
                    0,
                    Severity.ERROR,
                    "outside-workspace",
                    None,
                    "this card file links outside the workspace and is not read",
                )
            )
    docs = (
        _cached_load(files, root, cache, max_bytes)
        if cache is not None
        else _load_all(files, root, max_bytes)
    )
    for done, (path, doc) in enumerate(zip(files, docs), 1):
        if progress is not None:
            progress("cards", done, len(files))
        shown = doc.shown
        catalog.files.append(shown)
        findings.extend(doc.findings)
        data = doc.data
        if data is None:
            continue
        if not isinstance(data, LocList):
            line, col = getattr(data, "loc", (1, 1))
            findings.append(
                Finding(
                    shown,
                    line,
                    col,
                    Severity.ERROR,
                    "not-a-list",
                    None,
                    "a card file must be a list of cards ('- name: ...')",
                    "start each card with '- '",
                )
            )
            continue
        for index, item in enumerate(data):
            line, col = data.item_loc(index)
            if not isinstance(item, LocDict):
                findings.append(
                    Finding(
                        shown,
                        line,
                        col,
                        Severity.ERROR,
                        "card-not-a-mapping",
                        None,
                        f"card #{index + 1} is {_what(item)}, not a mapping of fields",
                    )
                )
                continue
            card_id = _card_id(item, path.stem, index)
            catalog.cards.append(
                Card(card_id, item, shown, line, col, item.key_locs, len(catalog.cards))
            )
    return catalog, findings


PARALLEL_BYTES = (
    1 << 20
)  # below a megabyte of cards, starting a second process costs more than it saves


def _load_one(args: tuple[Path, str, int]) -> YamlDoc:
    return load_card_file(*args)


def _parse_task(task: tuple) -> YamlDoc:
    """A worker's task: a whole file (path, shown, max_bytes), or a piece of one (shown, first
    line, text)."""
    return load_card_file(*task) if len(task) == 3 else parse_yaml(task[2], task[0], task[1])


def _load_all(
    files: list[Path], root: Path, max_bytes: int = card_file_bytes(None)
) -> list[YamlDoc]:
    """Parse the card files, on two processes for a large set; a file of one to 8 MB (a set kept in
    one file) is cut into two runs of whole cards parsed apart (yamlio.sequence_pieces), the same
    parse as in one piece. Only where helper processes are to be had (speed.parallel.Pool). A
    file past 8 MB is read in this process (cardfile: in runs, within its bounds), never sent
    back from a helper whole."""
    jobs = [(p, _shown(p, root), max_bytes) for p in files]
    try:
        sizes = [p.stat().st_size for p in files]
    except OSError:
        sizes = [0] * len(files)
    pool: Pool[YamlDoc] | None = Pool.start(2) if sum(sizes) > PARALLEL_BYTES else None
    if pool is None:
        return [_load_one(job) for job in jobs]
    tasks: list[tuple] = []
    owner: list[int] = []  # the file each task belongs to
    texts: dict[int, str] = {}
    for i, ((path, shown, _), size) in enumerate(zip(jobs, sizes)):
        if size > MAX_FILE_BYTES:
            continue  # read here, after the helpers' answers
        pieces = None
        if PARALLEL_BYTES // 2 < size <= MAX_FILE_BYTES:
            try:
                texts[i] = path.read_bytes().decode("utf-8-sig")
                pieces = sequence_pieces(texts[i], 2)
            except (OSError, UnicodeDecodeError):
                pass  # parsed whole, which reports it
        for line, text in pieces or []:
            tasks.append((shown, line, text))
            owner.append(i)
        if not pieces:
            tasks.append((path, shown, max_bytes))
            owner.append(i)
    if not tasks:  # only files past 8 MB
        pool.close()
        return [_load_one(job) for job in jobs]
    try:
        with pool:
            pool.ask(_parse_task, tasks, chunksize=max(1, len(tasks) // 4))
            parsed = pool.answers()
    except PoolLost:  # read them in this one
        return [_load_one(job) for job in jobs]
    by_file: dict[int, list[YamlDoc]] = {}
    for doc, i in zip(parsed, owner):
        by_file.setdefault(i, []).append(doc)
    docs: list[YamlDoc] = []
    for i, job in enumerate(jobs):
        mine = by_file.get(i, [])
        if len(mine) == 1:
            docs.append(mine[0])
        elif not mine:  # a file past 8 MB
            docs.append(_load_one(job))
        else:  # the pieces of one file, joined; a piece with a problem: the file parsed whole
            docs.append(join_pieces(job[0], job[1], texts[i], mine) or _load_one(job))
    return docs


def _cached_load(files: list[Path], root: Path, cache: Path, max_bytes: int) -> list[YamlDoc]:
    """_load_all through the signed cache output/GAME/.cache/cards-*: each file's parse kept (as
    plain data) by path, size and time, under a key of the code that parses (speed.codekey). The
    cache is written only where its folder's output/ already exists (validating never creates
    it)."""
    from ..speed.cache import Store
    from ..speed.codekey import code_digest
    from .plaindata import doc_from_plain, doc_to_plain

    digest = code_digest(__name__, "cardgen.load.plaindata")
    store, name = Store(cache), f"cards-{digest}-{max_bytes}"  # a refusal holds for its bound
    with no_cyclic_gc():
        kept: dict[str, tuple] = {}
        got = store.get(name)
        if isinstance(got, dict):
            try:
                kept = {
                    path: (size, mtime, doc_from_plain(doc))
                    for path, (size, mtime, doc) in got.items()
                }
            except (
                TypeError,
                ValueError,
                IndexError,
                KeyError,
            ):  # signed by us, yet not this shape: parse afresh
                kept = {}
    stamps = {str(p): file_stamp(p)[1:] for p in files}  # (size, modification time)
    fresh = [p for p in files if str(p) not in kept or kept[str(p)][:2] != stamps[str(p)]]
    parsed = dict(zip(map(str, fresh), _load_all(fresh, root, max_bytes))) if fresh else {}
    docs = [parsed[str(p)] if str(p) in parsed else kept[str(p)][2] for p in files]
    if store.on and (fresh or set(kept) != set(stamps)) and cache.parent.parent.is_dir():
        try:
            with no_cyclic_gc():
                data = {str(p): (*stamps[str(p)], doc_to_plain(doc)) for p, doc in zip(files, docs)}
        except (
            ValueError,
            RecursionError,
        ):  # a value the cache cannot keep, or nested too deep: parsed again
            return docs
        store.put(name, data, "cards-*")
    return docs


def _card_id(item: LocDict, stem: str, index: int) -> str:
    explicit = item.get("id")
    if isinstance(explicit, str) and explicit.strip():
        return explicit.strip()
    name = item.get("name")
    made = slug(name) if isinstance(name, str) else ""
    return made or f"{stem}-{index + 1}"  # untitled drafts still get a stable, findable id


def _what(value: object) -> str:
    if value is None:
        return "empty"
    if isinstance(value, list):
        return "a list"
    return f"the value {value!r}"


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()

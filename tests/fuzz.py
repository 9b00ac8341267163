"""Seeded mutation of every input kind (models, cards, templates, deck lists, chapters, CLI
options), shared by the fuzz tests and bench/fuzz.py. A mutant may be refused (a finding, a
CardgenError); it may never crash, hang or write outside the workspace's output folder."""

from __future__ import annotations

import copy
import random
import signal
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

HANG_SECONDS = 10

NASTY: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    7,
    2**70,
    -(10**30),
    1e308,
    float("nan"),
    float("inf"),
    "",
    " ",
    "x" * 5_000,
    "9" * 5_000,
    "{{ card.name }",
    "{{ 'x' * 10**9 }}",
    "{{ range(10**9)|list }}",
    "{{ 9**9**9 }}",
    "{{ cycler.__init__.__globals__.os }}",
    "../../../../etc/passwd",
    "/etc/passwd",
    "file:///etc/passwd",
    "#zzzzzz",
    "#d8b24",
    "blu",
    "0mm x 0mm",
    "0.1mm x 0.1mm",
    "99999mm x 1mm",
    "-5mm",
    "5",
    "5mm",
    "nan",
    "\x00",
    "日本語",
    "(a|aa)+$",
    "^(?P<index>(a|aa)+)$",
    "[",
    "]",
    "{",
    "&a",
    "*a",
    [],
    [1, 2],
    [None],
    {},
    {"a": 1},
    {"where": {"nope": 1}},
    ["left", "up"],
    "left",
    "deck",
    "exhaust",
    "slots",
    "a" * 300,
]


class Hang(Exception):
    pass


@contextmanager
def deadline(seconds: int = HANG_SECONDS) -> Iterator[None]:
    """Raise Hang when the block spends more than `seconds` of cpu (a loop), or six times that
    on the clock (a wait that never ends): a loaded machine slows the clock, not the cpu spent
    (main thread, Unix)."""

    def fire(signum: int, frame: Any) -> None:
        raise Hang(
            f"took over {seconds} s of cpu" if signum == signal.SIGPROF else
            f"took over {6 * seconds} s"
        )  # fmt: skip

    previous = signal.signal(signal.SIGALRM, fire), signal.signal(signal.SIGPROF, fire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.alarm(6 * seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGALRM, previous[0])
        signal.signal(signal.SIGPROF, previous[1])


def _paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, prefix + (i,))
    return out


def _get(data: Any, path: tuple) -> Any:
    for p in path:
        data = data[p]
    return data


def mutate_data(data: Any, rng: random.Random, count: int = 1) -> Any:
    """A copy of parsed YAML with `count` random structural or value mutations."""
    data = copy.deepcopy(data)
    for _ in range(count):
        paths = _paths(data)
        path = rng.choice(paths)
        if not path:
            if rng.random() < 0.1:
                return rng.choice(NASTY)
            continue
        parent, key = _get(data, path[:-1]), path[-1]
        op = rng.random()
        if op < 0.55:
            parent[key] = rng.choice(NASTY)
        elif op < 0.7:
            del parent[key]
        elif op < 0.8 and isinstance(parent, dict):
            typo = str(key)[:-1] + "x" if str(key) else "x"
            parent[typo] = parent.pop(key)
        elif op < 0.9:
            parent[key] = [parent[key]]
        else:
            value = parent[key]
            parent[key] = list(value) if isinstance(value, dict) else {"k": value}
    return data


def dump(data: Any) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=10_000)


class FileSet:
    """YAML files of one folder (a game's templates): restore them all, then mutate one."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.bases = {p.name: yaml.safe_load(p.read_text()) for p in sorted(folder.glob("*.yaml"))}

    def mutate_one(self, rng: random.Random, most: int = 3) -> str:
        for name, data in self.bases.items():
            (self.folder / name).write_text(dump(data))
        name = rng.choice(sorted(self.bases))
        text = dump(mutate_data(self.bases[name], rng, rng.randint(1, most)))
        (self.folder / name).write_text(text)
        return f"{name}:\n{text}"


JUNK_LINES = [
    "",
    "# comment",
    "3x",
    "x3 Ember Guard",
    "0 Ember Guard",
    "-4 Firestorm",
    "99999999999999 Tide Caller",
    "9" * 5000 + " Ember Guard",
    "Sideboard:",
    "[Main]",
    "Monster: Nobody",
    "Card List:",
    "- 2x Firestorm",
    "Ultimate - Nothing. Traits - A, B.",
    "Warrior Cards: 3 Ember Guard, x Firestorm",
    "\x00\x01",
    "{{ card('Firestorm') }}",
    "{{ card('Nope') }}",
    "{{ anatomy('Firestorm', {'name': 'Name'}) }}",
    "{{ glossary() }}",
    "{{ nope() }}",
    "{{ card(",
    "![x](../../../../etc/passwd)",
    "![x](/etc/hostname)",
    '<img src="file:///etc/passwd">',
    "---",
    "chapters: 5",
    "chapters: [../../x.md]",
    "title: [a",
    "a: &a [1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]",
    "**bold** [R] {2} {X} {ZZZ} (reminder",
    "日本語 ✓ ☃",
]


def mutate_text(text: str, rng: random.Random, count: int = 2) -> str:
    lines = text.split("\n")
    for _ in range(count):
        op = rng.random()
        at = rng.randrange(len(lines) + 1)
        if op < 0.5:
            lines.insert(at, rng.choice(JUNK_LINES))
        elif op < 0.7 and lines:
            del lines[min(at, len(lines) - 1)]
        elif lines:
            i = min(at, len(lines) - 1)
            cut = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:cut] + rng.choice(JUNK_LINES) + lines[i][cut:]
    return "\n".join(lines)


def files_outside(root: Path, before: set[Path]) -> list[Path]:
    """Files that appeared beside the workspace (in its parent), outside its output folder."""
    return sorted(
        p for p in root.parent.rglob("*") if p not in before and not p.is_relative_to(root)
    )


def run_guarded(fn: Callable[[], Any]) -> str | None:
    """None when fn returned or raised a CardgenError; else what went wrong (an exception or a
    hang)."""
    from cardgen.core.errors import CardgenError

    try:
        with deadline():
            fn()
    except CardgenError:
        return None
    except Hang as exc:
        return f"hang: {exc}"
    except Exception as exc:  # noqa: BLE001 - any other exception is the bug this looks for
        import traceback

        return (
            "".join(traceback.format_exception_only(type(exc), exc)).strip()
            + "\n"
            + "".join(traceback.format_tb(exc.__traceback__)[-3:])
        )
    return None

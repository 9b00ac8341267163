"""Turn a column's cells into the values it holds: each value as most cards spell it, a list's
parts, a number column's stray words and an enumeration's likely misspellings."""

from __future__ import annotations

import re
from collections import Counter

Value = str | int | float | bool | None
_INT = re.compile(r"[+-]?\d+")

LIST_SEPARATORS = (",", ";", "|")
ENUM_MAX_VALUES = 16  # more distinct values than this is text, not a choice from a list
LIST_PART_MAX_LENGTH = 30
STRAY_SHARE = 0.1  # a number column may hold this share of words (each kept as a slip to fix)
SLIP_COMMON = 3  # cards the well-spelt value is on, at least
SLIP_LENGTH = 5  # a slip's shorter value has at least this many characters
_WORD = re.compile(r"[^\W\d_]")  # a letter
_FLOAT = re.compile(r"[-+]?(\d+[.,]\d*|[.,]\d+)")


def stray_words(texts: list[str], ints: list[int | None]) -> list[str] | None:
    """A column of whole numbers, but for a few words (a tenth at most, and at least three
    numbers): those words (none: every value a number), else None. A decimal (2.5) or a sign
    ('-', '*') is no slip: such a column is not one of whole numbers."""
    strays = [t for t, i in zip(texts, ints) if i is None]
    numbers = len(texts) - len(strays)
    if not strays:
        return [] if texts else None
    words = all(_WORD.search(t) and not _FLOAT.fullmatch(t.strip()) for t in strays)
    if words and numbers >= 3 and len(strays) <= STRAY_SHARE * len(texts):
        return list(dict.fromkeys(strays))
    return None


def misspelt(texts: list[str]) -> dict[str, str]:
    """The values of one card that are one typing slip from a value of three cards or more
    ('Acton' beside ten 'Action'), each with the value it is like. Not a slip: a value inside the
    other (Common, Uncommon), or one whose difference is a digit or a word of a letter or two
    (Tier 1, Tier 2; Set A, Set B)."""
    counts = Counter(t.casefold() for t in texts)
    spelt = {t.casefold(): t for t in texts}
    common = [v for v, n in counts.items() if n >= SLIP_COMMON]
    slips = {}
    for value, n in counts.items():
        if n != 1:
            continue
        like = next((c for c in common if _one_slip(value, c)), None)
        if like is not None:
            slips[spelt[value]] = spelt[like]
    return slips


def _one_slip(a: str, b: str) -> bool:
    """Whether `a` is `b` with one letter left out, added, changed or swapped with the next, in a
    word of three letters or more, neither inside the other."""
    if min(len(a), len(b)) < SLIP_LENGTH or a in b or b in a:
        return False
    start = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a, end_b = end_a - 1, end_b - 1
    changed_a, changed_b = a[start:end_a], b[start:end_b]
    swapped = len(changed_a) == 2 and changed_a == changed_b[::-1]
    if not (swapped or (len(changed_a) <= 1 and len(changed_b) <= 1)):
        return False
    if any(not ch.isalpha() for ch in changed_a + changed_b):
        return False
    words = re.findall(r"\w+", b)  # the word of `b` the slip is in has three letters or more
    at = 0
    for word in words:
        at = b.index(word, at)
        if at <= start <= at + len(word):
            return len(word) >= 3
        at += len(word)
    return False


def spellings(texts: list[str]) -> list[str]:
    """The distinct values, case folded, each spelt as most cards spell it, commonest first."""
    spelt: dict[str, Counter[str]] = {}
    for t in texts:
        spelt.setdefault(t.casefold(), Counter())[t] += 1
    order = sorted(spelt, key=lambda k: (-sum(spelt[k].values()), list(spelt).index(k)))
    return [spelt[k].most_common(1)[0][0] for k in order]


def list_parts(texts: list[str]) -> tuple[str, list[str]] | None:
    """(separator, the values) when cells split at one separator into short parts that repeat."""
    for sep in LIST_SEPARATORS:
        split = [[p.strip() for p in t.split(sep)] for t in texts]
        joined = sum(len(p) > 1 for p in split)
        flat = [p for ps in split for p in ps]
        if joined < 2 or any(not p for p in flat):
            continue
        if any(len(p) > LIST_PART_MAX_LENGTH or len(p.split()) > 4 for p in flat):
            continue
        if any(len({p.casefold() for p in ps}) < len(ps) for ps in split):
            continue
        distinct = {p.casefold() for p in flat}
        if len(flat) >= 2 * len(distinct) and len(distinct) <= 4 * ENUM_MAX_VALUES:
            return sep, spellings(flat)
    return None


def clean(value: Value) -> Value:
    """A cell as the designer means it: trailing spaces and empty cells are nothing, line ends are
    '\\n', a whole float is an integer."""
    if isinstance(value, str):
        text = "\n".join(line.rstrip() for line in value.replace("\r\n", "\n").split("\n"))
        text = text.replace("\r", "\n").strip()
        return text or None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def as_text(value: Value) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"  # as a spreadsheet shows it
    if isinstance(value, float):
        return repr(value)
    return str(value)


def as_int(value: Value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _INT.fullmatch(value) and not re.match(r"[+-]?0\d", value):
        return int(value)  # '007' stays text: a leading zero is meant
    return None

"""Turn the book's HTML into HTML whose exception words break only where the exceptions list says:
soft hyphens at the listed points, or a span that is never hyphenated."""

from __future__ import annotations

import re
from collections.abc import Iterable

# Words the dictionary (pyphen's en_GB patterns, which WeasyPrint uses for lang="en") breaks badly,
# written TeX's way: a hyphen at each point where the word may break, none for a word that never
# breaks. A book adds its own in index.md's front matter (`hyphenation: [non-aligned, …]`).
EXCEPTIONS = (
    "non-aligned",  # the dictionary allows "nona-ligned"
    "op-po-nent",  # "oppon-ent"
    "op-po-nents",
    "per-ma-nent",  # "per-man-ent"
    "per-ma-nents",
    "key-word",
    "key-words",
    "play-test",
    "re-shuf-fle",
    "re-shuf-fled",
)
SOFT = "\u00ad"
_TAG = re.compile(r"(<[^>]*>)")
_SKIP = re.compile(r"<(pre|code|style|script|svg|title)\b", re.I)
_WORD = re.compile(r"[^\W\d_]+")  # letters only: "opponent’s" is the word "opponent", then "’s"


def exceptions(extra: Iterable[str] = ()) -> dict[str, str]:
    """Each exception word (lower case, without its points) -> its break points written with '-'."""
    table: dict[str, str] = {}
    for written in (*EXCEPTIONS, *extra):
        word = str(written).strip()
        if word and _WORD.fullmatch(word.replace("-", "")):
            table[word.replace("-", "").lower()] = word.lower()
    return table


def _marked(word: str, points: str) -> str:
    """The word as written (its case kept) with soft hyphens at the listed points, or in a span
    that is never hyphenated when the list gives it none."""
    if "-" not in points:
        return f'<span class="hy-none">{word}</span>'
    out, at = [], 0
    for part in points.split("-"):
        out.append(word[at : at + len(part)])
        at += len(part)
    # its own inline box: WeasyPrint takes a soft hyphen in a run of text as turning the dictionary
    # off for the whole run, so the word stands alone
    return f"<span>{SOFT.join(out)}</span>"


def mark(html: str, table: dict[str, str]) -> str:
    """The HTML with each exception word in its text (never in tags, code or pictures) marked."""
    if not table:
        return html
    pieces = _TAG.split(html)
    skipping: str | None = None
    for i, piece in enumerate(pieces):
        if i % 2:  # a tag
            opened = _SKIP.match(piece)
            if skipping is None and opened:
                skipping = opened.group(1).lower()
            elif skipping and piece.lower().startswith(f"</{skipping}"):
                skipping = None
            continue
        if skipping or not piece.strip():
            continue
        pieces[i] = _WORD.sub(lambda m: _one(m.group(0), table), piece)
    return "".join(pieces)


def _one(word: str, table: dict[str, str]) -> str:
    """A word of the text, marked when it is an exception."""
    points = table.get(word.lower())
    return word if points is None else _marked(word, points)

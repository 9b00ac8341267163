"""Turn YAML text into positions as YAML counts them (line and column <-> offset), names for
characters that may not show, and runs of whole top-level list items to parse apart."""

from __future__ import annotations

import bisect
import re

Loc = tuple[int, int]  # 1-based line, 1-based column

_NON_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # what YAML counts as the end of a line


def text_loc(text: str, offset: int) -> Loc:
    """The 1-based line and column of a character of the text, counting lines as YAML does."""
    line, start = 1, 0
    for m in _BREAK.finditer(text, 0, offset):
        line, start = line + 1, m.end()
    return line, offset - start + 1


def text_offset(text: str, loc: Loc) -> int | None:
    """The index in the text of a 1-based line and column (as YAML counts them), or None past its
    end."""
    line, start = 1, 0
    if loc[0] > 1:
        for m in _BREAK.finditer(text):
            line, start = line + 1, m.end()
            if line == loc[0]:
                break
        else:
            return None
    at = start + loc[1] - 1
    return at if 0 <= at <= len(text) and line == loc[0] else None


def char_name(ch: str) -> str:
    """'U+200B ZERO WIDTH SPACE': a character that may not show, named so that it can be found."""
    import unicodedata

    kind = unicodedata.category(ch)
    name = unicodedata.name(ch, "") or (
        "(a control character)" if kind == "Cc" else f"(category {kind})"
    )
    return f"U+{ord(ch):04X} {name}"


_ITEM = re.compile(r"^-(?: |$)", re.M)  # a top-level sequence item's first line


def sequence_pieces(text: str, pieces: int) -> list[tuple[int, str]] | None:
    """A file holding one top-level block sequence (a list of cards), cut before items' first lines
    into `pieces` runs of whole items to parse apart: (first line number, text) each. None where
    cutting could change what the file means: anchors (an alias may name one in another piece),
    document markers or directives, or a file that does not start as a block sequence. A piece that
    fails to parse (or is not a list) means parsing the whole file instead (`join_pieces`), so a
    mistake is reported as usual."""
    if pieces < 2 or _ANCHOR.search(text) or _MARKERS.search(text) or _OTHER_BREAKS.search(text):
        return None
    first = next(
        (ln for ln in text.split("\n") if ln.strip() and not ln.lstrip().startswith("#")), ""
    )
    starts = [m.start() for m in _ITEM.finditer(text)]
    if not _ITEM.match(first) or not starts:
        return None
    cuts = sorted({_nearest(starts, len(text) * k // pieces) for k in range(1, pieces)})
    bounds = [0, *[c for c in cuts if c > 0], len(text)]
    if len(bounds) < 3:
        return None
    return [(text.count("\n", 0, a) + 1, text[a:b]) for a, b in zip(bounds, bounds[1:])]


def _nearest(starts: list[int], at: int) -> int:
    """The item start nearest to `at` (the earlier of two as near)."""
    i = bisect.bisect_left(starts, at)
    near = starts[max(i - 1, 0) : i + 1]
    return min(near, key=lambda s: abs(s - at))


# where an anchor may stand ('&name' opening a value); '&' in text ('Fire & Ice', 'R&D') is not one
_ANCHOR = re.compile(r"(?:^|[\s\[{,:])&\S", re.M)
_MARKERS = re.compile(r"^(?:---|\.\.\.|%)", re.M)
_OTHER_BREAKS = re.compile(
    "\r(?!\n)|[\x85\u2028\u2029]"
)  # line breaks to YAML that "\n" does not count

"""Turn card names and ids into findings about characters that do not print (zero-width, bidi
controls, soft hyphens, control characters), and into the key under which two names print the same
(print_key)."""

from __future__ import annotations

import unicodedata
from typing import Any, Iterator

from ..core.errors import Finding, Severity
from ..load.card import Card
from ..load.yamltext import char_name, text_loc, text_offset
from ..speed.memo import memo
from . import Context, card_check

CHECKED = ("name", "id")  # the values a designer, a deck list and a file name tell cards apart by
_JOINERS = {
    "\u200c",
    "\u200d",
}  # ZWNJ and ZWJ: spelling in Persian or Devanagari, glue in emoji sequences
_ESCAPES = {
    "\0": "0",
    "\a": "a",
    "\b": "b",
    "\v": "v",
    "\f": "f",
    "\r": "r",
    "\x1b": "e",
    "\x85": "N",
}


@memo(1)
def _patterns() -> tuple[Any, Any]:
    """(characters that do not print, scripts that never need a joiner), compiled once, on first
    need."""
    import regex  # only a name with a character outside printable ASCII loads the pattern engine

    hidden = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cc}--[\t\n]]", regex.V1)
    western = regex.compile(r"[\p{Latin}\p{Greek}\p{Cyrillic}\p{Common}\p{Inherited}]")
    return hidden, western


def _modifier(ch: str) -> bool:
    """A variation selector or an emoji tag: it changes how the character before it is drawn."""
    code = ord(ch)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or 0xE0020 <= code <= 0xE007F


def _base(text: str, at: int, hidden: Any) -> str:
    """The character a joiner or selector at `at` attaches to: the one before it, past marks and
    other ignorable characters; '' at the start."""
    i = at - 1
    while i >= 0 and (unicodedata.category(text[i])[0] == "M" or hidden.match(text[i])):
        i -= 1
    return text[i] if i >= 0 else ""


def _meant(text: str, at: int, hidden: Any, western: Any) -> bool:
    """An ignorable character that is part of the writing: a joiner inside a word of a script that
    uses one (or inside an emoji sequence), a variation selector or tag after the character it
    modifies."""
    ch = text[at]
    if ch not in _JOINERS and not _modifier(ch):
        return False
    base = _base(text, at, hidden)
    if not base or base.isspace():
        return False
    kind = unicodedata.category(base)
    if (
        kind[0] == "S"
    ):  # emoji and other symbols: joiners, selectors and tags build sequences of them
        return True
    if ch in _JOINERS and (at + 1 >= len(text) or text[at + 1].isspace()):
        return False
    if _modifier(ch) and kind[0] == "N":  # a keycap such as 1️⃣
        return True
    return kind[0] in "LM" and not western.match(base)


def hidden_at(text: str) -> list[int]:
    """Where the text holds characters that do not print and are not part of its writing."""
    if text.isascii() and text.isprintable():
        return []
    hidden, western = _patterns()
    return [
        m.start() for m in hidden.finditer(text) if not _meant(text, m.start(), hidden, western)
    ]


def shown(text: str, limit: int = 80) -> str:
    """The text with each character that does not print written as ⟨U+200B⟩, so that a message shows
    it (and a bidi control cannot reorder the line it is printed in); cut to about `limit`
    characters."""
    spots = set(hidden_at(text))
    out = (
        "".join(f"⟨U+{ord(ch):04X}⟩" if i in spots else ch for i, ch in enumerate(text))
        if spots
        else text
    )
    return out if len(out) <= limit else out[: limit - 10] + "…"


def print_key(text: str) -> str:
    """What the text looks like in print: without characters that do not print, in one Unicode form
    (NFC), with each run of spaces as one space."""
    spots = set(hidden_at(text))
    kept = "".join(ch for i, ch in enumerate(text) if i not in spots) if spots else text
    return " ".join(unicodedata.normalize("NFC", kept).split())


def difference(this: str, other: str) -> str:
    """How two texts with one print_key differ, in words (what the reader cannot see)."""
    for text, which in ((this, "this one"), (other, "the other")):
        names = list(dict.fromkeys(char_name(text[i]) for i in hidden_at(text)))
        if names:
            verb = "does" if len(names) == 1 else "do"
            return f"{which} holds {', '.join(names[:3])}, which {verb} not print"
    for text, which, rest in ((this, "this one", "the other"), (other, "the other", "this one")):
        if unicodedata.normalize("NFC", text) != text:
            marks = [char_name(ch) for ch in text if unicodedata.combining(ch)]
            if marks:
                return (
                    f"{which} writes an accent as a character of its own ({marks[0]}), "
                    f"{rest} does not"
                )
            return (
                f"{which} uses other code points for the same letters "
                "(it is not in Unicode's NFC form)"
            )
    return "they differ only in spacing"


@card_check("invisible-characters")
def check_hidden(card: Card, ctx: Context) -> Iterator[Finding]:
    for key in CHECKED:
        value = card.data.get(key)
        if not isinstance(value, str):
            continue
        spots = hidden_at(value)
        if not spots:
            continue
        names = list(dict.fromkeys(char_name(value[i]) for i in spots))
        listed = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        one = len(spots) == 1
        line, column = _locate(card, ctx, key, value[spots[0]])
        other = "name to deck lists and look-ups" if key == "name" else "id, and another file name"
        yield Finding(
            card.file,
            line,
            column,
            Severity.WARNING,
            "invisible-character",
            card.id,
            f"{key} '{shown(value)}' holds "
            + ("a character that does" if one else f"{len(spots)} characters that do")
            + f" not print: {listed}",
            f"delete {'it' if one else 'them'}: the {key} looks the same without, yet it is "
            f"another {other}",
        )


def _locate(card: Card, ctx: Context, key: str, ch: str) -> tuple[int, int]:
    """The line and column of the character in the card's file (written as itself or as an escape in
    double quotes), searched from the field's key to the next key; the key's place when it cannot be
    found."""
    at = card.loc(key)
    text = ctx.source(card.file)
    start = text_offset(text, at) if text is not None else None
    if text is None or start is None:
        return at
    later = [text_offset(text, loc) for k, loc in card.field_locs.items() if loc > at]
    ends = [o for o in later if o is not None and o > start]
    end = min(ends) if ends else _block_end(text, start, at[1])
    forms = (
        [ch, f"\\u{ord(ch):04x}", f"\\U{ord(ch):08x}"]
        + ([f"\\x{ord(ch):02x}"] if ord(ch) < 0x100 else [])
        + ([f"\\{_ESCAPES[ch]}"] if ch in _ESCAPES else [])
    )
    region = text[start:end]
    folded = region.lower()
    hits = [region.find(forms[0])] + [folded.find(form.lower()) for form in forms[1:]]
    found = [h for h in hits if h >= 0]
    return text_loc(text, start + min(found)) if found else at


def _block_end(text: str, start: int, column: int) -> int:
    """Where the value of a key at `column` ends: at the next line that is not indented past the
    key."""
    nl = text.find("\n", start)
    while nl >= 0:
        line_end = text.find("\n", nl + 1)
        line = text[nl + 1 : line_end if line_end >= 0 else len(text)]
        stripped = line.lstrip(" ")
        if stripped and not stripped.startswith("#") and len(line) - len(stripped) < column:
            return nl + 1
        nl = line_end
    return len(text)

"""Turn index.md's `words:` into the book's own words (its page headings and the components list's
phrases) in the book's language: English where a word is not given, a finding where one is
unknown or drops a placeholder its English has."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..core.errors import Finding, Severity, did_you_mean

# every word the book prints of its own, in English; {n}, {kind}, {designs}, {label} stand for
# what the components list puts there (a count, a kind's name, design names, a field's label)
ENGLISH: dict[str, str] = {
    "rules": "Rules",  # under the title
    "contents": "Contents",
    "gallery": "Card gallery",
    # the components list: '12 Ruin cards and 2 per player, double-sided: 6 Ember, 6 Tide'
    "card": "card",  # of a game without kinds
    "cards": "cards",
    "kind_card": "{kind} card",
    "kind_cards": "{kind} cards",
    "other_card": "other card",  # a card with no kind, beside cards with one
    "other_cards": "other cards",
    "and": "and",  # '12 cards and 2 per player'
    "per_player": "per player",
    "double_sided": "double-sided",
    "some_double_sided": "{n} of them double-sided",
    "each_of": "{n} each of {designs}",
    "designs": "{n} designs",
    "with_no": "with no {label}",  # cards without a faction: 'with no faction'
    "card_size": "Card size",
    "unless_another": "unless a line names another",
    "landscape": "landscape",
    "designer_note": "Designer’s note",  # before the title of a `!!! designer` box
    "one_per_design": "one per {kind} design",  # a randomizer face: '(one per Action design)'
    "second_side": "{name}, second side",  # the caption of a card's second side: card(…, "both")
}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class BookWords:
    """The book's own words: `said` gives a word's text with its placeholders filled."""

    given: dict[str, str] = field(default_factory=dict)

    def __getitem__(self, key: str) -> str:
        return self.given.get(key) or ENGLISH[key]

    def get(self, key: str, default: str = "") -> str:
        """A page template's word (`words.contents`): its text, or `default` for an unknown key."""
        return self.given.get(key) or ENGLISH.get(key, default)

    def css(self) -> str:
        """Style rules for the words the style sheet prints itself (a designer's note's label),
        when the book gives them; '' otherwise (the style sheet's own stand)."""
        if "designer_note" not in self.given:
            return ""
        label = _css_string(self.given["designer_note"] + " · ")
        return f".admonition.designer .admonition-title::before {{ content: {label}; }}\n"

    def said(self, key: str, **values: object) -> str:
        """The word with its placeholders filled: said('designs', n=3) -> '3 designs'."""
        return _PLACEHOLDER.sub(lambda m: str(values.get(m.group(1), m.group(0))), self[key])


ENGLISH_WORDS = BookWords()


def _css_string(text: str) -> str:
    """`text` as a CSS string: every character but letters and digits escaped (`\\b7 `: the space
    after an escape ends it and is not printed), so no quote, backslash or '</style>' in it ends
    the string or the style element."""
    return '"' + "".join(c if c.isalnum() else f"\\{ord(c):x} " for c in text) + '"'


def read_words(raw: object, shown: str, head: list[str], findings: list[Finding]) -> BookWords:
    """index.md's `words:` mapping (`raw`) as the book's words. An unknown key, or a word that
    leaves out a placeholder its English has, is a warning at its line of the front matter
    (`head`), and that word is printed in English."""
    given: dict[str, str] = {}
    if not isinstance(raw, dict):
        return ENGLISH_WORDS

    def warn(key: str, message: str, hint: str | None) -> None:
        findings.append(
            Finding(
                shown,
                _line_of(key, head),
                1,
                Severity.WARNING,
                "rulebook-front-matter",
                None,
                message,
                hint,
            )
        )

    for key, value in raw.items():
        name = str(key)
        if name not in ENGLISH:
            warn(
                name,
                f"'words' has no word '{name}'; the book's own words are " + ", ".join(ENGLISH),
                did_you_mean(name, list(ENGLISH)),
            )
            continue
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            warn(name, f"words: {name} must be text; '{ENGLISH[name]}' is printed", None)
            continue
        text = str(value)
        needed = set(_PLACEHOLDER.findall(ENGLISH[name]))
        if needed != set(_PLACEHOLDER.findall(text)):
            warn(
                name,
                f"words: {name}: '{text}' must hold "
                + (" and ".join("{" + p + "}" for p in sorted(needed)) or "no placeholder")
                + f", as its English '{ENGLISH[name]}' does; the English is printed",
                f"write it with the same placeholders, e.g. {name}: {ENGLISH[name]}",
            )
            continue
        given[name] = text
    return BookWords(given)


def _line_of(key: str, head: list[str]) -> int:
    """The front matter's line of `key:` (below `words:`), 1 when it is not found."""
    start = next((n for n, line in enumerate(head) if line.startswith("words:")), 0)
    for n, line in enumerate(head[start:], start + 1):
        stripped = line.strip().lstrip("{").strip()
        if stripped.startswith((f"{key}:", f'"{key}":', f"'{key}':")) or f" {key}:" in line:
            return n
    return start + 1 if start else 1

"""Turn a deck list file into a DeckList: entries (count, name, section, line) in the dialect the
model names.

- plain (the default): '3 Hammer Strike', '3x …' or '- 5x …' per line, '#' comments, section headers
  ('Sideboard:', '[Main]', 'Card List:' for the main deck), and 'Section: Card' lines for sections
  the model gives exactly one card (a tournament list's 'Champion: Name');
- character: a character list as a herocrafting rulebook writes it: '<Signature> - Name. <Extras> -
  A, B.' and '<Group> Cards: 3 Name, 2 Name, …' (the words come from the model's deck.character
  rules).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import CardgenError

COUNT = re.compile(r"^\s*(?:[-*•]\s+)?(\d+)\s*[xX×]?\s+(.+?)\s*$")
NEGATIVE = re.compile(r"^\s*(?:[-*•]\s+)?-\d+\s*[xX×]?\s+\S")
HEADER = re.compile(r"^\s*(?:\[(.+)\]|([A-Za-z][\w' /-]*?):)\s*$")
NAMED = re.compile(r"^\s*([A-Za-z][\w' -]*?):\s*(\S.*?)\s*$")  # 'Champion: Name'
GROUP = re.compile(r"^\s*([A-Z][\w' ]*?) Cards:\s*(.+)$")
RULES = re.compile(r"^\s*#\s*rules:\s*([\w-]+)", re.M)  # '# rules: draft' names the deck format
MAIN_HEADERS = {"card list": "main", "deck": "main", "main deck": "main", "main": "main"}
MAX_COUNT = 1000  # copies of one card in one list: far beyond any game, small enough to print


@dataclass
class Entry:
    count: int
    name: str
    section: str
    line: int


@dataclass
class DeckList:
    file: str
    format: str
    entries: list[Entry] = field(default_factory=list)
    problems: list[tuple[int, str, str]] = field(
        default_factory=list
    )  # (line, code, message): unreadable lines
    rules: str | None = None  # the deck format the list names ('# rules: draft')
    # each section header as written: (line, column, section, text), 'Sideboard:' -> 'sideboard'
    headers: list[tuple[int, int, str, str]] = field(default_factory=list)

    def sections(self) -> list[str]:
        return list(dict.fromkeys(e.section for e in self.entries))

    def add(self, count_text: str, name: str, section: str, line: int) -> None:
        """An entry, or a problem when its count is zero or absurd."""
        if len(count_text) > 6 or not 0 < int(count_text) <= MAX_COUNT:
            self.problems.append(
                (
                    line,
                    "deck-count",
                    f"'{count_text[:12]}{'…' if len(count_text) > 12 else ''} "
                    f"{name}': a count must be a whole number from 1 to {MAX_COUNT}",
                )
            )
            return
        self.entries.append(Entry(int(count_text), name, section, line))


@dataclass
class Dialect:
    """How the model says its lists are written: the dialect, the sections a 'Section: Card' line
    may name, and (character lists) the words of the feat line."""

    name: str = "plain"
    single_sections: tuple[str, ...] = ()
    signature: str = ""  # e.g. 'ultimate': 'Ultimate - Shield Slam.'
    extras: str = ""  # e.g. 'traits': 'Traits - Strike, Hold.'


def read_deck(path: Path, shown: str, dialect: Dialect | None = None) -> DeckList:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CardgenError(f"no deck list at {shown}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CardgenError(f"cannot read deck list {shown}: {exc}") from exc
    dialect = dialect or Dialect()
    lines = [ln.split("#", 1)[0].rstrip() for ln in text.splitlines()]
    deck = (
        _character(lines, shown, dialect)
        if dialect.name == "character"
        else _plain(lines, shown, dialect)
    )
    named = RULES.search(text)
    deck.rules = named.group(1) if named else None
    return deck


def _plain(lines: list[str], shown: str, dialect: Dialect) -> DeckList:
    deck = DeckList(shown, "plain")
    section = "main"
    singles = {s.lower(): s for s in dialect.single_sections}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        m = COUNT.match(line)
        if m:
            deck.add(m.group(1), m.group(2), section, n)
            continue
        h = HEADER.match(line)
        named = NAMED.match(line)
        if h:
            written = (h.group(1) or h.group(2)).strip()
            section = MAIN_HEADERS.get(written.lower(), written.lower())
            deck.headers.append((n, len(line) - len(line.lstrip()) + 1, section, written))
        elif named and named.group(1).strip().lower() in singles:
            deck.entries.append(
                Entry(1, named.group(2), singles[named.group(1).strip().lower()], n)
            )
        elif NEGATIVE.match(line):
            deck.problems.append(
                (
                    n,
                    "deck-count",
                    f"'{line.strip()[:60]}': a count must be a whole number from 1 to {MAX_COUNT}",
                )
            )
        else:
            deck.problems.append(
                (
                    n,
                    "deck-line",
                    f"cannot read '{line.strip()[:60]}': a line is 'COUNT NAME' "
                    "(e.g. '3 Hammer Strike' or '3x …'), a section header ('Sideboard:') "
                    "or a comment ('# …')",
                )
            )
    return deck


def _character(lines: list[str], shown: str, dialect: Dialect) -> DeckList:
    deck = DeckList(shown, "character")
    feats = (
        re.compile(
            rf"^\s*{re.escape(dialect.signature)}\s*-\s*(.+?)\.\s*{re.escape(dialect.extras)}\s*-\s*"
            r"(.+?)\.?\s*$",
            re.I,
        )
        if dialect.signature and dialect.extras
        else None
    )
    for n, line in enumerate(lines, 1):
        found = feats.match(line) if feats else None
        if found:
            deck.entries.append(Entry(1, found.group(1).strip(), dialect.signature, n))
            for extra in found.group(2).split(","):
                deck.entries.append(Entry(1, extra.strip(), dialect.extras, n))
            continue
        group = GROUP.match(line)
        if group:
            for item in group.group(2).rstrip(".").split(","):
                m = COUNT.match(item)
                if m:
                    deck.add(m.group(1), m.group(2).strip(), group.group(1).strip(), n)
                elif item.strip():
                    deck.problems.append(
                        (
                            n,
                            "deck-line",
                            f"cannot read '{item.strip()[:60]}' in '{group.group(1)} "
                            "Cards': write COUNT NAME",
                        )
                    )
            continue
        title = NAMED.match(line)
        if line.strip() and not (
            title and "deck" in title.group(1).lower()
        ):  # 'Sample Deck: Steward' is a title
            deck.problems.append(
                (
                    n,
                    "deck-line",
                    f"cannot read '{line.strip()[:60]}': a character list has "
                    f"'{dialect.signature.title()} - Name. {dialect.extras.title()} - "
                    "A, B.' and 'Group Cards: 3 Name, …' lines",
                )
            )
    return deck

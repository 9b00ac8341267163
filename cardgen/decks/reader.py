"""Turn a deck list file into a DeckList: entries (count, name, section, line) in one of three formats.

- plain: '3 Hammer Strike' or '3x Hammer Strike' per line, '#' comments, headers ('Sideboard:', '[Main]');
- Aether tournament: 'Monster: Name', 'Card List:' and 'Sideboard:' with '- 5x Name' lines;
- Ivion character: 'Ultimate - Shield Slam. Traits - Strike, Hold.' and 'Warrior Cards: 3 Tenacity, …'.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import CardgenError

COUNT = re.compile(r"^\s*(?:[-*•]\s+)?(\d+)\s*[xX×]?\s+(.+?)\s*$")
NEGATIVE = re.compile(r"^\s*(?:[-*•]\s+)?-\d+\s*[xX×]?\s+\S")
MAX_COUNT = 1000  # copies of one card in one list: far beyond any game, small enough to print
HEADER = re.compile(r"^\s*(?:\[(.+)\]|([A-Za-z][\w' /-]*?):)\s*$")
IVION_FEATS = re.compile(r"^\s*Ultimate\s*-\s*(.+?)\.\s*Traits\s*-\s*(.+?)\.?\s*$", re.I)
IVION_GROUP = re.compile(r"^\s*([A-Z][\w' ]*?) Cards:\s*(.+)$")
MONSTER = re.compile(r"^\s*Monster:\s*(.+?)\s*$", re.I)


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
    problems: list[tuple[int, str, str]] = field(default_factory=list)  # (line, code, message): unreadable lines

    def add(self, count_text: str, name: str, section: str, line: int) -> None:
        """An entry, or a problem when its count is zero or absurd."""
        if len(count_text) > 6 or not 0 < int(count_text) <= MAX_COUNT:
            self.problems.append((line, "deck-count", f"'{count_text[:12]}{'…' if len(count_text) > 12 else ''} "
                                  f"{name}': a count must be a whole number from 1 to {MAX_COUNT}"))
            return
        self.entries.append(Entry(int(count_text), name, section, line))

    def sections(self) -> list[str]:
        return list(dict.fromkeys(e.section for e in self.entries))


def read_deck(path: Path, shown: str) -> DeckList:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CardgenError(f"no deck list at {shown}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CardgenError(f"cannot read deck list {shown}: {exc}") from exc
    lines = [ln.split("#", 1)[0].rstrip() for ln in text.splitlines()]
    if any(MONSTER.match(ln) for ln in lines) or any(ln.strip().lower() == "card list:" for ln in lines):
        return _aether(lines, shown)
    if any(IVION_FEATS.match(ln) or IVION_GROUP.match(ln) for ln in lines):
        return _ivion(lines, shown)
    return _plain(lines, shown)


def _plain(lines: list[str], shown: str, fmt: str = "plain", section: str = "main") -> DeckList:
    deck = DeckList(shown, fmt)
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        m = COUNT.match(line)
        if m:
            deck.add(m.group(1), m.group(2), section, n)
            continue
        h = HEADER.match(line)
        if h:
            section = (h.group(1) or h.group(2)).strip().lower()
            section = {"card list": "main", "deck": "main", "main deck": "main"}.get(section, section)
        elif NEGATIVE.match(line):
            deck.problems.append((n, "deck-count", f"'{line.strip()[:60]}': a count must be a whole number from 1 "
                                                   f"to {MAX_COUNT}"))
        elif not (fmt == "aether-tournament" and MONSTER.match(line)):
            deck.problems.append((n, "deck-line", f"cannot read '{line.strip()[:60]}': a line is 'COUNT NAME' "
                                                  "(e.g. '3 Hammer Strike' or '3x …'), a section header ('Sideboard:') "
                                                  "or a comment ('# …')"))
    return deck


def _aether(lines: list[str], shown: str) -> DeckList:
    deck = _plain(lines, shown, "aether-tournament")
    for n, line in enumerate(lines, 1):
        m = MONSTER.match(line)
        if m:
            deck.entries.insert(0, Entry(1, m.group(1), "monster", n))
    return deck


def _ivion(lines: list[str], shown: str) -> DeckList:
    deck = DeckList(shown, "ivion-character")
    for n, line in enumerate(lines, 1):
        feats = IVION_FEATS.match(line)
        if feats:
            deck.entries.append(Entry(1, feats.group(1).strip(), "ultimate", n))
            for trait in feats.group(2).split(","):
                deck.entries.append(Entry(1, trait.strip(), "traits", n))
            continue
        group = IVION_GROUP.match(line)
        if group:
            for item in group.group(2).rstrip(".").split(","):
                m = COUNT.match(item)
                if m:
                    deck.add(m.group(1), m.group(2).strip(), group.group(1).strip(), n)
                elif item.strip():
                    deck.problems.append((n, "deck-line", f"cannot read '{item.strip()[:60]}' in '{group.group(1)} "
                                                          "Cards': write COUNT NAME"))
    return deck

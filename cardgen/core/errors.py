"""Turn problems into data: the one Finding type, severities, and the one user-facing exception."""

from __future__ import annotations

import difflib
import enum
from dataclasses import dataclass, field
from typing import Iterable, Sequence


class Severity(enum.IntEnum):
    INFO = 0
    WARNING = 1
    ERROR = 2

    def __str__(self) -> str:  # "error", "warning", "info"
        return self.name.lower()


@dataclass(frozen=True, order=True)
class Finding:
    """One problem found in the user's data, located like a compiler diagnostic."""

    file: str
    line: int
    column: int
    severity: Severity = field(compare=False)
    code: str
    card: str | None = None
    message: str = ""
    hint: str | None = field(default=None, compare=False)
    # the spreadsheet cell the value came from ('cards.xlsx:Spells!D14'), for cards pulled from one
    cell: str | None = field(default=None, compare=False)
    # the part of the model a card finding depends on ('keywords', 'fields.faction', 'costs'): a
    # model error in that part is its root cause (jobs.findings groups it under that error)
    about: str | None = field(default=None, compare=False)
    # the edition (its language: 'de') the finding is about, when it is not the default language's:
    # a German text that overflows, a translation missing (docs/editions.md)
    edition: str | None = None

    def format(self) -> str:
        loc = self.file or "<workspace>"
        if self.line:
            loc += f":{self.line}:{self.column or 1}"
        edition = f"[{self.edition} edition]" if self.edition else ""
        who = " ".join(w for w in (self.card or "", edition) if w)
        who = f" {who}:" if who else ""
        text = f"{loc}: {self.severity}[{self.code}]{who} {self.message}"
        if self.hint:
            text += f" ({self.hint})"
        if self.cell:
            text += f" [{self.cell}]"
        return printable(text)

    def as_dict(self) -> dict[str, object]:
        return {
            "severity": str(self.severity),
            "code": self.code,
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "card": self.card,
            "hint": self.hint,
            "where": f"{self.file}:{self.line}" if self.line else self.file,
            **({"cell": self.cell} if self.cell else {}),
            **({"about": self.about} if self.about else {}),
            **({"edition": self.edition} if self.edition else {}),
        }


_HIDDEN = {**{c: None for c in range(0x20) if c not in (0x09, 0x0A)}, 0x7F: None}
_HIDDEN.update(
    {
        c: None
        for c in (
            0x061C,
            0x200B,
            0x200C,
            0x200D,
            0x200E,
            0x200F,
            0x2028,
            0x2029,
            0x202A,
            0x202B,
            0x202C,
            0x202D,
            0x202E,
            0x2060,
            0x2066,
            0x2067,
            0x2068,
            0x2069,
            0xFEFF,
        )
    }
)


def printable(text: str) -> str:
    """A finding line safe for a terminal: control, bidi and zero-width characters (which could
    reorder or hide what the line says) shown as <U+XXXX>; the data keeps them (as_dict)."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(f"<U+{ord(ch):04X}>" if ord(ch) in _HIDDEN else ch for ch in text)


def count(findings: Iterable[Finding]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        counts[str(f.severity)] += 1
    return counts


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(
        findings, key=lambda f: (f.file, f.line, f.column, f.code, f.card or "", f.message)
    )


def did_you_mean(word: str, choices: Sequence[str]) -> str | None:
    """A 'did you mean' hint from difflib, case-insensitively, or None."""
    lowered: dict[str, str] = {}
    for choice in choices:
        lowered.setdefault(choice.lower(), choice)
    hits = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
    return f"did you mean '{lowered[hits[0]]}'?" if hits else None


def suggest(message: str, word: str, choices: Sequence[str]) -> str:
    """The message, with '; did you mean …?' when the word is close to one of the choices."""
    hint = did_you_mean(word, choices)
    return message + (f"; {hint}" if hint else "")


def ignore_interrupts() -> None:
    """A worker process's initializer: Ctrl-C belongs to the parent, which exits 130 quietly;
    workers that caught it too would print tracebacks of their own."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


class CardgenError(Exception):
    """A problem the user must fix before anything can be done; shown as one line, never a
    traceback."""

    exit_code = 2

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line

    def format(self) -> str:
        where = ""
        if self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        return f"{where}error: {self.message}"


class ModelUnusable(CardgenError):
    """The game's model has errors that leave nothing to work with: a command prints them (located,
    as `cardgen validate` does) and exits 1, the data's exit code."""

    exit_code = 1

    def __init__(self, game: str, findings: list[Finding], file: str | None = None) -> None:
        super().__init__(f"the model of '{game}' cannot be used until these errors are fixed")
        self.findings = findings
        self.file = file

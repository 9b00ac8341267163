"""Turn a chapter's prose lines into findings of what would print wrong: symbols and boxes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Sequence

from ..core.errors import Finding, Severity, did_you_mean
from ..model.text import RichRules, symbols

ADMONITION = re.compile(r"^!!!\s*(?P<kind>[^\s\"']*)")
LEFTOVER = re.compile(r"\{\{|\}\}|\{%|%\}")
FENCE = re.compile(r"^\s*(```|~~~)")
STYLED = re.compile(r"\.admonition\.([A-Za-z][\w-]*)")
PLAIN = ("note",)  # prints as the book's plain box, whatever the style sheet says


def known_admonitions(css_files: Sequence[Path]) -> list[str]:
    """The boxes a book can print: `note` (the plain box) and each one a style sheet gives a style
    of its own (`.admonition.designer`, `.admonition.tip`)."""
    found = list(PLAIN)
    for path in css_files:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        found += STYLED.findall(text)
    return sorted(dict.fromkeys(found))


class LineChecker:
    """What a chapter's lines write that the book cannot print as meant, each a located finding:
    a symbol the game does not have (`[W]`, `{E/W}`: printed as written), an unknown box
    (`!!! tipp`: a plain box), and braces of a directive that is not one (`{{ cost_legend() }`:
    printed as written). Indented code and fenced code are left alone."""

    def __init__(self, rules: RichRules, admonitions: Sequence[str], game: str) -> None:
        self.rules, self.admonitions, self.game = rules, list(admonitions), game
        self.fenced = False

    def start(self) -> None:
        """A new chapter: no fence open."""
        self.fenced = False

    def check(self, line: str, prose: bool, file: str, lineno: int) -> list[Finding]:
        """`line` with its directives and pictures blanked out (spaces of the same length, so the
        columns are the chapter's); `prose`: not an indented code line."""
        if FENCE.match(line):
            self.fenced = not self.fenced
            return []
        if self.fenced or not prose:
            return []
        out = []

        def finding(column: int, code: str, message: str, hint: str | None) -> None:
            out.append(Finding(file, lineno, column, Severity.ERROR, code, None, message, hint))

        box = ADMONITION.match(line)
        if box and box.group("kind") not in self.admonitions:
            kind = box.group("kind")
            finding(
                box.start("kind") + 1 if kind else 4,
                "rulebook-unknown-admonition",
                f"unknown box '!!! {kind}'; it prints as a plain box"
                if kind
                else "'!!!' names no box (write '!!! tip \"Title\"')",
                did_you_mean(kind, self.admonitions) or f"the boxes: {', '.join(self.admonitions)}",
            )
        for m, item in symbols(line):
            link = m.group(0)[0] == "[" and line[m.end() : m.end() + 1] in ("(", "[", ":")
            if self.rules.drawable(item) is None and not link:
                finding(
                    m.start() + 1,
                    "rulebook-unknown-symbol",
                    f"'{m.group(0)}' is no symbol of {self.game}; it prints as written",
                    f"its symbols: {', '.join(self.rules.letters)}"
                    if self.rules.letters
                    else "the game declares no cost symbols",
                )
        left = LEFTOVER.search(line)
        if left:
            start = left.start()
            if left.group(0)[0] != "{":  # a closing pair: show from the brace that opened it
                start = max(line.rfind("{", 0, start), 0) if "{" in line[:start] else start
            shown = line[start : start + 40].strip()
            finding(
                start + 1,
                "rulebook-template",
                f"'{shown}' is not a directive; it prints as written",
                "a directive is written {{ name(…) }}, e.g. {{ cost_legend() }}",
            )
        return out

"""Turn rules/<game>/rulebook/ into a Book: metadata from index.md's front matter and chapters in order."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Finding, Severity
from ..workspace import Workspace
from ..yamlio import parse_yaml

FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.S)


@dataclass
class Chapter:
    file: str  # as shown in findings
    title: str
    body: str
    first_line: int  # line of the body's first line in the file


@dataclass
class Book:
    title: str
    subtitle: str = ""
    version: str = ""
    intro: Chapter | None = None
    chapters: list[Chapter] = field(default_factory=list)


def _front_matter(text: str, shown: str, findings: list[Finding]) -> tuple[dict, str, int]:
    m = FRONT.match(text)
    if not m:
        return {}, text, 1
    doc = parse_yaml(m.group(1), shown, first_line=2)  # the same guarded loader as cards (alias bombs, big ints)
    findings.extend(f for f in doc.findings if f.code != "empty-file")
    meta = doc.data if doc.data is not None else {}
    if not isinstance(meta, dict):
        findings.append(Finding(shown, 2, 1, Severity.ERROR, "rulebook-front-matter", None,
                                "front matter must be a mapping (title: …)"))
        meta = {}
    return meta, text[m.end():], text[:m.end()].count("\n") + 1


def read_book(ws: Workspace, game: str, model_name: str) -> tuple[Book | None, list[Finding]]:
    folder = ws.root / "rules" / game / "rulebook"
    findings: list[Finding] = []
    index = folder / "index.md"
    if not index.is_file():
        return None, [Finding(ws.shown(folder), 0, 0, Severity.ERROR, "rulebook-missing", None,
                              f"no rulebook for {game}: expected {ws.shown(index)}")]
    shown = ws.shown(index)
    try:
        text = index.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Finding(shown, 1, 1, Severity.ERROR, "rulebook-unreadable", None, f"cannot read: {exc}")]
    meta, body, first = _front_matter(text, shown, findings)
    book = Book(str(meta.get("title") or model_name), str(meta.get("subtitle") or ""), str(meta.get("version") or ""))
    book.intro = Chapter(shown, book.title, body, first)
    chapters = meta.get("chapters")
    head = text.splitlines()[:first]
    listed_at = next((i + 1 for i, ln in enumerate(head) if ln.startswith("chapters:")), 1)
    if chapters is not None and not (isinstance(chapters, list) and all(isinstance(c, str) for c in chapters)):
        findings.append(Finding(shown, listed_at, 1, Severity.ERROR, "rulebook-chapters", None,
                                "'chapters' must be a list of chapter file names, e.g. [basics.md, turns.md]"))
        chapters = None
    if chapters is None:
        chapters = sorted(p.name for p in folder.glob("*.md") if p.name != "index.md")
    inside = folder.resolve()
    for name in chapters:
        path = folder / str(name)
        line = next((i + 1 for i, ln in enumerate(head) if i + 1 >= listed_at and str(name) in ln), listed_at)
        try:
            outside, exists = not path.resolve().is_relative_to(inside), path.is_file()
        except (OSError, ValueError):  # a name too long, or with a NUL: no such chapter
            outside, exists = False, False
        if outside:
            findings.append(Finding(shown, line, 1, Severity.ERROR, "rulebook-chapter-outside", None,
                                    f"chapter '{name}' is outside {ws.shown(folder)}; chapters are read only from there"))
            continue
        if not exists:
            findings.append(Finding(shown, line, 1, Severity.ERROR, "rulebook-chapter-missing", None,
                                    f"chapter '{name}' does not exist in {ws.shown(folder)}"))
            book.chapters.append(Chapter(ws.shown(path), str(name), f'<div class="problem">Missing chapter: {name}'
                                                                    "</div>\n", 1))
            continue
        cshown = ws.shown(path)
        try:
            ctext = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            findings.append(Finding(cshown, 1, 1, Severity.ERROR, "rulebook-unreadable", None, f"cannot read: {exc}"))
            continue
        cmeta, cbody, cfirst = _front_matter(ctext, cshown, findings)
        title = str(cmeta.get("title") or Path(name).stem.replace("-", " ").title())
        book.chapters.append(Chapter(cshown, title, cbody, cfirst))
    return book, findings

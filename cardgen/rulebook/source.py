"""Turn rules/<game>/rulebook/ into a Book: metadata from index.md's front matter and chapters in order,
each within the book's limits (rulebook.limits)."""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import Finding, Severity
from ..core.workspace import Workspace
from ..load.yamlio import parse_yaml
from .limits import CHAPTERS, Budget, bound

FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.S)


@dataclass
class Chapter:
    file: str  # as shown in findings
    title: str
    body: str
    first_line: int  # line of the body's first line in the file
    cut: str | None = None  # why the end of the chapter is left out (a limit); printed where it stops


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


def _read(path: Path, shown: str, findings: list[Finding]) -> str | None:
    """A chapter's text; bytes that are not UTF-8 are a finding at the first one's line and column, and are
    read as U+FFFD (the rest of the chapter is still printed). None (and a finding) when it cannot be read."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        findings.append(Finding(shown, 0, 0, Severity.ERROR, "rulebook-unreadable", None,
                                f"cannot read {shown}: {exc.strerror or exc}"))
        return None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        text = raw.decode("utf-8-sig", errors="replace")
        more = text.count("\ufffd") - raw.decode("utf-8-sig", errors="ignore").count("\ufffd") - 1
        findings.append(Finding(shown, line, column, Severity.ERROR, "not-utf8", None,
                                f"byte 0x{raw[exc.start]:02x} is not UTF-8" + (f" (nor are {more:,} more)" if more > 0
                                                                               else "")
                                + "; the book prints \ufffd in its place", "save the file as UTF-8"))
        return text


def _bounded(chapter: Chapter, budget: Budget, findings: list[Finding]) -> Chapter:
    chapter.body, chapter.cut, over = bound(chapter.body, chapter.file, chapter.first_line, budget)
    findings.extend(over)
    return chapter


def read_book(ws: Workspace, game: str, model_name: str) -> tuple[Book | None, list[Finding]]:
    folder = ws.root / "rules" / game / "rulebook"
    findings: list[Finding] = []
    index = folder / "index.md"
    if not index.is_file():
        return None, [Finding(ws.shown(folder), 0, 0, Severity.ERROR, "rulebook-missing", None,
                              f"no rulebook for {game}: expected {ws.shown(index)}")]
    shown = ws.shown(index)
    text = _read(index, shown, findings)
    if text is None:
        return None, findings
    meta, body, first = _front_matter(text, shown, findings)
    book = Book(str(meta.get("title") or model_name), str(meta.get("subtitle") or ""), str(meta.get("version") or ""))
    budget = Budget()
    book.intro = _bounded(Chapter(shown, book.title, body, first), budget, findings)
    chapters = meta.get("chapters")
    head = text.splitlines()[:first]
    listed_at = next((i + 1 for i, ln in enumerate(head) if ln.startswith("chapters:")), 1)
    if chapters is not None and not (isinstance(chapters, list) and all(isinstance(c, str) for c in chapters)):
        findings.append(Finding(shown, listed_at, 1, Severity.ERROR, "rulebook-chapters", None,
                                "'chapters' must be a list of chapter file names, e.g. [basics.md, turns.md]"))
        chapters = None
    if chapters is None:
        chapters = sorted(p.name for p in folder.glob("*.md") if p.name != "index.md")
    if len(chapters) > CHAPTERS:
        findings.append(Finding(shown, listed_at, 1, Severity.ERROR, "rulebook-too-long", None,
                                f"the book has {len(chapters):,} chapters; a book may have {CHAPTERS:,}",
                                f"the book prints the first {CHAPTERS:,}"))
        chapters = chapters[:CHAPTERS]
    inside = folder.resolve()
    listing = head[listed_at - 1:listed_at + CHAPTERS + 1]  # where the chapters are named (one a line at most)
    for name in chapters:
        if budget.spent:  # the book's limit was reached in an earlier chapter (a finding says where)
            break
        path = folder / str(name)
        line = next((listed_at + i for i, ln in enumerate(listing) if str(name) in ln), listed_at)
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
            book.chapters.append(Chapter(ws.shown(path), str(name), '<div class="problem">Missing chapter: '
                                         f"{html.escape(str(name))}</div>\n", 1))
            budget.lines -= 1
            continue
        cshown = ws.shown(path)
        ctext = _read(path, cshown, findings)
        if ctext is None:
            continue
        cmeta, cbody, cfirst = _front_matter(ctext, cshown, findings)
        title = str(cmeta.get("title") or Path(name).stem.replace("-", " ").title())
        book.chapters.append(_bounded(Chapter(cshown, title, cbody, cfirst), budget, findings))
    return book, findings

"""Turn rules/<game>/rulebook/ into a Book: metadata from index.md's front matter and chapters in
order, each within the book's limits (rulebook.limits)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import Finding, Severity, did_you_mean
from ..core.workspace import Workspace
from ..load.yamlio import parse_yaml
from ..model.game import GameModel
from .bookwords import ENGLISH_WORDS, BookWords, read_words
from .limits import CHAPTERS, Budget, bound

FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.S)


@dataclass
class Chapter:
    file: str  # as shown in findings
    title: str
    body: str
    first_line: int  # line of the body's first line in the file
    cut: str | None = (
        None  # why the end of the chapter is left out (a limit); printed where it stops
    )


@dataclass
class Book:
    title: str
    subtitle: str = ""
    version: str = ""
    intro: Chapter | None = None
    chapters: list[Chapter] = field(default_factory=list)
    # the words the book prints of its own (index.md's `words:`: headings, the components list's
    # phrases); an edition's index.md gives them in its language
    words: BookWords = ENGLISH_WORDS
    # index.md's `hyphenation:` words, a hyphen where each may break (rulebook.hyphenate)
    hyphenation: tuple[str, ...] = ()


def _front_matter(text: str, shown: str, findings: list[Finding]) -> tuple[dict, str, int]:
    m = FRONT.match(text)
    if not m:
        return {}, text, 1
    doc = parse_yaml(
        m.group(1), shown, first_line=2
    )  # the same guarded loader as cards (alias bombs, big ints)
    findings.extend(f for f in doc.findings if f.code != "empty-file")
    meta = doc.data if doc.data is not None else {}
    if not isinstance(meta, dict):
        findings.append(
            Finding(
                shown,
                2,
                1,
                Severity.ERROR,
                "rulebook-front-matter",
                None,
                "front matter must be a mapping (title: …)",
            )
        )
        meta = {}
    return meta, text[m.end() :], text[: m.end()].count("\n") + 1


def _read(path: Path, shown: str, findings: list[Finding]) -> str | None:
    """A chapter's text; bytes that are not UTF-8 are a finding at the first one's line and column,
    and are read as U+FFFD (the rest of the chapter is still printed). None (and a finding) when it
    cannot be read."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        findings.append(
            Finding(
                shown,
                0,
                0,
                Severity.ERROR,
                "rulebook-unreadable",
                None,
                f"cannot read {shown}: {exc.strerror or exc}",
            )
        )
        return None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        text = raw.decode("utf-8-sig", errors="replace")
        more = text.count("\ufffd") - raw.decode("utf-8-sig", errors="ignore").count("\ufffd") - 1
        findings.append(
            Finding(
                shown,
                line,
                column,
                Severity.ERROR,
                "not-utf8",
                None,
                f"byte 0x{raw[exc.start]:02x} is not UTF-8"
                + (f" (nor are {more:,} more)" if more > 0 else "")
                + "; the book prints \ufffd in its place",
                "save the file as UTF-8",
            )
        )
        return text


def _bounded(chapter: Chapter, budget: Budget, findings: list[Finding]) -> Chapter:
    chapter.body, chapter.cut, over = bound(chapter.body, chapter.file, chapter.first_line, budget)
    findings.extend(over)
    return chapter


def read_book(
    ws: Workspace, game: str, model_name: str, languages: list[str] | tuple[str, ...] = ()
) -> tuple[Book | None, list[Finding]]:
    """The book's sources. In an edition of another language, `languages` (the edition's, then its
    fallbacks, docs/editions.md) name the folders of rules/GAME/rulebook/ whose chapters stand in
    for the default's, chapter by chapter: index.md too, and every chapter one of them lacks is
    the default's."""
    folder = ws.root / "rules" / game / "rulebook"
    findings: list[Finding] = []

    def own(name: str) -> Path:
        """A chapter file in the edition's language, else as the default language writes it."""
        for lang in languages:
            path = folder / lang / name
            if path.is_file():
                return path
        return folder / name

    index = own("index.md")
    if not index.is_file():
        return None, [
            Finding(
                ws.shown(folder),
                0,
                0,
                Severity.ERROR,
                "rulebook-missing",
                None,
                f"no rulebook for {game}: expected {ws.shown(index)}",
            )
        ]
    shown = ws.shown(index)
    text = _read(index, shown, findings)
    if text is None:
        return None, findings
    meta, body, first = _front_matter(text, shown, findings)
    book = Book(
        str(meta.get("title") or model_name),
        str(meta.get("subtitle") or ""),
        str(meta.get("version") or ""),
    )
    words = meta.get("words")
    if words is not None and not isinstance(words, dict):
        findings.append(
            Finding(
                shown,
                2,
                1,
                Severity.ERROR,
                "rulebook-front-matter",
                None,
                "'words' must be a mapping of the book's own words (contents: Inhalt, rules: "
                "Regeln, gallery: Kartengalerie); the English ones are printed",
            )
        )
    book.words = read_words(words, shown, text.splitlines()[:first], findings)
    breaks = meta.get("hyphenation")
    if isinstance(breaks, list):
        book.hyphenation = tuple(str(w) for w in breaks if isinstance(w, (str, int)))
    elif breaks is not None:
        lines = text.splitlines()
        findings.append(
            Finding(
                shown,
                next((n for n, line in enumerate(lines, 1) if line.startswith("hyphenation")), 1),
                1,
                Severity.ERROR,
                "rulebook-front-matter",
                None,
                "hyphenation: must be a list of words, each written with a hyphen where it may "
                "break (non-aligned)",
            )
        )
    budget = Budget()
    book.intro = _bounded(Chapter(shown, book.title, body, first), budget, findings)
    chapters = meta.get("chapters")
    head = text.splitlines()[:first]
    listed_at = next((i + 1 for i, ln in enumerate(head) if ln.startswith("chapters:")), 1)
    if chapters is not None and not (
        isinstance(chapters, list) and all(isinstance(c, str) for c in chapters)
    ):
        findings.append(
            Finding(
                shown,
                listed_at,
                1,
                Severity.ERROR,
                "rulebook-chapters",
                None,
                "'chapters' must be a list of chapter file names, e.g. [basics.md, turns.md]",
            )
        )
        chapters = None
    if chapters is None:
        folders = [folder, *(folder / lang for lang in languages)]
        found = {p.name for f in folders for p in f.glob("*.md")}
        chapters = sorted(found - {"index.md"})
    if len(chapters) > CHAPTERS:
        findings.append(
            Finding(
                shown,
                listed_at,
                1,
                Severity.ERROR,
                "rulebook-too-long",
                None,
                f"the book has {len(chapters):,} chapters; a book may have {CHAPTERS:,}",
                f"the book prints the first {CHAPTERS:,}",
            )
        )
        chapters = chapters[:CHAPTERS]
    inside = folder.resolve()
    listing = head[
        listed_at - 1 : listed_at + CHAPTERS + 1
    ]  # where the chapters are named (one a line at most)
    seen: dict[str, int] = {}  # chapter -> the listing line that named it
    for name in chapters:
        if (
            budget.spent
        ):  # the book's limit was reached in an earlier chapter (a finding says where)
            break
        path = own(str(name)) if "/" not in str(name) else folder / str(name)
        after = (
            seen.get(str(name), listed_at - 1) + 1 - listed_at
        )  # a second listing: the next line
        line = next(
            (listed_at + i for i, ln in enumerate(listing) if i >= after and str(name) in ln),
            seen.get(str(name), listed_at),
        )
        if str(name) in seen:
            findings.append(
                Finding(
                    shown,
                    line,
                    1,
                    Severity.ERROR,
                    "rulebook-chapter-twice",
                    None,
                    f"chapter '{name}' is listed twice (first at line {seen[str(name)]}); the "
                    "book prints it once",
                    "remove one of the two",
                )
            )
            continue
        seen[str(name)] = line
        try:
            outside, exists = not path.resolve().is_relative_to(inside), path.is_file()
        except (OSError, ValueError):  # a name too long, or with a NUL: no such chapter
            outside, exists = False, False
        if outside:
            findings.append(
                Finding(
                    shown,
                    line,
                    1,
                    Severity.ERROR,
                    "rulebook-chapter-outside",
                    None,
                    f"chapter '{name}' is outside {ws.shown(folder)}; chapters are read only from "
                    "there",
                )
            )
            continue
        if not exists:
            findings.append(
                Finding(
                    shown,
                    line,
                    1,
                    Severity.ERROR,
                    "rulebook-chapter-missing",
                    None,
                    f"chapter '{name}' does not exist in {ws.shown(folder)}",
                    _chapter_hint(folder, str(name)),
                )
            )
            book.chapters.append(
                Chapter(
                    ws.shown(path),
                    str(name),
                    f'<div class="problem">Missing chapter: {html.escape(str(name))}</div>\n',
                    1,
                )
            )
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


def _chapter_hint(folder: Path, name: str) -> str | None:
    """How a missing chapter is probably meant: its name with or without '.md', else the closest
    chapter file."""
    try:
        files = sorted(p.name for p in folder.iterdir() if p.is_file() and p.name != "index.md")
    except OSError:
        return None
    if f"{name}.md" in files:
        return f"the file is '{name}.md': write it with '.md'"
    if name.endswith(".md") and name[:-3] in files:
        return f"the file is '{name[:-3]}': write it without '.md'"
    return did_you_mean(name, files)


def book_languages(model: GameModel) -> list[str]:
    """The folders of rules/GAME/rulebook/ an edition's book reads its chapters from first: the
    edition's language, then its fallbacks (none for the default language's edition)."""
    eds = model.editions
    return eds.chain(model.edition)[:-1] if eds is not None and model.other_edition() else []

"""Turn a game's rulebook sources into findings without laying the book out (what `cardgen validate`
reports).

Kept apart from rulebook.build's typesetting so that validating does not import WeasyPrint or the
rasteriser (it converts the chapters' Markdown, which the sanitiser's findings need).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..core.errors import Finding
from ..load.plaindata import findings_from_plain, findings_to_plain
from ..project.studio import Studio
from .content import BookContent, directive_cards, second_side_cards
from .directives import SECOND
from .glyphs import glyph_findings, style_sheet
from .source import Chapter, book_languages, read_book


def rulebook_findings(studio: Studio) -> list[Finding]:
    """What is wrong with the rulebook's sources, found without laying it out: chapters, directives,
    cards, keywords and images they name, raw HTML the sanitiser removes, limits passed (what
    `cardgen validate` reports; the build finds the same)."""
    ws, game = studio.ws, studio.game
    if not (ws.root / "rules" / game / "rulebook" / "index.md").is_file():
        return []
    book, findings = read_book(ws, game, studio.model.name, book_languages(studio.model))
    if book is None:
        return findings
    content = BookContent(studio, findings, words=book.words)
    chapters = [c for c in [book.intro, *book.chapters] if c is not None]
    for card in directive_cards(content, chapters):
        if studio.faces.for_card(card) is not None:
            content.images[card.id] = ""  # a face exists; its picture is only needed to print
    for card in second_side_cards(content, chapters):
        if studio.own_back(card):  # its second side too (card("Name", "both"))
            content.images[card.id + SECOND] = ""
    finished = Finished(ws.output_dir(game) / ".cache" if (ws.root / "output").is_dir() else None)
    # in the order the build expands them (the book's element budget is spent in that order)
    for cid, chapter in [
        *((f"ch{n}", c) for n, c in enumerate(book.chapters, 1)),
        ("intro", book.intro),
    ]:
        if chapter is not None:
            finished.finish(content, chapter, cid, content.expand(chapter))
    finished.save()
    return content.findings + glyph_findings(studio, chapters, style_sheet(ws, game))


class Finished:
    """What finishing a chapter finds (its Markdown as HTML, sanitised: what the sanitiser removes),
    kept in the signed cache (speed.cache) by everything it is made from — the expanded text, the
    chapter's source and place, the directives' HTML, and the code and Markdown library that
    convert it — so validating an unchanged book neither converts nor imports the converter. Off
    (`--no-cache`, or no output/ yet), every chapter is finished; the same findings either way."""

    NAME = "rulebook-lint"

    def __init__(self, folder: Path | None) -> None:
        from ..speed.cache import Store
        from ..speed.codekey import code_digest

        self.store = Store(folder)
        kept = self.store.get(self.NAME) if self.store.on else None
        self.kept: dict[str, object] = kept if isinstance(kept, dict) else {}
        self.used: dict[str, object] = {}
        from importlib.metadata import version

        # cardgen's code that converts and sanitises, and the two libraries doing it, by version
        libraries = "|".join(version(name) for name in ("markdown", "nh3"))
        self.code = code_digest("cardgen.rulebook.build", "cardgen.rulebook.content") + libraries

    def finish(self, content: BookContent, chapter: Chapter, cid: str, text: str) -> None:
        parts = (self.code, cid, chapter.file, str(chapter.first_line), chapter.body, text)
        key = hashlib.sha256("\0".join((*parts, *content.fragments())).encode()).hexdigest()
        kept = self.kept.get(key)
        if kept is not None:
            try:
                found = findings_from_plain(kept)
            except (TypeError, ValueError):  # signed by us, yet not this shape: finished afresh
                found = None
            if found is not None:
                content.findings.extend(found)
                self.used[key] = kept
                return
        from .build import _markdown  # Markdown only: no layout, no WeasyPrint

        before = len(content.findings)
        content.finish(chapter, _markdown(text, cid)[0])
        self.used[key] = findings_to_plain(content.findings[before:])

    def save(self) -> None:
        """Keep this book's chapters (only these: the cache never grows past one book)."""
        if self.used != self.kept:
            self.store.put(self.NAME, self.used)

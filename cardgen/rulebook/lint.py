"""Turn a game's rulebook sources into findings without laying the book out (what `cardgen validate` reports).

Kept apart from rulebook.build's typesetting so that validating does not import WeasyPrint or the rasteriser
(it converts the chapters' Markdown, which the sanitiser's findings need).
"""
from __future__ import annotations

from ..core.errors import Finding
from ..project.studio import Studio
from .content import BookContent, directive_cards
from .source import read_book


def rulebook_findings(studio: Studio) -> list[Finding]:
    """What is wrong with the rulebook's sources, found without laying it out: chapters, directives, cards,
    keywords and images they name, raw HTML the sanitiser removes, limits passed (what `cardgen validate`
    reports; the build finds the same)."""
    ws, game = studio.ws, studio.game
    if not (ws.root / "rules" / game / "rulebook" / "index.md").is_file():
        return []
    book, findings = read_book(ws, game, studio.model.name)
    if book is None:
        return findings
    content = BookContent(studio, findings)
    chapters = [c for c in [book.intro, *book.chapters] if c is not None]
    for card in directive_cards(content, chapters):
        if studio.faces.for_card(card) is not None:
            content.images[card.id] = ""  # a face exists; its picture is only needed to print
    from .build import _markdown  # Markdown only: the sanitiser's findings need the chapter as HTML

    # in the order the build expands them (the book's element budget is spent in that order)
    for cid, chapter in [*((f"ch{n}", c) for n, c in enumerate(book.chapters, 1)), ("intro", book.intro)]:
        if chapter is not None:
            content.finish(chapter, _markdown(content.expand(chapter), cid)[0])
    return content.findings

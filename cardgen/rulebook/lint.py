"""Turn a game's rulebook sources into findings without laying the book out (what `cardgen validate` reports).

Kept apart from rulebook.build so that validating does not import Markdown, WeasyPrint or the rasteriser.
"""
from __future__ import annotations

from ..errors import Finding
from ..project import Studio
from .content import BookContent, directive_cards
from .source import read_book


def rulebook_findings(studio: Studio) -> list[Finding]:
    """What is wrong with the rulebook's sources, found without laying it out: chapters, directives, cards,
    keywords and images they name (what `cardgen validate` reports; the build finds the same)."""
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
    for chapter in chapters:
        content.expand(chapter)
    return content.findings

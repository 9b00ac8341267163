"""Turn a game's rulebook sources into PDF bytes: Markdown + directives -> HTML (Jinja2) ->
WeasyPrint."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import markdown
from jinja2 import TemplateError
from markupsafe import Markup

from ..core.errors import CardgenError, Finding, Severity
from ..core.options import Paper
from ..core.sandbox import LimitedSandbox, page_environment
from ..core.workspace import Workspace
from ..load.card import slug
from ..project.studio import Studio, open_studio, save_disk_cache, with_disk_cache
from ..render.fonts import BUNDLED
from ..speed.memo import Memo
from . import PAGES, contents_break, text_column
from .booklet import inside_cover
from .content import (
    BookContent,
    directive_cards,
    resolve_images,
    second_side_cards,
)
from .fetch import _refusal, _where_named
from .glyphs import book_fallback, glyph_findings, with_fallbacks
from .hyphenate import exceptions, mark
from .placement import (
    cover_styles,
)
from .sanitise import without_scripts
from .source import Chapter, book_languages, read_book
from .typeset import inputs_digest as inputs_digest
from .typeset import prune_papers as prune_papers
from .typeset import render_pdf as render_pdf
from .typeset import typeset_html

SHARED = "_shared/rulebook"
EXTENSIONS = ["admonition", "tables", "attr_list", "sane_lists", "toc", "smarty"]


@dataclass(frozen=True)
class Section:
    id: str
    title: str


@dataclass
class RenderedChapter:
    id: str
    title: str
    html: Markup
    sections: list[Section] = field(default_factory=list)


@dataclass
class Rulebook:
    html: str
    pdf: bytes
    pages: int
    findings: list[Finding]
    typeset: bool = (
        True  # False: laid out as HTML only, its PDF not made yet (build_rulebook's `wait`)
    )
    # an untypeset book's typesetting, from the HTML already made (this process, or one forked
    # after it was made): the same book `build_rulebook` with `wait` returns, none made twice
    finish: "Callable[[], Rulebook] | None" = field(default=None, repr=False, compare=False)


def _chapter_html(
    content: BookContent, chapter: Chapter, cid: str, words: dict[str, str]
) -> RenderedChapter:
    body, sections = _markdown(content.expand(chapter), cid)
    finished = mark(content.finish(chapter, body), words)
    return RenderedChapter(cid, chapter.title, Markup(finished), list(sections))


_CONVERTED: Memo[tuple[str, tuple[Section, ...]]] = Memo(256)


def _markdown(text: str, cid: str) -> tuple[str, tuple[Section, ...]]:
    """A chapter's expanded Markdown as HTML and its sections; kept for the process by text, so a
    live rebuild converts only the chapters whose text (or the cards they show) changed."""
    return _CONVERTED.get((text, cid), lambda: _convert(text, cid))


def _convert(text: str, cid: str) -> tuple[str, tuple[Section, ...]]:
    md = markdown.Markdown(
        extensions=EXTENSIONS,
        extension_configs={
            "toc": {"slugify": lambda value, sep: f"{cid}-{slug(value)}", "toc_depth": "2"}
        },
    )
    body = md.convert(text)
    # the toc's names are HTML already (smart quotes as entities); the book template escapes them
    # once more
    sections = [
        Section(t["id"], html.unescape(t["name"]))
        for t in getattr(md, "toc_tokens", [])
        if t["level"] == 2
    ]
    for t in getattr(md, "toc_tokens", []):  # '## A' under a '#' heading: take its children too
        sections += [
            Section(c["id"], html.unescape(c["name"]))
            for c in t.get("children", [])
            if c["level"] == 2
        ]
    return body, tuple(sections)


def _environment(ws: Workspace, game: str) -> LimitedSandbox:
    own = ws.templates_dir(game) / "rulebook"
    shared = ws.root / "templates" / SHARED
    bundled = Path(__file__).resolve().parents[1] / "data" / "templates" / "rulebook"
    return page_environment([own, shared, bundled], html_only=True)


def build_rulebook(
    ws: Workspace,
    game: str,
    paper: Paper | str = "a4",
    gallery: bool = False,
    studio: Studio | None = None,
    wait: bool = True,
    booklet: bool = False,
) -> Rulebook:
    """The book's HTML and PDF on `paper` (a4, letter, a5 or half-letter: a Paper, or its name
    from a library caller); a `booklet`'s pages are mirrored, with a binding margin at the fold and
    the printing instructions inside the front cover (booklet.impose lays it out two-up). Without
    `wait`, a book whose typesetting is not kept from an earlier run comes back untypeset (no PDF,
    and none of the findings only typesetting finds): a live rebuild writes everything else first
    and typesets it afterwards."""
    paper = paper.name if isinstance(paper, Paper) else paper
    if paper not in PAGES:
        raise CardgenError(
            f"--paper must be one of {', '.join(PAGES)} for the rulebook, not '{paper}'"
        )
    studio = studio or with_disk_cache(open_studio(ws, game))
    book, findings = read_book(ws, game, studio.model.name, book_languages(studio.model))
    if book is None:
        raise CardgenError(findings[0].message if findings else f"no rulebook for {game}")
    content = BookContent(studio, findings, column=text_column(paper), words=book.words)
    chapters = [c for c in [book.intro, *book.chapters] if c is not None]
    needed = directive_cards(content, chapters)
    if gallery:
        content.gallery_cards = studio.designs(printable=True)
    content.prepare_images(needed)
    content.prepare_images(second_side_cards(content, chapters), second=True)
    content.prepare_images(content.gallery_cards, dpi=200, jpeg=True)
    words = exceptions(book.hyphenation)
    rendered = [
        _chapter_html(content, ch, f"ch{n}", words) for n, ch in enumerate(book.chapters, 1)
    ]
    intro = _chapter_html(content, book.intro, "intro", words) if book.intro else None
    env = _environment(ws, game)
    try:
        template = env.get_template("book.html.j2")
        css = env.loader.get_source(env, "book.css")[0]  # type: ignore[union-attr]
    except Exception as exc:
        raise CardgenError(f"no usable rulebook template (book.html.j2, book.css): {exc}") from exc
    content.findings += glyph_findings(studio, chapters, css)
    css = with_fallbacks(css, book_fallback(studio))
    fonts = {stem: path.resolve().as_uri() for stem, path in studio.fonts.files().items()}
    page_size, page = PAGES[paper]
    images = content.images
    shown = [(c, images[c.id]) for c in content.gallery_cards if c.id in images]
    # the cover: the first three cards the chapters name, each once
    cover = [i for i in dict.fromkeys(c.id for c in needed) if i in images][:3]
    try:
        html = template.render(
            book=book,
            intro=intro,
            chapters=rendered,
            css=Markup(css),
            fonts=fonts,
            page_size=page_size,
            page_mm=page,
            paper=paper,
            toc_break=contents_break(
                [len(ch.sections) for ch in rendered] + [0] * bool(shown), paper
            ),
            booklet=inside_cover(paper) if booklet else None,
            model=studio.model,
            cover_cards=[content.images[i] for i in cover],
            cover_styles=cover_styles([content.sizes[i] for i in cover]),
            word_css=Markup(book.words.css()),
            gallery=shown,
            lang=studio.model.edition or "en",
        )
    except (
        TemplateError
    ) as exc:  # a workspace's own book template: its mistake, one line, never a traceback
        raise CardgenError(f"the rulebook template failed: {exc}") from exc
    allowed = (ws.root.resolve(), studio.fonts.folder.resolve(), BUNDLED.resolve())
    typeset = typeset_html(html, content, ws, game, paper, book.title, allowed, wait)
    shown_html = without_scripts(resolve_images(html, content.image_files, inline=True))

    def typeset_book(typeset: tuple[bytes, int, list[str]]) -> Rulebook:
        pdf, pages, refused = typeset
        for url in dict.fromkeys(refused):
            file, line = _where_named(
                chapters,
                url,
                ws.shown(ws.root / "rules" / game / "rulebook" / "index.md"),
                ws.root,
            )
            code, message = _refusal(url, ws.root)
            content.findings.append(
                Finding(file, line, 1 if line else 0, Severity.ERROR, code, None, message)
            )
        save_disk_cache(studio)
        return Rulebook(shown_html, pdf, pages, content.findings)

    if typeset is None:
        return Rulebook(
            shown_html,
            b"",
            0,
            list(content.findings),
            typeset=False,
            finish=lambda: typeset_book(
                typeset_html(html, content, ws, game, paper, book.title, allowed)  # type: ignore[arg-type]
            ),
        )
    return typeset_book(typeset)

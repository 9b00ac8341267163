"""Turn a game's rulebook sources into PDF bytes: Markdown + directives -> HTML (Jinja2) ->
WeasyPrint."""

from __future__ import annotations

import html
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import markdown
from jinja2 import TemplateError
from markupsafe import Markup

from ..core.errors import CardgenError, Finding, Severity
from ..core.options import Paper
from ..core.paths import content_digest
from ..core.sandbox import LimitedSandbox, page_environment
from ..core.workspace import Workspace
from ..load.card import slug
from ..project.studio import Studio, open_studio, save_disk_cache, with_disk_cache
from ..render.fonts import BUNDLED
from ..speed.cache import Store
from ..speed.memo import Memo, memo
from . import PAGES, contents_break, text_column
from .booklet import inside_cover
from .content import (
    BookContent,
    content_addresses,
    directive_cards,
    resolve_images,
    second_side_cards,
)
from .fetch import _fetcher, _refusal, _where_named, from_workspace
from .glyphs import book_fallback, glyph_findings, with_fallbacks
from .hyphenate import exceptions, mark
from .placement import (
    cover_styles,
    defer,
    displaced,
    floating,
    new_page,
    pushed,
    stranded_titles,
)
from .sanitise import without_scripts
from .source import Chapter, book_languages, read_book

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
    typeset = _typeset(html, content, ws, game, paper, book.title, allowed, wait)
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
                _typeset(html, content, ws, game, paper, book.title, allowed)  # type: ignore[arg-type]
            ),
        )
    return typeset_book(typeset)


def _typeset(
    html: str,
    content: BookContent,
    ws: Workspace,
    game: str,
    paper: str,
    title: str,
    allowed: tuple[Path, ...],
    wait: bool = True,
) -> tuple[bytes, int, list[str]] | None:
    """The PDF of the book's HTML, reused from output/GAME/.cache/ while the HTML (pictures by their
    face and files) and every other input but the card files are the same: a card the book does not
    show can change without the book being typeset again. None when it is not kept and `wait` is
    off."""
    import hashlib

    key = hashlib.sha1(
        (html + "\0" + inputs_digest(ws, game, paper, cards=False)).encode()
    ).hexdigest()[:16]
    store, name = Store(ws.output_dir(game) / ".cache"), f"typeset-{paper}-{key}"
    kept = store.get(name)
    if (
        isinstance(kept, tuple)
        and len(kept) == 3
        and isinstance(kept[0], bytes)
        and isinstance(kept[1], int)
        and isinstance(kept[2], list)
        and all(isinstance(url, str) for url in kept[2])
    ):
        return kept  # type: ignore[return-value]
    if not wait:
        return None
    refused: list[str] = []
    addresses = content_addresses(content.image_files)
    pdf, pages = render_pdf(
        resolve_images(html, content.image_files, inline=False, addresses=addresses),
        ws.root / "rules" / game / "rulebook",
        title,
        allowed,
        refused,
        {url: content.image_files[ref] for ref, url in addresses.items()},
        ws.root,
    )
    if ws.output_dir(
        game
    ).is_dir():  # kept only where outputs already go (validating never typesets)
        store.put(name, (pdf, pages, refused), f"typeset-{paper}-*")  # one kept per paper
        prune_papers(store, "typeset")
    return pdf, pages, refused


def prune_papers(store: Store, kind: str) -> None:
    """Drop a cache's files of `kind` that are no paper's (an older cardgen's names): each paper's
    own are kept side by side."""
    if store.folder is None or not store.folder.is_dir():
        return
    papers = tuple(f"{kind}-{paper}-" for paper in PAGES)
    kept = {p.name for p in store.folder.glob(f"{kind}-*") if p.name.startswith(papers)}
    store.prune(f"{kind}-*", kept)


def inputs_digest(ws: Workspace, game: str, paper: str, cards: bool = True) -> str:
    """What a rulebook is made from: every workspace file outside output/ (chapters, model, cards,
    templates, fonts, pictures: by path, size and modification time) and cardgen's own code, page
    templates and bundled fonts (by content). Equal digests mean an equal book. Without `cards`, the
    game's card files are left out (what the book shows of them is in its HTML)."""
    import hashlib
    import os

    h = hashlib.sha1(f"{game}\0{paper}\0{_package_digest()}".encode())
    if ws.edition:  # another edition's book: its own chapters and names
        h.update(f"\0{ws.edition}".encode())
    root = ws.root.resolve()
    card_folder = ws.cards_dir(game).resolve()
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".") and not (Path(folder) == root and d == "output")
        )
        for name in sorted(files):
            if (
                not cards
                and Path(folder).is_relative_to(card_folder)
                and name.endswith((".yaml", ".yml"))
            ):
                continue
            stat = (Path(folder) / name).stat()
            h.update(
                f"{Path(folder, name).relative_to(root).as_posix()}\0"
                f"{stat.st_size}\0{stat.st_mtime_ns}\n".encode()
            )
    return h.hexdigest()[:16]


@memo(1)
def _package_digest() -> str:
    """The code that makes a book (every module it imports), page templates and bundled fonts, by
    content."""
    from ..speed.codekey import code_digest

    package = Path(__file__).resolve().parents[1]
    files = sorted(p for p in (package / "data").rglob("*") if p.is_file())
    names = "|".join(
        p.relative_to(package).as_posix() for p in files
    )  # a file moved is a change too
    return content_digest(files, f"{names}|{code_digest('cardgen.rulebook.build')}")


def render_pdf(
    html: str,
    base: Path,
    title: str,
    allowed: tuple[Path, ...] = (),
    refused: list[str] | None = None,
    pictures: dict[str, Path] | None = None,
    root: Path | None = None,
) -> tuple[bytes, int]:
    """The book as PDF bytes and its number of pages (from WeasyPrint's own document). WeasyPrint
    may read only data: URIs, the face `pictures` by their content addresses and files under
    `allowed`; every other request (the network, files elsewhere, such as a chapter's raw <img
    src="file:///etc/passwd">) is refused and listed in `refused`. The files of the workspace
    `root` (and `base`, inside it) are named from a stand-in folder (rulebook.fetch.WORKSPACE):
    the same book is the same bytes wherever its workspace lives."""
    import logging

    import weasyprint  # imported here: it costs half a second, and only this command needs it

    base_url = str(base) + "/"
    if root is not None:
        html, base_url = from_workspace(html, root), from_workspace(base.resolve().as_uri(), root)

    def fetcher():  # type: ignore[no-untyped-def]
        return _fetcher(
            allowed or (base.resolve(),),
            refused if refused is not None else [],
            pictures or {},
            root,
        )

    document = weasyprint.HTML(
        string=html, base_url=base_url.rstrip("/") + "/", url_fetcher=fetcher()
    )
    # a fixed identifier and no dates: the same sources give the same bytes. fontTools stamps each
    # subset font with the time unless SOURCE_DATE_EPOCH is set, so it is pinned while the PDF is
    # written.
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = "946684800"  # 2000-01-01
    # the libraries' own log lines (a font's odd timestamp, a refused URL already reported as a
    # finding) are not for the designer's terminal
    quiet = [logging.getLogger(name) for name in ("fontTools", "weasyprint")]
    levels = [log.level for log in quiet]
    for log in quiet:
        log.setLevel(logging.CRITICAL)
    try:
        rendered = document.render()
        pages = rendered.pages
        moved, titles, floats = pushed(pages), stranded_titles(pages), displaced(pages)
        if moved or titles or floats:  # a figure left a hole, a title its chapter: once more
            rendered = weasyprint.HTML(
                string=new_page(defer(floating(html, floats), moved + floats), titles),
                base_url=base_url.rstrip("/") + "/",
                url_fetcher=fetcher(),
            ).render()
        return rendered.write_pdf(
            pdf_identifier=slug(title).encode() or b"rulebook", uncompressed_pdf=False
        ), len(rendered.pages)
    finally:
        for log, level in zip(quiet, levels):
            log.setLevel(level)
        if saved is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved

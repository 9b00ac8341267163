"""Turn a book's HTML into its PDF: WeasyPrint behind a fetcher that reads only what the book may,
the layout corrected once where a figure left a hole, and the result kept by what the book is made
from (its HTML, the workspace's other files, cardgen's own code)."""

from __future__ import annotations

import os
from pathlib import Path

from ..core.paths import content_digest
from ..core.workspace import Workspace
from ..load.card import slug
from ..speed.cache import Store
from ..speed.memo import memo
from . import PAGES
from .content import BookContent, content_addresses, resolve_images
from .fetch import _fetcher, from_workspace
from .placement import defer, displaced, floating, new_page, pushed, stranded_titles


def typeset_html(
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

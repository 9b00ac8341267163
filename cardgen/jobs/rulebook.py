"""The rulebook job: build the book in memory, then write its PDF (and its HTML if asked)
atomically."""

from __future__ import annotations

from pathlib import Path

from ..core.options import A4, Paper
from ..core.output import JobResult, Output, write_atomic
from ..core.workspace import Workspace
from ..project.studio import Studio, open_studio, save_disk_cache, with_disk_cache
from ..rulebook.booklet import FLIP, impose, sheet_for
from ..rulebook.build import Rulebook, build_rulebook, inputs_digest, prune_papers
from .findings import card_errors


def run_rulebook(
    ws: Workspace,
    game: str,
    paper: Paper | str = A4,
    booklet: bool = False,
    gallery: bool = False,
    out: Path | None = None,
    studio: Studio | None = None,
    html: bool = False,
) -> JobResult:
    """The book, written (the PDF only: `out` names the one file written; `html` writes the same
    book as HTML beside it); its own findings (chapters) listed, the model's errors too, and the
    cards' errors counted: a book that shows cards with errors is not done (exit 1)."""
    studio = studio or with_disk_cache(open_studio(ws, game))
    book = build_rulebook(ws, game, paper, gallery, studio, booklet=booklet)
    path = out or ws.output_dir(game) / ("rulebook-booklet.pdf" if booklet else "rulebook.pdf")
    listed = set(book.findings) | set(studio.check.model_errors)
    counted = card_errors(studio, listed)
    save_disk_cache(studio)  # the faces it read for their errors: laid out once, kept
    return JobResult(
        write_rulebook(book, path, paper, booklet, html), findings=sorted(listed), counted=counted
    )


def page_name(paper: Paper | str) -> str:
    """The rulebook's page ('a4', 'letter' or 'a5'; build_rulebook refuses any other); a library
    caller may name it."""
    return paper.name if isinstance(paper, Paper) else paper


def write_rulebook(
    book: Rulebook, path: Path, paper: Paper | str, booklet: bool = False, html: bool = False
) -> list[Output]:
    """The book's PDF (imposed as a booklet if asked) and, with `html`, its HTML beside it."""
    paper = page_name(paper)
    pdf = impose(book.pdf, paper) if booklet else book.pdf
    sheet = sheet_for(paper, (0.0, 0.0))[0]
    what = f"{book.pages} pages, {paper}" + (
        f", imposed as a booklet of {-(-book.pages // 4)} {sheet} sheets: {FLIP}" if booklet else ""
    )
    written = [Output(write_atomic(path, pdf), what)]
    if html:
        written.append(
            Output(write_atomic(path.with_suffix(".html"), book.html), "the same book as HTML")
        )
    return written


def kept_rulebook(ws: Workspace, game: str, paper: Paper | str) -> Rulebook | None:
    """The book output/GAME/.cache/ keeps for `paper` when nothing it is made from changed since
    it was built, else None."""
    return _kept(ws, game, _kept_name(ws, game, paper))


def _kept_name(ws: Workspace, game: str, paper: Paper | str) -> str:
    return f"rulebook-{page_name(paper)}-{inputs_digest(ws, game, page_name(paper))}"


def _kept(ws: Workspace, game: str, name: str) -> Rulebook | None:
    from ..load.plaindata import findings_from_plain
    from ..speed.cache import Store

    kept = Store(ws.output_dir(game) / ".cache").get(name)
    if isinstance(kept, tuple) and len(kept) == 4:
        try:
            html, pdf, pages, findings = kept
            if isinstance(html, str) and isinstance(pdf, bytes) and isinstance(pages, int):
                return Rulebook(html, pdf, pages, findings_from_plain(findings))
        except (TypeError, ValueError):  # signed by us, yet not this shape: built afresh
            pass
    return None


def cached_rulebook(
    ws: Workspace,
    game: str,
    paper: Paper | str,
    studio: Studio,
    wait: bool = True,
    pending: Rulebook | None = None,
) -> Rulebook:
    """The book from output/GAME/.cache/ when nothing it is made from changed since it was built,
    else built (and kept there for the next build); without `wait`, maybe untypeset
    (build_rulebook). `pending`: that untypeset book (its HTML made already), typeset now."""
    from ..load.plaindata import findings_to_plain
    from ..speed.cache import Store

    name = _kept_name(ws, game, paper)
    kept = _kept(ws, game, name)
    if kept is not None:
        return kept
    if pending is not None and pending.finish is not None:
        book = pending.finish()
    else:
        book = build_rulebook(ws, game, paper, studio=studio, wait=wait)
    if book.typeset:
        store = Store(ws.output_dir(game) / ".cache")
        store.put(
            name,
            (book.html, book.pdf, book.pages, findings_to_plain(book.findings)),
            f"rulebook-{page_name(paper)}-*",  # each paper's book kept (build's, the kit's)
        )
        prune_papers(store, "rulebook")
    return book

"""Turn the URLs a book asks for into workspace files or refusals, and refusals into findings."""

from __future__ import annotations

from pathlib import Path

from .source import Chapter

# the workspace's folder as the PDF's typesetter sees it: WeasyPrint names a picture in the PDF
# after its URL, and the real folder in it would make the same book other bytes elsewhere
WORKSPACE = "file:///cardgen-workspace/"


def _root_url(root: Path) -> str:
    return root.resolve().as_uri().rstrip("/") + "/"


def from_workspace(html: str, root: Path) -> str:
    """`html` with every URL of a file in the workspace `root` written from the stand-in folder
    (WORKSPACE); the fetcher reads them where they are (`in_workspace`)."""
    from markupsafe import escape

    real = _root_url(root)
    return html.replace(real, WORKSPACE).replace(str(escape(real)), WORKSPACE)


def in_workspace(url: str, root: Path | None) -> str:
    """A URL from the stand-in folder as the real file's URL in the workspace `root`; any other URL
    as it is."""
    if root is None or not url.startswith(WORKSPACE):
        return url
    return _root_url(root) + url[len(WORKSPACE) :]


def _where_named(
    chapters: list[Chapter], url: str, fallback: str, root: Path | None = None
) -> tuple[str, int]:
    """The chapter line that names a URL (raw HTML in Markdown) or, for a file of the workspace,
    the chapter line that names it relative to the chapter (`![x](pics/a.png)`), else the book's
    index."""
    path = _file_of(url)
    for chapter in chapters:
        names = [url]
        if path is not None and root is not None:
            base = (root / chapter.file).parent.resolve()
            if path.is_relative_to(base):
                names.append(path.relative_to(base).as_posix())
        for offset, text in enumerate(chapter.body.split("\n")):
            if any(name in text for name in names):
                return chapter.file, chapter.first_line + offset
    return fallback, 0


def _file_of(url: str) -> Path | None:
    """The local file a file: URL names, or None."""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    try:
        return Path(unquote(parts.path)).resolve()
    except (OSError, ValueError):
        return None


def _refusal(url: str, root: Path) -> tuple[str, str]:
    """Why the book could not read a URL, as a finding's code and message: an inline or workspace
    picture that is missing or not a picture cardgen reads, else a refusal (the network, files
    outside the workspace)."""
    if url.startswith("data:"):
        return "image-unreadable", "an inline picture (a data: URI) is not a picture it can read"
    path = _file_of(url)
    if path is not None and path.is_relative_to(root.resolve()):
        shown = path.relative_to(root.resolve()).as_posix()
        if not path.is_file():
            return "image-missing", f"the rulebook shows {shown}, which does not exist"
        return "image-unreadable", f"the rulebook shows {shown}, which is not a picture it can read"
    return (
        "rulebook-fetch-refused",
        f"the rulebook asks for {url}: only files inside the workspace and data: URIs are read "
        "(never the network)",
    )


def _fetcher(  # type: ignore[no-untyped-def]
    allowed: tuple[Path, ...],
    refused: list[str],
    pictures: dict[str, Path] | None = None,
    root: Path | None = None,
):
    """WeasyPrint's URL fetcher: data: URIs, the face pictures by their content addresses
    (`pictures`: rulebook.content.content_addresses) and files under `allowed` only, and of those
    only what cardgen.render.imagefile.fetch_problem lets through, judged by the bytes (an EPS named
    x.png never reaches Pillow's EPS plugin, which runs Ghostscript). Every refusal is listed in
    `refused`, by its real URL. With the workspace's `root`, URLs from the stand-in folder
    (`from_workspace`) are read where they are."""
    from urllib.parse import unquote, urlsplit

    from weasyprint.urls import URLFetcher, URLFetcherResponse

    from ..render.imagefile import disarm, fetch_problem

    disarm()  # Pillow's Ghostscript off for the process (WeasyPrint's import does so too, today)

    class WorkspaceFetcher(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers=None):  # type: ignore[no-untyped-def]
            picture = (pictures or {}).get(url)
            if picture is not None:  # cardgen's own, from its cache: read as the file it is
                url = picture.resolve().as_uri()
            url = in_workspace(url, root)
            parts = urlsplit(url)
            readable = parts.scheme == "data"
            if parts.scheme == "file" and parts.netloc in ("", "localhost"):
                path = Path(unquote(parts.path)).resolve()
                readable = any(path.is_relative_to(top) for top in allowed) and path.is_file()
            why = "cardgen reads only workspace files and data: URIs"
            if readable:
                response = super().fetch(url, headers)
                try:
                    data = response.read()
                finally:
                    response.close()
                problem = fetch_problem(data)
                if problem is None:
                    return URLFetcherResponse(response.url, data, response.headers, response.status)
                why = f"it {problem}"
            refused.append(url if len(url) < 200 else url[:200] + "…")
            raise ValueError(f"{url[:200]}: {why}")

    return WorkspaceFetcher(timeout=1, allowed_protocols={"data", "file"}, allow_redirects=False)

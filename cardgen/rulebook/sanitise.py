"""Turn a chapter's HTML (Markdown's output, raw HTML included) into HTML with no active content:
nh3 cleans it with cardgen's allow-list, and each thing it removes is a finding at the chapter line
that wrote it.

What nh3 removes is found by walking the same HTML as parsed by tinyhtml5 (a parser of the HTML
standard, as nh3's html5ever is) against the same allow-list; its place in the chapter is found by
looking for the tag, attribute or address in the chapter's lines, in order.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any, Iterator

from ..core.errors import Finding, Severity
from ..speed.memo import memo

# text markup only: everything Markdown writes, and what a designer may add by hand (no scripts,
# embedded pages, forms, style sheets, inline SVG; pictures are written ![caption](file) and go
# through cardgen)
TAGS = frozenset(
    "a abbr acronym article aside b bdi bdo blockquote br caption center cite code col colgroup "
    "data dd del "
    "details dfn div dl dt em figcaption figure footer h1 h2 h3 h4 h5 h6 header hgroup hr i img "
    "ins kbd li mark "
    "ol p pre q rp rt rtc ruby s samp section small span strike strong sub summary sup table tbody "
    "td tfoot th "
    "thead time tr tt u ul var wbr".split()
)
GENERIC = frozenset(
    {"class", "id", "title", "lang", "dir", "data-cardgen"}
)  # data-cardgen: content.py's stand-ins
ATTRIBUTES: dict[str, frozenset[str]] = {
    "a": frozenset({"href", "hreflang", "name"}),
    "img": frozenset({"src", "alt", "width", "height"}),
    "td": frozenset({"colspan", "rowspan", "headers", "align", "valign"}),
    "th": frozenset({"colspan", "rowspan", "headers", "scope", "align", "valign"}),
    "col": frozenset({"span", "width", "align"}),
    "colgroup": frozenset({"span", "width", "align"}),
    "ol": frozenset({"start", "type", "reversed"}),
    "ul": frozenset({"type"}),
    "li": frozenset({"value"}),
    "del": frozenset({"datetime"}),
    "ins": frozenset({"datetime"}),
    "time": frozenset({"datetime"}),
    "data": frozenset({"value"}),
    "details": frozenset({"open"}),
}
# the one style attribute kept: the column alignment Markdown's tables write (styles belong in
# book.css)
ALIGNED = {
    tag: {"style": {f"text-align: {side};" for side in ("left", "center", "right")}}
    for tag in ("th", "td")
}
SCHEMES = frozenset(
    {"http", "https", "mailto"}
)  # and addresses without a scheme (#chapter, picture.png)
URL_ATTRIBUTES = frozenset({"href", "src"})
SCRIPT_SCHEMES = frozenset({"javascript", "vbscript", "livescript"})
# removed together with everything inside them
CLEAN_CONTENT = frozenset(
    "script style iframe frame frameset object embed applet noscript noembed noframes template svg "
    "math "
    "textarea select title xmp plaintext".split()
)
_EMBEDS = "it embeds another page or a plug-in, which can run code"
_FORMS = "a form sends what a reader types to somewhere else"
ACTIVE: dict[str, str] = {  # tag -> why it is active content
    "script": "it would run as a program when the HTML book is opened",
    **{
        t: _EMBEDS
        for t in (
            "iframe",
            "frame",
            "frameset",
            "object",
            "embed",
            "applet",
            "portal",
            "fencedframe",
        )
    },
    **{
        t: _FORMS
        for t in (
            "form",
            "input",
            "button",
            "select",
            "textarea",
            "option",
            "optgroup",
            "datalist",
            "output",
            "keygen",
        )
    },
    "meta": 'a <meta> can reload or redirect the HTML book (http-equiv="refresh")',
    "base": "a <base> sends every link and picture of the HTML book elsewhere",
    "link": "a <link> loads a style sheet or more from the network",
    "style": "a style sheet in a chapter can load from the network and restyle the whole book "
    "(styles go in "
    "templates/GAME/rulebook/book.css)",
    "svg": "inline SVG can carry scripts (draw it in a picture file and show it with "
    "![caption](file))",
    "math": "inline MathML can carry scripts",
}
ROOTS = re.compile(
    r"<(html|body)(?=[\s/>]|$)([^<>]*)", re.I
)  # the parser drops these; a browser would keep their onload
ACTIVE_CODE, UNSUPPORTED_CODE = "rulebook-active-content", "rulebook-html-unsupported"
ACTIVE_HINT = (
    "chapters may not carry scripts, event handlers, javascript: links, embedded pages, forms or "
    "redirects; the PDF and the HTML book are made without it"
)
UNSUPPORTED_HINT = (
    "raw HTML in chapters is text markup only; styles go in templates/GAME/rulebook/book.css"
)
REPORTED = 50  # removals reported one by one in a chapter; the rest are counted in one more finding


@memo(1)
def _options() -> dict[str, Any]:
    return dict(
        tags=set(TAGS),
        clean_content_tags=set(CLEAN_CONTENT),
        attributes={"*": set(GENERIC), **{t: set(a) for t, a in ATTRIBUTES.items()}},
        tag_attribute_values=ALIGNED,
        url_schemes=set(SCHEMES) | {"data"},
        link_rel=None,
        strip_comments=True,
        attribute_filter=_keep_attribute,
    )


PICTURE_DATA = (
    "data:image/png",
    "data:image/jpeg",
    "data:image/gif",
    "data:image/webp",
    "data:image/tiff",
)


def picture_data(tag: str, attr: str, value: str) -> bool:
    """A raster picture written into the chapter (<img src="data:image/png;base64,…">): kept, as the
    book always took it; the PDF's fetcher still checks its bytes (imagefile). No other data:
    address is kept."""
    return tag == "img" and attr == "src" and value.strip().lower().startswith(PICTURE_DATA)


def _keep_attribute(tag: str, attr: str, value: str) -> str | None:
    if attr in URL_ATTRIBUTES and _scheme(value) == "data" and not picture_data(tag, attr, value):
        return None
    return value


@dataclass(frozen=True)
class Removal:
    tag: str
    attribute: str | None  # None: the element itself
    value: str
    active: bool
    message: str


def clean(html: str, file: str, first_line: int, source: str) -> tuple[str, list[Finding]]:
    """The HTML without active content, and a finding for each removal, located in `source` (the
    chapter's Markdown from `first_line` of `file`, with the directives blanked out)."""
    import nh3

    cleaned = nh3.clean(html, **_options())
    where = _Locator(source)
    removals = [*_removals(html), *_roots("\n".join(where.lines))]
    findings = []
    for removal in removals[:REPORTED]:
        line, column = where.find(removal)
        findings.append(
            Finding(
                file,
                first_line + line,
                column + 1,
                Severity.ERROR if removal.active else Severity.WARNING,
                ACTIVE_CODE if removal.active else UNSUPPORTED_CODE,
                None,
                removal.message,
                ACTIVE_HINT if removal.active else UNSUPPORTED_HINT,
            )
        )
    rest = removals[REPORTED:]
    if rest:
        active = any(r.active for r in rest)
        findings.append(
            Finding(
                file,
                findings[-1].line,
                findings[-1].column,
                Severity.ERROR if active else Severity.WARNING,
                ACTIVE_CODE if active else UNSUPPORTED_CODE,
                None,
                f"and {len(rest):,} more removals from this chapter's HTML after this one",
                ACTIVE_HINT if active else UNSUPPORTED_HINT,
            )
        )
    return cleaned, findings


def _removals(html: str) -> Iterator[Removal]:
    """What the cleaner takes out of the HTML, in document order."""
    from tinyhtml5.parser import HTMLParser

    # as a stream: tinyhtml5 reads a short string that names an existing file as that file
    root = HTMLParser(namespace_html_elements=False).parse_fragment(io.StringIO(html))
    stack = list(reversed(root))
    while stack:
        el = stack.pop()
        if not isinstance(el.tag, str):
            continue  # a comment: dropped, and never shown anyway
        foreign = "}" in el.tag  # inline SVG or MathML
        name = el.tag.rpartition("}")[2].lower()
        attrs = {
            str(k[1] if isinstance(k, tuple) else k).lower(): str(v) for k, v in el.attrib.items()
        }
        if name not in TAGS or foreign:
            handlers = sorted(a for a in attrs if a.startswith("on"))
            if name in ACTIVE:
                yield Removal(
                    name, None, "", True, f"<{name}> removed from the book: {ACTIVE[name]}"
                )
            elif handlers:
                yield Removal(
                    name,
                    None,
                    "",
                    True,
                    f"<{name} {handlers[0]}=…> removed from the book: an event handler is a script",
                )
            else:
                inside = (
                    "nor what is inside it" if name in CLEAN_CONTENT else "only the text inside it"
                )
                yield Removal(name, None, "", False, f"<{name}> is not kept in the book ({inside})")
            if name in CLEAN_CONTENT or foreign:
                continue
        else:
            yield from _attribute_removals(name, attrs)
        stack.extend(reversed(el))


def _attribute_removals(tag: str, attrs: dict[str, str]) -> Iterator[Removal]:
    allowed = GENERIC | ATTRIBUTES.get(tag, frozenset())
    for attr, value in attrs.items():
        if attr.startswith("on"):
            yield Removal(
                tag,
                attr,
                value,
                True,
                f"{attr}= removed from <{tag}>: an event handler is a script",
            )
        elif attr == "style" and value in ALIGNED.get(tag, {}).get("style", ()):
            continue
        elif attr not in allowed:
            yield Removal(tag, attr, value, False, f"{attr}= on <{tag}> is not kept in the book")
        elif attr in URL_ATTRIBUTES:
            scheme = _scheme(value)
            if scheme is None or scheme in SCHEMES or picture_data(tag, attr, value):
                continue
            if scheme in SCRIPT_SCHEMES or (scheme == "data" and tag == "a"):
                yield Removal(
                    tag,
                    attr,
                    value,
                    True,
                    f"{scheme}: address removed from <{tag} {attr}>: it would "
                    "run code when followed",
                )
            else:
                yield Removal(
                    tag,
                    attr,
                    value,
                    False,
                    f"{scheme}: address on <{tag} {attr}> is not kept (the "
                    "book links to http:, https: and mailto: addresses and its "
                    "own pages)",
                )


def _scheme(url: str) -> str | None:
    """A URL's scheme as a browser reads it (spaces and controls around it and tabs and newlines in
    it ignored), lower case; None for a relative address."""
    bare = re.sub(r"[\t\n\r]", "", url).strip("".join(map(chr, range(33))))
    m = re.match(r"([a-zA-Z][a-zA-Z0-9+.-]*):", bare)
    return m.group(1).lower() if m else None


def _roots(source: str) -> Iterator[Removal]:
    """<html> and <body> tags in a chapter: a fragment has none, so the parser drops them, but a
    browser would give their attributes (an onload=) to the book's own page."""
    for m in ROOTS.finditer(source):
        name = m.group(1).lower()
        handler = re.search(r"(?<![\w:-])(on[a-z]+)\s*=", m.group(2), re.I)
        if handler:
            yield Removal(
                name,
                None,
                "",
                True,
                f"<{name} {handler.group(1).lower()}=…> removed from the book: "
                "an event handler is a script",
            )
        else:
            yield Removal(
                name,
                None,
                "",
                False,
                f"<{name}> is not kept in the book (the book makes its own page)",
            )


class _Locator:
    """Finds each removal's line and column in the chapter's source. Removals come in document
    order, which is the source's: each is looked for after the one before (an address by its text,
    an attribute after its element's tag, an element by its tag), and only when it is not there,
    from the chapter's start."""

    def __init__(self, source: str) -> None:
        def spaces(m: re.Match[str]) -> str:
            return re.sub(r"[^\n]", " ", m.group(0))

        text = re.sub(
            r"<!--.*?(?:-->|\Z)", spaces, source, flags=re.S
        )  # comments are stripped, never shown
        text = re.sub(r"`[^`\n]*`", spaces, text)  # code spans show their HTML as text
        self.lines = text.split("\n")
        self.cursor = (0, 0)

    def _search(self, pattern: re.Pattern[str], start: tuple[int, int]) -> tuple[int, int] | None:
        line, column = start
        for i in range(line, len(self.lines)):
            m = pattern.search(self.lines[i], column if i == line else 0)
            if m:
                return i, m.start()
        return None

    def _seek(
        self, pattern: re.Pattern[str], start: tuple[int, int] | None = None
    ) -> tuple[int, int] | None:
        return self._search(pattern, start or self.cursor) or self._search(pattern, (0, 0))

    def find(self, removal: Removal) -> tuple[int, int]:
        """(0-based line, 0-based column) of the removal; the chapter's first line when it cannot be
        seen."""
        tag = re.compile(rf"<{re.escape(removal.tag)}(?=[\s/>]|$)", re.I)
        if removal.attribute is None:
            hit = self._seek(tag)
        else:
            value = removal.value.strip()[:60]
            hit = self._seek(re.compile(re.escape(value), re.I)) if value else None
            if hit is None:
                attr = re.compile(
                    rf"(?<![\w:-]){re.escape(removal.attribute)}(?=\s*=|[\s/>}}]|$)", re.I
                )
                hit = self._seek(attr, self._seek(tag))
        if hit is None:
            return 0, 0
        self.cursor = (hit[0], hit[1] + 1)
        return hit


POLICY = (
    "<meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'none'; object-src 'none'; "
    "frame-src 'none'; base-uri 'none'; form-action 'none'\">"
)


def without_scripts(html: str) -> str:
    """The HTML book as a reader opens it, with a content security policy that runs no script,
    plugin, frame or form, whatever a workspace's own page template (book.html.j2, never sanitised)
    holds. The PDF is made before this and does not change."""
    match = re.match(r"\s*<!doctype[^>]*>\n?", html, re.I)
    at = match.end() if match else 0
    return html[:at] + POLICY + "\n" + html[at:]

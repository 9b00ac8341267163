"""Turn a chapter's Markdown into the part of it the book lays out, within the book's limits.

Length, nesting, table and parsing-work limits (the estimates are rulebook.markdowncost's): each
overrun is a finding at the line where it happens, and the chapter is printed up to that line.

The limits keep every later step bounded: Python-Markdown and WeasyPrint recurse once per nesting
level (5,000 nested quotes were a RecursionError), HTML parsers slow down with the depth of open
elements, Markdown reads each unclosed '[' or '<tag' to the end of its paragraph or chapter, and
WeasyPrint lays out about fifteen pages a second. They are counted on the source, cheaply and from
above (an unclosed tag counts as open), so what reaches the parsers is within them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import Finding, Severity
from .markdowncost import PREFIX, nesting, open_inline, work

CHAPTER_LINES = 4_000  # ≈ 120 pages of prose; the bundled books' longest chapter has 63
CHAPTER_CHARS = 200_000
LINE_CHARS = 10_000  # one line (≈ 1,700 words: a paragraph written on one line fits)
BOOK_LINES = 20_000  # every chapter and the introduction together
BOOK_CHARS = 1_000_000
CHAPTERS = 500  # each is a page of its own at least; the bundled books have up to 17
NESTING = 12  # quotes (>), list levels and indentation steps (4 columns) in front of one line
HTML_DEPTH = 24  # raw HTML elements open inside each other
INLINE_DEPTH = 12  # emphasis (* and _) and link brackets open inside each other in one paragraph
# what WeasyPrint gets at most, checked on the chapter's finished HTML whatever the estimates above
# missed (it recursed past Python's limit at 134 nested list items; the three above and cardgen's
# own HTML stay under about 85)
DOM_DEPTH = 96
TAG_CHARS = 2_000  # one raw HTML tag, attributes included
TABLE_ROWS = 1_000  # body rows of one table (Markdown or HTML)
# Python-Markdown's inline work grows with the square of a paragraph: it rewrites the paragraph's
# text for each construct in it, files each element it makes by a search of the ones before (27,000
# links in one paragraph took 14 s), reads each '[' to its closing bracket (12,000 unclosed took 20
# s), and its HTML scanner reads from each '<tag' to the next '>' (16,000 took 23 s).
# rulebook.markdowncost.work() estimates it, in units of about a nanosecond (the weights are
# measured); over the whole book:
WORK = 1_000_000_000
# WeasyPrint lays out about a thousand elements a second (a cost symbol, an emphasis, a table cell,
# each element of a glossary or figure): the elements the book's lines make, estimated from above,
# over the book
ELEMENTS = 15_000

VOID = frozenset(
    "area base br col embed hr img input keygen link meta param source track wbr".split()
)
# a start tag of the key closes an open element of these names first (the end tags HTML lets one
# leave out)
_TABLE_PARTS = {"thead", "tbody", "tfoot", "tr", "td", "th"}
SIBLINGS = {
    "li": {"li"},
    "dt": {"dt", "dd"},
    "dd": {"dt", "dd"},
    "p": {"p"},
    "option": {"option"},
    "tr": {"tr", "td", "th"},
    "td": {"td", "th"},
    "th": {"td", "th"},
    "rt": {"rt", "rp"},
    "rp": {"rt", "rp"},
    "thead": _TABLE_PARTS,
    "tbody": _TABLE_PARTS,
    "tfoot": _TABLE_PARTS,
}
KNOWN = frozenset(  # names an incomplete tag ('<div' with no '>') still opens an element by
    "a abbr article aside b bdi bdo blockquote body button caption cite code colgroup data dd del "
    "details dfn div "
    "dl dt em fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 head header html i ins kbd "
    "label legend li "
    "main mark nav noscript object ol optgroup option p pre q rp rt ruby s samp section select "
    "small span strong "
    "sub summary sup table tbody td template tfoot th thead time tr u ul var video audio canvas "
    "center font".split()
)
# HTML tags that end inline SVG or MathML where they stand (the HTML standard's list)
BREAKOUT = frozenset(
    "b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img "
    "li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var "
    "font".split()
)

# a comment, or a raw HTML tag with its attributes (quoted values may hold < and >) and its closing
# '>'
_TOKEN = re.compile(
    r"<!--.*?(?:-->|\Z)"
    r"|<(/?)([a-zA-Z][a-zA-Z0-9:-]*)(?=[\s/>]|\Z)((?:[^<>\"']|\"[^\"]*\"|'[^']*')*)(>?)",
    re.S,
)
# elements whose content is text, not markup, up to their end tag (outside SVG and MathML)
RAW_TEXT = frozenset("script style textarea title xmp iframe noembed noframes plaintext".split())
_SEPARATOR = re.compile(
    r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$"
)  # a table's |---|:--:|
_ELEMENT = re.compile(
    r'<(/?)([a-zA-Z][^\s/>]*)(?:[^>"]|"[^"]*")*>'
)  # in serialised HTML: values are "-quoted


@dataclass
class Budget:
    """What is left of the whole book's limits as its chapters are read in order."""

    lines: int = BOOK_LINES
    chars: int = BOOK_CHARS
    work: int = WORK
    spent: bool = False  # the book reached its limit: later chapters are left out


@dataclass
class Overrun:
    index: int  # 0-based line of the chapter's body where it is cut
    code: str
    message: str


def _html_overrun(body: str) -> Overrun | None:
    """The first raw HTML tag that opens an element too deep, starts a table row past the limit or
    is too long. Inside inline SVG or MathML, '<tag/>' closes itself (as there in HTML) until an
    HTML tag breaks out."""
    stack: list[str] = []
    rows: list[int] = []  # body rows so far of each open table, innermost last
    foreign: int | None = None  # where the open <svg> or <math> is in the stack
    at = last = 0  # the line of the tag looked at, and its offset

    def pop() -> None:
        nonlocal foreign
        if stack.pop() == "table":
            rows.pop()
        if foreign is not None and len(stack) <= foreign:
            foreign = None

    pos = 0
    while (m := _TOKEN.search(body, pos)) is not None:
        pos = m.end()
        if m.group(2) is None:
            continue  # a comment
        closing, name, complete = m.group(1), m.group(2).lower(), m.group(4)
        at, last = at + body.count("\n", last, m.start()), m.start()
        if len(m.group(0)) > TAG_CHARS:
            return Overrun(
                at,
                "rulebook-too-long",
                f"this HTML tag is {len(m.group(0)):,} characters long; "
                f"a tag may have {TAG_CHARS:,}",
            )
        if closing:
            if name in stack:
                while stack[-1] != name:
                    pop()
                pop()
            continue
        if foreign is not None and name in BREAKOUT:
            foreign = None
        if name in RAW_TEXT and foreign is None:  # stepped over to its end tag
            end = re.compile(rf"</{name}", re.I).search(body, pos)
            pos = end.start() if end else len(body)
            continue
        if (
            name in VOID
            or not (complete or name in KNOWN)
            or (foreign is not None and m.group(3).endswith("/"))
        ):
            continue
        while stack and stack[-1] in SIBLINGS.get(name, ()):
            pop()
        if name == "tr" and rows:
            rows[-1] += 1
            if rows[-1] > TABLE_ROWS:
                return Overrun(
                    at,
                    "rulebook-table-too-big",
                    f"this table has more than {TABLE_ROWS:,} rows; "
                    f"a table may have {TABLE_ROWS:,}",
                )
        stack.append(name)
        if name == "table":
            rows.append(0)
        if name in ("svg", "math") and foreign is None:
            foreign = len(stack) - 1
        if len(stack) > HTML_DEPTH:
            return Overrun(
                at,
                "rulebook-too-deep",
                f"HTML elements are nested more than {HTML_DEPTH} deep here "
                f"(<{name}>); the book allows {HTML_DEPTH}",
            )
    return None


def _overrun(lines: list[str], budget: Budget) -> Overrun | None:
    """The first line past one of the limits, in the order the lines are read."""
    html = _html_overrun("\n".join(lines))
    costs = work(lines)
    spent = chars = 0
    block = 0  # lines in the current block (paragraph, table…) so far
    inline = 0  # emphasis and link brackets open in the current paragraph
    table: int | None = None  # body rows of the Markdown table the block is, if it is one
    for i, line in enumerate(lines):
        chars += len(line) + 1
        spent += costs[i]
        if i >= CHAPTER_LINES:
            return Overrun(
                i,
                "rulebook-too-long",
                f"the chapter has {len(lines):,} lines; a chapter may have {CHAPTER_LINES:,}",
            )
        if len(line) > LINE_CHARS:
            return Overrun(
                i,
                "rulebook-too-long",
                f"this line has {len(line):,} characters; a line may have {LINE_CHARS:,}",
            )
        if chars > CHAPTER_CHARS:
            return Overrun(
                i,
                "rulebook-too-long",
                f"the chapter passes {CHAPTER_CHARS:,} characters here; "
                "that is the limit for one chapter",
            )
        if i >= budget.lines or chars > budget.chars:
            budget.spent = True
            return Overrun(
                i,
                "rulebook-too-long",
                f"the book passes {BOOK_LINES:,} lines or {BOOK_CHARS:,} "
                "characters here (its chapters together); the rest is left out",
            )
        if spent > budget.work:
            budget.spent = True
            return Overrun(
                i,
                "rulebook-too-slow",
                "the inline markup up to here ('[', '*', '_', '<', '&', … in "
                "long paragraphs, brackets and tags left open) would make "
                f"converting the book too slow (its estimate passes {WORK:,}); "
                "the rest is left out",
            )
        if html is not None and html.index == i:
            return html
        depth = nesting(line)
        if depth > NESTING:
            return Overrun(
                i,
                "rulebook-too-deep",
                f"this line is nested {depth} levels deep (quotes, lists and "
                f"indentation); the book allows {NESTING}",
            )
        if not line.strip():
            block, table, inline = 0, None, 0
            continue
        inline, deepest = open_inline(line, inline)
        if deepest > INLINE_DEPTH:
            return Overrun(
                i,
                "rulebook-too-deep",
                f"emphasis (* and _) and link brackets are nested more than "
                f"{INLINE_DEPTH} deep here; the book allows {INLINE_DEPTH}",
            )
        if table is not None:
            table += 1
            if table > TABLE_ROWS:
                return Overrun(
                    i,
                    "rulebook-table-too-big",
                    f"this table has more than {TABLE_ROWS:,} rows; "
                    f"a table may have {TABLE_ROWS:,}",
                )
        elif (
            block == 1 and "|" in line and _SEPARATOR.match(line, len(PREFIX.match(line).group(0)))  # type: ignore[union-attr]
        ):
            table = 0
        block += 1
    return None


def dom_cut(html: str) -> tuple[str, bool]:
    """A chapter's finished HTML, cut before the first element nested more than DOM_DEPTH deep (its
    open elements closed, then a marker), and whether it was cut."""
    stack: list[str] = []
    for m in _ELEMENT.finditer(html):
        name = m.group(2).lower()
        if m.group(1):
            if name in stack:
                while stack.pop() != name:
                    pass
        elif name not in VOID and not m.group(0).endswith("/>"):
            stack.append(name)
            if len(stack) > DOM_DEPTH:
                stack.pop()
                closing = "".join(f"</{tag}>" for tag in reversed(stack))
                return (
                    html[: m.start()]
                    + closing
                    + '<div class="problem">The rest of this chapter is left out: '
                    f"its elements nest more than {DOM_DEPTH} deep</div>"
                ), True
    return html, False


def bound(
    body: str, shown: str, first_line: int, budget: Budget
) -> tuple[str, str | None, list[Finding]]:
    """The chapter's body within the limits, why its end is left out (None when it is not) and the
    finding at the line it is cut; what it keeps is taken from the book's budget."""
    lines = body.split("\n")
    over = _overrun(lines, budget)
    kept = lines if over is None else lines[: over.index]
    budget.lines -= len(kept)
    budget.chars -= sum(len(line) + 1 for line in kept)
    budget.work -= sum(work(kept))
    if over is None:
        return body, None, []
    left = len(lines) - over.index
    finding = Finding(
        shown,
        first_line + over.index,
        1,
        Severity.ERROR,
        over.code,
        None,
        over.message,
        "the book prints this chapter up to here; "
        f"{left:,} line{'s' if left != 1 else ''} left out",
    )
    return "\n".join(kept), over.message, [finding]

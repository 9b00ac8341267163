"""Turn a chapter's Markdown into the part of it the book lays out: length, nesting, table and parsing-work
limits, each overrun a finding at the line where it happens (the chapter is printed up to that line).

The limits keep every later step bounded: Python-Markdown and WeasyPrint recurse once per nesting level
(5,000 nested quotes were a RecursionError), HTML parsers slow down with the depth of open elements,
Markdown reads each unclosed '[' or '<tag' to the end of its paragraph or chapter, and WeasyPrint lays out
about fifteen pages a second. They are counted on the source, cheaply and from above (an unclosed tag counts
as open), so what reaches the parsers is within them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import Finding, Severity

CHAPTER_LINES = 4_000  # ≈ 120 pages of prose; the bundled books' longest chapter has 63
CHAPTER_CHARS = 200_000
LINE_CHARS = 10_000  # one line (≈ 1,700 words: a paragraph written on one line fits)
BOOK_LINES = 20_000  # every chapter and the introduction together
BOOK_CHARS = 1_000_000
CHAPTERS = 500  # each is a page of its own at least; the bundled books have up to 17
NESTING = 12  # quotes (>), list levels and indentation steps (4 columns) in front of one line
HTML_DEPTH = 24  # raw HTML elements open inside each other
INLINE_DEPTH = 12  # emphasis (* and _) and link brackets open inside each other in one paragraph
# what WeasyPrint gets at most, checked on the chapter's finished HTML whatever the estimates above missed
# (it recursed past Python's limit at 134 nested list items; the three above and cardgen's own HTML stay
# under about 85)
DOM_DEPTH = 96
TAG_CHARS = 2_000  # one raw HTML tag, attributes included
TABLE_ROWS = 1_000  # body rows of one table (Markdown or HTML)
# Python-Markdown's inline work grows with the square of a paragraph: it rewrites the paragraph's text for
# each construct in it, files each element it makes by a search of the ones before (27,000 links in one
# paragraph took 14 s), reads each '[' to its closing bracket (12,000 unclosed took 20 s), and its HTML
# scanner reads from each '<tag' to the next '>' (16,000 took 23 s). work() estimates it, in units of about a
# nanosecond (the weights are measured); over the whole book:
WORK = 1_000_000_000
ELEMENT_WEIGHT, BRACKET_WEIGHT, TAG_WEIGHT = 20, 300, 60
# WeasyPrint lays out about a thousand elements a second (a cost symbol, an emphasis, a table cell, each
# element of a glossary or figure): the elements the book's lines make, estimated from above, over the book
ELEMENTS = 15_000

VOID = frozenset("area base br col embed hr img input keygen link meta param source track wbr".split())
# a start tag of the key closes an open element of these names first (the end tags HTML lets one leave out)
_TABLE_PARTS = {"thead", "tbody", "tfoot", "tr", "td", "th"}
SIBLINGS = {"li": {"li"}, "dt": {"dt", "dd"}, "dd": {"dt", "dd"}, "p": {"p"}, "option": {"option"},
            "tr": {"tr", "td", "th"}, "td": {"td", "th"}, "th": {"td", "th"}, "rt": {"rt", "rp"}, "rp": {"rt", "rp"},
            "thead": _TABLE_PARTS, "tbody": _TABLE_PARTS, "tfoot": _TABLE_PARTS}
KNOWN = frozenset(  # names an incomplete tag ('<div' with no '>') still opens an element by
    "a abbr article aside b bdi bdo blockquote body button caption cite code colgroup data dd del details dfn div "
    "dl dt em fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 head header html i ins kbd label legend li "
    "main mark nav noscript object ol optgroup option p pre q rp rt ruby s samp section select small span strong "
    "sub summary sup table tbody td template tfoot th thead time tr u ul var video audio canvas center font".split())
# HTML tags that end inline SVG or MathML where they stand (the HTML standard's list)
BREAKOUT = frozenset("b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img "
                     "li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var "
                     "font".split())

# a comment, or a raw HTML tag with its attributes (quoted values may hold < and >) and its closing '>'
_TOKEN = re.compile(r"<!--.*?(?:-->|\Z)"
                    r"|<(/?)([a-zA-Z][a-zA-Z0-9:-]*)(?=[\s/>]|\Z)((?:[^<>\"']|\"[^\"]*\"|'[^']*')*)(>?)", re.S)
# elements whose content is text, not markup, up to their end tag (outside SVG and MathML)
RAW_TEXT = frozenset("script style textarea title xmp iframe noembed noframes plaintext".split())
_PREFIX = re.compile(r"[ \t]*(?:(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]*)*")
_PREFIX_PART = re.compile(r" +|>|[-*+]|\d{1,9}[.)]")
_RULE = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")  # a horizontal rule, not three nested lists
_SEPARATOR = re.compile(r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")  # a table's |---|:--:|
_OPEN_TAG = re.compile(r"<[a-zA-Z]")
_INLINE = re.compile(r"\\.|\*+|_+|\[|\]")
_ELEMENT = re.compile(r'<(/?)([a-zA-Z][^\s/>]*)(?:[^>"]|"[^"]*")*>')  # in serialised HTML: values are "-quoted
_CONSTRUCT = re.compile(r"[\[<&\\`*_'\"]|--+|\.\.\.")  # what Markdown's inline patterns (and smarty) act on
_BRACKETS = re.compile(r"\\.|\]\(|[\[\])]")
_CONTEXT = re.compile(r"[ \t]*(?:[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|#|\|)")  # starts its own inline text


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


def nesting(line: str) -> int:
    """How deep a line sits: each quote marker, list marker and 4 columns of indentation in front of it (the
    space that follows a marker is part of the marker)."""
    if not line.strip() or _RULE.match(line):
        return 0
    prefix = _PREFIX.match(line).group(0).replace("\t", "    ")  # type: ignore[union-attr]
    depth, after_marker = 0, False
    for token in _PREFIX_PART.findall(prefix):
        if token.startswith(" "):
            depth += (len(token) - after_marker) // 4
            after_marker = False
        else:
            depth, after_marker = depth + 1, True
    return depth


def _html_overrun(body: str) -> Overrun | None:
    """The first raw HTML tag that opens an element too deep, starts a table row past the limit or is too long.
    Inside inline SVG or MathML, '<tag/>' closes itself (as there in HTML) until an HTML tag breaks out."""
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
            return Overrun(at, "rulebook-too-long", f"this HTML tag is {len(m.group(0)):,} characters long; "
                                                    f"a tag may have {TAG_CHARS:,}")
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
        if name in VOID or not (complete or name in KNOWN) or (foreign is not None and m.group(3).endswith("/")):
            continue
        while stack and stack[-1] in SIBLINGS.get(name, ()):
            pop()
        if name == "tr" and rows:
            rows[-1] += 1
            if rows[-1] > TABLE_ROWS:
                return Overrun(at, "rulebook-table-too-big", f"this table has more than {TABLE_ROWS:,} rows; "
                                                             f"a table may have {TABLE_ROWS:,}")
        stack.append(name)
        if name == "table":
            rows.append(0)
        if name in ("svg", "math") and foreign is None:
            foreign = len(stack) - 1
        if len(stack) > HTML_DEPTH:
            return Overrun(at, "rulebook-too-deep", f"HTML elements are nested more than {HTML_DEPTH} deep here "
                                                    f"(<{name}>); the book allows {HTML_DEPTH}")
    return None


def work(lines: list[str]) -> list[int]:
    """For each line, an estimate of Markdown's work for what is on it: for each inline construct ('[', '<',
    '&', '\\', '`', '*', '_', quotes, '--', '...'), the length of its paragraph, list item, heading or table
    row; for each inline element it may make, the elements of that text (ELEMENT_WEIGHT each); from each '['
    and '](' to its closing bracket or the end of its paragraph (BRACKET_WEIGHT a character); from each '<tag'
    to the next '>' (TAG_WEIGHT a character)."""
    text = "\n".join(lines)
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    cost = [0] * len(lines)
    ahead = later = len(text)  # the nearest '>' after the tag looked at, and the tag after it (from the end)
    for m in reversed(list(_OPEN_TAG.finditer(text))):
        found = text.find(">", m.start(), later)  # none between `later` and `ahead`: each stretch read once
        ahead, later = (found if found >= 0 else ahead), m.start()
        cost[_line_of(starts, m.start())] += TAG_WEIGHT * (ahead - m.start())
    begin = 0
    for i in range(len(lines) + 1):  # each '[' and '](' read to its closing bracket, paragraph by paragraph
        if i < len(lines) and lines[i].strip():
            continue
        end = starts[i] - 1 if i < len(lines) else len(text)
        stack: list[tuple[str, int]] = []
        for m in _BRACKETS.finditer(text, starts[begin] if begin < len(lines) else len(text), max(end, 0)):
            token = m.group(0)
            if token != "[" and stack and token[0] == stack[-1][0]:  # ']', ')' or the ']' of '](' closes one
                cost[_line_of(starts, stack[-1][1])] += BRACKET_WEIGHT * (m.start() - stack[-1][1])
                stack.pop()
            if token in ("[", "]("):
                stack.append(("]" if token == "[" else ")", m.start() + len(token) - 1))
        for _, start in stack:  # never closed: read to the end of the paragraph
            cost[_line_of(starts, start)] += BRACKET_WEIGHT * (end - start)
        begin = i + 1
    context: list[tuple[int, int, int]] = []  # (line, constructs, elements on it) of the text being gathered
    length = elements = 0
    for i, line in enumerate([*lines, ""]):
        if not line.strip() or _CONTEXT.match(line) or i == len(lines):  # a new paragraph, item, heading or row
            for at, constructs, made in context:
                cost[at] += constructs * length + ELEMENT_WEIGHT * made * elements
            context, length, elements = [], 0, 0
        if line.strip():
            made = line.count("[") + (line.count("*") + line.count("_") + line.count("`")) // 2
            context.append((i, len(_CONSTRUCT.findall(line)), made))
            length, elements = length + len(line) + 1, elements + made
    return cost


def _line_of(starts: list[int], offset: int) -> int:
    from bisect import bisect_right

    return bisect_right(starts, offset) - 1


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
            return Overrun(i, "rulebook-too-long", f"the chapter has {len(lines):,} lines; a chapter may have "
                                                   f"{CHAPTER_LINES:,}")
        if len(line) > LINE_CHARS:
            return Overrun(i, "rulebook-too-long", f"this line has {len(line):,} characters; a line may have "
                                                   f"{LINE_CHARS:,}")
        if chars > CHAPTER_CHARS:
            return Overrun(i, "rulebook-too-long", f"the chapter passes {CHAPTER_CHARS:,} characters here; "
                                                   "that is the limit for one chapter")
        if i >= budget.lines or chars > budget.chars:
            budget.spent = True
            return Overrun(i, "rulebook-too-long", f"the book passes {BOOK_LINES:,} lines or {BOOK_CHARS:,} "
                                                   "characters here (its chapters together); the rest is left out")
        if spent > budget.work:
            budget.spent = True
            return Overrun(i, "rulebook-too-slow", "the inline markup up to here ('[', '*', '_', '<', '&', … in "
                                                   "long paragraphs, brackets and tags left open) would make "
                                                   f"converting the book too slow (its estimate passes {WORK:,}); "
                                                   "the rest is left out")
        if html is not None and html.index == i:
            return html
        depth = nesting(line)
        if depth > NESTING:
            return Overrun(i, "rulebook-too-deep", f"this line is nested {depth} levels deep (quotes, lists and "
                                                   f"indentation); the book allows {NESTING}")
        if not line.strip():
            block, table, inline = 0, None, 0
            continue
        inline, deepest = _inline(line, inline)
        if deepest > INLINE_DEPTH:
            return Overrun(i, "rulebook-too-deep", f"emphasis (* and _) and link brackets are nested more than "
                                                   f"{INLINE_DEPTH} deep here; the book allows {INLINE_DEPTH}")
        if table is not None:
            table += 1
            if table > TABLE_ROWS:
                return Overrun(i, "rulebook-table-too-big", f"this table has more than {TABLE_ROWS:,} rows; "
                                                            f"a table may have {TABLE_ROWS:,}")
        elif block == 1 and "|" in line and _SEPARATOR.match(line, len(_PREFIX.match(line).group(0))):  # type: ignore[union-attr]
            table = 0
        block += 1
    return None


def _inline(line: str, depth: int) -> tuple[int, int]:
    """The emphasis and link brackets open after a line of a paragraph, `depth` open before it, and the most
    open at once in it (a run of '*' or '_' opens before a word, closes after one; '*' inside a word does
    either; three open two)."""
    deepest = depth
    for m in _INLINE.finditer(line):
        token = m.group(0)
        if token[0] == "\\":
            continue
        if token in "[]":
            depth = depth + 1 if token == "[" else max(0, depth - 1)
            deepest = max(deepest, depth)
            continue
        before = line[m.start() - 1] if m.start() else " "
        after = line[m.end()] if m.end() < len(line) else " "
        levels = 2 if len(token) >= 3 else 1
        opens, closes = not after.isspace(), not before.isspace()
        if opens and closes:  # inside a word: '_' is a letter there, '*' closes what is open or opens
            if token[0] == "_":
                continue
            opens = depth == 0
        if opens:
            depth += levels
            deepest = max(deepest, depth)
        elif closes:
            depth = max(0, depth - levels)
    return depth, deepest


def dom_cut(html: str) -> tuple[str, bool]:
    """A chapter's finished HTML, cut before the first element nested more than DOM_DEPTH deep (its open
    elements closed, then a marker), and whether it was cut."""
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
                return (html[:m.start()] + closing + '<div class="problem">The rest of this chapter is left out: '
                        f"its elements nest more than {DOM_DEPTH} deep</div>"), True
    return html, False


def bound(body: str, shown: str, first_line: int, budget: Budget) -> tuple[str, str | None, list[Finding]]:
    """The chapter's body within the limits, why its end is left out (None when it is not) and the finding
    at the line it is cut; what it keeps is taken from the book's budget."""
    lines = body.split("\n")
    over = _overrun(lines, budget)
    kept = lines if over is None else lines[:over.index]
    budget.lines -= len(kept)
    budget.chars -= sum(len(line) + 1 for line in kept)
    budget.work -= sum(work(kept))
    if over is None:
        return body, None, []
    left = len(lines) - over.index
    finding = Finding(shown, first_line + over.index, 1, Severity.ERROR, over.code, None, over.message,
                      f"the book prints this chapter up to here; {left:,} line{'s' if left != 1 else ''} left out")
    return "\n".join(kept), over.message, [finding]

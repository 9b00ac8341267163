"""Turn a chapter's Markdown lines into what they cost the parser: nesting, open emphasis, work."""

from __future__ import annotations

import re

# the weights of work()'s estimate, in units of about a nanosecond of Python-Markdown's time
# (measured; see WORK in rulebook.limits)
ELEMENT_WEIGHT, BRACKET_WEIGHT, TAG_WEIGHT = 20, 300, 60

PREFIX = re.compile(r"[ \t]*(?:(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]*)*")
_PREFIX_PART = re.compile(r" +|>|[-*+]|\d{1,9}[.)]")
_RULE = re.compile(
    r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$"
)  # a horizontal rule, not three nested lists
_OPEN_TAG = re.compile(r"<[a-zA-Z]")
_INLINE = re.compile(r"\\.|\*+|_+|\[|\]")
_CONSTRUCT = re.compile(
    r"[\[<&\\`*_'\"]|--+|\.\.\."
)  # what Markdown's inline patterns (and smarty) act on
_BRACKETS = re.compile(r"\\.|\]\(|[\[\])]")
_CONTEXT = re.compile(
    r"[ \t]*(?:[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|#|\|)"
)  # starts its own inline text


def nesting(line: str) -> int:
    """How deep a line sits: each quote marker, list marker and 4 columns of indentation in front of
    it (the space that follows a marker is part of the marker)."""
    if not line.strip() or _RULE.match(line):
        return 0
    prefix = PREFIX.match(line).group(0).replace("\t", "    ")  # type: ignore[union-attr]
    depth, after_marker = 0, False
    for token in _PREFIX_PART.findall(prefix):
        if token.startswith(" "):
            depth += (len(token) - after_marker) // 4
            after_marker = False
        else:
            depth, after_marker = depth + 1, True
    return depth


def work(lines: list[str]) -> list[int]:
    """For each line, an estimate of Markdown's work for what is on it: for each inline construct
    ('[', '<', '&', '\\', '`', '*', '_', quotes, '--', '...'), the length of its paragraph, list
    item, heading or table row; for each inline element it may make, the elements of that text
    (ELEMENT_WEIGHT each); from each '[' and '](' to its closing bracket or the end of its paragraph
    (BRACKET_WEIGHT a character); from each '<tag' to the next '>' (TAG_WEIGHT a character)."""
    text = "\n".join(lines)
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    cost = [0] * len(lines)
    ahead = later = len(
        text
    )  # the nearest '>' after the tag looked at, and the tag after it (from the end)
    for m in reversed(list(_OPEN_TAG.finditer(text))):
        found = text.find(
            ">", m.start(), later
        )  # none between `later` and `ahead`: each stretch read once
        ahead, later = (found if found >= 0 else ahead), m.start()
        cost[_line_of(starts, m.start())] += TAG_WEIGHT * (ahead - m.start())
    begin = 0
    for i in range(
        len(lines) + 1
    ):  # each '[' and '](' read to its closing bracket, paragraph by paragraph
        if i < len(lines) and lines[i].strip():
            continue
        end = starts[i] - 1 if i < len(lines) else len(text)
        stack: list[tuple[str, int]] = []
        for m in _BRACKETS.finditer(
            text, starts[begin] if begin < len(lines) else len(text), max(end, 0)
        ):
            token = m.group(0)
            if (
                token != "[" and stack and token[0] == stack[-1][0]
            ):  # ']', ')' or the ']' of '](' closes one
                cost[_line_of(starts, stack[-1][1])] += BRACKET_WEIGHT * (m.start() - stack[-1][1])
                stack.pop()
            if token in ("[", "]("):
                stack.append(("]" if token == "[" else ")", m.start() + len(token) - 1))
        for _, start in stack:  # never closed: read to the end of the paragraph
            cost[_line_of(starts, start)] += BRACKET_WEIGHT * (end - start)
        begin = i + 1
    context: list[
        tuple[int, int, int]
    ] = []  # (line, constructs, elements on it) of the text being gathered
    length = elements = 0
    for i, line in enumerate([*lines, ""]):
        if (
            not line.strip() or _CONTEXT.match(line) or i == len(lines)
        ):  # a new paragraph, item, heading or row
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


def open_inline(line: str, depth: int) -> tuple[int, int]:
    """The emphasis and link brackets open after a line of a paragraph, `depth` open before it, and
    the most open at once in it (a run of '*' or '_' opens before a word, closes after one; '*'
    inside a word does either; three open two)."""
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
        if (
            opens and closes
        ):  # inside a word: '_' is a letter there, '*' closes what is open or opens
            if token[0] == "_":
                continue
            opens = depth == 0
        if opens:
            depth += levels
            deepest = max(deepest, depth)
        elif closes:
            depth = max(0, depth - levels)
    return depth, deepest

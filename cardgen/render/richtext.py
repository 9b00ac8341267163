"""Turn tokenised card text (model.text) into lines in a box, and shrink it until it fits."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.text import BOLD, ITALIC, Atom, Paragraph, RichRules, Word, parse
from .fonts import FontSet

ICON_SCALE = 0.92  # icon diameter as a fraction of the font size
STUB = 0.8  # the anti-widow wrap never leaves a two-line paragraph's first line shorter than this
PARA_GAP = 0.35  # extra space between paragraphs, as a fraction of the font size


@dataclass(frozen=True)
class Family:
    regular: str
    bold: str
    italic: str
    bolditalic: str
    # font stems a character the family's font lacks is looked for in, in order (then DejaVu Sans)
    fallback: tuple[str, ...] = ()

    def stem(self, style: int) -> str:
        return (self.regular, self.bold, self.italic, self.bolditalic)[style]


@dataclass
class Line:
    words: list[Word]
    width: float
    paragraph_start: bool = False
    advances: list[tuple[float, ...]] = field(
        default_factory=list
    )  # each word's atom widths, for painting


@dataclass
class Layout:
    lines: list[Line]
    size: float
    leading: float
    height: float
    widest: float
    rule_after: int | None = (
        None  # index of the line after which a divider (before flavor) is drawn
    )
    overflow: float = 0.0  # points of text that do not fit (0 when it fits)


SIGNS = ("+", "−")


def squeeze(fonts: FontSet, stem: str, text: str, size: float) -> float:
    """How much to pull a plus or minus sign in on each side: fonts with a mathematical, em-wide
    sign (Charis SIL: 0.2 em of space each side) would print '+1/+1' as '+ 1/ + 1'."""
    if text in SIGNS and fonts.width(stem, text, size) >= 0.8 * size:
        return 0.15 * size
    return 0.0


class Measurer:
    """Widths of atoms and words at a size, memoised: fitting measures the same words many times."""

    def __init__(self, fonts: FontSet, family: Family) -> None:
        self.fonts, self.family = fonts, family
        self._cache: dict[tuple[Atom, float], float] = {}

    def atom(self, atom: Atom, size: float) -> float:
        key = (atom, size)
        found = self._cache.get(key)
        if found is not None:
            return found
        if atom.icon:
            found = size * ICON_SCALE + size * 0.08
        else:
            stem = self.family.stem(atom.style)
            runs = self.fonts.split_runs(stem, atom.text, self.family.fallback, atom.style)
            found = sum(self.fonts.width(s, t, size) for s, t in runs) - 2 * squeeze(
                self.fonts, stem, atom.text, size
            )
        self._cache[key] = found
        return found

    def word(self, word: Word, size: float) -> float:
        return sum(self.atom(a, size) for a in word)

    def space(self, size: float) -> float:
        return self.fonts.width(self.family.regular, " ", size)


def layout(
    blocks: list[list[Paragraph]], m: Measurer, size: float, leading: float, width: float
) -> Layout:
    """Greedy line breaking of several blocks (rules, then flavor) at one size."""
    lines: list[Line] = []
    widest = 0.0
    space = m.space(size)
    height = 0.0
    line_h = size * leading
    rule_after = None
    for b, paragraphs in enumerate(blocks):
        if b > 0 and lines and paragraphs:
            rule_after = len(lines) - 1
            height += size * 0.8  # room for the divider
        for p, words in enumerate(paragraphs):
            if lines and p > 0:
                height += size * PARA_GAP
            current: list[Word] = []
            advances: list[tuple[float, ...]] = []
            cur_w = 0.0
            start = True
            para: list[Line] = []
            for word in words:
                widths = tuple([m.atom(a, size) for a in word])
                w = sum(widths)
                add = w if not current else cur_w + space + w
                if current and add > width:
                    para.append(Line(current, cur_w, start, advances))
                    start = False
                    current, cur_w, advances = [word], w, [widths]
                else:
                    current.append(word)
                    advances.append(widths)
                    cur_w = add
            para.append(Line(current, cur_w, start, advances))
            _no_widow(para, space, width)
            for line in para:
                lines.append(line)
                widest, height = max(widest, line.width), height + line_h
    # the last line needs only its ascent-to-descent, not a full leading
    if lines:
        height -= line_h - size * 1.12
    return Layout(lines, size, leading, height, widest, rule_after)


def _no_widow(para: list[Line], space: float, width: float) -> None:
    """A paragraph never ends in a single word when the line above can give it one: the same number
    of lines, so the box's fit is unchanged; in a two-line paragraph only while the first line stays
    at least STUB of the width (moving "an" down under "When a player draws" left a stub above)."""
    if len(para) < 2 or len(para[-1].words) != 1 or len(para[-2].words) < 3:
        return
    above, last = para[-2], para[-1]
    moved, moved_w = above.words[-1], sum(above.advances[-1])
    new_w = moved_w + space + last.width
    if new_w > width + 0.01:
        return
    if len(para) == 2 and above.width - moved_w - space < STUB * width:
        return  # a two-line paragraph keeps its first line full rather than leave it a stub
    para[-2] = Line(
        above.words[:-1], above.width - moved_w - space, above.paragraph_start, above.advances[:-1]
    )
    para[-1] = Line(
        [moved, *last.words], new_w, last.paragraph_start, [above.advances[-1], *last.advances]
    )


@dataclass
class FitSpec:
    size: float
    min_size: float
    leading: float = 1.18
    min_leading: float = 1.0
    step: float = 0.25
    max_lines: int | None = None  # e.g. 1 for names: shrink to one line before wrapping


@dataclass
class Fit:
    layout: Layout
    fits: bool
    shrunk: bool = field(default=False)
    wrapped: bool = (
        False  # more lines than the element's max_lines: it did not fit on them even at min_size
    )


def fit(
    blocks: list[list[Paragraph]], m: Measurer, spec: FitSpec, width: float, height: float
) -> Fit:
    """The largest size (then the loosest leading) at which the blocks fit; else the tightest,
    marked overflowing. With `max_lines`, the largest size that fits on that many lines, and only
    failing that a wrapped layout (`Fit.wrapped`: the caller says so)."""
    if spec.max_lines is not None:
        limited = _fit(blocks, m, spec, width, height, spec.max_lines)
        if limited.fits:
            return limited
        wrapped = _fit(blocks, m, spec, width, height, None)
        wrapped.wrapped = True
        return wrapped
    return _fit(blocks, m, spec, width, height, None)


def _fit(
    blocks: list[list[Paragraph]],
    m: Measurer,
    spec: FitSpec,
    width: float,
    height: float,
    limit: int | None,
) -> Fit:
    def ok(lay: Layout) -> bool:
        return (
            lay.height <= height + 0.01
            and lay.widest <= width + 0.01
            and (limit is None or len(lay.lines) <= limit)
        )

    steps = max(0, int(round((spec.size - spec.min_size) / spec.step)))
    sizes = [spec.size - i * spec.step for i in range(steps + 1)]
    first = layout(blocks, m, sizes[0], spec.leading, width)
    if ok(first):
        return Fit(first, True)
    lo, hi, best = 1, len(sizes) - 1, None  # binary search: height shrinks as the size does
    while lo <= hi:
        mid = (lo + hi) // 2
        lay = layout(blocks, m, sizes[mid], spec.leading, width)
        if ok(lay):
            best, hi = lay, mid - 1
        else:
            lo = mid + 1
    if best is not None:
        return Fit(best, True, True)
    leading = spec.leading
    lay = layout(blocks, m, spec.min_size, leading, width)
    while leading - 0.05 >= spec.min_leading - 1e-9:
        leading = round(leading - 0.05, 2)
        lay = layout(blocks, m, spec.min_size, leading, width)
        if ok(lay):
            return Fit(lay, True, True)
    lay.overflow = max(0.0, lay.height - height)
    return Fit(lay, False, True)


__all__ = [
    "BOLD",
    "ITALIC",
    "Atom",
    "Paragraph",
    "RichRules",
    "Word",
    "parse",
]  # the tokenizer, re-exported

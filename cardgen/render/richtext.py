"""Turn card text into styled words with inline cost icons, lay it out in a box, and shrink it until it fits."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ..model.game import GameModel
from .fonts import FontSet

BOLD, ITALIC = 1, 2
ICON_SCALE = 0.92  # icon diameter as a fraction of the font size
PARA_GAP = 0.35  # extra space between paragraphs, as a fraction of the font size


@dataclass(frozen=True)
class Atom:
    text: str  # the text, or the symbol letter for an icon
    style: int = 0
    icon: bool = False


Word = tuple[Atom, ...]
Paragraph = list[Word]


@dataclass(frozen=True)
class Family:
    regular: str
    bold: str
    italic: str
    bolditalic: str

    def stem(self, style: int) -> str:
        return (self.regular, self.bold, self.italic, self.bolditalic)[style]


@dataclass
class RichRules:
    """What the model says about text: symbol letters, whether bare letters are symbols, glossary keywords."""

    letters: tuple[str, ...] = ()
    bare: bool = False
    keywords: tuple[str, ...] = ()

    @classmethod
    def from_model(cls, model: GameModel) -> "RichRules":
        return cls(tuple(s.letter for s in model.cost.symbols), model.bare_symbols,
                   tuple(sorted((k.name for k in model.keywords), key=len, reverse=True)))


@lru_cache(maxsize=64)
def _tokenizer(letters: tuple[str, ...], bare: bool, keywords: tuple[str, ...]) -> re.Pattern[str]:
    parts = [r"(?P<bold>\*\*)", r"(?P<open>\()", r"(?P<close>\))",
             r"\[(?P<sq>[A-Za-z])\]", r"\{(?P<br>[A-Za-z0-9]{1,2})\}"]
    if bare and letters:
        parts.append(rf"(?<![\w'])(?P<bare>[{''.join(letters)}]+)(?![\w'])")
    if keywords:
        parts.append(r"(?<![\w-])(?P<kw>" + "|".join(re.escape(k) for k in keywords) + r")(?![\w-])")
    parts += [r"(?P<space>[ \t]+)", r"(?P<word>[\w']+|[^\w\s])"]
    return re.compile("|".join(parts))


def _style(base: int, bold: bool, depth: int, extra: int = 0) -> int:
    return base | (BOLD if bold else 0) | (ITALIC if depth else 0) | extra


def parse(text: str, rules: RichRules, base_style: int = 0) -> list[Paragraph]:
    """Card text -> paragraphs of words; a word is a tuple of atoms glued together (e.g. '[B][B]:')."""
    pattern = _tokenizer(rules.letters, rules.bare, rules.keywords)
    letters = set(rules.letters)
    paragraphs: list[Paragraph] = []
    for line in text.split("\n"):
        bold, depth = False, 0
        opened: list[bool] = []  # for each open bracket: did it start italic reminder text?
        words: Paragraph = []
        current: list[Atom] = []

        for m in pattern.finditer(line):
            kind = m.lastgroup
            if kind == "space":
                if current:
                    words.append(tuple(current))
                    current = []
            elif kind == "bold":
                bold = not bold
            elif kind == "open":
                # '(reminder text)' is italic; a bracket glued to a word, as in 'effect(s)', is not
                glued = m.start() > 0 and line[m.start() - 1].isalnum()
                opened.append(not glued)
                depth += 0 if glued else 1
                current.append(Atom("(", _style(base_style, bold, depth)))
            elif kind == "close":
                current.append(Atom(")", _style(base_style, bold, depth)))
                if opened and opened.pop():
                    depth = max(0, depth - 1)
            elif kind in ("sq", "br"):
                letter = m.group(kind)
                if letter.upper() in letters:
                    current.append(Atom(letter.upper(), _style(base_style, bold, depth), icon=True))
                elif kind == "br" and letter.isdigit():
                    current.append(Atom(letter, _style(base_style, bold, depth), icon=True))
                else:
                    current.append(Atom(m.group(0), _style(base_style, bold, depth)))
            elif kind == "bare":
                current.extend(Atom(ch, _style(base_style, bold, depth), icon=True) for ch in m.group(kind))
            elif kind == "kw":
                current.append(Atom(m.group(kind), _style(base_style, bold, depth, BOLD)))
            else:
                current.append(Atom(m.group(0), _style(base_style, bold, depth)))
        if current:
            words.append(tuple(current))
        paragraphs.append(words)
    while paragraphs and not paragraphs[-1]:
        paragraphs.pop()
    return paragraphs


@dataclass
class Line:
    words: list[Word]
    width: float
    paragraph_start: bool = False
    advances: list[tuple[float, ...]] = field(default_factory=list)  # each word's atom widths, for painting


@dataclass
class Layout:
    lines: list[Line]
    size: float
    leading: float
    height: float
    widest: float
    rule_after: int | None = None  # index of the line after which a divider (before flavor) is drawn
    overflow: float = 0.0  # points of text that do not fit (0 when it fits)


class Measurer:
    """Widths of atoms and words at a size, memoised: fitting measures the same words many times."""

    def __init__(self, fonts: FontSet, family: Family) -> None:
        self.fonts, self.family = fonts, family
        self._cache: dict[tuple[Atom, float], float] = {}

    def atom(self, atom: Atom, size: float) -> float:
        key = (atom, size)
        if key not in self._cache:
            if atom.icon:
                self._cache[key] = size * ICON_SCALE + size * 0.08
            else:
                stem = self.family.stem(atom.style)
                self._cache[key] = sum(self.fonts.width(s, t, size) for s, t in self.fonts.split_runs(stem, atom.text))
        return self._cache[key]

    def word(self, word: Word, size: float) -> float:
        return sum(self.atom(a, size) for a in word)

    def space(self, size: float) -> float:
        return self.fonts.width(self.family.regular, " ", size)


def layout(blocks: list[list[Paragraph]], m: Measurer, size: float, leading: float, width: float) -> Layout:
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
            for word in words:
                widths = tuple(m.atom(a, size) for a in word)
                w = sum(widths)
                add = w if not current else cur_w + space + w
                if current and add > width:
                    lines.append(Line(current, cur_w, start, advances))
                    widest, height, start = max(widest, cur_w), height + line_h, False
                    current, cur_w, advances = [word], w, [widths]
                else:
                    current.append(word)
                    advances.append(widths)
                    cur_w = add
            lines.append(Line(current, cur_w, start, advances))
            widest, height = max(widest, cur_w), height + line_h
    # the last line needs only its ascent-to-descent, not a full leading
    if lines:
        height -= line_h - size * 1.12
    return Layout(lines, size, leading, height, widest, rule_after)


@dataclass
class FitSpec:
    size: float
    min_size: float
    leading: float = 1.18
    min_leading: float = 1.0
    step: float = 0.25


@dataclass
class Fit:
    layout: Layout
    fits: bool
    shrunk: bool = field(default=False)


def fit(blocks: list[list[Paragraph]], m: Measurer, spec: FitSpec, width: float, height: float) -> Fit:
    """The largest size (then the loosest leading) at which the blocks fit; else the tightest, marked overflowing."""
    def ok(lay: Layout) -> bool:
        return lay.height <= height + 0.01 and lay.widest <= width + 0.01

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

"""Turn a rulebook PDF into measurements of its pages (pypdfium2's text page API): lines of text
with their characters and sizes, columns, how full each page is, and where its figures stand."""

from __future__ import annotations

import ctypes
import statistics
import sys
from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

BAND_PT = 46.0  # the top and bottom of a page (16 mm): running header and page number
PX_PT = 0.75  # WeasyPrint sets type in CSS pixels: the font size pdfium reads, in pt
CHAPTER_PT = 17.0  # a line set this large or larger is a chapter's title
BODY_PT = 9.0  # body text, glossary and list lines (captions and labels are smaller)
MIN_FIGURE_MM = 20.0  # a picture this wide or wider is a figure (a cost symbol is no picture)


@dataclass
class Line:
    text: str
    left: float  # pt from the page's left edge
    right: float
    baseline: float  # pt from the page's top
    size: float  # the largest font size on the line
    spans: list[tuple[float, float]] = field(default_factory=list)  # each visible character's


@dataclass
class Page:
    number: int  # 1-based
    width: float
    height: float
    header: str  # the running header (empty on the cover and front pages)
    lines: list[Line] = field(default_factory=list)  # the body's, top to bottom
    figures: list[tuple[float, float, float, float]] = field(default_factory=list)  # l, t, r, b

    @property
    def body(self) -> list[Line]:
        return [line for line in self.lines if line.size >= BODY_PT]

    @property
    def starts_chapter(self) -> bool:
        """The page's first body line is a chapter's title."""
        return bool(self.lines) and self.lines[0].size >= CHAPTER_PT

    @property
    def chapter_titles(self) -> int:
        return sum(line.size >= CHAPTER_PT for line in self.lines)

    def columns(self) -> list[tuple[float, float]]:
        """The page's text columns (left, right), from where its full lines start and end."""
        middle = self.width / 2
        right_starts = sum(line.left > middle - 5 and line.size < CHAPTER_PT for line in self.body)
        left_ends = sum(line.right < middle + 5 and line.left < middle - 40 for line in self.body)
        two = right_starts >= 3 and left_ends >= 3
        lefts = [line for line in self.body if line.left < middle - 5]
        if not lefts:
            return []
        if not two:
            return [(_edge(lefts), max(x.right for x in self.body))]
        rights = [line for line in self.body if line.left > middle - 5]
        return [
            (_edge(lefts), max(x.right for x in lefts if x.right < middle + 5)),
            (_edge(rights), max(x.right for x in rights)),
        ]

    def fill(self) -> float:
        """How far down the text area the content reaches, averaged over the columns (a page with
        one full column of two is half full): 0 to 1."""
        top, bottom = BAND_PT + 4, self.height - BAND_PT - 10  # the text area, near enough
        columns = self.columns() or [(0.0, self.width)]
        reached = []
        for left, right in columns:
            ends = [
                line.baseline
                for line in self.lines
                if left - 3 <= line.left and line.right <= right + 3
            ]
            ends += [b for (x0, _, x1, b) in self.figures if left - 3 <= x0 and x1 <= right + 3]
            if len(columns) == 1:  # a figure across a single column counts too
                ends += [b for (_, _, _, b) in self.figures]
            reached.append(max(ends, default=top))
        return statistics.mean(min(1.0, max(0.0, (r - top) / (bottom - top))) for r in reached)

    def covered(self) -> list[str]:
        """The lines of text a figure is drawn over (a character's middle inside a figure's box): a
        figure that moved onto text it was not laid out beside."""
        found = []
        for line in self.lines:
            middle = line.baseline - line.size * 0.35
            if any(
                x0 + 1 < (left + right) / 2 < x1 - 1 and top + 1 < middle < bottom - 1
                for x0, top, x1, bottom in self.figures
                for left, right in line.spans
            ):
                found.append(line.text)
        return found

    def stranded(self) -> bool:
        """A figure with (almost) no text: fewer than three lines of body text on the page."""
        return bool(self.figures) and len(self.body) < 3


def _edge(lines: list[Line]) -> float:
    """A column's left edge: where most of its lines start (not a hanging bullet or a figure)."""
    starts = statistics.mode(round(line.left) for line in lines)
    return min(line.left for line in lines if round(line.left) == starts)


def _origin_y(textpage: pdfium.PdfTextPage, index: int) -> float:
    """The character's baseline, pt from the page's bottom."""
    x, y = ctypes.c_double(), ctypes.c_double()
    pdfium_c.FPDFText_GetCharOrigin(textpage, index, ctypes.byref(x), ctypes.byref(y))
    return y.value


def _font_size(textpage: pdfium.PdfTextPage, index: int) -> float:
    return float(pdfium_c.FPDFText_GetFontSize(textpage, index)) * PX_PT


def read(pdf: bytes | str) -> list[Page]:
    """Every page of the book, measured."""
    document = pdfium.PdfDocument(pdf)
    pages = []
    for n in range(len(document)):
        page = document[n]
        width, height = page.get_size()
        textpage = page.get_textpage()
        chars = []
        for i in range(textpage.count_chars()):
            text = textpage.get_text_range(i, 1)
            if not text or text in "\r\n":
                continue
            left, bottom, right, top = textpage.get_charbox(i)
            middle = height - (bottom + top) / 2
            baseline = height - _origin_y(textpage, i)
            chars.append((text, left, right, baseline, _font_size(textpage, i), middle))
        header = "".join(c[0] for c in chars if c[5] < BAND_PT).strip()
        body_chars = [c[:5] for c in chars if BAND_PT <= c[5] <= height - BAND_PT]
        measured = Page(n + 1, width, height, header, _lines(body_chars))
        for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]):
            left, bottom, right, top = obj.get_bounds()
            if (right - left) * 25.4 / 72 >= MIN_FIGURE_MM:
                measured.figures.append((left, height - top, right, height - bottom))
        pages.append(measured)
    return pages


def _lines(chars: list[tuple[str, float, float, float, float]]) -> list[Line]:
    """Characters in reading order grouped into lines: a new line where the baseline moves or the
    text jumps back to the left (the next column)."""
    lines: list[Line] = []
    current: list[tuple[str, float, float, float, float]] = []

    def close() -> None:
        if current and "".join(c[0] for c in current).strip():
            text = "".join(c[0] for c in current).strip()
            visible = [c for c in current if c[0].strip()]
            lines.append(
                Line(
                    text,
                    min(c[1] for c in visible),
                    max(c[2] for c in visible),
                    max(c[3] for c in visible),
                    max(c[4] for c in visible),
                    [(c[1], c[2]) for c in visible],
                )
            )
        current.clear()

    for char in chars:
        if current:
            last = next((c for c in reversed(current) if c[0].strip()), current[-1])
            if char[0].strip() and (abs(char[3] - last[3]) > 2 or char[1] < last[1] - 30):
                close()
        current.append(char)
    close()
    lines.sort(key=lambda line: (line.baseline, line.left))  # top to bottom
    return lines


def characters_per_line(pages: list[Page]) -> list[int]:
    """Characters (spaces included) of each full line of body text: the lines as wide as their
    column, the justified lines of paragraphs (the measure)."""
    counts = []
    for page in body_pages(pages):
        for left, right in page.columns():
            width = right - left
            for line in page.body:
                if (
                    line.size < CHAPTER_PT * 0.6
                    and abs(line.left - left) < 2
                    and line.right - line.left >= 0.97 * width
                ):
                    counts.append(len(line.text))
    return counts


def body_pages(pages: list[Page]) -> list[Page]:
    """The pages from the first chapter's title on (not the cover, contents or inside cover)."""
    first = next(
        (
            i
            for i, page in enumerate(pages)
            if i and page.chapter_titles and not page.lines[0].text.startswith("Contents")
        ),
        len(pages),
    )
    return pages[first:]


@dataclass
class Report:
    pages: int
    measure: tuple[int, int, int]  # characters per full line: 10th percentile, median, 90th
    short: list[tuple[int, float]]  # mid-chapter pages under the fill limit: (page, fill)
    stranded: list[int]  # pages holding a figure and (almost) no text
    covered: list[tuple[int, str]]  # lines a figure is drawn over: (page, text)
    figures: int
    fills: list[float]


def report(pdf: bytes | str, least_fill: float = 2 / 3) -> Report:
    """The book measured against the spec (docs/rulebook.md): a body page may be under
    `least_fill` only where a chapter ends (the next page starts one) or the book does."""
    pages = read(pdf)
    counts = sorted(characters_per_line(pages)) or [0]

    def pct(p: float) -> int:
        return counts[min(len(counts) - 1, int(p * len(counts)))]

    short = []
    fills = []
    body = body_pages(pages)
    for page in body:
        i = page.number - 1
        fill = page.fill()
        fills.append(fill)
        ends_chapter = i + 1 == len(pages) or pages[i + 1].starts_chapter
        if fill < least_fill and not ends_chapter:
            short.append((page.number, round(fill, 2)))
    return Report(
        len(pages),
        (pct(0.1), int(statistics.median(counts)), pct(0.9)),
        short,
        [page.number for page in body if page.stranded()],
        [(page.number, text) for page in pages for text in page.covered()],
        sum(len(page.figures) for page in body),
        fills,
    )


if __name__ == "__main__":  # python -m tests.bookmeasure BOOK.pdf …: the numbers, one line a book
    for path in sys.argv[1:]:
        r = report(path)
        print(
            f"{path}: {r.pages} pages; characters per full line {r.measure[0]}/{r.measure[1]}/"
            f"{r.measure[2]} (10th/median/90th); fill mean {statistics.mean(r.fills):.2f}, "
            f"least {min(r.fills):.2f}; short mid-chapter pages {r.short}; stranded figures "
            f"{r.stranded}; {r.figures} figures"
        )

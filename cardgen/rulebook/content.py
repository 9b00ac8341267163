"""Turn a chapter's Markdown into clean HTML with its directives, pictures and symbols in place."""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import Finding, Severity
from ..core.paths import workspace_file
from ..load.card import Card, designs
from ..model.text import RichRules
from ..project.studio import Studio
from ..render import imagefile
from ..render.prepared import PreparedFace
from . import text_column
from .bookwords import ENGLISH_WORDS, BookWords
from .directives import DIRECTIVE, SECOND, Directives, _esc
from .directives import directive_cards as directive_cards
from .directives import second_side_cards as second_side_cards
from .limits import DOM_DEPTH, ELEMENTS, dom_cut
from .lines import LineChecker, known_admonitions
from .placement import Figure, card_args, card_row, joins, rows_that_fit
from .sanitise import TAGS, clean
from .source import Chapter

IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
DPI = 300
# cardgen's own HTML stands in a chapter's Markdown as an empty element of its outer tag (so
# Markdown places it as it would the HTML) until the sanitiser has cleaned what the designer wrote
# around it
STAND_IN = re.compile(r'<([a-z][a-z0-9]*) data-cardgen="(\d+)">(?:</\1>)?')
_OPENING = re.compile(r"<[a-zA-Z]")
_MARKUP = re.compile(r"[*_`\[]")  # emphasis, code and links: an element each pair


IMAGE_REF = "cardgen-face:"  # in the book's HTML until it is written out (resolve_images)
_IMAGE_REFS = re.compile(re.escape(IMAGE_REF) + r"[0-9a-z-]+")


PICTURE = "cardgen-picture:"  # a face's picture as the PDF's typesetter asks for it: by content


def resolve_images(
    html: str, files: dict[str, Path], inline: bool, addresses: dict[str, str] | None = None
) -> str:
    """The book with each face reference replaced, in one pass: by a data: URI (`inline`: the HTML a
    reader opens anywhere) or by its picture's content address (what WeasyPrint reads without
    decoding base64 from HTML: `content_addresses`)."""
    if not inline and addresses is None:
        addresses = content_addresses(files)

    def one(m: re.Match[str]) -> str:
        path = files.get(m.group(0))
        if path is None:
            return m.group(0)
        if addresses is not None:
            return addresses[m.group(0)]
        kind = "jpeg" if path.suffix == ".jpg" else "png"
        return f"data:image/{kind};base64," + base64.b64encode(path.read_bytes()).decode("ascii")

    return _IMAGE_REFS.sub(one, html)


def content_addresses(files: dict[str, Path]) -> dict[str, str]:
    """Each face reference's picture by content, `cardgen-picture:<digest of its bytes>.png`, which
    the PDF's fetcher serves (rulebook.fetch). WeasyPrint names a picture in the PDF after its URL:
    a file's URL holds the workspace's folder, and the same book would be other bytes elsewhere."""
    import hashlib

    return {
        ref: f"{PICTURE}{hashlib.sha256(path.read_bytes()).hexdigest()[:32]}{path.suffix}"
        for ref, path in files.items()
    }


@dataclass
class BookContent(Directives):
    studio: Studio
    findings: list[Finding] = field(default_factory=list)
    images: dict[str, str] = field(
        default_factory=dict
    )  # card id -> its face's picture, as an IMAGE_REF token
    image_files: dict[str, Path] = field(default_factory=dict)  # IMAGE_REF token -> the cached PNG
    sizes: dict[str, tuple[float, float]] = field(default_factory=dict)  # card id -> face size, pt
    figures: int = 0  # figures made so far (each one's data-figure number: rulebook.placement)
    gallery_cards: list[Card] = field(default_factory=list)
    _rules: RichRules | None = None
    chapter_now: Chapter | None = (
        None  # the chapter being expanded (an anatomy figure numbers its list)
    )
    _fragments: list[str] = field(default_factory=list)  # its directives' HTML, by stand-in number
    elements: int = ELEMENTS  # what is left of the book's elements (rulebook.limits.ELEMENTS)
    column: float = 0.0  # the text column's width in mm (rulebook.text_column); 0: A4's
    words: BookWords = ENGLISH_WORDS  # the book's own words (index.md's `words:`)
    _checker: LineChecker | None = None

    # -- faces
    # ---------------------------------------------------------------------------------------
    def prepare_images(
        self, cards: list[Card], dpi: int = DPI, jpeg: bool = False, second: bool = False
    ) -> None:
        """Render faces once. Figures print 50-63 mm wide (300 dpi, PNG); gallery cards 38 mm (200
        dpi is 330 there), as JPEG, which WeasyPrint embeds as it is (a PNG it decodes and encodes
        again: a second each hundred and fifty faces). Files are kept by face, resolution and
        cardgen's drawing code. `second`: the cards' second sides (faces.yaml `second:`) instead,
        kept under the card's id + SECOND."""
        from ..render.facecache import code_digest
        from ..render.raster import (
            render_pngs,
        )  # the rasteriser is loaded only when a book is printed

        wanted: list[tuple[str, PreparedFace]] = []
        for c in designs(cards):
            key = c.id + SECOND if second else c.id
            if key in self.images or not self.studio.faces.for_card(c):
                continue
            if second and not self.studio.own_back(c):
                continue
            face = self.studio.prepare(c, 0.0)[1 if second else 0]
            if face is not None:
                wanted.append((key, face))
        faces = [f for _, f in wanted]
        from ..speed.cache import Store

        store = Store(self.studio.ws.output_dir(self.studio.game) / ".cache" / "png")
        name = {
            f.key: f"{f.picture_key()}-{dpi}-{code_digest()}.{'jpg' if jpeg else 'png'}"
            for f in faces
        }
        kept = {
            f.key: store.file(name[f.key]) for f in faces
        }  # only pictures this user's cardgen made
        todo = [(k, f) for k, f in wanted if kept[f.key] is None]
        for (_, face), picture in zip(
            todo,
            render_pngs(
                [f for _, f in todo],
                self.studio.fonts,
                self.model,
                dpi=dpi,
                recordings=self.studio.renderer.recordings,
                jpeg=jpeg,
            ),
        ):
            kept[face.key] = store.put_file(
                name[face.key], picture
            )  # keyed by content, like the face cache
        for key, face in wanted:  # a short reference: the PDF reads the file, the HTML inlines it
            self.sizes[key] = (face.width, face.height)
            ref = f"{IMAGE_REF}{name[face.key].replace('.', '-')}"
            self.images[key] = ref
            self.image_files[ref] = kept[face.key]  # type: ignore[assignment]

    # -- directives
    # ----------------------------------------------------------------------------------
    def expand(self, chapter: Chapter) -> str:
        """Replace each directive, picture and cost symbol in a chapter's Markdown with a stand-in
        for its HTML (`finish` puts the HTML back once the chapter is converted and cleaned);
        problems become findings and markers."""
        self.chapter_now = chapter
        self._fragments = []
        lines = chapter.body.split("\n")
        out: list[str] = []
        boxed = False  # inside a '!!! note' box: its indented lines are prose, not a code block
        checker = self.line_checker()
        checker.start()
        figure: Figure | None = None  # the figure the last row of cards made
        for offset, line in enumerate(lines):
            if line.startswith("!!!"):
                boxed = True
            elif line.strip() and not line.startswith((" ", "\t")):
                boxed = False
            lineno = chapter.first_line + offset

            def one(m: re.Match[str], lineno: int = lineno) -> str:
                return self._stand_in(self._directive(m.group(1), m.group(2), chapter.file, lineno))

            def image(m: re.Match[str], lineno: int = lineno) -> str:
                return self._stand_in(self._image(m, chapter, lineno))

            row = card_row(line)
            if row is not None:  # a row of cards: a figure of its own, or the next row of one
                self.findings += checker.check(" " * len(line), False, chapter.file, lineno)
                made = len(self._fragments)
                named = [card_args(m.group(2)) for m in row]
                names = [name for name, _ in named]
                html = [self._directive("card", m.group(2), chapter.file, lineno) for m in row]
                # a line too wide for the column: several rows
                widths = [self.figure_width(name, side) for name, side in named]
                parts = rows_that_fit(widths, self.column or text_column("a4"))
                cards = ["".join(html[n] for n in part) for part in parts]
                heights = [self.card_row_height([names[n] for n in part]) for part in parts]
                if figure is not None and joins(figure, out):
                    figure.rows += cards
                    figure.heights += heights
                    self._fragments[figure.fragment] = figure.html()
                    out.append("")
                    continue
                self.figures += 1
                figure = Figure(cards, heights, len(out) + 1, len(self._fragments), self.figures)
                stand_in = self._stand_in(figure.html())
                indent = line[: len(line) - len(line.lstrip())]
                if not self._afford(stand_in, self._fragments[made:], chapter.file, lineno):
                    del self._fragments[made:]
                    chapter.cut = chapter.cut or (
                        "the book's chapters make too many elements to lay out"
                    )
                    break
                out += ["", indent + stand_in, ""]
                figure.out_index = len(out) - 2
                continue
            if line.strip():
                figure = None
            prose = boxed or not line.startswith("    ")
            blanked = IMAGE.sub(_blank, DIRECTIVE.sub(_blank, line))
            self.findings += checker.check(blanked, prose, chapter.file, lineno)
            made = len(self._fragments)
            line = IMAGE.sub(image, DIRECTIVE.sub(one, line))
            line = (
                self.symbols(line, self._stand_in) if boxed or not line.startswith("    ") else line
            )
            if not self._afford(line, self._fragments[made:], chapter.file, lineno):
                del self._fragments[made:]
                chapter.cut = chapter.cut or "the book's chapters make too many elements to lay out"
                break
            out.append(line)
        if chapter.cut:
            out += [
                "",
                self._stand_in(
                    '<div class="problem">The rest of this chapter is left out: '
                    f"{_esc(chapter.cut)}</div>"
                ),
            ]
        return "\n".join(out)

    def line_checker(self) -> LineChecker:
        """What checks the chapters' prose (symbols and boxes the book cannot print as meant)."""
        if self._checker is None:
            ws, game = self.studio.ws, self.studio.game
            css = [
                ws.templates_dir(game) / "rulebook" / "book.css",
                ws.root / "templates" / "_shared" / "rulebook" / "book.css",
                Path(__file__).resolve().parents[1]
                / "data"
                / "templates"
                / "rulebook"
                / "book.css",
            ]
            self._checker = LineChecker(self.rules, known_admonitions(css), self.model.name)
        return self._checker

    def _afford(self, line: str, made: list[str], file: str, lineno: int) -> bool:
        """Whether the book can lay out the elements a line makes (its tags, its directives' and
        symbols' HTML, its emphasis, links and table cells), estimated from above; the first line it
        cannot is a finding, and every line after it is left out."""
        text = STAND_IN.sub("", line)
        count = (
            len(_OPENING.findall(text))
            + sum(len(_OPENING.findall(html)) for html in made)
            + len(_MARKUP.findall(text)) // 2
            + text.count("|")
            + bool(line.strip())
        )
        if self.elements >= 0 and count > self.elements:
            self.findings.append(
                Finding(
                    file,
                    lineno,
                    1,
                    Severity.ERROR,
                    "rulebook-too-long",
                    None,
                    f"the book's chapters make more than {ELEMENTS:,} elements (paragraphs, "
                    "symbols, pictures, emphasis, table cells…) here; the rest is left out",
                    "the book prints its chapters up to here; split the rulebook or show "
                    "fewer cards and symbols",
                )
            )
            self.elements = -1  # reported once; later lines are left out without another finding
        if self.elements < 0:
            return False
        self.elements -= count
        return True

    def _stand_in(self, html: str) -> str:
        """An empty element of the HTML's outer tag, numbered: what the chapter's Markdown holds in
        its place."""
        m = re.match(r"<([a-z][a-z0-9]*)", html)
        tag = m.group(1) if m and m.group(1) in TAGS else "span"
        self._fragments.append(html if m else f"<span>{html}</span>")
        number = len(self._fragments) - 1
        return f'<{tag} data-cardgen="{number}">' + (
            "" if tag in ("img", "br", "hr", "wbr") else f"</{tag}>"
        )

    def fragments(self) -> tuple[str, ...]:
        """The directives' HTML the last expanded chapter holds (by stand-in number)."""
        return tuple(self._fragments)

    def finish(self, chapter: Chapter, html: str) -> str:
        """The chapter's HTML (its expanded Markdown, converted) cleaned of active content, each
        removal a finding at the chapter's line, with the directives' HTML put back in place of
        their stand-ins."""
        source = DIRECTIVE.sub(
            lambda m: " " * len(m.group(0)), chapter.body
        )  # not the designer's HTML
        cleaned, found = clean(html, chapter.file, chapter.first_line, source)
        self.findings.extend(found)
        fragments = self._fragments

        def back(m: re.Match[str]) -> str:
            number = int(m.group(2))
            return fragments[number] if number < len(fragments) else ""

        finished, cut = dom_cut(STAND_IN.sub(back, cleaned))
        # what the estimates on the Markdown (rulebook.limits) let through: the chapter is
        # cut anyway
        if cut:
            self.findings.append(
                Finding(
                    chapter.file,
                    chapter.first_line,
                    1,
                    Severity.ERROR,
                    "rulebook-too-deep",
                    None,
                    f"the chapter's HTML nests more than {DOM_DEPTH} elements deep; "
                    "it is printed up to there",
                    "nest its quotes, lists and HTML less",
                )
            )
        return finished

    def _image(self, m: re.Match[str], chapter: Chapter, line: int) -> str:
        from pathlib import Path

        root = self.studio.ws.root
        target, problem = workspace_file(root, root / Path(chapter.file).parent, m.group(2))
        if target is None:
            return self.problem(
                chapter.file, line, "rulebook-image", f"image '{m.group(2)[:80]}' {problem}"
            )
        why = imagefile.book_picture_problem(target)
        if why:
            return self.problem(
                chapter.file, line, "image-unreadable", f"image '{m.group(2)[:80]}' {why}"
            )
        width = self._picture_width(target, chapter, line, m.group(2))
        size = f' style="display: block; width: {width:.2f}mm"' if width else ""
        return f'<img src="{target.as_uri()}" alt="{_esc(m.group(1))}"{size}>'

    def _picture_width(self, target: Path, chapter: Chapter, line: int, shown: str) -> float:
        """A chapter picture's printed width in mm: its pixels at its own resolution (its dpi; 96
        without one, as CSS reads it), never wider than the text column (a warning when it has to
        be scaled down to fit); 0 for a drawing (SVG) WeasyPrint sizes itself. The picture is set
        as a block, so a paragraph's indent never pushes it past the column."""
        natural = imagefile.natural_width_mm(target)
        column = self.column or text_column("a4")
        if natural is None or natural <= column + 0.05:
            return natural or 0.0
        self.findings.append(
            Finding(
                chapter.file,
                line,
                1,
                Severity.WARNING,
                "rulebook-image-too-wide",
                None,
                f"image '{shown[:80]}' is {natural:.1f} mm wide at its own resolution; the text "
                f"column is {column:.1f} mm: it is printed scaled down to the column",
                "crop it, or give the file the resolution it should print at (e.g. 300 dpi)",
            )
        )
        return column


def _blank(m: re.Match[str]) -> str:
    """A directive or picture as spaces: the line's other columns stay where they are."""
    return " " * len(m.group(0))

"""Turn rulebook directives ({{ card("…") }}, {{ glossary() }}, …) and cost symbols into HTML from the model."""
from __future__ import annotations

import ast
import base64
import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..core.errors import Finding, Severity, did_you_mean
from ..core.paths import workspace_file
from ..load.card import Card, designs
from ..model.text import BOLD, ITALIC, RichRules, parse, symbols, typographic
from ..project.studio import Studio
from .anatomy import element_boxes, figure, ordered_list, place
from .limits import DOM_DEPTH, ELEMENTS, dom_cut
from .sanitise import TAGS, clean
from .source import Chapter

DIRECTIVE = re.compile(r"\{\{\s*([a-z_]+)\s*\((.*?)\)\s*\}\}")
IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
DPI = 300
# cardgen's own HTML stands in a chapter's Markdown as an empty element of its outer tag (so Markdown places
# it as it would the HTML) until the sanitiser has cleaned what the designer wrote around it
STAND_IN = re.compile(r'<([a-z][a-z0-9]*) data-cardgen="(\d+)">(?:</\1>)?')
_OPENING = re.compile(r"<[a-zA-Z]")
_MARKUP = re.compile(r"[*_`\[]")  # emphasis, code and links: an element each pair


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


IMAGE_REF = "cardgen-face:"  # in the book's HTML until it is written out (resolve_images)
_IMAGE_REFS = re.compile(re.escape(IMAGE_REF) + r"[0-9a-z-]+")


def resolve_images(html: str, files: dict[str, Path], inline: bool) -> str:
    """The book with each face reference replaced, in one pass: by a data: URI (`inline`: the HTML a reader
    opens anywhere) or by the cached file's URL (what WeasyPrint reads without decoding base64 from HTML)."""
    def one(m: re.Match[str]) -> str:
        path = files.get(m.group(0))
        if path is None:
            return m.group(0)
        if inline:
            kind = "jpeg" if path.suffix == ".jpg" else "png"
            return f"data:image/{kind};base64," + base64.b64encode(path.read_bytes()).decode("ascii")
        return path.resolve().as_uri()
    return _IMAGE_REFS.sub(one, html)


@dataclass
class BookContent:
    studio: Studio
    findings: list[Finding] = field(default_factory=list)
    images: dict[str, str] = field(default_factory=dict)  # card id -> its face's picture, as an IMAGE_REF token
    image_files: dict[str, Path] = field(default_factory=dict)  # IMAGE_REF token -> the cached PNG
    gallery_cards: list[Card] = field(default_factory=list)
    _rules: RichRules | None = None
    _chapter: Chapter | None = None  # the chapter being expanded (an anatomy figure numbers its list)
    _fragments: list[str] = field(default_factory=list)  # its directives' HTML, by stand-in number
    elements: int = ELEMENTS  # what is left of the book's elements (rulebook.limits.ELEMENTS)

    @property
    def model(self):  # type: ignore[no-untyped-def]
        return self.studio.model

    # -- symbols -------------------------------------------------------------------------------------
    def icon(self, letter: str) -> str:
        halves = self.model.cost.halves(letter)
        if halves:  # a hybrid: the disc split on the diagonal, as on the cards
            a, b = (self.model.cost.symbol(h) for h in halves)
            return (f'<span class="sym hybrid" style="background:linear-gradient(135deg,{a.color} 50%,'  # type: ignore[union-attr]
                    f'{b.color} 50%);color:#ffffff" title="{_esc(a.name)} or {_esc(b.name)}">'  # type: ignore[union-attr]
                    f'{_esc(letter)}</span>')
        sym = self.model.cost.symbol(letter)
        bg, fg = (sym.color, sym.text_color) if sym else ("#8a8a8a", "#ffffff")
        title = f' title="{_esc(sym.name)}"' if sym else ""
        return f'<span class="sym" style="background-color:{bg};color:{fg}"{title}>{_esc(letter)}</span>'

    def symbols(self, text: str, stand_in: Callable[[str], str] | None = None) -> str:
        """Chapter prose: each symbol the card tokenizer would draw ([R], {2}, {X}) becomes its icon (or the
        icon's stand-in, `stand_in`)."""
        rules = self.rules
        out, last = [], 0
        for m, item in symbols(text):
            drawn = rules.drawable(item)
            if drawn is not None:
                icon = self.icon(drawn)
                out += [text[last:m.start()], stand_in(icon) if stand_in else icon]
                last = m.end()
        return "".join(out) + text[last:]

    def rich(self, text: str) -> str:
        """Card or glossary text as HTML through the card tokenizer: symbols as icons, **bold** and glossary
        keywords bold, reminder text italic (as on the faces), one line per paragraph."""
        lines = []
        for paragraph in parse(text, self.rules):
            runs: list[tuple[int, str]] = []  # (style, html), merged while the style stays the same
            for n, word in enumerate(paragraph):
                if n:
                    runs.append((word[0].style & paragraph[n - 1][-1].style, " "))
                runs += [(a.style, self.icon(a.text) if a.icon else _esc(a.text)) for a in word]
            merged: list[tuple[int, str]] = []
            for style, piece in runs:
                if merged and merged[-1][0] == style:
                    merged[-1] = (style, merged[-1][1] + piece)
                else:
                    merged.append((style, piece))
            lines.append("".join(_styled(style, piece) for style, piece in merged))
        return "<br>".join(lines)

    @property
    def rules(self) -> RichRules:
        if self._rules is None:
            self._rules = RichRules.from_model(self.model)
        return self._rules

    # -- faces ---------------------------------------------------------------------------------------
    def prepare_images(self, cards: list[Card], dpi: int = DPI, jpeg: bool = False) -> None:
        """Render faces once. Figures print 50-63 mm wide (300 dpi, PNG); gallery cards 38 mm (200 dpi is 330
        there), as JPEG, which WeasyPrint embeds as it is (a PNG it decodes and encodes again: a second each
        hundred and fifty faces). Files are kept by face, resolution and cardgen's drawing code."""
        from ..render.facecache import code_digest
        from ..render.raster import render_pngs  # the rasteriser is loaded only when a book is printed

        unique = designs(cards)
        wanted = [c for c in unique if c.id not in self.images and self.studio.faces.for_card(c)]
        faces = [self.studio.prepare(c, 0.0)[0] for c in wanted]
        from ..speed.cache import Store

        store = Store(self.studio.ws.output_dir(self.studio.game) / ".cache" / "png")
        name = {f.key: f"{f.picture_key()}-{dpi}-{code_digest()}.{'jpg' if jpeg else 'png'}" for f in faces}
        kept = {f.key: store.file(name[f.key]) for f in faces}  # only pictures this user's cardgen made
        todo = [(c, f) for c, f in zip(wanted, faces) if kept[f.key] is None]
        for (_, face), picture in zip(todo, render_pngs([f for _, f in todo], self.studio.fonts, self.model, dpi=dpi,
                                                        recordings=self.studio.renderer.recordings, jpeg=jpeg)):
            kept[face.key] = store.put_file(name[face.key], picture)  # keyed by content, like the face cache
        for card, face in zip(wanted, faces):  # a short reference: the PDF reads the file, the HTML inlines it
            ref = f"{IMAGE_REF}{name[face.key].replace('.', '-')}"
            self.images[card.id] = ref
            self.image_files[ref] = kept[face.key]  # type: ignore[assignment]

    def find(self, name: str) -> Card | None:
        return self.studio.check.catalog.find(name)

    # -- directives ----------------------------------------------------------------------------------
    def expand(self, chapter: Chapter) -> str:
        """Replace each directive, picture and cost symbol in a chapter's Markdown with a stand-in for its HTML
        (`finish` puts the HTML back once the chapter is converted and cleaned); problems become findings and
        markers."""
        self._chapter = chapter
        self._fragments = []
        lines = chapter.body.split("\n")
        out = []
        boxed = False  # inside a '!!! note' box: its indented lines are prose, not a code block
        for offset, line in enumerate(lines):
            if line.startswith("!!!"):
                boxed = True
            elif line.strip() and not line.startswith((" ", "\t")):
                boxed = False
            lineno = chapter.first_line + offset

            # a card on a line of its own (or the first of a line of them) floats beside the text
            alone = DIRECTIVE.fullmatch(line.strip())
            floats = [bool(alone and alone.group(1) == "card")]

            def one(m: re.Match[str], lineno: int = lineno, floats: list[bool] = floats) -> str:
                html = self._directive(m.group(1), m.group(2), chapter.file, lineno)
                if floats[0] and 'class="card-figure"' in html:
                    html, floats[0] = html.replace('class="card-figure"', 'class="card-figure float"', 1), False
                return self._stand_in(html)

            def image(m: re.Match[str], lineno: int = lineno) -> str:
                return self._stand_in(self._image(m, chapter, lineno))

            made = len(self._fragments)
            line = IMAGE.sub(image, DIRECTIVE.sub(one, line))
            line = self.symbols(line, self._stand_in) if boxed or not line.startswith("    ") else line
            if not self._afford(line, self._fragments[made:], chapter.file, lineno):
                del self._fragments[made:]
                chapter.cut = chapter.cut or "the book's chapters make too many elements to lay out"
                break
            out.append(line)
        if chapter.cut:
            out += ["", self._stand_in('<div class="problem">The rest of this chapter is left out: '
                                       f"{_esc(chapter.cut)}</div>")]
        return "\n".join(out)

    def _afford(self, line: str, made: list[str], file: str, lineno: int) -> bool:
        """Whether the book can lay out the elements a line makes (its tags, its directives' and symbols'
        HTML, its emphasis, links and table cells), estimated from above; the first line it cannot is a
        finding, and every line after it is left out."""
        text = STAND_IN.sub("", line)
        count = (len(_OPENING.findall(text)) + sum(len(_OPENING.findall(html)) for html in made)
                 + len(_MARKUP.findall(text)) // 2 + text.count("|") + bool(line.strip()))
        if self.elements >= 0 and count > self.elements:
            self.findings.append(Finding(file, lineno, 1, Severity.ERROR, "rulebook-too-long", None,
                                         f"the book's chapters make more than {ELEMENTS:,} elements (paragraphs, "
                                         "symbols, pictures, emphasis, table cells…) here; the rest is left out",
                                         "the book prints its chapters up to here; split the rulebook or show "
                                         "fewer cards and symbols"))
            self.elements = -1  # reported once; later lines are left out without another finding
        if self.elements < 0:
            return False
        self.elements -= count
        return True

    def _stand_in(self, html: str) -> str:
        """An empty element of the HTML's outer tag, numbered: what the chapter's Markdown holds in its place."""
        m = re.match(r"<([a-z][a-z0-9]*)", html)
        tag = m.group(1) if m and m.group(1) in TAGS else "span"
        self._fragments.append(html if m else f"<span>{html}</span>")
        number = len(self._fragments) - 1
        return f'<{tag} data-cardgen="{number}">' + ("" if tag in ("img", "br", "hr", "wbr") else f"</{tag}>")

    def finish(self, chapter: Chapter, html: str) -> str:
        """The chapter's HTML (its expanded Markdown, converted) cleaned of active content, each removal a
        finding at the chapter's line, with the directives' HTML put back in place of their stand-ins."""
        source = DIRECTIVE.sub(lambda m: " " * len(m.group(0)), chapter.body)  # not the designer's HTML
        cleaned, found = clean(html, chapter.file, chapter.first_line, source)
        self.findings.extend(found)
        fragments = self._fragments

        def back(m: re.Match[str]) -> str:
            number = int(m.group(2))
            return fragments[number] if number < len(fragments) else ""

        finished, cut = dom_cut(STAND_IN.sub(back, cleaned))
        if cut:  # what the estimates on the Markdown (rulebook.limits) let through: the chapter is cut anyway
            self.findings.append(Finding(chapter.file, chapter.first_line, 1, Severity.ERROR, "rulebook-too-deep",
                                         None, f"the chapter's HTML nests more than {DOM_DEPTH} elements deep; "
                                         "it is printed up to there", "nest its quotes, lists and HTML less"))
        return finished

    def _problem(self, file: str, line: int, code: str, message: str, hint: str | None = None) -> str:
        self.findings.append(Finding(file, line, 1, Severity.ERROR, code, None, message, hint))
        return f'<span class="problem">{_esc(message)}</span>'

    def _directive(self, name: str, raw: str, file: str, line: int) -> str:
        handlers: dict[str, Callable[..., str]] = {
            "card": self.card_html, "glossary": self.glossary_html, "components": self.components_html,
            "cost_legend": self.legend_html, "anatomy": self.anatomy_html, "keyword": self.keyword_html,
        }
        if name not in handlers:
            return self._problem(file, line, "rulebook-directive", f"unknown directive '{name}'",
                                 did_you_mean(name, list(handlers)))
        try:
            args = ast.literal_eval(f"({raw},)") if raw.strip() else ()
        except (ValueError, SyntaxError):
            return self._problem(file, line, "rulebook-directive", f"cannot read the arguments of {name}({raw})",
                                 'write them as Python literals, e.g. card("Ember Guard")')
        try:
            return handlers[name](*args, where=(file, line))
        except TypeError as exc:
            return self._problem(file, line, "rulebook-directive", f"{name}(): {exc}")

    def _card(self, name: Any, where: tuple[str, int]) -> Card | str:
        card = self.find(str(name))
        if card is None:
            names = [c.name for c in self.studio.cards if c.name]
            return self._problem(*where, "rulebook-unknown-card", f"no card named '{name}'", did_you_mean(str(name), names))
        return card

    def card_html(self, name: str, where: tuple[str, int]) -> str:
        card = self._card(name, where)
        if isinstance(card, str):
            return card
        src = self.images.get(card.id)
        if src is None:
            return self._problem(*where, "rulebook-card-face", f"'{name}' has no face (no template applies)")
        return (f'<span class="card-figure"><img class="card" src="{src}" alt="{_esc(card.name)}">'
                f'<span class="caption">{_esc(typographic(card.name))}</span></span>')

    def keyword_html(self, name: str, where: tuple[str, int]) -> str:
        kw = self.model.keyword(str(name))
        if kw is None:
            return self._problem(*where, "rulebook-unknown-keyword", f"no keyword '{name}' in the glossary",
                                 did_you_mean(str(name), [k.name for k in self.model.keywords]))
        return f'<strong class="kw">{_esc(kw.name)}</strong>'

    def glossary_html(self, where: tuple[str, int]) -> str:
        items = []
        for kw in sorted(self.model.keywords, key=lambda k: k.name.lower()):
            parts = []
            if kw.reminder:
                parts.append(f'<p class="reminder">{self.rich(kw.reminder)}</p>')
            if kw.rules:
                parts.append(f"<p>{self.rich(kw.rules)}</p>")
            if not parts:
                parts.append('<p class="undefined">The rules do not define this keyword yet.</p>')
            items.append(f'<div class="entry"><dt>{_esc(kw.name)}</dt><dd>{"".join(parts)}</dd></div>')
        return f'<dl class="glossary">{"".join(items)}</dl>'

    def components_html(self, extra: list[str] | None = None, where: tuple[str, int] = ("", 0)) -> str:
        """The box contents: each collation group with its count, then `extra` components (tokens, counters…)
        in the same list."""
        rows = []
        for g in self.model.collation:
            if g.rarities:
                total = g.cards if g.cards is not None else sum((r.designs or 0) * (r.copies or 0)
                                                                for r in g.rarities.values())
                detail = ", ".join(f"{r.designs} {name}{'s' if r.designs != 1 else ''} × {r.copies}"
                                   for name, r in g.rarities.items())
                rows.append(f"<li><strong>{total} {_esc(g.name)} cards</strong>: {_esc(detail)}</li>")
            elif g.cards is not None:
                rows.append(f"<li><strong>{g.cards} {_esc(g.name)} cards</strong></li>")
        rows += [f"<li><strong>{self.symbols(_esc(typographic(str(item))))}</strong></li>" for item in extra or []]
        return f'<ul class="components">{"".join(rows)}</ul>'

    def legend_html(self, where: tuple[str, int]) -> str:
        rows = [f'<div class="legend-row">{self.icon(s.letter)}<div><strong>{_esc(s.name)}</strong>'
                f"<p>{self.rich(s.rules)}</p></div></div>" for s in self.model.cost.symbols]
        return f'<div class="legend">{"".join(rows)}</div>'

    def anatomy_html(self, name: str, labels: dict[str, Any] | None = None, where: tuple[str, int] = ("", 0)) -> str:
        """A card with numbered callouts. `labels` maps template element ids to the numbers of the chapter's
        own numbered list (one source: the list is the legend), or to label texts (the figure then prints
        its own legend, numbered in the order given)."""
        card = self._card(name, where)
        if isinstance(card, str):
            return card
        if card.id not in self.images:
            return self._problem(*where, "rulebook-card-face", f"'{name}' has no face")
        face = self.studio.prepare(card, 0.0)[0]
        boxes = element_boxes(face)
        labels = labels or {eid: eid.replace("-", " ").capitalize() for eid in _labelled(face)}
        if not isinstance(labels, dict):
            return self._problem(*where, "rulebook-anatomy", "anatomy(NAME, {element: number or label, …})")
        numbered: list[tuple[str, int]] = []
        legend: list[str] | None = None
        if all(isinstance(v, int) and not isinstance(v, bool) for v in labels.values()):
            chapter = self._chapter
            items = ordered_list(chapter.body, where[1] - chapter.first_line) if chapter else []
            if not items:
                return self._problem(*where, "rulebook-anatomy", "the figure's numbers refer to the chapter's "
                                     "numbered list, and the chapter has none")
            for eid, number in labels.items():
                if not 1 <= number <= len(items):
                    self._problem(*where, "rulebook-anatomy", f"'{eid}' is numbered {number}; the chapter's list "
                                  f"has {len(items)} items")
                else:
                    numbered.append((eid, number))
            for n in sorted(set(range(1, len(items) + 1)) - {n for _, n in numbered}):
                self._problem(*where, "rulebook-anatomy", f"item {n} of the chapter's list ('{items[n - 1][:40]}') "
                              f"has no callout in the figure")
        else:
            legend = []
            for n, (eid, label) in enumerate(labels.items(), 1):
                numbered.append((eid, n))
                legend.append(self.symbols(_esc(typographic(str(label)))))
        for eid, _ in numbered:
            if eid not in boxes:
                self._problem(*where, "rulebook-anatomy", f"the card's template has no element '{eid}'",
                              did_you_mean(eid, list(boxes)))
        targets = place(face, [(e, n) for e, n in numbered if e in boxes], boxes)
        return figure(face, self.images[card.id], typographic(card.name), targets, legend)

    def _image(self, m: re.Match[str], chapter: Chapter, line: int) -> str:
        from pathlib import Path

        root = self.studio.ws.root
        target, problem = workspace_file(root, root / Path(chapter.file).parent, m.group(2))
        if target is None:
            return self._problem(chapter.file, line, "rulebook-image", f"image '{m.group(2)[:80]}' {problem}")
        return f'<img src="{target.as_uri()}" alt="{_esc(m.group(1))}">'


def _styled(style: int, piece: str) -> str:
    if style & ITALIC:
        piece = f"<em>{piece}</em>"
    return f"<strong>{piece}</strong>" if style & BOLD else piece


def directive_cards(content: BookContent, chapters: list[Chapter]) -> list[Card]:
    """Every card a directive names (found ones), so their faces can be rendered in one batch."""
    cards = []
    for ch in chapters:
        for m in DIRECTIVE.finditer(ch.body):
            if m.group(1) in ("card", "anatomy"):
                try:
                    args = ast.literal_eval(f"({m.group(2)},)")
                except (ValueError, SyntaxError):
                    continue
                card = content.find(str(args[0])) if args else None
                if card is not None:
                    cards.append(card)
    return cards


def _labelled(face) -> list[str]:  # type: ignore[no-untyped-def]
    return [op.props["_id"] for op in face.ops if op.type in ("text", "icons", "badge") and op.props.get("_id")]


"""Turn rulebook directives ({{ card("…") }}, {{ glossary() }}, …) and cost symbols into HTML from the model."""
from __future__ import annotations

import ast
import base64
import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..errors import Finding, Severity, did_you_mean
from ..model.card import Card, designs
from ..model.text import BOLD, ITALIC, RichRules, parse, symbols, typographic
from ..paths import workspace_file
from ..project import Studio
from .anatomy import element_boxes, figure, ordered_list, place
from .source import Chapter

DIRECTIVE = re.compile(r"\{\{\s*([a-z_]+)\s*\((.*?)\)\s*\}\}")
IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
DPI = 300


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

    def symbols(self, text: str) -> str:
        """Chapter prose: each symbol the card tokenizer would draw ([R], {2}, {X}) becomes its icon."""
        rules = self.rules
        out, last = [], 0
        for m, item in symbols(text):
            drawn = rules.drawable(item)
            if drawn is not None:
                out += [text[last:m.start()], self.icon(drawn)]
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
        """Replace each directive in a chapter's Markdown with HTML; problems become findings and markers."""
        self._chapter = chapter
        lines = chapter.body.split("\n")
        out = []
        boxed = False  # inside a '!!! note' box: its indented lines are prose, not a code block
        for offset, line in enumerate(lines):
            if line.startswith("!!!"):
                boxed = True
            elif line.strip() and not line.startswith((" ", "\t")):
                boxed = False
            lineno = chapter.first_line + offset

            def one(m: re.Match[str], lineno: int = lineno) -> str:
                return self._directive(m.group(1), m.group(2), chapter.file, lineno)

            def image(m: re.Match[str], lineno: int = lineno) -> str:
                return self._image(m, chapter, lineno)

            alone = DIRECTIVE.fullmatch(line.strip())
            line = DIRECTIVE.sub(one, line)
            if alone and alone.group(1) == "card":  # a card on a line of its own floats beside the text
                line = line.replace('class="card-figure"', 'class="card-figure float"', 1)
            line = IMAGE.sub(image, line)
            out.append(self.symbols(line) if boxed or not line.startswith("    ") else line)
        return "\n".join(out)

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


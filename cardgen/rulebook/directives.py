"""Turn rulebook directives ({{ card("…") }}, {{ glossary() }}, …) and cost symbols into HTML."""

from __future__ import annotations

import ast
import html
import re
from typing import Any, Callable

from ..core.errors import Finding, Severity, did_you_mean
from ..load.card import Card
from ..model.text import BOLD, ITALIC, RichRules, parse, symbols, typographic
from ..project.studio import Studio
from .anatomy import element_boxes, figure, ordered_list, place
from .bookwords import BookWords
from .source import Chapter

DIRECTIVE = re.compile(r"\{\{\s*([a-z_]+)\s*\((.*?)\)\s*\}\}")
# every card figure prints at this share of its real size, so cards side by side (and anywhere in
# the book) keep their true relative size: a poker card (63 x 88 mm) is 39 x 55 mm, two fit a column
CARD_SCALE = 0.62
END = "<!--/figure-->"  # closes each figure's HTML (rulebook.placement moves figures by it)
PT_MM = 25.4 / 72


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


class Directives:
    """What a book's directives and symbols turn into, from the model (BookContent's HTML)."""

    studio: Studio
    findings: list[Finding]
    images: dict[str, str]
    sizes: dict[str, tuple[float, float]]  # card id -> its face's trimmed size in pt
    figures: int  # figures made so far, for their data-figure numbers (rulebook.placement)
    _rules: RichRules | None
    _chapter: Chapter | None
    words: BookWords  # the book's own words, in its language (index.md's `words:`)

    @property
    def model(self):  # type: ignore[no-untyped-def]
        return self.studio.model

    # -- symbols
    # -------------------------------------------------------------------------------------
    def icon(self, letter: str) -> str:
        """A cost symbol as the cards draw it (render.icons): a disc with its letter, a hybrid split
        on the diagonal with a letter in each half; sized and placed by book.css (.sym)."""
        halves = self.model.cost.halves(letter)
        if halves:
            a, b = (self.model.cost.symbol(h) for h in halves)
            if a is not None and b is not None:
                ink_a, ink_b = a.text_color, b.text_color
                return (
                    f'<span class="sym hybrid" style="background:linear-gradient(135deg,'
                    f'{a.color} 47.5%,#ffffff 47.5%,#ffffff 52.5%,{b.color} 52.5%)" '
                    f'title="{_esc(a.name)} or {_esc(b.name)}">'
                    f'<span class="a" style="color:{ink_a}">{_esc(halves[0])}</span>'
                    f'<span class="b" style="color:{ink_b}">{_esc(halves[1])}</span></span>'
                )
        sym = self.model.cost.symbol(letter)
        bg, fg = (sym.color, sym.text_color) if sym else ("#8a8a8a", "#ffffff")
        title = f' title="{_esc(sym.name)}"' if sym else ""
        multi = " multi" if len(letter) > 1 else ""
        return (
            f'<span class="sym{multi}" style="background-color:{bg}"{title}>'
            f'<span style="color:{fg}">{_esc(letter)}</span></span>'
        )

    def symbols(self, text: str, stand_in: Callable[[str], str] | None = None) -> str:
        """Chapter prose: each symbol the card tokenizer would draw ([R], {2}, {X}) becomes its icon
        (or the icon's stand-in, `stand_in`)."""
        rules = self.rules
        out, last = [], 0
        for m, item in symbols(text):
            drawn = rules.drawable(item)
            if drawn is not None:
                icon = self.icon(drawn)
                out += [text[last : m.start()], stand_in(icon) if stand_in else icon]
                last = m.end()
        return "".join(out) + text[last:]

    def rich(self, text: str) -> str:
        """Card or glossary text as HTML through the card tokenizer: symbols as icons, **bold** and
        glossary keywords bold, reminder text italic (as on the faces), one line per paragraph."""
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

    def find(self, name: str) -> Card | None:
        return self.studio.check.catalog.find(name)

    def _problem(
        self, file: str, line: int, code: str, message: str, hint: str | None = None
    ) -> str:
        self.findings.append(Finding(file, line, 1, Severity.ERROR, code, None, message, hint))
        return f'<span class="problem">{_esc(message)}</span>'

    def _directive(self, name: str, raw: str, file: str, line: int) -> str:
        handlers: dict[str, Callable[..., str]] = {
            "card": self.card_html,
            "glossary": self.glossary_html,
            "components": self.components_html,
            "cost_legend": self.legend_html,
            "anatomy": self.anatomy_html,
            "keyword": self.keyword_html,
        }
        if name not in handlers:
            return self._problem(
                file,
                line,
                "rulebook-directive",
                f"unknown directive '{name}'",
                did_you_mean(name, list(handlers)),
            )
        try:
            args = ast.literal_eval(f"({raw},)") if raw.strip() else ()
        except (ValueError, SyntaxError):
            return self._problem(
                file,
                line,
                "rulebook-directive",
                f"cannot read the arguments of {name}({raw})",
                'write them as Python literals, e.g. card("Ember Guard")',
            )
        usage, least, most = USAGE[name]
        problem = _arguments_problem(name, args, least, most)
        if problem:
            return self._problem(
                file, line, "rulebook-directive", problem, f"write {{{{ {usage} }}}}"
            )
        try:
            return handlers[name](*args, where=(file, line))
        except TypeError:  # an argument of the wrong kind (a number for a name, say)
            return self._problem(
                file,
                line,
                "rulebook-directive",
                f"cannot use the arguments of {name}({raw[:60]})",
                f"write {{{{ {usage} }}}}",
            )

    def _card(self, name: Any, where: tuple[str, int]) -> Card | str:
        card = self.find(str(name))
        if card is None:
            names = [c.name for c in self.studio.cards if c.name]
            return self._problem(
                *where,
                "rulebook-unknown-card",
                f"no card named '{name}'",
                did_you_mean(str(name), names),
            )
        return card

    def card_html(self, name: str, where: tuple[str, int]) -> str:
        card = self._card(name, where)
        if isinstance(card, str):
            return card
        src = self.images.get(card.id)
        if src is None:
            return self._problem(
                *where, "rulebook-card-face", f"'{name}' has no face (no template applies)"
            )
        width = self.sizes.get(card.id, (180.0, 252.0))[0] * PT_MM * CARD_SCALE
        return (
            f'<span class="card-figure" style="width:{width:.2f}mm"><img class="card" src="{src}" '
            f'alt="{_esc(card.name)}"><span class="caption">{_esc(typographic(card.name))}</span>'
            "</span>"
        )

    def figure_width(self, name: Any) -> float:
        """The width in mm of a card's figure (card_html's), a poker card's when there is none."""
        card = self.find(str(name))
        return self.sizes.get(card.id if card else "", (180.0, 252.0))[0] * PT_MM * CARD_SCALE

    def card_row_height(self, names: list[Any]) -> float:
        """The height in pt a row of these cards takes at CARD_SCALE (the tallest card and its
        caption line), for rounding a figure to whole lines of the grid."""
        tallest = 0.0
        for name in names:
            card = self.find(str(name))
            if card is not None and card.id in self.sizes:
                tallest = max(tallest, self.sizes[card.id][1] * CARD_SCALE)
        return tallest + 13.0

    def keyword_html(self, name: str, where: tuple[str, int]) -> str:
        kw = self.model.keyword(str(name))
        if kw is None:
            return self._problem(
                *where,
                "rulebook-unknown-keyword",
                f"no keyword '{name}' in the glossary",
                did_you_mean(str(name), [k.name for k in self.model.keywords]),
            )
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
            items.append(
                f'<div class="entry"><dt>{_esc(kw.name)}</dt><dd>{"".join(parts)}</dd></div>'
            )
        return f'<dl class="glossary">{"".join(items)}</dl>'

    def components_html(
        self, extra: list[str] | None = None, where: tuple[str, int] = ("", 0)
    ) -> str:
        """The box contents from the print run: the cards by kind (by faction where the model has
        factions) with their copies and per-player copies, their other faces (randomizers), then
        game.yaml's `components:` and the `extra` ones written in the directive. An empty list is
        a finding, never a silent gap."""
        from .components import component_rows

        rows = [
            f"<li><strong>{_esc(typographic(head))}</strong>{_esc(typographic(tail))}</li>"
            for head, tail in component_rows(self.studio, self.words)
        ]
        rows += [
            f"<li><strong>{self.symbols(_esc(typographic(str(item))))}</strong></li>"
            for item in extra or []
        ]
        if not rows:
            message = (
                "the components list is empty: no card is in the print run, game.yaml declares "
                "no components: and the directive names none"
            )
            self.findings.append(
                Finding(
                    where[0],
                    where[1],
                    1,
                    Severity.WARNING,
                    "rulebook-components-empty",
                    None,
                    message,
                    "declare them in game.yaml (components: [{name: Coin tokens, count: 30}]) or "
                    'write components(["30 Coin tokens"])',
                )
            )
            return f'<span class="problem">{_esc(message)}</span>'
        return f'<ul class="components">{"".join(rows)}</ul>'

    def legend_html(self, where: tuple[str, int]) -> str:
        rows = [
            f'<div class="legend-row">{self.icon(s.letter)}<div><strong>{_esc(s.name)}</strong>'
            f"<p>{self.rich(s.rules)}</p></div></div>"
            for s in self.model.cost.symbols
        ]
        return f'<div class="legend">{"".join(rows)}</div>'

    def anatomy_html(
        self, name: str, labels: dict[str, Any] | None = None, where: tuple[str, int] = ("", 0)
    ) -> str:
        """A card with numbered callouts. `labels` maps template element ids to the numbers of the
        chapter's own numbered list (one source: the list is the legend), or to label texts (the
        figure then prints its own legend, numbered in the order given)."""
        card = self._card(name, where)
        if isinstance(card, str):
            return card
        if card.id not in self.images:
            return self._problem(*where, "rulebook-card-face", f"'{name}' has no face")
        face = self.studio.prepare(card, 0.0)[0]
        boxes = element_boxes(face)
        labels = labels or {eid: eid.replace("-", " ").capitalize() for eid in _labelled(face)}
        if not isinstance(labels, dict):
            return self._problem(
                *where, "rulebook-anatomy", "anatomy(NAME, {element: number or label, …})"
            )
        numbered: list[tuple[str, int]] = []
        legend: list[str] | None = None
        if all(isinstance(v, int) and not isinstance(v, bool) for v in labels.values()):
            chapter = self._chapter
            items = ordered_list(chapter.body, where[1] - chapter.first_line) if chapter else []
            if not items:
                return self._problem(
                    *where,
                    "rulebook-anatomy",
                    "the figure's numbers refer to the chapter's "
                    "numbered list, and the chapter has none",
                )
            for eid, number in labels.items():
                if not 1 <= number <= len(items):
                    self._problem(
                        *where,
                        "rulebook-anatomy",
                        f"'{eid}' is numbered {number}; the chapter's list has {len(items)} items",
                    )
                else:
                    numbered.append((eid, number))
            for n in sorted(set(range(1, len(items) + 1)) - {n for _, n in numbered}):
                self._problem(
                    *where,
                    "rulebook-anatomy",
                    f"item {n} of the chapter's list ('{items[n - 1][:40]}') "
                    f"has no callout in the figure",
                )
        else:
            legend = []
            for n, (eid, label) in enumerate(labels.items(), 1):
                numbered.append((eid, n))
                legend.append(self.symbols(_esc(typographic(str(label)))))
        rule = self.studio.faces.for_card(card)
        written = {e.id for e in rule.front.elements} if rule is not None else set()
        for eid, _ in numbered:
            if eid in boxes:
                continue
            if eid in written:  # its `when:` is false here, or it has nothing to draw
                self._problem(
                    *where,
                    "rulebook-anatomy",
                    f"element '{eid}' is not drawn on {card.name or card.id} (its when: is false "
                    "for this card, or it has nothing to draw)",
                    "point at it on a card that shows it",
                )
                continue
            self._problem(
                *where,
                "rulebook-anatomy",
                f"the card's template has no element '{eid}'",
                did_you_mean(eid, list(boxes)),
            )
        targets = place(face, [(e, n) for e, n in numbered if e in boxes], boxes)
        drawn = figure(face, self.images[card.id], typographic(card.name), targets, legend)
        self.figures += 1
        mark = f'<div class="anatomy" data-figure="{self.figures}">'
        return drawn.replace('<div class="anatomy">', mark, 1) + END


# each directive as it is written, and how many arguments it takes (at least, at most)
USAGE: dict[str, tuple[str, int, int]] = {
    "card": ('card("Card name")', 1, 1),
    "glossary": ("glossary()", 0, 0),
    "components": ('components(["12 tokens", "a rulebook"])', 0, 1),
    "cost_legend": ("cost_legend()", 0, 0),
    "anatomy": ('anatomy("Card name", {"element id": "Label"})', 1, 2),
    "keyword": ('keyword("Keyword")', 1, 1),
}


def _arguments_problem(name: str, args: tuple[Any, ...], least: int, most: int) -> str | None:
    """Why a directive cannot take these arguments (in a designer's words), or None."""
    if most == 0 and args:
        return f"{name}() takes no arguments, not {len(args)}"
    if not least <= len(args) <= most:
        takes = f"{least}" if least == most else f"{least} or {most}"
        return f"{name}() takes {takes} argument{'s' * (most != 1)}, not {len(args)}"
    if name == "components" and args:
        extra = args[0]
        if not isinstance(extra, (list, tuple)) or not all(isinstance(v, str) for v in extra):
            return "components() takes a list of texts (components game.yaml does not declare)"
    return None


def _styled(style: int, piece: str) -> str:
    if style & ITALIC:
        piece = f"<em>{piece}</em>"
    return f"<strong>{piece}</strong>" if style & BOLD else piece


def directive_cards(content: Directives, chapters: list[Chapter]) -> list[Card]:
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
    return [
        op.props["_id"]
        for op in face.ops
        if op.type in ("text", "icons", "badge") and op.props.get("_id")
    ]

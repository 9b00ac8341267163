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
from .anatomy import anatomy_figure
from .bookwords import BookWords
from .source import Chapter

DIRECTIVE = re.compile(r"\{\{\s*([a-z_]+)\s*\((.*?)\)\s*\}\}")
# every card figure prints at this share of its real size, so cards side by side (and anywhere in
# the book) keep their true relative size: a poker card (63 x 88 mm) is 39 x 55 mm, two fit a column
CARD_SCALE = 0.62
CAPTION_PT = 7.5  # a figure's caption line (book.css .card-figure .caption)
SIDES = ("front", "second", "both")  # what card("Name", SIDE) shows
SECOND = "\0second"  # a card id's key for its second side (images, sizes; no id has a NUL)
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
    chapter_now: Chapter | None
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

    def problem(
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
            return self.problem(
                file,
                line,
                "rulebook-directive",
                f"unknown directive '{name}'",
                did_you_mean(name, list(handlers)),
            )
        try:
            args = ast.literal_eval(f"({raw},)") if raw.strip() else ()
        except (ValueError, SyntaxError):
            return self.problem(
                file,
                line,
                "rulebook-directive",
                f"cannot read the arguments of {name}({raw})",
                'write them as Python literals, e.g. card("Ember Guard")',
            )
        usage, least, most = USAGE[name]
        problem = _arguments_problem(name, args, least, most)
        if problem:
            return self.problem(
                file, line, "rulebook-directive", problem, f"write {{{{ {usage} }}}}"
            )
        try:
            return handlers[name](*args, where=(file, line))
        except TypeError:  # an argument of the wrong kind (a number for a name, say)
            return self.problem(
                file,
                line,
                "rulebook-directive",
                f"cannot use the arguments of {name}({raw[:60]})",
                f"write {{{{ {usage} }}}}",
            )

    def card_named(self, name: Any, where: tuple[str, int]) -> Card | str:
        card = self.find(str(name))
        if card is None:
            names = [c.name for c in self.studio.cards if c.name]
            return self.problem(
                *where,
                "rulebook-unknown-card",
                f"no card named '{name}'",
                did_you_mean(str(name), names),
            )
        return card

    def card_html(self, name: str, side: str = "front", where: tuple[str, int] = ("", 0)) -> str:
        """A card's figure at CARD_SCALE with its name below: its front, its second side
        (faces.yaml `second:`) or both side by side."""
        card = self.card_named(name, where)
        if isinstance(card, str):
            return card
        src = self.images.get(card.id)
        if src is None:
            return self.problem(
                *where, "rulebook-card-face", f"'{name}' has no face (no template applies)"
            )
        caption = typographic(card.name)
        figures = [] if side == "second" else [(card.id, card.name, caption)]
        if side != "front":
            if card.id + SECOND not in self.images:
                return self.problem(
                    *where,
                    "rulebook-card-side",
                    f"'{name}' has no second side (its faces.yaml rule has no `second:`)",
                    f'show its front: card("{name}")',
                )
            said = self.words.said("second_side", name=caption)
            figures.append((card.id + SECOND, said, said))
        return "".join(
            f'<span class="card-figure" style="width:{self._width(key):.2f}mm"><img class="card" '
            f'src="{self.images[key]}" alt="{_esc(alt)}"><span class="caption">{_esc(said)}'
            "</span></span>"
            for key, alt, said in figures
        )

    def _width(self, key: str) -> float:
        return self.sizes.get(key, (180.0, 252.0))[0] * PT_MM * CARD_SCALE

    def figure_width(self, name: Any, side: str = "front") -> float:
        """The width in mm of a card's figure (card_html's), a poker card's when there is none;
        both sides: the two, and the 4 mm between them."""
        card = self.find(str(name))
        key = card.id if card else ""
        if side == "both":
            return self._width(key) + 4 + self._width(key + SECOND)
        return self._width(key + SECOND if side == "second" else key)

    def card_row_height(self, names: list[Any]) -> float:
        """The height in pt a row of these cards takes at CARD_SCALE (the tallest card and its
        caption line), for rounding a figure to whole lines of the grid."""
        tallest = 0.0
        for name in names:
            card = self.find(str(name))
            for key in (card.id, card.id + SECOND) if card is not None else ():
                if key in self.sizes:
                    tallest = max(tallest, self.sizes[key][1] * CARD_SCALE)
        return tallest + CAPTION_PT

    def keyword_html(self, name: str, where: tuple[str, int]) -> str:
        kw = self.model.keyword(str(name))
        if kw is None:
            return self.problem(
                *where,
                "rulebook-unknown-keyword",
                f"no keyword '{name}' in the glossary",
                did_you_mean(str(name), [k.name for k in self.model.keywords]),
            )
        return f'<strong class="kw">{_esc(kw.name)}</strong>'

    def glossary_html(self, where: tuple[str, int]) -> str:
        """The model's keywords, A to Z, each with its reminder and rules; none is a finding (the
        page would show a heading over nothing)."""
        if not self.model.keywords:
            message = "the glossary is empty: game.yaml declares no keywords"
            self.findings.append(
                Finding(
                    where[0],
                    where[1],
                    1,
                    Severity.WARNING,
                    "rulebook-glossary-empty",
                    None,
                    message,
                    "declare them in game.yaml (keywords: [{name: Guard, reminder: …}]), or "
                    "remove the glossary() line",
                )
            )
            return f'<span class="problem">{_esc(message)}</span>'
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
        """A card with numbered callouts (rulebook.anatomy.anatomy_figure)."""
        return anatomy_figure(self, name, labels, where)


# each directive as it is written, and how many arguments it takes (at least, at most)
USAGE: dict[str, tuple[str, int, int]] = {
    "card": ('card("Card name")', 1, 2),
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
    if name == "card" and len(args) == 2 and args[1] not in SIDES:
        return (
            f"card()'s second argument is the side to show, {' or '.join(SIDES)}; "
            f"not {str(args[1])[:40]!r}"
        )
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
    return [card for card, _ in _named(content, chapters)]


def second_side_cards(content: Directives, chapters: list[Chapter]) -> list[Card]:
    """The cards whose second side a card("Name", "second" or "both") directive shows."""
    return [card for card, side in _named(content, chapters) if side in ("second", "both")]


def _named(content: Directives, chapters: list[Chapter]) -> list[tuple[Card, str]]:
    found = []
    for ch in chapters:
        for m in DIRECTIVE.finditer(ch.body):
            if m.group(1) in ("card", "anatomy"):
                try:
                    args = ast.literal_eval(f"({m.group(2)},)")
                except (ValueError, SyntaxError):
                    continue
                card = content.find(str(args[0])) if args else None
                if card is not None:
                    side = str(args[1]) if m.group(1) == "card" and len(args) > 1 else "front"
                    found.append((card, side))
    return found

"""Turn a card face and numbered element ids into an anatomy figure: the card at its true size with
numbered callouts standing outside it, each joined to a bracket along the card's edge that spans its
element."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from typing import Any, Protocol

from ..core.errors import did_you_mean
from ..load.card import Card
from ..model.text import typographic
from ..project.studio import Studio
from ..render.prepared import PreparedFace
from .source import Chapter

PT_MM = 25.4 / 72
GUTTER = (
    10.0  # mm on each side of the card for brackets and numbers (card and gutters fit a column)
)
RADIUS = 2.2  # mm, a number's circle
FONT_PT = 7.0
END = "<!--/figure-->"  # closes each figure's HTML (rulebook.placement moves figures by it)
ORDERED = re.compile(r"^\s{0,3}(\d+)[.)]\s+(.*)$")


@dataclass
class Target:
    number: int
    top: float  # mm from the card's top
    bottom: float
    right: bool  # the callout stands right of the card (else left)


def element_boxes(face: PreparedFace) -> dict[str, tuple[float, float, float, float]]:
    """Each element's box in mm (x, y, w, h from the trim's top-left): what a callout points at."""
    boxes = {}
    for op in face.ops:
        eid = op.props.get("_id")
        if eid and eid not in boxes:
            boxes[eid] = tuple(v * PT_MM for v in op.box)
    return boxes  # type: ignore[return-value]


def ordered_list(body: str, near_line: int) -> list[str]:
    """The chapter's numbered list closest to a line (the list a figure's numbers refer to), item
    texts."""
    lists: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 0
    for i, line in enumerate(body.split("\n")):
        m = ORDERED.match(line)
        if m and (current or m.group(1) == "1"):
            if not current:
                start = i
            current.append(m.group(2).strip())
        elif current and line.strip() and not line.startswith((" ", "\t")):
            lists.append((start, current))
            current = []
    if current:
        lists.append((start, current))
    if not lists:
        return []
    return min(lists, key=lambda item: abs(item[0] - near_line))[1]


def place(
    face: PreparedFace,
    numbered: list[tuple[str, int]],
    boxes: dict[str, tuple[float, float, float, float]],
) -> list[Target]:
    """Each (element id, number) as a target on the side of the card its element is nearest to."""
    width = face.width * PT_MM
    height = face.height * PT_MM
    out = []
    for eid, number in numbered:
        x, y, w, h = boxes[eid]
        top, bottom = max(0.0, y), min(height, y + h)
        out.append(Target(number, top, max(top + 1.0, bottom), x + w / 2 >= width / 2 - 0.5))
    return out


def _disc(cx: float, cy: float, n: int) -> str:
    """A number in a filled circle, the digit centred by its cap height (≈ 0.7 em): callouts and
    legend alike."""
    baseline = cy + FONT_PT * 0.7 / 2 * PT_MM
    return (
        f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{RADIUS}" fill="#c0501f"/><text x="{cx:.2f}" '
        f'y="{baseline:.3f}" '
        f'fill="#ffffff" font-family="Lato-Black" font-size="{FONT_PT * PT_MM:.3f}" '
        f'text-anchor="middle">{n}</text>'
    )


def svg(face: PreparedFace, targets: list[Target]) -> str:
    """The overlay drawn over the card image (which sits GUTTER mm from the overlay's left edge):
    brackets in the gutters, never over the card, and numbers centred in their circles, stacked so
    they never touch."""
    width, height = face.width * PT_MM, face.height * PT_MM
    total = width + 2 * GUTTER
    lines: list[str] = []
    discs: list[str] = []
    lowest = height
    for right in (False, True):
        side = sorted((t for t in targets if t.right == right), key=lambda t: (t.top, t.number))
        levels: list[float] = []  # each bracket level's lowest end so far
        last_cy = -99.0
        for t in side:
            level = next((i for i, end in enumerate(levels) if end + 0.8 < t.top), len(levels))
            if level == len(levels):
                levels.append(t.bottom)
            else:
                levels[level] = t.bottom
            edge = GUTTER + width if right else GUTTER
            sign = 1 if right else -1
            bx = edge + sign * (1.0 + 1.3 * level)
            y1, y2 = t.top + 0.4, t.bottom - 0.4
            cy = max((y1 + y2) / 2, last_cy + 2 * RADIUS + 0.6)
            last_cy = cy
            lowest = max(lowest, cy + RADIUS + 0.3)
            cx = GUTTER + width + GUTTER - RADIUS - 0.3 if right else RADIUS + 0.3
            lines.append(
                f'<path d="M{edge + sign * 0.3:.2f},{y1:.2f} H{bx:.2f} V{y2:.2f} '
                f'H{edge + sign * 0.3:.2f}"/>'
            )
            lines.append(
                f'<path d="M{bx:.2f},{(y1 + y2) / 2:.2f} L{cx - sign * RADIUS:.2f},{cy:.2f}"/>'
            )
            discs.append(_disc(cx, cy, t.number))
    return (
        f'<svg class="callouts" xmlns="http://www.w3.org/2000/svg" width="{total:.2f}mm" '
        f'height="{lowest:.2f}mm" '
        f'viewBox="0 0 {total:.2f} {lowest:.2f}">'
        '<g fill="none" stroke="#c0501f" '
        f'stroke-width="0.25">{"".join(lines)}</g>{"".join(discs)}</svg>'
    )


def number_svg(n: int) -> str:
    """A legend number drawn like the callouts, so the two match."""
    d = 2 * RADIUS
    return (
        f'<svg class="num" xmlns="http://www.w3.org/2000/svg" width="{d}mm" height="{d}mm" '
        f'viewBox="0 0 {d} {d}">'
        f"{_disc(RADIUS, RADIUS, n)}</svg>"
    )


def figure(
    face: PreparedFace, image: str, alt: str, targets: list[Target], legend: list[str] | None
) -> str:
    """The figure's HTML: the card image at its true size under the callout overlay, and a legend
    only when the numbers are not the chapter's own list."""
    width = face.width * PT_MM
    overlay = svg(face, targets)
    items = "".join(f"<li>{number_svg(n)} {text}</li>" for n, text in enumerate(legend or [], 1))
    return (
        f'<div class="anatomy"><div class="anatomy-card" style="width:{width + 2 * GUTTER:.2f}mm">'
        f'<img class="card" src="{image}" alt="{escape(alt)}" '
        f'style="left:{GUTTER}mm;width:{width:.2f}mm">'
        f"{overlay}</div>"
        + (f'<ol class="anatomy-legend">{items}</ol>' if legend else "")
        + "</div>"
    )


class Directives(Protocol):
    """What an anatomy figure reads of the book's directives (rulebook.directives.Directives)."""

    studio: Studio
    images: dict[str, str]
    figures: int
    chapter_now: Chapter | None

    def card_named(self, name: Any, where: tuple[str, int]) -> Card | str: ...
    def problem(
        self, file: str, line: int, code: str, message: str, hint: str | None = None
    ) -> str: ...
    def symbols(self, text: str) -> str: ...


def anatomy_figure(
    content: Directives, name: str, labels: dict[str, Any] | None, where: tuple[str, int]
) -> str:
    """A card with numbered callouts. `labels` maps template element ids to the numbers of the
    chapter's own numbered list (one source: the list is the legend), or to label texts (the
    figure then prints its own legend, numbered in the order given)."""
    card = content.card_named(name, where)
    if isinstance(card, str):
        return card
    if card.id not in content.images:
        return content.problem(*where, "rulebook-card-face", f"'{name}' has no face")
    face = content.studio.prepare(card, 0.0)[0]
    boxes = element_boxes(face)
    labels = labels or {eid: eid.replace("-", " ").capitalize() for eid in _labelled(face)}
    if not isinstance(labels, dict):
        return content.problem(
            *where, "rulebook-anatomy", "anatomy(NAME, {element: number or label, …})"
        )
    numbered: list[tuple[str, int]] = []
    legend: list[str] | None = None
    if all(isinstance(v, int) and not isinstance(v, bool) for v in labels.values()):
        chapter = content.chapter_now
        items = ordered_list(chapter.body, where[1] - chapter.first_line) if chapter else []
        if not items:
            return content.problem(
                *where,
                "rulebook-anatomy",
                "the figure's numbers refer to the chapter's "
                "numbered list, and the chapter has none",
            )
        for eid, number in labels.items():
            if not 1 <= number <= len(items):
                content.problem(
                    *where,
                    "rulebook-anatomy",
                    f"'{eid}' is numbered {number}; the chapter's list has {len(items)} items",
                )
            else:
                numbered.append((eid, number))
        for n in sorted(set(range(1, len(items) + 1)) - {n for _, n in numbered}):
            content.problem(
                *where,
                "rulebook-anatomy",
                f"item {n} of the chapter's list ('{items[n - 1][:40]}') "
                f"has no callout in the figure",
            )
    else:
        legend = []
        for n, (eid, label) in enumerate(labels.items(), 1):
            numbered.append((eid, n))
            legend.append(content.symbols(escape(typographic(str(label)), quote=True)))
    rule = content.studio.faces.for_card(card)
    written = {e.id for e in rule.front.elements} if rule is not None else set()
    for eid, _ in numbered:
        if eid in boxes:
            continue
        if eid in written:  # its `when:` is false here, or it has nothing to draw
            content.problem(
                *where,
                "rulebook-anatomy",
                f"element '{eid}' is not drawn on {card.name or card.id} (its when: is false "
                "for this card, or it has nothing to draw)",
                "point at it on a card that shows it",
            )
            continue
        content.problem(
            *where,
            "rulebook-anatomy",
            f"the card's template has no element '{eid}'",
            did_you_mean(eid, list(boxes)),
        )
    targets = place(face, [(e, n) for e, n in numbered if e in boxes], boxes)
    drawn = figure(face, content.images[card.id], typographic(card.name), targets, legend)
    content.figures += 1
    mark = f'<div class="anatomy" data-figure="{content.figures}">'
    return drawn.replace('<div class="anatomy">', mark, 1) + END


def _labelled(face: PreparedFace) -> list[str]:
    return [
        op.props["_id"]
        for op in face.ops
        if op.type in ("text", "icons", "badge") and op.props.get("_id")
    ]

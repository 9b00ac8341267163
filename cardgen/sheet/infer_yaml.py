"""Turn an inferred game into YAML text: game.yaml with a comment on every inferred choice, and one
card file per table."""

from __future__ import annotations

import json
import textwrap

from ..load.yamlemit import double_quoted
from .infer import Column, Inferred
from .infer_cost import COST_HEADERS, CostGuess, cost_yaml
from .infer_editions import editions_yaml

MAX_BADGES = 4  # whole-number fields the front shows as badges along its foot

# Frame colours for the vocabulary the template colours its cards by: (frame, light panel). Any
# two frames stay apart (CAM02-UCS ΔE over 10) under simulated deuteranopia, protanopia and
# tritanopia, the first four also in lightness (10 J' apart: a greyscale print tells them), and
# each holds white type at 4.5:1: the guards' colour checks pass on an inferred game.
PALETTE = (
    ("#c0461b", "#f6e4e1"),
    ("#1b6340", "#e4f2e2"),
    ("#4f2a72", "#ebe2f6"),
    ("#0c1d3d", "#e1e6f0"),
    ("#2776a0", "#e1ebf6"),
    ("#a3367a", "#f6e1ee"),
    ("#5a3a00", "#f3eadb"),
    ("#4a4f55", "#eceef0"),
)
_FLOW_UNSAFE = set(",[]{}:#&*!|>'\"%@`")
_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}  # YAML 1.1 reads them


def scalar(value: object, flow: bool = False) -> str:
    """One value as a YAML scalar: plain when it plainly reads back as itself (it starts with a
    letter, holds no ': ' or ' #', is no word YAML reads as true, false or null), else
    double-quoted."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    text = str(value)
    plain = (
        bool(text)
        and text[0].isascii()
        and text[0].isalpha()
        and text.isprintable()
        and ": " not in text
        and " #" not in text
        and not text.endswith(":")
        and text.lower() not in _WORDS
        and not (flow and _FLOW_UNSAFE & set(text))
    )
    return text if plain else double_quoted(text)


def colour_field(inferred: Inferred) -> Column | None:
    """The enumeration whose values colour the frame: the faction, else the kind, else the first
    with at most as many values as the palette has colours."""
    small = [c for c in inferred.columns if c.kind == "enum" and len(c.vocab) <= len(PALETTE)]
    for role in ("faction", "kind"):
        found = next((c for c in small if c.role == role), None)
        if found is not None:
            return found
    return small[0] if small else None


def game_yaml(inferred: Inferred, title: str, source: str) -> str:
    """game.yaml, every inferred choice explained in a comment."""
    colour = colour_field(inferred)
    lines = [
        f"# {title}: the rules model, inferred by `cardgen new --from {source}`",
        "# (docs/new-from-sheet.md). Every choice below was guessed from the sheet's columns and",
        "# says why in a comment: change what is wrong (docs/model.md), then validate again.",
        "game:",
        f"  name: {scalar(title)}",
        '  version: "0.1"',
        f"  description: {scalar(f'Cards from {source}.')}",
        "",
        "card:",
        "  size: 63mm x 88mm",
        "  bleed: 3mm",
        "  safe: 3mm",
        "",
    ]
    if inferred.editions is not None:
        lines += editions_yaml(inferred.editions)
    vocabs = [c for c in inferred.columns if c.kind in ("enum", "list")]
    if vocabs:
        lines.append("vocabularies:")
        for col in vocabs:
            lines.append(f"  # the values of {_said(col)}, commonest first")
            if col is colour:
                lines.append(
                    "  # (the frame colours: `color` and `light` are read by the template)"
                )
                lines.append(f"  {col.field}:")
                for value, (frame, light) in zip(col.vocab, PALETTE):
                    names = _names(inferred, col, value)
                    lines.append(
                        f"    - {{name: {scalar(value, True)}{names}, "
                        f'color: "{frame}", light: "{light}"}}'
                    )
            else:
                lines.append(f"  {col.field}:")
                lines += [
                    f"    - {{name: {scalar(v, True)}{_names(inferred, col, v)}}}"
                    if _names(inferred, col, v)
                    else f"    - {scalar(v)}"
                    for v in col.vocab
                ]
        lines.append("")
    lines.append("fields:")
    for col in inferred.columns:
        if col.kind == "id":
            continue
        lines += textwrap.wrap(
            f"{_said(col)}: {col.why}{_filled(col)}",
            98,
            initial_indent="  # ",
            subsequent_indent="  #   ",
            break_on_hyphens=False,
        )
        lines.append(f"  {col.field}: {{{', '.join(_spec(col))}}}")
    lines.append("")
    factions = (
        dict(zip(colour.vocab, (frame for frame, _ in PALETTE)))
        if colour is not None and colour.role == "faction"
        else {}
    )
    rules = tuple(c.field for c in plan(inferred)["rules"])
    lines += cost_yaml(inferred.cost or CostGuess(), PALETTE, factions, rules) + [""]
    lines += _collation(inferred)
    return "\n".join(lines).rstrip("\n") + "\n"


def _names(inferred: Inferred, col: Column, value: str) -> str:
    """', name@de: Zauber' for a vocabulary value a language column names, else ''."""
    guess = inferred.editions
    by_lang = guess.values.get(col.field, {}) if guess is not None else {}
    return "".join(
        f", name@{code}: {scalar(names[value], True)}"
        for code, names in by_lang.items()
        if value in names
    )


def _said(col: Column) -> str:
    return f"{json.dumps(col.header, ensure_ascii=False)} ({col.where})"


def _filled(col: Column) -> str:
    if col.filled == col.rows:
        return f"; on every card{' (so required)' if col.required else ''}"
    return f"; on {col.filled} of {col.rows} cards"


def _spec(col: Column) -> list[str]:
    kind = {"name": "text", "copies": "integer"}.get(col.kind, col.kind)
    out = [f"type: {kind}"]
    if col.kind in ("enum", "list"):
        out.append(f"vocab: {col.field}")
    if col.kind in ("integer", "int-or-x"):
        out += [f"min: {col.minimum}", f"max: {col.maximum}"]
    elif col.kind == "copies":  # no most: a print run may grow
        out.append("min: 0")
    if col.required:
        out.append("required: true")
    if col.header != col.field:  # the sheet's header: `sheet pull` reads it, a push writes it
        out.append(f"label: {scalar(col.header, True)}")
    if col.role:
        out.append(f"role: {col.role}")
    return out


def _collation(inferred: Inferred) -> list[str]:
    copies = inferred.get("copies")
    if copies is None:
        return ["# No copies column: `cardgen sheets` prints one copy of each card."]
    said = (
        f"No collation: `{copies.field}`, from {_said(copies)}, is how many copies of each card "
        "one print run has (`role: copies`); a card without a count prints once. Add a collation "
        "(docs/model.md) to print by rarity or kind instead: a card's own count still wins."
    )
    if copies.filled < copies.rows:
        said += f" {copies.rows - copies.filled} of {copies.rows} cards have no count."
    return textwrap.wrap(said, 98, initial_indent="# ", subsequent_indent="# ")


def cards_yaml(cards: list[dict[str, object]], table: str, source: str) -> str:
    """One card file: a list of cards, `id` first, multi-line text as `|-` blocks."""
    head = f"# The cards of {json.dumps(table, ensure_ascii=False)} in {source}, one per row."
    parts = [head]
    for card in cards:
        lines: list[str] = []
        for key, value in card.items():
            lead = "- " if not lines else "  "
            lines.append(lead + _entry(key, value))
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def _entry(key: str, value: object) -> str:
    if isinstance(value, list):
        return f"{key}: [{', '.join(scalar(v, True) for v in value)}]"
    if (
        isinstance(value, str)
        and "\n" in value
        and not value.startswith((" ", "\t"))
        and all(line.isprintable() for line in value.split("\n"))
    ):  # a literal block keeps every character as it is
        body = "\n".join(f"    {line}" if line else "" for line in value.split("\n"))
        return f"{key}: |-\n{body}"
    return f"{key}: {scalar(value)}"


def plan(inferred: Inferred) -> dict[str, list[Column]]:
    """Which field goes where: cost (the top-right badge), badges (whole numbers along the foot),
    facts (short values under the name), rules (long texts), flavor, copies (the footer)."""
    fields = [c for c in inferred.columns if c.kind not in ("id", "name")]
    ints = [c for c in fields if c.kind in ("integer", "int-or-x")]
    cost = next((c for c in fields if c.kind == "cost"), None) or next(
        (c for c in ints if c.field.startswith(COST_HEADERS)), None
    )
    ints = [c for c in ints if c is not cost]
    stats = sorted(ints, key=lambda c: c.role not in ("attack", "health"))[:MAX_BADGES]
    flavor = [c for c in fields if c.role == "flavor"][:1]
    rules = [c for c in fields if c.kind == "text" and c.long and c not in flavor]
    rules.sort(key=lambda c: c.role != "text")
    art = [c for c in fields if c.role == "art"][:1]
    placed = {id(c) for c in [cost, *stats, *flavor, *rules, *art] if c is not None}
    facts = [c for c in fields if id(c) not in placed and c.kind != "copies"]
    return {
        "cost": [cost] if cost else [],
        "badges": [c for c in ints if c in stats],
        "facts": facts,
        "rules": rules,
        "flavor": flavor,
        "copies": [c for c in fields if c.kind == "copies"],
        "art": art,
    }

"""Checks across the whole set: duplicate ids and names, and collector numbers."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import replace
from typing import Iterator

from ..core.errors import Finding, Severity
from ..load.card import Card, Catalog
from ..model.game import NumberPrefix, Role, matches
from . import Context, set_check
from .names import difference, print_key, shown


@set_check("duplicates")
def check_duplicates(catalog: Catalog, ctx: Context) -> Iterator[Finding]:
    """Ids and names used twice, also where the two differ only in what does not show: characters
    that do not print, the Unicode form (é as one character or as e and an accent), runs of spaces
    (names.print_key), and for names where the spaces are (a zero-width space may stand for one or
    for none)."""
    first_id: dict[str, Card] = {}
    first_name: dict[str, Card] = {}
    for card in catalog:
        id_key = print_key(card.id)
        if id_key in first_id:
            other = first_id[id_key]
            same = other.id == card.id
            yield ctx.at(
                card,
                "id" if "id" in card.data else "name",
                Severity.ERROR,
                "duplicate-id",
                f"id '{shown(card.id)}' is already used by the card at {other.where()}"
                if same
                else f"id '{shown(card.id)}' prints like '{shown(other.id)}', the id of the card "
                "at "
                f"{other.where()}: {difference(card.id, other.id)}",
                "give one of them an explicit 'id'"
                if same
                else "retype one of them, or give it another id",
            )
            continue
        first_id[id_key] = card
        name = (
            print_key(card.name).replace(" ", "").lower()
        )  # 'Dawn\u200bSentinel' prints as 'DawnSentinel'
        if name and not ctx.is_placeholder(card.name):
            if name in first_name:
                other = first_name[name]
                yield ctx.at(
                    card,
                    "name",
                    Severity.WARNING,
                    "duplicate-name",
                    f"another card is also named '{shown(card.name)}' ({other.where()})"
                    if other.name.strip().lower() == card.name.strip().lower()
                    else f"name '{shown(card.name)}' prints like '{shown(other.name)}', the name "
                    "of the card at "
                    f"{other.where()}: {difference(card.name, other.name)}",
                )
            else:
                first_name[name] = card


def _gaps(used: set[int], top: int) -> list[tuple[int, int]]:
    """The runs of 1..top missing from `used`, as (first, last) pairs; work bounded by len(used),
    not by top (a total of a hundred digits is one run)."""
    runs, expect = [], 1
    for n in sorted(u for u in used if 1 <= u <= top):
        if n > expect:
            runs.append((expect, n - 1))
        expect = n + 1
    if expect <= top:
        runs.append((expect, top))
    return runs


def _compact(runs: list[tuple[int, int]]) -> str:
    """[(1, 3), (5, 5)] -> '1-3, 5'."""
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs)


PATTERN_SECONDS = 0.1


@set_check("numbering")
def check_numbers(catalog: Catalog, ctx: Context) -> Iterator[Finding]:
    """Collector numbers against the scheme, each finding tagged as depending on it."""
    for f in _numbers(catalog, ctx):
        yield f if f.about else replace(f, about="numbering")


def _numbers(catalog: Catalog, ctx: Context) -> Iterator[Finding]:
    scheme = ctx.model.numbering
    if scheme is None:
        return
    import regex  # here: only a model with numbering loads the pattern engine

    pattern = regex.compile(
        scheme.pattern
    )  # the designer's pattern: matched with a time bound (see below)
    declared = {p.prefix: p for p in scheme.prefixes}
    folded = {p.prefix.lower(): p for p in scheme.prefixes}
    seen: dict[tuple[str, str], Card] = {}
    by_prefix: dict[str, list[tuple[Card, str, str]]] = defaultdict(
        list
    )  # prefix -> (card, index, total)
    for card in catalog:
        raw = card.get(scheme.key)
        if raw is None or not isinstance(raw, str) or ctx.is_placeholder(raw):
            if (
                raw is None
                and scheme.required
                and any(matches(p.where, card.data) for p in scheme.prefixes)
            ):
                yield ctx.at(
                    card, None, Severity.WARNING, "number-missing", f"card has no '{scheme.key}'"
                )
            continue
        try:
            m = pattern.match(raw.strip()[:200], timeout=PATTERN_SECONDS)
        except TimeoutError:
            yield ctx.at_model(
                scheme.loc,
                Severity.ERROR,
                "number-pattern-slow",
                f"numbering.pattern takes over {PATTERN_SECONDS} s on '{raw[:40]}': it backtracks "
                "catastrophically (nested repeats such as (a+)+); numbers were not checked",
            )
            return
        if not m:
            yield ctx.at(
                card,
                scheme.key,
                Severity.ERROR,
                "number-malformed",
                f"collector number '{raw}' does not match the scheme {scheme.pattern}",
            )
            continue
        groups = m.groupdict()
        written, index, total = (
            groups.get("prefix") or "",
            groups["index"],
            groups.get("total") or "",
        )
        spec = declared.get(written)
        if spec is None and written.lower() in folded:
            spec = folded[written.lower()]
            if scheme.case_sensitive:
                yield ctx.at(
                    card,
                    scheme.key,
                    Severity.WARNING,
                    "number-prefix-case",
                    f"prefix '{written}' in '{raw}' is written '{spec.prefix}' by the scheme",
                )
        if spec is None:
            yield ctx.at(
                card,
                scheme.key,
                Severity.WARNING,
                "number-unknown-prefix",
                f"prefix '{written}' in '{raw}' is not in the numbering scheme",
                f"prefixes: {', '.join(declared)}",
            )
            continue
        if not matches(spec.where, card.data) and all(
            card.get(f) is not None for f in selected_fields(spec.where)
        ):
            yield ctx.at(
                card,
                scheme.key,
                Severity.WARNING,
                "number-prefix-mismatch",
                f"'{raw}' uses prefix '{spec.prefix}' ({_describe(spec)}), which this card is not",
            )
        if index.lower() == scheme.unassigned.lower():
            yield ctx.at(
                card, scheme.key, Severity.INFO, "number-unassigned", f"'{raw}' has no number yet"
            )
        else:
            key = (spec.prefix, str(int(index)) if index.isdecimal() else index)
            if key in seen:
                yield ctx.at(
                    card,
                    scheme.key,
                    Severity.ERROR,
                    "number-duplicate",
                    f"'{raw}' is also the number of '{seen[key].name}' ({seen[key].where()})",
                )
            else:
                seen[key] = card
        by_prefix[spec.prefix].append((card, index, total))
    for prefix, entries in by_prefix.items():
        yield from _totals_and_gaps(ctx, declared[prefix], entries, scheme.unassigned)


def _describe(spec: NumberPrefix) -> str:
    return ", ".join(f"{k} {v}" for k, v in spec.where.items()) or "every card"


def _totals_and_gaps(
    ctx: Context, spec: NumberPrefix, entries: list[tuple[Card, str, str]], unassigned: str
) -> Iterator[Finding]:
    field = ctx.model.numbering.key if ctx.model.numbering else ctx.model.role_field(Role.NUMBER)
    if field is None:
        return
    totals = Counter(t for _, _, t in entries if t.isdecimal())
    usual = (
        spec.total if spec.total is not None else (totals.most_common(1)[0][0] if totals else None)
    )
    for card, index, total in entries:
        if not total.isdecimal():
            continue
        if usual is not None and int(total) != int(usual):
            source = (
                "the numbering scheme says"
                if spec.total is not None
                else f"most '{spec.prefix}' cards say"
            )
            yield ctx.at(
                card,
                field,
                Severity.WARNING,
                "number-total",
                f"'{card.get(field)}' says /{total}; {source} /{usual}",
            )
        over = index.isdecimal() and spec.total is not None and int(index) > spec.total
        if index.isdecimal() and int(index) > int(total) and not over:  # else number-over-total
            yield ctx.at(
                card,
                field,
                Severity.WARNING,
                "number-out-of-range",
                f"'{card.get(field)}' is past its own total",
            )
    if spec.total is not None:
        yield from _over_total(ctx, spec, entries, field)
    if spec.total is None and usual is not None:
        homes = Counter(
            next((g.name for g in ctx.model.collation if matches(g.where, c.data)), "")
            for c, _, _ in entries
        )
        home = homes.most_common(1)[0][0]
        group = next((g for g in ctx.model.collation if g.name == home and g.rarities), None)
        designs = sum(r.designs or 0 for r in group.rarities.values()) if group else 0
        if designs and int(usual) != designs:
            yield ctx.at_model(
                spec.loc,
                Severity.WARNING,
                "number-total-collation",
                f"prefix '{spec.prefix}': cards are numbered out of {usual}, but the collation "
                f"has {designs} {group.name} designs",  # type: ignore[union-attr]
            )
    used = {int(i) for _, i, _ in entries if i.isdecimal()}
    top = int(usual) if usual is not None else max(used, default=0)
    runs = _gaps(used, top)
    if runs:
        pending = sum(1 for _, i, _ in entries if i.lower() == unassigned.lower())
        severity = Severity.INFO if pending else Severity.WARNING
        extra = f"; {pending} card(s) still numbered '{unassigned}'" if pending else ""
        missing = sum(b - a + 1 for a, b in runs)
        yield ctx.at_model(
            spec.loc,
            severity,
            "number-gaps",
            f"prefix '{spec.prefix}': {missing} of 1-{top} unused ({_compact(runs)}){extra}",
        )


def _over_total(
    ctx: Context, spec: NumberPrefix, entries: list[tuple[Card, str, str]], field: str
) -> Iterator[Finding]:
    """Numbers past the scheme's total, and more numbered cards than the total."""
    total = spec.total or 0
    for card, index, _ in entries:
        if index.isdecimal() and int(index) > total:
            yield ctx.at(
                card,
                field,
                Severity.ERROR,
                "number-over-total",
                f"'{card.get(field)}' is number {int(index)}, past the total of prefix "
                f"'{spec.prefix}', {total}",
                "renumber the card, or raise the prefix's total in numbering.prefixes",
            )
    numbered = {int(i) for _, i, _ in entries if i.isdecimal()}
    if len(numbered) > total:
        yield ctx.at_model(
            spec.loc,
            Severity.ERROR,
            "number-over-total",
            f"prefix '{spec.prefix}' numbers {len(numbered)} cards, but its total is {total}",
            "raise the total, or move cards to another prefix",
        )


def selected_fields(where: dict[str, object]) -> set[str]:
    return {k[4:] if k.startswith("not ") else k for k in where}

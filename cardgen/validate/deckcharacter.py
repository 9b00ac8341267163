"""Turn a character deck list into findings against the model's `deck.character` rules."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterator

from ..core.errors import Finding, Severity, did_you_mean
from ..load.card import Card
from ..load.decklist import DeckList, Entry
from ..model.deckrules import CharacterRules
from ..model.game import GameModel, matches
from .deckmain import _f


def _character(
    deck: DeckList, spec: CharacterRules, resolved: list[tuple[Entry, Card]], model: GameModel
) -> Iterator[Finding]:
    """A herocrafting character, as the model's `deck.character` describes it: the list's groups are
    values of a field (`groups_field`) whose vocabulary says each value's role (`role_attr`): one
    `primary` group and `secondary` groups with card counts, a `signature` card from the primary
    group, `extras` cards, and colour pips (`pips`) the secondary groups share and the extras
    require. Every name comes from the model, and a message puts it only before a word of
    cardgen's own ('2 Clan groups', 'one of the Omen cards'): cardgen never inflects the model's
    words, which may not be English, so no message says 'a Omen'."""
    names = {
        "primary": "primary",
        "secondary": "secondary",
        "signature": "signature",
        "extras": "extra",
        **spec.names,
    }
    vocab = model.vocab_for(spec.groups_field)
    role_of = {t.name: t.attrs.get(spec.role_attr) for t in vocab.terms} if vocab else {}
    primary, secondary, sig, ext = spec.primary, spec.secondary, spec.signature, spec.extras
    groups = [g for g in deck.sections() if g not in (sig.section, ext.section)]
    primaries = [g for g in groups if role_of.get(g) == primary.role]
    secondaries = [g for g in groups if role_of.get(g) == secondary.role]
    first = {g: next(e.line for e in deck.entries if e.section == g) for g in groups}
    for g in groups:
        if g not in role_of:
            yield _f(
                deck,
                first[g],
                Severity.ERROR,
                "deck-group",
                f"'{g}' is no value of '{spec.groups_field}', so no {names['primary']} or "
                f"{names['secondary']} group",
                did_you_mean(g, list(role_of)),
            )
    if len(primaries) != primary.count:
        yield _f(
            deck,
            first[primaries[1]] if len(primaries) > 1 else 1,
            Severity.ERROR,
            "deck-primary",
            f"{_n(len(primaries), names['primary'] + ' group')}; a character chooses exactly "
            f"{primary.count}",
        )
    for g in primaries:
        n = sum(e.count for e in deck.entries if e.section == g)
        if primary.cards is not None and n != primary.cards:
            yield _f(
                deck,
                first[g],
                Severity.ERROR,
                "deck-primary",
                f"{_n(n, g + ' card')}; pick exactly {primary.cards} from your "
                f"{names['primary']} group",
            )
    n_secondary = sum(e.count for e in deck.entries if e.section in secondaries)
    if secondary.cards is not None and n_secondary != secondary.cards:
        yield _f(
            deck,
            first[secondaries[0]] if secondaries else 1,
            Severity.ERROR,
            "deck-secondary",
            f"{_n(n_secondary, 'card')} from {names['secondary']} groups; pick exactly "
            f"{secondary.cards} from them in all",
        )
    if len(secondaries) > secondary.count:
        yield _f(
            deck,
            first[secondaries[secondary.count]],
            Severity.ERROR,
            "deck-secondary",
            f"{_n(len(secondaries), names['secondary'] + ' group')}; a character chooses "
            f"{secondary.count}",
        )
    elif len(secondaries) < secondary.count:
        yield _f(
            deck,
            first[secondaries[0]] if secondaries else 1,
            Severity.INFO,
            "deck-unverifiable",
            f"the list names {_n(len(secondaries), names['secondary'] + ' group')} of the "
            f"{secondary.count} a character chooses; the others are not named, so they cannot be "
            "checked",
        )
    for e, c in resolved:
        value = c.get(spec.groups_field)
        if e.section in role_of and e.section in groups and value and value != e.section:
            # (a group that is no value at all is one deck-group error, not one per card)
            yield _f(
                deck,
                e.line,
                Severity.ERROR,
                "deck-wrong-section",
                f"'{c.name}' has {spec.groups_field} {value}, not {e.section}",
            )
    signature = [(e, c) for e, c in resolved if e.section == sig.section]
    extras = [(e, c) for e, c in resolved if e.section == ext.section]
    sig_written = [e for e in deck.entries if e.section == sig.section]
    if len(sig_written) != sig.count:
        yield _f(
            deck,
            1,
            Severity.ERROR,
            "deck-signature",
            f"{_n(len(sig_written), names['signature'] + ' card')}; a character has exactly "
            f"{sig.count}",
        )
    for e, c in signature:
        if not matches(sig.where, c.data):
            yield _f(
                deck,
                e.line,
                Severity.ERROR,
                "deck-signature",
                f"'{c.name}' is not one of the {names['signature']} cards",
            )
        elif primaries and c.get(spec.groups_field) and c.get(spec.groups_field) not in primaries:
            yield _f(
                deck,
                e.line,
                Severity.ERROR,
                "deck-signature",
                f"'{c.name}' is the {c.get(spec.groups_field)} {names['signature']} card; the "
                f"{names['primary']} group is {primaries[0]}",
            )
    ext_written = [e for e in deck.entries if e.section == ext.section]
    if len(ext_written) != ext.count:
        yield _f(
            deck,
            ext_written[0].line if ext_written else 1,
            Severity.ERROR,
            "deck-extras",
            f"{_n(len(ext_written), names['extras'] + ' card')}; pick {ext.count}",
        )
    for e, c in extras:
        if not matches(ext.where, c.data):
            yield _f(
                deck,
                e.line,
                Severity.ERROR,
                "deck-extras",
                f"'{c.name}' is not one of the {names['extras']} cards",
            )
    written = ext_written or sig_written or deck.entries
    at = written[0].line if written else 1
    yield from _pips(deck, spec, at, primaries, secondaries, extras, names, vocab)
    feats = len(sig_written) + len(ext_written)
    if (
        spec.feats
        and feats != spec.feats
        and len(sig_written) == sig.count
        and len(ext_written) == ext.count
    ):
        yield _f(
            deck, at, Severity.ERROR, "deck-feats", f"{feats} feats; a character has {spec.feats}"
        )


def _pips(
    deck: DeckList,
    spec: CharacterRules,
    at: int,
    primaries: list[str],
    secondaries: list[str],
    extras: list[tuple[Entry, Card]],
    names: dict[str, str],
    vocab: Any,
) -> Iterator[Finding]:
    """Colour pips: checkable only when the model gives every chosen group's pips and each extra's
    needs."""
    if not spec.pips_attr:
        return
    pips = {t.name: t.attrs.get(spec.pips_attr) for t in (vocab.terms if vocab else [])}
    chosen = primaries + secondaries
    if not all(pips.get(g) for g in chosen):
        yield _f(
            deck,
            at,
            Severity.INFO,
            "deck-unverifiable",
            f"the source gives no colour pips for these groups: whether the {names['secondary']} "
            f"groups share a pip with the {names['primary']} group cannot be checked",
        )
    else:
        primary_pips = set(pips[primaries[0]] or ()) if primaries else set()
        if spec.secondary.share and not any(primary_pips & set(pips[g] or ()) for g in secondaries):
            yield _f(
                deck,
                at,
                Severity.ERROR,
                "deck-colours",
                f"no {names['secondary']} group shares a colour pip with the {names['primary']} "
                "group",
            )
    if extras and not all(c.get(spec.pips_requires) for _, c in extras):
        yield _f(
            deck,
            at,
            Severity.INFO,
            "deck-unverifiable",
            f"the source gives no colour-pip requirements for these {names['extras']} cards: "
            "they cannot be checked",
        )
    elif extras and all(pips.get(g) for g in chosen):
        have = Counter(p for g in chosen for p in pips[g] or ())
        for e, c in extras:
            need = Counter(c.get(spec.pips_requires) or [])
            if any(have[p] < n for p, n in need.items()):
                yield _f(
                    deck,
                    e.line,
                    Severity.ERROR,
                    "deck-colours",
                    f"the character's pips do not meet '{c.name}'",
                )


def _n(count: int, noun: str) -> str:
    """'1 Class group', '0 Class groups': only cardgen's own last word takes the plural."""
    return f"{count} {noun}{'' if count == 1 else 's'}"

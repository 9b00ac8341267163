"""Turn a loaded model into findings about its meaning: names that must exist (fields, values,
sheets, collation groups, editions' languages), bounds that must be ordered, declarations that
exclude each other, and numbers that must agree with their totals. Each finding stands at the key
that says it, tagged with the part of the model it damages (Finding.about)."""

from __future__ import annotations

from typing import Iterator

from ..core.errors import Finding, Severity, did_you_mean
from ..load.yamlio import Loc, LocDict, LocList
from .consistency_deck import Found, check_deck, map_of, unknown_field
from .consistency_editions import check_editions, check_translations
from .game import GameModel, Role


def consistency(model: GameModel, raw: LocDict) -> list[Finding]:
    """Every meaning check of the model, from its checked sections (`raw`, with their places)."""
    found: list[Found] = []
    found += _names(model, raw)
    if isinstance(raw.get("deck"), LocDict):
        found += check_deck(model, raw["deck"])
    if isinstance(raw.get("packs"), LocDict):
        found += _packs(model, raw["packs"], map_of(raw.get("draft")))
    if isinstance(raw.get("draft"), LocDict):
        found += _draft(raw["draft"])
    found += _export_values(model, raw)
    found += check_editions(model, raw)  # mends model.editions: before the keys that name them
    found += check_translations(model, raw)
    out, seen = [], set()
    for loc, severity, code, message, hint, about in found:
        if (loc, code, message) not in seen:
            seen.add((loc, code, message))
            out.append(
                Finding(
                    model.file, loc[0], loc[1], severity, code, None, message, hint, about=about
                )
            )
    return out


def _names(model: GameModel, raw: LocDict) -> Iterator[Found]:
    """Fields named by the numbering and text sections."""
    numbering = raw.get("numbering")
    if isinstance(numbering, LocDict) and model.numbering is not None:
        key = model.numbering.key
        if key not in model.fields:
            written = "field" in numbering
            yield (
                numbering.key_loc("field") if written else raw.key_loc("numbering"),
                Severity.ERROR,
                "model-unknown-field",
                f"numbering reads field '{key}'"
                + ("" if written else " (the default)")
                + ", which the model does not have; no collector number is checked",
                did_you_mean(key, list(model.fields)) or "name the field with numbering.field",
                "numbering",
            )
    prefixes = [(p.prefix, p.loc) for p in model.numbering.prefixes] if model.numbering else []
    yield from _twice(
        prefixes, "numbering prefix", "numbers are checked against the last one", "numbering"
    )
    yield from _twice(
        [(g.name, g.loc) for g in model.collation],
        "collation group",
        "counts and pack formats that name it cannot tell the two apart",
        "collation",
    )
    text = raw.get("text")
    if isinstance(text, LocDict) and isinstance(text.get("fields"), LocList):
        for i, name in enumerate(text["fields"]):
            hit = unknown_field(model, name, text["fields"].item_loc(i), "text.fields", "text")
            if hit:
                yield hit


def _twice(names: list[tuple[str, Loc]], what: str, so: str, about: str) -> Iterator[Found]:
    first: dict[str, int] = {}
    for name, loc in names:
        if name in first:
            yield (
                loc,
                Severity.ERROR,
                "model-duplicate-value",
                f"{what} '{name}' is defined twice (first at line {first[name]}): {so}",
                "merge them, or rename one",
                about,
            )
        else:
            first[name] = loc[0]


def _draft(draft: LocDict) -> Iterator[Found]:
    passes, rounds = draft.get("passes"), draft.get("packs_per_player")
    if isinstance(passes, list) and len(passes) > 1:
        rounds = 3 if rounds is None else rounds  # what a pack format uses by default
        if len(passes) != rounds:
            yield _passes_mismatch(draft.key_loc("passes"), "draft", len(passes), rounds, "draft")


def _passes_mismatch(loc: Loc, where: str, passes: int, rounds: int, about: str) -> Found:
    return (
        loc,
        Severity.ERROR,
        "draft-passes-mismatch",
        f"{where} gives {passes} pass directions for {rounds} packs per player: "
        + (
            ("the last is" if passes - rounds == 1 else f"the last {passes - rounds} are")
            + " never used"
            if passes > rounds
            else (
                f"round {rounds} repeats"
                if rounds == passes + 1
                else f"rounds {passes + 1}-{rounds} repeat"
            )
            + " the directions from the first"
        ),
        "give one direction per pack, or one word for every round",
        about,
    )


def _packs(model: GameModel, packs: LocDict, draft: LocDict) -> Iterator[Found]:
    groups = [g.name for g in model.collation]
    for name, spec in packs.items():
        if not isinstance(spec, LocDict):
            continue
        about, where = f"packs.{name}", f"pack format '{name}'"
        mode = spec.get("mode")
        if mode == "exhaust":
            for key in ("sheets", "slots", "variants"):
                if key in spec:
                    yield (
                        spec.key_loc(key),
                        Severity.ERROR,
                        "model-exclusive",
                        f"{where} has mode: exhaust and '{key}': exhaust deals the print run "
                        f"itself, so '{key}' is ignored",
                        "use mode: slots to draw from sheets, or delete it",
                        about,
                    )
        if mode == "slots" and "slots" in spec and "variants" in spec:
            yield (
                spec.key_loc("slots"),
                Severity.ERROR,
                "model-exclusive",
                f"{where} has both 'slots' and 'variants': the variants are dealt, 'slots' is "
                "ignored",
                "move the slots into a variant, or delete one of them",
                about,
            )
        for key in ("groups", "exclude_groups"):
            listed = spec.get(key)
            if isinstance(listed, LocList):
                for i, group in enumerate(listed):
                    if group not in groups:
                        yield (
                            listed.item_loc(i),
                            Severity.ERROR,
                            "model-unknown-group",
                            f"{where}: {key} names collation group '{group}', which does "
                            "not exist; the format cannot be dealt",
                            did_you_mean(str(group), groups)
                            or f"groups: {', '.join(groups) or 'none'}",
                            about,
                        )
        if mode == "slots":
            yield from _slot_sizes(spec, draft, where, about)
        if mode == "setup":  # a game's setup passes nothing: no directions to check
            continue
        rounds = spec.get("packs_per_player", draft.get("packs_per_player", 3))
        passes = spec.get("passes", draft.get("passes"))
        if not isinstance(passes, list) or len(passes) < 2 or len(passes) == rounds:
            continue
        if "passes" in spec or "packs_per_player" in spec:
            at = spec.key_loc("passes") if "passes" in spec else spec.key_loc("packs_per_player")
            yield _passes_mismatch(at, where, len(passes), rounds, about)
        else:  # the draft section's directions against its (or the default) number of packs
            yield _passes_mismatch(draft.key_loc("passes"), "draft", len(passes), rounds, "draft")


def _slot_sizes(spec: LocDict, draft: LocDict, where: str, about: str) -> Iterator[Found]:
    """Sheets a slot names must exist; the slots' sum must be the declared pack size."""
    sheets = map_of(spec.get("sheets"))
    variants = spec.get("variants")
    lists = (
        [v.get("slots") for v in variants if isinstance(v, LocDict)]
        if isinstance(variants, LocList)
        else [spec.get("slots")]
    )
    sizes = set()
    for slots in lists:
        if not isinstance(slots, LocList):
            continue
        total = 0
        for slot in slots:
            if not isinstance(slot, LocDict):
                continue
            total += slot.get("count", 1)
            sheet = slot.get("sheet")
            if sheet is not None and sheet not in sheets:
                yield (
                    slot.key_loc("sheet"),
                    Severity.ERROR,
                    "model-unknown-sheet",
                    f"a slot of {where} names sheet '{sheet}', which the format does not have; "
                    "the format cannot be dealt",
                    did_you_mean(str(sheet), list(sheets))
                    or f"sheets: {', '.join(sheets) or 'none'}",
                    about,
                )
        sizes.add(total)
    own = "pack_size" in spec
    declared = spec.get("pack_size", draft.get("pack_size"))
    if declared is not None and sizes and sizes != {declared}:
        shown = " or ".join(map(str, sorted(sizes)))
        yield (
            spec.key_loc("pack_size") if own else draft.key_loc("pack_size"),
            Severity.ERROR,
            "draft-pack-size-mismatch",
            f"{'the ' if own else 'draft.'}pack_size{' of ' + where if own else ''} is "
            f"{declared}, but the slots of {where} add up to {shown} "
            f"card{'' if sizes == {1} else 's'}; the format cannot be dealt",
            "make the slot counts add up to the pack size",
            about,
        )


def _export_values(model: GameModel, raw: LocDict) -> Iterator[Found]:
    """Vocabulary values named by the exports' sections (Cockatrice rows, Draftmancer rarities)."""

    def values(role: str) -> tuple[set[str], list[str]]:
        names: list[str] = []
        for field in model.role_fields(role):
            vocab = model.vocab_for(field)
            names += vocab.names() if vocab else []
        return {n.lower() for n in names}, names

    checks = {
        ("cockatrice", "rows"): Role.KIND,
        ("cockatrice", "maintypes"): Role.KIND,
        ("cockatrice", "tokens"): Role.KIND,
        ("cockatrice", "colors"): Role.FACTION,
        ("draftmancer", "rarities"): Role.RARITY,
    }
    for (section, key), role in checks.items():
        body = raw.get(section)
        named = body.get(key) if isinstance(body, LocDict) else None
        known, names = values(role)
        if not named or not names:
            continue  # no field with the role, or no vocabulary: nothing to compare with
        if isinstance(named, LocDict):
            spots = [(k, named.key_loc(k)) for k in named]
        elif isinstance(named, LocList):
            spots = [(v, named.item_loc(i)) for i, v in enumerate(named)]
        else:
            continue
        for value, loc in spots:
            if str(value).lower() not in known:
                yield (
                    loc,
                    Severity.ERROR,
                    "model-unknown-value",
                    f"{section}.{key} names '{value}', which is no {role} of this game; no card "
                    "is matched by it",
                    did_you_mean(str(value), names) or f"{role} values: {', '.join(names)}",
                    section,
                )

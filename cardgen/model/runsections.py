"""Turn the checked collation, numbering, card and components sections of game.yaml into the
GameModel's typed print-run parts."""

from __future__ import annotations

from typing import Any, Callable

from ..core.errors import Severity, did_you_mean
from ..core.stock import stock
from ..core.units import UnitError, bleed, card_size, length, safe, token_size
from ..load.yamlio import LocDict
from .editions import local_values
from .game import CollationGroup, Component, GameModel, Numbering, NumberPrefix, RarityCount, Role
from .reader import Reader, entries_of


def _where(r: Reader, item: LocDict, owner: str) -> dict[str, Any]:
    """A checked selection: schema.Where has already reported and dropped unknown fields and
    values."""
    return dict(r.get(item, "where", LocDict, owner, default=LocDict()))


def _count(r: Reader, m: LocDict, key: str, where: str) -> int | None:
    """A collation count (its type and range are declared in schema.py); 0 copies prints none: a
    warning."""
    value = r.get(m, key, int, f"collation group '{where}'")
    if value == 0 and key == "copies":
        r.error(
            m.key_loc(key),
            "model-value",
            f"'{where}' has 0 copies: its designs are not printed",
            "leave them out of the collation, or give them copies",
            severity=Severity.WARNING,
        )
    return value


def build_collation(r: Reader, raw: LocDict, model: GameModel) -> None:
    for item, loc in entries_of(r, raw.get("collation"), "collation", raw.key_loc("collation")):
        name = r.get(item, "name", str, "a collation group", required=True) or "?"
        group = CollationGroup(
            name,
            _where(r, item, f"collation group '{name}'"),
            _count(r, item, "cards", name),
            _count(r, item, "copies", name),
            loc=loc,
        )
        rar = r.get(item, "rarities", LocDict, name, default=LocDict())
        rfield = model.role_field(Role.RARITY)
        rvocab = model.vocab_for(rfield) if rfield else None
        if rar and rfield is None and Role.RARITY not in model.near_roles:
            r.error(
                item.key_loc("rarities"),
                "model-missing",
                f"collation group '{name}' counts rarities, but no field has role: rarity; no "
                "card has a rarity to count",
                "add 'role: rarity' to the field that holds a card's rarity",
            )
        for rname, counts in rar.items():
            if rvocab and rvocab.lookup(rname)[1] == "unknown":
                r.error(
                    rar.key_loc(rname),
                    "model-value",
                    f"collation group '{name}' names unknown rarity '{rname}'; no card will "
                    "match its counts",
                    did_you_mean(rname, rvocab.names()),
                )
            if not isinstance(counts, LocDict):
                r.error(
                    rar.key_loc(rname),
                    "model-type",
                    f"rarity '{rname}' of '{name}' must map designs/copies; it is left out",
                )
                continue
            group.rarities[rname] = RarityCount(
                _count(r, counts, "designs", f"{name} {rname}"),
                _count(r, counts, "copies", f"{name} {rname}"),
            )
        model.collation.append(group)


def build_components(r: Reader, raw: LocDict, model: GameModel) -> None:
    """The box's other components (types and ranges checked by schema.py); one without a count
    or a per-player count is one."""
    for item, loc in entries_of(r, raw.get("components"), "components", raw.key_loc("components")):
        name = r.get(item, "name", str, "a component")  # a missing one: schema.py said so
        if not name or not name.strip():
            continue
        count = r.get(item, "count", int, f"component '{name}'")
        per = r.get(item, "per_player", int, f"component '{name}'") or 0
        total = count if count is not None else (0 if per else 1)
        if total == 0 and per == 0:
            r.error(
                item.key_loc("count"),
                "model-value",
                f"component '{name}' has a count of 0: the components list leaves it out",
                "give it a count, or remove it",
                severity=Severity.WARNING,
            )
            continue
        component = Component(name.strip(), total, per, loc, local_values(item, ("name",)))
        component.shape = r.get(item, "shape", str, f"component '{name}'")
        if "size" in item and component.shape is None:
            r.error(
                item.key_loc("size"),
                "model-missing",
                f"component '{name}' has a size but no shape: it is not printed as a token",
                "give it a shape: round, square or hex",
                severity=Severity.WARNING,
            )
        if item.get("size") is not None:
            component.size = token_size(item["size"])  # checked by schema.py
        component.template = r.get(item, "template", str, f"component '{name}'")
        component.back = r.get(item, "back", str, f"component '{name}'")
        component.fold = bool(r.get(item, "fold", bool, f"component '{name}'", default=False))
        component.data = dict(
            r.get(item, "data", LocDict, f"component '{name}'", default=LocDict())
        )
        component.key_locs = {str(k): item.key_loc(k) for k in item}
        model.components.append(component)


def build_numbering(r: Reader, raw: LocDict, model: GameModel) -> None:
    m = r.section(raw, "numbering")
    if m is None:
        return
    scheme = Numbering(loc=raw.key_loc("numbering"))
    scheme.key = r.get(m, "field", str, "numbering", default=scheme.key)
    scheme.pattern = r.get(m, "pattern", str, "numbering", default=scheme.pattern)
    scheme.unassigned = r.get(m, "unassigned", str, "numbering", default=scheme.unassigned)
    scheme.case_sensitive = r.get(m, "case_sensitive", bool, "numbering", default=True)
    scheme.required = r.get(m, "required", bool, "numbering", default=False)
    import regex  # here: only a model with numbering loads the pattern engine

    try:
        groups = regex.compile(scheme.pattern).groupindex
        if "index" not in groups:
            r.error(
                m.key_loc("pattern"),
                "model-value",
                "numbering.pattern needs a named group 'index' "
                "(and may have 'prefix' and 'total'), e.g. '^(?P<prefix>[A-Z]+)-(?P<index>\\d+)$'; "
                "the default pattern is used",
            )
            scheme.pattern = Numbering.pattern
    except (regex.error, TypeError, ValueError) as exc:
        r.error(
            m.key_loc("pattern"),
            "model-value",
            f"numbering.pattern is not a valid regular expression: {exc}; the default pattern "
            "is used",
        )
        scheme.pattern = Numbering.pattern
    for item, loc in entries_of(r, m.get("prefixes"), "numbering.prefixes", m.key_loc("prefixes")):
        prefix = r.get(item, "prefix", str, "a numbering prefix", required=True)
        if prefix is not None:
            scheme.prefixes.append(
                NumberPrefix(
                    prefix,
                    _where(r, item, f"prefix '{prefix}'"),
                    r.get(item, "total", int, prefix),
                    loc,
                )
            )
    model.numbering = scheme


def build_card(r: Reader, raw: LocDict, model: GameModel) -> None:
    m = r.section(raw, "card")
    if m is None:
        return
    checks: dict[str, Callable[[Any], Any]] = {
        "size": card_size,
        "bleed": bleed,
        "safe": safe,
        "corner_radius": length,
        "stock": stock,
        "sleeves": str,
    }
    for key, parse in checks.items():
        if key in m:
            try:
                parse(m[key])
            except UnitError as exc:
                r.error(m.key_loc(key), "model-unit", f"{exc}; the default is used")
                continue
            model.card[key] = m[key]

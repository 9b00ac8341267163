"""Turn the model's `packs:` and `draft:` sections into checked PackFormat objects with their card pools."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..copies import print_run
from ..errors import CardgenError, did_you_mean
from ..model.card import Card, Catalog
from ..model.game import GameModel, assign_groups, matches


@dataclass
class Sheet:
    """Cards a slot draws from, each with its weight (its copies in the print run)."""

    name: str
    cards: list[Card]
    weights: list[int]

    @property
    def total(self) -> int:
        return sum(self.weights)


@dataclass
class Slot:
    sheet: str
    count: int


@dataclass
class Variant:
    weight: int
    slots: list[Slot]


@dataclass
class PackFormat:
    name: str
    mode: str  # "exhaust" or "slots"
    pack_size: int
    unique_in_pack: bool = True
    pool: list[tuple[Card, int]] = field(default_factory=list)  # exhaust: the run, (card, copies)
    sheets: dict[str, Sheet] = field(default_factory=dict)  # slots
    variants: list[Variant] = field(default_factory=list)  # slots
    packs_per_player: int = 3
    passes: list[str] = field(default_factory=lambda: ["left"])
    spec_hash: str = ""

    @property
    def run_size(self) -> int:
        return sum(n for _, n in self.pool)

    def expected(self) -> dict[str, Fraction]:
        """Slots mode: the exact expected copies of each card in one pack (its inclusion probability
        when copies cannot repeat in a pack)."""
        out: dict[str, Fraction] = {}
        total = sum(v.weight for v in self.variants)
        for v in self.variants:
            pv = Fraction(v.weight, total)
            for slot in v.slots:
                sheet = self.sheets[slot.sheet]
                for card, w in zip(sheet.cards, sheet.weights):
                    out[card.id] = out.get(card.id, Fraction(0)) + pv * Fraction(slot.count * w, sheet.total)
        return out


def _fail(message: str, hint: str | None = None) -> CardgenError:
    return CardgenError(message + (f"; {hint}" if hint else ""))


def load_format(model: GameModel, catalog: Catalog, name: str | None = None) -> PackFormat:
    """The named pack format (or the model's only/first one), with its pool resolved against the cards."""
    packs: dict[str, Any] = dict(model.packs or {})
    if not packs:
        raise _fail(f"{model.name} has no 'packs:' section in its model", "see docs/packs.md")
    name = name or next(iter(packs))
    if name not in packs:
        raise _fail(f"no pack format '{name}' (formats: {', '.join(packs)})", did_you_mean(name, list(packs)))
    spec = packs[name]
    if not isinstance(spec, dict):
        raise _fail(f"pack format '{name}' must be a mapping")
    draft = dict(model.draft or {})
    mode = spec.get("mode")
    fmt = PackFormat(name, str(mode), 0, bool(spec.get("unique_in_pack", True)),
                     packs_per_player=int(spec.get("packs_per_player", draft.get("packs_per_player", 3))),
                     passes=[str(p) for p in spec.get("passes", draft.get("passes", ["left"]))])
    run = _selected_run(model, catalog, spec, name)
    if mode == "exhaust":
        fmt.pack_size = _positive(spec.get("pack_size", draft.get("pack_size")), f"'{name}' pack_size")
        fmt.pool = run
        if not run:
            raise _fail(f"pack format '{name}' selects no cards")
    elif mode == "slots":
        _slots(fmt, spec, run, model)
    else:
        raise _fail(f"pack format '{name}' has mode {mode!r}; use 'exhaust' or 'slots'")
    for p in fmt.passes:
        if p not in ("left", "right"):
            raise _fail(f"pass direction '{p}' in '{name}' must be left or right")
    fmt.spec_hash = _hash(spec, fmt)
    return fmt


def _positive(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise _fail(f"{what} must be a whole number above 0, not {value!r}")
    return value


def _selected_run(model: GameModel, catalog: Catalog, spec: dict[str, Any], name: str) -> list[tuple[Card, int]]:
    """The print run restricted by the format's `groups` / `exclude_groups` / `where`."""
    known = [g.name for g in model.collation]
    for key in ("groups", "exclude_groups"):
        for g in spec.get(key, []) or []:
            if g not in known:
                raise _fail(f"pack format '{name}' names collation group '{g}', which does not exist",
                            did_you_mean(str(g), known))
    groups = assign_groups(catalog, model.collation)
    keep, drop = set(spec.get("groups") or known), set(spec.get("exclude_groups") or [])
    where = spec.get("where") or {}
    out = []
    for card, copies in print_run(catalog, model):
        group = groups[card.order]
        if group is not None and group.name in keep and group.name not in drop and matches(where, card.data):
            out.append((card, copies))
    return out


def _slots(fmt: PackFormat, spec: dict[str, Any], run: list[tuple[Card, int]], model: GameModel) -> None:
    sheets = spec.get("sheets") or {}
    if not isinstance(sheets, dict) or not sheets:
        raise _fail(f"pack format '{fmt.name}' (slots) needs 'sheets'")
    rarities = [t.name for t in model.vocabularies["rarity"].terms] if "rarity" in model.vocabularies else []
    for sname, sspec in sheets.items():
        where = dict((sspec or {}).get("where") or {})
        if "rarity" in where and rarities and where["rarity"] not in rarities:
            raise _fail(f"sheet '{sname}' selects rarity '{where['rarity']}', which the model does not have",
                        did_you_mean(str(where["rarity"]), rarities))
        chosen = [(c, n) for c, n in run if matches(where, c.data)]
        if not chosen:
            raise _fail(f"sheet '{sname}' of '{fmt.name}' selects no cards")
        fmt.sheets[sname] = Sheet(sname, [c for c, _ in chosen], [n for _, n in chosen])
    variants = spec.get("variants") or [{"weight": 1, "slots": spec.get("slots") or []}]
    for v in variants:
        slots = []
        for s in v.get("slots") or []:
            if s.get("sheet") not in fmt.sheets:
                raise _fail(f"a slot of '{fmt.name}' names sheet '{s.get('sheet')}', which does not exist",
                            did_you_mean(str(s.get("sheet")), list(fmt.sheets)))
            slots.append(Slot(s["sheet"], _positive(s.get("count", 1), "slot count")))
        if not slots:
            raise _fail(f"pack format '{fmt.name}' has a variant with no slots")
        fmt.variants.append(Variant(_positive(v.get("weight", 1), "variant weight"), slots))
    sizes = {sum(s.count for s in v.slots) for v in fmt.variants}
    fmt.pack_size = max(sizes)
    for v in fmt.variants:
        per_sheet: dict[str, int] = {}
        for s in v.slots:
            per_sheet[s.sheet] = per_sheet.get(s.sheet, 0) + s.count
        for sname, count in per_sheet.items():
            sheet = fmt.sheets[sname]
            if count > len(sheet.cards):
                raise _fail(f"'{fmt.name}' draws {count} cards from sheet '{sname}', which has only "
                            f"{len(sheet.cards)} different cards")
            if fmt.unique_in_pack:
                heavy = [(c, w) for c, w in zip(sheet.cards, sheet.weights) if count * w > sheet.total]
                if heavy:
                    card, w = heavy[0]
                    raise _fail(f"'{fmt.name}' cannot keep copies out of one pack: '{card.name}' has {w} of the "
                                f"{sheet.total} copies on sheet '{sname}', so {count} draws would need it "
                                f"{Fraction(count * w, sheet.total)} times per pack",
                                "lower its copies, draw fewer from that sheet, or set unique_in_pack: false")


def _hash(spec: dict[str, Any], fmt: PackFormat) -> str:
    payload = {"spec": spec, "pool": [(c.id, n) for c, n in fmt.pool],
               "sheets": {k: list(zip([c.id for c in s.cards], s.weights)) for k, s in fmt.sheets.items()}}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()[:16]

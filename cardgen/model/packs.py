"""Turn the model's `packs:` and `draft:` sections into checked PackFormat objects with their card
pools."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable

from ..core.errors import CardgenError, Finding, Severity, did_you_mean
from ..load.card import Card, Catalog
from ..model.collation import print_run
from .game import GameModel, assign_groups, matches
from .setup import FormatError, Rules, exact_odds, setup_format


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
    mode: str  # "exhaust", "slots" or "setup" (one sheet of designs, `pick` per game)
    pack_size: int
    unique_in_pack: bool = True
    pool: list[tuple[Card, int]] = field(default_factory=list)  # exhaust: the run, (card, copies)
    sheets: dict[str, Sheet] = field(default_factory=dict)  # slots
    variants: list[Variant] = field(default_factory=list)  # slots
    packs_per_player: int = 3
    passes: list[str] = field(default_factory=lambda: ["left"])
    spec_hash: str = ""
    rules: Rules | None = None  # setup: the constraints, compiled against the pool
    exact: dict[str, Fraction] | None = None  # setup with constraints: expected(), once counted

    @property
    def run_size(self) -> int:
        return sum(n for _, n in self.pool)

    def expected(self) -> dict[str, Fraction]:
        """Slots mode: the exact expected copies of each card in one pack (its inclusion probability
        when copies cannot repeat in a pack)."""
        if self.rules is not None and self.rules.constraints:  # setup: counted, once
            if self.exact is None:
                ids = [c.id for c in self.sheets["setup"].cards]
                self.exact = exact_odds(ids, self.pack_size, self.rules) or {}
            return dict(self.exact)  # empty: too many setups to count
        out: dict[str, Fraction] = {}
        total = sum(v.weight for v in self.variants)
        for v in self.variants:
            pv = Fraction(v.weight, total)
            for slot in v.slots:
                sheet = self.sheets[slot.sheet]
                sheet_total = sheet.total  # once per sheet: summing it per card was quadratic
                for card, w in zip(sheet.cards, sheet.weights):
                    out[card.id] = out.get(card.id, Fraction(0)) + pv * Fraction(
                        slot.count * w, sheet_total
                    )
        return out


def _fail(message: str, hint: str | None = None) -> CardgenError:
    return CardgenError(message + (f"; {hint}" if hint else ""))


FORMAT_KEYS = (
    "mode",
    "pack_size",
    "groups",
    "exclude_groups",
    "where",
    "unique_in_pack",
    "packs_per_player",
    "passes",
    "sheets",
    "slots",
    "variants",
    "pick",
    "constraints",
)
MAX_PACKS_PER_PLAYER = 100


def load_format(model: GameModel, catalog: Catalog, name: str | None = None) -> PackFormat:
    """The named pack format (or the model's only/first one), with its pool resolved against the
    cards."""
    packs: dict[str, Any] = dict(model.packs or {})
    if not packs:
        raise _fail(f"{model.name} has no 'packs:' section in its model", "see docs/packs.md")
    name = name or next(iter(packs))
    if name not in packs:
        raise _fail(
            f"no pack format '{name}' (formats: {', '.join(packs)})",
            did_you_mean(name, list(packs)),
        )
    spec = packs[name]
    if not isinstance(spec, dict):
        raise _fail(f"pack format '{name}' must be a mapping")
    draft = model.draft
    _known(spec, FORMAT_KEYS, f"pack format '{name}'")
    mode = spec.get("mode")
    unique = spec.get("unique_in_pack", True)
    if not isinstance(unique, bool):
        raise _fail(f"unique_in_pack of '{name}' must be true or false, not {unique!r}")
    per_player = _positive(
        spec.get("packs_per_player", draft.packs_per_player or 3), f"packs_per_player of '{name}'"
    )
    if per_player > MAX_PACKS_PER_PLAYER:
        raise _fail(
            f"packs_per_player of '{name}' must be at most {MAX_PACKS_PER_PLAYER}, not {per_player}"
        )
    fmt = PackFormat(
        name,
        str(mode),
        0,
        unique,
        packs_per_player=per_player,
        passes=_passes(spec.get("passes", draft.passes or ["left"]), name),
    )
    run = _selected_run(model, catalog, spec, name)
    if mode == "exhaust":
        size = spec.get("pack_size", draft.pack_size)
        if size is None:  # not written, or dropped as invalid (a model finding says which)
            raise _fail(
                f"pack format '{name}' (exhaust) has no pack_size of its own and no usable "
                "draft.pack_size, so it cannot be dealt",
                "give the format a pack_size",
            )
        fmt.pack_size = _positive(size, f"'{name}' pack_size")
        fmt.pool = run
        if not run:
            raise _fail(f"pack format '{name}' selects no cards")
    elif mode == "setup":
        cards, pick, fmt.rules = setup_format(name, spec, run, model, _where)
        fmt.sheets["setup"] = Sheet("setup", cards, [1] * len(cards))
        fmt.variants = [Variant(1, [Slot("setup", pick)])]
        fmt.pack_size, fmt.packs_per_player = pick, 1
    elif mode == "slots":
        _slots(fmt, spec, run, model)
        declared = spec.get("pack_size", draft.pack_size)
        sizes = sorted({sum(s.count for s in v.slots) for v in fmt.variants})
        if declared is not None and sizes != [declared]:
            raise _fail(
                f"the slots of '{name}' add up to {' or '.join(map(str, sizes))} cards, but its "
                "pack_size "
                f"is {declared!r}",
                "make the slot counts add up to the pack size",
            )
    else:
        raise _fail(f"pack format '{name}' has mode {mode!r}; use 'exhaust', 'slots' or 'setup'")
    if mode != "setup":
        for key in ("pick", "constraints"):
            if key in spec:
                raise _fail(f"pack format '{name}' has '{key}', which only mode: setup uses")
    fmt.spec_hash = _hash(spec, fmt)
    return fmt


def dealt_cards(model: GameModel, catalog: Catalog) -> list[Card]:
    """The cards some pack format can deal (its `groups`, `where` and the draft pool), in catalog
    order; every card when a format cannot be read (its error is said where packs are made)."""
    ids: set[str] = set()
    for name, spec in (model.packs or {}).items():
        try:
            ids.update(c.id for c, _ in _selected_run(model, catalog, dict(spec), str(name)))
        except (CardgenError, TypeError, ValueError):
            return list(catalog.cards)
    return [c for c in catalog.cards if c.id in ids]


def _known(spec: dict[str, Any], keys: tuple[str, ...], where: str) -> None:
    for key in spec:
        if key not in keys:
            raise _fail(f"unknown key '{key}' in {where}", did_you_mean(str(key), list(keys)))


def _passes(value: Any, name: str) -> list[str]:
    passes = [value] if isinstance(value, str) else value
    if (
        not isinstance(passes, list)
        or not passes
        or not all(p in ("left", "right") for p in passes)
    ):
        raise _fail(
            f"passes of '{name}' must be left, right or a list of them (one per round), not "
            f"{value!r}"
        )
    return list(passes)


def format_findings(
    model: GameModel, catalog: Catalog, reported: Iterable[Finding] = ()
) -> list[Finding]:
    """Every pack format and the draft settings, loaded as `cardgen packs` would: each problem a
    located finding. A format the model's schema already reported an error in (`reported`) is not
    reported twice."""
    out: list[Finding] = []
    packs = model.packs if isinstance(model.packs, dict) else {}
    key_loc = getattr(packs, "key_loc", None)
    starts = sorted(key_loc(n)[0] for n in packs) if key_loc else []
    errors = [f for f in reported if f.file == model.file and f.severity is Severity.ERROR]
    bad_lines = [f.line for f in errors]
    damaged = {f.about for f in errors}  # e.g. draft.pack_size against a format's slots
    for name in packs:
        if f"packs.{name}" in damaged:
            continue
        if key_loc is not None:
            start = key_loc(name)[0]
            end = next((line for line in starts if line > start), 10**9)
            if any(start <= line < end for line in bad_lines):
                continue
        try:
            load_format(model, catalog, name)
        except CardgenError as exc:
            loc = (
                packs.key_loc(name)
                if hasattr(packs, "key_loc")
                else model.section_locs.get("packs", (1, 1))
            )
            if isinstance(exc, FormatError) and exc.loc:
                loc = exc.loc
            out.append(
                Finding(
                    model.file,
                    loc[0],
                    loc[1],
                    Severity.ERROR,
                    exc.code if isinstance(exc, FormatError) else "pack-format",
                    None,
                    exc.message.replace(" (draft)", ""),
                    about=f"packs.{name}",
                )
            )
    return out


def _positive(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise _fail(f"{what} must be a whole number above 0, not {value!r}")
    return value


def _selected_run(
    model: GameModel, catalog: Catalog, spec: dict[str, Any], name: str
) -> list[tuple[Card, int]]:
    """The print run restricted by the format's `groups` / `exclude_groups` / `where`."""
    known = [g.name for g in model.collation]
    for key in ("groups", "exclude_groups"):
        if not isinstance(spec.get(key) or [], list):
            raise _fail(
                f"{key} of '{name}' must be a list of collation group names, not {spec.get(key)!r}"
            )
        for g in spec.get(key, []) or []:
            if g not in known:
                raise _fail(
                    f"pack format '{name}' names collation group '{g}', which does not exist",
                    did_you_mean(str(g), known),
                )
    groups = assign_groups(catalog, model.collation)
    keep, drop = set(spec.get("groups") or known), set(spec.get("exclude_groups") or [])
    where = _where(spec.get("where"), f"pack format '{name}'", model)
    pool_where = _where(model.draft.pool, "draft.pool", model)
    out = []
    for card, copies in print_run(catalog, model):
        group = groups[card.order]
        grouped = (
            group is None and not model.collation  # no collation: every design, once
        ) or (group is not None and group.name in keep and group.name not in drop)
        if grouped and matches(where, card.data) and matches(pool_where, card.data):
            out.append((card, copies))
    return out


def _where(value: Any, owner: str, model: GameModel) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _fail(f"'where' of {owner} must be a mapping of field: value, not {value!r}")
    for key in value:
        field = str(key)[4:] if str(key).startswith("not ") else str(key)
        if field not in model.fields:
            raise _fail(
                f"'where' of {owner} selects on unknown field '{field}'",
                did_you_mean(field, list(model.fields)),
            )
        vocab = model.vocab_for(field)
        wanted = value[key] if isinstance(value[key], list) else [value[key]]
        for want in wanted:  # a value the field can never hold selects nothing: a typo, said so
            if vocab is not None and not vocab.open and vocab.lookup(str(want))[1] == "unknown":
                raise _fail(
                    f"'where' of {owner} selects {field} '{want}', which the model does not have",
                    did_you_mean(str(want), vocab.names()),
                )
    return dict(value)


def _slots(
    fmt: PackFormat, spec: dict[str, Any], run: list[tuple[Card, int]], model: GameModel
) -> None:
    sheets = spec.get("sheets") or {}
    if not isinstance(sheets, dict) or not sheets:
        raise _fail(f"pack format '{fmt.name}' (slots) needs 'sheets'")
    for sname, sspec in sheets.items():
        if not isinstance(sspec, dict) or set(sspec) - {"where"}:
            raise _fail(
                f"sheet '{sname}' of '{fmt.name}' must be a mapping with 'where', not {sspec!r}"
            )
        where = _where(sspec.get("where"), f"sheet '{sname}'", model)
        chosen = [(c, n) for c, n in run if matches(where, c.data)]
        if not chosen:
            raise _fail(f"sheet '{sname}' of '{fmt.name}' selects no cards")
        fmt.sheets[sname] = Sheet(sname, [c for c, _ in chosen], [n for _, n in chosen])
    variants = spec.get("variants") or [{"weight": 1, "slots": spec.get("slots") or []}]
    if not isinstance(variants, list):
        raise _fail(f"variants of '{fmt.name}' must be a list of {{weight, slots}}")
    for v in variants:
        if (
            not isinstance(v, dict)
            or set(v) - {"weight", "slots"}
            or not isinstance(v.get("slots") or [], list)
        ):
            raise _fail(
                f"each variant of '{fmt.name}' must be a mapping of weight and a list of slots, "
                f"not {v!r}"
            )
        slots = []
        for s in v.get("slots") or []:
            if not isinstance(s, dict) or set(s) - {"sheet", "count"}:
                raise _fail(
                    f"each slot of '{fmt.name}' must be a mapping of sheet and count, not {s!r}"
                )
            if not isinstance(s.get("sheet"), str) or s.get("sheet") not in fmt.sheets:
                raise _fail(
                    f"a slot of '{fmt.name}' names sheet '{s.get('sheet')}', which does not exist",
                    did_you_mean(str(s.get("sheet")), list(fmt.sheets)),
                )
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
                raise _fail(
                    f"'{fmt.name}' draws {count} cards from sheet '{sname}', which has only "
                    f"{len(sheet.cards)} different cards"
                )
            if fmt.unique_in_pack:
                sheet_total = sheet.total
                heavy = [
                    (c, w) for c, w in zip(sheet.cards, sheet.weights) if count * w > sheet_total
                ]
                if heavy:
                    card, w = heavy[0]
                    raise _fail(
                        f"'{fmt.name}' cannot keep copies out of one pack: '{card.name}' has {w} "
                        "of the "
                        f"{sheet.total} copies on sheet '{sname}', so {count} draws would need it "
                        f"{Fraction(count * w, sheet.total)} times per pack",
                        "lower its copies, draw fewer from that sheet, "
                        "or set unique_in_pack: false",
                    )


def _hash(spec: dict[str, Any], fmt: PackFormat) -> str:
    payload = {
        "spec": spec,
        "pool": [(c.id, n) for c, n in fmt.pool],
        "sheets": {k: list(zip([c.id for c in s.cards], s.weights)) for k, s in fmt.sheets.items()},
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()[
        :16
    ]

"""Turn deals, drafts and statistics into text an organiser reads aloud, CSV, JSON, and pack
sheets."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

from .. import __version__
from ..load.card import Catalog
from ..model.game import GameModel, Role
from ..model.packs import PackFormat
from .deal import Deal
from .draft import DraftResult
from .joint import joint_text
from .stats import Stats

Labels = tuple[
    str | None, ...
]  # the fields whose values label a card: the model's faction and rarity fields


def label_fields(model: GameModel, fmt: PackFormat | None = None) -> Labels:
    """The model's faction and rarity fields; for a setup, first the fields its constraints count
    by (a whole-number field is shown with its name: 'price 2')."""
    roles = (model.role_field(Role.FACTION), model.role_field(Role.RARITY))
    if fmt is None or fmt.rules is None:
        return roles
    named: list[str | None] = []
    for k in fmt.rules.constraints:
        for name in (k.field, k.per):
            if name and name not in named:
                named.append(f"{name}=" if model.fields[name].type == "integer" else name)
    return tuple(dict.fromkeys([*named, *roles]))


def _label(card_id: str, catalog: Catalog, fields: Labels) -> str:
    """'Ember Guard (Red, common)': the card's name with its faction and rarity, as the model names
    them."""
    card = catalog.by_id().get(card_id)
    if card is None:
        return card_id
    bits = [
        (f"{f[:-1]} " if f.endswith("=") else "") + " ".join(map(str, card.values(f.rstrip("="))))
        for f in fields
        if f and card.values(f.rstrip("="))
    ]
    extra = ", ".join(b for b in bits if b)
    return f"{card.name or card_id}" + (f" ({extra})" if extra else "")


def _games(n: int) -> str:
    return f"{n} game{'s' * (n != 1)}"


def setup_text(d: Deal, catalog: Catalog, fields: Labels = ()) -> str:
    """'Game 3: …': each game's setup, in the order dealt."""
    fmt = d.format
    pool = len(fmt.sheets["setup"].cards)
    lines = [
        f"{d.game}: setups for {_games(d.games)}, {fmt.pack_size} of {pool} cards each "
        f"(format {fmt.name}, seed {d.seed})",
    ]
    if fmt.rules is not None and fmt.rules.constraints:
        lines.append("every game: " + "; ".join(k.describe() for k in fmt.rules.constraints))
    lines.append("")
    for p in d.packs:
        lines.append(f"Game {p.player}: {', '.join(_label(c, catalog, fields) for c in p.cards)}")
    return "\n".join(lines).rstrip() + "\n"


def deal_text(d: Deal, catalog: Catalog, fields: Labels = ()) -> str:
    if d.format.mode == "setup":
        return setup_text(d, catalog, fields)
    lines = [
        f"{d.game}: {len(d.packs)} packs of {d.format.pack_size} for {d.players} players "
        f"(format {d.format.name}, seed {d.seed})",
        "",
    ]
    for pack in sorted(d.packs, key=lambda p: (p.player, p.round)):
        lines.append(f"Player {pack.player}, round {pack.round} (pass {pack.direction})")
        lines += [f"  {i:>2}. {_label(c, catalog, fields)}" for i, c in enumerate(pack.cards, 1)]
        lines.append("")
    if d.leftover:
        lines.append(
            f"Not dealt ({len(d.leftover)} cards of the print run): "
            + ", ".join(_label(c, catalog, fields) for c in d.leftover)
        )
    return "\n".join(lines).rstrip() + "\n"


def deal_json(d: Deal) -> str:
    if d.format.mode == "setup":
        setup = {
            "game": d.game,
            "seed": d.seed,
            "version": __version__,
            "spec_hash": d.format.spec_hash,
            "format": d.format.name,
            "mode": "setup",
            "games": d.games,
            "pick": d.format.pack_size,
            "pool": [c.id for c in d.format.sheets["setup"].cards],
            "setups": [{"game": p.player, "cards": p.cards} for p in d.packs],
        }
        return json.dumps(setup, indent=2, ensure_ascii=False) + "\n"
    data = {
        "game": d.game,
        "seed": d.seed,
        "version": __version__,
        "spec_hash": d.format.spec_hash,
        "format": d.format.name,
        "mode": d.format.mode,
        "players": d.players,
        "print_runs": d.print_runs,
        "packs": [
            {"player": p.player, "round": p.round, "pass": p.direction, "cards": p.cards}
            for p in sorted(d.packs, key=lambda p: (p.player, p.round))
        ],
        "leftover": d.leftover,
    }
    if d.format.mode == "slots":
        data["expected_per_pack"] = {k: str(v) for k, v in sorted(d.format.expected().items())}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def deal_csv(d: Deal, catalog: Catalog) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    by_id = catalog.by_id()
    if d.format.mode == "setup":
        w.writerow(["seed", "game", "position", "card_id", "card_name"])
        for p in d.packs:
            for i, c in enumerate(p.cards, 1):
                w.writerow([d.seed, p.player, i, c, by_id[c].name if c in by_id else ""])
        return buf.getvalue()
    w.writerow(["seed", "player", "round", "pass", "position", "card_id", "card_name"])
    for p in sorted(d.packs, key=lambda p: (p.player, p.round)):
        for i, c in enumerate(p.cards, 1):
            w.writerow(
                [d.seed, p.player, p.round, p.direction, i, c, by_id[c].name if c in by_id else ""]
            )
    return buf.getvalue()


def draft_json(r: DraftResult) -> str:
    d = r.deal
    data = {
        "game": d.game,
        "seed": d.seed,
        "version": __version__,
        "spec_hash": d.format.spec_hash,
        "players": d.players,
        "seats": [
            {"seat": s, "picks": picks, "pool": sorted(picks)} for s, picks in r.picks.items()
        ],
        "log": [
            {
                "seat": x.seat,
                "pack_number": x.pack_number,
                "pick_number": x.pick_number,
                "pick": x.pick,
                "pack": list(x.pack),
                "pool": x.pool,
            }
            for x in r.log
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def draft_csv(r: DraftResult) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["seed", "seat", "pack_number", "pick_number", "pick", "pack", "pool"])
    for x in r.log:
        w.writerow(
            [
                r.deal.seed,
                x.seat,
                x.pack_number,
                x.pick_number,
                x.pick,
                "|".join(x.pack),
                "|".join(x.pool),
            ]
        )
    return buf.getvalue()


def stats_text(s: Stats, catalog: Catalog, fields: Labels = (), limit: int = 15) -> str:
    unit = {"slots": "packs", "setup": "games"}.get(s.mode, f"pods ({s.packs} packs)")
    lines = [
        f"format {s.format} ({s.mode}): {s.trials} {unit}",
        f"packs holding two copies of a card: {s.duplicate_rate:.4%}",
        "",
        f"{'test':<16}{'cards':>7}{'chi-square':>13}{'dof':>6}{'p-value':>10}  verdict",
    ]
    if s.mode == "setup":  # a setup never holds a design twice: nothing to say about copies
        del lines[1]
        if not s.sheets:
            lines.append("(the constraints allow too many setups to count the exact odds)")
    for sh in s.sheets:
        verdict = (
            "consistent with the exact expectation" if sh.p >= 0.001 else "DEVIATES (p < 0.001)"
        )
        lines.append(
            f"{sh.sheet:<16}{sh.cards:>7}{sh.chi2:>13.1f}{sh.dof:>6}{sh.p:>10.4f}  {verdict}"
        )
    if s.mode == "exhaust":
        lines.append(
            "(exhaust deals a fixed print run, so counts vary less than independent draws would: "
            "p-values near 1 are expected)"
        )
    rows = sorted(
        s.expected,
        key=lambda i: abs(s.observed.get(i, 0) - s.expected[i]) / max(s.expected[i], 1e-9) ** 0.5,
        reverse=True,
    )
    lines += [
        "",
        f"largest deviations (of {len(rows)} cards):",
        f"  {'card':<34}{'observed':>10}{'expected':>12}{'z':>7}",
    ]
    for i in rows[:limit]:
        e, o = s.expected[i], s.observed.get(i, 0)
        z = (o - e) / e**0.5 if e > 0 else 0.0
        lines.append(f"  {_label(i, catalog, fields)[:33]:<34}{o:>10}{e:>12.1f}{z:>7.2f}")
    if s.by_round:
        keys = sorted({k for c in s.by_round.values() for k in c})
        lines += [
            "",
            "card mix by round (share of dealt cards):",
            "  round " + "".join(f"{k:>10}" for k in keys),
        ]
        for rnd, mix in sorted(s.by_round.items()):
            total = sum(mix.values())
            lines.append(f"  {rnd:>5} " + "".join(f"{mix.get(k, 0) / total:>10.1%}" for k in keys))
    if s.joint is not None:
        lines += ["", joint_text(s.joint, s.mode == "setup").rstrip()]
    return "\n".join(lines) + "\n"


def expected_text(
    expected: dict[str, Fraction], catalog: Catalog, fields: Labels = (), setup: bool = False
) -> str:
    lines = [
        "each card's exact chance to be in a game's setup:"
        if setup
        else "exact expected copies per pack (= inclusion probability when copies cannot repeat):"
    ]
    for cid, f in sorted(expected.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"  {_label(cid, catalog, fields)[:40]:<42}{str(f):>10}  ({float(f):.4f})")
    return "\n".join(lines) + "\n"

"""The packs and draft jobs: load and check the game, deal (or simulate), then write every output atomically."""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

from ..check import check_game
from ..errors import CardgenError
from ..output import Output, write_atomic
from ..workspace import Workspace
from . import report
from .deal import Deal, deal
from .draft import simulate
from .spec import load_format
from .stats import exhaust_stats, slot_stats


@dataclass
class PackOptions:
    players: int = 8
    packs_per_player: int | None = None
    seed: int | None = None
    print_runs: int = 1
    fmt: str = "text"
    out: Path | None = None
    sheets: bool = False
    format_name: str | None = None
    stats: int | None = None


@dataclass
class JobOutput:
    stdout: str
    notes: list[str]
    outputs: list[Output]


def _load(ws: Workspace, game: str, format_name: str | None):
    result = check_game(ws, game)
    if result.model is None:
        raise CardgenError(f"the model of '{game}' has errors; run 'cardgen validate {game}'")
    return result, load_format(result.model, result.catalog, format_name)


def choose_seed(seed: int | None) -> tuple[int, bool]:
    if seed is not None:
        if seed < 0:
            raise CardgenError(f"--seed must be 0 or more, not {seed}")
        return seed, False
    return secrets.randbelow(2**31), True


def run_packs(ws: Workspace, game: str, opts: PackOptions) -> JobOutput:
    # gather: model, cards, format, packs (and sheets) in memory ...
    result, fmt = _load(ws, game, opts.format_name)
    seed, chosen = choose_seed(opts.seed)
    faction = result.model.role_field("faction")  # type: ignore[union-attr]
    notes = [f"seed {seed}" + (" (chosen at random; replay with --seed " + str(seed) + ")" if chosen else "")]
    if opts.stats:
        if not 0 < opts.stats <= 10_000_000:
            raise CardgenError(f"--stats must be between 1 and 10,000,000, not {opts.stats}")
        if fmt.mode == "slots":
            stats = slot_stats(fmt, opts.stats, seed)
            text = report.stats_text(stats, result.catalog, faction) + "\n" + \
                report.expected_text(fmt.expected(), result.catalog, faction)
        else:
            stats = exhaust_stats(fmt, game, opts.players, opts.stats, seed, by_id=result.catalog.by_id())
            text = report.stats_text(stats, result.catalog, faction)
        outputs = []
        if opts.out is not None:
            from .plot import stats_png

            png = stats_png(stats)
            outputs.append(Output(write_atomic(opts.out / f"stats-{seed}.txt", text), "statistics as text"))
            outputs.append(Output(write_atomic(opts.out / f"stats-{seed}.png", png), "statistics as a picture"))
        return JobOutput(text, notes, outputs)
    d = deal(fmt, game, opts.players, seed, opts.print_runs, opts.packs_per_player)
    texts = {"text": report.deal_text(d, result.catalog, faction), "json": report.deal_json(d),
             "csv": report.deal_csv(d, result.catalog)}
    pdf = _pack_sheets(ws, game, d) if opts.sheets else None
    # ... then write
    outputs = []
    folder = opts.out or ws.output_dir(game) / "packs"
    if opts.out is not None:
        for kind, ext in (("text", "txt"), ("json", "json"), ("csv", "csv")):
            outputs.append(Output(write_atomic(folder / f"packs-{seed}.{ext}", texts[kind]), f"packs as {kind}"))
    if pdf is not None:
        outputs.append(Output(write_atomic(folder / f"packs-{seed}.pdf", pdf), f"{len(d.packs)} packs, one per page"))
    if fmt.mode == "exhaust":
        notes.append(f"{len(d.packs)} packs dealt from {d.print_runs} print run(s) of {fmt.run_size} cards; "
                     f"{len(d.leftover)} left over")
    return JobOutput(texts[opts.fmt], notes, outputs)


def _pack_sheets(ws: Workspace, game: str, d: Deal) -> bytes:
    from ..printing import (  # the renderer is loaded only when sheets are asked for
        SheetOptions,
        sheet_bytes,
    )
    from ..project import open_studio

    studio = open_studio(ws, game)
    by_id = studio.check.catalog.by_id()
    chosen, groups = [], []
    for pack in sorted(d.packs, key=lambda p: (p.player, p.round)):
        for cid in pack.cards:
            chosen.append((by_id[cid], 1))
        groups.append((f"player {pack.player}, round {pack.round}, pass {pack.direction}", len(pack.cards)))
    pdf, _, _ = sheet_bytes(studio, SheetOptions(), chosen, groups=groups)
    return pdf


def run_draft(ws: Workspace, game: str, players: int, seed: int | None, fmt: str, out: Path | None,
              format_name: str | None = None) -> JobOutput:
    result, pack_format = _load(ws, game, format_name)
    seed, chosen = choose_seed(seed)
    d = deal(pack_format, game, players, seed)
    draft = simulate(d, result.model, result.catalog)  # type: ignore[arg-type]
    text = report.draft_json(draft) if fmt == "json" else report.draft_csv(draft)
    notes = [f"seed {seed}" + (f" (chosen at random; replay with --seed {seed})" if chosen else "")]
    outputs = []
    if out is not None:
        outputs.append(Output(write_atomic(out / f"draft-{seed}.{fmt}", text), "draft picks and log"))
    return JobOutput(text, notes, outputs)

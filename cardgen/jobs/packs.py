"""The packs and draft jobs: load and check the game, deal (or simulate), then write every output
atomically."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import CardgenError
from ..core.output import JobResult, Output, write_atomic
from ..core.workspace import Workspace
from ..load.card import Catalog
from ..model.game import GameModel
from ..model.packs import PackFormat, load_format
from ..packs import report
from ..packs.deal import Deal, deal
from ..packs.draft import simulate
from ..packs.stats import exhaust_stats, slot_stats
from ..project.check import blame_model, checked, pack_parts

if TYPE_CHECKING:
    from ..project.studio import Studio


@dataclass
class PackOptions:
    players: int | None = None  # default: the model's draft.players, or what one print run supports
    packs_per_player: int | None = None
    seed: int | None = None
    print_runs: int = 1
    fmt: str = "text"
    out: Path | None = None
    sheets: bool = False
    format_name: str | None = None
    stats: int | None = None
    games: int | None = None  # setup formats: games to deal (default 1)


def _load(ws: Workspace, game: str, format_name: str | None):
    result = checked(ws, game)
    try:
        fmt = load_format(result.model, result.catalog, format_name)  # type: ignore[arg-type]
    except CardgenError as exc:
        # a format the model's errors left undealable: those errors, located, and exit 1 (an
        # unknown --pack-format stays a usage error, exit 2)
        raise blame_model(ws, game, result, exc, pack_parts(result, format_name)) from exc
    return result, fmt


def choose_seed(seed: int | None) -> tuple[int, bool]:
    if seed is not None:
        if seed < 0:
            raise CardgenError(f"--seed must be 0 or more, not {seed}")
        return seed, False
    return secrets.randbelow(2**31), True


def run_packs(ws: Workspace, game: str, opts: PackOptions) -> JobResult:
    # gather: model, cards, format, packs (and sheets) in memory ...
    result, fmt = _load(ws, game, opts.format_name)
    seed, chosen = choose_seed(opts.seed)
    setup_mode(fmt, opts)
    fields = report.label_fields(result.model, fmt)  # type: ignore[arg-type]
    notes = [
        f"seed {seed}"
        + (" (chosen at random; replay with --seed " + str(seed) + ")" if chosen else "")
    ]
    players = opts.players
    if players is None:
        players = default_players(fmt, result.model)  # type: ignore[arg-type]
    if opts.stats:
        if not 0 < opts.stats <= 10_000_000:
            raise CardgenError(f"--stats must be between 1 and 10,000,000, not {opts.stats}")
        if fmt.mode in ("slots", "setup"):
            stats = slot_stats(fmt, opts.stats, seed, 1 if fmt.mode == "setup" else players)
            exact = fmt.expected()
            text = report.stats_text(stats, result.catalog, fields) + (
                "\n" + report.expected_text(exact, result.catalog, fields, fmt.mode == "setup")
                if exact
                else ""
            )
        else:
            stats = exhaust_stats(
                fmt,
                game,
                players,
                opts.stats,
                seed,
                fields[1],
                result.model.placeholders,  # type: ignore[union-attr]
                by_id=result.catalog.by_id(),
            )
            text = report.stats_text(stats, result.catalog, fields)
        outputs = []
        if opts.out is not None:
            from ..packs.plot import stats_png

            png = stats_png(stats)
            outputs.append(
                Output(write_atomic(opts.out / f"stats-{seed}.txt", text), "statistics as text")
            )
            outputs.append(
                Output(write_atomic(opts.out / f"stats-{seed}.png", png), "statistics as a picture")
            )
        return JobResult(outputs, result.model_errors, notes=notes, text=text)
    d = deal(fmt, game, players, seed, opts.print_runs, opts.packs_per_player, opts.games)
    files = deal_files(ws, game, d, result.catalog, fields, sheets=opts.sheets)
    # ... then write
    folder = opts.out or ws.output_dir(game) / "packs"
    chosen_files = files if opts.out is not None else {k: v for k, v in files.items() if k == "pdf"}
    outputs = write_deal(folder, d, chosen_files)
    notes.append(capacity(fmt, opts.print_runs))
    if fmt.mode == "setup":
        notes.append(f"{d.games} game{'s' * (d.games != 1)} dealt")
    if fmt.mode == "exhaust":
        notes.append(
            f"{len(d.packs)} packs dealt from {d.print_runs} print run(s) of {fmt.run_size} cards; "
            f"{len(d.leftover)} left over"
        )
    return JobResult(
        outputs,
        result.model_errors,
        notes=notes,
        text=str(files[{"text": "txt"}.get(opts.fmt, opts.fmt)][0]),
    )


def capacity(fmt: PackFormat, print_runs: int = 1) -> str:
    """For the organiser: how many players the print run supports (a setup: what a game takes)."""
    if fmt.mode == "setup":
        pool = len(fmt.sheets["setup"].cards)
        return f"each game's setup is {fmt.pack_size} of the {pool} cards of format {fmt.name}"
    per_player = fmt.packs_per_player * fmt.pack_size
    if fmt.mode != "exhaust":
        return (
            f"slot packs are drawn from sheets, so any number of players can play; each takes "
            f"{fmt.packs_per_player} packs of {fmt.pack_size}"
        )
    most = fmt.run_size * print_runs // per_player
    runs = "one print run" if print_runs == 1 else f"{print_runs} print runs"
    return (
        f"the pack pool of {runs} ({fmt.run_size * print_runs} copies) supports up to {most} "
        f"player{'s' * (most != 1)} "
        f"({fmt.packs_per_player} packs of {fmt.pack_size} each)"
    )


def setup_mode(fmt: PackFormat, opts: PackOptions) -> None:
    """A setup format deals games (--games), a pack format players' packs (--players): the
    other's options are usage errors, not silently ignored."""
    if fmt.mode == "setup":
        wrong = [
            name
            for name, given in (
                ("--players", opts.players is not None),
                ("--packs-per-player", opts.packs_per_player is not None),
                ("--print-runs", opts.print_runs != 1),
            )
            if given
        ]
        if wrong:
            raise CardgenError(
                f"format '{fmt.name}' is a game setup (mode: setup): it deals games, so "
                f"{', '.join(wrong)} mean{'s' * (len(wrong) == 1)} nothing; use --games N"
            )
    elif opts.games is not None:
        raise CardgenError(
            f"--games is for setup formats (mode: setup); format '{fmt.name}' deals packs to "
            "players: use --players N"
        )


def default_players(fmt: PackFormat, model: GameModel) -> int:
    """The model's `draft.players`, else as many as one print run supports (exhaust, at most 8),
    else 8."""
    players = model.draft.players
    if isinstance(players, int) and not isinstance(players, bool) and players > 0:
        return players
    if fmt.mode == "exhaust":
        return max(1, min(8, fmt.run_size // (fmt.packs_per_player * fmt.pack_size)))
    return 8


def deal_files(
    ws: Workspace,
    game: str,
    d: Deal,
    catalog: Catalog,
    fields: report.Labels,
    sheets: bool = False,
    studio: Studio | None = None,
) -> dict[str, tuple[str | bytes, str]]:
    """A deal as text, CSV and JSON (and the printable pack PDF): extension -> (content, what), each
    naming the seed."""
    what = "setups" if d.format.mode == "setup" else "packs"
    files: dict[str, tuple[str | bytes, str]] = {
        "txt": (report.deal_text(d, catalog, fields), f"{what} as text"),
        "csv": (report.deal_csv(d, catalog), f"{what} as CSV"),
        "json": (report.deal_json(d), f"{what} as JSON"),
    }
    if sheets:
        pdf, pages = _pack_sheets(ws, game, d, studio)
        many = (
            f"the setups of {d.games} game{'s' * (d.games != 1)}"
            if d.format.mode == "setup"
            else f"{len(d.packs)} packs"
        )
        files["pdf"] = (
            pdf,
            f"{many} to print, each starting a new sheet ({pages} sheet{'s' * (pages != 1)})",
        )
    return files


def write_deal(folder: Path, d: Deal, files: dict[str, tuple[str | bytes, str]]) -> list[Output]:
    stem = "setups" if d.format.mode == "setup" else "packs"
    return [
        Output(write_atomic(folder / f"{stem}-{d.seed}.{ext}", content), what)
        for ext, (content, what) in files.items()
    ]


def pack_code(player: int, round_: int, seed: int) -> str:
    """What each card of a pack carries, to sort cut cards back into packs: 'P3 R2 · seed 7'."""
    return f"P{player} R{round_} · seed {seed}"


def _pack_sheets(
    ws: Workspace, game: str, d: Deal, studio: Studio | None = None
) -> tuple[bytes, int]:
    from ..printrun.printing import (  # the renderer is loaded only when sheets are asked for
        SheetOptions,
        sheet_bytes,
    )
    from ..project.studio import open_studio

    studio = studio or open_studio(ws, game)
    by_id = studio.catalog.by_id()
    chosen, groups = [], []
    for pack in sorted(d.packs, key=lambda p: (p.player, p.round)):
        for cid in pack.cards:
            chosen.append((by_id[cid], 1))
        if d.format.mode == "setup":  # 'game 3 · seed 7' on the page, 'G3 · seed 7' on each back
            code = f"G{pack.player} · seed {d.seed}"
            groups.append((f"game {pack.player} · seed {d.seed}", len(pack.cards), code))
            continue
        groups.append(
            (
                f"player {pack.player}, round {pack.round}, pass {pack.direction} · seed {d.seed}",
                len(pack.cards),
                pack_code(pack.player, pack.round, d.seed),
            )
        )
    run = sheet_bytes(studio, SheetOptions(), chosen, groups=groups)
    return run.pdf, run.sheets


def run_draft(
    ws: Workspace,
    game: str,
    players: int | None,
    seed: int | None,
    fmt: str,
    out: Path | None,
    format_name: str | None = None,
    print_runs: int = 1,
) -> JobResult:
    result, pack_format = _load(ws, game, format_name)
    if pack_format.mode == "setup":
        raise CardgenError(
            f"format '{pack_format.name}' is a game setup (mode: setup): there is nothing to "
            f"draft; 'cardgen packs {game} --pack-format {pack_format.name} --games N' deals it"
        )
    seed, chosen = choose_seed(seed)
    if players is None:
        players = default_players(pack_format, result.model)  # type: ignore[arg-type]
    d = deal(pack_format, game, players, seed, print_runs)
    draft = simulate(d, result.model, result.catalog)  # type: ignore[arg-type]
    text = report.draft_json(draft) if fmt == "json" else report.draft_csv(draft)
    notes = [f"seed {seed}" + (f" (chosen at random; replay with --seed {seed})" if chosen else "")]
    if out is not None:  # written to the folder only, not printed as well
        made = Output(write_atomic(out / f"draft-{seed}.{fmt}", text), "draft picks and log")
        return JobResult([made], result.model_errors, notes=notes)
    return JobResult([], result.model_errors, notes=notes, text=text)


def draft_night(
    studio: "Studio", seed: int | None, players: int | None, notes: list[str]
) -> list[Output]:
    """build's booster packs for the model's draft format (its first pack format), seeded (`seed`,
    else draft.seed, else 1) and recorded in every file; why none were dealt goes to `notes`."""
    from ..packs.report import label_fields

    model = studio.model
    try:
        fmt = load_format(model, studio.catalog)
        seed = seed if seed is not None else model.draft.seed
        seed = 1 if seed is None else seed
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise CardgenError(f"draft.seed must be a whole number of 0 or more, not {seed!r}")
        players = players if players is not None else default_players(fmt, model)
        d = deal(fmt, studio.game, players, seed)
        files = deal_files(
            studio.ws,
            studio.game,
            d,
            studio.catalog,
            label_fields(model, fmt),
            sheets=True,
            studio=studio,
        )
    except CardgenError as exc:
        notes.append(f"packs not dealt: {exc.message}")
        return []
    if fmt.mode == "setup":
        notes.append(f"setups: {d.games} game{'s' * (d.games != 1)}, seed {seed}")
    else:
        notes.append(f"packs: {len(d.packs)} for {players} players, seed {seed}; {capacity(fmt)}")
    return write_deal(studio.ws.output_dir(studio.game) / "packs", d, files)

"""Seeded fuzzing of every input kind: 5,000 mutants, none may crash (exit 3), hang over 10 s or
write outside output/. A failure names the seed and the mutant, so it can be replayed (tests/fuzz.py
has the mutators; bench/fuzz.py runs a larger campaign by hand)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.core.workspace import Workspace
from cardgen.jobs.findings import validate_game
from cardgen.load.decklist import read_deck
from cardgen.model.packs import load_format
from cardgen.packs.deal import deal
from cardgen.printrun.printing import SheetOptions, choose_cards, sheet_bytes
from cardgen.project.studio import open_studio
from cardgen.rulebook.lint import rulebook_findings
from cardgen.validate.decks import check_deck, dialect_for

from .conftest import FIXTURE_WS, REPO
from .fuzz import FileSet, dump, files_outside, mutate_data, mutate_text, run_guarded

GAME = "clean"
DECK = "3x Ember Guard\n2 Firestorm\n\nSideboard:\n1 Tide Caller\n"


@pytest.fixture()
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE_WS, root, symlinks=True)
    return Workspace.find(root)


def exercise(ws: Workspace, render: bool = False) -> None:
    """What the commands do with a game, in process: validate, deal every pack format, check a deck,
    print."""
    result = validate_game(ws, GAME)
    model = result.model
    if model is None:
        return
    for name in list(model.packs or {}):
        run = run_guarded(
            lambda name=name: deal(load_format(model, result.catalog, name), GAME, 2, 1)
        )
        if run:
            raise AssertionError(run)
    deck_path = ws.root / "deck.txt"
    deck_path.write_text(DECK)
    check_deck(read_deck(deck_path, "deck.txt", dialect_for(model)), model, result.catalog)
    if render:
        studio = open_studio(ws, GAME, result)
        chosen, _, _ = choose_cards(studio, SheetOptions(copies="one"))
        if chosen:
            sheet_bytes(studio, SheetOptions(copies="one"), chosen)


def campaign(
    ws: Workspace, kind: str, count: int, first_seed: int, make: "callable", render_every: int = 0
) -> None:
    before = set(ws.root.parent.rglob("*"))
    failures = []
    for seed in range(first_seed, first_seed + count):
        rng = random.Random(seed)
        description = make(rng)
        render = bool(render_every) and seed % render_every == 0
        problem = run_guarded(lambda render=render: exercise(ws, render))
        if problem:
            failures.append(f"{kind} seed {seed}: {problem}\n--- mutant ---\n{description[:1500]}")
        if len(failures) >= 3:
            break
    outside = files_outside(ws.root, before)
    assert not failures, "\n\n".join(failures)
    assert outside == [], outside


def _model_sources() -> list[dict]:
    sources = [yaml.safe_load((FIXTURE_WS / "rules" / GAME / "game.yaml").read_text())]
    for game in ("power-trip", "aether-duel", "ivion"):
        sources.append(yaml.safe_load((REPO / "rules" / game / "game.yaml").read_text()))
    return sources


@pytest.mark.parametrize("chunk", range(5))
def test_model_mutants(ws: Workspace, chunk: int) -> None:
    sources = _model_sources()
    path = ws.model_path(GAME)

    def make(rng: random.Random) -> str:
        text = dump(mutate_data(rng.choice(sources), rng, rng.randint(1, 3)))
        path.write_text(text)
        return text

    campaign(ws, "model", 300, 10_000 + chunk * 300, make, render_every=10)


@pytest.mark.parametrize("chunk", range(4))
def test_card_mutants(ws: Workspace, chunk: int) -> None:
    path = ws.cards_dir(GAME) / "cards.yaml"
    base = yaml.safe_load(path.read_text())

    def make(rng: random.Random) -> str:
        text = dump(mutate_data(base, rng, rng.randint(1, 3)))
        path.write_text(text)
        return text

    campaign(ws, "cards", 250, 20_000 + chunk * 250, make, render_every=5)


def test_bundled_template_mutants(tmp_path: Path) -> None:
    """The bundled games' own templates, mutated: a crash in a real template's shape is found here
    too."""
    failures = []
    for game in ("power-trip", "aether-duel", "ivion"):
        root = tmp_path / game
        for part in ("rules", "cards", "templates"):
            shutil.copytree(REPO / part, root / part)
        bundled = Workspace.find(root)
        templates = FileSet(bundled.templates_dir(game))
        for seed in range(70_000, 70_040):
            mutant = templates.mutate_one(random.Random(seed))
            problem = run_guarded(lambda bundled=bundled, game=game: validate_game(bundled, game))
            if problem:
                failures.append(f"{game} seed {seed}: {problem}\n{mutant[:800]}")
    assert not failures, "\n\n".join(failures[:3])


@pytest.mark.parametrize("chunk", range(4))
def test_template_mutants(ws: Workspace, chunk: int) -> None:
    templates = FileSet(ws.templates_dir(GAME))
    campaign(ws, "templates", 250, 30_000 + chunk * 250, templates.mutate_one, render_every=4)


def test_deck_list_mutants(ws: Workspace) -> None:
    validated = validate_game(ws, GAME)
    assert validated.model is not None
    path = ws.root / "fuzz-deck.txt"
    failures = []
    for seed in range(40_000, 40_800):
        rng = random.Random(seed)
        text = mutate_text(
            DECK if seed % 3 else "Monster: Ember Guard\nCard List:\n- 3x Firestorm\n", rng, 3
        )
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        problem = run_guarded(
            lambda: check_deck(
                read_deck(path, "fuzz-deck.txt", dialect_for(validated.model)),
                validated.model,
                validated.catalog,
            )
        )
        if problem:
            failures.append(f"deck seed {seed}: {problem}\n{text[:500]}")
    assert not failures, "\n\n".join(failures[:3])


def test_rulebook_chapter_mutants(ws: Workspace) -> None:
    folder = ws.root / "rules" / GAME / "rulebook"
    bases = {p.name: p.read_text() for p in sorted(folder.glob("*.md"))}
    studio = open_studio(ws, GAME)
    failures = []
    for seed in range(50_000, 50_500):
        rng = random.Random(seed)
        for name, text in bases.items():
            (folder / name).write_text(text)
        name = rng.choice(sorted(bases))
        text = mutate_text(bases[name], rng, rng.randint(1, 4))
        (folder / name).write_text(text)
        problem = run_guarded(lambda: rulebook_findings(studio))
        if problem:
            failures.append(f"chapter seed {seed} ({name}): {problem}\n{text[:800]}")
    assert not failures, "\n\n".join(failures[:3])


COMMANDS = [
    ["validate", GAME],
    ["validate", GAME, "--format", "json"],
    ["show", GAME, "Firestorm"],
    ["games"],
    ["sheets", GAME],
    ["packs", GAME],
    ["draft", GAME],
    ["deck", "check", GAME, "deck.txt"],
    ["export", GAME, "--to", "cockatrice"],
    ["export", GAME, "--to", "draftmancer"],
    ["export", GAME, "--png"],
]
OPTIONS = {
    "sheets": [
        "--paper",
        "--copies",
        "--deck",
        "--duplex",
        "--layout",
        "--bleed",
        "--only",
        "--back-offset",
        "--out",
        "--calibration",
        "--no-crop-marks",
        "--strict",
    ],
    "packs": [
        "--players",
        "--packs-per-player",
        "--seed",
        "--print-runs",
        "--format",
        "--pack-format",
        "--stats",
    ],
    "draft": ["--players", "--seed", "--print-runs", "--format", "--pack-format"],
    "export": ["--dpi", "--preset", "--only", "--deck", "--image-base"],
    "validate": ["--format", "--strict"],
    "show": ["--strict"],
    "games": [],
    "deck": ["--format", "--seat", "--pool"],
}
VALUES = [
    "0",
    "-1",
    "1",
    "3",
    "99999999999999999999",
    "nan",
    "inf",
    "1e300,-1e300",
    "nan,inf",
    "a4",
    "letter",
    "1mm x 1mm",
    "60mm x 80mm",
    "99in x 99in",
    "-5mm",
    "200mm",
    "one",
    "deck",
    "collation",
    "long",
    "gutter",
    "card.(",
    "card.name == 'Firestorm'",
    "{{",
    "''.__class__",
    "deck.txt",
    "nope.txt",
    "/dev/full",
    "output/x.pdf",
    "booster",
    "pod",
    "drfat",
    "text",
    "json",
    "csv",
    "tgc-poker",
    "nope",
    "300",
    "37",
]


def test_cli_option_mutants(ws: Workspace) -> None:
    (ws.root / "deck.txt").write_text(DECK)
    before = set(ws.root.parent.rglob("*"))
    runner = CliRunner()
    failures = []
    for seed in range(60_000, 60_200):
        rng = random.Random(seed)
        args = list(rng.choice(COMMANDS))
        for _ in range(rng.randint(0, 3)):
            option = rng.choice(OPTIONS[args[0]] or ["--help"])
            args += (
                [option]
                if option in ("--calibration", "--no-crop-marks", "--strict", "--help")
                else [option, rng.choice(VALUES)]
            )
        import os

        cwd = os.getcwd()
        os.chdir(ws.root)
        try:
            result = runner.invoke(main, ["--root", str(ws.root), *args])
        finally:
            os.chdir(cwd)
        text = result.output
        if (
            result.exit_code not in (0, 1, 2)
            or "internal error" in text
            or "Traceback" in text
            or (result.exception is not None and not isinstance(result.exception, SystemExit))
        ):
            failures.append(
                f"cli seed {seed}: cardgen {' '.join(args)} -> {result.exit_code}\n{text[-800:]}"
                f"\n{result.exception!r}"
            )
    assert not failures, "\n\n".join(failures[:3])
    assert files_outside(ws.root, before) == []


def test_the_hang_guard_catches_a_loop_and_a_wait() -> None:
    """run_guarded names a loop by the cpu it spends and a wait that never ends by the clock."""
    import time

    from .fuzz import Hang, deadline

    with pytest.raises(Hang, match="cpu"), deadline(1):
        while True:
            pass
    with pytest.raises(Hang, match="took over 6 s$"), deadline(1):
        time.sleep(30)

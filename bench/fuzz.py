"""Benchmark-sized fuzzing (run by hand): many more seeded mutants of every input kind than the test
suite's 5,000, printing a table of mutants, failures and time per kind. Usage: python bench/fuzz.py
[PER_KIND]"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import yaml  # noqa: E402

from cardgen.core.workspace import Workspace  # noqa: E402
from cardgen.jobs.findings import validate_game  # noqa: E402
from cardgen.load.decklist import read_deck  # noqa: E402
from cardgen.project.studio import open_studio  # noqa: E402
from cardgen.rulebook.lint import rulebook_findings  # noqa: E402
from cardgen.validate.decks import check_deck, dialect_for  # noqa: E402
from tests.fuzz import FileSet, dump, mutate_data, mutate_text, run_guarded  # noqa: E402
from tests.test_fuzz import DECK, FIXTURE_WS, GAME, _model_sources, exercise  # noqa: E402

sys.path.insert(0, str(REPO / "bench"))
from common import Row, report, without_json  # noqa: E402


def main() -> None:
    args = without_json(sys.argv[1:])
    per_kind = int(args[0]) if args else 4000
    tmp = Path(tempfile.mkdtemp())
    root = tmp / "ws"
    shutil.copytree(FIXTURE_WS, root, symlinks=True)
    ws = Workspace.find(root)
    rows = []

    def campaign(kind: str, make, check, base: int) -> None:  # type: ignore[no-untyped-def]
        failures, started = [], time.perf_counter()
        for seed in range(base, base + per_kind):
            rng = random.Random(seed)
            make(rng)
            problem = run_guarded(lambda seed=seed: check(seed))
            if problem:
                failures.append((seed, problem.splitlines()[0]))
        rows.append((kind, per_kind, len(failures), time.perf_counter() - started, failures[:3]))

    sources = _model_sources()
    model = ws.model_path(GAME)
    original_model = model.read_text()
    campaign(
        "models",
        lambda rng: model.write_text(
            dump(mutate_data(rng.choice(sources), rng, rng.randint(1, 4)))
        ),
        lambda seed: exercise(ws, render=seed % 10 == 0),
        100_000,
    )
    model.write_text(original_model)
    cards = ws.cards_dir(GAME) / "cards.yaml"
    card_base = yaml.safe_load(cards.read_text())
    original_cards = cards.read_text()
    campaign(
        "cards",
        lambda rng: cards.write_text(dump(mutate_data(card_base, rng, rng.randint(1, 4)))),
        lambda seed: exercise(ws, render=seed % 5 == 0),
        200_000,
    )
    cards.write_text(original_cards)
    templates = FileSet(ws.templates_dir(GAME))
    campaign(
        "templates",
        lambda rng: templates.mutate_one(rng, 4),
        lambda seed: exercise(ws, render=seed % 4 == 0),
        300_000,
    )
    for name, data in templates.bases.items():
        (templates.folder / name).write_text(dump(data))
    checked = validate_game(ws, GAME)
    deck = root / "deck.txt"
    campaign(
        "deck lists",
        lambda rng: deck.write_text(mutate_text(DECK, rng, rng.randint(1, 5))),
        lambda seed: check_deck(
            read_deck(deck, "deck.txt", dialect_for(checked.model)), checked.model, checked.catalog
        ),
        400_000,
    )
    book = root / "rules" / GAME / "rulebook"
    chapters = {p.name: p.read_text() for p in sorted(book.glob("*.md"))}
    studio = open_studio(ws, GAME)

    def chapter(rng: random.Random) -> None:
        for name, text in chapters.items():
            (book / name).write_text(text)
        name = rng.choice(sorted(chapters))
        (book / name).write_text(mutate_text(chapters[name], rng, rng.randint(1, 5)))

    campaign("chapters", chapter, lambda seed: rulebook_findings(studio), 500_000)
    shutil.rmtree(tmp, ignore_errors=True)
    for kind, *_, examples in rows:
        for seed, line in examples:
            print(f"{kind} seed {seed}: {line}", file=sys.stderr)
    total, failed = sum(r[1] for r in rows), sum(r[2] for r in rows)
    report(
        [
            Row(
                "`fuzz`: seeded mutants per input kind (models, cards, templates, deck lists, "
                "chapters), no crash, "
                "hang or stray file",
                "the fixture game and the bundled models",
                f"{total:,} mutants, {failed} failures in {sum(r[3] for r in rows):.0f} s",
                "0 failures",
            )
        ]
    )


if __name__ == "__main__":
    main()

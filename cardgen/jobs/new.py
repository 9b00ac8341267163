"""Turn a game name (and optionally a spreadsheet) into a new game: a model, cards and templates
that validate and build."""

from __future__ import annotations

import re
from pathlib import Path

from ..core.errors import CardgenError, Severity
from ..core.output import JobResult, Output, write_atomic
from ..core.units import STARTER_SIZES
from ..load.card import slug

STARTER = Path(__file__).resolve().parents[1] / "data" / "starter"


def starter(name: str) -> str:
    """One of the starter game's files, as shipped in the package."""
    return (STARTER / name).read_text(encoding="utf-8")


def scaffold(root: Path, game: str, size: str | None = None) -> list[Path]:
    """A new game from the starter files: a model, three sample cards, a front and a back. `size`
    (one of STARTER_SIZES; default 63mm x 88mm) is written into the model as the card size: the
    starter templates are size-relative and fit it."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", game):
        raise CardgenError(
            f"'{game}' is not a usable game name: use lower-case letters, digits and '-'"
        )
    if size is not None and size not in STARTER_SIZES:
        raise CardgenError(f"unknown card size '{size}' (sizes: {', '.join(STARTER_SIZES)})")
    files = {
        root / "rules" / game / "game.yaml": starter("game.yaml")
        .replace("{title}", game.replace("-", " ").title())
        .replace("{size}", size or "63mm x 88mm"),
        root / "cards" / game / "cards.yaml": starter("cards.yaml"),
        root / "templates" / game / "faces.yaml": starter("faces.yaml"),
        root / "templates" / game / "front.yaml": starter("front.yaml"),
        root / "templates" / game / "back.yaml": starter("back.yaml"),
    }
    _refuse_existing(game, files)
    shared = root / "templates" / "_shared" / "card.yaml"
    if not shared.exists():
        files[shared] = starter("card.yaml")
    (root / "output").mkdir(parents=True, exist_ok=True)
    return [write_atomic(path, text) for path, text in files.items()]


def _refuse_existing(game: str, files: dict[Path, str]) -> None:
    for path in files:
        if (
            path.exists()
            or path.parent.exists()
            and path.parent.name == game
            and any(path.parent.iterdir())
        ):
            raise CardgenError(f"'{game}' already exists ({path.parent}); choose another name")


def scaffold_from_sheet(root: Path, game: str, source: Path | str) -> JobResult:
    """A new game inferred from a spreadsheet (CSV, XLSX, ODS, or a published-CSV URL): its model
    (commented), one card file per sheet, and a front that shows every field. Findings from reading
    the sheet are reported; nothing is written when one is an error (a formula with no saved value)
    or the sheet has no cards."""
    from ..sheet.infer import infer
    from ..sheet.infer_cost import apply_cost
    from ..sheet.infer_editions import apply_editions
    from ..sheet.infer_face import front_yaml
    from ..sheet.infer_yaml import cards_yaml, game_yaml
    from ..sheet.read import read_tables

    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", game):
        raise CardgenError(
            f"'{game}' is not a usable game name: use lower-case letters, digits and '-'"
        )
    shown = _shown(root, source)
    tables, findings = read_tables(source, shown)
    if any(f.severity >= Severity.ERROR for f in findings):  # fix the sheet, then run again
        return JobResult(findings=findings, notes=["nothing written: the sheet has errors"])
    label = Path(shown).name if "://" not in shown else shown
    inferred = infer(tables, Path(label).stem or "cards")
    inferred.editions = apply_editions(inferred)  # before the cost: 'Cost (DE)' is no cost
    apply_cost(inferred)
    cards = sum(len(c) for _, c in inferred.tables)
    if not cards:
        raise CardgenError(f"{shown}: no cards (a header row and at least one row of values)")
    title = game.replace("-", " ").title()
    files = {root / "rules" / game / "game.yaml": game_yaml(inferred, title, label)}
    stems: set[str] = set()
    for name, rows in inferred.tables:
        stem, n = slug(name) or "cards", 2
        while stem in stems:
            stem, n = f"{slug(name) or 'cards'}-{n}", n + 1
        stems.add(stem)
        files[root / "cards" / game / f"{stem}.yaml"] = cards_yaml(rows, name, label)
    files[root / "templates" / game / "faces.yaml"] = starter("faces.yaml")
    files[root / "templates" / game / "front.yaml"] = front_yaml(inferred)
    files[root / "templates" / game / "back.yaml"] = starter("back.yaml")
    _refuse_existing(game, files)
    shared = root / "templates" / "_shared" / "card.yaml"
    if not shared.exists():
        files[shared] = starter("card.yaml")
    (root / "output").mkdir(parents=True, exist_ok=True)
    outputs = [Output(write_atomic(path, text), _what(path)) for path, text in files.items()]
    fields = [c for c in inferred.columns if c.kind != "id"]
    notes = [
        f"{cards} cards from {len(inferred.tables)} sheet(s); {len(fields)} fields: "
        + ", ".join(f"{c.field} ({c.kind})" for c in fields),
        *inferred.notes,
        *inferred.editions.said(),
        f"next: cardgen validate {game} && cardgen build {game}",
    ]
    return JobResult(outputs=outputs, findings=findings, notes=notes)


def _shown(root: Path, source: Path | str) -> str:
    if isinstance(source, str) and "://" in source:
        return source
    path = Path(source)
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.name


def _what(path: Path) -> str:
    return {
        "game.yaml": "the model, inferred (each choice commented)",
        "front.yaml": "a front showing every field",
        "back.yaml": "the back",
        "faces.yaml": "which template each card gets",
        "card.yaml": "shared fonts",
    }.get(path.name, "cards, one per row")

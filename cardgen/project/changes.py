"""Turn a game's cards and a git revision of its workspace into versions and changes: which designs
were added, changed or removed since then, each with its old and new fields."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import CardgenError
from ..core.workspace import Workspace
from ..load.card import Card, Catalog
from ..load.yamlio import plain
from ..model.game import GameModel, Role


def content_hash(card: Card) -> str:
    data = json.dumps(plain(card.data), sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha1(data.encode()).hexdigest()[:6]


def card_version(card: Card, model: GameModel) -> str:
    """What a printed card says about its printing: the model's version field ('v3'), else the first
    six hex digits of its content's hash ('#3f9a1c'): any change to the card's data gives it a new
    one; in an edition other than the default language's, followed by the edition ('#3f9a1c DE')."""
    declared = model.role_value(card, Role.VERSION)
    if declared not in (None, ""):
        version = f"v{declared}" if str(declared)[:1].isdigit() else str(declared)
    else:
        version = f"#{content_hash(card)}"
    # another edition's cards say so ('#3f9a1c DE'): two editions' printings are told apart, and the
    # hash is of what the edition prints (its translations, and the fallbacks it prints)
    return f"{version} {model.edition.upper()}" if model.other_edition() else version


@dataclass
class Change:
    card_id: str
    name: str
    status: str  # "added", "changed" or "removed"
    fields: list[tuple[str, Any, Any]] = field(
        default_factory=list
    )  # (field, old, new); old/new None = absent
    versions: tuple[str, str] = ("", "")  # the printed version before and after ("" when absent)
    order: int | None = None  # the card's position in the current catalog (None: removed)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.card_id,
            "name": self.name,
            "status": self.status,
            "old_version": self.versions[0] or None,
            "new_version": self.versions[1] or None,
            "fields": [{"field": f, "old": old, "new": new} for f, old, new in self.fields],
        }


def _git(root: Path, *args: str) -> str:
    import shutil  # here: a print run reads card versions, never git
    import subprocess

    if shutil.which("git") is None:
        raise CardgenError("--changed-since needs git, and git is not installed (or not on PATH)")
    proc = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
    if proc.returncode != 0:
        message = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "git failed"
        raise CardgenError(f"git: {message}")
    return proc.stdout


def cards_at(ws: Workspace, game: str, ref: str) -> Catalog:
    """The game's cards as they were at a git revision of the workspace."""
    from ..load.cards import read_cards

    root = ws.root.resolve()
    try:
        top = Path(_git(root, "rev-parse", "--show-toplevel").strip()).resolve()
    except CardgenError as exc:
        raise CardgenError(
            f"the workspace {root} is not in a git repository, so there is no '{ref}' to compare "
            f"with ({exc})"
        ) from None
    try:
        _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except CardgenError:
        raise CardgenError(
            f"'{ref}' is not a revision of the workspace's git repository (try HEAD~1, a tag or "
            f"a commit id)"
        ) from None
    folder = ws.cards_dir(game).resolve().relative_to(top).as_posix()
    names = [
        n
        for n in _git(top, "ls-tree", "-r", "--name-only", ref, "--", folder).splitlines()
        if n.endswith((".yaml", ".yml"))
    ]
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="cardgen-changes-") as tmp:
        for name in names:
            target = Path(tmp) / name
            target.parent.mkdir(parents=True, exist_ok=True)
            blob = subprocess.run(
                ["git", "-C", str(top), "show", f"{ref}:{name}"], capture_output=True
            )
            target.write_bytes(blob.stdout)
        catalog, _ = read_cards(game, Path(tmp) / folder, Path(tmp))
    return catalog


def changes_since(
    ws: Workspace, game: str, ref: str, now: Catalog, model: GameModel
) -> list[Change]:
    """Every design added, changed or removed between `ref` and the working tree, in the current
    card order (removed ones last). Cards sharing an id (a validator error, but it happens) are
    paired in file order. For a game with editions, the cards as `model`'s edition prints them, then
    and now: a card changed when what that edition prints of it changed."""
    from ..model.localise import edition_catalog

    before: dict[str, list[Card]] = {}
    for card in edition_catalog(cards_at(ws, game, ref), model).cards:
        before.setdefault(card.id, []).append(card)
    out: list[Change] = []
    for card in now.cards:
        olds = before.get(card.id)
        old = olds.pop(0) if olds else None
        if old is None:
            out.append(
                Change(
                    card.id,
                    card.name,
                    "added",
                    [(k, None, plain(v)) for k, v in card.data.items()],
                    ("", card_version(card, model)),
                    card.order,
                )
            )
            continue
        diffs = [
            (k, plain(old.data.get(k)), plain(card.data.get(k)))
            for k in dict.fromkeys([*old.data, *card.data])
            if plain(old.data.get(k)) != plain(card.data.get(k))
        ]
        if diffs:
            out.append(
                Change(
                    card.id,
                    card.name,
                    "changed",
                    diffs,
                    (card_version(old, model), card_version(card, model)),
                    card.order,
                )
            )
    for card_id, olds in before.items():
        for old in olds:  # left unpaired: removed
            out.append(
                Change(
                    card_id,
                    old.name,
                    "removed",
                    [(k, plain(v), None) for k, v in old.data.items()],
                    (card_version(old, model), ""),
                )
            )
    return out


def _value(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def changes_text(changes: list[Change], ref: str) -> str:
    if not changes:
        return f"no card added, changed or removed since {ref}\n"
    lines = [
        f"{len(changes)} card{'s' * (len(changes) != 1)} added, changed or removed since {ref}:"
    ]
    for ch in changes:
        lines.append(
            f"{ch.status:<8} {ch.name} ({ch.card_id})  {' -> '.join(v for v in ch.versions if v)}"
        )
        if ch.status == "changed":
            for name, old, new in ch.fields:
                lines.append(f"         {name}: {_value(old)}  ->  {_value(new)}")
    return "\n".join(lines) + "\n"


def changes_json(changes: list[Change], game: str, ref: str) -> str:
    return (
        json.dumps(
            {"game": game, "since": ref, "changes": [c.as_dict() for c in changes]},
            indent=2,
            ensure_ascii=False,
            default=str,
        )
        + "\n"
    )


def field_text(value: Any) -> str:
    return _value(value)

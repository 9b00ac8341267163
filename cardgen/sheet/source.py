"""Turn a game's card files into what a sheet is made from and pulled into: each file's bytes and
text, its cards as loaded, and where each of their values stands in the text."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import CardgenError, Finding, Severity
from ..core.workspace import Workspace
from ..load.card import Card, Catalog, slug
from ..load.cards import card_files
from ..load.yamledit import CardNode, Located, locate
from .settings import sheet_name


@dataclass
class SourceCard:
    card: Card
    index: int  # position among the file's cards
    node: CardNode | None = None  # where it stands in the text, once the file is located


@dataclass
class CardFile:
    path: Path
    shown: str  # 'cards/game/spells.yaml'
    rel: str  # 'spells.yaml', relative to cards/GAME/
    raw: bytes
    text: str
    bom: bool
    located: Located | None = None
    cards: list[SourceCard] = field(default_factory=list)
    readable: bool = True
    _tried: bool = False

    @property
    def sheet(self) -> str:
        return sheet_name(self.rel)

    def locate(self) -> Located | None:
        """Where every card of the file stands in its text (worked out on the first edit), or None
        when the text does not hold the cards as loaded."""
        if self._tried or self.located is not None:
            return self.located
        self._tried = True
        located = locate(self.text)
        if located is None:
            return None
        nodes = {node.line: node for node in located.cards if node is not None}
        if len(nodes) != len(self.cards) or any(sc.card.line not in nodes for sc in self.cards):
            return None
        for sc in self.cards:
            sc.node = nodes[sc.card.line]
        self.located = located
        return located


def card_id(item: dict[str, Any], stem: str, index: int) -> str:
    """A card's id exactly as load.cards gives it: its id, else its name's slug, else
    'stem-N'."""
    explicit = item.get("id")
    if isinstance(explicit, str) and explicit.strip():
        return explicit.strip()
    name = item.get("name")
    made = slug(name) if isinstance(name, str) else ""
    return made or f"{stem}-{index + 1}"


def read_sources(
    ws: Workspace, game: str, catalog: Catalog, problems: list[Finding]
) -> tuple[list[CardFile], list[Finding]]:
    """Every card file of the game with its cards as loaded (`catalog`, `problems`: the loader's);
    a file that did not load cleanly is kept (readable False) so that nothing of it is touched."""
    folder = ws.cards_dir(game)
    by_file: dict[str, list[Card]] = {}
    for card in catalog:
        by_file.setdefault(card.file, []).append(card)
    broken = {  # a file that did not load as a list (an item that is not a card is no obstacle)
        f.file
        for f in problems
        if f.severity >= Severity.ERROR and f.card is None and f.code != "card-not-a-mapping"
    }
    refused = {f.file for f in problems if f.code in ("file-too-large", "file-too-many-values")}
    out: list[CardFile] = []
    findings: list[Finding] = []
    inside = ws.root.resolve()
    for path in card_files(folder):
        shown = ws.shown(path)
        rel = path.relative_to(folder).as_posix()
        if not path.resolve().is_relative_to(inside):
            continue  # the loader reports a file linking out of the workspace
        if shown in refused:  # past the loader's bound: not read again here
            out.append(CardFile(path, shown, rel, b"", "", False, readable=False))
            findings.append(_skipped(shown, "it is past the card-file bounds (see its finding)"))
            continue
        try:
            raw = path.read_bytes()
            text = raw.decode("utf-8-sig")
        except (OSError, UnicodeDecodeError):
            out.append(CardFile(path, shown, rel, b"", "", False, readable=False))
            findings.append(_skipped(shown, "it cannot be read as UTF-8 YAML"))
            continue
        source = CardFile(path, shown, rel, raw, text, raw.startswith(b"\xef\xbb\xbf"))
        if shown in broken:
            source.readable = False
            findings.append(_skipped(shown, "it does not load as a list of cards"))
        else:
            source.cards = [SourceCard(card, i) for i, card in enumerate(by_file.get(shown, []))]
        out.append(source)
    return out, findings


def _skipped(shown: str, why: str) -> Finding:
    return Finding(
        shown,
        0,
        0,
        Severity.WARNING,
        "sheet-file-skipped",
        None,
        f"this card file is left out of the sheet and never edited by a pull: {why}",
        "cardgen validate says what is wrong with it",
    )


def reread(source: CardFile) -> None:
    """Refuse (exit 2) when a card file changed since it was read: an edit made meanwhile is never
    overwritten."""
    try:
        now = source.path.read_bytes() if source.path.exists() else None
    except OSError as exc:
        raise CardgenError(f"{source.shown}: cannot read it again: {exc.strerror}") from None
    before = source.raw if source.raw or source.path.exists() else None
    if now != before:
        raise CardgenError(
            f"{source.shown} changed while the sheet was being pulled; nothing was written "
            "(pull again)"
        )

"""Turn a folder into a Workspace: where its rules/, cards/, templates/, fonts/ and output/ are."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .errors import CardgenError, suggest


@dataclass
class Workspace:
    root: Path
    # the edition a command works in, when it is not the default language's (`--edition de`): the
    # game is loaded as that edition (project.editions) and its outputs go to output/GAME@de/
    edition: str = ""

    @classmethod
    def find(cls, root: str | os.PathLike[str] | None = None) -> "Workspace":
        """--root, else $CARDGEN_ROOT, else the nearest folder upwards from here that has rules/."""
        chosen = root or os.environ.get("CARDGEN_ROOT")
        if chosen:
            path = Path(chosen).expanduser()
            if not (path / "rules").is_dir():
                raise CardgenError(f"'{path}' is not a cardgen workspace: it has no rules/ folder")
            return cls(path.resolve())
        here = Path.cwd().resolve()
        for candidate in (here, *here.parents):
            if (candidate / "rules").is_dir():
                return cls(candidate)
        raise CardgenError(
            "no cardgen workspace here (no rules/ folder in this folder or above); "
            "use --root DIR or set CARDGEN_ROOT"
        )

    def games(self) -> list[str]:
        rules = self.root / "rules"
        return (
            sorted(p.name for p in rules.iterdir() if (p / "game.yaml").is_file())
            if rules.is_dir()
            else []
        )

    def check_game(self, game: str) -> None:
        if game not in self.games():
            known = ", ".join(self.games()) or "none"
            raise CardgenError(
                suggest(f"no game '{game}' in {self.root} (games: {known})", game, self.games())
            )

    def model_path(self, game: str) -> Path:
        return self.root / "rules" / game / "game.yaml"

    def cards_dir(self, game: str) -> Path:
        return self.root / "cards" / game

    def templates_dir(self, game: str) -> Path:
        return self.root / "templates" / game

    def fonts_dir(self) -> Path:
        return self.root / "fonts"

    def output_dir(self, game: str) -> Path:
        """output/GAME (output/GAME@LANG for another edition), cardgen's own: refused (one line,
        exit 2) where output/ or output/GAME is a symbolic link, and guarded so that nothing is
        written through a link below it (output.refuse_links)."""
        from .output import guard, refuse_links

        top = self.root / "output"
        guard(top)
        folder = top / (f"{game}@{self.edition}" if self.edition else game)
        refuse_links(folder)
        for sub in (
            folder,
            folder / ".cache",
            folder / "gallery",
            folder / "export",
        ):  # before anything is written
            try:
                links = [
                    entry.path for entry in os.scandir(sub) if entry.is_symlink() and entry.is_dir()
                ]
            except OSError:  # not there (yet), or not a folder: write_atomic says so if it matters
                continue
            for link in sorted(links):
                refuse_links(Path(link))
        return folder

    def shared_dir(self, game: str) -> Path:
        """output/GAME whatever the edition: what every edition shares (the card files' parses, the
        cells a sheet pull came from)."""
        return Workspace(self.root).output_dir(game)

    def shown(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()

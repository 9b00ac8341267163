"""Turn the TrueType files in fonts/ into registered reportlab fonts, with glyph coverage and a fallback font."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from ..core.errors import CardgenError

FALLBACK = "DejaVuSans"
BUNDLED = Path(__file__).resolve().parents[1] / "data" / "fonts"  # shipped inside the package (wheel included)
_REGISTERED: dict[tuple[str, str], TTFont] = {}  # (folder, stem) -> font; reportlab's registry is process-wide


@dataclass
class FontSet:
    """The fonts of one workspace, loaded on first use and named by file stem ('CharisSIL-Regular')."""

    folder: Path
    fonts: dict[str, TTFont] = field(default_factory=dict)
    _runs: dict[tuple[str, str], list[tuple[str, str]]] = field(default_factory=dict, repr=False)
    _fallback: bool | None = field(default=None, repr=False)

    @property
    def fallback_ok(self) -> bool:
        if self._fallback is None:
            self._fallback = self._path(FALLBACK).is_file()
        return self._fallback

    def _path(self, stem: str) -> Path:
        """The workspace's own font first, else the one bundled with cardgen."""
        own = self.folder / f"{stem}.ttf"
        return own if own.is_file() or not (BUNDLED / f"{stem}.ttf").is_file() else BUNDLED / f"{stem}.ttf"

    def files(self) -> dict[str, Path]:
        """Every font this set can use, by stem: the bundled ones, replaced by the workspace's own."""
        found = {p.stem: p for p in sorted(BUNDLED.glob("*.ttf"))}
        found.update({p.stem: p for p in sorted(self.folder.glob("*.ttf"))})
        return dict(sorted(found.items()))

    def exists(self, stem: str) -> bool:
        return stem in self.fonts or self._path(stem).is_file()

    def get(self, stem: str) -> TTFont:
        if stem in self.fonts:
            return self.fonts[stem]
        key = (str(self.folder), stem)
        font = _REGISTERED.get(key)
        if font is None:
            path = self._path(stem)
            if not path.is_file():
                known = ", ".join(sorted(p.stem for p in self.folder.glob("*.ttf"))) or "none"
                raise CardgenError(f"font '{stem}' is not in {self.folder} (fonts: {known})")
            try:
                font = TTFont(self._pdf_name(stem), str(path))
            except TTFError as exc:
                raise CardgenError(f"font file {path.name} cannot be used: {exc}") from exc
            pdfmetrics.registerFont(font)
            # reportlab keeps one font object per face name: a second file with the same face name (another
            # workspace's copy) is registered as the first one. Use what the canvas will use.
            font = pdfmetrics.getFont(font.fontName)
            _REGISTERED[key] = font
        self.fonts[stem] = font
        return font

    def _pdf_name(self, stem: str) -> str:
        # two workspaces may bundle different files under one stem; keep their PDF names apart
        taken = {f.fontName for (folder, _), f in _REGISTERED.items() if folder != str(self.folder)}
        return stem if stem not in taken else f"{stem}-{hashlib.sha1(str(self.folder).encode()).hexdigest()[:6]}"

    def name(self, stem: str) -> str:
        """The registered reportlab font name for a stem."""
        return self.get(stem).fontName

    def has_glyph(self, stem: str, char: str) -> bool:
        return ord(char) in self.get(stem).face.charToGlyph

    def split_runs(self, stem: str, text: str) -> list[tuple[str, str]]:
        """Split text into (font stem, text) runs, sending characters the font lacks to the fallback."""
        cached = self._runs.get((stem, text))
        if cached is not None:
            return cached
        cmap = self.get(stem).face.charToGlyph
        if all(ord(ch) in cmap for ch in text):  # the usual case: the font draws every character
            self._runs[(stem, text)] = [(stem, text)]
            return self._runs[(stem, text)]
        runs: list[tuple[str, str]] = []
        fallback_ok = self.fallback_ok
        for ch in text:
            use = stem if (ord(ch) in cmap or ch in "\n\t" or not fallback_ok) else FALLBACK
            if runs and runs[-1][0] == use:
                runs[-1] = (use, runs[-1][1] + ch)
            else:
                runs.append((use, ch))
        self._runs[(stem, text)] = runs
        return runs

    def missing(self, stem: str, text: str) -> set[str]:
        """Characters neither the font nor the fallback can draw."""
        out = set()
        cmap = self.get(stem).face.charToGlyph
        for ch in set(text):
            if ord(ch) in cmap or ch.isspace():
                continue
            if self.fallback_ok and self.has_glyph(FALLBACK, ch):
                continue
            out.add(ch)
        return out

    def width(self, stem: str, text: str, size: float) -> float:
        return pdfmetrics.stringWidth(text, self.name(stem), size)

    def cap_height(self, stem: str, size: float) -> float:
        face = self.get(stem).face
        return (getattr(face, "capHeight", 0) or face.ascent * 0.7) * size / 1000.0

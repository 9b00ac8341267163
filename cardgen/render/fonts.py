"""Turn the TrueType files in fonts/ into registered reportlab fonts, with glyph coverage and a
fallback chain, and the font files templates name that do not exist into findings and stand-ins."""

from __future__ import annotations

import glob
import hashlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from ..core.errors import CardgenError, Finding, Severity, did_you_mean
from ..core.paths import file_stamp
from ..load.yamlio import LocList
from ..speed.memo import Memo
from .glyphadvice import named
from .templatefonts import STEM

if TYPE_CHECKING:
    from ..model.game import GameModel
    from .faces import FaceSet
    from .template import Template

FALLBACK = "DejaVuSans"  # the last font of every chain: what drew a glyph no other font has
STYLES = ("", "-Bold", "-Italic", "-BoldItalic")  # a fallback's variants, by richtext style
BUNDLED = (
    Path(__file__).resolve().parents[1] / "data" / "fonts"
)  # shipped inside the package (wheel included)
_REGISTERED: dict[
    tuple[str, str], TTFont
] = {}  # (folder, stem) -> font; reportlab's registry is process-wide


@dataclass
class FontSet:
    """The fonts of one workspace, loaded on first use and named by file stem
    ('CharisSIL-Regular')."""

    folder: Path
    fonts: dict[str, TTFont] = field(default_factory=dict)
    # the game's own fallback chain (game.yaml `fonts: fallback:`), tried after a family's own
    fallback: tuple[str, ...] = ()
    _runs: dict[tuple, list[tuple[str, str]]] = field(default_factory=dict, repr=False)
    _styled: dict[tuple[str, int], str] = field(default_factory=dict, repr=False)
    _fallback: bool | None = field(default=None, repr=False)

    @property
    def fallback_ok(self) -> bool:
        if self._fallback is None:
            self._fallback = self._path(FALLBACK).is_file()
        return self._fallback

    def _path(self, stem: str) -> Path:
        """The workspace's own font first, else the one bundled with cardgen."""
        own = self.folder / f"{stem}.ttf"
        return (
            own
            if own.is_file() or not (BUNDLED / f"{stem}.ttf").is_file()
            else BUNDLED / f"{stem}.ttf"
        )

    def file(self, stem: str) -> Path:
        """Where a stem's font file is (the workspace's own, else the bundled one)."""
        return self._path(stem)

    def files(self) -> dict[str, Path]:
        """Every font this set can use, by stem: the bundled ones, replaced by the workspace's
        own."""
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
            # reportlab keeps one font object per face name: a second file with the same face name
            # (another workspace's copy) is registered as the first one. Use what the canvas will
            # use.
            font = pdfmetrics.getFont(font.fontName)
            _REGISTERED[key] = font
        self.fonts[stem] = font
        return font

    def _pdf_name(self, stem: str) -> str:
        # two workspaces may bundle different files under one stem; keep their PDF names apart
        taken = {f.fontName for (folder, _), f in _REGISTERED.items() if folder != str(self.folder)}
        return (
            stem
            if stem not in taken
            else f"{stem}-{hashlib.sha1(str(self.folder).encode()).hexdigest()[:6]}"
        )

    def name(self, stem: str) -> str:
        """The registered reportlab font name for a stem."""
        return self.get(stem).fontName

    def has_glyph(self, stem: str, char: str) -> bool:
        return ord(char) in self.get(stem).face.charToGlyph

    def styled(self, stem: str, style: int) -> str:
        """A fallback font in a style (richtext's 0-3): the file named like it with -Bold, -Italic
        or -BoldItalic for its -Regular (NotoSansJP-Regular -> NotoSansJP-Bold) when there is one,
        else the font itself."""
        if not style:
            return stem
        found = self._styled.get((stem, style))
        if found is None:
            base = stem[: -len("-Regular")] if stem.endswith("-Regular") else stem
            found = base + STYLES[style] if self.exists(base + STYLES[style]) else stem
            self._styled[stem, style] = found
        return found

    def chain(self, stem: str, fallback: tuple[str, ...] = (), style: int = 0) -> tuple[str, ...]:
        """The fonts a character is looked for in, in order: the family's own, its fallbacks (in
        the style, when they have it), then DejaVu Sans."""
        fonts = [stem, *(self.styled(f, style) for f in fallback)]
        if self.fallback_ok:
            fonts.append(FALLBACK)
        return tuple(dict.fromkeys(fonts))

    def split_runs(
        self, stem: str, text: str, fallback: tuple[str, ...] = (), style: int = 0
    ) -> list[tuple[str, str]]:
        """Split text into (font stem, text) runs: each character in the first font of the chain
        that has it (one no font has: in DejaVu Sans, which prints its missing-glyph box)."""
        key = (stem, text, fallback, style) if fallback else (stem, text)
        cached = self._runs.get(key)
        if cached is not None:
            return cached
        cmap = self.get(stem).face.charToGlyph
        if all(ord(ch) in cmap for ch in text):  # the usual case: the font draws every character
            self._runs[key] = [(stem, text)]
            return self._runs[key]
        runs: list[tuple[str, str]] = []
        others = [(s, self.get(s).face.charToGlyph) for s in self.chain(stem, fallback, style)[1:]]
        last = FALLBACK if self.fallback_ok else stem
        for ch in text:
            use = (
                stem
                if ord(ch) in cmap or ch in "\n\t"
                else next((s for s, m in others if ord(ch) in m), last)
            )
            if runs and runs[-1][0] == use:
                runs[-1] = (use, runs[-1][1] + ch)
            else:
                runs.append((use, ch))
        self._runs[key] = runs
        return runs

    def missing(
        self, stem: str, text: str, fallback: tuple[str, ...] = (), style: int = 0
    ) -> set[str]:
        """Characters no font of the chain can draw."""
        chain = self.chain(stem, fallback, style)
        out = set()
        for ch in set(text):
            if ch.isspace() or any(self.has_glyph(s, ch) for s in chain):
                continue
            out.add(ch)
        return out

    def width(self, stem: str, text: str, size: float) -> float:
        return pdfmetrics.stringWidth(text, self.name(stem), size)

    def cap_height(self, stem: str, size: float) -> float:
        face = self.get(stem).face
        return (getattr(face, "capHeight", 0) or face.ascent * 0.7) * size / 1000.0


def truetype_problem(path: Path) -> str | None:
    """Why a font file cannot be drawn with (reportlab reads TrueType outlines only), or None."""
    try:
        with path.open("rb") as file:
            head = file.read(4)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if head in (b"\x00\x01\x00\x00", b"true"):
        return None
    if head == b"OTTO":
        return (
            "has CFF (PostScript) outlines, which cardgen cannot draw with: use a TrueType build "
            "of the font"
        )
    return "is a font collection, not one font" if head == b"ttcf" else "is no TrueType font"


def chain_problem(fonts: FontSet, stem: str, shown_folder: str) -> tuple[str, str | None] | None:
    """Why a fallback font cannot join a chain (no such file, or not TrueType) and a hint, or
    None."""
    folder = shown_folder.rstrip("/")
    if not fonts.exists(stem):
        other = next(
            (p.name for p in sorted(fonts.folder.glob(f"{glob.escape(stem)}.*")) if p.is_file()),
            None,
        )
        known, source = list(fonts.files()), named(stem)
        if other:
            hint: str | None = f"{folder}/{other} is there, but cardgen reads TrueType .ttf only"
        elif source is not None:
            hint = f"copy {source.add()} into {folder}/"
        else:
            hint = did_you_mean(stem, known) or f"font files: {', '.join(known[:16])}"
        return f"'{stem[:80]}', which is no font file in {folder}/ or among cardgen's own", hint
    problem = truetype_problem(fonts.file(stem))
    return (f"{fonts.file(stem).name}, which {problem}", None) if problem else None


def game_fallback(model: GameModel, fonts: FontSet, shown_folder: str) -> list[Finding]:
    """The game's own fallback chain (game.yaml `fonts: fallback:`) set on the font set, each font
    that cannot join it (no such file, not TrueType) an error where game.yaml names it."""
    written = model.fonts.get("fallback") or []
    chain: list[str] = []
    findings = []
    for i, stem in enumerate(written):
        problem = (
            chain_problem(fonts, str(stem), shown_folder)
            if STEM.match(str(stem))
            else (
                f"{str(stem)[:80]!r}, which is no font file name (letters, digits, '.', '_', "
                "'+' and '-', without .ttf)",
                None,
            )
        )
        if problem is None:
            chain.append(str(stem))
            continue
        line, column = (
            written.item_loc(i)
            if isinstance(written, LocList)
            else model.section_locs.get("fonts", (1, 1))
        )
        message = f"the game's fallback fonts name {problem[0]}: the chain goes on without it"
        findings.append(
            Finding(
                model.file,
                line,
                column,
                Severity.ERROR,
                "model-font",
                None,
                message,
                problem[1],
                about="fonts",
            )
        )
    fonts.fallback = tuple(dict.fromkeys(chain))
    return findings


def stand_in_fonts(faces: FaceSet, fonts: FontSet, shown_folder: str) -> list[Finding]:
    """Every font file a template names that is neither in fonts/ nor bundled: an error where the
    template names it (with a did-you-mean over the font files), and the family drawn with a
    stand-in (its regular file when that one exists, else DejaVu Sans), so every face still
    prints; a fallback font that is missing or not TrueType, an error where it is named, and the
    chain goes on without it. The face set's templates are replaced by copies that use the
    stand-ins."""
    known = list(fonts.files())
    findings: dict[Finding, None] = {}
    copies: dict[int, Template] = {}
    for template in faces.templates.values():
        used: dict[str, dict[str, str]] = {}
        for family, spec in template.fonts.items():
            regular = spec["regular"]
            used[family] = dict(spec)
            for variant, stem in spec.items():
                if fonts.exists(stem):
                    continue
                use = regular if stem != regular and fonts.exists(regular) else FALLBACK
                used[family][variant] = use
                at = template.font_at.get(family, {}).get(variant, (template.file, 0, 0))
                message = (
                    f"font family '{family}' names '{stem[:80]}', which is no font file in "
                    f"{shown_folder.rstrip('/')}/ or among cardgen's own: {use} stands in for it"
                )
                hint = did_you_mean(stem, known) or f"font files: {', '.join(known[:16])}"
                finding = Finding(*at, Severity.ERROR, "template-font", None, message, hint)
                findings[replace(finding, about=at[0])] = None
        chains, chains_at = {}, {}
        for family, chain in template.fallbacks.items():
            kept = []
            for stem, at in zip(chain, template.fallback_at[family]):
                problem = chain_problem(fonts, stem, shown_folder)
                if problem is None:
                    kept.append((stem, at))
                    continue
                message = (
                    f"font family '{family}' names as a fallback {problem[0]}: the chain goes on "
                    "without it"
                )
                finding = Finding(*at, Severity.ERROR, "template-font", None, message, problem[1])
                findings[replace(finding, about=at[0])] = None
            if kept:
                chains[family] = tuple(stem for stem, _ in kept)
                chains_at[family] = tuple(at for _, at in kept)
        if used != template.fonts or chains != template.fallbacks:
            copies[id(template)] = replace(
                template, fonts=used, fallbacks=chains, fallback_at=chains_at
            )
    if copies:
        faces.templates = {n: copies.get(id(t), t) for n, t in faces.templates.items()}
        for rule in faces.rules:
            rule.front = copies.get(id(rule.front), rule.front)
            if rule.back is not None:
                rule.back = copies.get(id(rule.back), rule.back)
    return list(findings)


_FONT_DIGESTS: Memo[str] = Memo(1024)


def font_digest(path: Path) -> str:
    """A font file's content digest, read once per process for each (path, size, time) it is seen
    with."""
    return _FONT_DIGESTS.get(
        file_stamp(path), lambda: hashlib.sha1(path.read_bytes()).hexdigest()[:16]
    )

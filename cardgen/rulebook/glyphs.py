"""Turn the rulebook's style and chapters into glyph findings: each chapter line holding a character
that no font of the book's font stacks (nor of its fallback chain) has, and the style's font stacks
with that chain added."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from ..core.errors import Finding, Severity
from ..core.workspace import Workspace
from ..project.studio import Studio
from ..render.fonts import FALLBACK
from ..render.glyphadvice import Chains, advice, shown
from .source import Chapter

BUNDLED_STYLE = Path(__file__).resolve().parents[1] / "data" / "templates" / "rulebook" / "book.css"
FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}", re.I)
DECLARATION = re.compile(r"(?<![-\w])(font-family|font)(\s*:\s*)([^;{}]+)", re.I)
QUOTED = re.compile(r"""["']([^"']+)["']""")
GENERIC = re.compile(
    r"\s*,\s*(serif|sans-serif|monospace|cursive|fantasy|system-ui|math|emoji|fangsong"
    r"|ui-serif|ui-sans-serif|ui-monospace|ui-rounded)\s*(!important\s*)?$",
    re.I,
)
IMPORTANT = re.compile(r"\s*!important\s*$", re.I)
WIDE = ("inherit", "initial", "unset", "revert", "revert-layer")
KEYWORDS = (*WIDE, "serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "math")
LINES = 5  # lines with such characters reported per chapter; the last one counts the rest
INVISIBLE = ("Cc", "Cf", "Zs", "Zl", "Zp")  # controls, joiners, spaces: nothing to draw


def style_sheet(ws: Workspace, game: str) -> str:
    """The book's style sheet as the book uses it: the game's own, else the shared one, else
    cardgen's."""
    for path in (
        ws.templates_dir(game) / "rulebook" / "book.css",
        ws.root / "templates" / "_shared" / "rulebook" / "book.css",
        BUNDLED_STYLE,
    ):
        if path.is_file():
            try:
                return path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
    return ""


def book_fallback(studio: Studio) -> tuple[str, ...]:
    """The book's fallback chain: the game's own (game.yaml `fonts: fallback:`), then every template
    family's, each font once."""
    chain = list(studio.fonts.fallback)
    for template in studio.faces.templates.values():
        for fonts in template.fallbacks.values():
            chain += fonts
    return tuple(dict.fromkeys(chain))


def _declarations(css: str) -> list[re.Match[str]]:
    """The font and font-family declarations of a style sheet, outside @font-face rules."""
    faces = [m.span() for m in FONT_FACE.finditer(css)]
    return [
        m
        for m in DECLARATION.finditer(css)
        if not any(start <= m.start() < end for start, end in faces)
    ]


def named_fonts(css: str) -> list[str]:
    """Every family name the style's font stacks name (quoted, or bare in a font-family list)."""
    names: list[str] = []
    for m in _declarations(css):
        names += QUOTED.findall(m.group(3))
        if m.group(1).lower() == "font-family":
            bare = [n.strip() for n in IMPORTANT.sub("", m.group(3)).split(",")]
            names += [n for n in bare if n and n[0] not in "'\"" and n.lower() not in KEYWORDS]
    return list(dict.fromkeys(names))


def with_fallbacks(css: str, chain: tuple[str, ...]) -> str:
    """The style sheet with the fallback chain, then DejaVu Sans, added to each font stack (before
    a generic family such as `serif`, which would otherwise answer first); unchanged without one."""
    if not chain:
        return css
    added = ", ".join(f'"{stem}"' for stem in dict.fromkeys((*chain, FALLBACK)))
    out, at = [], 0
    for m in _declarations(css):
        value = m.group(3).rstrip()
        shorthand = m.group(1).lower() == "font"
        if value.lower() in WIDE or (shorthand and not re.search(r"\d", value)):
            continue  # a keyword, or a system font (`font: caption`): no stack to add to
        end = GENERIC.search(value) or IMPORTANT.search(value)
        cut = end.start() if end else len(value)
        out += [css[at : m.start(3)], value[:cut], ", ", added, value[cut:]]
        at = m.start(3) + len(value)
    return "".join(out) + css[at:]


def glyph_findings(studio: Studio, chapters: list[Chapter], css: str) -> list[Finding]:
    """Each chapter line holding characters that no font of the book has (the fonts its style
    names, its fallback chain, then DejaVu Sans when there is a chain): an error at the first such
    character, which the book would print as a missing-glyph box."""
    files = studio.fonts.files()
    chain = book_fallback(studio)
    tried = tuple(
        dict.fromkeys(
            [n for n in named_fonts(css) if n in files] + [*chain, *((FALLBACK,) if chain else ())]
        )
    )
    known: dict[str, bool] = {}

    def drawable(char: str) -> bool:
        if char not in known:
            known[char] = (
                unicodedata.category(char) in INVISIBLE
                or 0xFE00 <= ord(char) <= 0xFE0F  # variation selectors (emoji presentation)
                or any(studio.fonts.has_glyph(stem, char) for stem in tried)
            )
        return known[char]

    findings: list[Finding] = []
    for chapter in chapters:
        if all(drawable(c) for c in set(chapter.body)):
            continue
        lines = [
            (n, line)
            for n, line in enumerate(chapter.body.splitlines())
            if not all(drawable(c) for c in line)
        ]
        for k, (n, line) in enumerate(lines[:LINES]):
            chars = list(dict.fromkeys(c for c in line if not drawable(c)))
            more = len(lines) - LINES if k == LINES - 1 and len(lines) > LINES else 0
            column = next(i for i, c in enumerate(line, 1) if not drawable(c))
            findings.append(
                Finding(
                    chapter.file,
                    chapter.first_line + n,
                    column,
                    Severity.ERROR,
                    "missing-glyph",
                    None,
                    f"no font of the book has {shown(chars[:8])}"
                    + (f" and {len(chars) - 8} more" if len(chars) > 8 else "")
                    + f": tried {', '.join(tried) or 'none'}; it would print as a box"
                    + (f" (and so would {more} more lines of this chapter)" if more else ""),
                    advice(chars, Chains(studio.model.file, studio.fonts.fallback)),
                )
            )
    return findings

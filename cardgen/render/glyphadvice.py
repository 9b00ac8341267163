"""Turn characters no font of a chain can draw into advice: each character with its code point, a
TrueType font file that has it (by script) and the exact `fallback:` line that names that file."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

# the scripts Debian's fonts-noto-core has a NotoSans<Script>-Regular.ttf for (TrueType outlines),
# as Unicode names their letters ('TAMIL LETTER A' -> Tamil)
NOTO_SCRIPTS = frozenset(
    """Adlam Arabic Armenian Avestan Balinese Bamum BassaVah Batak Bengali Bhaiksuki Brahmi
    Buginese Buhid Carian CaucasianAlbanian Chakma Cham Cherokee Coptic Cuneiform Cypriot Deseret
    Devanagari Duployan EgyptianHieroglyphs Elbasan Elymaic Ethiopic Georgian Glagolitic Gothic
    Grantha Gujarati GunjalaGondi Gurmukhi HanifiRohingya Hanunoo Hatran Hebrew ImperialAramaic
    InscriptionalPahlavi InscriptionalParthian Javanese Kaithi Kannada KayahLi Kharoshthi Khmer
    Khojki Khudawadi Lao Lepcha Limbu LinearA LinearB Lisu Lycian Lydian Mahajani Malayalam Mandaic
    Manichaean Marchen MasaramGondi Medefaidrin MeeteiMayek MendeKikakui Meroitic Miao Modi
    Mongolian Mro Multani Myanmar Nabataean NewTaiLue Newa Nushu Ogham OlChiki OldHungarian
    OldItalic OldNorthArabian OldPermic OldPersian OldSogdian OldSouthArabian OldTurkic Oriya Osage
    Osmanya PahawhHmong Palmyrene PauCinHau PhagsPa Phoenician PsalterPahlavi Rejang Runic Samaritan
    Saurashtra Sharada Shavian Siddham SignWriting Sinhala Sogdian SoraSompeng Soyombo Sundanese
    SylotiNagri Syriac Tagalog Tagbanwa TaiLe TaiTham TaiViet Takri Tamil Telugu Thaana Thai
    Tifinagh Tirhuta Ugaritic Vai Wancho WarangCiti Yi ZanabazarSquare""".split()
)
HANGUL = ((0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F), (0xAC00, 0xD7FF))
CJK = (
    (0x2E80, 0x2FDF),  # radicals
    (0x3000, 0x30FF),  # CJK punctuation, hiragana, katakana
    (0x3100, 0x312F),  # bopomofo
    (0x31F0, 0x4DBF),  # katakana extensions, enclosed CJK, extension A
    (0x4E00, 0x9FFF),  # unified ideographs
    (0xF900, 0xFAFF),  # compatibility ideographs
    (0xFE30, 0xFE4F),  # compatibility forms
    (0xFF00, 0xFFEF),  # half- and full-width forms
)
SYMBOLS = ((0x2000, 0x2BFF), (0x1F000, 0x1FAFF))  # punctuation, arrows, dingbats, emoji


@dataclass(frozen=True)
class Source:
    """A TrueType font file to add to fonts/: its stem (what `fallback:` names) and where to get
    it."""

    stem: str
    where: str

    def add(self) -> str:
        return f"{self.stem}.ttf ({self.where})"


DROID = Source(
    "DroidSansFallbackFull",
    "Chinese and Japanese: Debian's fonts-droid-fallback, /usr/share/fonts/truetype/droid/",
)
NANUM = Source("NanumGothic", "Korean: Debian's fonts-nanum, /usr/share/fonts/truetype/nanum/")
NOTO = Source(
    "NotoSans-Regular",
    "Latin, Greek and Cyrillic: Debian's fonts-noto-core, /usr/share/fonts/truetype/noto/",
)
SYMBOLA = Source(
    "Symbola_hint",
    "symbols and emoji: Debian's fonts-symbola, /usr/share/fonts/truetype/ancient-scripts/",
)


def _within(code: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= code <= high for low, high in ranges)


def source_for(char: str) -> Source | None:
    """A freely licensed TrueType font that has the character, by its script; None when cardgen
    knows none."""
    code = ord(char)
    if _within(code, HANGUL):
        return NANUM
    if _within(code, CJK):
        return DROID
    if _within(code, SYMBOLS) or unicodedata.category(char) in ("So", "Sm"):
        return SYMBOLA
    if unicodedata.name(char, "").split(" ")[0] in ("LATIN", "GREEK", "CYRILLIC"):
        return NOTO
    words = [w.capitalize() for w in unicodedata.name(char, "").replace("-", " ").split()]
    for n in range(min(3, len(words)), 0, -1):  # 'OLD ITALIC LETTER A' -> OldItalic
        script = "".join(words[:n])
        if script in NOTO_SCRIPTS:
            return Source(
                f"NotoSans{script}-Regular",
                f"{script}: Debian's fonts-noto-core, /usr/share/fonts/truetype/noto/",
            )
    return None


def named(stem: str) -> Source | None:
    """The font cardgen suggests that a stem names (DroidSansFallbackFull, NotoSansTamil-Regular),
    or None: a chain naming it before it is in fonts/ is told where to get it."""
    for source in (DROID, NANUM, SYMBOLA, NOTO):
        if stem == source.stem:
            return source
    script = stem.removeprefix("NotoSans").removesuffix("-Regular")
    if stem == f"NotoSans{script}-Regular" and script in NOTO_SCRIPTS:
        return Source(stem, f"{script}: Debian's fonts-noto-core, /usr/share/fonts/truetype/noto/")
    return None


def shown(chars: list[str]) -> str:
    """Characters as a designer can find them: 'カ' (U+30AB), '🎲' (U+1F3B2)."""
    return ", ".join(f"'{c}' (U+{ord(c):04X})" for c in chars)


def fallback_line(chain: tuple[str, ...], chars: list[str]) -> tuple[str, list[str]]:
    """The `fallback:` line that adds a font for each character to a chain, and what to copy into
    fonts/; a character no known font has asks for any TrueType font that has it."""
    sources = list(dict.fromkeys(s for s in map(source_for, chars) if s is not None))
    unknown = [c for c in chars if source_for(c) is None]
    stems = [*chain, *(s.stem for s in sources if s.stem not in chain)]
    adds = [s.add() for s in sources]
    if unknown:
        stems.append("YourFont")
        adds.append(f"YourFont.ttf (any TrueType font, not a CFF .otf, that has {shown(unknown)})")
    return f"fallback: [{', '.join(stems)}]", adds


@dataclass(frozen=True)
class Chains:
    """Where a fallback line can go: a template family's own chain (its name and where it is
    declared, file:line) and the game's (`fonts:` in game.yaml, for every family and the book)."""

    game_file: str
    game: tuple[str, ...] = ()
    family: str | None = None
    declared: str | None = None
    own: tuple[str, ...] = ()


def advice(chars: list[str], chains: Chains) -> str:
    """What to do about characters no font of a chain has: the files to copy into fonts/, and the
    exact line to write under the family, or under `fonts:` in game.yaml."""
    game_line, adds = fallback_line(chains.game, chars)
    copy = f"copy {' and '.join(adds)} into fonts/"
    if chains.family is not None and chains.declared is not None:
        own_line = fallback_line(chains.own, chars)[0]
        return (
            f"{copy}, and write '{own_line}' in the font family '{chains.family}' "
            f"({chains.declared}); or, for every family and the rulebook, '{game_line}' under "
            f"'fonts:' in {chains.game_file}"
        )
    return f"{copy}, and write '{game_line}' under 'fonts:' in {chains.game_file}"

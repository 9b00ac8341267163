"""Fonts with a fallback chain: a CJK or emoji glyph prints from a fallback font, glyph by glyph,
the rest in the designer's font; line breaking measures the fallback's widths; a character no font
of the chain has is a finding saying exactly what to add; without fallbacks nothing changes."""

from __future__ import annotations

import io
import shutil

from pypdf import PdfReader

from cardgen.core.errors import Severity
from cardgen.core.workspace import Workspace
from cardgen.printrun.printing import SheetOptions, choose_cards, sheet_bytes
from cardgen.project.studio import Studio, open_studio
from cardgen.render import richtext as rt
from cardgen.render.fonts import FontSet
from cardgen.render.paint import draw_face

from ..conftest import TESTS

FONTS = TESTS / "fixtures" / "fonts"
CHARIS = ("CharisSIL-Regular", "CharisSIL-Bold", "CharisSIL-Italic", "CharisSIL-BoldItalic")
TITLE = "  title: {regular: Vollkorn-Bold}"
GAME = "rules/clean/game.yaml"


def _edit(ws: Workspace, path: str, old: str, new: str) -> None:
    file = ws.root / path
    text = file.read_text(encoding="utf-8")
    assert old in text, (path, old)
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def _game(ws: Workspace, name: str, chain: str | None = "[TinyFallback]") -> None:
    """The clean game with TinyFallback in fonts/, the title family falling back on `chain`, and
    Tide Caller renamed."""
    (ws.root / "fonts").mkdir(exist_ok=True)
    shutil.copy(FONTS / "TinyFallback.ttf", ws.root / "fonts")
    if chain is not None:
        _edit(ws, "templates/clean/front.yaml", TITLE, TITLE[:-1] + f", fallback: {chain}}}")
    _edit(ws, "cards/clean/cards.yaml", "- name: Tide Caller\n", f"- name: {name}\n")


def _runs(studio: Studio, card_id: str = "tide-caller") -> list[tuple[str, str]]:
    """(font stem, text) of every text run the card's front draws, from its recording."""
    card = next(c for c in studio.designs() if c.id == card_id)
    face = studio.prepare(card)[0]
    recording = studio.renderer.recordings.get(
        face.key, lambda c: draw_face(c, face, studio.fonts, studio.model)
    )
    return [
        (run[0], run[3])
        for part in recording
        if isinstance(part, tuple) and part[0] == "T"
        for run in part[1]
    ]


def test_cjk_and_a_star_print_from_the_fallback_the_rest_in_the_designers_font(
    scratch_ws: Workspace,
) -> None:
    _game(scratch_ws, "Tide Caller 漢字★🎲")
    studio = open_studio(scratch_ws, "clean")
    assert not [f for f in studio.face_findings() if f.severity is Severity.ERROR]
    runs = _runs(studio)
    assert ("Vollkorn-Bold", "Tide Caller") in runs
    assert ("TinyFallback", "漢字★🎲") in runs  # ★ too: the chain's font comes before DejaVu Sans
    # the printed sheet: each run in its font, as a reader of the PDF sees it (🎲 too: past U+FFFF)
    options = SheetOptions(copies="one")
    pdf = sheet_bytes(studio, options, choose_cards(studio, options)[0]).pdf
    seen: list[tuple[str, str]] = []

    def visit(text: str, cm: object, tm: object, font: dict | None, size: float) -> None:
        if font is not None and text.strip():
            seen.append((str(font["/BaseFont"]).split("+")[-1], text.strip()))

    PdfReader(io.BytesIO(pdf)).pages[0].extract_text(visitor_text=visit)
    assert ("Vollkorn-Bold", "Tide Caller") in seen
    assert ("TinyFallback", "漢字★🎲") in seen


def test_chain_order_decides_and_an_emoji_only_the_fallback_has_prints(
    scratch_ws: Workspace,
) -> None:
    _game(scratch_ws, "Dice 🎲★竜", "[DejaVuSans, TinyFallback]")
    runs = _runs(open_studio(scratch_ws, "clean"), "dice")
    # ★: DejaVu Sans comes first in this chain; 🎲 and 竜: only TinyFallback has them
    assert runs[:3] == [("Vollkorn-Bold", "Dice"), ("TinyFallback", "🎲"), ("DejaVuSans", "★")]
    assert ("TinyFallback", "竜") in runs


def test_the_games_own_chain_serves_every_family(scratch_ws: Workspace) -> None:
    _game(scratch_ws, "Tide Caller 漢字", chain=None)
    _edit(scratch_ws, GAME, "card:\n", "fonts:\n  fallback: TinyFallback\ncard:\n")
    _edit(scratch_ws, "cards/clean/cards.yaml", "  power: 1\n", "  power: 1\n  text: 日本語\n")
    studio = open_studio(scratch_ws, "clean")
    assert studio.fonts.fallback == ("TinyFallback",)
    runs = _runs(studio)
    assert ("TinyFallback", "漢字") in runs  # the title family
    assert ("TinyFallback", "日本語") in runs  # the body family


def test_bold_and_italic_use_a_fallbacks_variant_when_it_has_one() -> None:
    fonts = FontSet(FONTS)
    assert fonts.styled("DejaVuSans", rt.BOLD) == "DejaVuSans-Bold"
    assert fonts.styled("DejaVuSans", rt.ITALIC) == "DejaVuSans"  # no DejaVuSans-Italic.ttf
    assert fonts.styled("TinyFallback", rt.BOLD | rt.ITALIC) == "TinyFallback"
    assert fonts.styled("CharisSIL-Regular", rt.BOLD) == "CharisSIL-Bold"  # -Regular -> -Bold
    runs = fonts.split_runs("CharisSIL-Bold", "Tap ★竜", ("DejaVuSans", "TinyFallback"), rt.BOLD)
    assert runs == [
        ("CharisSIL-Bold", "Tap "),
        ("DejaVuSans-Bold", "★"),
        ("TinyFallback", "竜"),
    ]


def test_line_breaking_measures_with_the_fallbacks_widths() -> None:
    fonts = FontSet(FONTS)
    family = rt.Family(*CHARIS, fallback=("TinyFallback",))
    m, bare = rt.Measurer(fonts, family), rt.Measurer(fonts, rt.Family(*CHARIS))
    word = rt.Atom("漢字日本語", 0)
    assert m.atom(word, 10) == fonts.width("TinyFallback", "漢字日本語", 10) == 50.0  # 1 em each
    assert bare.atom(word, 10) != m.atom(word, 10)  # without: DejaVu Sans's missing-glyph boxes
    blocks = [rt.parse("竜 漢字日本語 カード", rt.RichRules())]
    first = m.word(blocks[0][0][0], 10) + m.space(10) + m.word(blocks[0][0][1], 10)
    assert first == 10 + m.space(10) + 50

    def broken(measurer: rt.Measurer) -> list[list[str]]:
        lines = rt.layout(blocks, measurer, 10, 1.2, first + 0.5).lines
        return [["".join(a.text for a in w) for w in line.words] for line in lines]

    assert broken(m) == [["竜", "漢字日本語"], ["カード"]]
    assert broken(bare) == [["竜", "漢字日本語", "カード"]]  # narrower boxes: it would fit


def test_a_character_no_font_has_is_located_and_says_exactly_what_to_add(
    scratch_ws: Workspace,
) -> None:
    _game(scratch_ws, "Tide Caller 한🐉")
    studio = open_studio(scratch_ws, "clean")
    found = [f for f in studio.face_findings() if f.code == "missing-glyph"]
    assert len(found) == 1
    f = found[0]
    assert (f.file, f.line, f.column, f.card) == ("cards/clean/cards.yaml", 18, 3, "tide-caller")
    assert f.message == (
        "no font of the family 'title' has '한' (U+D55C), '🐉' (U+1F409) in 'name': tried "
        "Vollkorn-Bold, TinyFallback, DejaVuSans"
    )
    assert f.hint == (
        "copy NanumGothic.ttf (Korean: Debian's fonts-nanum, /usr/share/fonts/truetype/nanum/) "
        "and Symbola_hint.ttf (symbols and emoji: Debian's fonts-symbola, "
        "/usr/share/fonts/truetype/ancient-scripts/) into fonts/, and write "
        "'fallback: [TinyFallback, NanumGothic, Symbola_hint]' in the font family 'title' "
        "(templates/clean/front.yaml:4); or, for every family and the rulebook, "
        "'fallback: [NanumGothic, Symbola_hint]' under 'fonts:' in rules/clean/game.yaml"
    )


def test_without_a_fallback_the_advice_names_the_cjk_font(scratch_ws: Workspace) -> None:
    _game(scratch_ws, "Tide Caller 漢字", chain=None)
    found = [
        f for f in open_studio(scratch_ws, "clean").face_findings() if f.code == "missing-glyph"
    ]
    assert [f.message for f in found] == [
        "no font of the family 'title' has '漢' (U+6F22), '字' (U+5B57) in 'name': tried "
        "Vollkorn-Bold, DejaVuSans"
    ]
    assert "'fallback: [DroidSansFallbackFull]' in the font family 'title'" in str(found[0].hint)
    assert "Debian's fonts-droid-fallback, /usr/share/fonts/truetype/droid/" in str(found[0].hint)


def test_a_fallback_that_is_missing_or_not_truetype_is_located(scratch_ws: Workspace) -> None:
    _game(scratch_ws, "Tide Caller", "[TinyFallbak, Outlines, Shape]")
    (scratch_ws.root / "fonts" / "Outlines.ttf").write_bytes(b"OTTO" + bytes(60))
    (scratch_ws.root / "fonts" / "Shape.otf").write_bytes(b"OTTO" + bytes(60))
    _edit(scratch_ws, GAME, "card:\n", "fonts:\n  fallback: [TinyFalback]\ncard:\n")
    studio = open_studio(scratch_ws, "clean")
    found = sorted(
        (f.file, f.line, f.column, f.code, f.message, f.hint)
        for f in studio.template_findings
        if f.code in ("template-font", "model-font")
    )
    assert found == [
        (
            "rules/clean/game.yaml",
            6,
            14,
            "model-font",
            "the game's fallback fonts name 'TinyFalback', which is no font file in fonts/ or "
            "among cardgen's own: the chain goes on without it",
            "did you mean 'TinyFallback'?",
        ),
        (
            "templates/clean/front.yaml",
            4,
            46,
            "template-font",
            "font family 'title' names as a fallback 'TinyFallbak', which is no font file in "
            "fonts/ or among cardgen's own: the chain goes on without it",
            "did you mean 'TinyFallback'?",
        ),
        (
            "templates/clean/front.yaml",
            4,
            59,
            "template-font",
            "font family 'title' names as a fallback Outlines.ttf, which has CFF (PostScript) "
            "outlines, which cardgen cannot draw with: use a TrueType build of the font: the "
            "chain goes on without it",
            None,
        ),
        (
            "templates/clean/front.yaml",
            4,
            69,
            "template-font",
            "font family 'title' names as a fallback 'Shape', which is no font file in fonts/ or "
            "among cardgen's own: the chain goes on without it",
            "fonts/Shape.otf is there, but cardgen reads TrueType .ttf only",
        ),
    ]
    assert studio.fonts.fallback == ()
    assert studio.faces.templates["front.yaml"].fallbacks == {}  # the faces still print


def test_a_fallback_that_is_not_a_list_of_names_is_a_finding(scratch_ws: Workspace) -> None:
    _game(scratch_ws, "Tide Caller", "{a: 1}")
    studio = open_studio(scratch_ws, "clean")
    found = [f for f in studio.template_findings if f.code == "template-font"]
    assert [(f.line, f.message.split(":")[0]) for f in found] == [(4, "font family 'title'")]
    assert "'fallback' must be a list of font file names without .ttf" in found[0].message


def test_without_fallbacks_nothing_changes(scratch_ws: Workspace) -> None:
    fonts = FontSet(FONTS)
    # the chain without fallbacks is the one cardgen always had: the font, then DejaVu Sans
    assert fonts.split_runs("Vollkorn-Bold", "Storm ★ ☠") == [
        ("Vollkorn-Bold", "Storm "),
        ("DejaVuSans", "★"),
        ("Vollkorn-Bold", " "),
        ("DejaVuSans", "☠"),
    ]
    plain = open_studio(scratch_ws, "clean")
    before = (_runs(plain), plain.renderer.fonts_print(plain.faces.templates["front.yaml"]))
    assert "fallback" not in before[1]
    _game(scratch_ws, "Tide Caller")  # a fallback no character needs draws the same runs
    after = open_studio(scratch_ws, "clean")
    assert _runs(after) == before[0]
    assert after.renderer.fonts_print(after.faces.templates["front.yaml"]).startswith(before[1])


def test_a_line_only_a_fallback_can_draw_is_drawn_in_it(scratch_ws: Workspace) -> None:
    _game(scratch_ws, "Tide Caller", chain=None)
    _edit(scratch_ws, "cards/clean/cards.yaml", "  power: 1\n", "  power: 1\n  text: ★☠\n")
    runs = _runs(open_studio(scratch_ws, "clean"))
    assert ("DejaVuSans", "★☠") in runs  # before: in Charis SIL, as two missing-glyph boxes


def test_the_games_chain_names_fonts_only_inside_fonts(scratch_ws: Workspace) -> None:
    outside = "../../../../usr/share/fonts/truetype/dejavu/DejaVuSerif"
    _edit(scratch_ws, GAME, "card:\n", f"fonts:\n  fallback: ['{outside}']\ncard:\n")
    studio = open_studio(scratch_ws, "clean")
    assert studio.fonts.fallback == ()
    assert [(f.code, f.line) for f in studio.template_findings] == [("model-font", 6)]
    assert "which is no font file name" in studio.template_findings[0].message


def test_a_suggested_font_not_yet_copied_says_where_to_get_it(scratch_ws: Workspace) -> None:
    _game(scratch_ws, "Tide Caller", "[DroidSansFallbackFull, NotoSansTamil-Regular]")
    hints = [f.hint for f in open_studio(scratch_ws, "clean").template_findings]
    assert hints == [
        "copy DroidSansFallbackFull.ttf (Chinese and Japanese: Debian's fonts-droid-fallback, "
        "/usr/share/fonts/truetype/droid/) into fonts/",
        "copy NotoSansTamil-Regular.ttf (Tamil: Debian's fonts-noto-core, "
        "/usr/share/fonts/truetype/noto/) into fonts/",
    ]

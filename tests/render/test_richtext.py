"""Rich text: icons wherever they stand, automatic keyword bold, italic reminders, fitting by
shrinking."""

from __future__ import annotations

from cardgen.render import richtext as rt
from cardgen.render.fonts import BUNDLED, FontSet

RULES = rt.RichRules(("B", "C", "L"), True, ("Activate", "Trick Activate", "Shield"))
FAMILY = rt.Family(
    "CharisSIL-Regular", "CharisSIL-Bold", "CharisSIL-Italic", "CharisSIL-BoldItalic"
)


def show(text: str, rules: rt.RichRules = RULES) -> list[list[str]]:
    def atom(a: rt.Atom) -> str:
        return (
            f"<{a.text}>"
            if a.icon
            else a.text + ("*" if a.style & rt.BOLD else "") + ("/" if a.style & rt.ITALIC else "")
        )

    return [["".join(atom(a) for a in word) for word in p] for p in rt.parse(text, rules)]


def test_icons_alone_first_last_and_mid_sentence() -> None:
    assert show("[B]") == [["<B>"]]
    assert show("{C} first") == [["<C>", "first"]]
    assert show("pay [L].") == [["pay", "<L>."]]
    assert show("Gain LLL, then B/C.") == [["Gain", "<L><L><L>,", "then", "<B>/<C>."]]


def test_lower_case_bracket_still_draws_the_symbol_and_unknown_letters_stay_text() -> None:
    assert show("[c][c]: negate") == [["<C><C>:", "negate"]]
    assert show("[q] and Q") == [["[q]", "and", "Q"]]


def test_bare_letters_only_when_the_model_says_so() -> None:
    assert show("Gain LL", rt.RichRules(("L",), False, ())) == [["Gain", "LL"]]
    assert show("Kill BLB") == [["Kill", "<B><L><B>"]]
    assert show("BLOCK") == [["BLOCK"]]


def test_keywords_bold_reminders_italic_markup_and_lines() -> None:
    assert show("Trick Activate, [L]: Shield (prevent it)\n**Big** end") == [
        ["Trick Activate*,", "<L>:", "Shield*", "(/prevent/", "it/)/"],
        ["Big*", "end"],
    ]


def test_a_bracket_glued_to_a_word_is_not_reminder_text() -> None:
    assert show("Apply the effect(s) (then draw)", rt.RichRules(reminder="all")) == [
        ["Apply", "the", "effect(s)", "(/then/", "draw/)/"]
    ]


def test_only_reminder_text_is_italic_keywords_in_any_case_labels_and_typography() -> None:
    rules = rt.RichRules(("B",), False, ("Negate", "Scry"), labels=("Trigger", "Effect"))
    assert show("negate it (give it back when the game ends). Scry 1 (look)", rules) == [
        [
            "negate*",
            "it",
            "(give",
            "it",
            "back",
            "when",
            "the",
            "game",
            "ends).",
            "Scry*",
            "1",
            "(/look/)/",
        ]
    ]
    assert show("Trigger: draw.\nEffect: Negate it.\nTriggered: no", rules) == [
        ["Trigger*:*", "draw."],
        ["Effect*:*", "Negate*", "it."],
        ["Triggered:", "no"],
    ]
    assert show("Negated? don't \"stop\" players' -1/-1 and +1/+1", rules) == [
        ["Negated?", "don’t", "“stop”", "players’", "−1/−1", "and", "+1/+1"]
    ]


def test_fit_shrinks_then_overflows() -> None:
    fonts = FontSet(BUNDLED)
    m = rt.Measurer(fonts, FAMILY)
    blocks = [rt.parse("word " * 40, RULES)]
    spec = rt.FitSpec(10, 6)
    roomy = rt.fit(blocks, m, spec, 200, 200)
    assert roomy.fits and roomy.layout.size == 10 and not roomy.shrunk
    tight = rt.fit(blocks, m, spec, 150, 60)
    assert tight.fits and 6 <= tight.layout.size < 10 and tight.layout.height <= 60
    none = rt.fit(blocks, m, spec, 100, 20)
    assert not none.fits and none.layout.size == 6 and none.layout.overflow > 0


def test_larger_size_would_not_fit() -> None:
    fonts = FontSet(BUNDLED)
    m = rt.Measurer(fonts, FAMILY)
    blocks = [rt.parse("The quick brown fox jumps over the lazy dog. " * 6, RULES)]
    got = rt.fit(blocks, m, rt.FitSpec(12, 5), 140, 90)
    bigger = rt.layout(blocks, m, got.layout.size + 0.25, got.layout.leading, 140)
    assert got.fits and bigger.height > 90


def test_one_grammar_for_faces_rulebook_and_validator(fixture_ws) -> None:
    """'Pay [r] or {2} or {X}' means the same thing on a face, in the rulebook and to the
    validator."""
    from cardgen.model.text import symbols
    from cardgen.project.studio import open_studio
    from cardgen.rulebook.content import BookContent

    studio = open_studio(fixture_ws, "clean")
    rules = rt.RichRules.from_model(studio.model)
    text = "Pay [r] or {2} or {X} or [Q]."
    icons = [a.text for p in rt.parse(text, rules) for w in p for a in w if a.icon]
    assert icons == ["R", "2", "X"]
    book = BookContent(studio)
    for html in (book.rich(text), book.symbols(text)):
        assert (
            html.count('class="sym"') == 3
            and "[Q]" in html
            and "[r]" not in html
            and "{X}" not in html
        )
    assert [item for _, item in symbols(text)] == ["r", "2", "X", "Q"]


def test_the_anti_widow_wrap_leaves_no_stub_above_it() -> None:
    """A paragraph's last word is not left alone when the line above can give it one, unless that
    would leave a two-line paragraph's first line a stub ("Trigger: An opponent plays / an
    Entity."); a longer paragraph still gets the wrap."""
    fonts = FontSet(BUNDLED)
    m = rt.Measurer(fonts, FAMILY)
    text = "Trigger: An opponent plays an Entity."
    words = rt.parse(text, RULES)[0]
    five = sum(m.atom(a, 8.8) for w in words[:5] for a in w) + 4 * m.space(8.8)
    width = five * 1.2  # "Entity." does not fit beside the first five words
    lines = rt.layout([rt.parse(text, RULES)], m, 8.8, 1.18, width).lines
    assert [len(line.words) for line in lines] == [5, 1]
    longer = "Trigger: An opponent plays a card from the hand of any one player an Entity."
    lines = rt.layout([rt.parse(longer, RULES)], m, 8.8, 1.18, width * 0.75).lines
    assert len(lines) >= 3 and len(lines[-1].words) >= 2

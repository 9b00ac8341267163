"""game.yaml's `guards:` thresholds (typed, with defaults, every bad value located) and the
colour-blind guard on vocabulary colours: exact findings from broken fixtures, none on the clean
game."""

from __future__ import annotations

import pytest

from cardgen.core.workspace import Workspace
from cardgen.model import palette
from cardgen.model.guards import Guards
from cardgen.project.check import check_game
from cardgen.project.loaded import load_game

PALETTE = ("colour-clash", "colour-greyscale")


def _model_edit(ws: Workspace, old: str, new: str) -> None:
    path = ws.model_path("clean")
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_the_defaults_are_the_documented_ones(fixture_ws: Workspace) -> None:
    model = load_game(fixture_ws, "clean").model
    assert model is not None and model.guards == Guards()
    assert (Guards().art_dpi_warning, Guards().art_dpi_error, Guards().cover_crop) == (250, 150, 25)
    assert (Guards().label_size, Guards().rules_size, Guards().shrink) == (6, 7, 1.5)
    assert (Guards().contrast_body, Guards().contrast_large, Guards().colour_delta_e) == (
        4.5,
        3,
        10,
    )


def test_every_threshold_is_configurable_and_every_bad_value_located(scratch_ws: Workspace) -> None:
    _model_edit(
        scratch_ws,
        "fields:",
        "guards:\n  art_dpi_warning: 300\n  art_dpi_error: 20\n  label_size: six\n"
        "  rules_size: 8\n  cover_crop: 140\n  contrst_body: 4\nfields:",
    )
    result = check_game(scratch_ws, "clean")
    found = [
        (f.line, f.column, f.code, f.message)
        for f in result.findings
        if f.file.endswith("game.yaml") and f.code.startswith("model-")
    ]
    assert found == [
        (
            19,
            3,
            "model-value",
            "guards.art_dpi_error must be from 30 to 2400, not 20; the default, 150, is used",
        ),
        (
            20,
            3,
            "model-type",
            "guards.label_size must be a number, not 'six'; the default, 6, is used",
        ),
        (
            22,
            3,
            "model-value",
            "guards.cover_crop must be from 0 to 100, not 140; the default, 25, is used",
        ),
        (
            23,
            3,
            "model-unknown-key",
            "unknown key 'contrst_body' in guards; 'contrast_body' is not set, so the default, "
            "4.5, is used",
        ),
    ]
    assert result.model is not None
    guards = result.model.guards
    assert (guards.art_dpi_warning, guards.art_dpi_error, guards.label_size) == (300, 150, 6)
    assert guards.rules_size == 8


def test_an_error_level_above_its_warning_level_is_an_error(scratch_ws: Workspace) -> None:
    _model_edit(
        scratch_ws, "fields:", "guards: {art_dpi_warning: 200, art_dpi_error: 240}\nfields:"
    )
    found = [
        (f.line, f.code, f.message)
        for f in check_game(scratch_ws, "clean").findings
        if f.code == "model-value"
    ]
    assert found == [
        (
            17,
            "model-value",
            "guards.art_dpi_error (240) is above guards.art_dpi_warning (200): a picture would "
            "be an error before it is a warning",
        )
    ]


def test_the_clean_palette_gives_no_colour_finding(fixture_ws: Workspace) -> None:
    assert [f for f in check_game(fixture_ws, "clean").findings if f.code in PALETTE] == []


def test_colours_alike_to_colour_blind_players_are_a_warning(scratch_ws: Workspace) -> None:
    # a red and a green of one lightness: one colour to a deuteranope, and one grey
    _model_edit(scratch_ws, 'color: "#33a"', 'color: "#2e8b3e"')
    _model_edit(scratch_ws, 'color: "#a33"', 'color: "#b8322a"')
    found = [
        (f.line, f.column, f.severity.name.lower(), f.code, f.message)
        for f in check_game(scratch_ws, "clean").findings
        if f.code in PALETTE
    ]
    assert found == [
        (
            11,
            7,
            "warning",
            "colour-clash",
            "faction 'Red' (#b8322a) and 'Blue' (#2e8b3e) look alike with deuteranopia: ΔE 6.3 "
            "in CAM02-UCS, below 10",
        ),
        (
            11,
            7,
            "info",
            "colour-greyscale",
            "faction 'Red' (#b8322a) and 'Blue' (#2e8b3e) differ by 4.9 in lightness (CAM02-UCS "
            "J'), below 10: printed in greyscale they look alike",
        ),
    ]


def test_a_kept_palette_gives_what_the_plain_path_gives(
    scratch_ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    # measured once into output/GAME/.cache (made by a run, never by loading), then read from it
    _model_edit(scratch_ws, 'color: "#33a"', 'color: "#2e8b3e"')
    _model_edit(scratch_ws, 'color: "#a33"', 'color: "#b8322a"')
    cache = scratch_ws.output_dir("clean") / ".cache"
    plain = [f for f in load_game(scratch_ws, "clean").findings if f.code in PALETTE]
    assert plain and not cache.exists()  # loading makes no folder
    cache.mkdir(parents=True)
    assert [f for f in load_game(scratch_ws, "clean").findings if f.code in PALETTE] == plain
    assert [p.name.split("-")[0] for p in cache.glob("palette-*")] == ["palette"]

    def unmeasured(colours: object) -> None:
        raise AssertionError("a kept palette is measured again")

    monkeypatch.setattr(palette, "_measures", unmeasured)
    assert [f for f in load_game(scratch_ws, "clean").findings if f.code in PALETTE] == plain

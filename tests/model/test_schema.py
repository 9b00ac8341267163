"""The declared sections of game.yaml: docs/model.md's reference is generated from them, typos are
located."""

from __future__ import annotations

import re

from cardgen.core.workspace import Workspace
from cardgen.model.schema import reference

from ..conftest import REPO

DOC = REPO / "docs" / "model.md"
BLOCK = re.compile(r"(<!-- schema:begin -->\n)(.*?)(<!-- schema:end -->)", re.S)


def test_docs_reference_is_generated_from_the_schema(regen: bool) -> None:
    text = DOC.read_text(encoding="utf-8")
    fresh = BLOCK.sub(lambda m: m.group(1) + reference() + m.group(3), text)
    if regen:
        DOC.write_text(fresh, encoding="utf-8")
        return
    assert text == fresh, "docs/model.md's schema reference is stale: run pytest --regen-goldens"


def test_typos_and_wrong_shapes_are_located(scratch_ws: Workspace) -> None:
    from cardgen.project.check import check_game

    model = scratch_ws.model_path("clean")
    model.write_text(
        model.read_text()
        .replace("  passes: [left, right]", "  passes: lft\n  players: two")
        .replace("    pack_size: 2", "    pack_sise: 2")
        + "deck: {min_card: 40, main: {sise: 30, max_copies: {a: 1}}, formt: plain}\n"
    )
    found = {(f.line, f.code, f.message) for f in check_game(scratch_ws, "clean").findings}
    messages = " | ".join(m for _, _, m in found)
    assert "draft.passes[1] is 'lft'; it must be left or right" in messages
    assert "draft.players must be a whole number, not 'two'" in messages
    assert "unknown key 'pack_sise' in packs.pod" in messages
    assert (
        "unknown key 'min_card' in deck" in messages
        and "unknown key 'sise' in deck.main" in messages
    )
    assert "deck.main.max_copies must be a whole number, not a mapping" in messages
    assert "unknown key 'formt' in deck" in messages
    assert all(line > 1 for line, _, _ in found)  # every one at its own line


def test_a_pack_format_the_schema_rejects_is_reported_once(scratch_ws: Workspace) -> None:
    """`mode: bogus` used to give a `model-value` error and a second `pack-format` error for the
    same line."""
    from cardgen.project.check import check_game

    model = scratch_ws.model_path("clean")
    model.write_text(model.read_text().replace("    mode: slots", "    mode: bogus", 1))
    found = [
        (f.code, f.message)
        for f in check_game(scratch_ws, "clean").findings
        if f.code in ("model-value", "pack-format")
    ]
    assert found == [
        (
            "model-value",
            "packs.booster.mode is 'bogus'; it must be exhaust or slots or setup; the format "
            "cannot be dealt",
        )
    ]

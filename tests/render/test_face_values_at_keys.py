"""Per-card template findings where the template writes the value: a computed value that is bad
for one card is reported at its key, and a constant picture that does not exist only once, at the
template (not on every card)."""

from __future__ import annotations

from cardgen.core.workspace import Workspace
from cardgen.project.studio import open_studio


def _edit_front(ws: Workspace, old: str, new: str) -> tuple[int, int]:
    """Make the edit; return the line and column where `new` starts."""
    front = ws.templates_dir("clean") / "front.yaml"
    text = front.read_text(encoding="utf-8")
    assert text.count(old) == 1
    front.write_text(text.replace(old, new), encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if old in row)
    return line, text.splitlines()[line - 1].index(old) + 1


def test_a_computed_value_bad_for_a_card_is_reported_at_its_key(scratch_ws: Workspace) -> None:
    line, column = _edit_front(scratch_ws, 'fill: "#ffffff"}', "fill: \"{{ 'whte' }}\"}")
    studio = open_studio(scratch_ws, "clean")
    found = {
        (f.line, f.column, f.card) for f in studio.face_findings() if f.code == "template-value"
    }
    assert found == {(line, column, c.id) for c in studio.cards}


def test_a_constant_picture_that_does_not_exist_is_not_repeated_on_every_card(
    scratch_ws: Workspace,
) -> None:
    _edit_front(scratch_ws, 'src: "{{ card.art }}", when: "card.art"}', 'src: "art/frame.png"}')
    studio = open_studio(scratch_ws, "clean")
    missing = [f for f in studio.face_findings() if f.code == "image-missing"]
    assert [(f.file, f.card) for f in missing] == [("templates/clean/front.yaml", None)]

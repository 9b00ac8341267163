"""The inspector's edits where an element is centred (resized about its centre) or shown in an
edition (`text@de` is the key written, never the default's `text`). The editions fixture is sample
content written for the tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.core.workspace import Workspace
from cardgen.live.edits import Edit, Refused, plan
from cardgen.project.editions import with_edition

from ..conftest import TESTS
from .test_inspector import _diff, _element, serving


def _entry(**keys: str) -> dict:
    return {
        "file": "templates/g/front.yaml",
        "n": 3,
        "id": "panel",
        "type": "rect",
        "parent": [0.0, 0.0, 63.0, 88.0],
        "keys": {k: {"raw": v, "computed": False, "key": k} for k, v in keys.items()},
    }


def test_a_centred_element_is_resized_about_its_centre_but_not_moved() -> None:
    entry = _entry(x="center", y="10mm", w="80%", h="20mm")
    (change,) = plan(entry, Edit(edges={"right": 6.3}), [], [])  # one handle dragged
    assert (change.key, change.old, change.new) == ("w", "80%", "90%")
    (change,) = plan(entry, Edit(edges={"left": -3.15, "right": 3.15}), [], [])
    assert change.new == "90%"
    with pytest.raises(Refused, match=r"centred \(x: center\)"):
        plan(entry, Edit(edges={"left": 2, "right": 2}), [], [])  # a move


def test_an_editions_own_value_is_edited_under_its_own_key(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(TESTS / "fixtures" / "editions", root)
    ws = with_edition(Workspace.find(root), "editions", "de")
    with serving(ws, "editions") as client:
        status, layout = client.call("GET", "/api/layout?card=ember-warden&face=1")
        assert status == 200, layout
        deck = _element(layout, "deck")
        assert deck["keys"]["text"]["raw"] == "HAUPTDECK"
        assert deck["keys"]["text"]["key"] == "text@de"
        path = root / "templates" / "editions" / "back.yaml"
        before = path.read_text(encoding="utf-8")
        status, answer = client.edit(
            card="ember-warden", face=1, n=deck["n"], values={"text": "HAUPTSTAPEL"}
        )
        assert status == 200, answer
        changed = _diff(before, path.read_text(encoding="utf-8"))
        assert len(changed) == 2 and "text: MAIN DECK, text@de: HAUPTSTAPEL" in changed[1]

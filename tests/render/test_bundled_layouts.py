"""The bundled games' templates are size-relative: at their own size (63 x 88 mm) every face is
placed as it was when they were written in millimetres from the corner (tests/goldens/
layouts-63x88.json, made from those templates), and at tarot size the Power Trip faces fill the
card (no empty band, no template-size-mismatch, no text that no longer fits)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from cardgen.core.workspace import Workspace
from cardgen.project.loaded import load_game
from cardgen.project.studio import Studio, open_studio
from cardgen.render.faces import load_faces
from cardgen.render.prepared import PreparedFace

from ..conftest import REPO
from ..goldens import GOLDENS

GAMES = ("power-trip", "aether-duel", "ivion")
GOLDEN = GOLDENS / "layouts-63x88.json"
MM = 72 / 25.4
TOLERANCE = 1  # in the golden's unit, 0.01 mm (the templates place every face within ~1e-14 mm)


def _placement(face: PreparedFace) -> str:
    """A face's ops, each as 'id x y w h' in 0.01 mm (a line by its ends, a polygon by its
    points), joined by '; '."""
    ops = []
    for op in face.ops:
        if op.type == "line":
            numbers = [float(op.props[k]) for k in ("x1", "y1", "x2", "y2")]
        elif op.type == "polygon":
            numbers = [float(v) for point in op.props["points"] for v in point]
        else:
            numbers = list(op.box)
        ops.append(
            " ".join([str(op.props.get("_id") or op.type)] + [_hundredths(v) for v in numbers])
        )
    return "; ".join(ops)


def _hundredths(points: float) -> str:
    return str(round(points / MM * 100) + 0)  # + 0: never '-0'


def layouts(studio: Studio) -> dict[str, Any]:
    """Every face of a game's designs: the distinct placements, and each face's (CARD/front or
    back/TEMPLATE, a shared back once) index among them."""
    placements: list[str] = []
    faces: dict[str, int] = {}
    for card in studio.designs(printable=True):
        front, back = studio.prepare(card)
        sides = [("front", front, card.id)]
        if back is not None:
            sides.append(("back", back, card.id if studio.own_back(card) else "*"))
        for side, face, owner in sides:
            placement = _placement(face)
            if placement not in placements:
                placements.append(placement)
            faces[f"{owner}/{side}/{face.template.name}"] = placements.index(placement)
    return {"placements": placements, "faces": dict(sorted(faces.items()))}


def _ops(placement: str) -> list[tuple[str, list[int]]]:
    return [(op.split(" ")[0], [int(v) for v in op.split(" ")[1:]]) for op in placement.split("; ")]


def _differences(game: str, want: dict, got: dict) -> list[str]:
    said = []
    if set(want["faces"]) != set(got["faces"]):
        said.append(f"{game}: faces {sorted(set(want['faces']) ^ set(got['faces']))[:5]} differ")
    for face in sorted(set(want["faces"]) & set(got["faces"])):
        old = _ops(want["placements"][want["faces"][face]])
        new = _ops(got["placements"][got["faces"][face]])
        if [i for i, _ in old] != [i for i, _ in new]:
            said.append(f"{game} {face}: elements {[i for i, _ in old]} -> {[i for i, _ in new]}")
            continue
        for (element, a), (_, b) in zip(old, new):
            if len(a) != len(b) or any(abs(x - y) > TOLERANCE for x, y in zip(a, b)):
                said.append(f"{game} {face}: '{element}' at {a} -> {b} (0.01 mm)")
    return said


@pytest.fixture(scope="module")
def repo_studios() -> dict[str, Studio]:
    return {game: open_studio(Workspace.find(REPO), game) for game in GAMES}


def test_the_bundled_faces_are_placed_as_before_at_their_own_size(
    repo_studios: dict[str, Studio], regen: bool
) -> None:
    got: dict[str, dict[str, Any]] = {g: layouts(studio) for g, studio in repo_studios.items()}
    if regen:
        GOLDEN.write_text(json.dumps(got, indent=0, sort_keys=True) + "\n")
        return
    want = json.loads(GOLDEN.read_text())
    said = [line for game in GAMES for line in _differences(game, want[game], got[game])]
    assert not said, f"{len(said)} placements moved:\n" + "\n".join(said[:30])
    assert sum(len(g["faces"]) for g in got.values()) > 300  # the golden is of every face


def _power_trip_at(tmp_path: Path, size: str) -> Workspace:
    root = tmp_path / "ws"
    for part in (
        "rules/power-trip",
        "cards/power-trip",
        "templates/power-trip",
        "templates/_shared",
    ):
        shutil.copytree(REPO / part, root / part)
    model = root / "rules" / "power-trip" / "game.yaml"
    text = model.read_text()
    assert "  size: 63mm x 88mm\n" in text
    model.write_text(text.replace("  size: 63mm x 88mm\n", f"  size: {size}\n", 1))
    return Workspace.find(root)


def test_the_power_trip_front_at_tarot_has_no_empty_band(tmp_path: Path) -> None:
    ws = _power_trip_at(tmp_path, "tarot")
    model = load_game(ws, "power-trip").model
    assert model is not None
    _, found = load_faces(ws, "power-trip", model)
    assert [f for f in found if f.code == "template-size-mismatch"] == []
    studio = open_studio(ws, "power-trip")
    poker = open_studio(Workspace.find(REPO), "power-trip")
    card = studio.catalog.find("Carnage Dancer")  # an entity: AP, HP, rules clear of them
    assert card is not None
    front, back = studio.prepare(card)
    assert back is not None and front.findings == []
    w, h = front.width, front.height
    assert (round(w / MM, 2), round(h / MM, 2)) == (69.85, 120.65)
    boxes = {op.props["_id"]: op.box for op in front.ops}
    # the stats and the footer keep to the bottom edge, the rules box ends above them as at poker
    for element, most in (("footer", 7), ("ap", 6), ("hp", 6), ("text-box", 10)):
        x, y, bw, bh = boxes[element]
        above = h - (y + bh)
        assert above <= most * MM + 1e-6, f"{element} ends {above / MM:.1f} mm above the bottom"
        assert x >= 0 and x + bw <= w
    assert boxes["hp"][0] + boxes["hp"][2] == pytest.approx(w - 3.2 * MM)  # at the right edge
    # the extra height goes to the art window and the rules box, shared
    small, _ = poker.prepare(poker.catalog.find("Carnage Dancer"))  # type: ignore[arg-type]
    before = {op.props["_id"]: op.box for op in small.ops}
    extra = h - small.height
    art, text_box = (boxes[e][3] - before[e][3] for e in ("art-bg", "text-box"))
    assert art > 0.2 * extra and text_box > 0.2 * extra
    assert art + text_box == pytest.approx(extra)
    # the back's emblem stays centred
    ring = next(op.box for op in back.ops if op.props["_id"] == "ring")
    assert (ring[0] + ring[2] / 2, ring[1] + ring[3] / 2) == pytest.approx((w / 2, h / 2))


def test_no_power_trip_text_stops_fitting_at_tarot(tmp_path: Path) -> None:
    studio = open_studio(_power_trip_at(tmp_path, "tarot"), "power-trip")
    codes = set()
    for card in studio.designs(printable=True):
        front, back = studio.prepare(card)
        codes |= {f.code for f in front.findings + (back.findings if back else [])}
    # at 63 x 88 mm one name wraps (text-wraps, a warning); at tarot size nothing more (long names
    # shrinking more than 1.5 pt is a note, text-shrunk, as at 63 x 88 mm)
    assert codes <= {"text-wraps", "text-shrunk"}

"""Compare a rendered image with a reviewed golden PNG; on a difference, write the actual image and
a diff."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageChops

GOLDENS = Path(__file__).parent / "goldens"
FAILED = Path(__file__).parent / "output" / "goldens"  # ignored by git
TOLERANCE = (
    0.01  # share of pixels allowed to differ by more than 48 of 255 (antialiasing, not content)
)


def check_golden(name: str, png: bytes, regen: bool) -> None:
    path = GOLDENS / name
    if regen:
        path.write_bytes(png)
        return
    assert path.exists(), (
        f"no golden {name} yet: run pytest --regen-goldens and look at it before committing"
    )
    got = Image.open(io.BytesIO(png)).convert("RGB")
    want = Image.open(path).convert("RGB")
    assert got.size == want.size, f"{name}: {got.size} instead of {want.size}"
    diff = ImageChops.difference(got, want).convert("L")
    changed = sum(diff.histogram()[49:])
    if changed >= TOLERANCE * got.size[0] * got.size[1]:
        FAILED.mkdir(parents=True, exist_ok=True)
        got.save(FAILED / f"actual-{name}")
        diff.point(lambda v: 255 if v > 48 else 0).save(FAILED / f"diff-{name}")
    assert changed < TOLERANCE * got.size[0] * got.size[1], (
        f"{name}: {changed} pixels differ; see {FAILED}/actual-{name} and diff-{name}"
    )

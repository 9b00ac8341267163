"""Read back which faces a sheet page places and where: a face placed more than once is a form
(`/FormXob.F<key> Do`), a face placed once is drawn on its page in marked content
(`/cgFace <</Key (<key>)>> BDC … EMC`, render.replay)."""

from __future__ import annotations

from typing import Any

from pypdf.generic import ContentStream


def placed_faces(page: Any) -> list[tuple[str, list[float], bool]]:
    """(face key, the matrix of the last `cm` before it, whether it is a form) for every face the
    page places, in drawing order."""
    out: list[tuple[str, list[float], bool]] = []
    matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    depth = 0  # inside a face drawn on the page: its own forms (cost symbols) are not faces
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"cm" and not depth:
            matrix = [float(v) for v in operands]
        elif op == b"Do" and not depth and str(operands[0]).startswith("/FormXob.F"):
            out.append((str(operands[0]).removeprefix("/FormXob.F"), matrix, True))
        elif op == b"BDC" and str(operands[0]) == "/cgFace":
            out.append((str(operands[1]["/Key"]), matrix, False))
            depth += 1
        elif op == b"EMC" and depth:
            depth -= 1
    return out

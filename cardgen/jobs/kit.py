"""The box and tokens jobs: a box for each of a game's decks sized from its cards, and its tokens
and counters on token sheets, each written as a PDF with every finding."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.errors import sort_findings
from ..core.options import A4, Paper
from ..core.output import JobResult, Output, write_atomic
from ..core.workspace import Workspace
from ..kit.boxes import BoxOptions, BoxPlan, describe, plan_boxes
from ..kit.boxpdf import write_boxes
from ..kit.decks import sleeve_notes
from ..kit.tokenpdf import write_tokens
from ..kit.tokenplan import plan_tokens
from ..kit.tokens import load_tokens
from ..project.studio import Studio, open_studio, save_disk_cache, with_disk_cache
from .findings import all_findings, with_own_boxes


@dataclass
class BoxRun:
    pdf: bytes
    plan: BoxPlan
    described: str
    notes: list[str]


def box_bytes(studio: Studio, paper: Paper, opts: BoxOptions) -> BoxRun:
    """The boxes PDF in memory, what it holds, and a line per box."""
    plan = plan_boxes(studio, paper, opts)
    pdf = write_boxes(studio, plan) if plan.pages else b""
    made = [b for b in plan.boxes if not b.refused]
    sheets = len(plan.pages)
    described = (
        f"{len(made)} box{'es' * (len(made) != 1)} on {sheets} sheet{'s' * (sheets != 1)}, "
        f"{paper}, {plan.board} board, cards {plan.stock}"
    )
    notes = [f"box {describe(b)}" for b in plan.boxes]
    return BoxRun(pdf, plan, described, notes)


def run_box(
    ws: Workspace,
    game: str,
    paper: Paper = A4,
    opts: BoxOptions | None = None,
    out: Path | None = None,
) -> JobResult:
    studio = with_disk_cache(open_studio(ws, game))
    opts = opts or BoxOptions()
    run = box_bytes(studio, paper, opts)
    findings = with_own_boxes(all_findings(studio), run.plan.findings)
    result = JobResult(findings=findings, notes=run.notes + sleeve_notes(studio))
    if run.plan.pages:
        path = out or ws.output_dir(game) / "box.pdf"
        result.outputs.append(Output(write_atomic(path, run.pdf), run.described))
    else:
        result.notes.append("no box made (the findings say why)")
    save_disk_cache(studio)
    return result


@dataclass
class TokenRun:
    pdf: bytes
    sheets: int
    described: str


def token_bytes(studio: Studio, paper: Paper, players: int | None = None) -> TokenRun | None:
    """The token sheets in memory, or None when the model declares no token (a component with a
    shape)."""
    found = load_tokens(studio, players)
    if not found.tokens:
        return None
    pages = plan_tokens(found, paper)
    pdf = write_tokens(studio, found, pages)
    count = sum(t.copies for t in found.tokens)
    kinds = ", ".join(f"{t.copies} {t.name}" for t in found.tokens)
    sheets = sum(2 if p.duplex else 1 for p in pages)
    described = (
        f"{count} token{'s' * (count != 1)} ({kinds}) on {len(pages)} "
        f"sheet{'s' * (len(pages) != 1)}"
        f" ({sheets} page{'s' * (sheets != 1)}), {paper}"
    )
    return TokenRun(pdf, len(pages), described)


def run_tokens(
    ws: Workspace,
    game: str,
    paper: Paper = A4,
    players: int | None = None,
    out: Path | None = None,
) -> JobResult:
    studio = with_disk_cache(open_studio(ws, game))
    run = token_bytes(studio, paper, players)
    result = JobResult(findings=sort_findings(set(all_findings(studio))))
    if run is None:
        result.notes.append(
            "no tokens: game.yaml's components: gives none a shape (docs/kit.md: shape, size, "
            "template)"
        )
    else:
        path = out or ws.output_dir(game) / "tokens.pdf"
        result.outputs.append(Output(write_atomic(path, run.pdf), run.described))
    save_disk_cache(studio)
    return result

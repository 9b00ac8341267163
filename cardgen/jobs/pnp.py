"""The print-and-play set and its check: the cards on universal paper (duplex, one-sided to fold,
ink-saving), the boxes and the token sheets into output/GAME/pnp/, and the publishing checklist
read back from those files (cardgen pnp-check; a line in build's summary)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..core.errors import Finding
from ..core.options import STANDARD, Paper
from ..core.output import JobResult, Output, refuse_links, write_atomic
from ..core.workspace import Workspace
from ..kit.boxes import BoxOptions, plan_boxes
from ..kit.decks import sleeve_findings, sleeve_notes
from ..kit.pdfread import UnreadablePdf, page_count, read_pdf
from ..kit.pnpcheck import (
    STATUSES,
    Check,
    KitFiles,
    check_kit,
    checklist_text,
    coverage,
    percent,
    set_names,
)
from ..kit.tokens import TOKEN_BLEED
from ..printrun.printing import Progress, SheetOptions, choose_cards, quiet, sheet_bytes
from ..project.studio import Studio, open_studio
from ..speed.cache import Store
from ..speed.codekey import code_digest
from .findings import all_findings
from .kit import box_bytes, token_bytes

if TYPE_CHECKING:
    from ..rulebook.build import Rulebook

# the kit's rulebook when another process is typesetting it (build): None if that process was lost
KitBook = Callable[[], "Rulebook | None"]

UNIVERSAL = STANDARD["universal"]
VERSIONS: tuple[tuple[str, dict[str, str]], ...] = (
    ("cards", {}),
    ("one-sided", {"layout": "fold", "duplex": "none"}),
    ("low-ink", {"ink": "low"}),
)


def pnp_folder(ws: Workspace, game: str) -> Path:
    return ws.output_dir(game) / "pnp"


def write_pnp_set(
    studio: Studio,
    players: int | None = None,
    progress: Progress = quiet,
    typeset: KitBook | None = None,
) -> tuple[list[Output], list[str]]:
    """The set's files, written (a file of a role the game no longer has, removed), and notes;
    the rulebook from `typeset` (build's twin typesetting it meanwhile) when it has it."""
    folder = pnp_folder(studio.ws, studio.game)
    names = set_names(studio.game)
    outputs: list[Output] = []
    notes: list[str] = []
    written: set[str] = set()
    chosen, _, _ = choose_cards(studio, SheetOptions(paper=UNIVERSAL, players=players))
    for role, changes in VERSIONS if chosen else ():
        opts = SheetOptions(paper=UNIVERSAL, players=players, **changes)  # type: ignore[arg-type]
        run = sheet_bytes(studio, opts, chosen, progress=progress)
        outputs.append(Output(write_atomic(folder / names[role], run.pdf), _sheets(run.sheets)))
        written.add(role)
    box = box_bytes(studio, UNIVERSAL, BoxOptions(players=players))
    if box.plan.pages:
        made = Output(write_atomic(folder / names["box"], box.pdf), _sheets(len(box.plan.pages)))
        outputs.append(made)
        written.add("box")
    tokens = token_bytes(studio, UNIVERSAL, players)
    if tokens is not None:
        made = Output(write_atomic(folder / names["tokens"], tokens.pdf), _sheets(tokens.sheets))
        outputs.append(made)
        written.add("tokens")
    if has_rulebook(studio):  # typeset once for universal paper, then kept in the cache
        from .rulebook import cached_rulebook

        book = (typeset() if typeset is not None else None) or cached_rulebook(
            studio.ws, studio.game, UNIVERSAL, studio
        )
        path = write_atomic(folder / names["rulebook"], book.pdf)
        outputs.append(Output(path, f"{book.pages} pages"))
        written.add("rulebook")
    for role, name in names.items():  # only files of the set's own names
        stale = folder / name
        if role not in written and stale.is_file() and not stale.is_symlink():
            refuse_links(stale)
            stale.unlink()
            notes.append(f"removed {studio.ws.shown(stale)}: the game has no {role} any more")
    return outputs, notes


def kit_inputs(studio: Studio, players: int | None = None) -> KitFiles:
    """What the check reads, its files' bytes not read back yet (read_back)."""
    folder = pnp_folder(studio.ws, studio.game)
    roles = set_names(studio.game)
    raw: dict[str, bytes] = {}
    for name in roles.values():
        path = folder / name
        if path.is_file():
            raw[name] = path.read_bytes()
    faces = [(t.size[0], t.size[1], t.bleed) for t in studio.faces.templates.values()]
    for component in studio.model.components:
        if component.size is not None:
            faces.append((component.size[0], component.size[1], TOKEN_BLEED))
    plan = plan_boxes(studio, UNIVERSAL, BoxOptions(players=players))
    notes = sleeve_notes(studio)
    return KitFiles(
        {},
        raw,
        roles,
        faces,
        any(c.shape for c in studio.model.components),
        (sum(1 for b in plan.boxes if not b.refused), len(plan.boxes)),
        notes[0].removeprefix("sleeves: ") if notes else "",
        any(f.code == "sleeve-none" for f in sleeve_findings(studio)),
        has_rulebook(studio),
    )


def read_back(kit: KitFiles) -> KitFiles:
    """The kit with each file read back (a file that is no whole PDF: among `unreadable`)."""
    for name, data in list(kit.raw.items()):
        try:
            kit.read[name] = read_pdf(data)
        except UnreadablePdf as e:  # cut short or overwritten: a failed check, not a crash
            kit.unreadable[name] = str(e)
            del kit.raw[name]
    return kit


def has_rulebook(studio: Studio) -> bool:
    return (studio.ws.root / "rules" / studio.game / "rulebook" / "index.md").is_file()


def pnp_checks(studio: Studio, players: int | None = None) -> list[Check]:
    """The checklist of the set on disk, kept in the game's cache under what it reads (the files'
    bytes, the game's sizes, boxes and sleeves, the checking code): a build whose set did not
    change reads none of its PDFs back again."""
    kit = kit_inputs(studio, players)
    store = _store(studio)
    name = f"pnp-check-{inputs_digest(kit)}"
    checks = checks_from_plain(store.get(name))
    if checks is None:
        checks = check_kit(read_back(kit))
        if kit.raw:  # a set to check (no cache folder made for a game without one)
            store.put(name, checks_to_plain(checks), "pnp-check-*")
    return checks


# what checks a set (and all it imports; this module too): part of the key its answers are kept by
CHECK_CODE = "cardgen.kit.pnpcheck"


def inputs_digest(kit: KitFiles) -> str:
    """A digest of everything the checklist reads (the files' bytes, the game's sizes, boxes and
    sleeves) and of the code that checks them: the key its answer is kept under."""
    h = hashlib.sha256(code_digest(CHECK_CODE, __name__).encode())
    for name in sorted(kit.raw):
        h.update(f"{name}\0".encode() + hashlib.sha256(kit.raw[name]).digest())
    rest = {f.name: getattr(kit, f.name) for f in fields(kit) if f.name not in ("read", "raw")}
    h.update(repr(sorted(rest.items())).encode())
    return h.hexdigest()[:20]


def checks_to_plain(checks: list[Check]) -> list[tuple]:
    return [(c.name, c.status, c.detail, c.data) for c in checks]


def checks_from_plain(kept: Any) -> list[Check] | None:
    """Checks as checks_to_plain kept them, or None when `kept` is not of that shape."""
    if not isinstance(kept, list):
        return None
    checks = []
    for item in kept:
        if not (
            isinstance(item, tuple)
            and len(item) == 4
            and all(isinstance(v, str) for v in item[:3])
            and isinstance(item[3], dict)
            and item[1] in STATUSES
        ):
            return None
        checks.append(Check(*item))
    return checks


def _store(studio: Studio) -> Store:
    return Store(studio.ws.output_dir(studio.game) / ".cache")


def check_line(checks: list[Check], game: str) -> str:
    """build's summary line: 'print-and-play check: 9 passed, 1 warning, 0 failed (…)'."""
    counts = {s: sum(c.status == s for c in checks) for s in ("ok", "warn", "fail")}
    bad = [c.name for c in checks if c.status in ("warn", "fail")]
    return (
        f"print-and-play check: {counts['ok']} passed, {counts['warn']} "
        f"warning{'s' * (counts['warn'] != 1)}, {counts['fail']} failed"
        + (f" ({', '.join(bad)})" if bad else "")
        + f"; cardgen pnp-check {game} lists them"
    )


def toner_line(
    pdf: bytes, sheets: int, duplex: bool, low: bytes | None, store: Store | None = None
) -> str:
    """build's summary line: the print run's paper and toner (kept in `store` under the files'
    bytes: measuring rasterises every page)."""
    if store is None:
        return _toner_line(pdf, sheets, duplex, low)
    h = hashlib.sha256(f"{sheets}|{duplex}|{code_digest(CHECK_CODE, __name__)}".encode())
    for data in (pdf, low or b""):
        h.update(hashlib.sha256(data).digest())
    name = f"toner-{h.hexdigest()[:20]}"
    line = store.get(name)
    if not isinstance(line, str):
        line = _toner_line(pdf, sheets, duplex, low)
        store.put(name, line, "toner-*")
    return line


def _toner_line(pdf: bytes, sheets: int, duplex: bool, low: bytes | None) -> str:
    full = coverage(pdf)
    line = (
        f"toner and paper: sheets.pdf {sheets} sheet{'s' * (sheets != 1)} ({full.pages} pages"
        f"{', duplex' if duplex else ''}), {full.shown()}"
    )
    if low is not None:
        line += f"; the ink-saving version {percent(coverage(low).darkness)}"
    return line


def build_kit(
    studio: Studio,
    paper: Paper,
    players: int | None,
    sheets: list[Output],
    progress: Progress = quiet,
    typeset: KitBook | None = None,
) -> tuple[list[Output], list[str], list[Finding]]:
    """build's print-and-play part: the boxes and token sheets on the build's paper, the set on
    universal paper, and the summary's lines: sleeves, toner and paper, the publishing check."""
    out = studio.ws.output_dir(studio.game)
    outputs: list[Output] = []
    box = box_bytes(studio, paper, BoxOptions(players=players))
    if box.plan.pages:
        outputs.append(Output(write_atomic(out / "box.pdf", box.pdf), box.described))
    tokens = token_bytes(studio, paper, players)
    if tokens is not None:
        outputs.append(Output(write_atomic(out / "tokens.pdf", tokens.pdf), tokens.described))
    made, notes = write_pnp_set(studio, players, progress, typeset)
    folder = pnp_folder(studio.ws, studio.game)
    if made:
        outputs.append(
            Output(folder, f"print-and-play set on A4 and Letter: {len(made)} files ({_set(made)})")
        )
    notes += sleeve_notes(studio)
    if sheets and sheets[0].path.is_file():
        low = folder / set_names(studio.game)["low-ink"]
        sheet_pdf = sheets[0].path.read_bytes()
        duplex = "duplex" in sheets[0].what
        pages = page_count(sheet_pdf)
        notes.append(
            toner_line(
                sheet_pdf,
                pages // 2 if duplex else pages,
                duplex,
                low.read_bytes() if low.is_file() else None,
                _store(studio),
            )
        )
    notes.append(check_line(pnp_checks(studio, players), studio.game))
    return outputs, notes, box.plan.findings


def _sheets(n: int) -> str:
    return f"{n} sheet{'s' * (n != 1)}"


def _set(made: list[Output]) -> str:
    """'power-trip-cards.pdf 36 sheets, …': each file of the set and what it takes."""
    return ", ".join(f"{output.path.name} {output.what}" for output in made)


def run_pnp_check(
    ws: Workspace, game: str, fmt: str = "text", players: int | None = None
) -> JobResult:
    """The checklist of output/GAME/pnp/ (exit 1 when a check fails, as when the data has
    errors)."""
    studio = open_studio(ws, game)
    checks = pnp_checks(studio, players)
    if fmt == "json":
        text = json.dumps(
            {
                "game": game,
                "folder": ws.shown(pnp_folder(ws, game)),
                "checks": [
                    {"check": c.name, "status": c.status, "detail": c.detail, "data": c.data}
                    for c in checks
                ],
                "failed": sum(c.status == "fail" for c in checks),
            },
            indent=2,
            ensure_ascii=False,
        )
        text += "\n"
    else:
        text = checklist_text(game, checks)
    counts = (sum(c.status == "fail" for c in checks), sum(c.status == "warn" for c in checks))
    return JobResult(findings=all_findings(studio), text=text, checks=counts)  # as validate's

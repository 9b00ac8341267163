"""Turn a literal edit (file, old text, new text) into a run of the right command in a scratch
workspace, and that run into the findings, exit code and output the campaign checks."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner, Result

from cardgen.cli.main import main

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
# where each workspace of the campaign comes from: the bundled games, the fixture games
SOURCES: dict[str, tuple[Path, tuple[str, ...]]] = {
    "repo": (REPO, ("rules", "cards", "templates", "decks")),
    "fixture": (FIXTURES / "ws", ("rules", "cards", "templates")),
    "lantern": (FIXTURES / "lantern", ("rules", "cards", "templates")),
}
LOCATED = re.compile(
    r"^(?P<file>[^\s:][^:]*?)(?::(?P<line>\d+):(?P<column>\d+))?: "
    r"(?P<severity>error|warning|info)\[(?P<code>[\w.-]+)\]",
    re.M,
)
OWNERS = ("exists", "A", "B", "lead")
FIXTURE_GAMES = {"clean", "broken", "badmodel"}
KINDS = ("model", "card", "template", "deck", "chapter", "cli")


@dataclass(frozen=True)
class Edit:
    """One designer's mistake: replace `old` by `new` in `file` (once; `old` must occur exactly
    once), run `args` (default: validate the game) and expect finding `code` of `severity` in `at`
    (default: the edited file; `code` may name alternatives, "a|b", while a helper's code is
    not settled) at `line` (default: the line where `new` starts, plus `dline`), and
    exit code `exit` (default: 1 for an error or when the game already has errors, else 0). A
    command-line mistake has no file: `args` carry the mistake, `message` what the output must
    say."""

    name: str
    kind: str
    ws: str
    file: str | None
    old: str
    new: str
    code: str | None
    owner: str = "exists"
    severity: str = "error"
    line: int | None = None
    dline: int = 0
    also: tuple[int, ...] = ()  # other lines the finding may name (a block's first line, say)
    at: str | None = None
    forbid: tuple[str, ...] = ()  # codes that must not appear anew (consequences of a fallback)
    game: str | None = None
    args: tuple[str, ...] = ()
    exit: int | None = None
    message: str | None = None  # text the output must hold ("a|b": one of them)
    absent: str | None = None  # text the standard output must not hold
    note: str = ""

    def __post_init__(self) -> None:
        assert self.kind in KINDS, self.kind
        assert self.owner in OWNERS, self.owner
        assert self.ws in SOURCES, self.ws

    @property
    def game_name(self) -> str:
        if self.game:
            return self.game
        assert self.file, self.name
        return self.file.split("/")[1]

    def command(self, root: Path) -> list[str]:
        """The command line (after --root): ROOT in `args` is the workspace."""
        if self.args:
            return [a.replace("GAME", self.game_name).replace("ROOT", str(root)) for a in self.args]
        if self.kind == "deck":
            return ["deck", "check", self.game_name, str(root / str(self.file)), "--format", "json"]
        return ["validate", self.game_name, "--format", "json"]


@dataclass
class Run:
    """What one command did: its exit code, its output (standard output and error), its findings
    as (file, line, severity, code) and an exception that escaped click, if any."""

    exit_code: int
    output: str
    findings: list[tuple[str, int, str, str]]
    exception: BaseException | None


def workspace_of(file: str) -> str:
    """Which campaign workspace holds a file (its game is the path's second part)."""
    game = file.split("/")[1]
    return "lantern" if game == "lantern" else "fixture" if game in FIXTURE_GAMES else "repo"


def make_workspace(kind: str, dest: Path) -> Path:
    """A writable copy of one of the campaign's workspaces (its data folders only), with output/
    folders so validate keeps its face cache warm between the edits."""
    source, folders = SOURCES[kind]
    dest.mkdir(parents=True)
    for folder in folders:
        shutil.copytree(
            source / folder,
            dest / folder,
            ignore=shutil.ignore_patterns("__pycache__", ".cache"),
        )
    extra = Path(__file__).parent / "decks"
    if kind == "lantern":  # the fixture game has no deck list: the campaign brings one
        shutil.copytree(extra, dest / "decks")
    for game in (dest / "rules").iterdir():
        (dest / "output" / game.name).mkdir(parents=True)
    return dest


def findings_of(text: str) -> list[tuple[str, int, str, str]]:
    """(file, line, severity, code) of every finding in a command's output: the JSON of `--format
    json` when the output is one, else the compiler-style lines."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped[: stripped.rindex("}") + 1])
        except ValueError:
            data = None
        if isinstance(data, dict) and "findings" in data:
            return [
                (f["file"] or "", f["line"] or 0, f["severity"], f["code"])
                for f in data["findings"]
            ]
    return [
        (m["file"], int(m["line"] or 0), m["severity"], m["code"]) for m in LOCATED.finditer(text)
    ]


def run(root: Path, args: list[str]) -> Run:
    result: Result = CliRunner().invoke(main, ["--root", str(root), *args], catch_exceptions=True)
    escaped = result.exception if not isinstance(result.exception, SystemExit) else None
    stdout = result.stdout
    parsed = findings_of(stdout)
    parsed += [f for f in findings_of(result.stderr) if f not in parsed]
    return Run(result.exit_code, result.output, parsed, escaped)


def line_of(text: str, needle: str) -> int:
    """The 1-based line where `needle` starts in `text`."""
    return text.count("\n", 0, text.index(needle)) + 1


def apply(root: Path, edit: Edit) -> tuple[Path, str]:
    """Make the edit in the workspace; return the file and its text before, to put back."""
    assert edit.file is not None
    path = root / edit.file
    before = path.read_text(encoding="utf-8")
    assert before.count(edit.old) == 1, f"{edit.name}: {edit.old!r} is not once in {edit.file}"
    path.write_text(before.replace(edit.old, edit.new), encoding="utf-8")
    return path, before


def expected_line(root: Path, edit: Edit, before: str) -> int:
    if edit.line is not None:
        return edit.line
    return line_of(before, edit.old) + edit.dline

"""Hostile values in card files and game.yaml, and a workspace the user may not enter: each is a
located finding or a one-line exit 2, never exit 3 (huge numbers, control characters, characters
that do not print, look-alike names and ids, unreadable folders)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.core.workspace import Workspace
from cardgen.load.yamlio import load_yaml, parse_yaml
from cardgen.load.yamlscalar import MAX_INT
from cardgen.project.check import check_game
from cardgen.validate.names import hidden_at, print_key

from .conftest import FIXTURE_WS, REPO
from .fuzz import deadline

GAME = "clean"
HOSTILE = "cards/clean/hostile.yaml"
CARD = "- name: {name}\n  faction: Red\n  kind: Spell\n  text: Deal 1 damage.\n  rarity: common\n"


def located(
    ws: Workspace, *codes: str, file: str = HOSTILE
) -> list[tuple[str, int, int, str, str | None]]:
    """(file, line, column, code, card) of the game's findings in `file` (with those codes, if
    given)."""
    return [
        (f.file, f.line, f.column, f.code, f.card)
        for f in check_game(ws, GAME).findings
        if f.file == file and (not codes or f.code in codes)
    ]


def write(ws: Workspace, text: str, name: str = "hostile.yaml") -> Path:
    path = ws.root / "cards" / GAME / name
    path.write_text(text, encoding="utf-8")
    return path


def column_of(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of the first `needle` in the text."""
    at = text.index(needle)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


# --- huge numbers
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "number",
    [
        "0x" + "f" * 5000,
        "9" * 5000,
        "0b" + "1" * 60,
        "0" + "7" * 30,
        "!!int 0x" + "f" * 20,
        str(MAX_INT + 1),
        f"-{MAX_INT + 1}",
    ],
)
def test_a_huge_number_is_a_located_finding(scratch_ws: Workspace, number: str) -> None:
    text = "- name: Big\n  faction: Red\n  kind: Unit\n  power: " + number + "\n  rarity: common\n"
    write(scratch_ws, text)
    assert located(scratch_ws, "yaml-value", "wrong-type") == [
        (HOSTILE, 4, 3, "wrong-type", "big"),
        (HOSTILE, 4, 10, "yaml-value", None),
    ]
    message = next(
        f.message for f in check_game(scratch_ws, GAME).findings if f.code == "yaml-value"
    )
    assert message.endswith(
        "it is past 9,007,199,254,740,991, the largest whole number cardgen reads"
    )
    assert len(message) < 140


def test_the_largest_whole_number_is_still_read(scratch_ws: Workspace) -> None:
    write(
        scratch_ws,
        f"- name: Big\n  faction: Red\n  kind: Unit\n  power: {MAX_INT}\n  rarity: common\n",
    )
    assert located(scratch_ws, "yaml-value", "wrong-type", "out-of-range") == [
        (HOSTILE, 4, 3, "out-of-range", "big")
    ]


def test_the_issue_number_exits_1_through_the_whole_validate(scratch_ws: Workspace) -> None:
    """The face cache key once printed the number (repr of a 5,000-digit int): exit 3."""
    write(
        scratch_ws,
        "- name: Big\n  faction: Red\n  kind: Unit\n  power: 0x"
        + "f" * 5000
        + "\n  rarity: common\n",
    )
    result = CliRunner().invoke(main, ["--root", str(scratch_ws.root), "validate", GAME])
    assert result.exit_code == 1, result.output
    assert (
        f"{HOSTILE}:4:10: error[yaml-value] '0xffffffffffffffffff…' cannot be read as a number"
        in result.output
    )
    assert "internal error" not in result.output


def test_generic_costs_past_the_bound_or_in_other_digits(scratch_ws: Workspace) -> None:
    model = scratch_ws.model_path(GAME)
    model.write_text(
        model.read_text().replace("cost:\n  symbols:", "cost:\n  generic: true\n  symbols:")
    )
    write(
        scratch_ws,
        "".join(
            CARD.format(name=n) + f"  cost: '{c}'\n"
            for n, c in [
                ("Huge", "{" + "9" * 5000 + "}"),
                ("Past", "{9007199254740992}"),
                ("Square", "{²}"),
                ("Ok", "{12}{R}"),
            ]
        ),
    )
    found = [f for f in check_game(scratch_ws, GAME).findings if f.file == HOSTILE]
    assert [(f.line, f.column, f.code, f.card) for f in found] == [
        (6, 3, "bad-cost", "huge"),
        (12, 3, "bad-cost", "past"),
        (18, 3, "unknown-cost-symbol", "square"),
    ]
    assert found[0].message == (
        "generic cost '{99999999999999999999…}' is past 9,007,199,254,740,991, the largest "
        "whole number cardgen reads"
    )


def test_a_collector_total_of_many_digits_is_counted_not_enumerated(scratch_ws: Workspace) -> None:
    """number-gaps once listed every missing number: a total of 10**30 ran out of memory (or
    time)."""
    model = scratch_ws.model_path(GAME)
    model.write_text(
        model.read_text().replace(
            "{prefix: R, where: {faction: Red}, total: 2}", "{prefix: R, where: {faction: Red}}"
        )
    )
    cards = scratch_ws.cards_dir(GAME) / "cards.yaml"
    top = "9" * 30
    cards.write_text(
        cards.read_text()
        .replace("number: R1/2", f"number: R1/{top}")
        .replace("number: R2/2", f"number: R5/{top}")
    )
    with deadline(
        60
    ):  # a guard against the hang this was; the work is bounded by the cards, not the total
        result = check_game(scratch_ws, GAME)
    gaps = [f.message for f in result.findings if f.code == "number-gaps"]
    assert gaps == [f"prefix 'R': {int(top) - 2} of 1-{top} unused (2-4, 6-{top})"]


# --- control characters in YAML
# ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "char"),
    [("Tide of Night", "\x07"), ("Café «x» ", "\x00"), ("é\u2028line ", "\x1b"), ("", "\x7f")],
)
def test_a_control_character_is_located(tmp_path: Path, before: str, char: str) -> None:
    text = f"- name: A\n  text: {before}{char}rest\n"
    path = tmp_path / "f.yaml"
    path.write_bytes(text.encode())
    doc = load_yaml(path, "f.yaml")
    breaks = before.count("\u2028")  # a line break to YAML
    column = len(before.split("\u2028")[-1]) + 1 if breaks else len("  text: ") + len(before) + 1
    assert [(f.line, f.column, f.code) for f in doc.findings] == [
        (2 + breaks, column, "yaml-syntax")
    ]
    assert (
        doc.findings[0].message
        == f"YAML syntax error: character U+{ord(char):04X} (a control character) is not "
        "allowed in YAML"
    )
    assert "\n" not in doc.findings[0].format()


def test_a_control_character_in_front_matter_counts_from_its_first_line() -> None:
    doc = parse_yaml("title: Rules\nnote: a\x01b\n", "rules/g/rulebook/one.md", first_line=2)
    assert [(f.file, f.line, f.column, f.code) for f in doc.findings] == [
        ("rules/g/rulebook/one.md", 3, 8, "yaml-syntax")
    ]


def test_a_control_character_in_game_yaml_is_located(scratch_ws: Workspace) -> None:
    model = scratch_ws.model_path(GAME)
    text = model.read_text().replace("name: Clean Test Game", "name: Clean\x00Test Game")
    model.write_text(text)
    line, column = column_of(text, "\x00")
    assert [(f.file, f.line, f.column, f.code) for f in check_game(scratch_ws, GAME).findings] == [
        ("rules/clean/game.yaml", line, column, "yaml-syntax")
    ]


# --- characters that do not print, and look-alike names
# -----------------------------------------------------------

NOT_PRINTING = [
    ("Dawn\u200bSentinel", "U+200B ZERO WIDTH SPACE"),
    ("Dawn\u200dSentinel", "U+200D ZERO WIDTH JOINER"),
    ("Dawn \u200cSentinel", "U+200C ZERO WIDTH NON-JOINER"),
    ("Dawn\ufeffSentinel", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    ("Dawn\u00adSentinel", "U+00AD SOFT HYPHEN"),
    ("\u202eDawn Sentinel", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("Dawn\u2066 Sentinel\u2069", "U+2066 LEFT-TO-RIGHT ISOLATE"),
    ("Dawn\u2060Sentinel", "U+2060 WORD JOINER"),
    ("Dawn\u3164Sentinel", "U+3164 HANGUL FILLER"),
    ("A\ufe0f Sentinel", "U+FE0F VARIATION SELECTOR-16"),
]


@pytest.mark.parametrize(("name", "char"), NOT_PRINTING)
def test_a_name_with_a_character_that_does_not_print_is_a_warning_at_the_character(
    scratch_ws: Workspace, name: str, char: str
) -> None:
    text = CARD.format(name=f"x{name}")
    write(scratch_ws, text)
    first = hidden_at(f"x{name}")[0]
    line, column = 1, len("- name: ") + first + 1
    card = check_game(scratch_ws, GAME)
    found = [f for f in card.findings if f.file == HOSTILE]
    assert [(f.line, f.column, f.code, f.severity.name) for f in found] == [
        (line, column, "invisible-character", "WARNING")
    ]
    assert char in found[0].message and "⟨U+" in found[0].message
    assert not any(
        ch in found[0].format() for ch in "\u202e\u2066\u200b"
    )  # a bidi control cannot reorder the line


def test_an_escaped_character_and_an_id_are_located(scratch_ws: Workspace) -> None:
    text = (
        '- name: "Ember\\u202eGuard"\n  id: ember\u200b-guard-2\n  faction: Red\n  kind: Spell\n'
        "  text: Deal 1 damage.\n  rarity: common\n"
        "- {name: 'Second\u00adWind', faction: Red, kind: Spell, text: x, rarity: common}\n"
    )
    write(scratch_ws, text)
    assert located(scratch_ws, "invisible-character") == [
        (HOSTILE, 1, 15, "invisible-character", "ember\u200b-guard-2"),
        (HOSTILE, 2, 12, "invisible-character", "ember\u200b-guard-2"),
        (HOSTILE, 7, 17, "invisible-character", "secondwind"),
    ]


@pytest.mark.parametrize(
    "name",
    [
        "می\u200cخواهم",
        "क्\u200dष",
        "❤\ufe0f Heart",
        "👨\u200d👩\u200d👧 Family",
        "1\ufe0f\u20e3 Keycap",
        "Tab\tName",
        "葛\U000e0100城",
    ],
)
def test_joiners_and_selectors_that_are_part_of_the_writing_are_not_flagged(name: str) -> None:
    assert hidden_at(name) == []


def test_print_key_folds_what_does_not_print() -> None:
    assert (
        print_key("Dawn\u200b Sentinel")
        == print_key("Dawn  Sentinel ")
        == print_key("Dawn\u00a0Sentinel")
        == "Dawn Sentinel"
    )
    assert print_key("Cafe\u0301") == print_key("Caf\u00e9") == "Caf\u00e9"
    assert print_key("Fire\u00adball") == "Fireball" and print_key("Ｆire") != print_key(
        "Fire"
    )  # no NFKC folding


LOOK_ALIKES = [
    (
        "Ember Guard",
        "Ember\u200bGuard",
        "this one holds U+200B ZERO WIDTH SPACE, which does not print",
    ),
    (
        "Ember Guard",
        "Ember\u200b Guard",
        "this one holds U+200B ZERO WIDTH SPACE, which does not print",
    ),
    ("Ember Guard", "Ember  Guard", "they differ only in spacing"),
    (
        "Ember Guard",
        "\u2066Ember Guard\u2069",
        "this one holds U+2066 LEFT-TO-RIGHT ISOLATE, U+2069 POP DIRECTIONAL "
        "ISOLATE, which do not print",
    ),
]


@pytest.mark.parametrize(("first", "second", "why"), LOOK_ALIKES)
def test_names_that_print_alike_are_a_duplicate(
    scratch_ws: Workspace, first: str, second: str, why: str
) -> None:
    """The fixture's first card is 'Ember Guard' (cards.yaml:1); a second card printing the same is
    a duplicate."""
    assert first == "Ember Guard"
    write(
        scratch_ws,
        f'- name: "{second}"\n  id: another\n  faction: Red\n  kind: Spell\n  text: x\n  rarity: '
        "common\n",
    )
    found = [f for f in check_game(scratch_ws, GAME).findings if f.code == "duplicate-name"]
    assert [(f.file, f.line, f.column, f.card) for f in found] == [(HOSTILE, 1, 3, "another")]
    assert found[0].message.endswith(f"the name of the card at cards/clean/cards.yaml:1: {why}")


def test_nfc_and_nfd_names_and_ids_are_duplicates(scratch_ws: Workspace) -> None:
    nfc, nfd = "Caf\u00e9", "Cafe\u0301"
    write(
        scratch_ws,
        f"- {{name: {nfc}, id: c1, faction: Red, kind: Spell, text: x, rarity: common}}\n"
        f"- {{name: {nfd}, id: c2, faction: Red, kind: Spell, text: x, rarity: common}}\n"
        f"- {{name: One, id: r{nfc}, faction: Red, kind: Spell, text: x, rarity: common}}\n"
        f"- {{name: Two, id: r{nfd}, faction: Red, kind: Spell, text: x, rarity: common}}\n",
    )
    found = [f for f in check_game(scratch_ws, GAME).findings if f.file == HOSTILE]
    assert [(f.line, f.column, f.code, f.card) for f in found] == [
        (2, 4, "duplicate-name", "c2"),
        (4, 15, "duplicate-id", f"r{nfd}"),
    ]
    assert found[0].message.endswith(
        "this one writes an accent as a character of its own (U+0301 COMBINING ACUTE "
        "ACCENT), the other does not"
    )
    assert found[1].severity.name == "ERROR"


def test_different_names_are_not_duplicates(scratch_ws: Workspace) -> None:
    write(
        scratch_ws,
        "".join(
            CARD.format(name=n) + f"  id: d{i}\n"
            for i, n in enumerate(
                ["Embers Guard", "Ember Guards", "Ｅmber Guard", "Ember-Guard", "EmberGuard!"]
            )
        ),
    )
    assert located(scratch_ws, "duplicate-name", "duplicate-id", "invisible-character") == []


# --- a workspace the user may not enter
# -------------------------------------------------------------------------


def _as_other_user(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """cardgen run by a user without the permission: as root (which chmod does not stop), nobody via
    setpriv."""
    command = [sys.executable, "-m", "cardgen", *args]
    if os.geteuid() == 0:
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "HOME": str(cwd)}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture()
def open_ws():  # type: ignore[no-untyped-def]
    """A copy of the fixture workspace in a folder every user may enter (pytest's tmp_path is the
    owner's only)."""
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: no way to be a user that permissions stop")
    import tempfile

    top = Path(tempfile.mkdtemp(prefix="cardgen-perm-"))
    top.chmod(0o755)
    root = top / "ws"
    shutil.copytree(FIXTURE_WS, root, symlinks=True, ignore=shutil.ignore_patterns("fonts"))
    for folder, _, files in os.walk(root):
        os.chmod(folder, 0o755)
        for f in files:
            os.chmod(os.path.join(folder, f), 0o644)
    yield root
    for folder, _, _ in os.walk(top):
        os.chmod(folder, 0o755)
    shutil.rmtree(top)


@pytest.mark.parametrize(
    ("locked", "mode", "message"),
    [
        ("", 0o644, "error: cannot enter the workspace '{root}': permission denied"),
        (
            "rules",
            0o000,
            "error: permission denied: '{root}/rules' (cardgen reads the workspace's folders and "
            "files, "
            "and writes in its output/)",
        ),
        pytest.param(
            "cards/clean",
            0o000,
            "error: permission denied: '{root}/cards/clean' (cardgen reads the workspace's "
            "folders and files, and writes in its output/)",
        ),
        (
            "rules/clean",
            0o000,
            "error: permission denied: '{root}/rules/clean/game.yaml' (cardgen reads the "
            "workspace's "
            "folders and files, and writes in its output/)",
        ),
    ],
)
def test_a_folder_the_user_cannot_enter_is_exit_2_in_one_line(
    open_ws: Path, locked: str, mode: int, message: str
) -> None:
    (open_ws / locked).chmod(mode)
    try:
        result = _as_other_user(["--root", str(open_ws), "validate", GAME], open_ws.parent)
    finally:
        (open_ws / locked).chmod(0o755)
    assert (result.returncode, result.stdout, result.stderr) == (
        2,
        "",
        message.format(root=open_ws) + "\n",
    )


def test_a_root_that_is_a_file_or_lies_under_one_is_exit_2(tmp_path: Path) -> None:
    plain = tmp_path / "notes.txt"
    plain.write_text("x")
    for root in (plain, plain / "ws"):
        result = CliRunner().invoke(main, ["--root", str(root), "validate", GAME])
        assert result.exit_code == 2 and "internal error" not in result.output
        assert len(result.output.strip().splitlines()[-1]) < 200


def test_template_whole_numbers_are_ascii_digits_of_a_sane_length() -> None:
    """`max_lines: "²"` passed isdigit() and then failed int(); 5,000 digits met Python's conversion
    limit."""
    from cardgen.render.values import _value_problem

    assert _value_problem("max_lines", "²") == "is '²', not a whole number"
    assert _value_problem("max_lines", "9" * 5000) == f"is {('9' * 40)!r}, not a whole number"
    assert _value_problem("max_lines", " 3 ") is None

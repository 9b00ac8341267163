"""Large card files: a file past the old 8 MB bound is read (in runs of whole cards, the same parse
as whole); a file past a bound is one located finding on that file, and the other files still
validate and print; the bound is a declared, checked setting of game.yaml (`reading:`)."""

from __future__ import annotations

import random
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from cardgen.cli.main import main
from cardgen.core.errors import Finding, Severity
from cardgen.core.workspace import Workspace
from cardgen.load import cardfile, yamlio
from cardgen.load.cardfile import load_card_file
from cardgen.load.yamlio import load_yaml

from .test_yamlio import BIG_ITEM, _shape

# one card of about 4 KB with few values: a file past 8 MB parses in about a second
LONG_CARD = "- name: Card {i}\n  cost: RR\n  text: |-\n" + ("    " + "word " * 60 + "\n") * 13


def run(ws: Workspace, *args: str):
    return CliRunner().invoke(main, ["--root", str(ws.root), *args], catch_exceptions=False)


def test_a_card_file_just_over_the_old_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "set.yaml"
    count = 8 * 1024 * 1024 // len(LONG_CARD.format(i=0)) + 20
    path.write_text("".join(LONG_CARD.format(i=i) for i in range(count)))
    assert path.stat().st_size > yamlio.MAX_FILE_BYTES  # refused before
    doc = load_card_file(path, "set.yaml")
    assert doc.findings == [] and len(doc.data) == count
    last = doc.data[count - 1]
    assert last["name"] == f"Card {count - 1}" and doc.data.item_loc(count - 1) == (
        1 + (count - 1) * LONG_CARD.count("\n"),
        3,  # a card stands where its first key does
    )
    assert last.key_loc("text") == (doc.data.item_loc(count - 1)[0] + 2, 3)


def test_pieces_parse_like_the_whole_file(tmp_path: Path, monkeypatch) -> None:
    """Seeded fuzzing: a file read in runs of whole cards (pieces shrunk to 3 KB) parses exactly as
    the whole file does (values, types, locations, findings), whether the mutant is cut or not."""
    monkeypatch.setattr(cardfile, "PIECE_BYTES", 3000)
    base = "".join(BIG_ITEM.format(i=i) for i in range(40))
    tokens = ["- ", ": ", "\n", "  ", "'", '"', "[", "]", "{", "&a ", "*a", "#", "|", "---\n"]
    rng = random.Random(35)
    cut = 0
    for n in range(40):
        text = base
        for _ in range(rng.randint(0, 4)):
            pos = rng.randrange(len(text))
            if rng.random() < 0.6:
                text = text[:pos] + rng.choice(tokens) + text[pos:]
            else:
                text = text[:pos] + text[pos + rng.randint(1, 20) :]
        path = tmp_path / f"m{n}.yaml"
        path.write_bytes(text.encode())
        whole = load_yaml(path, path.name, max_bytes=1 << 30)
        pieced = load_card_file(path, path.name)
        assert (_shape(pieced.data), pieced.findings, pieced.text) == (
            _shape(whole.data),
            whole.findings,
            whole.text,
        ), n
        cut += pieced.values > 0 and not pieced.findings
    assert cut > 10


def test_too_many_values_is_located_on_the_piece_that_passes_the_bound(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(cardfile, "PIECE_BYTES", 2000)
    monkeypatch.setattr(cardfile, "MAX_VALUES", 2000)
    path = tmp_path / "dense.yaml"
    path.write_text("- [" + ",".join(["a"] * 100) + "]\n" * 1 + ("- [a, a, a, a]\n" * 2000))
    doc = load_card_file(path, "cards/dense.yaml")
    assert doc.data is None and [(f.code, f.severity, f.column) for f in doc.findings] == [
        ("file-too-many-values", Severity.ERROR, 1)
    ]
    assert doc.findings[0].line > 300 and "more than 2,000 values" in doc.findings[0].message
    # with an anchor the file is not cut: the values are counted before a whole parse
    path.write_text("- &x [a]\n- *x\n" + "- [a, a, a, a]\n" * 2000)
    assert [(f.code, f.line) for f in load_card_file(path, "d").findings] == [
        ("file-too-many-values", 1)
    ]


def test_one_anchor_in_a_large_file_is_no_alias_bomb(tmp_path: Path, monkeypatch) -> None:
    """The alias guard counts what aliases add, not the document's own values."""
    monkeypatch.setattr(yamlio, "MAX_EXPANDED_NODES", 100)
    path = tmp_path / "cards.yaml"
    path.write_text("- &base {name: A, cost: R}\n- *base\n" + "- {name: B, cost: U}\n" * 200)
    assert load_yaml(path, "cards.yaml").findings == []
    path.write_text("- &base [a, b, c, d, e, f, g, h, i, j]\n" + "- *base\n" * 20)
    assert [f.code for f in load_yaml(path, "cards.yaml").findings] == ["alias-bomb"]


def test_a_file_past_the_bound_is_refused_and_the_others_print(scratch_ws: Workspace) -> None:
    model = scratch_ws.model_path("clean")
    model.write_text(model.read_text() + "reading:\n  card_file_mb: 1\n")
    big = scratch_ws.cards_dir("clean") / "big.yaml"
    big.write_text(
        "".join(LONG_CARD.format(i=i) for i in range(1024 * 1024 // len(LONG_CARD) + 30))
    )
    size = big.stat().st_size
    result = run(scratch_ws, "validate", "clean")
    assert result.exit_code == 1
    assert (
        f"cards/clean/big.yaml: error[file-too-large] file is {size / 1048576:.1f} MB; card files "
        "are limited to 1 MB (game.yaml `reading: card_file_mb`)" in result.output
    )
    from cardgen.project.loaded import load_game

    found = [f for f in load_game(scratch_ws, "clean").findings if f.file.endswith("big.yaml")]
    assert found == [
        Finding(
            "cards/clean/big.yaml",
            0,
            0,
            Severity.ERROR,
            "file-too-large",
            None,
            f"file is {size / 1048576:.1f} MB; card files are limited to 1 MB (game.yaml "
            "`reading: card_file_mb`)",
            "split the cards into several files, or raise `card_file_mb` under `reading:` in "
            "game.yaml, up to 512",
        )
    ]
    sheets = run(scratch_ws, "sheets", "clean")
    assert sheets.exit_code == 1, sheets.output  # the data has an error; the other cards print
    pdf = scratch_ws.root / "output" / "clean" / "sheets.pdf"
    text = "".join(page.extract_text() for page in pypdf.PdfReader(pdf).pages)
    assert "Ember Guard" in text and "Firestorm" in text and "Card 0" not in text
    # raised, the same file is read (the cache of the refusal does not hold for the new bound)
    model.write_text(model.read_text().replace("card_file_mb: 1", "card_file_mb: 2"))
    assert not [f for f in load_game(scratch_ws, "clean").findings if f.file.endswith("big.yaml")]


@pytest.mark.parametrize(
    ("value", "code", "message"),
    [
        ("0", "model-value", "reading.card_file_mb must be from 1 to 512, not 0"),
        ("600", "model-value", "reading.card_file_mb must be from 1 to 512, not 600"),
        ("lots", "model-type", "reading.card_file_mb must be a whole number, not 'lots'"),
    ],
)
def test_a_bad_bound_is_located(scratch_ws: Workspace, value: str, code: str, message: str) -> None:
    from cardgen.project.loaded import load_game

    model = scratch_ws.model_path("clean")
    lines = model.read_text().count("\n")
    model.write_text(model.read_text() + f"reading:\n  card_file_mb: {value}\n")
    loaded = load_game(scratch_ws, "clean")
    found = [f for f in loaded.findings if f.code == code]
    assert [(f.file, f.line, f.column) for f in found] == [("rules/clean/game.yaml", lines + 2, 3)]
    assert found[0].message.startswith(message)
    assert loaded.model is not None and loaded.model.card_file_mb is None  # the default holds

"""Located YAML loading: positions, duplicate keys, bad encodings, alias bombs, size limits."""

from __future__ import annotations

from pathlib import Path

from cardgen.load.yamlio import LocDict, LocList, load_yaml


def _load(tmp_path: Path, text: str | bytes, **kw: int):
    path = tmp_path / "f.yaml"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return load_yaml(path, "f.yaml", **kw)


def test_positions_of_items_and_keys(tmp_path: Path) -> None:
    doc = _load(tmp_path, "- name: A\n  cost: BB\n\n- name: B\n")
    assert isinstance(doc.data, LocList) and isinstance(doc.data[0], LocDict)
    assert doc.data.item_locs == [(1, 3), (4, 3)]
    assert doc.data[0].key_locs == {"name": (1, 3), "cost": (2, 3)}
    assert doc.findings == []


def test_duplicate_key_is_a_finding_and_first_value_wins(tmp_path: Path) -> None:
    doc = _load(tmp_path, "- name: A\n  ap: 1\n  ap: 2\n")
    assert [(f.code, f.line) for f in doc.findings] == [("duplicate-key", 3)]
    assert doc.data[0]["ap"] == 1


def test_merge_keys_and_dates_stay_plain(tmp_path: Path) -> None:
    doc = _load(tmp_path, "- &b {kind: Unit}\n- {<<: *b, name: X, printed: 2024-01-01}\n")
    assert doc.data[1] == {"kind": "Unit", "name": "X", "printed": "2024-01-01"}


def test_not_utf8_names_line_and_column(tmp_path: Path) -> None:
    doc = _load(tmp_path, b"- name: A\n- name: Caf\xe9\n")
    assert [(f.code, f.line, f.column) for f in doc.findings] == [("not-utf8", 2, 12)]


def test_empty_and_comment_only_files(tmp_path: Path) -> None:
    assert [f.code for f in _load(tmp_path, "").findings] == ["empty-file"]
    assert [f.code for f in _load(tmp_path, "# todo\n\n").findings] == ["empty-file"]


def test_syntax_error_has_its_line(tmp_path: Path) -> None:
    doc = _load(tmp_path, "- name: A\n- text: [open\n- name: C\n")
    assert doc.data is None and [(f.code, f.line) for f in doc.findings] == [("yaml-syntax", 3)]


def test_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    text = 'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
    prev = "a"
    for name in "bcdefghij":
        text += f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]\n"
        prev = name
    doc = _load(tmp_path, text)
    assert [f.code for f in doc.findings] == ["alias-bomb"] and doc.data is None


def test_recursive_alias_is_refused(tmp_path: Path) -> None:
    doc = _load(tmp_path, "a: &a [*a]\n")
    assert [f.code for f in doc.findings] in (["alias-bomb"], ["yaml-syntax"])


def test_file_too_large(tmp_path: Path) -> None:
    doc = _load(tmp_path, "- name: A\n" * 100, max_bytes=200)
    assert [f.code for f in doc.findings] == ["file-too-large"]


def _shape(value):  # type: ignore[no-untyped-def]
    """Everything a parse holds: values, their types and every location."""
    if isinstance(value, LocDict):
        return ("map", value.loc, [(k, value.key_loc(k), _shape(v)) for k, v in value.items()])
    if isinstance(value, LocList):
        return ("list", value.loc, value.item_locs, [_shape(v) for v in value])
    return (type(value).__name__, value)


BIG_ITEM = """\
# card {i}
- name: "Card {i}"   # a comment after a value
  cost: '{{{i}}}{{G}}'
  tags: [alpha, "beta {i}",
    gamma]
  text: |
    Line one of {i}.
    - not an item: a block scalar's line
  flavour: >-
    folded {i}
    text
  note: "a quoted
    multi-line {i}"
  stats: {{power: {i}, toughness: 2}}
-
  name: Bare {i}
- plain scalar {i}
"""


def test_a_large_card_file_parsed_in_two_pieces_equals_one_parse(
    tmp_path: Path, monkeypatch
) -> None:
    """cards._load_all cuts a large file into two runs of whole items parsed apart: the parse
    (values, types, locations, findings) is the whole file's, and a file it must not cut, or whose
    piece has a mistake, is parsed whole (same findings)."""
    from cardgen.load import cards
    from cardgen.load.yamltext import sequence_pieces

    monkeypatch.setattr(cards, "PARALLEL_BYTES", 2000)
    good = "".join(BIG_ITEM.format(i=i) for i in range(60))
    cases = {
        "good": good,
        "error-late": good + "- name: [unclosed\n",
        "duplicate-late": good + "- name: A\n  name: B\n",
        "anchors": "- &base {name: A}\n" + good + "- *base\n",
        "not-a-list": "name: A\n" + good.replace("- ", "  x: ", 1),
        "marker": good + "---\n- name: B\n",
        "crlf": good.replace("\n", "\r\n"),  # cut: "\r\n" is one line break either way
        "cr-only": good.replace(
            "\n", "\r"
        ),  # not cut (this one crashed the cutter): YAML counts lines "\n" does not
        "nel": good.replace("Line one", "Line\x85one"),
        "u2028": good.replace("\n# card 3", "\u2028# card 3"),
    }
    for name, text in cases.items():
        path = tmp_path / f"{name}.yaml"
        path.write_bytes(text.encode())
        whole = load_yaml(path, path.name)
        split = cards._load_all([path], tmp_path)[0]
        assert _shape(split.data) == _shape(whole.data), name
        assert (
            split.findings == whole.findings and split.text == whole.text and split.path == path
        ), name
    assert len(sequence_pieces(good, 2) or []) == 2  # it was cut
    assert (
        sequence_pieces(cases["anchors"], 2) is None and sequence_pieces(cases["marker"], 2) is None
    )
    assert sequence_pieces(cases["crlf"], 2) and not any(
        sequence_pieces(cases[k], 2) for k in ("cr-only", "nel", "u2028")
    )
    assert [line for line, _ in sequence_pieces(good, 2) or []][0] == 1


def test_cutting_in_pieces_never_changes_the_parse_of_a_mutated_file(
    tmp_path: Path, monkeypatch
) -> None:
    """Seeded fuzzing: YAML tokens inserted, text deleted and lines moved in a large card file; the
    parse in two pieces equals the whole parse every time, whether the mutant is cut, refused or
    broken (1,100 mutants by hand before committing, 60 here)."""
    import random

    from cardgen.load import cards
    from cardgen.load.yamltext import sequence_pieces

    monkeypatch.setattr(cards, "PARALLEL_BYTES", 2000)
    asked: list[int] = []
    real = cards.sequence_pieces
    monkeypatch.setattr(cards, "sequence_pieces", lambda text, n: asked.append(n) or real(text, n))
    rng = random.Random(20261201)
    base = "".join(BIG_ITEM.format(i=i) for i in range(40))
    tokens = [
        "- ",
        "-",
        "\n",
        "  ",
        ":",
        "'",
        '"',
        "[",
        "]",
        "{",
        "}",
        "#",
        "|",
        ">",
        "---\n",
        "&a ",
        "*a",
        "\t",
        "? ",
        ",",
        "!!str ",
        "%YAML 1.1\n",
        "\n- ",
        "\n  - ",
        "\r",
        "\r\n- ",
        "\u2028",
    ]
    cut = 0
    for n in range(60):
        text = base
        for _ in range(rng.randint(1, 6)):
            pos = rng.randrange(len(text))
            op = rng.random()
            if op < 0.4:
                text = text[:pos] + rng.choice(tokens) + text[pos:]
            elif op < 0.7:
                text = text[:pos] + text[pos + rng.randint(1, 20) :]
            else:
                lines = text.split("\n")
                lines.insert(rng.randrange(len(lines)), lines.pop(rng.randrange(len(lines))))
                text = "\n".join(lines)
        path = tmp_path / f"m{n}.yaml"
        path.write_bytes(text.encode())
        whole = load_yaml(path, path.name)
        split = cards._load_all([path], tmp_path)[0]
        assert (_shape(split.data), split.findings, split.text) == (
            _shape(whole.data),
            whole.findings,
            whole.text,
        ), n
        cut += sequence_pieces(text, 2) is not None
    assert (
        cut > 40 and len(asked) == 60
    )  # most mutants were cut, on the parallel path (no other thread ran)

"""Located YAML loading: positions, duplicate keys, bad encodings, alias bombs, size limits."""
from __future__ import annotations

from pathlib import Path

from cardgen.yamlio import LocDict, LocList, load_yaml


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

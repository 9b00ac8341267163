"""The face cache's table file (speed.cachetable): written part after part, read a value at a time,
and anything but this user's whole table read as no table."""

from __future__ import annotations

import marshal
from pathlib import Path

import pytest

from cardgen.speed import cache, cachetable

pytestmark = pytest.mark.usefixtures("own_cache_key")  # tests/conftest.py


def _put(folder: Path, values: dict[str, bytes]) -> bool:
    sizes = [(k, len(v)) for k, v in values.items()]
    return cachetable.put_table(folder, "t-1", {"format": 1}, sizes, iter(values.values()))


def test_a_table_reads_back_each_value_where_it_was_written(tmp_path: Path) -> None:
    values = {"a": b"one", "b": b"", "c": marshal.dumps((1, "two", 3.0))}
    assert _put(tmp_path, values)
    table = cachetable.open_table(tmp_path, "t-1")
    assert table is not None and table.meta == {"format": 1}
    assert [(k, table.at(p)) for k, p in table.places] == list(values.items())
    table.close()


def test_a_value_of_another_length_than_its_header_says_keeps_nothing(tmp_path: Path) -> None:
    parts = iter([b"four", b"xx"])
    assert not cachetable.put_table(tmp_path, "t-1", None, [("a", 4), ("b", 3)], parts)
    assert not (tmp_path / "t-1").exists()


def test_a_damaged_foreign_or_renamed_table_is_no_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _put(tmp_path, {"a": b"one", "b": b"two"})
    good = (tmp_path / "t-1").read_bytes()
    for bad in (good[:-1] + bytes([good[-1] ^ 1]), good[: len(good) // 2], good[:-40] + good[-32:]):
        (tmp_path / "t-1").write_bytes(bad)
        assert cachetable.open_table(tmp_path, "t-1") is None
    (tmp_path / "t-2").write_bytes(good)  # signed under another name
    assert cachetable.open_table(tmp_path, "t-2") is None
    (tmp_path / "t-1").write_bytes(good)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-user"))
    cache.user_key.cache_clear()
    assert cachetable.open_table(tmp_path, "t-1") is None


def test_backed_values_come_from_the_table_the_spill_or_memory(tmp_path: Path) -> None:
    assert _put(tmp_path, {"a": marshal.dumps("from the table")})
    table = cachetable.open_table(tmp_path, "t-1")
    assert table is not None
    spill = cachetable.Spill(tmp_path)
    held = cachetable.Backed(table, dict(table.places), spill)
    held["b"] = ("spilled", 2)
    assert dict.__getitem__(held, "b") < 0  # its place in the spill, not its bytes
    assert held["a"] == "from the table" and held.get("b") == ("spilled", 2)
    assert held.size("b") == len(marshal.dumps(("spilled", 2)))
    assert held.get("c", 7) == 7
    alone = cachetable.Backed(None, None, cachetable.Spill(None))  # no folder: held in memory
    alone["x"] = [1]
    assert alone["x"] == [1] and dict.__getitem__(alone, "x") == marshal.dumps([1])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t-1", "user-cache"]  # spill: no name
    spill.close()
    table.close()

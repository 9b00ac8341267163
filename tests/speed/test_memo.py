"""speed.memo: the one bounded memo, the only one in cardgen, off with the speed machinery."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardgen.speed.cache import set_enabled
from cardgen.speed.memo import Memo, memo

PKG = Path(__file__).resolve().parents[2] / "cardgen"


def test_a_memo_keeps_its_answers_bounded_least_recently_used_first() -> None:
    made: list[str] = []
    kept: Memo[str] = Memo(2)

    def make(key: str):  # type: ignore[no-untyped-def]
        return lambda: made.append(key) or key.upper()

    assert [kept.get(k, make(k)) for k in ("a", "b", "a", "c", "a", "b")] == list("ABACAB")
    assert made == ["a", "b", "c", "b"]  # 'b' was the least recently used when 'c' came
    assert len(kept) == 2
    kept.clear()
    assert kept.get("a", make("a")) == "A" and made[-1] == "a"
    with pytest.raises(ValueError):
        Memo(0)


def test_a_memo_bounded_by_weight_drops_the_oldest_until_it_fits() -> None:
    kept: Memo[int] = Memo(10, weigh=lambda key, value: len(key))
    for key in ("aaaa", "bbbb", "cc", "dddd"):  # 4 + 4 + 2 + 4 > 10: 'aaaa' goes
        kept.get(key, lambda: 1)
    assert kept.weight == 10 and list(kept._kept) == ["bbbb", "cc", "dddd"]
    assert kept.get("x" * 11, lambda: 2) == 2 and "x" * 11 not in kept._kept  # heavier than all
    kept.clear()
    assert kept.weight == 0 and len(kept) == 0


def test_the_decorator_keeps_answers_by_argument_and_its_type() -> None:
    calls: list[object] = []

    @memo(4, typed=True)
    def double(x: object) -> object:
        calls.append(x)
        return x * 2  # type: ignore[operator]

    assert [double(2), double(2), double(True), double(2.0)] == [4, 4, 2, 4.0]
    assert calls == [2, True, 2.0]  # True is not 1, nor 2.0 2
    double.cache_clear()  # type: ignore[attr-defined]
    assert double(2) == 4 and calls[-1] == 2


def test_no_cache_turns_every_memo_off_but_the_pathological_ones() -> None:
    calls: list[str] = []

    @memo(8)
    def plain(x: str) -> str:
        calls.append(f"plain {x}")
        return x

    @memo(1, always=True)
    def constant() -> str:
        calls.append("constant")
        return "c"

    kept: Memo[str] = Memo(8)
    try:
        set_enabled(False)
        for _ in range(2):
            plain("x"), constant(), kept.get("k", lambda: calls.append("memo") or "v")
        assert calls == ["plain x", "constant", "memo", "plain x", "memo"]
        assert len(kept) == 0  # nothing remembered while off
    finally:
        set_enabled(True)
    calls.clear()
    for _ in range(2):
        plain("x"), constant(), kept.get("k", lambda: calls.append("memo") or "v")
    assert calls == ["plain x", "memo"]


def test_every_memo_of_the_package_is_a_speed_memo() -> None:
    """No functools memo (lru_cache, cache, cached_property) outside speed/: one door, bounded and
    off with --no-cache. (Module-level dictionaries kept as memos are found in review: the ones
    there were went to speed.memo.)"""
    memos = {"lru_cache", "cache", "cached_property"}
    hits = []
    for path in sorted(PKG.rglob("*.py")):
        if path.relative_to(PKG).parts[0] == "speed":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "functools":
                used = memos & {a.name for a in node.names}
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "functools"
            ):
                used = memos & {node.attr}
            else:
                continue
            hits += [f"{path.relative_to(PKG)}:{node.lineno}: {name}" for name in sorted(used)]
    assert hits == []

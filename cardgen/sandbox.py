"""Turn Jinja2 templates from a workspace into sandboxed renders, with limits on sizes, powers and loop ranges.

Every template cardgen renders comes from a workspace that may not be the user's own (a shared game
repository): card templates, `--only` expressions, gallery and rulebook pages. Jinja2's sandbox blocks
reaching for Python internals; these limits keep an expression such as `'x' * 10**9` from taking the
machine's memory. Anything over a limit raises SecurityError, which callers report as a finding or a
one-line error.
"""
from __future__ import annotations

import math
import operator
import os
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader, select_autoescape
from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEnvironment

MAX_TEXT = 100_000  # characters (or items) one operation may build
MAX_POWER_BITS = 4_096  # an integer power larger than this many bits is refused
MAX_RANGE = 10_000  # items a range() may give

_BINOPS = {"*": operator.mul, "**": operator.pow, "+": operator.add, "//": operator.floordiv, "/": operator.truediv,
           "%": operator.mod, "-": operator.sub}


def _size(value: Any) -> int:
    return len(value) if isinstance(value, (str, list, tuple)) else 0


class LimitedSandbox(SandboxedEnvironment):
    """Jinja2's sandbox, with bounded multiplication, powers, concatenation and ranges."""

    intercepted_binops = frozenset({"*", "**", "+"})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.globals["range"] = _range

    def call_binop(self, context: Any, operator_name: str, left: Any, right: Any) -> Any:
        if operator_name == "*":
            for seq, times in ((left, right), (right, left)):
                if _size(seq) and isinstance(times, int) and _size(seq) * max(times, 0) > MAX_TEXT:
                    raise SecurityError(f"a template builds text longer than {MAX_TEXT:,} characters")
        elif operator_name == "**":
            if isinstance(left, int) and isinstance(right, int) and right > 0 and abs(left) > 1 \
                    and right * math.log2(abs(left)) > MAX_POWER_BITS:
                raise SecurityError(f"a template computes a number larger than 2**{MAX_POWER_BITS}")
        elif operator_name == "+" and _size(left) + _size(right) > MAX_TEXT:
            raise SecurityError(f"a template builds text longer than {MAX_TEXT:,} characters")
        return _BINOPS[operator_name](left, right)


def _range(*args: int) -> range:
    rng = range(*args)
    if len(rng) > MAX_RANGE:
        raise SecurityError(f"a template asks for a range of {len(rng):,} items (at most {MAX_RANGE:,})")
    return rng


_PAGES: dict[tuple, LimitedSandbox] = {}


def page_environment(folders: list[Path], html_only: bool = False) -> LimitedSandbox:
    """A sandbox loading page templates from the first of `folders` (those that exist) holding each name,
    autoescaped (`html_only`: only .html and .j2 files). Kept for the process while the folders hold the same
    files, so a live rebuild does not compile its pages again (Jinja2 reloads a template whose file changed)."""
    search = [str(p) for p in folders if p.is_dir()]
    key = (html_only, *((folder, tuple(sorted(os.listdir(folder)))) for folder in search))
    env = _PAGES.get(key)
    if env is None:
        if len(_PAGES) > 32:
            _PAGES.clear()
        env = _PAGES[key] = LimitedSandbox(loader=FileSystemLoader(search),
                                           autoescape=select_autoescape(["html", "j2"]) if html_only else True)
    return env

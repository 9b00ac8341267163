"""Turn Python's string builders, %-formats, str.format and Jinja2's filters into bounded ones: each
predicts the size of what it would build and refuses (BudgetError) one over the render's budget
before making it."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from string import Formatter
from typing import Any, Callable

from jinja2.filters import make_attrgetter
from jinja2.runtime import Namespace
from jinja2.sandbox import SandboxedEscapeFormatter, SandboxedFormatter
from jinja2.utils import generate_lorem_ipsum, pass_context, pass_environment

from .sandbox_budget import Budget, BudgetError, budget_of


def _arg(args: tuple, kwargs: dict, index: int, name: str, default: Any = None) -> Any:
    return args[index] if len(args) > index else kwargs.get(name, default)


def _whole(value: Any, cap: int) -> int:
    """A width, count or length argument as a whole number (what Python would refuse stays for
    Python to refuse)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return 0
    return max(value, 0) if value <= cap else cap + 1


def _text(budget: Budget, value: Any) -> int:
    return len(value) if isinstance(value, (str, bytes)) else budget.weigh(value)


def _source(budget: Budget, value: Any) -> str:
    """A filter's value as the text it will work on, refused when it is already over one operation's
    limit."""
    if _text(budget, value) > budget.limits.text:
        raise BudgetError(f"a template works on text longer than {budget.limits.text:,} characters")
    return value if isinstance(value, str) else str(value)


def _items_text(budget: Budget, items: Any) -> int:
    return len(items) if isinstance(items, (str, bytes)) else sum(_text(budget, x) for x in items)


def listed(budget: Budget, value: Any) -> Any:
    """An iterable as a list or sequence of known length (an iterator is taken up to the limit)."""
    if isinstance(value, (list, tuple, str, bytes, Mapping, range)):
        return value
    items = list(itertools.islice(iter(value), budget.limits.text + 1))
    if len(items) > budget.limits.text:
        raise BudgetError(
            f"a template builds a value larger than {budget.limits.text:,} characters or items"
        )
    return items


def replaced_size(text: Any, old: Any, new: Any, count: Any = -1) -> int:
    """The length str.replace would give, without making it."""
    if not isinstance(old, type(text)) or not isinstance(new, type(text)):
        return len(text)
    hits = len(text) + 1 if not old else text.count(old)
    if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
        hits = min(hits, count)
    return len(text) + hits * max(len(new) - len(old), 0)


def method_args(budget: Budget, owner: Any, name: str, args: tuple, kwargs: dict) -> tuple:
    """Check a call of a str, bytes or int method that builds something: refuse one over the limit
    before Python makes it. Returns the arguments to call it with (an iterator to join is taken into
    a list first)."""
    cap = budget.limits.text
    if isinstance(owner, int):
        if name == "to_bytes":
            budget.expect(_whole(_arg(args, kwargs, 0, "length", 1), cap))
        return args
    if not isinstance(owner, (str, bytes)):
        return args
    budget.step(len(owner) // 64)
    if name in ("center", "ljust", "rjust", "zfill"):
        budget.expect(max(len(owner), _whole(_arg(args, kwargs, 0, "width", 0), cap)))
    elif name == "expandtabs":
        tab: Any = "\t" if isinstance(owner, str) else b"\t"
        budget.expect(
            len(owner) + owner.count(tab) * _whole(_arg(args, kwargs, 0, "tabsize", 8), cap)
        )
    elif name == "replace" and len(args) >= 2:
        budget.expect(replaced_size(owner, args[0], args[1], _arg(args, kwargs, 2, "count", -1)))
    elif name == "join" and args:
        items = listed(budget, args[0])
        budget.expect(_items_text(budget, items) + max(len(items) - 1, 0) * len(owner))
        args = (items, *args[1:])
    elif name == "translate" and args and isinstance(args[0], (Mapping, list, tuple)):
        table = args[0]
        budget.weigh(table)
        widest = max(
            (
                len(v)
                for v in (table.values() if isinstance(table, Mapping) else table)
                if isinstance(v, (str, bytes))
            ),
            default=1,
        )
        budget.expect(len(owner) * max(widest, 1))
    elif name in ("encode", "hex", "upper", "lower", "title", "swapcase", "casefold", "capitalize"):
        budget.expect(len(owner) * 3)
    return args


def percent_size(budget: Budget, fmt: str | bytes, values: Any) -> int:
    """About the length `fmt % values` would have: its text, each field's width and precision, and
    each value printed. Follows Python's own reading of a %-spec (a (key) with nested brackets,
    flags, width, precision)."""
    cap = budget.limits.text
    text = fmt.decode("latin-1") if isinstance(fmt, bytes) else fmt
    positional = list(values) if isinstance(values, tuple) else [values]
    mapping = values if isinstance(values, Mapping) else None
    size, index, at, n = len(text), 0, text.find("%"), len(text)
    while 0 <= at < n - 1:
        i, key = at + 1, None
        if text[i] == "(":
            depth, start = 1, i + 1
            while i + 1 < n and depth:
                i += 1
                depth += {"(": 1, ")": -1}.get(text[i], 0)
            key, i = text[start:i], i + 1
        while i < n and text[i] in "-+ #0":
            i += 1
        for part in ("width", "precision"):
            if part == "precision":
                if i >= n or text[i] != ".":
                    break
                i += 1
            if i < n and text[i] == "*":
                star = positional[index] if index < len(positional) else 0
                size += _whole(star, cap) if isinstance(star, int) else 0
                index, i = index + 1, i + 1
            else:
                start = i
                while i < n and text[i].isdigit():
                    i += 1
                if i - start > 9:
                    return cap + 1
                size += int(text[start:i] or 0)
        while i < n and text[i] in "hlL":
            i += 1
        if i < n and text[i] != "%":
            if key is not None and mapping is not None:
                value = mapping.get(key)
            else:
                value, index = (positional[index] if index < len(positional) else None), index + 1
            size += _text(budget, value)
        if size > cap:
            return size
        at = text.find("%", i + 1)
    return size


class _Bounded(Formatter):
    """str.format with each field's width checked and the whole result counted as it is made."""

    budget: Budget
    made = 0

    def format_field(self, value: Any, format_spec: str) -> Any:
        cap = self.budget.limits.text
        digits = "".join(c if c.isdigit() else " " for c in format_spec).split()
        size = _text(self.budget, value) + sum(int(d) if len(d) <= 9 else cap + 1 for d in digits)
        self.made += size  # what the call gives back is counted as built by the caller
        if self.made > cap:
            raise BudgetError(f"a template builds text longer than {cap:,} characters")
        return super().format_field(value, format_spec)


class BoundedFormatter(_Bounded, SandboxedFormatter):
    pass


class BoundedEscapeFormatter(_Bounded, SandboxedEscapeFormatter):
    pass


class BoundedNamespace(Namespace):
    """Jinja2's namespace, printed as a word: what it holds is never reached by printing, comparing
    or hashing it, so changing its attributes cannot make a list that holds it larger than it was
    measured."""

    def __repr__(self) -> str:
        return "<namespace>"


def _shown(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else repr(value)[:20]


@pass_context
def lipsum(context: Any, n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:  # noqa: A002
    """Jinja2's lipsum(), refused when it would give more than a tenth of one operation's limit."""
    cap = budget_of(context).limits.text
    if _whole(n, cap) * _whole(max, cap) > cap // 10:
        raise BudgetError(
            f"lipsum() of {_shown(n)} paragraphs of up to {_shown(max)} words is more than a "
            "template may build"
        )
    return generate_lorem_ipsum(n, html, min, max)


@pass_environment
def linear_sum(environment: Any, iterable: Any, attribute: Any = None, start: Any = 0) -> Any:
    """Jinja2's sum, adding lists in one pass (sum() copies the total at each item: quadratic)."""
    if attribute is not None:
        iterable = map(make_attrgetter(environment, attribute), iterable)
    if not isinstance(start, (list, tuple)):
        return sum(iterable, start)
    out = list(start)
    for item in iterable:
        out.extend(item)
    return tuple(out) if isinstance(start, tuple) else out


# each filter that builds text, checked before it runs: (budget, value, args, kwargs) -> None, or
# the value to use
def _center(b: Budget, v: Any, a: tuple, k: dict) -> Any:
    b.expect(max(len(_source(b, v)), _whole(_arg(a, k, 0, "width", 80), b.limits.text)))


def _indent(b: Budget, v: Any, a: tuple, k: dict) -> Any:
    width, text = _arg(a, k, 0, "width", 4), _source(b, v)
    pad = len(width) if isinstance(width, str) else _whole(width, b.limits.text)
    b.expect(len(text) + (text.count("\n") + 1) * pad)


def _wordwrap(b: Budget, v: Any, a: tuple, k: dict) -> Any:
    text, wrap = _source(b, v), _arg(a, k, 2, "wrapstring", None)
    width = max(_whole(_arg(a, k, 0, "width", 79), b.limits.text), 1)
    lines = len(text) // width + len(text.split()) + text.count("-") + 1
    b.expect(len(text) + lines * max(len(wrap) if isinstance(wrap, str) else 1, 1))


def _format(b: Budget, v: Any, a: tuple, k: dict) -> Any:
    b.expect(percent_size(b, _source(b, v), k or a))


def _replace(b: Budget, v: Any, a: tuple, k: dict) -> Any:
    old, new = _arg(a, k, 0, "old", ""), _arg(a, k, 1, "new", "")
    b.expect(replaced_size(_source(b, v), str(old), str(new), _arg(a, k, 2, "count", None)))


def _join(b: Budget, v: Any, a: tuple, k: dict) -> Any:
    items = listed(b, v)
    b.expect(_items_text(b, items) + max(len(items) - 1, 0) * _text(b, _arg(a, k, 0, "d", "")))
    return items


def _count(name: str) -> Callable[[Budget, Any, tuple, dict], Any]:
    def check(b: Budget, v: Any, a: tuple, k: dict) -> Any:
        b.expect(_whole(_arg(a, k, 0, name, 1), b.limits.text))

    return check


def _tojson(b: Budget, v: Any, a: tuple, k: dict) -> Any:
    indent = _arg(a, k, 0, "indent", None)
    if (len(indent) if isinstance(indent, str) else _whole(indent, 100)) > 64:
        raise BudgetError("tojson() indents by more than 64 characters")
    b.weigh(v)


def _urlize(b: Budget, v: Any, a: tuple, k: dict) -> Any:
    text = len(_source(b, v))
    extra = sum(len(str(_arg(a, k, i, key, "") or "")) for i, key in ((2, "target"), (3, "rel")))
    b.expect((text // 5 + 1) * extra)


def _weighed(b: Budget, v: Any, a: tuple, k: dict) -> Any:
    b.weigh(v)


def _summed(b: Budget, v: Any, a: tuple, k: dict) -> Any:
    if isinstance(_arg(a, k, 1, "start", 0), (list, tuple)):
        items = listed(b, v)
        b.expect(_items_text(b, items))
        return items
    return None


CHECKS: dict[str, Callable[[Budget, Any, tuple, dict], Any]] = {
    "center": _center,
    "indent": _indent,
    "wordwrap": _wordwrap,
    "format": _format,
    "replace": _replace,
    "join": _join,
    "batch": _count("linecount"),
    "slice": _count("slices"),
    "tojson": _tojson,
    "urlize": _urlize,
    "sum": _summed,
    "truncate": _weighed,
    "string": _weighed,
    "pprint": _weighed,
    "xmlattr": _weighed,
}


def bounded_filters(filters: dict[str, Any]) -> dict[str, Any]:
    """Every filter counted as a step (and by the size of what it works on) and its result measured;
    those that build text checked before they run."""
    out = {name: _bounded(func, CHECKS.get(name)) for name, func in filters.items()}
    out["sum"] = _bounded(linear_sum, _summed)
    return out


_SIZED = (str, bytes, list, tuple, dict)
_FIRST: dict[
    Any, Callable[[Any], Any]
] = {  # what a filter marked pass_context (and so on) is given first
    "context": lambda context: context,
    "eval_context": lambda context: context.eval_ctx,
    "environment": lambda context: context.environment,
}


def _bounded(func: Any, check: Any) -> Any:
    first = _FIRST.get(getattr(getattr(func, "jinja_pass_arg", None), "name", None))

    @pass_context
    def run(context: Any, value: Any, *args: Any, **kwargs: Any) -> Any:
        budget = budget_of(context)
        budget.step(1 + len(value) // 64 if isinstance(value, _SIZED) else 1)
        if check is not None:
            checked = check(budget, value, args, kwargs)
            value = value if checked is None else checked
        if first is None:
            return budget.result(func(value, *args, **kwargs))
        return budget.result(func(first(context), value, *args, **kwargs))

    run.__name__ = getattr(func, "__name__", "filter")
    run.__doc__ = func.__doc__
    return run

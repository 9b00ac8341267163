"""Turn Jinja2 templates from a workspace into sandboxed renders on a budget: sizes, steps, loops,
depth, time.

Every template cardgen renders comes from a workspace that may not be the user's own (a shared game
repository): card templates, `--only` expressions, gallery and rulebook pages. Jinja2's sandbox
blocks reaching for Python internals; the budget (sandbox_budget.Limits) keeps a template from
taking the machine's memory or time: every string builder, format, filter and operator that could
make something large is refused before it makes it, output is counted, loop turns and calls are
counted, macros may not recurse without end, and containers cannot be changed in place (so a list
measured once stays that size). Anything over budget raises BudgetError (a SecurityError), which
callers report as a `template-budget` finding or a one-line error.
"""

from __future__ import annotations

import math
import operator
import os
from pathlib import Path
from typing import Any, Iterator

from jinja2 import FileSystemLoader, Template, nodes, select_autoescape
from jinja2.compiler import CodeGenerator, Frame, optimizeconst
from jinja2.runtime import Context, LoopContext, Undefined, markup_join, str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import pass_context
from markupsafe import Markup

from ..speed.memo import Memo
from .sandbox_bounds import (
    BoundedEscapeFormatter,
    BoundedFormatter,
    BoundedNamespace,
    bounded_filters,
    lipsum,
    method_args,
    percent_size,
)
from .sandbox_budget import CARD, MAX_POWER_BITS, PAGE, Budget, BudgetError, Limits, budget_of

__all__ = [
    "BUDGET",
    "CARD",
    "PAGE",
    "Budget",
    "BudgetError",
    "LimitedSandbox",
    "Limits",
    "page_environment",
]

COUNTED = "cardgen counted"  # the filter counting a loop's turns
# the key of a render's variables that carries a shared Budget (no template can name it)
BUDGET = "cardgen budget"

_BINOPS = {"*": operator.mul, "**": operator.pow, "+": operator.add, "%": operator.mod}
_SEQUENCES = (str, bytes, list, tuple)
_PLAIN = frozenset(
    {str, int, float, bool, type(None), Markup}
)  # printed as they are: measured by the output


class BudgetContext(Context):
    """A render's context, carrying its Budget: the one its variables hand over (a face's values
    share one: the caller opens each render's share with Budget.start), else a new one."""

    def __init__(
        self,
        environment: Any,
        parent: dict[str, Any],
        name: str | None,
        blocks: dict[str, Any],
        globals: Any = None,
    ) -> None:  # noqa: A002
        super().__init__(environment, parent, name, blocks, globals)
        budget = parent.get(BUDGET)
        if (
            budget.__class__ is not Budget
        ):  # a render of its own: its includes and derived contexts share it
            budget = parent[BUDGET] = Budget(getattr(environment, "limits", CARD))
        self.budget = budget


class Counted:
    """A loop's iterable, each turn counted."""

    __slots__ = ("_items", "_iterator", "_budget")

    def __init__(self, items: Any, budget: Budget) -> None:
        self._items, self._iterator, self._budget = items, iter(items), budget

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        item = next(self._iterator)
        self._budget.loop()
        return item

    def __len__(self) -> int:
        return len(self._items)


class BudgetCodeGenerator(CodeGenerator):
    """Jinja2's code generator, with loop turns counted, and `~` and list, tuple and dict displays
    measured."""

    def visit_Template(self, node: nodes.Template, frame: Frame | None = None) -> None:
        for loop in list(
            node.find_all(nodes.For)
        ):  # each loop's iterable through the filter no template can name
            if not (isinstance(loop.iter, nodes.Filter) and loop.iter.name == COUNTED):
                loop.iter = nodes.Filter(
                    loop.iter, COUNTED, [], [], None, None, lineno=loop.iter.lineno
                )
        super().visit_Template(node, frame)

    @optimizeconst
    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        markup = (
            "context.eval_ctx.volatile"
            if frame.eval_ctx.volatile
            else str(bool(frame.eval_ctx.autoescape))
        )
        self.write(f"environment.joined(context, {markup}, (")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")

    def _measured(self, visit: Any, node: nodes.Expr, frame: Frame) -> None:
        try:
            node.as_const(frame.eval_ctx)  # written out in the template: as large as its source
        except Exception:
            self.write("environment.weighed(context, ")
            visit(node, frame)
            self.write(")")
            return
        visit(node, frame)

    def visit_List(self, node: nodes.List, frame: Frame) -> None:
        self._measured(super().visit_List, node, frame)

    def visit_Dict(self, node: nodes.Dict, frame: Frame) -> None:
        self._measured(super().visit_Dict, node, frame)

    def visit_Tuple(self, node: nodes.Tuple, frame: Frame) -> None:
        if node.ctx == "load":
            self._measured(super().visit_Tuple, node, frame)
        else:
            super().visit_Tuple(node, frame)


class BudgetTemplate(Template):
    """A template whose render turns endless inclusion into a BudgetError (Python's recursion limit
    stops it)."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        try:
            return super().render(*args, **kwargs)
        except RecursionError:  # templates including or extending each other without end
            raise BudgetError("templates include, extend or call each other too deeply") from None


@pass_context
def _counted(context: Any, items: Any) -> Counted:
    """The filter every `{% for %}`'s iterable goes through (BudgetCodeGenerator puts it there)."""
    return Counted(items, budget_of(context))


@pass_context
def _finalize(context: Any, value: Any) -> Any:
    """What a `{{ }}` prints is measured before it is turned into text (a list printed is its items'
    text)."""
    if type(value) not in _PLAIN and not isinstance(value, Undefined):
        budget_of(context).weigh(value)
    return value


class LimitedSandbox(ImmutableSandboxedEnvironment):
    """Jinja2's sandbox (containers unchangeable), on a budget: see the module's docstring and
    sandbox_bounds."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})
    code_generator_class = BudgetCodeGenerator
    context_class = BudgetContext
    template_class = BudgetTemplate

    def __init__(self, *args: Any, limits: Limits = CARD, **kwargs: Any) -> None:
        kwargs.setdefault("finalize", _finalize)
        super().__init__(*args, **kwargs)
        self.limits = limits
        self.globals.update(range=self._range, lipsum=lipsum, namespace=BoundedNamespace)
        self.filters = bounded_filters(self.filters)
        self.filters[COUNTED] = _counted

    def concat(self, chunks: Any) -> str:  # type: ignore[override]
        """A render's output, and each macro's, block's and `{% set %}` block's, counted as it is
        joined."""
        if type(chunks) is not list:
            chunks = list(
                chunks
            )  # a render's output: each part is within limits, and their count within steps
        if sum(map(len, chunks)) > self.limits.text:
            raise BudgetError(f"a template builds text longer than {self.limits.text:,} characters")
        return "".join(chunks)

    def weighed(self, context: Any, value: Any) -> Any:
        budget_of(context).weigh(value)
        return value

    def joined(self, context: Any, markup: bool, parts: tuple) -> str:
        """`a ~ b`: its parts measured first, then the text it makes."""
        budget = budget_of(context)
        budget.step()
        budget.expect(sum(len(p) if isinstance(p, str) else budget.weigh(p) for p in parts))
        joined = (markup_join if markup else str_join)(parts)
        if len(joined) > self.limits.text:
            raise BudgetError(f"a template builds text longer than {self.limits.text:,} characters")
        return joined

    def _range(self, *args: int) -> range:
        rng = range(*args)
        if len(rng) > self.limits.loops:
            raise BudgetError(
                f"a template asks for a range of {len(rng):,} items (at most {self.limits.loops:,})"
            )
        return rng

    def call_binop(self, context: Any, operator_name: str, left: Any, right: Any) -> Any:
        budget = budget_of(context)
        budget.step()
        if operator_name == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, _SEQUENCES) and isinstance(times, int):
                    budget.expect(
                        (len(seq) if isinstance(seq, (str, bytes)) else budget.weigh(seq))
                        * max(times, 0)
                    )
            if (
                isinstance(left, int)
                and isinstance(right, int)
                and left.bit_length() + right.bit_length() > MAX_POWER_BITS
            ):
                raise BudgetError(f"a template computes a number larger than 2**{MAX_POWER_BITS}")
        elif operator_name == "**":
            if (
                isinstance(left, int)
                and isinstance(right, int)
                and right > 0
                and abs(left) > 1
                and right * math.log2(abs(left)) > MAX_POWER_BITS
            ):
                raise BudgetError(f"a template computes a number larger than 2**{MAX_POWER_BITS}")
        elif (
            operator_name == "+" and isinstance(left, _SEQUENCES) and isinstance(right, _SEQUENCES)
        ):
            budget.expect(budget.weigh(left) + budget.weigh(right))
        elif operator_name == "%" and isinstance(left, (str, bytes)):
            budget.expect(percent_size(budget, left, right))
            made = left % right
            if len(made) > self.limits.text:
                raise BudgetError(
                    f"a template builds text longer than {self.limits.text:,} characters"
                )
            return made
        return _BINOPS[operator_name](left, right)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        budget = budget_of(__context)
        budget.step()
        owner = getattr(__obj, "__self__", None)
        if isinstance(owner, (str, bytes, int)) and hasattr(__obj, "__name__"):
            args = method_args(budget, owner, __obj.__name__, args, kwargs)
        elif isinstance(__obj, LoopContext) and args:  # a recursive loop's next level
            args = (Counted(args[0], budget), *args[1:])
        budget.enter()
        try:
            result = super().call(__context, __obj, *args, **kwargs)
        finally:
            budget.depth -= 1
        return budget.result(result)

    def wrap_str_format(self, value: Any) -> Any:
        """str.format and str.format_map, with each field's width and the result's length within
        budget."""
        plain = super().wrap_str_format(value)
        if plain is None:
            return None
        text, is_map = value.__self__, value.__name__ == "format_map"
        environment = self

        @pass_context
        def bounded(context: Any, *args: Any, **kwargs: Any) -> str:
            formatter = (
                BoundedEscapeFormatter(environment, escape=text.escape)
                if hasattr(text, "__html__")
                else BoundedFormatter(environment)
            )
            formatter.budget = budget_of(context)
            formatter.budget.weigh(args)
            formatter.budget.weigh(kwargs)
            positional, named = args, kwargs
            if is_map:
                if kwargs or len(args) != 1:
                    raise TypeError("format_map() takes exactly one argument")
                positional, named = (), args[0]
            return type(text)(formatter.vformat(text, positional, named))

        return bounded


_PAGES: Memo[LimitedSandbox] = Memo(32)


def page_environment(folders: list[Path], html_only: bool = False) -> LimitedSandbox:
    """A sandbox loading page templates from the first of `folders` (those that exist) holding each
    name, autoescaped (`html_only`: only .html and .j2 files), on a page's budget. Kept for the
    process while the folders hold the same files, so a live rebuild does not compile its pages
    again (Jinja2 reloads a template whose file changed)."""
    search = [str(p) for p in folders if p.is_dir()]
    key = (html_only, *((folder, tuple(sorted(os.listdir(folder)))) for folder in search))
    return _PAGES.get(
        key,
        lambda: LimitedSandbox(
            loader=FileSystemLoader(search),
            limits=PAGE,
            autoescape=select_autoescape(["html", "j2"]) if html_only else True,
        ),
    )

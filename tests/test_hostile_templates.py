"""Hostile templates and `--only` expressions: each way of outrunning the sandbox is a located
`template-budget` finding (or, for `--only`, a one-line error with exit 2), never a hang, a
MemoryError or a gigabyte."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from jinja2 import ChainableUndefined
from pypdf import PdfReader

from cardgen.core.sandbox import BUDGET, Budget, BudgetError, LimitedSandbox, Limits
from cardgen.core.workspace import Workspace

TEXT = "a template builds text longer than 100,000 characters"
VALUE = "a template builds a value larger than 100,000 characters or items"
LOOPS = "a template's loops turn more than 10,000 times"
STEPS = "a template takes more than 50,000 steps (calls, filters, loop turns)"
BUILT = "a template builds more than 1,000,000 characters in all"
DEPTH = "macros or recursive loops call each other more than 32 deep"
NESTED = "a template builds lists nested more than 32 deep"
ELEMENT = "{{id: e{n}, type: text, x: 5mm, y: 40mm, w: 53mm, h: 38mm, font: body, text: {text}}}"

# what a hostile value does, and what the finding says; each is refused before it builds anything
# large
BUILDERS = [
    ("{{ 'x'.ljust(10**9) }}", TEXT),
    ("{{ 'x'.rjust(10**9, '-') }}", TEXT),
    ("{{ 'x'.center(10**9) }}", TEXT),
    ("{{ 'x'.zfill(10**9) }}", TEXT),
    ("{{ '\\t'.expandtabs(10**9) }}", TEXT),
    ("{{ 'x'|center(2000000000) }}", TEXT),
    ("{{ '%0999999999d'|format(1) }}", TEXT),
    ("{{ '%-999999999s' % 'x' }}", TEXT),
    ("{{ '%*d' % (999999999, 1) }}", TEXT),
    ("{{ '%.999999999f' % 1.5 }}", TEXT),
    ("{{ '%(a)0999999999d' % {'a': 1} }}", TEXT),
    ("{{ '{:>999999999}'.format(1) }}", TEXT),
    ("{{ '{:{}}'.format(1, 999999999) }}", TEXT),
    ("{{ '{a:>{w}}'.format_map({'a': 1, 'w': 999999999}) }}", TEXT),
    ("{{ ('{0}' * 20).format('x' * 10000) }}", TEXT),
    (
        "{{ lipsum(n=1000000) }}",
        "lipsum() of 1,000,000 paragraphs of up to 100 words is more than a template may build",
    ),
    ("{{ ('a' * 99999).replace('a', 'b' * 10000) }}", TEXT),
    ("{{ ('a' * 99999)|replace('a', 'b' * 10000, 20) }}", TEXT),
    ("{{ 'abc'|replace('', 'x' * 60000) }}", TEXT),
    ("{{ 'ab'.translate({97: 'x' * 60000}) }}", TEXT),
    ("{{ ('x' * 99999).join(['a', 'b', 'c']) }}", TEXT),
    ("{{ range(10000)|map('string')|join('x' * 20) }}", TEXT),
    ("{{ 'a\\nb'|indent(10**9) }}", TEXT),
    ("{{ 'a\\nb\\nc'|indent('x' * 60000) }}", TEXT),
    ("{{ ('a ' * 50000)|wordwrap(1) }}", TEXT),
    ("{{ 'a b c'|wordwrap(1, wrapstring='x' * 60000) }}", TEXT),
    ("{{ 'x' * 10**9 }}", TEXT),
    ("{{ [1] * 10**9 }}", TEXT),
    ("{{ [['x' * 1000] * 100] * 100 }}", TEXT),
    ("{{ ('x' * 60000) ~ ('y' * 60000) }}", TEXT),
    ("{% set a = 'x' * 60000 %}{% set b = a ~ a %}{{ b|length }}", TEXT),
    ("{{ ['x' * 60000, 'y' * 60000] }}", VALUE),
    ("{{ (5).to_bytes(10**9, 'big') }}", TEXT),
    ("{{ 2**4096 * 2**4096 }}", "a template computes a number larger than 2**4096"),
    ("{{ range(10)|batch(10**9, 'x')|list }}", TEXT),
    ("{{ range(10)|slice(10**9)|list }}", TEXT),
    ("{{ [1]|tojson(indent=10**9) }}", "tojson() indents by more than 64 characters"),
    ("{{ ('x.com ' * 1000)|urlize(rel='y' * 10000) }}", TEXT),
    ("{{ dict(a='\"' * 30000)|xmlattr }}", TEXT),
    ("{{ {}.fromkeys(range(10000), 'x' * 1000) }}", VALUE),
    ("{% filter center(10**9) %}x{% endfilter %}", TEXT),
    ("{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}", DEPTH),
    ("{% for x in [[]] recursive %}{{ loop([[]]) }}{% endfor %}", DEPTH),
    (
        "{% set ns = namespace(x=[]) %}{% for i in range(200) %}{% set ns.x = [ns.x] %}{% endfor %}"
        "{{ ns.x|string }}",
        NESTED,
    ),
    ("{{ range(100000)|list }}", "a template asks for a range of 100,000 items (at most 10,000)"),
]

# each uses up one render's share of the face's budget: one per face
SPENDERS = [
    ("{% for i in range(10000) %}{% for j in range(10000) %}{% endfor %}{% endfor %}", LOOPS),
    ("{% for i in range(9000) %}{% for j in card.text %}{% endfor %}{% endfor %}", LOOPS),
    (
        "{% macro m(n) %}{% if n %}{{ m(n - 1) }}{{ m(n - 1) }}{% endif %}{% endmacro %}"
        "{{ m(30) }}",
        STEPS,
    ),
    (
        "{% set ns = namespace(x=[]) %}{% for i in range(40) %}{% set ns.x = [ns.x, ns.x] %}{% "
        "endfor %}"
        "{{ ns.x|string|length }}",
        STEPS,
    ),
    (
        "{% set ns = namespace(s='') %}{% for i in range(10000) %}{% set ns.s = ns.s ~ "
        "'xxxxxxxxxx' %}{% endfor %}",
        BUILT,
    ),
    (
        "{% filter upper %}{% for i in range(10000) %}{{ 'x' * 1000 }}{% endfor %}{% endfilter %}",
        BUILT,
    ),
    (
        "{% for i in range(10000) %}{% if ('x' * 99999) == ('x' * 99999) %}{% endif %}{% endfor %}",
        BUILT,
    ),
    ("{{ range(10000)|map('center', 50000)|list|length }}", BUILT),
]

# what an --only expression may try; each is refused on the first card, in one line
ONLY = [
    "'x'.ljust(10**9)",
    "'x'|center(2000000000)",
    "'%0999999999d'|format(1)",
    "lipsum(n=1000000)",
    "('a'*99999).replace('a','b'*10000)",
    "'{:>999999999}'.format(1)",
    "card.name ~ ('x' * 100000)",
    "range(10000)|map('string')|join('x' * 20)",
    "range(10)|batch(10**9, 1)|list",
    "'%*d' % (999999999, 1)",
]


def cardgen(ws: Workspace, *args: str) -> subprocess.CompletedProcess:
    """cardgen in a process of its own, with a time and memory ceiling: a regression fails, it does
    not hang or take the machine."""

    def ceiling() -> None:  # pragma: no cover - runs in the child
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    return subprocess.run(
        [sys.executable, "-m", "cardgen", "--root", str(ws.root), *args],
        capture_output=True,
        text=True,
        timeout=180,
        preexec_fn=ceiling,
        env={**os.environ, "CARDGEN_DEBUG": ""},
    )


def with_elements(ws: Workspace, texts: list[str]) -> list[int]:
    """Put one text element per value into the clean game's front, one per line; their lines."""
    front = ws.templates_dir("clean") / "front.yaml"
    lines = front.read_text().splitlines()
    at = lines.index("elements:") + 1
    added = [f"  - {ELEMENT.format(n=n, text=json.dumps(text))}" for n, text in enumerate(texts)]
    front.write_text("\n".join(lines[:at] + added + lines[at:]) + "\n")
    return [at + 1 + n for n in range(len(texts))]


def finding(line: int, n: int, message: str, card: str = "ember-guard") -> str:
    return (
        f"templates/clean/front.yaml:{line}:5: error[template-budget] {card}: "
        f"element 'e{n}' failed: {message}"
    )


def test_string_builders_formats_and_filters_over_budget_are_located_findings(
    scratch_ws: Workspace,
) -> None:
    lines = with_elements(scratch_ws, [text for text, _ in BUILDERS])
    done = cardgen(scratch_ws, "validate", "clean")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stdout + done.stderr and "internal error" not in done.stdout
    for n, ((text, message), line) in enumerate(zip(BUILDERS, lines)):
        for card in ("ember-guard", "firestorm", "tide-caller"):
            assert finding(line, n, message, card) in done.stdout, text
    assert done.stdout.count("error[template-budget]") == 3 * len(BUILDERS)


@pytest.mark.parametrize(
    "text,message",
    SPENDERS,
    ids=[
        "nested-ranges",
        "loops-over-card-text",
        "macro-fan-out",
        "doubling-lists",
        "growing-text",
        "filter-block",
        "comparing-in-a-loop",
        "map-center",
    ],
)
def test_loops_calls_and_building_over_budget_are_located_findings(
    scratch_ws: Workspace, text: str, message: str
) -> None:
    (line,) = with_elements(scratch_ws, [text])
    done = cardgen(scratch_ws, "validate", "clean")
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr, done.stderr
    assert finding(line, 0, message) in done.stdout


def test_a_card_s_values_share_one_budget(scratch_ws: Workspace) -> None:
    """Each value may turn a loop 10,000 times, and the values of one face 20,000 times together:
    the third value that tries is the one reported (at its own line), and the others are drawn."""
    lines = with_elements(scratch_ws, ["{% for i in range(9000) %}{% endfor %}a"] * 3)
    done = cardgen(scratch_ws, "validate", "clean")
    together = "the loops of one card's values together turn more than 20,000 times"
    assert finding(lines[2], 2, together) in done.stdout
    assert "element 'e0' failed" not in done.stdout and "element 'e1' failed" not in done.stdout


def test_a_failing_var_is_reported_by_the_elements_that_use_it(scratch_ws: Workspace) -> None:
    """A var over budget used to stop the whole command (exit 3): now the element using it has the
    finding."""
    front = scratch_ws.templates_dir("clean") / "front.yaml"
    text = front.read_text()
    front.write_text(
        text.replace("elements:", "vars:\n  big: \"{{ 'x' * 10**9 }}\"\nelements:", 1).replace(
            'text: "{{ card.name }}"', 'text: "{{ vars.big }}"', 1
        )
    )
    line = next(n for n, row in enumerate(front.read_text().splitlines(), 1) if "vars.big" in row)
    done = cardgen(scratch_ws, "validate", "clean")
    assert done.returncode == 1, done.stderr
    assert (
        f"templates/clean/front.yaml:{line}:5: error[template-budget] ember-guard: element 'name' "
        "failed: "
        f"var 'big' failed: {TEXT}"
    ) in done.stdout


def test_the_rest_of_the_deck_still_prints(scratch_ws: Workspace) -> None:
    front = scratch_ws.templates_dir("clean") / "front.yaml"
    front.write_text(
        front.read_text().replace(
            'text: "{{ card.name }}"',
            "text: \"{{ card.name ~ ('x'.ljust(10**9) if card.power == 3 else '') }}\"",
            1,
        )
    )
    done = cardgen(scratch_ws, "sheets", "clean")
    assert done.returncode == 1 and "5 copies of 3 designs on 1 sheet" in done.stdout, (
        done.stdout + done.stderr
    )
    text = "".join(
        page.extract_text()
        for page in PdfReader(scratch_ws.output_dir("clean") / "sheets.pdf").pages
    )
    assert "Firestorm" in text and "Tide Caller" in text and "Ember Guard" not in text
    assert "When this enters" in text  # the over-budget card's other elements are drawn


@pytest.mark.parametrize("expr", ONLY)
def test_only_expressions_over_budget_are_one_line_errors(scratch_ws: Workspace, expr: str) -> None:
    done = cardgen(scratch_ws, "sheets", "clean", "--only", expr)
    assert done.returncode == 2, done.stdout + done.stderr
    out = (done.stdout + done.stderr).strip()
    assert out.count("\n") == 0 and out.startswith(
        f"error: --only '{expr}' failed on card 'ember-guard': "
    )
    assert not (scratch_ws.output_dir("clean") / "sheets.pdf").exists()


def test_page_templates_are_on_a_budget_too(scratch_ws: Workspace) -> None:
    own = scratch_ws.templates_dir("clean") / "gallery"
    own.mkdir(parents=True)
    page = own / "index.html.j2"
    for text, message in (
        (
            "{% include 'index.html.j2' %}",
            "templates include, extend or call each other too deeply",
        ),
        ("{{ 'x'.ljust(10**10) }}", "a template builds text longer than 20,000,000 characters"),
        (
            "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}",
            "macros or recursive loops call each other more than 100 deep",
        ),
    ):
        page.write_text(text)
        done = cardgen(scratch_ws, "gallery", "clean")
        assert (
            done.returncode == 2
            and f"the gallery template failed: {message}" in done.stdout + done.stderr
        )


def test_containers_cannot_be_changed_in_place(scratch_ws: Workspace) -> None:
    """A list measured when it was made stays that size: append, extend and update are refused."""
    (line,) = with_elements(scratch_ws, ["{% set x = [] %}{{ x.append(x) }}"])
    done = cardgen(scratch_ws, "validate", "clean")
    assert (
        f"templates/clean/front.yaml:{line}:5: error[template-error] ember-guard: element 'e0' "
        "failed: "
        "access to attribute 'append' of 'list' object is unsafe."
    ) in done.stdout


def render(text: str, limits: Limits | None = None, **values: object) -> str:
    env = LimitedSandbox(undefined=ChainableUndefined, autoescape=False)
    budget = Budget(limits or Limits())
    return env.from_string(text).render({**values, BUDGET: budget})


def test_ordinary_templates_are_within_budget() -> None:
    """What templates do every day still works, and prints what it printed before."""
    assert (
        render(
            "{{ card.name|upper }}|{{ '%s-%03d' % (card.id, 7) }}|{{ '{:>6}'.format(card.power) }}",
            card={"name": "Ember", "id": "e", "power": 3},
        )
        == "EMBER|e-007|     3"
    )
    assert (
        render(
            "{% for k in kw %}{{ loop.index }}:{{ k }}{{ ', ' if not loop.last }}{% endfor %}",
            kw=["Guard", "Haste"],
        )
        == "1:Guard, 2:Haste"
    )
    assert (
        render("{% macro b(t) %}**{{ t }}**{% endmacro %}{{ b('x') ~ ' ' ~ [1, 2]|join('/') }}")
        == "**x** 1/2"
    )
    assert (
        render(
            "{% set ns = namespace(n=0) %}{% for i in range(10000) %}{% set ns.n = ns.n + i %}{% "
            "endfor %}"
            "{{ ns.n }} {{ ns }}"
        )
        == "49995000 <namespace>"
    )
    assert (
        render(
            "{{ 'a b c d'|wordwrap(3) }}|{{ 'a\nb'|indent(2, true) }}|{{ 'abc'|replace('b', 'x', "
            "1) }}|"
            "{{ 'long text'|truncate(7, end='.', leeway=0) }}|{{ [[1], [2]]|sum(start=[]) }}"
        )
        == "a b\nc d|  a\n  b|axc|long.|[1, 2]"
    )
    assert len(render("{{ lipsum(3) }}")) > 100 and render("{{ 'x' * 100000 }}") == "x" * 100_000


def test_a_render_that_runs_too_long_stops() -> None:
    """Time is a backstop (the counts stop a template long before it on any sane machine)."""
    with pytest.raises(BudgetError, match="a template runs longer than 0 s"):
        render("{% for i in range(5000) %}{{ i }}{% endfor %}", Limits(seconds=0.0))


def test_the_budget_counts_are_exact() -> None:
    assert render("{% for i in range(10000) %}{% endfor %}ok") == "ok"  # exactly the limit
    with pytest.raises(BudgetError, match=LOOPS):
        render("{% for i in range(10000) %}{% endfor %}{% for i in [1] %}{% endfor %}")
    assert render("{{ 'x'.ljust(100000)|length }}") == "100000"
    with pytest.raises(BudgetError, match=TEXT):
        render("{{ 'x'.ljust(100001) }}")


def test_the_bundled_games_are_within_budget(tmp_path: Path) -> None:
    """The bundled games' templates: no template-budget (or other template) finding in any of
    them."""
    from .conftest import REPO

    for part in ("rules", "cards", "templates", "decks"):
        if (REPO / part).is_dir():
            shutil.copytree(REPO / part, tmp_path / part)
    ws = Workspace.find(tmp_path)
    for game in ("power-trip", "aether-duel", "ivion"):
        done = cardgen(ws, "validate", game)
        assert "template-budget" not in done.stdout and "template-error" not in done.stdout, game
        assert "Traceback" not in done.stdout + done.stderr and done.returncode in (0, 1), game

"""The import graph of cardgen/ points down the pipeline (docs/architecture.md): no cycles, every
module in a layer, and no layer imports one above it."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "cardgen"


def import_graph() -> dict[str, set[str]]:
    mods: dict[str, Path] = {}
    for f in PKG.rglob("*.py"):
        name = ".".join(("cardgen",) + f.relative_to(PKG).with_suffix("").parts)
        mods[name.removesuffix(".__init__")] = f
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, f in mods.items():
        pkg = m if f.name == "__init__.py" else m.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                targets = [mod] + [f"{mod}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            for t in targets:
                while t and t not in mods:
                    t = t.rsplit(".", 1)[0] if "." in t else ""
                if t and t != m and not m.startswith(t + "."):
                    edges[m].add(t)
    return edges


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycles() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


# The layer order, bottom first (docs/architecture.md). A module imports only from layers below its
# own, or from its own package; the stages (one layer) may use each other. speed/ sits beside the
# pipeline: anyone may import it, and it imports only core/.
LAYERS = [
    ("cardgen.core",),
    ("cardgen.load",),
    ("cardgen.model",),
    ("cardgen.validate", "cardgen.render"),
    ("cardgen.project",),
    ("cardgen.printrun",),
    (
        "cardgen.packs",
        "cardgen.rulebook",
        "cardgen.gallery",
        "cardgen.export",
        "cardgen.sheet",
        "cardgen.kit",
    ),
    ("cardgen.jobs",),
    ("cardgen.live",),
    ("cardgen.cli",),
    ("cardgen.__main__",),
]
STAGES = 6  # the index of the stages' layer
SIDE = "cardgen.speed"


def place(module: str) -> tuple[int, str] | None:
    for level, packages in enumerate(LAYERS):
        for package in packages:
            if module == package or module.startswith(package + "."):
                return level, package
    return None


def layer_breaks(edges: dict[str, set[str]]) -> list[str]:
    wrong = []
    for mod, targets in sorted(edges.items()):
        for target in sorted(targets):
            if target == "cardgen" or target == SIDE or target.startswith(SIDE + "."):
                if (mod == SIDE or mod.startswith(SIDE + ".")) or target == "cardgen":
                    continue
                continue  # anyone may use the speed machinery
            if mod == SIDE or mod.startswith(SIDE + "."):
                if not target.startswith("cardgen.core"):
                    wrong.append(f"{mod} -> {target} (speed/ imports only core/)")
                continue
            here, there = place(mod), place(target)
            if here is None or there is None:
                wrong.append(f"{mod} -> {target} (not in a layer: add its package to LAYERS)")
            elif there[0] > here[0] or (
                there[0] == here[0] and there[1] != here[1] and here[0] != STAGES
            ):
                wrong.append(f"{mod} -> {target}")
    return wrong


def test_every_module_has_a_layer() -> None:
    unplaced = [
        m
        for m in import_graph()
        if m != "cardgen" and place(m) is None and not (m == SIDE or m.startswith(SIDE + "."))
    ]
    assert unplaced == []


def test_layers_point_down() -> None:
    assert layer_breaks(import_graph()) == []


def test_the_layer_check_sees_a_break() -> None:
    assert layer_breaks({"cardgen.load.cards": {"cardgen.model.game"}}) == [
        "cardgen.load.cards -> cardgen.model.game"
    ]
    assert layer_breaks({"cardgen.speed.cache": {"cardgen.load.yamlio"}})
    assert layer_breaks({"cardgen.project.check": {"cardgen.packs.deal"}})
    assert not layer_breaks({"cardgen.jobs.build": {"cardgen.speed.twin", "cardgen.packs.deal"}})


def test_generic_code_asks_the_model_for_roles_not_field_names() -> None:
    offenders = [
        f"{p.relative_to(PKG)}:{n}"
        for p in PKG.rglob("*.py")
        if "model" not in p.relative_to(PKG).parts
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if '"rarity"' in line
    ]
    assert offenders == []


BUNDLED_WORDS = (
    "Power Trip",
    "Aether",
    "Ivion",
    "Entity",
    "Monster",
    "Magicks",
    "Arcana",
    "Specialization",
    "Ultimate",
    "Trait",
    "Winterborn",
    "Steward",
    "Hulking Demon",
    "Brick",
    "Dark",
    "Relic",
)


def test_no_bundled_game_words_in_generic_code() -> None:
    """Generic code asks the model; a bundled game's names, kinds or keywords in a string of
    cardgen/ would mean a rule that only works for that game (comments may still give them as
    examples)."""
    import re

    hits = []
    for path in PKG.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                hits += [
                    f"{path.relative_to(PKG)}:{node.lineno}: {w}"
                    for w in BUNDLED_WORDS
                    if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", node.value)
                ]
    assert hits == []

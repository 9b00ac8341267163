"""reportlab behind one adapter (render.rl): an unsupported reportlab fails loudly at import, and no
module of cardgen but rl.py touches reportlab's private parts (a scan that is shown to catch each
kind of touch)."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
import reportlab

import cardgen
from cardgen.core.errors import CardgenError
from cardgen.render import rl

PACKAGE = Path(cardgen.__file__).resolve().parent
ADAPTER = PACKAGE / "render" / "rl.py"
# reportlab modules that are its plumbing, not its drawing API: only the adapter imports them
INTERNAL_MODULES = {"reportlab.rl_config", "reportlab.lib.rl_accel", "reportlab.pdfbase.pdfdoc"}
PYTHON_DUNDERS = {
    name
    for kind in (object, type, dict, list, int, float, str, BaseException, lambda: 0, open)
    for name in dir(kind)
} | {
    "__enter__",
    "__exit__",
    "__iter__",
    "__next__",
    "__self__",
    "__func__",
    "__file__",
    "__wrapped__",
    "__version__",
    "__all__",
    "__path__",
}


@lru_cache(maxsize=1)
def reportlab_private_names() -> frozenset[str]:
    """Every underscore name reportlab's own source defines or reads as an attribute (its private
    parts)."""
    names: set[str] = set()
    for path in Path(reportlab.__file__).parent.rglob("*.py"):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
                names.add(node.attr)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name.startswith("_"):
                names.add(node.name)
    return frozenset(names - PYTHON_DUNDERS)


def _root(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def private_touches(source: str, name: str = "<module>") -> list[str]:
    """Where a module touches reportlab's private parts: imports of its private or internal modules
    and names, attributes it reads or writes by a private reportlab name (on anything but the
    module's own objects:
    `self` counts as reportlab's inside a subclass of a reportlab class), and assignments into
    reportlab's modules and classes (monkeypatches, process-wide settings)."""
    tree = ast.parse(source)
    private = reportlab_private_names()
    out: list[str] = []
    from_reportlab: set[str] = (
        set()
    )  # local names bound to reportlab modules, classes and functions
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "reportlab":
                    from_reportlab.add((alias.asname or alias.name).split(".")[0])
                    if alias.name in INTERNAL_MODULES or any(
                        p.startswith("_") for p in alias.name.split(".")
                    ):
                        out.append(f"{name}:{node.lineno}: imports {alias.name}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "reportlab":
            module = node.module or ""
            for alias in node.names:
                from_reportlab.add(alias.asname or alias.name)
                full = f"{module}.{alias.name}"
                if (
                    module in INTERNAL_MODULES
                    or full in INTERNAL_MODULES
                    or alias.name.startswith("_")
                    or any(p.startswith("_") for p in module.split("."))
                ):
                    out.append(f"{name}:{node.lineno}: imports {full}")
    reportlab_classes: set[ast.ClassDef] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(
            _root(base) in from_reportlab for base in node.bases
        ):
            reportlab_classes.add(node)
    own_self: set[int] = (
        set()
    )  # `self`/`cls` nodes inside classes of cardgen's own (not reportlab subclasses)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node not in reportlab_classes:
            for inner in ast.walk(node):
                if isinstance(inner, ast.Name) and inner.id in ("self", "cls"):
                    own_self.add(id(inner))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in private:
            if not (isinstance(node.value, ast.Name) and id(node.value) in own_self):
                out.append(f"{name}:{node.lineno}: touches {ast.unparse(node)}")
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            for t in target.elts if isinstance(target, ast.Tuple) else [target]:
                if isinstance(t, ast.Attribute) and _root(t) in from_reportlab:
                    out.append(f"{name}:{getattr(node, 'lineno', 0)}: patches {ast.unparse(t)}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("setattr", "delattr")
            and node.args
            and _root(node.args[0]) in from_reportlab
        ):
            out.append(f"{name}:{node.lineno}: patches {ast.unparse(node)}")
    return sorted(set(out))


def test_only_the_adapter_touches_reportlabs_private_parts() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path != ADAPTER:
            found += private_touches(
                path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE))
            )
    assert found == []


def test_the_adapter_is_what_the_scan_would_catch() -> None:
    """The scan sees the adapter's own touches: it is looking at the right things."""
    found = private_touches(ADAPTER.read_text(encoding="utf-8"), "rl.py")
    assert any("imports reportlab.pdfbase.pdfdoc" in f for f in found)
    assert any("touches c._code" in f for f in found)
    assert any("patches pdfdoc.PDFZCompress.encode" in f for f in found)
    assert any("patches rl_config.useA85" in f for f in found)


PLANTED = {
    "from reportlab.pdfbase import pdfdoc\n": ["<module>:1: imports reportlab.pdfbase.pdfdoc"],
    "from reportlab import rl_config\n": ["<module>:1: imports reportlab.rl_config"],
    "import reportlab.lib.rl_accel\n": ["<module>:1: imports reportlab.lib.rl_accel"],
    "from reportlab.pdfbase._fontdata import standardFonts\n": [
        "<module>:1: imports reportlab.pdfbase._fontdata.standardFonts"
    ],
    "from reportlab.pdfgen.canvas import Canvas\n\ndef f(c: Canvas) -> None:\n    "
    "c._code.append('q')\n": ["<module>:4: touches c._code"],
    "def f(c):\n    return c._doc\n": ["<module>:2: touches c._doc"],
    "from reportlab.pdfgen.canvas import Canvas\n\nclass C(Canvas):\n    def f(self):\n        "
    "self._fontsize = 3\n": ["<module>:5: touches self._fontsize"],
    "from reportlab.pdfgen.canvas import Canvas\n\nCanvas.drawString = print\n": [
        "<module>:3: patches Canvas.drawString"
    ],
    "from reportlab.pdfgen import canvas\n\nsetattr(canvas.Canvas, 'save', print)\n": [
        "<module>:3: patches setattr(canvas.Canvas, 'save', print)"
    ],
}


@pytest.mark.parametrize("source", sorted(PLANTED))
def test_the_scan_finds_a_planted_touch(source: str) -> None:
    assert private_touches(source) == PLANTED[source]


def test_the_scan_leaves_public_use_and_cardgens_own_privates_alone() -> None:
    source = (
        "from reportlab.pdfgen.canvas import Canvas\n\nclass Mine:\n    def __init__(self):\n"
        "        self._code = []\n        self._doc = None\n\n"
        "def f(c: Canvas) -> None:\n    c.drawString(0, 0, 'x')\n    c.setFont('Helvetica', 9)\n"
    )
    assert private_touches(source) == []


@pytest.mark.parametrize("version", ["4.4.10", "4.5.1", "5.0.1", "5.1", "5.1.0", "5.1.7"])
def test_the_tested_versions_are_supported(version: str) -> None:
    rl.check_version(version)


def test_the_installed_reportlab_is_supported() -> None:
    rl.check_version(reportlab.Version)
    assert rl.supported_range() == ">=4.4.10,<5.2"


@pytest.mark.parametrize(
    "version", ["3.6.13", "4.3.1", "4.4.0", "4.4.9", "5.2.0", "6.0", "5", "garbage"]
)
def test_an_unsupported_version_is_refused(version: str) -> None:
    with pytest.raises(CardgenError) as caught:
        rl.check_version(version)
    assert caught.value.exit_code == 2
    assert caught.value.message == (
        f"reportlab {version} is installed; cardgen supports reportlab >=4.4.10,<5.2: "
        "install a supported version (pip install 'reportlab>=4.4.10,<5.2')"
    )


def test_importing_the_adapter_under_an_unsupported_reportlab_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check runs at import: a fresh copy of the module, loaded while reportlab claims 4.3.1,
    refuses."""
    monkeypatch.setattr(reportlab, "Version", "4.3.1")
    spec = importlib.util.spec_from_file_location("cardgen.render.rl_probe", ADAPTER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    with pytest.raises(
        CardgenError,
        match=r"^reportlab 4\.3\.1 is installed; cardgen supports reportlab >=4\.4\.10,<5\.2",
    ):
        spec.loader.exec_module(module)


def test_the_command_line_exits_2_with_one_line(tmp_path: Path) -> None:
    script = (
        "import sys, reportlab\nreportlab.Version = '5.2.0'\n"
        f"sys.argv = ['cardgen', '--root', {str(tmp_path)!r}, 'build', 'nothing']\n"
        "from cardgen.cli.main import run\nrun()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: reportlab 5.2.0 is installed; cardgen supports reportlab >=4.4.10,<5.2: "
        "install a supported version (pip install 'reportlab>=4.4.10,<5.2')"
    ]

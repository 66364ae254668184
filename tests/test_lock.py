"""The lock: what a fresh install gets is what the suite was run on.

``constraints.txt`` pins every package, runtime and test tools alike; the README's two
Quick start commands install through it, and ``.ci/run`` runs the second one as written.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "constraints.txt"


def locked_pins() -> dict[str, Requirement]:
    """Every pin of the lock that applies to this interpreter, by canonical name."""
    pins = {}
    for line in LOCK.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate():
            pins[canonicalize_name(requirement.name)] = requirement
    return pins


def pinned_version(requirement: Requirement) -> str:
    (spec,) = requirement.specifier
    assert spec.operator == "==", f"{requirement} is not an exact pin"
    return spec.version


def declared_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        declared += extra
    return [Requirement(text) for text in declared]


def quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", quick_start, flags=re.S)


def test_every_locked_package_is_pinned_exactly():
    pins = locked_pins()
    assert pins, "constraints.txt pins nothing"
    for requirement in pins.values():
        pinned_version(requirement)


def test_the_lock_satisfies_every_declared_range():
    pins = locked_pins()
    environment = default_environment()
    for requirement in declared_requirements():
        if requirement.marker is not None and not requirement.marker.evaluate(environment):
            continue
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is declared in pyproject.toml but not locked"
        version = pinned_version(pins[name])
        assert requirement.specifier.contains(version, prereleases=True), (
            f"the lock pins {requirement.name}=={version}, outside pyproject.toml's {requirement}"
        )


def test_the_suite_runs_on_the_locked_versions():
    """A run on other versions than the lock's proves nothing about a fresh install."""
    drift = []
    for name, requirement in locked_pins().items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            drift.append(f"{name} is locked but not installed")
            continue
        if installed != pinned_version(requirement):
            drift.append(f"{name} {installed} is installed, the lock says {pinned_version(requirement)}")
    assert not drift, "install from the lock (README, Quick start): " + "; ".join(drift)


def test_quick_start_is_two_commands_that_install_from_the_lock():
    commands = quick_start_commands()
    assert len(commands) == 2
    play, test = commands
    for command in commands:
        assert "-c constraints.txt" in command
        assert "\n" not in command
    assert play.endswith("kadesh serve")
    assert '".[test]"' in test and test.endswith("python -m pytest -q")


def test_ci_runs_the_readme_test_command_as_written():
    test_command = quick_start_commands()[1]
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert test_command in ci_lines

"""Where rulesets come from: Python packages that name them in the entry-point group ``kadesh.rulesets``.

Each entry point names a ``Ruleset`` subclass (``manoeuvre = "kadesh.rules.manoeuvre:Manoeuvre"`` in a
package's ``pyproject.toml``, under ``[project.entry-points."kadesh.rulesets"]``); the four rulesets shipped
with Kadesh are found the same way, and the core imports none of them. A ruleset brings its bots
(``Ruleset.bot_modules``) and its browser view (``Ruleset.web_folder``) along: see docs/writing-a-ruleset.md.

A plugin that fails to import, or whose class breaks the contract, is left out and reported
(``broken_rulesets``, logged once, shown by ``kadesh serve`` at start-up and by ``GET /health``): the
other games go on. ``register`` adds a ruleset by hand (tests, notebooks).
"""

from __future__ import annotations

import inspect
import logging
from dataclasses import dataclass
from importlib.metadata import entry_points

from kadesh.core.errors import UnknownRuleset
from kadesh.core.ruleset import Ruleset

log = logging.getLogger(__name__)

GROUP = "kadesh.rulesets"
_RULESETS: dict[str, Ruleset] = {}
_discovered = False


@dataclass(frozen=True, slots=True)
class BrokenRuleset:
    entry_point: str  # the entry point's name, as the package declared it
    target: str  # what it points at ("package.module:Class")
    problem: str  # what went wrong, in a sentence


_BROKEN_LIST: list[BrokenRuleset] = []


def register(cls: type[Ruleset]) -> type[Ruleset]:
    _RULESETS[cls.name] = cls()
    return cls


def contract_problem(loaded: object, entry_name: str) -> str | None:
    """Why ``loaded`` cannot be a ruleset named ``entry_name``; None when it can."""
    if not (inspect.isclass(loaded) and issubclass(loaded, Ruleset)):
        return f"{loaded!r} is not a subclass of kadesh.core.Ruleset"
    if inspect.isabstract(loaded):
        missing = ", ".join(sorted(loaded.__abstractmethods__))
        return f"{loaded.__name__} does not implement: {missing}"
    name = getattr(loaded, "name", "")
    if not isinstance(name, str) or not name:
        return f"{loaded.__name__}.name is missing"
    if name != entry_name:
        return f"{loaded.__name__}.name is {name!r}, but its entry point is named {entry_name!r}"
    return None


def _load(entry) -> None:  # noqa: ANN001 - an importlib.metadata.EntryPoint
    try:
        loaded = entry.load()
        problem = contract_problem(loaded, entry.name)
        if problem is None:
            ruleset = loaded()
            ruleset.seats(ruleset.normalize_options({}))  # the default set-up must at least name its seats
    except Exception as error:  # a plugin must never stop the other games
        problem = f"{type(error).__name__}: {error}"
    if problem is not None:
        _BROKEN_LIST.append(BrokenRuleset(entry.name, entry.value, problem))
        log.error("ruleset plugin %r (%s) left out: %s", entry.name, entry.value, problem)
        return
    if entry.name in _RULESETS and type(_RULESETS[entry.name]) is not loaded:
        _BROKEN_LIST.append(BrokenRuleset(entry.name, entry.value, f"another package already names {entry.name!r}"))
        log.error("ruleset plugin %r (%s) left out: its name is taken", entry.name, entry.value)
        return
    _RULESETS[entry.name] = ruleset


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    for entry in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        _load(entry)


def get_ruleset(name: str) -> Ruleset:
    _discover()
    try:
        return _RULESETS[name]
    except KeyError:
        raise UnknownRuleset(name) from None


def all_rulesets() -> dict[str, Ruleset]:
    _discover()
    return dict(sorted(_RULESETS.items()))


def broken_rulesets() -> list[BrokenRuleset]:
    """The plugins left out, and why."""
    _discover()
    return list(_BROKEN_LIST)


def rediscover() -> None:
    """Look at the installed packages again (tests that install or fake a plugin)."""
    global _discovered
    _discovered = False
    _BROKEN_LIST.clear()

"""Rulesets register themselves; ``kadesh.rules`` subpackages are discovered on first use."""

from __future__ import annotations

import importlib
import pkgutil

from kadesh.core.errors import UnknownRuleset
from kadesh.core.ruleset import Ruleset

_RULESETS: dict[str, Ruleset] = {}
_discovered = False


def register(cls: type[Ruleset]) -> type[Ruleset]:
    _RULESETS[cls.name] = cls()
    return cls


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    import kadesh.rules

    for module in pkgutil.iter_modules(kadesh.rules.__path__):
        importlib.import_module(f"kadesh.rules.{module.name}")
    _discovered = True


def get_ruleset(name: str) -> Ruleset:
    _discover()
    try:
        return _RULESETS[name]
    except KeyError:
        raise UnknownRuleset(name) from None


def all_rulesets() -> dict[str, Ruleset]:
    _discover()
    return dict(sorted(_RULESETS.items()))

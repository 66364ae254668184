"""Kadesh: an engine and server for turn-based wargames."""

from kadesh.core import (
    Game,
    RuleError,
    ScriptedDice,
    SeededDice,
    all_rulesets,
    get_ruleset,
    load_game,
    new_game,
)

__all__ = [
    "Game", "RuleError", "ScriptedDice", "SeededDice", "all_rulesets", "get_ruleset",
    "load_game", "new_game",
]
__version__ = "0.1.0"

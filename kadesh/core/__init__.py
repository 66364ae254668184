"""The core contract shared by every ruleset."""

from kadesh.core.dice import Dice, ScriptedDice, SeededDice, commitment, derive_roll
from kadesh.core.errors import KadeshError, RuleError, UnknownRuleset
from kadesh.core.events import Event, roll_event
from kadesh.core.game import Game, load_game, new_game
from kadesh.core.registry import all_rulesets, get_ruleset, register
from kadesh.core.ruleset import Action, Ruleset, Seat

__all__ = [
    "Action", "Dice", "Event", "Game", "KadeshError", "RuleError", "Ruleset", "ScriptedDice",
    "Seat", "SeededDice", "UnknownRuleset", "all_rulesets", "commitment", "derive_roll",
    "get_ruleset", "load_game", "new_game", "register", "roll_event",
]

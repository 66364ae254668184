"""The register of computer opponents (each ruleset's bot modules fill it when first asked), and how a bot
plays a turn: it sees only its seat's view and legal actions, like a person."""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Callable
from typing import Any

from kadesh.ai.bot import Bot
from kadesh.ai.random_bot import RandomBot
from kadesh.core import Game, all_rulesets
from kadesh.core.ruleset import Action

BotFactory = Callable[..., "Bot"]
log = logging.getLogger(__name__)

_BOTS: dict[tuple[str, str], BotFactory] = {}


def register_bot(ruleset: str, level: str) -> Callable[[BotFactory], BotFactory]:
    def decorate(factory: BotFactory) -> BotFactory:
        _BOTS[(ruleset, level)] = factory
        return factory

    return decorate


Simulator = Callable[[dict[str, Any], dict[str, str], int, int], dict[str, Any]]
_SIMULATORS: dict[str, Simulator] = {}


def register_simulator(ruleset: str) -> Callable[[Simulator], Simulator]:
    """A ruleset's odds by simulation: (options, seat → bot level, games, seed) → JSON-able summary."""
    def decorate(function: Simulator) -> Simulator:
        _SIMULATORS[ruleset] = function
        return function

    return decorate


def simulator(ruleset: str) -> Simulator | None:
    _load()
    return _SIMULATORS.get(ruleset)


def has_bot(ruleset: str, level: str) -> bool:
    return (ruleset, level) in _BOTS


def levels(ruleset: str) -> list[str]:
    """A ruleset's levels, easiest first as registered, the random baseline last (a page offers the first)."""
    _load()
    return sorted((level for (name, level) in _BOTS if name == ruleset), key=lambda level: level == "random")


def bot_title(ruleset: str, level: str) -> dict[str, str]:
    _load()
    factory = _BOTS[(ruleset, level)]
    return dict(getattr(factory, "title", {"fr": level, "en": level}))


def bot_hint(ruleset: str, level: str) -> dict[str, str] | None:
    """What a player choosing an opponent should know of it: how strong, and how it plays (issue 44)."""
    _load()
    hint = getattr(_BOTS[(ruleset, level)], "hint", None)
    return dict(hint) if hint else None


def make_bot(ruleset: str, level: str, seed: int | None = None, **settings: Any) -> Bot:
    _load()
    try:
        factory = _BOTS[(ruleset, level)]
    except KeyError:
        raise LookupError(f"no bot {level!r} for {ruleset!r}; known: {', '.join(levels(ruleset))}") from None
    return factory(ruleset, seed=seed, **settings)


def play_turn_of(game: Game, seat: str, bot: Bot) -> list:
    """Let ``bot`` make one move for ``seat``: it gets the seat's view and legal actions only."""
    return game.act(seat, bot.choose(game.view(seat), seat, legal_for(game, seat, bot)))


def legal_for(game: Game, seat: str, bot: Bot) -> list[Action]:
    """The legal actions handed to ``bot``: all of them, or none for a bot that works them out itself."""
    return game.legal_actions(seat) if bot.wants_legal else []


_loaded = False
_loading = threading.RLock()  # two requests asking for bots at once: the second waits for the whole list


def _load() -> None:
    """Import each ruleset's bot modules (``Ruleset.bot_modules``: they register by import), then the random
    baseline for the rulesets that have no random bot of their own. A module that fails is logged and left
    out: the other rulesets' bots go on."""
    global _loaded
    if _loaded:
        return
    with _loading:
        if not _loaded:
            _import_bots()
            _loaded = True


def _import_bots() -> None:
    for ruleset in all_rulesets().values():
        for module in ruleset.bot_modules:
            try:
                importlib.import_module(module)
            except Exception:
                log.exception("the bots of ruleset %r (%s) are left out", ruleset.name, module)
    for name in all_rulesets():
        if not has_bot(name, "random"):
            register_bot(name, "random")(RandomBot)

"""A computer opponent: it sees only its seat's view and legal actions, like a person."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from kadesh.core import get_ruleset
from kadesh.core.ruleset import Action, Ruleset


class Bot(ABC):
    """A player. ``choose`` gets what a person at that seat would get, nothing more."""

    level: ClassVar[str]
    title: ClassVar[dict[str, str]]
    # A bot that works out its own orders from the view (Front's: ``Ruleset.state_from_view`` and one unit's
    # orders at a time) gets an empty ``legal``: the whole list costs tens of milliseconds on a big battle,
    # at every order of a long turn.
    wants_legal: ClassVar[bool] = True

    def __init__(self, ruleset: str, seed: int | None = None, budget: float | None = None) -> None:
        """``budget``: thinking time per action in seconds, for the levels that search."""
        self.rules: Ruleset = get_ruleset(ruleset)
        self.rng = random.Random(seed)
        self.budget = budget

    @abstractmethod
    def choose(self, view: dict[str, Any], seat: str, legal: list[Action]) -> Action: ...

    def turn_started(self, seconds_ago: float) -> None:
        """The seat's current turn began ``seconds_ago``: what a caller that knows tells before ``choose``
        (the server, whose workers may each play a few decisions of one turn). A bot with a budget per turn
        counts from there; the others need not know."""
        return None

    def searches(self) -> tuple[int, int]:
        """(decisions searched, of them those its time budget cut before its iteration budget): how much the
        machine's load changed its play (a bench tells; the levels that do not search have (0, 0))."""
        return 0, 0

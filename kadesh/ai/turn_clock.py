"""A seat's turn as a player waits for it: one wall-time allowance shared among the turn's decisions (issue 44).

A player waits for the computer's whole turn, not for one of its actions; a search with a ceiling per action
makes a turn of many actions long on a busy machine. A ``TurnClock`` notes when each turn of its seat began
and gives each decision what is left of the turn's allowance, shared evenly among the decisions still to come.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable


class TurnClock:
    def __init__(self, allowance: float, floor: float, clock: Callable[[], float] | None = None) -> None:
        """``allowance``: seconds for a whole turn; ``floor``: the least any decision gets, even when the turn's
        time is spent; ``clock``: seconds as ``time.perf_counter`` gives them (a test passes its own)."""
        self.allowance = allowance
        self.floor = floor
        self._clock = clock
        self.turn: Hashable | None = None
        self.started = 0.0

    def now(self) -> float:
        return self._clock() if self._clock is not None else time.perf_counter()

    def begin(self, turn: Hashable, started: float | None = None) -> None:
        """A decision of ``turn`` is about to be made. A turn not seen before starts now, or at ``started`` when
        the caller knows better (the server: its first decisions may have been made by another process)."""
        now = self.now()
        if turn != self.turn:
            self.turn, self.started = turn, now
        if started is not None:
            self.started = min(self.started, started)

    def elapsed(self) -> float:
        return self.now() - self.started

    def share(self, decisions_left: int) -> float:
        """Seconds for the next decision: what is left of the allowance, evenly shared among the decisions
        left (this one included), never less than the floor."""
        left = self.allowance - self.elapsed()
        return max(self.floor, left / max(1, decisions_left))

"""Monte Carlo tree search over the core contract, with chance nodes for the dice.

Each iteration replays the tree's path on a copy of the root state with freshly seeded dice.
After an action, the child is chosen by the outcome it produced (its events without the die
values), so a fight's branches (destroyed, recoiled, tie…) are separate chance nodes with
their true frequencies. Leaves are scored by a short rollout and a ruleset-specific
evaluation (``Knowledge``). Children are widened progressively in the knowledge's order.
"""

from __future__ import annotations

import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from kadesh.core.dice import SeededDice
from kadesh.core.events import ROLL, Event
from kadesh.core.ruleset import Action, Ruleset

BUDGET_MARGIN = 0.03  # the share of the budget kept back for an iteration longer than any before


class Knowledge(ABC):
    """What a search needs to know of one ruleset."""

    @abstractmethod
    def value(self, state: Any, seat: str) -> float:
        """The position's worth for ``seat``, in [-1, 1]."""

    @abstractmethod
    def candidates(self, state: Any, seat: str, legal: list[Action], root: bool = False) -> list[Action]:
        """The actions worth searching, most promising first (``root``: the decision itself)."""

    def values(self, state: Any, seats: set[str]) -> dict[str, float]:
        """The position's worth for each of ``seats`` (a zero-sum game can value it once)."""
        return {seat: self.value(state, seat) for seat in seats}

    def rollout(self, rules: Ruleset, state: Any, seat: str, dice: Any) -> None:
        """Play on a little from a leaf before it is valued (default: not at all)."""
        return None

    def outcome_key(self, events: list[Event]) -> str:
        """What tells two outcomes of the same action apart: the events, without the die values."""
        return repr([(e.type, sorted(e.data.items())) for e in events if e.type != ROLL])


class Node:
    __slots__ = ("visits", "edges")

    def __init__(self) -> None:
        self.visits = 0
        self.edges: list[Edge] | None = None


class Edge:
    __slots__ = ("action", "visits", "total", "outcomes")

    def __init__(self, action: Action) -> None:
        self.action = action
        self.visits = 0
        self.total = 0.0
        self.outcomes: dict[str, Node] = {}


class MCTS:
    def __init__(self, rules: Ruleset, knowledge: Knowledge, budget: float = 1.0, iterations: int | None = None,
                 rng: random.Random | None = None, exploration: float = 0.25, widening: tuple[int, float] = (3, 0.5),
                 max_depth: int = 12, clock: Callable[[], float] | None = None) -> None:
        """``clock``: seconds as ``time.perf_counter`` gives them (a test passes its own)."""
        self.rules = rules
        self._clock = clock
        self.knowledge = knowledge
        self.budget = budget
        self.iterations = iterations
        self.rng = rng or random.Random()
        self.exploration = exploration
        self.widening = widening
        self.max_depth = max_depth
        self.last_iterations = 0
        self.searches = 0  # decisions searched (one candidate only is no search)
        self.cut_short = 0  # of them, those the time budget stopped before the iteration budget

    def now(self) -> float:
        return self._clock() if self._clock is not None else time.perf_counter()

    def best_action(self, state: Any, seat: str, legal: list[Action], started: float | None = None,
                    budget: float | None = None) -> Action:
        """The most visited root action. The time budget (``budget``, default: the search's own) counts from
        ``started`` (default: now), and the search stops when its longest iteration so far could overrun it."""
        start = self.now() if started is None else started
        deadline = start + (self.budget if budget is None else budget) * (1 - BUDGET_MARGIN)
        root = Node()
        root.edges = [Edge(a) for a in self.knowledge.candidates(state, seat, legal, root=True)]
        if len(root.edges) == 1:
            return root.edges[0].action
        count, longest = 0, 0.0
        while True:
            now = self.now()
            if self.iterations and count >= self.iterations:
                break  # the iteration budget: the same search however busy the machine
            if count >= 2 and now + longest > deadline:
                self.cut_short += bool(self.iterations)
                break  # the time budget, a ceiling when there is an iteration budget too
            self._iterate(root, state)
            longest = max(longest, self.now() - now)
            count += 1
        self.last_iterations = count
        self.searches += 1
        return max(root.edges, key=lambda e: (e.visits, e.total)).action

    def _iterate(self, root: Node, root_state: Any) -> None:
        rules, knowledge = self.rules, self.knowledge
        state = rules.clone(root_state)
        dice = SeededDice(str(self.rng.getrandbits(64)))
        node, path = root, []
        for _ in range(self.max_depth):
            if rules.outcome(state) is not None:
                break
            mover = rules.to_act(state)[0]
            if node.edges is None:
                legal = list(rules.legal_actions(state, mover))
                node.edges = [Edge(a) for a in knowledge.candidates(state, mover, legal)]
            edge = self._select(node)
            key = knowledge.outcome_key(rules.apply(state, mover, edge.action, dice))
            path.append((node, edge, mover))
            child = edge.outcomes.get(key)
            if child is None:
                edge.outcomes[key] = Node()
                break
            node = child
        if rules.outcome(state) is None and path:
            knowledge.rollout(rules, state, path[-1][2], dice)
        values = knowledge.values(state, {mover for _, _, mover in path})
        for node_, edge, mover in path:
            node_.visits += 1
            edge.visits += 1
            edge.total += values[mover]

    def _select(self, node: Node) -> Edge:
        assert node.edges is not None
        first, power = self.widening
        allowed = node.edges[: first + int(node.visits ** power)]
        for edge in allowed:
            if edge.visits == 0:
                return edge
        log_n = math.log(node.visits + 1)
        c = self.exploration
        return max(allowed, key=lambda e: e.total / e.visits + c * math.sqrt(log_n / e.visits))

"""Monte Carlo tree search over the core contract, with chance nodes for the dice.

Each iteration replays the tree's path on a copy of the root state with freshly seeded dice.
After an action, the child is chosen by the outcome it produced (its events without the die
values), so a fight's branches (destroyed, recoiled, tie…) are separate chance nodes with
their true frequencies. Leaves are scored by a short rollout and a ruleset-specific
evaluation (``Knowledge``). Children are widened progressively in the knowledge's order.

A turn of many decisions (move one element, then another) searches the same sequences again at each of them.
So after a decision no die decided, the search keeps the chosen action's subtree with the position it leads to;
when the next decision stands in that very position, its root starts from the subtree's counts, and the
iteration budget counts them (a ruleset's own search reuses what it already knows, it does not search it again).
"""

from __future__ import annotations

import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import Any

from kadesh.core.dice import ScriptedDice, SeededDice
from kadesh.core.errors import DiceExhausted
from kadesh.core.events import ROLL, Event
from kadesh.core.ruleset import Action, Ruleset

BUDGET_MARGIN = 0.03  # the share of the budget kept back for an iteration longer than any before


class Knowledge(ABC):
    """What a search needs to know of one ruleset."""

    @abstractmethod
    def value(self, state: Any, seat: str) -> float:
        """The position's worth for ``seat``, in [-1, 1]."""

    @abstractmethod
    def candidates(self, state: Any, seat: str, legal: Iterable[Action], root: bool = False) -> list[Action]:
        """The actions worth searching, most promising first (``root``: the decision itself). ``legal`` may be
        read lazily: below the root it is the ruleset's ``legal_actions`` as it comes, not yet worked out."""

    def values(self, state: Any, seats: set[str]) -> dict[str, float]:
        """The position's worth for each of ``seats`` (a zero-sum game can value it once)."""
        return {seat: self.value(state, seat) for seat in seats}

    def rollout(self, rules: Ruleset, state: Any, seat: str, dice: Any) -> None:
        """Play on a little from a leaf before it is valued (default: not at all)."""
        return None

    def outcome_key(self, events: list[Event]) -> str:
        """What tells two outcomes of the same action apart: the events, without the die values."""
        return repr([(e.type, sorted(e.data.items())) for e in events if e.type != ROLL])

    def same_position(self, one: Any, other: Any) -> bool:
        """Whether two states are one position for the search (a kept subtree is reused only there)."""
        return bool(one == other)


def settled(root: Node, left: int) -> bool:
    """Whether ``left`` more iterations could not change the root's most visited edge: its lead is larger."""
    assert root.edges is not None
    first, second = sorted((edge.visits for edge in root.edges), reverse=True)[:2]
    return first - second > left


def action_key(action: Action) -> str:
    return repr(sorted(action.items()))


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
        self.last_carried = 0  # of those, the visits carried over from the decision before
        self._kept: tuple[Any, Node] | None = None  # the position the last chosen action led to, and its subtree
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
        root = self._root(state, self.knowledge.candidates(state, seat, legal, root=True))
        self._kept = None
        count, longest = root.visits, 0.0
        self.last_carried = self.last_iterations = count
        if len(root.edges) == 1:
            return root.edges[0].action
        while True:
            now = self.now()
            if self.iterations and count >= self.iterations:
                break  # the iteration budget: the same search however busy the machine
            if self.iterations and settled(root, self.iterations - count):
                break  # the iterations left could not change the most visited action: the same choice, sooner
            if count >= 2 and now + longest > deadline:
                self.cut_short += bool(self.iterations)
                break  # the time budget, a ceiling when there is an iteration budget too
            self._iterate(root, state)
            longest = max(longest, self.now() - now)
            count += 1
        self.last_iterations = count
        self.searches += 1
        best = max(root.edges, key=lambda e: (e.visits, e.total))
        self._kept = self._successor(state, seat, best)
        return best.action

    def _root(self, state: Any, candidates: list[Action]) -> Node:
        """The decision's root: the subtree kept from the decision before when this is the position it led to,
        with the counts of its edges that are among this decision's candidates; otherwise a new node."""
        root = Node()
        kept = self._kept[1] if self._kept and self.knowledge.same_position(self._kept[0], state) else None
        known = {action_key(edge.action): edge for edge in kept.edges or ()} if kept is not None else {}
        root.edges = [known.get(action_key(action)) or Edge(action) for action in candidates]
        root.visits = sum(edge.visits for edge in root.edges)
        return root

    def _successor(self, state: Any, seat: str, edge: Edge) -> tuple[Any, Node] | None:
        """The position ``edge``'s action leads to and its subtree, when no die decides it and it was searched."""
        after = self.rules.clone(state)
        try:
            events = self.rules.apply(after, seat, edge.action, ScriptedDice([]))
        except DiceExhausted:
            return None  # the dice decide what follows: the next decision searches afresh
        child = edge.outcomes.get(self.knowledge.outcome_key(events))
        return (after, child) if child is not None and child.edges else None

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
                node.edges = [Edge(a) for a in knowledge.candidates(state, mover, rules.legal_actions(state, mover))]
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

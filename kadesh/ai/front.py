"""Front's computer opponents: « Général Maladroit » and « Chef d'état-major », and Front's random player.

Each bot sees what its side sees and nothing else: at every order it rebuilds the battle from its
view (``Front.state_from_view``: the enemy units it does not spot are not there) and weighs its
units' orders one unit at a time (``ruleset.unit_orders``), never the whole side's list. How they
decide is in docs/ai.md (« Front »).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kadesh.ai.base import Bot, register_bot
from kadesh.ai.front_sense import Sense, goal_of
from kadesh.core.grid import chebyshev
from kadesh.rules.front.ruleset import unit_orders
from kadesh.rules.front.state import State, Unit

END_TURN = {"type": "end_turn"}
ORDERS_PER_UNIT = 4        # no unit is given more orders in a turn: a bot never dithers forever


@dataclass
class TurnMemory:
    """What a bot remembers of the turn it is playing: the orders each unit has had, and the units done."""

    turn: tuple[int, str] = (0, "")
    given: dict[str, int] = field(default_factory=dict)
    done: set[str] = field(default_factory=set)

    def start(self, state: State) -> None:
        if self.turn != (state.turn, state.active):
            self.turn, self.given, self.done = (state.turn, state.active), {}, set()

    def order(self, action: dict[str, Any]) -> dict[str, Any]:
        if "unit" in action:
            self.given[action["unit"]] = self.given.get(action["unit"], 0) + 1
            if self.given[action["unit"]] >= ORDERS_PER_UNIT:
                self.done.add(action["unit"])
        return action


class FrontBot(Bot):
    """A Front side played from its view, unit by unit."""

    wants_legal = False

    def __init__(self, ruleset: str, seed: int | None = None, budget: float | None = None) -> None:
        super().__init__(ruleset, seed, budget)
        self.memory = TurnMemory()

    def choose(self, view: dict[str, Any], seat: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        state = self.rules.state_from_view(view, seat)
        self.memory.start(state)
        return self.memory.order(self.next_order(state, seat))

    def next_order(self, state: State, seat: str) -> dict[str, Any]:
        raise NotImplementedError

    def units_to_play(self, state: State, seat: str) -> list[Unit]:
        return [u for u in state.units.values() if u.side == seat and u.on_map and u.id not in self.memory.done]


class FrontRandom(FrontBot):
    """Front's baseline: a random unit, then a random legal order of it; the turn ends once every unit has had its
    orders or has none left (a uniform draw over the whole list would end the turn one time in thousands)."""

    level = "random"
    title = {"fr": "Hasard", "en": "Random"}
    hint = {"fr": "le plus faible : il joue au hasard, pour découvrir les règles sans pression",
            "en": "the weakest: it plays at random, to learn the rules without pressure"}

    def next_order(self, state: State, seat: str) -> dict[str, Any]:
        units = self.units_to_play(state, seat)
        self.rng.shuffle(units)
        for unit in units:
            orders = unit_orders(state, unit.id)
            if orders:
                return self.rng.choice(orders)
            self.memory.done.add(unit.id)
        return END_TURN


class Maladroit(FrontBot):
    """« Général Maladroit »: each unit in turn fires at what it can hit hardest, else marches straight at its goal
    (the nearest point to take, or the nearest enemy), heedless of cover, threats and supply; now and then an
    order at random (``BLUNDER``)."""

    level = "maladroit"
    title = {"fr": "Général Maladroit", "en": "General Clumsy"}
    hint = {"fr": "facile : chaque unité tire ou fonce vers son but, sans souci du couvert ni du ravitaillement",
            "en": "easy: each unit fires or rushes at its goal, heedless of cover and supply"}
    BLUNDER = 0.1

    def next_order(self, state: State, seat: str) -> dict[str, Any]:
        sense = Sense(state, seat)
        for unit in self.units_to_play(state, seat):
            orders = unit_orders(state, unit.id)
            if not orders:
                self.memory.done.add(unit.id)
                continue
            if self.rng.random() < self.BLUNDER:
                self.memory.done.add(unit.id)
                return self.rng.choice(orders)
            order = self._careless(state, sense, unit, orders)
            if order is not None:
                return order
            self.memory.done.add(unit.id)
        return END_TURN

    def _careless(self, state: State, sense: Sense, unit: Unit, orders: list[dict[str, Any]]) -> dict[str, Any] | None:
        shots = [o for o in orders if sense.is_shot(o)]
        if shots:
            return max(shots, key=lambda o: sense.shot(unit, o).damage)
        if unit.moved:
            return None
        goal = goal_of(sense, unit)
        moves = [o for o in orders if o["type"] == "move"]
        if goal is None or not moves:
            return None
        here = chebyshev(unit.cell, goal)
        best = min(moves, key=lambda o: chebyshev(sense.cell(o["to"]), goal))
        return best if chebyshev(sense.cell(best["to"]), goal) < here else None


register_bot("front", "random")(FrontRandom)
register_bot("front", "maladroit")(Maladroit)

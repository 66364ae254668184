"""« Chef d'état-major » (« Chief of Staff »): Front's careful computer opponent.

It plays on the battle rebuilt from its side's view, in the manner of Wesnoth's candidate-action AI: at each
order it weighs a few kinds of candidate orders, scores each, and gives the best one, then looks again.

1. **Fire** (units in contact only): every shot its units can fire now, scored by the worth of the harm it does
   (expected damage after cover, a bonus for a kill, the blast on friends counted against it); the best first, so
   that fire is focused and a wounded enemy is finished off.
2. **Logistics**: a supply truck refills a neighbour short of rounds or fuel; an operator sends its drones up
   once the enemy is near; a helicopter short of fuel lands; a drone short of battery comes home.
3. **Move to fire**: a unit with a shot left and no target walks to the cell where a shot is worth most, less the
   fire it will take there.
4. **Position**: each unit not moved yet goes to the cell that scores best: nearer its goal (the mission's cells,
   a point to take for an engineer, the nearest enemy at its weapon's range for the others, a medic, a workshop
   or a supply truck when wounded or short of rounds), in cover, out of the enemy's reach (its threat map: every
   cell an enemy seen could fire at next turn, after a move, with the damage it would do). A unit that would
   gain little by moving and could be reached by an enemy stays on alert (overwatch) instead.
5. Then the turn ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kadesh.ai.base import register_bot
from kadesh.ai.front import END_TURN, FrontBot
from kadesh.ai.front_sense import Sense, goal_of, harm_worth, nearest, worth
from kadesh.core.grid import Cell, chebyshev, map_cell_name, within
from kadesh.rules.front import aircraft, fire, logistics, moves, structures
from kadesh.rules.front.ruleset import unit_moves, unit_orders
from kadesh.rules.front.state import State, Unit

GOAL_WEIGHT = 1.0          # worth of a cell nearer the goal
RISK_WEIGHT = 0.6          # the expected worth lost to the enemy's next turn, per point of it
BOLD_RISK_WEIGHT = 0.25    # the same, when the mission has a deadline to meet (``Sense.attacking``)
CONVOY_GOAL_WEIGHT = 4.0   # a convoy to get out weighs each cell nearer the exit this much
ENGINEER_GOAL_WEIGHT = 2.5  # an engineer going to take a point, or a unit to contest one, the same (points
#                            win battles)
COVER_WEIGHT = 0.4         # a cover point (it also lowers the risk)
ALERT_GAIN = 1.5           # overwatch beats a move that gains less than this
WOUNDED = 0.5              # at this share of its hit points or less, a unit looks for care
SHORT = 0.34               # at this share of its rounds (or fuel) or less, a unit looks for a supply truck
LAUNCH_DISTANCE = 12       # an operator sends its drones up once an enemy is this near
LOW_FUEL_TURNS = 1         # a helicopter lands with fuel for this many turns aloft left
LOW_BATTERY = 1            # a drone comes home with this many turns of battery left
MOVE_TO_FIRE_CELLS = 24    # cells weighed for a move to fire, the nearest to the enemy first
CONTESTERS = 2             # units sent to each point the enemy holds or is taking
CONTEST_DISTANCE = 3       # they stop this near it (within 4 cells the point is neutral again)


@dataclass(frozen=True, slots=True)
class Reach:
    """Where an enemy seen could fire at next turn: cells it could hit without moving, and after a move."""

    still: frozenset[Cell]
    moving: frozenset[Cell]


class ChiefOfStaff(FrontBot):
    level = "etat_major"
    title = {"fr": "Chef d'état-major", "en": "Chief of Staff"}
    hint = {"fr": "fort : il coordonne ses unités, se couvre, se ravitaille et poursuit la mission",
            "en": "strong: it coordinates its units, takes cover, keeps supplied and pursues the mission"}

    def __init__(self, ruleset: str, seed: int | None = None, budget: float | None = None) -> None:
        super().__init__(ruleset, seed, budget)
        self._reach: dict[tuple[str, Cell], Reach] = {}
        self._reach_turn: tuple[int, str] = (0, "")
        self._nothing_to_fire_at: dict[str, tuple[tuple[int, str], frozenset[str]]] = {}
        self.own_mines: set[Cell] | None = None
        self.last_seen: dict[str, Unit] = {}  # each enemy unit as it last saw it (a person remembers it too)

    def next_order(self, state: State, seat: str) -> dict[str, Any]:
        if self._reach_turn != self.memory.turn:  # the enemy has moved since
            self._reach, self._reach_turn = {}, self.memory.turn
        sense = Sense(state, seat)
        self._remember(state, sense)
        for candidate in (self._fire, self._logistics, self._move_to_fire, self._position):
            order = candidate(state, sense)
            if order is not None:
                return order
        return END_TURN

    def _remember(self, state: State, sense: Sense) -> None:
        """The enemies seen now are where they are; one remembered on a cell the side sees now, and not seen
        there, has gone (or fallen): forgotten. The mines known at the first look are its own (it lays none)."""
        if self.own_mines is None:
            self.own_mines = set(state.mines)
        for enemy in sense.enemies:
            self.last_seen[enemy.id] = enemy
        if len(self.last_seen) > len(sense.enemies):
            seen_now = {e.id for e in sense.enemies}
            for enemy_id, enemy in list(self.last_seen.items()):
                if enemy_id not in seen_now and enemy.cell in sense.in_sight:
                    del self.last_seen[enemy_id]

    # -- 1. fire ------------------------------------------------------------------------------------------------
    def _fire(self, state: State, sense: Sense) -> dict[str, Any] | None:
        best, best_value = None, 0.0
        for unit in self._in_contact(sense):
            for order in unit_orders(state, unit.id, with_moves=False):
                if sense.is_shot(order):
                    value = self._shot_value(sense, unit, order)
                    if value > best_value:
                        best, best_value = order, value
        return best

    def _shot_value(self, sense: Sense, unit: Unit, order: dict[str, Any]) -> float:
        value = sense.shot(unit, order).value
        if order["type"] == "strike":  # a kamikaze drone is spent in its strike
            value -= worth(unit)
        return value

    def _in_contact(self, sense: Sense) -> list[Unit]:
        """Own units with a shot left and an enemy seen within their longest reach."""
        found = []
        for unit in sense.own:
            weapons = [w for w in unit.type.weapons if w.ammo > 0]
            if not unit.on_map or not weapons or unit.ap < unit.type.shot_cost:
                continue
            longest = max(w.range for w in weapons)
            if any(chebyshev(e.cell, unit.cell) <= longest for e in sense.enemies):
                found.append(unit)
        return found

    # -- 2. logistics -------------------------------------------------------------------------------------------
    def _logistics(self, state: State, sense: Sense) -> dict[str, Any] | None:
        for unit in sense.own:
            if not unit.on_map:
                continue
            extras = unit.type.extras
            if extras.get("supplies") or extras.get("spots_mines") or unit.cargo or unit.flying:
                for order in unit_orders(state, unit.id, with_moves=False):
                    if self._worth_doing(state, sense, unit, order):
                        return order
        return None

    def _worth_doing(self, state: State, sense: Sense, unit: Unit, order: dict[str, Any]) -> bool:
        kind = order["type"]
        if kind == "resupply":
            return short(state.units[order["target"]])
        if kind == "launch":
            return any(chebyshev(e.cell, unit.cell) <= LAUNCH_DISTANCE for e in sense.enemies)
        if kind == "land":
            return unit.type.aircraft == "helicopter" and (unit.fuel or 0) <= LOW_FUEL_TURNS \
                * unit.type.extras.get("fuel_per_turn", 1)
        if kind == "demine":  # an enemy mine its engineer has found (it lays none of its own)
            return self._cell(order["cell"]) not in self.own_mines
        if kind == "recover":
            return unit.battery is not None and unit.battery <= LOW_BATTERY
        return False

    # -- 3. move to fire ----------------------------------------------------------------------------------------
    def _move_to_fire(self, state: State, sense: Sense) -> dict[str, Any] | None:
        best, best_value = None, 0.0
        enemies = frozenset(e.id for e in sense.enemies)
        for unit in sense.own:
            if unit.id in self.memory.done or unit.moved or not unit.on_map:
                continue
            if self._nothing_to_fire_at.get(unit.id) == (self.memory.turn, enemies):
                continue  # weighed already this turn, with the same enemies in sight
            weapons = [w for w in unit.type.weapons if w.ammo > 0 and not unit.type.extras.get("fires_only_still")]
            if not weapons or fire.rounds(unit, weapons[0]) <= 0:
                continue
            reach = unit_moves(state, unit.id)
            cells = self._cells_to_fire_from(sense, unit, reach, max(max(1, w.range // 2) for w in weapons))
            unit_best = 0.0
            for cell in cells:
                value = self._fire_from(state, sense, unit, cell, reach[cell]) - self._risk(state, sense, unit, cell)
                unit_best = max(unit_best, value)
                if value > best_value:
                    best, best_value = {"type": "move", "unit": unit.id, "to": map_cell_name(cell)}, value
            if unit_best <= 0:
                self._nothing_to_fire_at[unit.id] = (self.memory.turn, enemies)
        return best

    def _cells_to_fire_from(self, sense: Sense, unit: Unit, reach: dict[Cell, int], halved: int) -> list[Cell]:
        cells = [c for c, cost in reach.items() if unit.ap - cost >= unit.type.shot_cost
                 and any(chebyshev(c, e.cell) <= halved for e in sense.enemies)]
        cells.sort(key=lambda c: min(chebyshev(c, e.cell) for e in sense.enemies))
        return cells[:MOVE_TO_FIRE_CELLS]

    def _fire_from(self, state: State, sense: Sense, unit: Unit, cell: Cell, cost: int) -> float:
        """The best shot ``unit`` could fire once moved to ``cell`` (tried in place, then put back)."""
        start, ap, moved = unit.cell, unit.ap, unit.moved
        state.lift(unit)
        state.place(unit, cell)
        unit.ap, unit.moved = ap - cost, True
        try:
            shots = [o for o in unit_orders(state, unit.id, with_moves=False) if sense.is_shot(o)]
            return max((self._shot_value(sense, unit, o) for o in shots), default=0.0)
        finally:
            state.lift(unit)
            state.place(unit, start)
            unit.ap, unit.moved = ap, moved

    # -- 4. position --------------------------------------------------------------------------------------------
    def _position(self, state: State, sense: Sense) -> dict[str, Any] | None:
        for unit in sense.own:
            if unit.id in self.memory.done or not unit.on_map:
                continue
            order = self._place(state, sense, unit)
            if order is not None:
                return order
            self.memory.done.add(unit.id)
        return None

    def _place(self, state: State, sense: Sense, unit: Unit) -> dict[str, Any] | None:
        if unit.moved:
            return None
        orders = unit_orders(state, unit.id)
        moves_to = {sense.cell(o["to"]): o for o in orders if o["type"] == "move"}
        goal, keep = self._goal(sense, unit)
        weight = self._goal_weight(sense, unit)
        here = self._score(state, sense, unit, unit.cell, (goal, keep, weight))
        best_cell = max(moves_to, key=lambda c: self._score(state, sense, unit, c, (goal, keep, weight)), default=None)
        gain = self._score(state, sense, unit, best_cell, (goal, keep, weight)) - here if best_cell is not None else 0.0
        alert = next((o for o in orders if o["type"] == "alert"), None)
        if alert is not None and gain < ALERT_GAIN and self._threatened(state, sense, unit.cell):
            self.memory.done.add(unit.id)
            return alert
        return moves_to[best_cell] if best_cell is not None and gain > 0 else None

    def _goal(self, sense: Sense, unit: Unit) -> tuple[Cell | None, int]:
        """Where the unit heads, and how far from it it would rather stay (a weapon's range from an enemy)."""
        if self._in_convoy(sense, unit):  # its mission is the exit, whatever its wounds or its fuel
            return goal_of(sense, unit), 0
        care = self._care(sense, unit)
        if care is not None:
            return care, 1
        if unit.type.extras.get("captures") and sense.points_to_take and not sense.objectives(mine=True):
            return self._point_for(sense, unit), 0
        point = self._point_to_contest(sense, unit)
        if point is not None:
            return point, CONTEST_DISTANCE
        hunt = self._hunt(sense, unit)
        if hunt is not None:
            return hunt, 0
        if not sense.enemies and self._may_search(sense, unit):
            return self._search(sense, unit), 0
        goal = goal_of(sense, unit)
        if goal is None:
            return None, 0
        if any(e.cell == goal for e in sense.enemies):
            weapon = unit.type.weapon()
            keep = max(1, weapon.range - 1) if weapon is not None and weapon.ammo > 0 else 4
            return goal, keep
        return goal, 0

    def _care(self, sense: Sense, unit: Unit) -> Cell | None:
        """A wounded unit goes to a medic (on foot) or an engineer (a vehicle); one short of rounds to a supply
        truck; a supply truck to the unit most in need of it."""
        if unit.type.extras.get("supplies"):
            needy = [u.cell for u in sense.own if u is not unit and u.on_ground and short(u)]
            return nearest(needy, unit.cell)
        helpers: list[Cell] = []
        if unit.hp <= WOUNDED * unit.type.hp and not unit.flying:
            service = logistics.care_for(unit)
            helpers = [u.cell for u in sense.own if u is not unit and u.on_ground and u.type.extras.get(service)]
        if not helpers and short(unit) and not unit.flying:
            helpers = [u.cell for u in sense.own if u.on_ground and u.type.extras.get("supplies")]
        return nearest(helpers, unit.cell)

    def _hunt(self, sense: Sense, unit: Unit) -> Cell | None:
        """A unit the mission says to destroy and that is out of sight is looked for: where it was last seen,
        else at the enemy's works and buildings not in sight now, else at the nearest cell out of sight."""
        hunted = [o for o in sense.objectives(mine=True) if o.kind == "destroy"]
        if not hunted or any(o.marks(e) for o in hunted for e in sense.enemies):
            return None
        remembered = [e.cell for e in self.last_seen.values() if any(o.marks(e) for o in hunted)]
        hidden = [c for c in sense.enemy_buildings if c not in sense.in_sight]
        return nearest(remembered or hidden or sense.out_of_sight, unit.cell)

    @staticmethod
    def _may_search(sense: Sense, unit: Unit) -> bool:
        """Not an engineer (it takes points), not a unit the enemy must destroy (it hides), and not on a side that
        holds ground or guards such a unit (it stays where it defends)."""
        defending = any(o.kind == "hold" for o in sense.objectives(mine=True)) or \
            any(o.kind == "destroy" for o in sense.objectives(mine=False))
        return not defending and not unit.type.extras.get("captures")

    def _search(self, sense: Sense, unit: Unit) -> Cell | None:
        """With no enemy in sight: where one was last seen, else the nearest cell out of sight."""
        if self.last_seen:
            return nearest([e.cell for e in self.last_seen.values()], unit.cell)
        return nearest(sense.out_of_sight, unit.cell)

    def _point_to_contest(self, sense: Sense, unit: Unit) -> Cell | None:
        """The point the enemy holds or is taking that this unit is among the nearest to (``CONTESTERS`` a point),
        if any: it goes within 4 cells to make it neutral again."""
        fighters = [u for u in sense.own if u.on_ground and u.type.armed and not u.type.extras.get("captures")]
        for point in sense.contested:
            if unit in sorted(fighters, key=lambda u: (chebyshev(u.cell, point), u.id))[:CONTESTERS]:
                return point
        return None

    def _point_for(self, sense: Sense, unit: Unit) -> Cell | None:
        """Each engineer its own point: the points to take shared out, nearest engineer first."""
        engineers = sorted((u for u in sense.own if u.on_map and u.type.extras.get("captures")), key=lambda u: u.id)
        free = list(sense.points_to_take)
        for engineer in engineers:
            if not free:
                break
            point = nearest(free, engineer.cell)
            if engineer is unit:
                return point
            free.remove(point)
        return nearest(sense.points_to_take, unit.cell)

    def _score(self, state: State, sense: Sense, unit: Unit, cell: Cell,
               heading: tuple[Cell | None, int, float]) -> float:
        """A cell for ``unit`` going to ``heading`` (its goal, the distance it keeps from it, the weight of a cell
        nearer): cover, less the risk there, less the way still to go (a unit on an errand that wins battles, a
        convoy or a point to take or contest, takes the bolder view of risk)."""
        goal, keep, weight = heading
        score = COVER_WEIGHT * structures.ground_cover(state, cell) - self._risk(state, sense, unit, cell,
                                                                                bold=weight > GOAL_WEIGHT)
        if goal is not None:
            score -= weight * abs(chebyshev(cell, goal) - keep)
        return score

    @staticmethod
    def _cell(name: str) -> Cell:
        return Sense.cell(name)

    @staticmethod
    def _in_convoy(sense: Sense, unit: Unit) -> bool:
        return any(o.kind == "escort" and o.marks(unit) for o in sense.objectives(mine=True))

    def _goal_weight(self, sense: Sense, unit: Unit) -> float:
        if self._in_convoy(sense, unit):
            return CONVOY_GOAL_WEIGHT
        if unit.type.extras.get("captures") and sense.points_to_take:
            return ENGINEER_GOAL_WEIGHT
        if self._point_to_contest(sense, unit) is not None:
            return ENGINEER_GOAL_WEIGHT
        return GOAL_WEIGHT

    # -- the enemy's reach --------------------------------------------------------------------------------------
    def _risk(self, state: State, sense: Sense, unit: Unit, cell: Cell, bold: bool = False) -> float:
        """The worth ``unit`` would expect to lose on ``cell`` to the enemies seen, next turn."""
        cover = 0 if unit.flying else min(fire.MAX_COVER, structures.ground_cover(state, cell))
        damage = 0
        for enemy in sense.enemies:
            reach = self._reach_of(state, enemy)
            if cell not in reach.moving and cell not in reach.still:
                continue
            aiming = aircraft.target_kind(unit)
            weapon = next((w for w in enemy.type.weapons if w.ammo > 0 and fire.why_not_aim(w, aiming) is None), None)
            if weapon is not None:
                damage += fire.damage_of(weapon.damage.get(unit.type.size, 0), cover, 5) * enemy.type.shots
        weight = BOLD_RISK_WEIGHT if bold or sense.attacking else RISK_WEIGHT
        return weight * harm_worth(unit, damage) if damage else 0.0

    def _threatened(self, state: State, sense: Sense, cell: Cell) -> bool:
        return any(cell in self._reach_of(state, e).moving for e in sense.enemies)

    def _reach_of(self, state: State, enemy: Unit) -> Reach:
        key = (enemy.id, enemy.cell)
        if key not in self._reach:
            self._reach[key] = enemy_reach(state, enemy)
        return self._reach[key]


def enemy_reach(state: State, enemy: Unit) -> Reach:
    weapons = [w for w in enemy.type.weapons if w.ammo > 0]
    if not weapons:
        return Reach(frozenset(), frozenset())
    full = max(w.range for w in weapons)
    still = frozenset(within(enemy.cell, full, state.width, state.height))
    moving: set[Cell] = set()
    halved = max(1, full // 2)
    if enemy.type.flies:  # its leash and fuel are not the side's to know: anywhere its action points take it
        return Reach(still, frozenset(within(enemy.cell, enemy.type.ap + halved, state.width, state.height)))
    if not enemy.type.extras.get("fires_only_still"):
        saved = enemy.ap
        enemy.ap = enemy.type.ap - enemy.type.shot_cost
        try:
            ends = moves.reachable(state, enemy)
        finally:
            enemy.ap = saved
        for cell in ends:
            moving.update(within(cell, halved, state.width, state.height))
    return Reach(still, frozenset(moving))


def short(unit: Unit) -> bool:
    """Short of rounds or fuel."""
    weapon = unit.type.weapon()
    if weapon is not None and weapon.ammo > 0 and unit.ammo <= SHORT * unit.type.ammo:
        return True
    return unit.fuel is not None and unit.type.fuel and unit.fuel <= SHORT * unit.type.fuel


register_bot("front", "etat_major")(ChiefOfStaff)

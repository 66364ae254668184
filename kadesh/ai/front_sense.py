"""What Front's bots make of a battle rebuilt from their view: the enemies they see, what a shot is worth,
where each unit is going (the mission's objectives first, then the capture points and the enemy)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from kadesh.core.grid import Cell, chebyshev
from kadesh.rules.front import aircraft, combat, fire
from kadesh.rules.front.known import cell as cell_named
from kadesh.rules.front.state import State, Unit
from kadesh.rules.front.vision import sight_of

SHOTS = ("shoot", "bomb", "strike")
KILL_BONUS = 0.5          # a destroyed enemy is worth half its worth again: it fires no more
FRIENDLY_BLAST = 1.5      # harm to one's own units in a shell's blast weighs more than the same harm dealt
LUCK = 5                  # the luck roll's mean (0–10 %)
ON_POINT = 2.0            # an enemy engineer on a capture point is worth this much more to shoot


@dataclass(frozen=True, slots=True)
class Shot:
    target: Unit
    damage: int           # to the target, at the mean luck
    kills: bool
    value: float          # worth of the harm done, less the harm to friends in the blast


class Sense:
    def __init__(self, state: State, seat: str) -> None:
        self.state, self.seat = state, seat

    @cached_property
    def own(self) -> list[Unit]:
        return [u for u in self.state.units.values() if u.side == self.seat]

    @cached_property
    def enemies(self) -> list[Unit]:
        """The enemy units the side spots now (the only ones in the rebuilt battle)."""
        return [u for u in self.state.units.values() if u.side != self.seat and u.on_map]

    @staticmethod
    def cell(name: str) -> Cell:
        return cell_named(name)

    @staticmethod
    def is_shot(order: dict[str, Any]) -> bool:
        return order["type"] in SHOTS and order.get("at") != "structure"

    def target_of(self, order: dict[str, Any]) -> Unit:
        layer = self.state.air if order.get("at") == "air" else self.state.occupied
        return self.state.units[layer[self.cell(order["target"])]]

    def shot(self, shooter: Unit, order: dict[str, Any]) -> Shot:
        target = self.target_of(order)
        weapon = shooter.type.weapon(order.get("weapon"))
        downed = aircraft.downed_by_one_shot(target)
        damage = target.hp if downed else fire.damage(self.state, shooter, target, LUCK, weapon)
        value = harm_worth(target, damage)
        if weapon is not None and weapon.blast and not target.flying:
            for other in combat.blast_victims(self.state, weapon, target.cell, target):
                harm = harm_worth(other, fire.damage(self.state, shooter, other, LUCK, weapon) // 2)
                value += -FRIENDLY_BLAST * harm if other.side == self.seat else harm
        if target.cell in self.state.holders and target.type.extras.get("captures"):
            value *= ON_POINT  # an engineer taking a point: stop it before it counts its second end of turn
        return Shot(target, damage, damage >= target.hp, value)

    # -- the mission ------------------------------------------------------------------------------------------
    def objectives(self, mine: bool) -> list[Any]:
        return [o for o in self.state.victory.objectives if (o.side == self.seat) == mine]

    @cached_property
    def attacking(self) -> bool:
        """Whether the mission asks the side to act before a deadline (get a convoy out, destroy a target, take
        cells held until a turn): it then takes more risks."""
        return any(o.kind in ("escort", "destroy") for o in self.objectives(mine=True)) or \
            any(o.kind == "hold" for o in self.objectives(mine=False))

    @cached_property
    def enemy_buildings(self) -> list[Cell]:
        """The enemy's works and buildings the side knows of: where a hidden headquarters may stand."""
        return [c for c, s in self.state.structures.items() if s.owner not in (None, self.seat) and not s.carcass]

    @cached_property
    def in_sight(self) -> set[Cell]:
        return sight_of(self.state, self.seat)

    @cached_property
    def out_of_sight(self) -> list[Cell]:
        width, height = self.state.width, self.state.height
        return [(x, y) for y in range(height) for x in range(width) if (x, y) not in self.in_sight]

    @cached_property
    def contested(self) -> list[Cell]:
        """The capture points the enemy holds or is taking (one of its engineers on it): an own unit within 4
        cells makes them neutral again and stops the count."""
        if not self.state.victory.default:
            return []
        taking = {e.cell for e in self.enemies if e.type.extras.get("captures")}
        return [p for p in self.state.points if p in taking or self.state.holders.get(p) not in (None, self.seat)]

    @cached_property
    def points_to_take(self) -> list[Cell]:
        if not self.state.victory.default:
            return []
        return [p for p in self.state.points if self.state.holders.get(p) != self.seat]


def worth(unit: Unit) -> float:
    """What a unit is worth to its side: its hit points and its punch; a general and an engineer more."""
    weapon = unit.type.weapon()
    punch = max(weapon.damage.values(), default=0) if weapon is not None else 0
    value = unit.type.hp + 2 * punch
    if unit.type.extras.get("command_radius"):
        value *= 2
    if unit.type.extras.get("captures"):
        value *= 1.5
    if unit.tag is not None:
        value *= 2
    return value


def harm_worth(unit: Unit, damage: int) -> float:
    dealt = min(damage, unit.hp)
    value = worth(unit) * dealt / unit.type.hp
    return value + (KILL_BONUS * worth(unit) if damage >= unit.hp else 0.0)


def goal_of(sense: Sense, unit: Unit) -> Cell | None:
    """Where ``unit`` is going: the mission's cells first, then a point to take (an engineer) or the nearest enemy,
    else the nearest point its side does not hold."""
    for objective in sense.objectives(mine=True):
        if objective.kind == "escort" and objective.marks(unit):
            return nearest(list(objective.cells), unit.cell)
        if objective.kind == "destroy":
            marked = [e.cell for e in sense.enemies if objective.marks(e)]
            if marked or sense.enemy_buildings:  # unseen, the target is looked for where the enemy has built
                return nearest(marked or sense.enemy_buildings, unit.cell)
    for objective in sense.objectives(mine=False):
        if objective.kind == "hold":
            return nearest(list(objective.cells), unit.cell)
        if objective.kind == "escort":
            convoy = [e.cell for e in sense.enemies if objective.marks(e)]
            return nearest(convoy or list(objective.cells), unit.cell)
        if objective.kind == "destroy" and objective.marks(unit):
            return None  # the hunted unit keeps still (and the careful level keeps it safe)
    if unit.type.extras.get("captures") and sense.points_to_take:
        return nearest(sense.points_to_take, unit.cell)
    targets = [e.cell for e in sense.enemies if not e.flying]
    return nearest(targets or sense.points_to_take, unit.cell)


def nearest(cells: list[Cell], start: Cell) -> Cell | None:
    return min(cells, key=lambda c: (chebyshev(c, start), c[1], c[0]), default=None)

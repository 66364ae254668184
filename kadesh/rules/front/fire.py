"""Fire on the ground: who may shoot, how far, through what, and for how much damage: rules 2
(fire rate), 6 (range after moving, still-only weapons), 7 (line of fire), 8 (ammunition), 13
(cover) and the damage of the starting values. A unit aboard a truck is off the ground: it
neither fires, nor is hit, nor gives its bonus (a supply truck's or a general's).
"""

from __future__ import annotations

from kadesh.core.grid import Cell, chebyshev, line_steps
from kadesh.rules.front import structures
from kadesh.rules.front.state import State, Unit

COVER_STEP_PERCENT = 15   # each cover point takes 15 % off the damage
MAX_COVER = 4
LUCK_PERCENT = 10         # a seeded luck of 0–10 % more damage
RUINS_THAT_BLOCK = 2      # "une ruine de village seule ne l'arrête pas, deux oui"


def shots_allowed(state: State, unit: Unit) -> int:
    """Once a turn; twice beside a friendly supply truck or within 5 cells of its general, or by default
    for the heavy tank and the general."""
    if unit.type.shots > 1:
        return unit.type.shots
    for friend in state.units.values():
        if friend.side != unit.side or friend is unit or not friend.on_map:
            continue
        if friend.type.extras.get("supplies") and chebyshev(friend.cell, unit.cell) <= 1:
            return 2
        radius = friend.type.extras.get("command_radius")
        if radius is not None and chebyshev(friend.cell, unit.cell) <= radius:
            return 2
    return 1


def fire_range(unit: Unit) -> int:
    """After a move the range falls by half (rounded down, at least 1)."""
    return max(1, unit.type.range // 2) if unit.moved else unit.type.range


def why_not_fire(state: State, unit: Unit, target: Cell) -> str | None:
    """Why ``unit`` may not fire at ``target`` now, or None if it may."""
    kind = unit.type
    if not kind.armed:
        return "unarmed"
    if unit.aboard is not None:
        return "aboard"
    if unit.ammo <= 0:
        return "no_ammo"
    if unit.shots >= shots_allowed(state, unit):
        return "fired"
    if unit.ap < kind.shot_cost:
        return "no_ap"
    if kind.extras.get("fires_only_still") and unit.moved:
        return "moved"
    distance = chebyshev(unit.cell, target)
    if distance > fire_range(unit) or distance < max(1, kind.min_range):
        return "range"
    if not kind.indirect and not line_is_open(state, unit.cell, target):
        return "blocked"
    return None


def line_is_open(state: State, a: Cell, b: Cell) -> bool:
    """A direct shot passes unless a unit, a forest, a hill or two ruins stand between. Where the
    line runs exactly between two cells, it passes if either of them is open."""
    ruins = 0
    for cells in line_steps(a, b):
        kinds = [_obstacle(state, cell) for cell in cells]
        if all(kind == "wall" for kind in kinds):
            return False
        if all(kind in ("wall", "ruin") for kind in kinds):
            ruins += 1
            if ruins >= RUINS_THAT_BLOCK:
                return False
    return True


def _obstacle(state: State, cell: Cell) -> str | None:
    structure = state.structures.get(cell)
    if cell in state.occupied or (structure is not None and structure.type.category == "building"
                                  and structure.complete and not structure.carcass):
        return "wall"
    terrain = state.terrain_at(cell)
    if terrain is None:
        return None
    if terrain.blocks_fire:
        return "wall"
    return "ruin" if terrain.ruin else None


def cover_points(state: State, target: Unit) -> int:
    """The cell's cover (terrain and structure), one more within 5 cells of its own general, at most 4."""
    points = structures.ground_cover(state, target.cell)
    for friend in state.units.values():
        radius = friend.type.extras.get("command_radius")
        if friend.side == target.side and friend is not target and radius is not None and friend.on_map \
                and chebyshev(friend.cell, target.cell) <= radius:
            points += 1
            break
    return min(points, MAX_COVER)


def damage(state: State, shooter: Unit, target: Unit, luck: int) -> int:
    """Base damage by the target's size, less 15 % a cover point, plus ``luck`` % (0–10)."""
    base = shooter.type.damage.get(target.type.size, 0)
    kept = 100 - COVER_STEP_PERCENT * cover_points(state, target)
    return max(0, base * kept * (100 + luck) // 10_000)

"""Works and buildings (rule 11, and rule 5's "nobody crosses a building or a site").

An enemy building, finished or a site, can be targeted and takes full damage, without cover; a
finished one destroyed leaves a carcass an engineer must clear; a site leaves nothing. A work
that is not yours (a neutral bridge included) can be targeted the same way; under a unit, only
finished trenches, bunkers and dragon's teeth can. Fire at a unit also damages the work or
building of its cell, except a weapon of 1 damage. Engineers build works and buildings.
"""

from __future__ import annotations

from kadesh.core.grid import Cell, chebyshev
from kadesh.rules.front.data import TABLES, StructureType, Weapon
from kadesh.rules.front.state import State, Structure, Unit

TARGETABLE_UNDER_A_UNIT = ("trench", "bunker", "dragons_teeth")
STRUCTURE_SIZE = "L"   # choice: a work or a building takes a weapon's damage against large targets


def blocks_movement(structure: Structure) -> bool:
    """Nobody crosses a building, finished or a site (even abandoned), nor a carcass; a work lets
    through those its costs allow."""
    return structure.type.category == "building" or structure.carcass or not structure.complete


def step_cost(structure: Structure, movement: str) -> int | None:
    if blocks_movement(structure):
        return None
    if structure.type.cost is None:
        return -1  # a bridge: the terrain under it decides
    return structure.type.cost.get(movement)


def cover(structure: Structure | None) -> int:
    return structure.type.cover if structure is not None and structure.complete and not structure.carcass else 0


def ground_cover(state: State, cell: Cell) -> int:
    """A cell's cover points: its terrain's (forest, hill, ruins, wreck) and its finished work's or
    building's, added up (« Ces protections s'additionnent »)."""
    terrain = state.terrain_at(cell)
    return (terrain.cover if terrain is not None else 0) + cover(state.structures.get(cell))


def standing(structure: Structure) -> bool:
    """A finished building or work that is not a carcass."""
    return structure.complete and not structure.carcass


def why_not_target(state: State, shooter: Unit, cell: Cell) -> str | None:
    """Why the shooter may not take the work or building on ``cell`` for its target."""
    structure = state.structures.get(cell)
    if structure is None or structure.carcass:
        return "no_structure"
    if structure.owner == shooter.side:
        return "own"
    if structure.type.category == "building" and structure.owner is None:
        return "not_enemy"
    if cell in state.occupied and (structure.type.id not in TARGETABLE_UNDER_A_UNIT or not structure.complete):
        return "under_a_unit"
    return None


def hit(state: State, cell: Cell, damage: int) -> str | None:
    """Damage the structure on ``cell``; returns what became of it if it fell ("carcass", "gone")."""
    structure = state.structures.get(cell)
    if structure is None or structure.carcass:
        return None
    structure.hp -= damage
    if structure.hp > 0:
        return None
    if structure.type.category == "building" and structure.complete:
        structure.carcass, structure.hp = True, 0
        return "carcass"
    del state.structures[cell]
    state.works.discard(cell)
    if structure.type.id == "bridge":
        state.set_terrain(cell, TABLES.terrain["water"])
    return "gone"


def full_damage(weapon: Weapon) -> int:
    return weapon.damage.get(STRUCTURE_SIZE, 0)


def splash(state: State, weapon: Weapon, cell: Cell, dealt: int) -> str | None:
    """Fire at a unit also wears down the work or building of its cell, unless the weapon deals 1."""
    if max(weapon.damage.values(), default=0) <= 1 or cell not in state.structures:
        return None
    return hit(state, cell, dealt)


def why_not_build(state: State, engineer: Unit, kind: StructureType, cell: Cell) -> str | None:
    if engineer.type.id != "engineer" or not engineer.on_map:
        return "not_engineer"
    if chebyshev(engineer.cell, cell) != 1:
        return "not_beside"
    if engineer.ap < TABLES.build_ap:
        return "no_ap"
    here = state.structures.get(cell)
    if here is not None:
        if here.type.id != kind.id or here.complete or here.carcass or here.owner != engineer.side:
            return "occupied"
        return None
    if cell in state.occupied or cell in state.holders or state.terrain_at(cell) is None:
        return "occupied"
    if kind.id == "bridge" and state.terrain_at(cell).id != "water":
        return "not_water"
    if kind.id != "bridge" and state.terrain_at(cell).id == "water":
        return "water"
    return None


def build(state: State, engineer: Unit, kind: StructureType, cell: Cell) -> Structure:
    """One Build order: a new site, or one more step on one of its side's sites."""
    engineer.ap -= TABLES.build_ap
    structure = state.structures.get(cell)
    if structure is None:
        structure = state.structures[cell] = Structure(kind, engineer.side, kind.hp, 0)
        state.works.add(cell)
    structure.steps += 1
    if structure.complete and kind.id == "bridge":
        state.set_terrain(cell, TABLES.terrain["bridge"])
    return structure


def clear(state: State, engineer: Unit, cell: Cell) -> bool:
    """An engineer beside a carcass clears it."""
    structure = state.structures.get(cell)
    if engineer.type.id != "engineer" or not engineer.on_map or structure is None or not structure.carcass \
            or chebyshev(engineer.cell, cell) != 1 or engineer.ap < TABLES.clear_ap:
        return False
    engineer.ap -= TABLES.clear_ap
    del state.structures[cell]
    state.works.discard(cell)
    return True

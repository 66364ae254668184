"""Mines (rule 12). Work in progress (issue 9).

Mines are invisible to the enemy; whoever enters their cell takes 3 damage; an engineer spots
them at 2 cells, then removes them with the Demine order.
Choices: a mine goes off once and is gone, and the unit's move ends on its cell; Demine works
on a spotted mine on or next to the engineer.
"""

from __future__ import annotations

from kadesh.core.grid import Cell, chebyshev
from kadesh.rules.front.state import State, Unit

MINE_DAMAGE = 3     # the text's number
SPOT_RANGE = 2      # « un ingénieur les repère à 2 cases »
DEMINE_REACH = 1


def mines_seen_by(state: State, side: str) -> set[Cell]:
    """Its own mines, and the enemy's that one of its engineers is within 2 cells of."""
    engineers = [u.cell for u in state.units.values() if u.side == side and u.type.id == "engineer"]
    return {cell for cell, layer in state.mines.items()
            if layer == side or any(chebyshev(cell, e) <= SPOT_RANGE for e in engineers)}


def trigger(state: State, unit: Unit) -> int:
    """A unit that enters an enemy mine's cell takes its damage, and the mine is spent."""
    layer = state.mines.get(unit.cell)
    if layer is None or layer == unit.side:
        return 0
    del state.mines[unit.cell]
    unit.hp -= MINE_DAMAGE
    return MINE_DAMAGE


def why_not_demine(state: State, engineer: Unit, cell: Cell) -> str | None:
    if engineer.type.id != "engineer":
        return "not_engineer"
    if chebyshev(engineer.cell, cell) > DEMINE_REACH:
        return "too_far"
    if cell not in state.mines or cell not in mines_seen_by(state, engineer.side):
        return "no_mine_seen"
    return None

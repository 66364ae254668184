"""Forest fires (rule 10).

A shell of a cannon, mortar or tank striking a forest, or a vehicle exploding in one, sets it
ablaze for a few turns; a unit that stays there loses hit points at each end of its side's
turn; it leaves burnt ground. After one turn the fire reaches the neighbouring forests and goes
no further (autumn rain stops it). In summer a forest may catch fire by itself, one turn in six.
In spring burnt ground grows back into forest, except under a work, a building or a mine.
"""

from __future__ import annotations

from kadesh.core.dice import Dice
from kadesh.core.grid import Cell, king_neighbours
from kadesh.rules.front.data import TABLES, TIME
from kadesh.rules.front.state import State

FIRE = TIME["forest_fire"]


def ignite(state: State, cell: Cell, spreads: bool = True) -> bool:
    """Set a forest ablaze; False if there is no forest there (or it already burns)."""
    terrain = state.terrain_at(cell)
    if terrain is None or terrain.id != "forest" or cell in state.fires:
        return False
    state.fires[cell] = (FIRE["burns_turns"], spreads)
    return True


def end_of_side_turn(state: State, side: str) -> dict[str, int]:
    """Burn the units of ``side`` standing in a fire; returns HP lost by unit id."""
    hurt = {}
    for unit in state.units.values():
        if unit.side == side and unit.on_ground and unit.cell in state.fires:
            unit.hp -= FIRE["damage"]
            hurt[unit.id] = FIRE["damage"]
    return hurt


def end_of_round(state: State, dice: Dice) -> list[Cell]:
    """Once both sides have played: fires spread, burn down, start by themselves; burnt ground
    regrows in spring. Returns the cells newly set ablaze."""
    started: list[Cell] = []
    spreading = [cell for cell, (_, spreads) in state.fires.items() if spreads]
    for cell in list(state.fires):
        left, spreads = state.fires[cell]
        if left <= 1:
            del state.fires[cell]
            state.set_terrain(cell, TABLES.terrain["burnt"])
            state.burnt[cell] = 0
        else:
            state.fires[cell] = (left - 1, False)  # it has had its turn to spread
    if state.season != "autumn":
        for cell in spreading:
            started += [n for n in king_neighbours(cell) if ignite(state, n, spreads=False)]
    if state.season == "summer":
        forests = [(x, y) for y in range(state.height) for x in range(state.width)
                   if state.terrain[y][x].id == "forest" and (x, y) not in state.fires]
        if forests and dice.roll(FIRE["summer_chance"]).value == 1:
            cell = forests[dice.roll(len(forests)).value - 1]
            if ignite(state, cell):
                started.append(cell)
    if state.season == "spring":
        for cell in list(state.burnt):
            state.burnt[cell] += 1
            if state.burnt[cell] >= FIRE["regrow_turns"] and cell not in state.works and cell not in state.mines:
                state.set_terrain(cell, TABLES.terrain["forest"])
                del state.burnt[cell]
    return started

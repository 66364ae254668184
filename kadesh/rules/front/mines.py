"""Mines (rule 12).

« Invisibles de l'adversaire, elles infligent 3 dégâts à qui entre sur leur case. Un ingénieur
les repère à 2 cases, puis les retire avec l'ordre Déminer. »

Whoever enters a mine's cell takes 3 damage, its own side's units included; the mine is spent and
the move ends there. A side knows its own mines and the enemy's its engineers (on the ground, not
aboard) came within 2 cells of; it keeps those in mind until they are cleared or an engineer of its
finds the cell empty, and its planned ways avoid every mine it knows of (``State.avoid``).
Engineers lay mines (``rules.lay_mine``) from what they carry, and clear them with Demine.
"""

from __future__ import annotations

from kadesh.core.grid import Cell, chebyshev
from kadesh.rules.front.moves import ground_price
from kadesh.rules.front.state import State, Unit

MINE_DAMAGE = 3     # the text's number
SPOT_RANGE = 2      # « un ingénieur les repère à 2 cases »
DEMINE_REACH = 1
LAY_REACH = 1


def _spotted_cells(state: State, side: str) -> set[Cell]:
    """The cells within SPOT_RANGE of an engineer of ``side`` on the ground: a set, so that each mine is looked
    up once whatever the number of engineers (a mine against every engineer: 1,500 mines and 400 engineers took
    40 ms)."""
    reach = range(-SPOT_RANGE, SPOT_RANGE + 1)
    return {(x + dx, y + dy) for u in state.units.values()
            if u.side == side and u.on_map and u.type.extras.get("spots_mines")
            for x, y in (u.cell,) for dx in reach for dy in reach}


def mines_seen_by(state: State, side: str) -> set[Cell]:
    """The mines ``side`` knows of: its own, the enemy's it remembers, and those its engineers are near."""
    near = _spotted_cells(state, side)
    spotted = {cell for cell, layer in state.mines.items() if layer != side and cell in near}
    own = {cell for cell, layer in state.mines.items() if layer == side}
    return own | spotted | state.mines_known[side]


def refresh_known(state: State, side: str) -> None:
    """An engineer within 2 cells finds what is there: a mine is remembered, an empty cell forgotten."""
    near = _spotted_cells(state, side)
    known = state.mines_known[side]
    for cell in [c for c in known if c in near and c not in state.mines]:
        known.discard(cell)
    known.update(cell for cell, layer in state.mines.items() if layer != side and cell in near)


def trigger(state: State, unit: Unit) -> int:
    """A unit that enters a mine's cell, whoever laid it, takes its damage, and the mine is spent."""
    if unit.cell not in state.mines:
        return 0
    del state.mines[unit.cell]
    unit.hp -= MINE_DAMAGE
    return MINE_DAMAGE


def forget(state: State, cell: Cell) -> None:
    """A mine cleared: nobody keeps it in mind (the clearing side saw it go; its layer knows its own)."""
    state.mines.pop(cell, None)
    for known in state.mines_known.values():
        known.discard(cell)


def why_not_demine(state: State, engineer: Unit, cell: Cell) -> str | None:
    if not engineer.type.extras.get("spots_mines") or not engineer.on_map:
        return "not_engineer"
    if chebyshev(engineer.cell, cell) > DEMINE_REACH:
        return "too_far"
    if cell not in state.mines or cell not in mines_seen_by(state, engineer.side):
        return "no_mine_seen"
    return None


def why_not_lay(state: State, engineer: Unit, cell: Cell, cost: int) -> str | None:
    """An engineer lays one of the mines it carries on a free cell beside it that it could step onto, off a
    capture point, where its side knows of no mine."""
    if not engineer.type.extras.get("spots_mines") or not engineer.on_map:
        return "not_engineer"
    if engineer.mines <= 0:
        return "none_left"
    if chebyshev(engineer.cell, cell) != LAY_REACH:
        return "too_far"
    if cell in state.occupied or cell in state.holders or ground_price(state, engineer.type, cell) is None \
            or cell in mines_seen_by(state, engineer.side):
        return "not_here"
    if engineer.ap < cost:
        return "no_ap"
    return None

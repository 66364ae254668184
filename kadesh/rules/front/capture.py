"""Capture points and victory (rules 16 and 17). Work in progress (issue 9).

Only an engineer enters a point. Posted on it, it takes it after 2 consecutive ends of its
side's turn with no enemy within 4 cells; if it leaves or an enemy comes near, the count starts
again. A taken point is neutral again as soon as an enemy comes within 4 cells.
"""

from __future__ import annotations

from kadesh.core.grid import Cell, chebyshev
from kadesh.rules.front.state import SIDES, State

ENDS_TO_TAKE = 2
ENEMY_RADIUS = 4
POINTS_TO_WIN = 4


def may_enter_point(state: State, unit_type_id: str, cell: Cell) -> bool:
    """« Seul un ingénieur y entre »."""
    return cell not in state.holders or unit_type_id == "engineer"


def _enemy_near(state: State, cell: Cell, side: str) -> bool:
    return any(u.side != side and u.aboard is None and chebyshev(u.cell, cell) <= ENEMY_RADIUS
               for u in state.units.values())


def end_of_side_turn(state: State, side: str) -> list[tuple[str, Cell, str | None]]:
    """Advance every point at the end of ``side``'s turn; returns what changed: (what, cell, side)."""
    changes: list[tuple[str, Cell, str | None]] = []
    for cell in state.points:
        holder = state.holders[cell]
        if holder is not None and _enemy_near(state, cell, holder):
            state.holders[cell] = None
            changes.append(("neutral", cell, holder))
        unit_id = state.occupied.get(cell)
        unit = state.units.get(unit_id) if unit_id else None
        if unit is None or unit.side != side or unit.type.id != "engineer" or _enemy_near(state, cell, side):
            if cell in state.progress and (unit is None or state.progress[cell][0] != unit_id
                                           or _enemy_near(state, cell, side)):
                del state.progress[cell]
            continue
        engineer, held = state.progress.get(cell, (unit.id, 0))
        held = held + 1 if engineer == unit.id else 1
        state.progress[cell] = (unit.id, held)
        if held >= ENDS_TO_TAKE and state.holders[cell] != side:
            state.holders[cell] = side
            del state.progress[cell]
            changes.append(("taken", cell, side))
    return changes


def winner(state: State) -> str | None:
    """A side wins when every enemy unit is destroyed, or when it holds 4 of the 5 victory points."""
    alive = {side: any(u.side == side for u in state.units.values()) for side in SIDES}
    for side in SIDES:
        other = SIDES[1] if side == SIDES[0] else SIDES[0]
        if alive[side] and not alive[other]:
            return side
        if sum(1 for holder in state.holders.values() if holder == side) >= POINTS_TO_WIN:
            return side
    return None

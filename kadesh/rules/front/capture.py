"""Capture points (rule 16), and the default victory's two ways (rule 17).

« Seul un ingénieur y entre. Posté dessus, il le prend au bout de 2 fins de tour de son camp
d'affilée, sans ennemi à 4 cases ou moins ; s'il part ou qu'un ennemi approche, tout reprend à
zéro. Un point pris redevient neutre dès qu'un ennemi arrive à 4 cases : il faut le reprendre. »

Only an engineer's way crosses or ends on a point (``moves.ground_price``). The count of an
engineer posted on a point moves on at the end of its own side's turn only, when no enemy unit
is within 4 cells; it starts over the moment the engineer leaves (``left``) or an enemy unit comes
within 4 cells (``arrived``: a step of a move, an unload), and that same moment a point held by
the other side is neutral again, even if the enemy goes away within the turn. « ennemi » has no exception:
an enemy aircraft in flight within 4 cells counts as a unit on the ground does (issue 45), where the text
limits something to the ground it says so.
"""

from __future__ import annotations

from kadesh.core.events import Event
from kadesh.core.grid import Cell, chebyshev, map_cell_name
from kadesh.rules.front.data import TABLES
from kadesh.rules.front.state import State, Unit
from kadesh.rules.front.victory import settle

ENDS_TO_TAKE = 2
ENEMY_RADIUS = 4

Change = tuple[str, Cell, str | None]   # ("taken" | "neutral" | "interrupted", point, the side concerned)


def may_enter_point(state: State, unit_type_id: str, cell: Cell) -> bool:
    """« Seul un ingénieur y entre »."""
    return cell not in state.holders or bool(TABLES.units[unit_type_id].extras.get("captures"))


def _enemy_near(state: State, cell: Cell, side: str) -> bool:
    return any(u.side != side and u.on_map and chebyshev(u.cell, cell) <= ENEMY_RADIUS for u in state.units.values())


def arrived(state: State, unit: Unit) -> list[Change]:
    """``unit`` has just come onto its cell: every point within 4 cells that the other side holds is
    neutral again, and the other side's count on it starts over."""
    changes: list[Change] = []
    for cell in state.points:
        if chebyshev(cell, unit.cell) > ENEMY_RADIUS:
            continue
        holder = state.holders[cell]
        if holder is not None and holder != unit.side:
            state.holders[cell] = None
            changes.append(("neutral", cell, holder))
        progress = state.progress.get(cell)
        if progress is not None and state.units[progress[0]].side != unit.side:
            del state.progress[cell]
            changes.append(("interrupted", cell, state.units[progress[0]].side))
    return changes


def left(state: State, unit: Unit, cell: Cell) -> list[Change]:
    """``unit`` has left ``cell`` (moved, boarded, destroyed): its count there starts over."""
    progress = state.progress.get(cell)
    if progress is None or progress[0] != unit.id:
        return []
    del state.progress[cell]
    return [("interrupted", cell, unit.side)]


def end_of_side_turn(state: State, side: str) -> list[Change]:
    """The end of ``side``'s turn: each of its engineers posted on a point with no enemy within 4 cells
    counts one more end of turn; the second takes the point."""
    changes: list[Change] = []
    for cell in state.points:
        unit_id = state.occupied.get(cell)
        unit = state.units.get(unit_id) if unit_id else None
        if unit is None or unit.side != side or not unit.type.extras.get("captures"):
            continue
        progress = state.progress.get(cell)
        if state.holders[cell] == side or _enemy_near(state, cell, side):
            state.progress.pop(cell, None)
            continue
        held = progress[1] + 1 if progress is not None and progress[0] == unit.id else 1
        if held < ENDS_TO_TAKE:
            state.progress[cell] = (unit.id, held)
            continue
        state.holders[cell] = side
        state.progress.pop(cell, None)
        changes.append(("taken", cell, side))
    return changes


def point_events(changes: list[Change]) -> list[Event]:
    """A point taken or neutral again is public (every side sees the points); a count that starts over is
    told to the side that was counting."""
    return [Event("point", {"change": what, "cell": map_cell_name(cell), "side": side},
                  (side,) if what == "interrupted" else None)
            for what, cell, side in changes]


def winner(state: State) -> str | None:
    """Who has won now (``victory.settle``: on a battle without a mission, the default victory: every
    enemy unit destroyed, or 4 of the 5 victory points held)."""
    result = settle(state)
    return result[0] if result else None


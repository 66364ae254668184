"""A default placement for the deployment phase (issue 44: placing twelve elements took 24 clicks).

The text says where a side deploys (its own two rows, columns c to j) and that each element faces the enemy; it
says nothing of a formation. ``rules.toml [formation]`` gives one, and ``suggested_placement`` turns it into the
ordinary ``deploy`` actions that would place every element not placed yet: each is legal now, and the player may
still move or take back any of them before declaring ready.
"""

from __future__ import annotations

from typing import Any

from kadesh.core.grid import Cell, cell_name
from kadesh.rules.manoeuvre.data import RULES
from kadesh.rules.manoeuvre.state import DEPLOYMENT, State


def _rows(side: str) -> tuple[int, int]:
    """The side's row facing the enemy, then the row behind it (rows counted from 0)."""
    first, second = RULES.deploy_rows[side]
    north_of_enemy = RULES.start_facing[side] == "S"
    return (max(first, second), min(first, second)) if north_of_enemy else (min(first, second), max(first, second))


def suggested_placement(state: State, side: str) -> list[dict[str, Any]]:
    """``deploy`` actions placing each of the side's elements not yet placed: the formation's cells first, where
    they are free, then the zone's other free cells, back row first. Empty outside the side's deployment."""
    if state.phase != DEPLOYMENT or state.ready[side]:
        return []
    waiting = [element for element in state.side_elements(side) if element.cell is None]
    taken: set[Cell] = set(state.board)
    columns = list(RULES.deploy_columns)
    front, back = _rows(side)
    placed: list[dict[str, Any]] = []
    for row, kinds in ((front, RULES.formation[0]), (back, RULES.formation[1])):
        for column, kind in zip(columns, kinds, strict=True):
            cell = (column, row)
            element = next((e for e in waiting if e.kind.name == kind), None) if kind else None
            if element is None or cell in taken:
                continue
            waiting.remove(element)
            taken.add(cell)
            placed.append({"type": "deploy", "element": element.id, "cell": cell_name(cell)})
    free = [(column, row) for row in (back, front) for column in columns if (column, row) not in taken]
    placed += [{"type": "deploy", "element": element.id, "cell": cell_name(cell)}
               for element, cell in zip(waiting, free, strict=False)]
    return placed

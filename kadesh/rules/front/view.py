"""What one side may see (rule 14): the map, its own units, the enemy units it spots now, its
own mines and the enemy mines its engineers have found; never an unseen unit or an enemy mine.
Work in progress (issue 9).
"""

from __future__ import annotations

from typing import Any

from kadesh.core.grid import map_cell_name
from kadesh.rules.front.mines import mines_seen_by
from kadesh.rules.front.state import State, Unit
from kadesh.rules.front.vision import spotted


def _unit(unit: Unit, own: bool) -> dict[str, Any]:
    seen = {"id": unit.id, "side": unit.side, "type": unit.type.id, "cell": map_cell_name(unit.cell), "hp": unit.hp}
    if own:
        seen.update(ap=unit.ap, ammo=unit.ammo, fuel=unit.fuel, moved=unit.moved, shots=unit.shots,
                    camouflaged=unit.camouflaged)
    return seen


def side_view(state: State, side: str) -> dict[str, Any]:
    camouflaged = frozenset(u.id for u in state.units.values() if u.camouflaged)
    enemies = spotted(state, side, camouflaged)
    return {
        "turn": state.turn, "active": state.active, "season": state.season, "hour": state.hour,
        "map": [[state.memory[side].get((x, y), state.terrain[y][x].id) for x in range(state.width)]
                for y in range(state.height)],
        "units": [_unit(u, u.side == side) for u in state.units.values() if u.side == side or u.id in enemies],
        "mines": sorted(map_cell_name(c) for c in mines_seen_by(state, side)),
        "points": {map_cell_name(c): holder for c, holder in state.holders.items()},
        "fires": sorted(map_cell_name(c) for c in state.fires),
    }

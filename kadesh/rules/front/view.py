"""What one side may see (rule 14): the ground as it last saw it, its own units in full, the enemy
units it spots now, the mines it knows of, the fires it saw burning, the capture points, its own
alerts and patrol zones, and the mission. Never an unseen unit, an enemy mine its engineers have
not found, nor a fire it has not seen.
"""

from __future__ import annotations

from typing import Any

from kadesh.core.grid import map_cell_name
from kadesh.rules.front.capture import ENDS_TO_TAKE
from kadesh.rules.front.mines import mines_seen_by
from kadesh.rules.front.reaction import PATROL_RADIUS
from kadesh.rules.front.state import Objective, State, Unit
from kadesh.rules.front.vision import camouflaged_units, sight_lines, spotted, vision


def _unit(state: State, unit: Unit, own: bool) -> dict[str, Any]:
    seen = {"id": unit.id, "side": unit.side, "type": unit.type.id, "cell": map_cell_name(unit.cell), "hp": unit.hp}
    if unit.tag is not None:
        seen["tag"] = unit.tag
    if unit.type.flies:
        seen["flying"] = unit.flying  # in the air over its cell, or landed on it
    if own:
        seen.update(ap=unit.ap, ammo=unit.ammo, fuel=unit.fuel, moved=unit.moved, shots=unit.shots,
                    camouflaged=unit.camouflaged, alert=unit.alert, aboard=unit.aboard,
                    patrol=map_cell_name(unit.patrol) if unit.patrol is not None else None)
        if unit.on_map:
            seen["sight"] = vision(state, unit)  # now, with the hour and the weather
        if unit.type.extras.get("mines"):
            seen["mines"] = unit.mines
        if unit.type.weapon("rocket") is not None:
            seen["rockets"] = unit.rockets
        if unit.battery is not None:
            seen["battery"] = unit.battery
        if unit.operator is not None:
            seen["operator"] = unit.operator
        if unit.cargo:
            seen["cargo"] = list(unit.cargo)
    return seen


def objective_view(objective: Objective) -> dict[str, Any]:
    shown: dict[str, Any] = {"kind": objective.kind, "side": objective.side}
    if objective.cells:
        shown["exit" if objective.kind == "escort" else "cells"] = [map_cell_name(c) for c in objective.cells]
    if objective.turn is not None:
        shown["until" if objective.kind == "hold" else "by"] = objective.turn
    for key in ("tag", "target"):
        if getattr(objective, key) is not None:
            shown[key] = getattr(objective, key)
    if objective.kind == "escort":
        shown["survivors"] = objective.survivors
    return shown


def public_view(state: State) -> dict[str, Any]:
    """What anyone may know: the turn, the time, the points, the mission and its count."""
    return {
        "scenario": {"id": state.scenario_id, **state.title},
        "turn": state.turn, "active": state.active, "season": state.season, "hour": state.hour,
        "points": {map_cell_name(c): holder for c, holder in state.holders.items()},
        "victory": {"default": state.victory.default, "points_to_win": state.victory.points_to_win,
                    "objectives": [objective_view(o) for o in state.victory.objectives]},
        "escaped": {side: dict(tags) for side, tags in state.escaped.items()},
    }


def side_view(state: State, side: str) -> dict[str, Any]:
    enemies = spotted(state, side, camouflaged_units(state))
    own = [u for u in state.units.values() if u.side == side]
    return {
        **public_view(state),
        "map": [[state.memory[side].get((x, y), state.terrain[y][x].id) for x in range(state.width)]
                for y in range(state.height)],
        "units": [_unit(state, u, u.side == side) for u in state.units.values() if u.side == side or u.id in enemies],
        "mines": sorted(map_cell_name(c) for c in mines_seen_by(state, side)),
        "fires": sorted(map_cell_name(c) for c in state.fires_seen[side]),
        "patrols": [{"unit": u.id, "cell": map_cell_name(u.patrol), "radius": PATROL_RADIUS}
                    for u in own if u.patrol is not None],
        "structures": _structures(state, side),
        "sight": _sight(state, side),
        "counting": [{"cell": map_cell_name(cell), "unit": unit_id, "ends": ends, "needed": ENDS_TO_TAKE}
                     for cell, (unit_id, ends) in sorted(state.progress.items(), key=lambda item: item[0][::-1])
                     if unit_id in state.units and state.units[unit_id].side == side],
    }


def whole_view(state: State) -> dict[str, Any]:
    """The battle as it is, both sides in full and no fog: what the public sees of a battle once it is over (its
    last position and its replay, ``Front.view_once_over``), never while it runs."""
    return {
        **public_view(state),
        "map": [[terrain.id for terrain in row] for row in state.terrain],
        "units": [_unit(state, u, True) for u in state.units.values()],
        "mines": sorted(map_cell_name(c) for c in state.mines),
        "fires": sorted(map_cell_name(c) for c in state.fires),
        "patrols": [{"unit": u.id, "cell": map_cell_name(u.patrol), "radius": PATROL_RADIUS}
                    for u in state.units.values() if u.patrol is not None],
        "structures": [{"cell": map_cell_name(cell), "kind": s.type.id, "side": s.owner, "complete": s.complete,
                        "carcass": s.carcass, "hp": s.hp, "steps": s.steps}
                       for cell, s in sorted(state.structures.items(), key=lambda item: (item[0][1], item[0][0]))],
        "counting": [{"cell": map_cell_name(cell), "unit": unit_id, "ends": ends, "needed": ENDS_TO_TAKE}
                     for cell, (unit_id, ends) in sorted(state.progress.items(), key=lambda item: item[0][::-1])
                     if unit_id in state.units],
    }


def _sight(state: State, side: str) -> list[str]:
    """The cells the side sees now, row by row: « 1 » in sight, « 0 » out of it (the page shades those)."""
    return sight_lines(state, side)


def _structures(state: State, side: str) -> list[dict[str, Any]]:
    """Its own works and buildings as they are (with the build orders a site has had); the others as it
    last saw them."""
    rows = sorted(state.structures_known_by(side).items(), key=lambda item: (item[0][1], item[0][0]))  # as on a map
    return [{"cell": map_cell_name(cell), "kind": s.type.id, "side": s.owner, "complete": s.complete,
             "carcass": s.carcass, "hp": s.hp, **({"steps": s.steps} if s.owner == side else {})}
            for cell, s in rows]

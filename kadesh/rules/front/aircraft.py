"""What flies (issue 18), and how: drones on their leash, helicopters landing and taking off, a drone
launched and recovered by its operator, the jammer's order checked. The air war as it runs (batteries,
fuel, the jammer's effect) is ``air``; an aircraft brought down falls (``losses.fall``).

« Un drone reste à 8 cases de son droniste, 12 avec un drone de surveillance en l'air ou à 8 cases
d'une tour de garde achevée, sinon il s'écrase. Sa batterie dure quelques tours : posé près du
droniste, il se recharge. »
« Un hélicoptère en vol peut s'arrêter au-dessus d'une unité ou d'un bâtiment, ami ou ennemi, mais
ne s'y pose jamais. Une unité au sol passe et s'arrête sous lui. »
« L'ordre Se poser le pose sur une prairie, une terre brûlée ou la plateforme de son héliport :
posé, il ne consomme rien, ne tire pas et redécolle en bougeant. Il ne se ravitaille que posé,
auprès d'un ravitailleur, d'un stockage ou sur la plateforme. »

An aircraft in flight holds a cell of the flying layer (``State.air``), over whatever stands on the
ground (``State.occupied``). A drone is either aloft or landed by its operator, who carries it
(``aboard``: it follows the operator, off the map, and recharges). A helicopter is aloft or landed:
landed, it is a unit on the ground like any other (fire, mines, blasts touch it).
"""

from __future__ import annotations

from kadesh.core.grid import Cell, chebyshev
from kadesh.rules.front import structures
from kadesh.rules.front.data import TABLES
from kadesh.rules.front.state import State, Unit

AIR = TABLES.air


def is_drone(unit: Unit) -> bool:
    return unit.type.aircraft == "drone"


def downed_by_one_shot(unit: Unit) -> bool:
    """« Infanterie, lance-roquettes, sniper, éclaireur, char lourd et batterie anti-aérienne abattent un drone
    d'un tir »: a drone in flight falls to any shot that may hit it."""
    return unit.flying and is_drone(unit)


def is_helicopter(unit: Unit) -> bool:
    return unit.type.aircraft == "helicopter"


def target_kind(unit: Unit) -> str | None:
    """What a shot at ``unit`` aims at: an aircraft in flight (``drone``, ``helicopter``), a ``landed``
    helicopter, or (None) a unit on the ground."""
    if unit.flying:
        return unit.type.aircraft
    return "landed" if is_helicopter(unit) else None


# -- the leash ---------------------------------------------------------------------------------------------------
def _relays(state: State, drone: Unit) -> tuple[bool, list[Cell]]:
    """Whether a surveillance drone of its side is aloft (itself included), and its side's finished watchtowers."""
    aloft = any(u.side == drone.side and u.flying and u.type.extras.get("relay") for u in state.units.values())
    towers = [c for c, s in state.structures.items()
              if s.owner == drone.side and s.type.sees_through and structures.standing(s)]
    return aloft, towers


def _reach(aloft: bool, towers: list[Cell], at: Cell) -> int:
    if aloft or any(chebyshev(tower, at) <= AIR["watchtower_relay"] for tower in towers):
        return AIR["relay_leash"]
    return AIR["leash"]


def leash(state: State, drone: Unit, cell: Cell | None = None) -> int:
    """How far ``drone`` (at ``cell``, or where it is) may be from its operator: 8 cells, 12 while a
    surveillance drone of its side is aloft or while it is within 8 cells of a finished watchtower of its side."""
    return _reach(*_relays(state, drone), drone.cell if cell is None else cell)


def on_leash(state: State, drone: Unit, cell: Cell | None = None) -> bool:
    operator = state.units.get(drone.operator) if drone.operator else None
    at = drone.cell if cell is None else cell
    return operator is not None and chebyshev(operator.cell, at) <= leash(state, drone, at)


def leash_area(state: State, drone: Unit) -> set[Cell]:
    """Every cell of the map where ``drone`` would be on its leash (what its ways are drawn within)."""
    operator = state.units.get(drone.operator) if drone.operator else None
    if operator is None:
        return set()
    aloft, towers = _relays(state, drone)
    longest, (ox, oy) = AIR["relay_leash"], operator.cell
    return {(x, y) for y in range(max(0, oy - longest), min(state.height, oy + longest + 1))
            for x in range(max(0, ox - longest), min(state.width, ox + longest + 1))
            if chebyshev((ox, oy), (x, y)) <= _reach(aloft, towers, (x, y))}


# -- landing -----------------------------------------------------------------------------------------------------
def on_own_pad(state: State, unit: Unit) -> bool:
    pad = state.structures.get(unit.cell)
    return pad is not None and pad.owner == unit.side and "pad" in pad.type.serves and structures.standing(pad)


def why_not_land(state: State, heli: Unit) -> str | None:
    """Why ``heli`` may not land where it is: only a helicopter aloft, on a meadow or burnt ground with
    no structure, or on its side's heliport pad; never on a unit, a building (but its pad) or a capture point."""
    if not is_helicopter(heli):
        return "not_helicopter"
    if not heli.flying:
        return "landed"
    cell = heli.cell
    if cell in state.occupied:
        return "occupied"
    if cell in state.holders:
        return "ground"
    structure = state.structures.get(cell)
    terrain = state.terrain_at(cell)
    pad = structure is not None and on_own_pad(state, heli)
    if not pad and (structure is not None or terrain is None or terrain.id not in AIR["land_on"]):
        return "ground"
    if heli.ap < TABLES.order_costs["land"]:
        return "no_ap"
    return None


def land(state: State, heli: Unit) -> None:
    heli.ap -= TABLES.order_costs["land"]
    state.lift(heli)
    heli.flying = False
    state.place(heli, heli.cell)


def fuel_to_fly(heli: Unit) -> bool:
    """A landed helicopter takes off only with the fuel of a turn aloft: it would fall at once otherwise."""
    return (heli.fuel or 0) >= heli.type.extras.get("fuel_per_turn", 0)


def take_off(state: State, heli: Unit) -> None:
    """« redécolle en bougeant »: a landed helicopter given a move leaves the ground; it enters the air on the
    first cell of its way (an aircraft may be hovering over the cell it leaves)."""
    state.lift(heli)
    heli.flying = True


# -- drones: launch, recover -------------------------------------------------------------------------------------
def why_not_launch(state: State, operator: Unit, drone: Unit | None, cell: Cell) -> str | None:
    if drone is None or drone.aboard != operator.id or not is_drone(drone):
        return "no_drone"
    if not operator.on_map:
        return "aboard"
    if chebyshev(operator.cell, cell) > 1 or state.terrain_at(cell) is None:
        return "too_far"
    if cell in state.air:
        return "occupied"
    if (drone.battery or 0) <= 0:
        return "battery"
    if operator.ap < TABLES.order_costs["launch"]:
        return "no_ap"
    return None


def launch(state: State, operator: Unit, drone: Unit, cell: Cell) -> None:
    operator.ap -= TABLES.order_costs["launch"]
    operator.cargo.remove(drone.id)
    drone.aboard, drone.flying = None, True
    state.place(drone, cell)


def why_not_recover(state: State, drone: Unit) -> str | None:
    operator = state.units.get(drone.operator) if drone.operator else None
    if not is_drone(drone) or not drone.flying:
        return "not_aloft"
    if operator is None or not operator.on_map or chebyshev(operator.cell, drone.cell) > 1:
        return "too_far"
    if drone.ap < TABLES.order_costs["recover"]:
        return "no_ap"
    return None


def recover(state: State, drone: Unit) -> None:
    """« posé près du droniste »: the drone lands by its operator, who carries it from then on."""
    operator = state.units[drone.operator or ""]
    drone.ap -= TABLES.order_costs["recover"]
    state.lift(drone)
    drone.flying, drone.aboard, drone.cell = False, operator.id, operator.cell
    operator.cargo.append(drone.id)


# -- the jammer --------------------------------------------------------------------------------------------------
def why_not_jam(unit: Unit) -> str | None:
    if not unit.type.extras.get("jams"):
        return "cannot_jam"
    if not unit.on_map:
        return "aboard"
    if unit.shots:
        return "jammed"
    if unit.ap < TABLES.order_costs["jam"]:
        return "no_ap"
    return None

"""Transport, towing, resupply, healing and repair (rules 3, 4 and 8).

A unit boards a neighbouring truck if it has not moved this turn; aboard it neither fires nor
can be hit, and travels with the truck (its cell is the truck's). A truck carries two small units
or one medium, or tows a cannon (the cannon pays ``tow``, not ``board``). A unit unloaded has
moved this turn. A supply truck refills a neighbouring unit's rounds, fuel and mines. Foot units
heal beside a medic, vehicles are repaired by an engineer: 3 HP at the end of their side's turn.
"""

from __future__ import annotations

from kadesh.core.grid import Cell, chebyshev, king_neighbours
from kadesh.rules.front.data import TABLES
from kadesh.rules.front.state import State, Unit

HEAL = 3


def boarding_cost(unit: Unit) -> int:
    """What boarding costs the unit: a towed cannon pays for being hitched (``tow``)."""
    return TABLES.order_costs["tow" if unit.type.extras.get("towed") else "board"]


def why_not_board(state: State, unit: Unit, truck: Unit) -> str | None:
    cost = boarding_cost(unit)
    capacity = truck.type.extras.get("carries")
    if capacity is None or truck.side != unit.side:
        return "not_a_truck"
    if unit.type.flies:
        return "aircraft"
    if truck.flying:
        return "in_flight"  # a transport helicopter takes on passengers only when landed
    if unit.type.extras.get("towed") and not truck.type.extras.get("tows"):
        return "not_a_truck"  # a cannon goes behind a truck that tows
    if chebyshev(unit.cell, truck.cell) != 1:
        return "not_beside"
    if unit.moved:
        return "moved"
    if unit.ap < cost:
        return "no_ap"
    sizes = [state.units[c].type.size for c in truck.cargo] + [unit.type.size]
    if unit.type.size not in capacity or (sizes.count("S") > capacity.get("S", 0)) or \
            (sizes.count("M") > capacity.get("M", 0)) or ("M" in sizes and "S" in sizes):
        return "full"  # two small units or one medium
    return None


def board(state: State, unit: Unit, truck: Unit) -> None:
    state.lift(unit)
    unit.aboard, unit.ap = truck.id, unit.ap - boarding_cost(unit)
    unit.camouflaged, unit.patrol = False, None
    truck.cargo.append(unit.id)
    for carried in [unit.id, *state.passengers(unit)]:  # an operator's landed drones come aboard with it
        state.units[carried].cell = truck.cell


def unload_cells(state: State, truck: Unit) -> list[Cell]:
    return [c for c in king_neighbours(truck.cell) if state.terrain_at(c) is not None and c not in state.occupied]


def unload(state: State, truck: Unit, unit: Unit, cell: Cell) -> None:
    truck.cargo.remove(unit.id)
    truck.ap -= TABLES.order_costs["unload"]
    unit.aboard = None
    unit.moved = True  # carried and set down: it has moved this turn (half range, no still-only fire)
    state.place(unit, cell)


def resupply(state: State, supplier: Unit, unit: Unit) -> None:
    """« Le plein se fait au ravitailleur »: rounds, fuel and an engineer's mines back to full."""
    supplier.ap -= TABLES.order_costs["resupply"]
    refill(unit)


def refill(unit: Unit) -> None:
    unit.ammo = unit.type.ammo
    rocket = unit.type.weapon("rocket")
    unit.rockets = rocket.ammo if rocket is not None else 0
    unit.mines = unit.type.extras.get("mines", 0)
    if unit.fuel is not None:
        unit.fuel = unit.type.fuel


def _served(state: State, side: str, cell: Cell, service: str) -> bool:
    """A finished building of ``side`` beside ``cell`` that offers ``service``."""
    return any(s.owner == side and s.complete and not s.carcass and service in s.type.serves
               and chebyshev(c, cell) <= 1 for c, s in state.structures.items())


def care_for(unit: Unit) -> str:
    """What mends ``unit``: a medic or a hospital heals foot units, an engineer or a workshop repairs the others."""
    return "heals" if unit.type.movement == "foot" else "repairs"


def heal_and_repair(state: State, side: str) -> dict[str, int]:
    """End of ``side``'s turn: foot units beside a medic or a hospital, vehicles beside an engineer
    or a workshop, get 3 HP; units beside a storage refill their rounds and fuel. All on the ground: an
    aircraft in flight is neither healed, repaired nor refilled (« Il ne se ravitaille que posé »)."""
    healed = {}
    carers = [u for u in state.units.values() if u.side == side and u.on_ground]
    for unit in carers:
        if _served(state, side, unit.cell, "supplies"):
            refill(unit)
        if unit.hp >= unit.type.hp:
            continue
        helper = care_for(unit)
        if _served(state, side, unit.cell, helper) or any(
                c is not unit and c.type.extras.get(helper) and chebyshev(c.cell, unit.cell) <= 1 for c in carers):
            gained = min(HEAL, unit.type.hp - unit.hp)
            unit.hp += gained
            healed[unit.id] = gained
    return healed

"""The air war as it runs (issue 18): after every order, a drone beyond its leash falls; at the end of a
side's turn, batteries and fuel are spent aloft, landed drones recharge and helicopters on their pad
refuel; the jammer brings drones down. What flies and how (the leash, landing, launch) is ``aircraft``;
a fall is ``losses.fall``.

« Sa batterie dure quelques tours : posé près du droniste, il se recharge. »
« le brouilleur les détruit à 6 cases. »
« Un hélicoptère vole par-dessus tout et brûle du carburant à chaque tour en vol, même immobile.
Abattu ou à sec en vol, il s'écrase avec sa cargaison jusqu'à 2 cases plus loin et fait 1 dégât à
ce qui s'y trouve. »
"""

from __future__ import annotations

from kadesh.core.dice import Dice
from kadesh.core.events import Event
from kadesh.core.grid import chebyshev, map_cell_name
from kadesh.rules.front.aircraft import AIR, is_drone, is_helicopter, on_leash, on_own_pad
from kadesh.rules.front.aircraft import target_kind as target_kind  # read here by the property tests
from kadesh.rules.front.data import TABLES
from kadesh.rules.front.logistics import refill
from kadesh.rules.front.losses import fall
from kadesh.rules.front.state import State, Unit


# -- after every order -------------------------------------------------------------------------------------------
def cut_loose(state: State, dice: Dice) -> list[Event]:
    """After every order: a drone aloft beyond its leash (its operator gone or too far, its relay lost) falls.
    One fall can bring down another (its damage kills an operator), so until none is left."""
    events: list[Event] = []
    while True:
        loose = sorted((u for u in state.units.values() if u.flying and is_drone(u) and not on_leash(state, u)),
                       key=lambda u: u.id)
        if not loose:
            return events
        events += fall(state, loose[0], dice, "leash")


# -- end of a side's turn ----------------------------------------------------------------------------------------
def upkeep(state: State, side: str, dice: Dice) -> list[Event]:
    """The end of ``side``'s turn: its drones aloft spend battery and its helicopters aloft fuel; one with
    nothing left to spend falls (« à sec en vol »). Its landed drones recharge and are rearmed by their
    operator; its helicopters landed on its heliport's pad refuel and rearm."""
    events: list[Event] = []
    for unit in sorted((u for u in state.units.values() if u.side == side), key=lambda u: u.id):
        if unit.id not in state.units:
            continue
        if unit.flying:
            events += _spend_aloft(state, unit, dice)
        elif is_drone(unit) and unit.aboard is not None:
            unit.battery = min(unit.type.battery or 0, (unit.battery or 0) + AIR["recharge"])
            unit.ammo = unit.type.ammo
        elif is_helicopter(unit) and on_own_pad(state, unit):
            refill(unit)
    return events


def _spend_aloft(state: State, unit: Unit, dice: Dice) -> list[Event]:
    if is_drone(unit):
        cost = AIR["battery_drain"]
        if (unit.battery or 0) < cost:
            return fall(state, unit, dice, "battery")
        unit.battery = (unit.battery or 0) - cost
        return []
    cost = unit.type.extras.get("fuel_per_turn", 0)
    if (unit.fuel or 0) < cost:
        return fall(state, unit, dice, "fuel")
    unit.fuel = (unit.fuel or 0) - cost
    return []


# -- the jammer --------------------------------------------------------------------------------------------------
def jam(state: State, jammer: Unit, dice: Dice) -> list[Event]:
    """Every enemy drone aloft within 6 cells falls; the jammer's side learns of those it sees."""
    jammer.ap -= TABLES.order_costs["jam"]
    jammer.shots += 1
    radius = jammer.type.extras["jams"]
    events = [Event("jammed", {"unit": jammer.id, "cell": map_cell_name(jammer.cell), "radius": radius},
                    (jammer.side,))]
    for drone in sorted((u for u in state.units.values() if u.flying and is_drone(u) and u.side != jammer.side
                         and chebyshev(u.cell, jammer.cell) <= radius), key=lambda u: u.id):
        events += fall(state, drone, dice, "jammed")
    return events

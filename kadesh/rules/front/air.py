"""The air war (issue 18): drones on their leash, helicopters and their fuel, landing, crashes,
the jammer.

« Un drone reste à 8 cases de son droniste, 12 avec un drone de surveillance en l'air ou à 8 cases
d'une tour de garde achevée, sinon il s'écrase. Sa batterie dure quelques tours : posé près du
droniste, il se recharge. »
« le brouilleur les détruit à 6 cases. Un drone qui tombe fait 1 dégât là où il s'écrase. »
« Un hélicoptère vole par-dessus tout et brûle du carburant à chaque tour en vol, même immobile.
Abattu ou à sec en vol, il s'écrase avec sa cargaison jusqu'à 2 cases plus loin et fait 1 dégât à
ce qui s'y trouve. »
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

from kadesh.core.dice import Dice
from kadesh.core.events import Event, roll_event
from kadesh.core.grid import Cell, chebyshev, map_cell_name
from kadesh.rules.front import structures
from kadesh.rules.front.data import TABLES
from kadesh.rules.front.state import SIDES, State, Unit

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
            from kadesh.rules.front.logistics import refill

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


# -- the fall ----------------------------------------------------------------------------------------------------
def fall(state: State, aircraft: Unit, dice: Dice, why: str) -> list[Event]:
    """An aircraft in flight comes down (shot down, out of leash, battery or fuel spent, jammed): it falls on
    a cell up to its ``drift`` away (seeded), with its cargo; whatever stands there takes 1 damage, and a
    helicopter, a vehicle, leaves a wreck or sets a forest ablaze.

    Told to its side, and to the sides that saw it or see where it falls; a side that saw neither learns
    only that a unit of that side was lost (as any loss out of sight)."""
    from kadesh.rules.front import combat
    from kadesh.rules.front.vision import camouflaged_units, spotted

    hidden = camouflaged_units(state)
    saw = {side for side in SIDES if side == aircraft.side or aircraft.id in spotted(state, side, hidden)}
    drift, (cx, cy) = aircraft.type.extras.get("drift", 0), aircraft.cell
    around = [(x, y) for y in range(cy - drift, cy + drift + 1) for x in range(cx - drift, cx + drift + 1)
              if state.terrain_at((x, y)) is not None]  # every cell it may fall on, as on a map
    events: list[Event] = []
    at = aircraft.cell
    if len(around) > 1:
        roll = dice.roll(len(around))
        at = around[roll.value - 1]
        events.append(roll_event(roll, aircraft.side, "fall", (aircraft.side,)))
    start, passengers = aircraft.cell, state.passengers(aircraft)
    state.remove(aircraft)
    audience = combat.witnesses(state, at, *saw)
    blind = tuple(side for side in SIDES if side not in audience)
    events.append(Event("crashed", {"unit": aircraft.id, "side": aircraft.side, "cell": map_cell_name(start),
                                    "at": map_cell_name(at), "why": why, "with": passengers}, audience))
    events += [Event("destroyed", {"unit": p, "side": aircraft.side, "cell": map_cell_name(at),
                                   "aboard": aircraft.id}, (aircraft.side,)) for p in passengers]
    others = tuple(side for side in SIDES if side != aircraft.side)
    events += [Event("destroyed", {"side": aircraft.side}, who) for who in [blind] + [others] * len(passengers) if who]
    return events + _strike_ground(state, aircraft, at, dice)


def _strike_ground(state: State, aircraft: Unit, at: Cell, dice: Dice) -> list[Event]:
    """The fall's 1 damage to the unit on the ground and to the structure there; a helicopter's wreck or fire."""
    from kadesh.rules.front import combat, forest
    from kadesh.rules.front.vision import camouflaged_units, spotted

    events: list[Event] = []
    damage = AIR["crash_damage"]
    victim = state.units.get(state.occupied.get(at, ""))
    if victim is not None:
        seers = tuple(side for side in SIDES if side == victim.side
                      or victim.id in spotted(state, side, camouflaged_units(state)))
        victim.hp -= damage
        events.append(Event("crash_hit", {"unit": victim.id, "by": aircraft.id, "cell": map_cell_name(at),
                                          "damage": damage, "hp": max(0, victim.hp)}, seers))
    fate = structures.hit(state, at, damage) if at in state.structures else None
    if fate:
        events.append(Event("structure_fell", {"cell": map_cell_name(at), "left": fate},
                            combat.witnesses(state, at, aircraft.side)))
    if is_helicopter(aircraft):  # a vehicle exploding: a forest catches fire, open ground keeps a wreck
        seers = combat.witnesses(state, at, aircraft.side)
        if forest.ignite(state, at):
            events.append(Event("fire_started", {"cell": map_cell_name(at)}, seers))
        elif state.terrain_at(at).id not in ("bridge", "forest", "water", "ruins"):
            state.set_terrain(at, TABLES.terrain["wreck"])
            events.append(Event("wreck", {"cell": map_cell_name(at)}, seers))
    if victim is not None and victim.hp <= 0:
        events += combat.destroy(state, victim, dice)
    return events

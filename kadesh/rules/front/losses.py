"""A unit lost: destroyed on the ground (with its passengers, leaving a wreck or a fire), or an aircraft
brought down, which falls where the dice say with its cargo and strikes what it falls on (issue 18:
« Abattu ou à sec en vol, il s'écrase avec sa cargaison jusqu'à 2 cases plus loin et fait 1 dégât à ce
qui s'y trouve. Un drone qui tombe fait 1 dégât là où il s'écrase. »). A shot (``combat``), a mine, a
fire, the air war (``air``) and the orders all end here.

Each side reads what it saw: the lost unit's side where; the other side the unit and where if it saw
it, else only that a unit of that side was lost.
"""

from __future__ import annotations

from kadesh.core.dice import Dice
from kadesh.core.events import Event, roll_event
from kadesh.core.grid import Cell, map_cell_name
from kadesh.rules.front import capture, forest, structures
from kadesh.rules.front.aircraft import AIR, is_helicopter
from kadesh.rules.front.data import TABLES
from kadesh.rules.front.state import SIDES, State, Unit
from kadesh.rules.front.vision import camouflaged_units, spotted, witnesses


# -- destroyed ---------------------------------------------------------------------------------------------------
def destroy(state: State, unit: Unit, dice: Dice | None = None) -> list[Event]:
    """A unit is gone; a truck's passengers are lost with it. Its side is told where; the other side too if
    it saw the unit, else only that a unit of that side was lost (no id, no cell); spectators nothing.
    An aircraft in flight falls (``fall``: it needs the dice)."""
    if unit.id not in state.units:
        return []
    if unit.flying:
        assert dice is not None, "an aircraft in flight falls where the dice say"
        return fall(state, unit, dice, "shot_down")
    hidden = camouflaged_units(state)
    seers = tuple(side for side in SIDES if side == unit.side or unit.id in spotted(state, side, hidden))
    blind = tuple(side for side in SIDES if side not in seers)
    interrupted = capture.left(state, unit, unit.cell)
    passengers = state.passengers(unit)
    state.remove(unit)
    events = [Event("destroyed", {"unit": unit.id, "side": unit.side, "cell": map_cell_name(unit.cell)}, seers)]
    events += [Event("destroyed", {"unit": passenger, "side": unit.side, "cell": map_cell_name(unit.cell),
                                   "aboard": unit.id}, (unit.side,)) for passenger in passengers]
    others = tuple(side for side in SIDES if side != unit.side)  # passengers: the other side never saw them aboard
    events += [Event("destroyed", {"side": unit.side}, audience) for audience in [blind] + [others] * len(passengers)
               if audience]
    events += capture.point_events(interrupted)
    if unit.type.fuel is not None:  # a vehicle: it sets a forest ablaze, or leaves a wreck (told to who saw it)
        if forest.ignite(state, unit.cell):
            events.append(Event("fire_started", {"cell": map_cell_name(unit.cell)}, seers))
        elif state.terrain_at(unit.cell).id not in ("bridge", "forest"):
            state.set_terrain(unit.cell, TABLES.terrain["wreck"])
            events.append(Event("wreck", {"cell": map_cell_name(unit.cell)}, seers))
    return events


# -- the fall ----------------------------------------------------------------------------------------------------
def fall(state: State, aircraft: Unit, dice: Dice, why: str) -> list[Event]:
    """An aircraft in flight comes down (shot down, out of leash, battery or fuel spent, jammed): it falls on
    a cell up to its ``drift`` away (seeded), with its cargo; whatever stands there takes 1 damage, and a
    helicopter, a vehicle, leaves a wreck or sets a forest ablaze.

    Told to its side, and to the sides that saw it or see where it falls; a side that saw neither learns
    only that a unit of that side was lost (as any loss out of sight)."""
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
    audience = witnesses(state, at, *saw)
    blind = tuple(side for side in SIDES if side not in audience)
    crashed = {"unit": aircraft.id, "side": aircraft.side, "cell": map_cell_name(start), "at": map_cell_name(at),
               "why": why}
    # Its passengers are named to its own side; another side never saw them aboard, and reads their loss once,
    # as a loss out of sight (issue 45).
    events.append(Event("crashed", {**crashed, "with": passengers}, (aircraft.side,)))
    onlookers = tuple(side for side in audience if side != aircraft.side)
    if onlookers:
        events.append(Event("crashed", crashed, onlookers))
    events += [Event("destroyed", {"unit": p, "side": aircraft.side, "cell": map_cell_name(at),
                                   "aboard": aircraft.id}, (aircraft.side,)) for p in passengers]
    others = tuple(side for side in SIDES if side != aircraft.side)
    events += [Event("destroyed", {"side": aircraft.side}, who) for who in [blind] + [others] * len(passengers) if who]
    return events + _strike_ground(state, aircraft, at, dice)


def _strike_ground(state: State, aircraft: Unit, at: Cell, dice: Dice) -> list[Event]:
    """The fall's 1 damage to the unit on the ground and to the structure there; a helicopter's wreck or fire."""
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
                            witnesses(state, at, aircraft.side)))
    if is_helicopter(aircraft):  # a vehicle exploding: a forest catches fire, open ground keeps a wreck
        seers = witnesses(state, at, aircraft.side)
        if forest.ignite(state, at):
            events.append(Event("fire_started", {"cell": map_cell_name(at)}, seers))
        elif state.terrain_at(at).id not in ("bridge", "forest", "water", "ruins"):
            state.set_terrain(at, TABLES.terrain["wreck"])
            events.append(Event("wreck", {"cell": map_cell_name(at)}, seers))
    if victim is not None and victim.hp <= 0:
        events += destroy(state, victim, dice)
    return events

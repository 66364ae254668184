"""The air war's orders: launch and recover a drone, land a helicopter, jam (``aircraft`` and ``air`` have
the rules).

Checked whole on what the side knows before anything changes, as every order (``rules``).
"""

from __future__ import annotations

from typing import Any

from kadesh.core.dice import Dice
from kadesh.core.errors import RuleError
from kadesh.core.events import Event
from kadesh.core.grid import map_cell_name
from kadesh.rules.front import air, aircraft, capture, losses, mines, reaction
from kadesh.rules.front.rules import NOT_ENOUGH_AP, cell_of, check_turn, named, own_unit
from kadesh.rules.front.state import State
from kadesh.rules.front.vision import as_known_by, witnesses

# -- the air war -------------------------------------------------------------------------------------------------
AIR_REFUSALS = {
    "no_drone": ("Il faut un drone que ce droniste porte.", "It takes a drone this operator carries."),
    "aboard": ("À bord d'un véhicule, on ne fait pas voler de drone.", "Aboard a vehicle, no drone is flown."),
    "too_far": ("Un drone décolle et se pose à 1 case de son droniste au plus.",
                "A drone takes off and lands within 1 cell of its operator."),
    "occupied": ("Un appareil est déjà en l'air au-dessus de cette case.", "An aircraft is already over that cell."),
    "battery": ("Sa batterie est vide : posé près de son droniste, il se recharge.",
                "Its battery is empty: landed by its operator, it recharges."),
    "not_aloft": ("Ce n'est pas un drone en l'air.", "That is not a drone in the air."),
    "not_helicopter": ("Seul un hélicoptère se pose.", "Only a helicopter lands."),
    "landed": ("Il est déjà posé.", "It has already landed."),
    "ground": ("Un hélicoptère se pose sur une prairie, une terre brûlée ou la plateforme de son héliport, "
               "jamais sur un bâtiment, un ouvrage ni un point de capture.",
               "A helicopter lands on a meadow, burnt ground or its heliport's pad, never on a building, a work "
               "or a capture point."),
    "cannot_jam": ("Seul le brouilleur brouille.", "Only the jammer jams."),
    "jammed": ("Il a déjà brouillé ce tour-ci.", "It has already jammed this turn."),
    "no_ap": NOT_ENOUGH_AP,
}


def _air_refusal(order: str, why: str) -> RuleError:
    if why == "occupied" and order == "land":
        return RuleError("cannot_land_occupied", "Une unité est au sol sous lui : il ne s'y pose jamais.",
                         "A unit stands on the ground below it: it never lands on one.")
    return RuleError(f"cannot_{order}_{why}", *AIR_REFUSALS[why])


def launch(state: State, side: str, action: dict[str, Any], dice: Dice) -> list[Event]:
    """The operator sends one of the drones it carries into the air, over its cell or a neighbouring one;
    units on alert may fire at it as it appears."""
    check_turn(state, side)
    operator, cell = own_unit(state, side, action), cell_of(state, action, "to")
    drone = named(state.units, action.get("drone"))
    with as_known_by(state, side):
        why = aircraft.why_not_launch(state, operator, drone, cell)
    if why is not None:
        raise _air_refusal("launch", why)
    assert drone is not None
    if cell in state.air:  # an enemy aircraft the side did not see (next to the operator: never)
        raise _air_refusal("launch", "occupied")
    aircraft.launch(state, operator, drone, cell)
    return [Event("launched", {"unit": drone.id, "by": operator.id, "cell": map_cell_name(cell)},
                  witnesses(state, cell, side)), *capture.point_events(capture.arrived(state, drone)),
            *reaction.on_the_move(state, drone, dice)]


def recover(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    check_turn(state, side)
    drone = own_unit(state, side, action)
    why = aircraft.why_not_recover(state, drone)
    if why is not None:
        raise _air_refusal("recover", why)
    cell = drone.cell
    aircraft.recover(state, drone)
    return [Event("recovered", {"unit": drone.id, "by": drone.operator, "cell": map_cell_name(cell)},
                  witnesses(state, cell, side))]


def land(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    """« Se poser »: on the ground it is a unit like any other: a mine there goes off, the points near it
    notice; it no longer burns fuel nor fires until it takes off by moving."""
    check_turn(state, side)
    heli = own_unit(state, side, action)
    why = aircraft.why_not_land(state, heli)
    if why is not None:
        raise _air_refusal("land", why)
    aircraft.land(state, heli)
    cell = heli.cell
    events = [Event("landed", {"unit": heli.id, "cell": map_cell_name(cell)}, witnesses(state, cell, side))]
    events += capture.point_events(capture.arrived(state, heli))
    hurt = mines.trigger(state, heli)
    if hurt:
        events.append(Event("mine", {"unit": heli.id, "cell": map_cell_name(cell), "damage": hurt}))
        if heli.hp <= 0:
            events += losses.destroy(state, heli)
    return events


def jam(state: State, side: str, action: dict[str, Any], dice: Dice) -> list[Event]:
    check_turn(state, side)
    jammer = own_unit(state, side, action)
    why = aircraft.why_not_jam(jammer)
    if why is not None:
        raise _air_refusal("jam", why)
    return air.jam(state, jammer, dice)

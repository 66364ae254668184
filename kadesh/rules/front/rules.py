"""Front's orders on the ground: move, fire, end the turn. Work in progress (issue 9): the
ruleset is not registered yet; these are the pieces its ``apply`` will dispatch to.

Every order is checked whole before anything changes; each returns its events.
"""

from __future__ import annotations

from typing import Any

from kadesh.core.dice import Dice
from kadesh.core.errors import NOT_YOUR_TURN, RuleError, bad_action
from kadesh.core.events import Event, roll_event
from kadesh.core.grid import Cell, chebyshev, map_cell_name, parse_map_cell
from kadesh.rules.front import capture, clock, fire, forest, logistics, mines, moves, structures
from kadesh.rules.front.data import TABLES
from kadesh.rules.front.state import SIDES, State, Unit
from kadesh.rules.front.vision import as_known_by, spotted

FIRE_REFUSALS = {
    "unarmed": ("Cette unité ne tire pas.", "This unit does not fire."),
    "no_ammo": ("Plus de munitions.", "Out of ammunition."),
    "fired": ("Elle a déjà tiré autant qu'elle le peut ce tour-ci.", "It has fired as often as it may this turn."),
    "no_ap": ("Pas assez de points d'action pour tirer.", "Not enough action points to fire."),
    "moved": ("Elle ne tire qu'à l'arrêt.", "It fires only when it has not moved."),
    "range": ("Cible hors de portée.", "Target out of range."),
    "blocked": ("Un obstacle arrête le tir.", "Something stands in the line of fire."),
    "aboard": ("À bord d'un camion, on ne tire pas.", "Aboard a truck, a unit does not fire."),
    "unseen": ("Personne de ton camp ne voit d'unité ennemie sur cette case : on ne tire que sur ce qu'on voit.",
               "Nobody on your side sees an enemy unit on that cell: a unit fires only at what its side sees."),
}


def _own_unit(state: State, side: str, action: dict[str, Any]) -> Unit:
    unit = state.units.get(action.get("unit"))  # type: ignore[arg-type]
    if unit is None or unit.side != side:
        raise bad_action("Choisis une de tes unités.", "Pick one of your units.")
    return unit


def _cell(state: State, action: dict[str, Any], key: str) -> Cell:
    cell = parse_map_cell(action.get(key), state.width, state.height)
    if cell is None:
        raise bad_action(f"« {key} » : une case de la carte.", f"'{key}': a cell of the map.")
    return cell


def _check_turn(state: State, side: str) -> None:
    if side != state.active:
        raise RuleError(NOT_YOUR_TURN, "Ce n'est pas ton tour.", "It is not your turn.")


def move(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    """Planned on what the side knows (``vision.as_known_by``), walked on the ground as it is: a mine stops
    the unit where it goes off, an enemy unit the side did not see stops it on the cell before (contact)."""
    _check_turn(state, side)
    unit, to = _own_unit(state, side, action), _cell(state, action, "to")
    if unit.aboard is not None:
        raise bad_action("Elle est à bord : c'est le camion qui roule.", "It is aboard: the truck moves.")
    with as_known_by(state, side):
        path = moves.way(state, unit, to)
        reach = moves.reachable(state, unit)  # the cost of every cell of a cheapest way is its cost so far
    if path is None:
        raise bad_action("Case hors d'atteinte avec les points d'action qui restent.",
                         "That cell is out of reach with the action points left.")
    if to in state.holders and not capture.may_enter_point(state, unit.type.id, to):
        raise bad_action("Seul un ingénieur entre sur un point de capture.", "Only an engineer enters a capture point.")
    if unit.fuel is not None and moves.fuel_for(state, path) > unit.fuel:
        raise bad_action("Pas assez de carburant pour aller jusque-là.", "Not enough fuel to go that far.")
    start = unit.cell
    events = []
    for index, cell in enumerate(path):
        if cell in state.occupied:  # an enemy unit the side did not see: contact, the move ends before it
            # (never on the first step: a unit next to another always spots it, so a step at least is made)
            events += _contact(state, unit, state.units[state.occupied[cell]])
            path = path[:index]
            break
        state.place(unit, cell)
        hurt = mines.trigger(state, unit)  # a mine stops the move where it goes off
        if hurt:
            events.append(Event("mine", {"unit": unit.id, "cell": map_cell_name(cell), "damage": hurt}))
            path = path[: index + 1]
            break
    cost = reach.get(unit.cell, 0)  # only the steps made are paid
    fuel = moves.fuel_for(state, path) if unit.fuel is not None else 0
    unit.ap -= cost
    if unit.fuel is not None:
        unit.fuel -= fuel
    unit.moved, unit.camouflaged = True, False
    if unit.hp <= 0:
        events += _destroy(state, unit)
    return [Event("moved", {"unit": unit.id, "side": side, "from": map_cell_name(start),
                            "to": map_cell_name(unit.cell), "ap": cost, "fuel": fuel}), *events]


def _contact(state: State, unit: Unit, enemy: Unit) -> list[Event]:
    """The moving side learns an enemy unit stands on the cell it was entering (next to its unit now, so in
    its view too); the other side learns its unit was found, and by whom (next to it, so seen)."""
    return [Event("contact", {"unit": unit.id, "cell": map_cell_name(enemy.cell)}, (unit.side,)),
            Event("found", {"unit": enemy.id, "by": unit.id, "cell": map_cell_name(unit.cell)}, (enemy.side,))]


def shoot(state: State, side: str, action: dict[str, Any], dice: Dice) -> list[Event]:
    _check_turn(state, side)
    unit, target_cell = _own_unit(state, side, action), _cell(state, action, "target")
    if action.get("at") == "structure":
        return _shoot_structure(state, side, unit, target_cell, dice)
    target_id = state.occupied.get(target_cell)
    target = state.units.get(target_id) if target_id else None
    if target is not None and target.side == side:
        raise bad_action("Vise une unité ennemie.", "Aim at an enemy unit.")
    with as_known_by(state, side) as seen:  # checked on what the side knows
        why = fire.why_not_fire(state, unit, target_cell)
    if why in (None, "range", "blocked") and (target is None or target.id not in seen):
        # Fire needs a friendly eye on the target (as the legal actions say), and an enemy the side does not
        # see is refused exactly like an empty cell: neither the answer nor the shot tells that it is there.
        why = "unseen"
    if why is not None:
        fr, en = FIRE_REFUSALS[why]
        raise RuleError(f"cannot_fire_{why}", fr, en)
    if fire.why_not_fire(state, unit, target_cell) == "blocked":  # a unit the side does not see is in the way
        return _stopped(state, side, unit, target_cell)
    luck = dice.roll(fire.LUCK_PERCENT + 1)
    _spend_a_shot(unit)
    hits = [(target, fire.damage(state, unit, target, luck.value - 1))]
    blast = unit.type.extras.get("blast")
    if blast:  # the cannon's shell: half the damage to every unit within 2 cells, friend or foe
        hits += [(other, fire.damage(state, unit, other, luck.value - 1) // 2) for other in list(state.units.values())
                 if other is not target and other.aboard is None and chebyshev(other.cell, target_cell) <= blast]
    events = [roll_event(luck, side, "luck")]
    for hit, dealt in hits:
        hit.hp -= dealt
        if hit.side == side or hit.id in seen:  # the shooter learns nothing of a unit its side does not see
            events.append(Event("shot", {"unit": unit.id, "target": hit.id, "cell": map_cell_name(hit.cell),
                                         "damage": dealt, "luck": luck.value - 1, "hp": max(0, hit.hp),
                                         "blast": hit is not target}))
        if hit.side != side:  # the victim's side learns it was hit, not by whom nor from where
            events.append(Event("hit", {"unit": hit.id, "damage": dealt, "hp": max(0, hit.hp)}, (hit.side,)))
    fate = structures.splash(state, unit, target_cell, hits[0][1])
    if fate:
        events.append(Event("structure_fell", {"cell": map_cell_name(target_cell), "left": fate}))
    if unit.type.extras.get("shell"):
        events += _shell_lands(state, target_cell)
    for hit, _ in hits:
        if hit.hp <= 0:
            events += _destroy(state, hit)
    return events


def _shoot_structure(state: State, side: str, unit: Unit, cell: Cell, dice: Dice) -> list[Event]:
    """« En mode Tirer »: a work or an enemy building takes the weapon's full damage, without cover."""
    with as_known_by(state, side):  # checked on what the side knows
        why = _why_not_at_structure(state, unit, cell)
    if why is not None:
        code, fr, en = (f"cannot_target_{why}", "Cette cible ne se vise pas.", "That cannot be targeted.") \
            if why in _TARGET_REFUSALS else (f"cannot_fire_{why}", *FIRE_REFUSALS[why])
        raise RuleError(code, fr, en)
    if _why_not_at_structure(state, unit, cell) is not None:  # a unit the side does not see: in the way, or on it
        return _stopped(state, side, unit, cell)
    roll = dice.roll(fire.LUCK_PERCENT + 1)
    dealt = structures.full_damage(unit) * (100 + roll.value - 1) // 100
    _spend_a_shot(unit)
    events = [roll_event(roll, side, "luck"),
              Event("structure_hit", {"unit": unit.id, "cell": map_cell_name(cell), "damage": dealt})]
    fate = structures.hit(state, cell, dealt)
    if fate:
        events.append(Event("structure_fell", {"cell": map_cell_name(cell), "left": fate}))
    return events


_TARGET_REFUSALS = ("no_structure", "own", "not_enemy", "under_a_unit")


def _why_not_at_structure(state: State, unit: Unit, cell: Cell) -> str | None:
    why = structures.why_not_target(state, unit, cell)
    if why is not None:
        return why
    occupied = state.occupied.pop(cell, None)  # a unit on a work does not stop a shot at the work itself
    why = fire.why_not_fire(state, unit, cell)
    if occupied is not None:
        state.occupied[cell] = occupied
    return why


def _spend_a_shot(unit: Unit) -> None:
    unit.ap -= unit.type.shot_cost
    unit.ammo -= 1
    unit.shots += 1
    unit.camouflaged = False


def _stopped(state: State, side: str, unit: Unit, target: Cell) -> list[Event]:
    """A direct shot the side planned on what it knows, that meets a unit it does not see: spent (action
    points, a round, a shot of the turn) and stopped, with no effect; the side learns only that much."""
    _spend_a_shot(unit)
    return [Event("shot_stopped", {"unit": unit.id, "target": map_cell_name(target)}, (side,))]


def build(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    _check_turn(state, side)
    engineer, cell = _own_unit(state, side, action), _cell(state, action, "cell")
    kind = TABLES.structures.get(action.get("kind"))  # type: ignore[arg-type]
    if kind is None:
        kinds = ", ".join(TABLES.structures)
        raise bad_action(f"À construire : {kinds}.", f"To build: {kinds}.")
    why = structures.why_not_build(state, engineer, kind, cell)
    if why is not None:
        raise RuleError(f"cannot_build_{why}", "Construction impossible ici.", "Cannot build here.")
    structure = structures.build(state, engineer, kind, cell)
    return [Event("built", {"unit": engineer.id, "kind": kind.id, "cell": map_cell_name(cell),
                            "steps": structure.steps, "complete": structure.complete})]


def clear(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    _check_turn(state, side)
    engineer, cell = _own_unit(state, side, action), _cell(state, action, "cell")
    if not structures.clear(state, engineer, cell):
        raise bad_action("Un ingénieur voisin déblaie une carcasse.", "An engineer next to it clears a carcass.")
    return [Event("cleared", {"unit": engineer.id, "cell": map_cell_name(cell)})]


def demine(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    _check_turn(state, side)
    engineer, cell = _own_unit(state, side, action), _cell(state, action, "cell")
    if mines.why_not_demine(state, engineer, cell) is not None:
        raise bad_action("Un ingénieur retire une mine repérée, sur sa case ou voisine.",
                         "An engineer removes a spotted mine on or next to its cell.")
    if engineer.ap < TABLES.order_costs["demine"]:
        raise bad_action("Pas assez de points d'action.", "Not enough action points.")
    engineer.ap -= TABLES.order_costs["demine"]
    del state.mines[cell]
    return [Event("demined", {"unit": engineer.id, "cell": map_cell_name(cell)})]


def _camouflaged(state: State) -> frozenset[str]:
    return frozenset(u.id for u in state.units.values() if u.camouflaged)


def _shell_lands(state: State, cell: Cell) -> list[Event]:
    """A cannon, mortar or tank shell digs a crater in meadow and sets a forest ablaze."""
    terrain = state.terrain_at(cell)
    if terrain is not None and terrain.id == "meadow":
        state.set_terrain(cell, TABLES.terrain["crater"])
        return [Event("crater", {"cell": map_cell_name(cell)})]
    if forest.ignite(state, cell):
        return [Event("fire_started", {"cell": map_cell_name(cell)})]
    return []


def _destroy(state: State, unit: Unit) -> list[Event]:
    """A unit is gone; a truck's passengers are lost with it. Its side is told where; the other side too if
    it saw the unit, else only that a unit of that side was lost (no id, no cell); spectators nothing."""
    if unit.id not in state.units:
        return []
    seers = tuple(side for side in SIDES if side == unit.side or unit.id in spotted(state, side, _camouflaged(state)))
    blind = tuple(side for side in SIDES if side not in seers)
    del state.units[unit.id]
    state.occupied.pop(unit.cell, None)
    events = [Event("destroyed", {"unit": unit.id, "side": unit.side, "cell": map_cell_name(unit.cell)}, seers)]
    for passenger in unit.cargo:  # aboard, nobody of the other side saw them
        if passenger in state.units:
            del state.units[passenger]
            events.append(Event("destroyed", {"unit": passenger, "side": unit.side, "cell": map_cell_name(unit.cell),
                                              "aboard": unit.id}, (unit.side,)))
    others = tuple(side for side in SIDES if side != unit.side)  # passengers: the other side never saw them aboard
    events += [Event("destroyed", {"side": unit.side}, audience) for audience in [blind] + [others] * len(unit.cargo)
               if audience]
    if unit.type.fuel is not None:  # a vehicle: it sets a forest ablaze, or leaves a wreck (told to who saw it)
        if forest.ignite(state, unit.cell):
            events.append(Event("fire_started", {"cell": map_cell_name(unit.cell)}, seers))
        elif state.terrain_at(unit.cell).id not in ("bridge", "forest"):
            state.set_terrain(unit.cell, TABLES.terrain["wreck"])
            events.append(Event("wreck", {"cell": map_cell_name(unit.cell)}, seers))
    return events


BOARD_REFUSALS = {
    "not_a_truck": ("Il faut un camion de ton camp.", "It takes a truck of your side."),
    "not_beside": ("Le camion doit être voisin.", "The truck must be next to it."),
    "moved": ("Elle a déjà bougé ce tour-ci.", "It has already moved this turn."),
    "no_ap": ("Pas assez de points d'action.", "Not enough action points."),
    "full": ("Un camion emporte deux petites unités ou une moyenne.", "A truck carries two small units or one medium."),
}


def board(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    _check_turn(state, side)
    unit = _own_unit(state, side, action)
    if unit.aboard is not None:  # boarding twice would carry it twice
        raise bad_action("Elle est déjà à bord d'un camion.", "It is already aboard a truck.")
    truck = state.units.get(action.get("truck"))  # type: ignore[arg-type]
    why = "not_a_truck" if truck is None else logistics.why_not_board(state, unit, truck)
    if why is not None:
        raise RuleError(f"cannot_board_{why}", *BOARD_REFUSALS[why])
    assert truck is not None
    logistics.board(state, unit, truck)
    return [Event("boarded", {"unit": unit.id, "truck": truck.id})]


def unload(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    _check_turn(state, side)
    truck, cell = _own_unit(state, side, action), _cell(state, action, "to")
    passenger = state.units.get(action.get("passenger"))  # type: ignore[arg-type]
    if passenger is None or passenger.aboard != truck.id:
        raise bad_action("Cette unité n'est pas à bord de ce camion.", "That unit is not aboard this truck.")
    if cell not in logistics.unload_cells(state, truck) or moves.step_price(state, passenger, cell) is None:
        raise bad_action("Déchargement sur une case libre voisine, praticable.",
                         "Unload onto a free, passable cell next to it.")
    if truck.ap < TABLES.order_costs["unload"]:
        raise bad_action("Pas assez de points d'action.", "Not enough action points.")
    logistics.unload(state, truck, passenger, cell)
    return [Event("unloaded", {"unit": passenger.id, "truck": truck.id, "cell": map_cell_name(cell)})]


def resupply(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    _check_turn(state, side)
    supplier = _own_unit(state, side, action)
    unit = state.units.get(action.get("target"))  # type: ignore[arg-type]
    if not supplier.type.extras.get("supplies") or unit is None or unit.side != side \
            or unit.aboard is not None or chebyshev(unit.cell, supplier.cell) != 1:
        raise bad_action("Un ravitailleur ravitaille une unité voisine de son camp.",
                         "A supply truck resupplies a unit of its side next to it.")
    if supplier.ap < TABLES.order_costs["resupply"]:
        raise bad_action("Pas assez de points d'action.", "Not enough action points.")
    logistics.resupply(state, supplier, unit)
    return [Event("resupplied", {"unit": unit.id, "by": supplier.id})]


def end_turn(state: State, side: str, dice: Dice) -> list[Event]:
    """End of a side's turn: fires burn its units, points advance; after both sides, the round's
    fires; the other side's units get their action points back."""
    _check_turn(state, side)
    events = [Event("turn_ended", {"side": side, "turn": state.turn})]
    for unit in state.units.values():  # still and in cover since its last turn: it melts in
        if unit.side == side and unit.type.extras.get("camouflage"):
            terrain = state.terrain_at(unit.cell)
            unit.camouflaged = not unit.moved and not unit.shots and terrain is not None and terrain.cover > 0
    for unit_id, lost in forest.end_of_side_turn(state, side).items():
        events.append(Event("burnt", {"unit": unit_id, "damage": lost}))
        if unit_id in state.units and state.units[unit_id].hp <= 0:
            events += _destroy(state, state.units[unit_id])
    for unit_id, gained in logistics.heal_and_repair(state, side).items():
        events.append(Event("healed", {"unit": unit_id, "hp": gained}))
    for what, cell, holder in capture.end_of_side_turn(state, side):
        events.append(Event("point", {"change": what, "cell": map_cell_name(cell), "side": holder}))
    other = SIDES[1] if side == SIDES[0] else SIDES[0]
    if other == SIDES[0]:  # both sides have played: the round ends, the clock turns
        state.turn += 1
        if clock.advance(state):
            events.append(Event("season", {"season": state.season}))
        events += [Event("fire_started", {"cell": map_cell_name(c)}) for c in forest.end_of_round(state, dice)]
    state.active = other
    for unit in state.units.values():
        if unit.side == other:
            unit.ap, unit.moved, unit.shots = unit.type.ap, False, 0
    return events

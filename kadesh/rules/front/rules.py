"""Front's orders: move, fire, engineers' work, transport and supply, alert and patrol, end of turn.

Every order is checked whole, on what the side knows (``vision.as_known_by``), before anything
changes; it is then carried out on the ground as it is, and returns its events, each addressed
to the sides that may read it (``ruleset._addressed`` gives the rest to the side that acted).
"""

from __future__ import annotations

from typing import Any

from kadesh.core.dice import Dice
from kadesh.core.errors import NOT_YOUR_TURN, RuleError, bad_action
from kadesh.core.events import Event
from kadesh.core.grid import Cell, chebyshev, map_cell_name, parse_map_cell
from kadesh.rules.front import (
    air,
    aircraft,
    capture,
    clock,
    combat,
    fire,
    forest,
    logistics,
    losses,
    mines,
    moves,
    reaction,
    structures,
)
from kadesh.rules.front.data import TABLES, Weapon
from kadesh.rules.front.state import SIDES, State, Unit
from kadesh.rules.front.victory import exit_of
from kadesh.rules.front.vision import as_known_by, sees_cell, spotter, witnesses

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
    "landed": ("Posé, un hélicoptère ne tire pas.", "A landed helicopter does not fire."),
    "not_that_target": ("Cette arme ne touche pas cette cible : en vol, seuls certains tirs abattent un drone "
                        "ou un hélicoptère, et la batterie anti-aérienne ne tire que sur ce qui vole.",
                        "This weapon cannot hit that target: only some weapons bring down a drone or a helicopter "
                        "in flight, and the AA battery fires only at what flies."),
    "too_low": ("Ni le sniper ni la batterie anti-aérienne ne visent un hélicoptère posé.",
                "Neither the sniper nor the AA battery aims at a landed helicopter."),
}
NOT_ENOUGH_AP = ("Pas assez de points d'action.", "Not enough action points.")


def named(table: dict[str, Any], value: object) -> Any:
    """The entry a field of an order names, or None (a field that is not text names nothing)."""
    return table.get(value) if isinstance(value, str) else None


def own_unit(state: State, side: str, action: dict[str, Any]) -> Unit:
    unit = named(state.units, action.get("unit"))
    if unit is None or unit.side != side:
        raise bad_action("Choisis une de tes unités.", "Pick one of your units.")
    if unit.alert:
        raise RuleError("on_alert", "En alerte, elle garde son tir pour le tour adverse : plus d'ordre ce tour-ci.",
                        "On alert, it keeps its fire for the enemy's turn: no more orders this turn.")
    return unit


def cell_of(state: State, action: dict[str, Any], key: str) -> Cell:
    cell = parse_map_cell(action.get(key), state.width, state.height)
    if cell is None:
        raise bad_action(f"« {key} » : une case de la carte.", f"'{key}': a cell of the map.")
    return cell


def check_turn(state: State, side: str) -> None:
    if side != state.active:
        raise RuleError(NOT_YOUR_TURN, "Ce n'est pas ton tour.", "It is not your turn.")


# -- moving ------------------------------------------------------------------------------------------------------
def move(state: State, side: str, action: dict[str, Any], dice: Dice) -> list[Event]:
    """Planned on what the side knows (``vision.as_known_by``), walked on the ground as it is: a mine stops
    the unit where it goes off, an enemy unit the side did not see stops it on the cell before (contact), a
    shot of an enemy unit on alert stops it where it is fired at."""
    unit, path, reach = plan_move(state, side, action)
    start = unit.cell
    watch = _Watch(state, unit)
    events = capture.point_events(capture.left(state, unit, start))
    if unit.type.flies and not unit.flying:
        aircraft.take_off(state, unit)
        events.append(Event("took_off", {"unit": unit.id, "cell": map_cell_name(start)},
                            witnesses(state, start, side)))
    walked: list[Cell] = []
    for cell in path:
        layer = state.layer(unit)
        if cell in layer:  # an enemy unit the side did not see: contact, the move ends before it
            # (never on the first step: a unit next to another always spots it, so a step at least is made)
            events += _contact(state, unit, state.units[layer[cell]])
            break
        if not unit.flying and moves.ground_price(state, unit.type, cell) is None:  # ground it did not know
            events.append(Event("blocked", {"unit": unit.id, "cell": map_cell_name(cell)}, (side,)))
            break
        stop, step_events = _step(state, unit, cell, dice)
        walked.append(cell)
        watch.step(cell)
        events += step_events
        if stop:
            break
    return _moved(state, unit, start, walked, reach, watch.events(walked) + events)


class _Watch:
    """What the other side sees of a move: the cells where it spots the unit, step by step (its own units
    stand still meanwhile: their eyes are drawn once). The start counts if it saw the unit there."""

    def __init__(self, state: State, unit: Unit) -> None:
        self.unit = unit
        self.enemy = next(other for other in SIDES if other != unit.side)
        self._sees = spotter(state, self.enemy)
        self.seen_leaving = self._sees(unit, unit.camouflaged)
        self.cells = [unit.cell] if self.seen_leaving else []
        self.seen_last = self.seen_leaving

    def step(self, cell: Cell) -> None:
        self.seen_last = self._sees(self.unit, self.unit.camouflaged)
        if self.seen_last:
            self.cells.append(cell)

    def events(self, walked: list[Cell]) -> list[Event]:
        """``seen_moving`` for the other side: the cells it saw the unit on, in order, whether it saw where
        the move began and where it ended (a unit may come out of the fog, or go into it)."""
        if not walked or not self.cells:
            return []
        data = {"unit": self.unit.id, "side": self.unit.side, "cells": [map_cell_name(c) for c in self.cells],
                "seen_leaving": self.seen_leaving, "seen_arriving": self.seen_last}
        return [Event("seen_moving", data, (self.enemy,))]


def plan_move(state: State, side: str, action: dict[str, Any]) -> tuple[Unit, list[Cell], dict[Cell, int]]:
    """A move checked whole on what the side knows: the unit, its cheapest way (without the start) and the
    cost of every cell it could reach (the way's cost so far at each of its cells); refused otherwise."""
    check_turn(state, side)
    unit, to = own_unit(state, side, action), cell_of(state, action, "to")
    if not unit.on_map:
        raise bad_action("Elle est à bord (ou posée près de son droniste) : c'est son porteur qui bouge.",
                         "It is aboard (or landed by its operator): what carries it moves.")
    with as_known_by(state, side):
        _why_not_go(state, unit, to)
        reach = moves.cheapest_costs(state, unit)  # the cost of every cell of a cheapest way is its cost so far
        path = moves.way_within(state, unit, to, reach)
        del reach[unit.cell]
    if path is None and aircraft.is_drone(unit) and not aircraft.on_leash(state, unit, to):
        raise RuleError("cannot_move_leash", "Un drone reste à 8 cases de son droniste (12 relayé par un drone de "
                        "surveillance en l'air ou près d'une tour de garde) : il s'écraserait là-bas.",
                        "A drone stays within 8 cells of its operator (12 relayed by a surveillance drone aloft or "
                        "near a watchtower): it would crash there.")
    if path is None:
        raise bad_action("Case hors d'atteinte avec les points d'action qui restent.",
                         "That cell is out of reach with the action points left.")
    if unit.type.flies and not unit.flying and not aircraft.fuel_to_fly(unit):
        raise RuleError("cannot_take_off_fuel", "Pas assez de carburant pour un tour en vol : il reste posé.",
                        "Not enough fuel for a turn aloft: it stays on the ground.")
    if unit.type.burns_per_step and moves.fuel_for(state, path) > unit.fuel:
        raise bad_action("Pas assez de carburant pour aller jusque-là.", "Not enough fuel to go that far.")
    return unit, path, reach


def _why_not_go(state: State, unit: Unit, to: Cell) -> None:
    """Clear refusals for a destination the side knows it cannot take (checked on what it knows)."""
    if unit.type.flies:
        return  # it flies over points and mines
    if not capture.may_enter_point(state, unit.type.id, to):
        raise bad_action("Seul un ingénieur entre sur un point de capture.", "Only an engineer enters a capture point.")
    if to in state.avoid:
        raise bad_action("Une mine que ton camp connaît est sur cette case : on n'y marche pas.",
                         "A mine your side knows of lies on that cell: nobody is sent onto it.")


def _step(state: State, unit: Unit, cell: Cell, dice: Dice) -> tuple[bool, list[Event]]:
    """One step onto ``cell``: a mine goes off, the points near it notice, units on alert may fire. Returns
    whether the move stops here, and the events."""
    state.place(unit, cell)
    events = capture.point_events(capture.arrived(state, unit))  # an aircraft is an enemy near a point too
    if unit.flying:  # mines are on the ground; only fire on alert reaches an aircraft
        shots = reaction.on_the_move(state, unit, dice)
        return bool(shots), events + shots
    hurt = mines.trigger(state, unit)  # a mine stops the move where it goes off
    if hurt:
        events.append(Event("mine", {"unit": unit.id, "cell": map_cell_name(cell), "damage": hurt}))
        if unit.hp <= 0:
            return True, events
    shots = reaction.on_the_move(state, unit, dice)
    return bool(hurt or shots), events + shots


def _moved(state: State, unit: Unit, start: Cell, walked: list[Cell], reach: dict[Cell, int],
           events: list[Event]) -> list[Event]:
    """Pay for the steps made, and what the end of a move brings (a patrol left, an escort's exit)."""
    cost = reach.get(walked[-1], 0) if walked else 0  # only the steps made are paid
    fuel = moves.fuel_for(state, walked) if unit.type.burns_per_step else 0
    unit.ap -= cost
    if unit.type.burns_per_step:
        unit.fuel -= fuel
    unit.moved, unit.camouflaged = True, False
    end = walked[-1] if walked else start
    moved = Event("moved", {"unit": unit.id, "side": unit.side, "from": map_cell_name(start),
                            "to": map_cell_name(end), "ap": cost, "fuel": fuel})
    if unit.id not in state.units:  # destroyed on the way (a shot on alert, a mine)
        return [moved, *events]
    if unit.hp <= 0:
        return [moved, *events, *losses.destroy(state, unit)]
    if unit.patrol is not None and not reaction.in_zone(unit):
        unit.patrol = None
        events.append(Event("patrol_ended", {"unit": unit.id}))
    return [moved, *events, *_escape(state, unit)]


def _escape(state: State, unit: Unit) -> list[Event]:
    """A unit escorted by a mission that ends a move on the exit (or is set down there) leaves the map, with
    its passengers; it counts, and so do those of them the mission escorts."""
    objective = exit_of(state, unit)
    if objective is None:
        return []
    audience = witnesses(state, unit.cell, unit.side)
    passengers = [state.units[p] for p in unit.cargo]
    out = 1 + sum(1 for p in passengers if objective.marks(p))
    state.remove(unit)
    tag = objective.tag or ""
    state.escaped[unit.side][tag] = state.escaped[unit.side].get(tag, 0) + out
    return [Event("escaped", {"unit": unit.id, "side": unit.side, "cell": map_cell_name(unit.cell),
                              "with": [p.id for p in passengers]}, audience)]


def _contact(state: State, unit: Unit, enemy: Unit) -> list[Event]:
    """The moving side learns an enemy unit stands on the cell it was entering (next to its unit now, so in
    its view too); the other side learns its unit was found, and by whom (next to it, so seen)."""
    return [Event("contact", {"unit": unit.id, "cell": map_cell_name(enemy.cell)}, (unit.side,)),
            Event("found", {"unit": enemy.id, "by": unit.id, "cell": map_cell_name(unit.cell)}, (enemy.side,))]


# -- fire --------------------------------------------------------------------------------------------------------
def shoot(state: State, side: str, action: dict[str, Any], dice: Dice, order: str = "shoot") -> list[Event]:
    """Fire a weapon (``weapon``, the main one by default) at a unit on the ground, at an aircraft in flight
    (``at: "air"``) or at a structure (``at: "structure"``). A drone's bomb and strike come through here too."""
    if action.get("at") == "structure" and order == "shoot":
        return _shoot_structure(state, side, *structure_shot(state, side, action), dice)
    unit, target, weapon, aiming = aim(state, side, action, order)
    if fire.why_not_fire(state, unit, target.cell, weapon.id, aiming, order) == "blocked":
        return _stopped(state, side, unit, target.cell, weapon)  # a unit the side does not see is in the way
    events = combat.volley(state, unit, target, dice, weapon=weapon)
    if order == "strike" and unit.id in state.units:  # the kamikaze drone is spent in its strike
        events.append(Event("expended", {"unit": unit.id, "cell": map_cell_name(unit.cell)},
                            witnesses(state, unit.cell, side)))
        state.remove(unit)
    return events


def check_fire(state: State, side: str, action: dict[str, Any], order: str = "shoot") -> None:
    """Refuse a Fire, Bomb or Strike order exactly as ``shoot`` (``bomb``, ``strike``) would, without firing it:
    every refusal of theirs comes before anything changes, and nothing after refuses (the shot is carried out, or
    spent and stopped by a unit the side does not see). ``Front.check`` asks this rather than firing on a copy of
    the battle (a copy of 400 units, and every side's sight after: four times the odds' own work)."""
    if order == "bomb":
        _bomb_on_the_ground(action)
    if action.get("at") == "structure" and order == "shoot":
        structure_shot(state, side, action)
    else:
        aim(state, side, action, order)


def structure_shot(state: State, side: str, action: dict[str, Any]) -> tuple[Unit, Cell, str | None]:
    """A shot at a structure checked whole on what the side knows (refused otherwise): the shooter, the
    structure's cell and the weapon named (None: the main one). It may still be stopped by a unit the side does
    not see (``_shoot_structure``)."""
    check_turn(state, side)
    unit, weapon_id = own_unit(state, side, action), weapon_named(state, side, action)
    cell = cell_of(state, action, "target")
    aim_at_structure(state, side, unit, cell, weapon_id)
    return unit, cell, weapon_id


def weapon_named(state: State, side: str, action: dict[str, Any]) -> str | None:
    unit = own_unit(state, side, action)
    weapon_id = action.get("weapon")
    if weapon_id is not None and (not isinstance(weapon_id, str) or unit.type.weapon(weapon_id) is None):
        names = ", ".join(w.id for w in unit.type.weapons) or "—"
        raise bad_action(f"« weapon » : une arme de l'unité ({names}).",
                         f"'weapon': one of the unit's weapons ({names}).")
    return weapon_id


def aim(state: State, side: str, action: dict[str, Any], order: str = "shoot") -> tuple[Unit, Unit, Weapon, str | None]:
    """A shot at a unit checked whole on what the side knows (refused otherwise): the shooter, its target, the
    weapon and what it aims at (``aircraft.target_kind``). The shot may still be stopped by a unit the side does
    not see (``shoot``)."""
    check_turn(state, side)
    unit, target_cell = own_unit(state, side, action), cell_of(state, action, "target")
    weapon_id = weapon_named(state, side, action)
    at = action.get("at")
    if at not in (None, "structure", "air") or (at == "structure" and order != "shoot"):
        raise bad_action("« at » : « structure » ou « air », ou rien pour une unité au sol.",
                         "'at': 'structure' or 'air', or nothing for a unit on the ground.")
    layer = state.air if at == "air" else state.occupied
    target_id = layer.get(target_cell)
    target = state.units.get(target_id) if target_id else None
    if target is not None and target.side == side:
        raise bad_action("Vise une unité ennemie.", "Aim at an enemy unit.")
    with as_known_by(state, side) as seen:  # checked on what the side knows
        visible = target is not None and target.id in seen
        aiming = aircraft.target_kind(target) if visible else None
        why = fire.why_not_fire(state, unit, target_cell, weapon_id, aiming, order)
    if why in (None, "range", "blocked", "not_that_target", "too_low") and not visible:
        # Fire needs a friendly eye on the target (as the legal actions say), and an enemy the side does not
        # see is refused exactly like an empty cell: neither the answer nor the shot tells that it is there.
        why = "unseen"
    if why is not None:
        fr, en = FIRE_REFUSALS[why]
        raise RuleError(f"cannot_{order if order != 'shoot' else 'fire'}_{why}", fr, en)
    assert target is not None
    weapon = unit.type.weapon(weapon_id)
    assert weapon is not None
    return unit, target, weapon, aiming


def bomb(state: State, side: str, action: dict[str, Any], dice: Dice) -> list[Event]:
    """A bomb drone drops a bomb on an enemy unit on the ground, under it or on a neighbouring cell: « les
    bombes de drone ne touchent que le sol »."""
    _bomb_on_the_ground(action)
    return shoot(state, side, action, dice, order="bomb")


def _bomb_on_the_ground(action: dict[str, Any]) -> None:
    if action.get("at") is not None:
        raise bad_action("Une bombe ne touche que le sol : pas de « at ».", "A bomb strikes only the ground: no 'at'.")


def strike(state: State, side: str, action: dict[str, Any], dice: Dice) -> list[Event]:
    """A kamikaze drone strikes a unit on the ground or a helicopter in flight (``at: "air"``), on a
    neighbouring cell or under it, and is spent."""
    return shoot(state, side, action, dice, order="strike")


def _shoot_structure(state: State, side: str, unit: Unit, cell: Cell, weapon_id: str | None, dice: Dice) -> list[Event]:
    """« En mode Tirer »: a work or an enemy building takes the weapon's full damage, without cover; a shell
    lands on its cell (crater, fire) and the cannon's blast hurts the units around (checked already:
    ``structure_shot``)."""
    weapon = unit.type.weapon(weapon_id)
    assert weapon is not None
    if _why_not_at_structure(state, unit, cell, weapon_id) is not None:  # a unit the side does not see: in the way
        return _stopped(state, side, unit, cell, weapon)
    return combat.structure_volley(state, unit, cell, dice, weapon)


def aim_at_structure(state: State, side: str, unit: Unit, cell: Cell, weapon_id: str | None = None) -> Weapon:
    """A shot at the structure on ``cell`` checked on what the side knows (a structure it knows of, on a cell
    it sees now): the weapon, or a refusal."""
    with as_known_by(state, side):
        why = _why_not_at_structure(state, unit, cell, weapon_id)
        if why is None and not sees_cell(state, side, cell):
            why = "unseen"
    if why is not None:
        code, fr, en = (f"cannot_target_{why}", "Cette cible ne se vise pas.", "That cannot be targeted.") \
            if why in _TARGET_REFUSALS else (f"cannot_fire_{why}", *FIRE_REFUSALS[why])
        raise RuleError(code, fr, en)
    weapon = unit.type.weapon(weapon_id)
    assert weapon is not None
    return weapon


_TARGET_REFUSALS = ("no_structure", "own", "not_enemy", "under_a_unit")


def _why_not_at_structure(state: State, unit: Unit, cell: Cell, weapon_id: str | None = None) -> str | None:
    why = structures.why_not_target(state, unit, cell)
    if why is not None:
        return why
    occupied = state.occupied.pop(cell, None)  # a unit on a work does not stop a shot at the work itself
    why = fire.why_not_fire(state, unit, cell, weapon_id)
    if occupied is not None:
        state.occupied[cell] = occupied
    return why


def _stopped(state: State, side: str, unit: Unit, target: Cell, weapon: Any = None) -> list[Event]:
    """A direct shot the side planned on what it knows, that meets a unit it does not see: spent (action
    points, a round, a shot of the turn) and stopped, with no effect; the side learns only that much."""
    combat.spend_a_shot(unit, weapon)
    return [Event("shot_stopped", {"unit": unit.id, "target": map_cell_name(target)}, (side,))]


# -- alert and patrol --------------------------------------------------------------------------------------------
ALERT_REFUSALS = {
    "cannot_alert": ("Ni le sniper, ni le général, ni l'observateur (ni une unité sans arme) ne se mettent en alerte.",
                     "Neither the sniper, nor the general, nor the observer (nor an unarmed unit) goes on alert."),
    "aboard": ("À bord d'un camion, on ne se met pas en alerte.", "Aboard a truck, a unit does not go on alert."),
    "no_ammo": FIRE_REFUSALS["no_ammo"],
    "fired": ("Elle n'a plus de tir à garder ce tour-ci.", "It has no shot left to keep this turn."),
    "no_ap": ("Il faut les points d'action de l'ordre et d'un tir.",
              "It takes the action points of the order and of a shot."),
    "moved": ("Elle ne tire qu'à l'arrêt et a bougé ce tour-ci : elle n'aurait pas de tir à garder.",
              "It fires only when still and has moved this turn: it would have no shot to keep."),
}


def alert(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    check_turn(state, side)
    unit = own_unit(state, side, action)
    why = reaction.why_not_alert(state, unit)
    if why is not None:
        raise RuleError(f"cannot_alert_{why}" if why != "cannot_alert" else why, *ALERT_REFUSALS[why])
    unit.ap -= TABLES.order_costs["alert"]
    unit.alert, unit.patrol = True, None
    return [Event("alert", {"unit": unit.id, "cell": map_cell_name(unit.cell)})]


def patrol(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    check_turn(state, side)
    unit = own_unit(state, side, action)
    why = reaction.why_not_patrol(unit)
    if why == "cannot_patrol":
        raise RuleError("cannot_patrol", "Seule une unité à tir tendu patrouille, hors sniper, général et observateur.",
                        "Only a direct-fire unit patrols, but the sniper, the general and the observer.")
    if why == "aboard":
        raise bad_action("À bord d'un camion, on ne patrouille pas.", "Aboard a truck, a unit does not patrol.")
    if why is not None:
        raise bad_action(*NOT_ENOUGH_AP)
    unit.ap -= TABLES.order_costs["patrol"]
    unit.patrol = unit.cell
    return [Event("patrol", {"unit": unit.id, "cell": map_cell_name(unit.cell), "radius": reaction.PATROL_RADIUS})]


def end_patrol(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    check_turn(state, side)
    unit = own_unit(state, side, action)
    if unit.patrol is None:
        raise bad_action("Elle ne patrouille pas.", "It is not on patrol.")
    unit.ap -= TABLES.order_costs["end_patrol"]
    unit.patrol = None
    return [Event("patrol_ended", {"unit": unit.id})]


# -- engineers ---------------------------------------------------------------------------------------------------
def build(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    check_turn(state, side)
    engineer, cell = own_unit(state, side, action), cell_of(state, action, "cell")
    kind = named(TABLES.structures, action.get("kind"))
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
    check_turn(state, side)
    engineer, cell = own_unit(state, side, action), cell_of(state, action, "cell")
    if not structures.clear(state, engineer, cell):
        raise bad_action("Un ingénieur voisin déblaie une carcasse.", "An engineer next to it clears a carcass.")
    return [Event("cleared", {"unit": engineer.id, "cell": map_cell_name(cell)})]


def demine(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    check_turn(state, side)
    engineer, cell = own_unit(state, side, action), cell_of(state, action, "cell")
    if mines.why_not_demine(state, engineer, cell) is not None:
        raise bad_action("Un ingénieur retire une mine repérée, sur sa case ou voisine.",
                         "An engineer removes a spotted mine on or next to its cell.")
    if engineer.ap < TABLES.order_costs["demine"]:
        raise bad_action(*NOT_ENOUGH_AP)
    engineer.ap -= TABLES.order_costs["demine"]
    mines.forget(state, cell)
    return [Event("demined", {"unit": engineer.id, "cell": map_cell_name(cell)})]


LAY_REFUSALS = {
    "not_engineer": ("Seul un ingénieur pose des mines.", "Only an engineer lays mines."),
    "none_left": ("Il n'a plus de mines : un ravitailleur ou un stockage l'en resservira.",
                  "It has no mines left: a supply truck or a storage refills them."),
    "too_far": ("Une mine se pose sur une case voisine.", "A mine is laid on a neighbouring cell."),
    "not_here": ("Pas ici : il faut une case libre où l'on peut entrer, hors point de capture et sans mine connue.",
                 "Not here: it takes a free cell one can enter, off a capture point, with no mine known there."),
    "no_ap": NOT_ENOUGH_AP,
}


def lay_mine(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    check_turn(state, side)
    engineer, cell = own_unit(state, side, action), cell_of(state, action, "cell")
    cost = TABLES.order_costs["lay_mine"]
    with as_known_by(state, side):
        why = mines.why_not_lay(state, engineer, cell, cost)
    if why is not None:
        raise RuleError(f"cannot_lay_{why}", *LAY_REFUSALS[why])
    engineer.ap -= cost
    engineer.mines -= 1
    state.mines[cell] = side
    return [Event("mine_laid", {"unit": engineer.id, "cell": map_cell_name(cell)})]


# -- transport and supply ----------------------------------------------------------------------------------------
BOARD_REFUSALS = {
    "not_a_truck": ("Il faut un camion de ton camp.", "It takes a truck of your side."),
    "not_beside": ("Le camion doit être voisin.", "The truck must be next to it."),
    "moved": ("Elle a déjà bougé ce tour-ci.", "It has already moved this turn."),
    "no_ap": NOT_ENOUGH_AP,
    "full": ("Un camion emporte deux petites unités ou une moyenne.", "A truck carries two small units or one medium."),
    "in_flight": ("L'hélicoptère doit être posé pour embarquer.", "The helicopter must have landed to take anyone on."),
    "aircraft": ("Un appareil ne monte pas à bord.", "An aircraft does not board."),
}


def board(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    check_turn(state, side)
    unit = own_unit(state, side, action)
    if not unit.on_map:  # boarding twice would carry it twice
        raise bad_action("Elle est déjà à bord d'un camion.", "It is already aboard a truck.")
    truck = named(state.units, action.get("truck"))
    why = "not_a_truck" if truck is None else logistics.why_not_board(state, unit, truck)
    if why is not None:
        raise RuleError(f"cannot_board_{why}", *BOARD_REFUSALS[why])
    assert truck is not None
    events = capture.point_events(capture.left(state, unit, unit.cell))
    logistics.board(state, unit, truck)
    return [Event("boarded", {"unit": unit.id, "truck": truck.id}), *events]


def unload(state: State, side: str, action: dict[str, Any], dice: Dice) -> list[Event]:
    """A passenger set down beside its truck: it has moved this turn; it steps onto its cell (a mine there
    goes off, the points near it notice) and units on alert may fire at it."""
    check_turn(state, side)
    truck, cell = own_unit(state, side, action), cell_of(state, action, "to")
    passenger = named(state.units, action.get("passenger"))
    if passenger is None or passenger.aboard != truck.id or aircraft.is_drone(passenger):
        raise bad_action("Cette unité n'est pas à bord de ce camion.", "That unit is not aboard this truck.")
    if truck.flying:
        raise RuleError("cannot_unload_in_flight", "L'hélicoptère doit être posé pour débarquer.",
                        "The helicopter must have landed to set anyone down.")
    with as_known_by(state, side):
        free = cell in logistics.unload_cells(state, truck) and moves.step_price(state, passenger, cell) is not None
    if not free:
        raise bad_action("Déchargement sur une case libre voisine, praticable, sans mine connue.",
                         "Unload onto a free, passable cell next to it, with no mine known there.")
    if truck.ap < TABLES.order_costs["unload"]:
        raise bad_action(*NOT_ENOUGH_AP)
    if cell in state.occupied:  # an enemy unit the side did not see (it would be next to the truck: never)
        raise bad_action("La case n'est pas libre.", "That cell is not free.")
    logistics.unload(state, truck, passenger, cell)
    events = [Event("unloaded", {"unit": passenger.id, "truck": truck.id, "cell": map_cell_name(cell)})]
    events += _step(state, passenger, cell, dice)[1]
    if passenger.id in state.units and passenger.hp <= 0:
        events += losses.destroy(state, passenger)
    elif passenger.id in state.units:
        events += _escape(state, passenger)
    return events


def resupply(state: State, side: str, action: dict[str, Any]) -> list[Event]:
    check_turn(state, side)
    supplier = own_unit(state, side, action)
    unit = named(state.units, action.get("target"))
    if not supplier.type.extras.get("supplies") or unit is None or unit.side != side \
            or not unit.on_map or chebyshev(unit.cell, supplier.cell) != 1:
        raise bad_action("Un ravitailleur ravitaille une unité voisine de son camp.",
                         "A supply truck resupplies a unit of its side next to it.")
    if unit.flying:  # « Il ne se ravitaille que posé »
        raise RuleError("cannot_resupply_in_flight", "Un appareil en vol ne se ravitaille pas : il doit se poser.",
                        "An aircraft in flight is not resupplied: it must land.")
    if supplier.ap < TABLES.order_costs["resupply"]:
        raise bad_action(*NOT_ENOUGH_AP)
    logistics.resupply(state, supplier, unit)
    return [Event("resupplied", {"unit": unit.id, "by": supplier.id})]


# -- end of turn -------------------------------------------------------------------------------------------------
def end_turn(state: State, side: str, dice: Dice) -> list[Event]:
    """End of a side's turn: fires burn its units, it heals, its points advance; the other side's patrols
    fire; after both sides, the round's clock and fires; the other side's units get their action points
    and shots back, and their alerts end."""
    check_turn(state, side)
    events = [Event("turn_ended", {"side": side, "turn": state.turn})]
    for unit in state.units.values():  # still and in cover since its last turn: it melts in
        if unit.side == side and unit.type.extras.get("camouflage"):
            unit.camouflaged = unit.on_map and not unit.moved and not unit.shots \
                and structures.ground_cover(state, unit.cell) > 0
    for unit_id, lost in forest.end_of_side_turn(state, side).items():
        events.append(Event("burnt", {"unit": unit_id, "damage": lost}))
        if unit_id in state.units and state.units[unit_id].hp <= 0:
            events += losses.destroy(state, state.units[unit_id])
    for unit_id, gained in logistics.heal_and_repair(state, side).items():
        events.append(Event("healed", {"unit": unit_id, "hp": gained}))
    events += air.upkeep(state, side, dice)
    events += capture.point_events(capture.end_of_side_turn(state, side))
    events += reaction.patrol_round(state, side, dice)
    other = SIDES[1] if side == SIDES[0] else SIDES[0]
    if other == SIDES[0]:  # both sides have played: the round ends, the clock turns
        state.turn += 1
        if clock.advance(state):
            events.append(Event("season", {"season": state.season}))
        events += [Event("fire_started", {"cell": map_cell_name(c)}, witnesses(state, c))
                   for c in forest.end_of_round(state, dice)]
    state.active = other
    for unit in state.units.values():
        if unit.side == other:
            unit.ap, unit.moved, unit.shots, unit.alert = unit.type.ap, False, 0, False
    return events

"""Fire during the enemy's turn: alert (overwatch) and patrol.

« Une unité en alerte garde son tir pour le tour adverse et fait feu sur qui bouge ou surgit à
portée. Ni le sniper, ni le général, ni l'observateur ne se mettent en alerte. »

« Une unité à tir tendu, hors sniper, général, observateur et hélicoptères, reçoit une zone de 2
cases de rayon : à chaque fin de tour, elle y fait sa ronde et tire sur l'ennemi qui passe à
portée. »

Both shots are ordinary shots (``fire.why_not_fire``: fire rate, ammunition, action points, range
after a move, line of fire, a side's eye on the target) paid from what the unit kept of its own
turn: its shots of that turn, its rounds, its action points left. They happen before its side's
next turn gives it its action points and shots back.

- Alert: the order (its cost, with a shot's action points and a shot of the turn kept) is the
  unit's last of its turn. During the enemy's turn, the first time an enemy unit its side sees
  steps onto a cell (or is unloaded onto one) within its range and line of fire, it fires, and the
  alert is spent; that unit's move stops there. Several units on alert may fire at the same step,
  the nearest first. An alert not fired ends when its side's turn begins.
- Patrol: the order gives the unit a zone of 2 cells around the cell where it stands. The unit
  plays its turns as usual; a move that ends outside the zone, boarding, an alert or End patrol
  ends it. At the end of each enemy turn (when the enemy has passed by), it fires once at the
  nearest enemy unit its side sees inside its zone that it can hit from where it stands.
"""

from __future__ import annotations

from kadesh.core.dice import Dice
from kadesh.core.events import Event
from kadesh.core.grid import chebyshev
from kadesh.rules.front import combat, fire
from kadesh.rules.front.aircraft import target_kind
from kadesh.rules.front.data import TABLES, UnitType
from kadesh.rules.front.state import SIDES, State, Unit
from kadesh.rules.front.vision import camouflaged_units, spotted

PATROL_RADIUS = 2


def may_alert(kind: UnitType) -> bool:
    return kind.armed and not kind.extras.get("no_alert")


def may_patrol(kind: UnitType) -> bool:
    """A direct-fire unit (« à tir tendu »), but the sniper, the general and the observer."""
    return kind.armed and not kind.indirect and not kind.extras.get("no_patrol")


def why_not_alert(state: State, unit: Unit) -> str | None:
    if not may_alert(unit.type):
        return "cannot_alert"
    if not unit.on_map:
        return "aboard"
    if unit.type.flies and not unit.flying:
        return "landed"
    if all(fire.rounds(unit, w) <= 0 for w in unit.type.weapons):
        return "no_ammo"
    if unit.shots >= fire.shots_allowed(state, unit):
        return "fired"
    if unit.type.extras.get("fires_only_still") and unit.moved:
        return "moved"  # its kept shot could never be fired this enemy turn
    if unit.ap < TABLES.order_costs["alert"] + unit.type.shot_cost:
        return "no_ap"
    return None


def why_not_patrol(unit: Unit) -> str | None:
    if not may_patrol(unit.type) or unit.type.flies:
        return "cannot_patrol"
    if not unit.on_map:
        return "aboard"
    if unit.ap < TABLES.order_costs["patrol"]:
        return "no_ap"
    return None


def in_zone(unit: Unit) -> bool:
    return unit.patrol is not None and chebyshev(unit.patrol, unit.cell) <= PATROL_RADIUS


def on_the_move(state: State, mover: Unit, dice: Dice) -> list[Event]:
    """``mover`` has just stepped onto a cell, or appeared on one: every enemy unit on alert that sees it
    there and can hit it fires, nearest first. The caller stops the move if anything was fired."""
    watchers = sorted((u for u in state.units.values() if u.alert and u.side != mover.side and u.on_map),
                      key=lambda u: (chebyshev(u.cell, mover.cell), u.id))
    events: list[Event] = []
    for watcher in watchers:
        if mover.id not in state.units:
            break
        if watcher.id not in state.units:
            continue  # lost to an earlier shell's blast
        if mover.id not in spotted(state, watcher.side, camouflaged_units(state)):
            continue
        weapon = fire.first_weapon(state, watcher, mover.cell, target_kind(mover))
        if weapon is None:
            continue
        watcher.alert = False
        events += combat.volley(state, watcher, mover, dice, reaction="alert", weapon=weapon)
    return events


def patrol_round(state: State, ended: str, dice: Dice) -> list[Event]:
    """The end of ``ended``'s turn: every unit of the other side on patrol fires once at the nearest enemy
    unit it sees in its zone and can hit."""
    events: list[Event] = []
    patrols = sorted((u for u in state.units.values() if u.patrol is not None and u.side != ended and u.on_map),
                     key=lambda u: u.id)
    # Patrols fire direct (no blast): a shot changes what their side sees only by the units it destroys (the
    # target, or one of theirs an aircraft falls on): then what they see is looked at again.
    side = SIDES[0] if ended == SIDES[1] else SIDES[1]
    seen = spotted(state, side, camouflaged_units(state)) if patrols else set()
    for unit in patrols:
        if unit.id not in state.units:
            continue  # brought down by an aircraft that fell on it
        targets = [(enemy, weapon) for enemy in state.units.values()
                   if enemy.id in seen and chebyshev(enemy.cell, unit.patrol) <= PATROL_RADIUS
                   for weapon in [fire.first_weapon(state, unit, enemy.cell, target_kind(enemy))]
                   if weapon is not None]
        if targets:
            target, weapon = min(targets, key=lambda pair: (chebyshev(pair[0].cell, unit.cell), pair[0].id))
            present = len(state.units)
            events += combat.volley(state, unit, target, dice, reaction="patrol", seen=seen, weapon=weapon)
            if len(state.units) != present:
                seen = spotted(state, side, camouflaged_units(state))
    return events

"""Front as a ruleset of the core contract.

Orders: move, shoot (a unit on the ground, an aircraft in flight with ``"at": "air"``, or a work or
building with ``"at": "structure"``; ``weapon`` names a second weapon), board, unload, resupply, build,
clear, demine, lay_mine, alert, patrol, end_patrol, launch, recover, land, jam, bomb, strike, end_turn; and resign, at
any time while the battle runs, whoever's turn it is (the other side wins). What each side sees is
``view.side_view``; once the battle is over, the public sees it whole (``view_once_over``). The journal's events are
addressed to the side that may read them.
A battle is a shipped scenario (option ``scenario``) or one's own (option ``scenario_toml``, the
whole TOML text: docs/scenarios.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from kadesh.core.dice import Dice
from kadesh.core.errors import GAME_OVER, UNKNOWN_ACTION, RuleError
from kadesh.core.events import Event
from kadesh.core.grid import Cell, chebyshev, king_neighbours, map_cell_name, parse_map_cell
from kadesh.core.ruleset import Ruleset
from kadesh.rules.front import (
    air,
    air_orders,
    aircraft,
    combat,
    fire,
    known,
    logistics,
    mines,
    moves,
    narration,
    preview,
    reaction,
    rules,
    scenario,
    structures,
    victory,
)
from kadesh.rules.front.data import TABLES, weapon_names
from kadesh.rules.front.state import SIDES, State, Unit
from kadesh.rules.front.view import public_view, side_view, whole_view
from kadesh.rules.front.vision import as_known_by, camouflaged_units, refresh_memory, sight_test, spotted

ORDERS = ("move", "shoot", "board", "unload", "resupply", "build", "clear", "demine", "lay_mine", "alert", "patrol",
          "end_patrol", "launch", "recover", "land", "jam", "bomb", "strike", "end_turn")
FIRE_ORDERS = ("shoot", "bomb", "strike")  # all through ``rules.shoot``
WITH_DICE = ("move", "shoot", "unload", "launch", "jam", "bomb", "strike", "end_turn")
PUBLIC_EVENTS = {"turn_ended", "season", "point", "victory", "resigned"}


class Front(Ruleset):
    name = "front"
    bot_modules = ("kadesh.ai.front", "kadesh.ai.front_staff")
    version = "4"  # 4: a blast on a unit its side cannot see is a shot nobody reads until the end
    title = {"fr": "Front", "en": "Front"}
    options_schema = {
        # The lobby offers the skirmish first (``suggested``): the default battle is a first game's wall.
        "scenario": {"type": "choice", "values": list(scenario.SHIPPED), "default": "default", "suggested": "skirmish",
                     "fr": "Scénario", "en": "Scenario", "offered": list(scenario.OFFERED),
                     "labels": scenario.titles()},
        "scenario_toml": {"type": "text", "default": "", "max_length": scenario.MAX_TEXT, "file": ".toml",
                          "fr": "Son propre scénario (texte TOML, remplace le scénario choisi)",
                          "en": "One's own scenario (TOML text, replaces the chosen scenario)"},
    }

    glossary = {
        "units": {uid: {**u.names, "size": u.size, "class": u.movement, "aircraft": u.aircraft, "hp": u.hp,
                        "ap": u.ap, "vision": u.vision, "ammo": u.ammo, "fuel": u.fuel, "battery": u.battery,
                        "shot_cost": u.shot_cost, "weapons": [{"id": w.id, "range": w.range, "ammo": w.ammo,
                                                               "indirect": w.indirect} for w in u.weapons]}
                  for uid, u in TABLES.units.items()},
        "terrain": {tid: {**t.names, "cover": t.cover, "cost": dict(t.cost)} for tid, t in TABLES.terrain.items()},
        "structures": {sid: {**s.names, "category": s.category, "cover": s.cover, "hp": s.hp, "steps": s.steps}
                       for sid, s in TABLES.structures.items()},
        "weapons": weapon_names(),
        "orders": {**TABLES.order_costs, "build": TABLES.build_ap, "clear": TABLES.clear_ap},
    }

    def seats(self, options: dict[str, Any]) -> list[str]:
        return list(SIDES)

    def normalize_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """A scenario of one's own is read first: every fault of it, its length included, is ``bad_scenario``
        naming the fault (issue 45), not the options' generic refusal of a long text."""
        own = options.get("scenario_toml") if isinstance(options, dict) else None
        if isinstance(own, str) and own:
            scenario.parse(own)
        return super().normalize_options(options)

    def setup(self, options: dict[str, Any]) -> State:
        if options.get("scenario_toml"):
            return scenario.parse(options["scenario_toml"])
        return scenario.load(options["scenario"])

    def clone(self, state: State) -> State:
        return state.copy()

    def to_act(self, state: State) -> list[str]:
        return [] if state.result else [state.active]

    def legal_actions(self, state: State, seat: str) -> Iterator[dict[str, Any]]:
        """The side whose turn it is: every order of its units, then the end of its turn; either side: resigning,
        at any time while the battle runs (docs/rules/front.md)."""
        if state.result:
            return
        if seat == state.active:
            yield from _side_orders(state, seat)
            yield {"type": "end_turn"}
        yield {"type": "resign"}

    def check(self, state: State, seat: str, action: dict[str, Any]) -> None:
        """As ``apply`` would refuse ``action``. A Fire, Bomb or Strike order is only checked (``rules.check_fire``:
        its refusals all come before it changes anything, and what follows refuses nothing), not carried out on
        a copy of the battle as the other orders are: the odds of a shot ask this first. A move is only planned
        (``rules.plan_move``), for the same reason: its steps, the mines and the shots on alert refuse nothing."""
        kind = action.get("type") if isinstance(action, dict) else None
        if kind in FIRE_ORDERS and not state.result:
            rules.check_fire(state, seat, action, kind)
        elif kind == "move" and not state.result:
            rules.plan_move(state, seat, action)
        else:
            super().check(state, seat, action)

    def apply(self, state: State, seat: str, action: dict[str, Any], dice: Dice) -> list[Event]:
        if state.result:
            raise RuleError(GAME_OVER, "La bataille est finie.", "The battle is over.")
        kind = action.get("type") if isinstance(action, dict) else None
        types = {unit.id: unit.type.id for unit in state.units.values()}  # the units lost in the order too
        if kind == "resign":
            return _resign(state, seat)
        if kind not in ORDERS:
            raise RuleError(UNKNOWN_ACTION, f"Ordre inconnu : {kind!r}.", f"Unknown order: {kind!r}.")
        order = getattr(air_orders, kind, None) or getattr(rules, kind)
        if kind == "end_turn":
            events = rules.end_turn(state, seat, dice)
        elif kind in WITH_DICE:
            events = order(state, seat, action, dice)
        else:
            events = order(state, seat, action)
        events += air.cut_loose(state, dice)  # a drone whose leash an order broke falls
        events = _shooters_still_seen(state, events)
        refresh_memory(state)
        ended = seat if kind == "end_turn" else None
        state.result = victory.settle(state, ended, round_over=ended == SIDES[-1])
        if state.result:
            events.append(Event("victory", {"winner": state.result[0], "reason": state.result[1]}))
        return [_addressed(_typed(event, types), seat) for event in events]

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        if seat is None:  # spectators: the ground as it was at the start, the points, no unit of either side
            return {**public_view(state), "map": [list(row) for row in state.original]}
        return side_view(state, seat)

    def view_once_over(self, state: State, seat: str | None) -> dict[str, Any]:
        """Once the battle is over, the public sees it whole at every moment of its replay, both sides' units,
        mines, works and fires (as Advance Wars By Web's replays); each side's own view stays as it saw it."""
        return whole_view(state) if seat is None else side_view(state, seat)

    def visible_once_over(self, event: Event, seat: str | None) -> bool:
        """Once the battle is over, the public reads it whole, each fact told once as it happened: every event but
        a side's own account of what it saw of the other's (``OWN_ACCOUNTS``); each side reads its journal as it
        read it."""
        if seat is not None:
            return event.visible_to(seat)
        return not _own_account(event)

    def outcome(self, state: State) -> dict[str, Any] | None:
        if not state.result:
            return None
        winner, reason = state.result
        return {"winner": winner, "reason": reason}

    def narrate(self, event: Event, seat: str | None, lang: str) -> str | None:
        return narration.narrate(event, seat, lang)

    def marks(self, events: list[Event], seat: str | None) -> list[dict[str, Any] | None]:
        """The journal's marks a page reads: where each side's turn ends (the end-of-turn summary), and what
        the other side did that this seat saw, to draw on the map (issue 44): its units' seen ways, its shots
        (from the shooter's cell, or a bearing when it was not seen), the units lost."""
        return [_mark(event) for event in events]

    def state_from_view(self, view: dict[str, Any], seat: str | None) -> State:
        """The battle as ``seat``'s view shows it, what it hides assumed (``known.state_from_view``)."""
        if seat not in SIDES:
            raise ValueError("only a side's view can be rebuilt into a battle")
        return known.state_from_view(view, seat)

    def preview(self, state: State, seat: str, action: dict[str, Any]) -> dict[str, Any] | None:
        """A move's way with its action points and fuel; a shot's damage and chance of destroying."""
        return preview.preview(state, seat, action)

    def odds(self, state: State, seat: str, action: dict[str, Any]) -> dict[str, Any] | None:
        """A shot's damage, each value with its chance, and its chance of destroying its target."""
        return preview.odds(state, seat, action)


# What a side reads of a fact it saw from afar, told as it happened by another event: an enemy move (its ``moved``),
# a unit found by an enemy running into it (the mover's ``contact``), a unit hit (the shooter's ``shot``), a loss
# out of sight (the ``destroyed`` with its cell), an enemy aircraft's fall (its side's ``crashed``, with its cargo).
OWN_ACCOUNTS = {"seen_moving", "found", "hit"}


def _own_account(event: Event) -> bool:
    if event.type == "destroyed":
        return "cell" not in event.data
    if event.type == "crashed":
        return "with" not in event.data
    return event.type in OWN_ACCOUNTS


def _resign(state: State, side: str) -> list[Event]:
    """The side gives the battle up: the other side wins, whoever's turn it was."""
    winner = next(other for other in SIDES if other != side)
    state.result = (winner, "resignation")
    return [Event("resigned", {"side": side, "winner": winner}),
            Event("victory", {"winner": winner, "reason": "resignation"})]


def _mark(event: Event) -> dict[str, Any] | None:
    data = event.data
    if event.type == "turn_ended":
        return {"kind": "turn_ended", "side": data["side"]}
    if event.type == "seen_moving":
        return {"kind": "moved", "unit": data["unit"], "side": data["side"], "cells": data["cells"]}
    if event.type == "hit" and "cell" in data:
        if "from" in data:
            return {"kind": "shot", "from": data["from"], "cell": data["cell"]}
        return {"kind": "shot", "bearing": data["bearing"], "cell": data["cell"]} if "bearing" in data else None
    if event.type == "destroyed" and "cell" in data and "aboard" not in data:
        return {"kind": "lost", "side": data["side"], "cell": data["cell"]}
    return None


def _side_orders(state: State, seat: str) -> list[dict[str, Any]]:
    """Every order of the side's units, drawn from what the side knows: an unseen unit is not there."""
    with as_known_by(state, seat) as seen:
        sees = sight_test(state, seat)  # asked for every shooter and every work: drawn once
        tables: moves.Tables = {}  # the price of every cell, for each kind of mover: drawn once
        return [action for unit in [u for u in state.units.values() if u.side == seat]
                for action in _unit_orders(state, unit, seen, sees, tables=tables)]


def unit_orders(state: State, unit_id: str, with_moves: bool = True) -> list[dict[str, Any]]:
    """The legal orders of one unit of the side whose turn it is (``legal_actions`` for that unit alone,
    drawn from what its side knows): what a bot weighs unit by unit, without the whole side's list.
    ``with_moves=False`` leaves its moves out (the costly part: every cell it can reach)."""
    unit = state.units.get(unit_id)
    if state.result or unit is None or unit.side != state.active:
        return []
    with as_known_by(state, unit.side) as seen:
        return list(_unit_orders(state, unit, seen, sight_test(state, unit.side), with_moves))


def unit_moves(state: State, unit_id: str) -> dict[Cell, int]:
    """The cells one unit of the side whose turn it is may be ordered to, with the action points each costs
    (its ``move`` orders, and their price), drawn from what its side knows."""
    unit = state.units.get(unit_id)
    if state.result or unit is None or unit.side != state.active or not unit.on_map or unit.alert:
        return {}
    with as_known_by(state, unit.side):
        return _move_costs(state, unit)


def _shooters_still_seen(state: State, events: list[Event]) -> list[Event]:
    """A side hit learns by whom and from where only if it still sees the shooter once the order is over: the
    unit that saw it fire may have been lost in the same order (a second shot on alert, a blast, a fall)."""
    told = [e for e in events if e.type == "hit" and "by" in e.data]
    if not told:
        return events
    hidden = camouflaged_units(state)
    seen = {side: spotted(state, side, hidden) for side in {e.audience[0] for e in told if e.audience}}
    kept = []
    for event in events:
        if any(event is t for t in told) and event.audience and event.data["by"] not in seen[event.audience[0]]:
            data = {k: v for k, v in event.data.items() if k not in ("by", "from")}
            event = Event(event.type, {**data, **_bearing_of(state, event.data)}, event.audience)
        kept.append(event)
    return kept


def _bearing_of(state: State, hit: dict[str, Any]) -> dict[str, str]:
    hit_at, shooter_at = (parse_map_cell(hit[key], state.width, state.height) for key in ("cell", "from"))
    return combat.bearing(hit_at, shooter_at) if hit_at and shooter_at else {}


NAMED = ("unit", "by", "target", "truck", "passenger", "drone")


def _typed(event: Event, types: dict[str, str]) -> Event:
    """Each unit an event names comes with its type (``unit_type``…), so that the journal says what it was
    (« Bleu 3 (char lourd) »): a reader is told a unit's id only where it may know it, and its type with it."""
    extra = {f"{key}_type": types[value] for key, value in event.data.items()
             if key in NAMED and isinstance(value, str) and value in types}
    return Event(event.type, {**event.data, **extra}, event.audience) if extra else event


def _addressed(event: Event, seat: str) -> Event:
    """A side's own orders are its own business; a turn's end, seasons and points are public."""
    if event.type in PUBLIC_EVENTS or event.audience is not None:
        return event
    return Event(event.type, event.data, (seat,))


def _unit_orders(state: State, unit: Unit, seen: set[str], sees: Callable[[Cell], bool],
                 with_moves: bool = True, tables: moves.Tables | None = None) -> Iterator[dict[str, Any]]:
    """``sees``: ``sees_cell`` for the unit's side (``vision.sight_test``), for its shots at works; ``tables``:
    the price tables its moves may share with the other units' (``moves.Tables``)."""
    if not unit.on_map or unit.alert:
        return
    if with_moves:
        yield from _moves(state, unit, tables)
    yield from _shots(state, unit, seen, sees)
    yield from _logistics(state, unit)
    yield from _standing_fire(state, unit)
    yield from _air_orders(state, unit)
    if unit.type.extras.get("spots_mines"):
        yield from _engineering(state, unit)


def _air_orders(state: State, unit: Unit) -> Iterator[dict[str, Any]]:
    for drone_id in unit.cargo:
        for cell in [unit.cell, *king_neighbours(unit.cell)]:
            if aircraft.why_not_launch(state, unit, state.units[drone_id], cell) is None:
                yield {"type": "launch", "unit": unit.id, "drone": drone_id, "to": map_cell_name(cell)}
    if unit.flying and aircraft.is_drone(unit) and aircraft.why_not_recover(state, unit) is None:
        yield {"type": "recover", "unit": unit.id}
    if unit.flying and aircraft.why_not_land(state, unit) is None:
        yield {"type": "land", "unit": unit.id}
    if aircraft.why_not_jam(unit) is None:
        yield {"type": "jam", "unit": unit.id}


def _standing_fire(state: State, unit: Unit) -> Iterator[dict[str, Any]]:
    if reaction.why_not_alert(state, unit) is None:
        yield {"type": "alert", "unit": unit.id}
    if unit.patrol != unit.cell and reaction.why_not_patrol(unit) is None:
        yield {"type": "patrol", "unit": unit.id}
    if unit.patrol is not None and unit.ap >= TABLES.order_costs["end_patrol"]:
        yield {"type": "end_patrol", "unit": unit.id}


def _moves(state: State, unit: Unit, tables: moves.Tables | None = None) -> Iterator[dict[str, Any]]:
    for cell in _move_costs(state, unit, tables):
        yield {"type": "move", "unit": unit.id, "to": map_cell_name(cell)}


def _move_costs(state: State, unit: Unit, tables: moves.Tables | None = None) -> dict[Cell, int]:
    """The cells a move order may name, with their action points: within reach, with the fuel to get there
    (a landed helicopter, with the fuel of a turn aloft)."""
    if unit.type.flies and not unit.flying and not aircraft.fuel_to_fly(unit):
        return {}
    tables = {} if tables is None else tables
    reach = moves.reachable(state, unit, tables)
    if not unit.type.burns_per_step:
        return reach
    return moves.within_fuel(state, unit, reach, tables)


def _shots(state: State, unit: Unit, seen: set[str], sees: Callable[[Cell], bool]) -> Iterator[dict[str, Any]]:
    """Every weapon at every enemy unit seen that it can hit (``at: "air"`` for an aircraft in flight; the
    main weapon is named by nothing, a second one by ``weapon``), and at the structures it may aim at."""
    if not unit.type.weapons:
        return
    allowed = fire.shots_allowed(state, unit)  # the same whatever the target: asked once, not for each
    for weapon in unit.type.weapons:
        order = weapon.order
        named = {"weapon": weapon.id} if weapon is not unit.type.weapons[0] else {}
        for enemy in state.units.values():
            if enemy.id in seen and fire.why_not_fire(state, unit, enemy.cell, weapon.id, aircraft.target_kind(enemy),
                                                      order, allowed) is None:
                aloft = {"at": "air"} if enemy.flying else {}
                yield {"type": order, "unit": unit.id, "target": map_cell_name(enemy.cell), **aloft, **named}
        if order == "shoot":
            yield from _structure_shots(state, unit, weapon.id, named, sees, allowed)


def _structure_shots(state: State, unit: Unit, weapon_id: str, named: dict[str, str], sees: Callable[[Cell], bool],
                     allowed: int) -> Iterator[dict[str, Any]]:
    for cell in state.structures:  # those the side knows of (inside ``as_known_by``), on cells it sees now
        if structures.why_not_target(state, unit, cell) is None and sees(cell):
            occupant = state.occupied.pop(cell, None)
            free = fire.why_not_fire(state, unit, cell, weapon_id, allowed=allowed) is None
            if occupant is not None:
                state.occupied[cell] = occupant
            if free:
                yield {"type": "shoot", "unit": unit.id, "target": map_cell_name(cell), "at": "structure", **named}


def _logistics(state: State, unit: Unit) -> Iterator[dict[str, Any]]:
    for other in state.units.values():
        if other.side != unit.side or other is unit:
            continue
        if other.type.extras.get("carries") and logistics.why_not_board(state, unit, other) is None:
            yield {"type": "board", "unit": unit.id, "truck": other.id}
        if unit.type.extras.get("supplies") and other.on_ground and unit.ap >= TABLES.order_costs["resupply"] \
                and chebyshev(other.cell, unit.cell) == 1:
            yield {"type": "resupply", "unit": unit.id, "target": other.id}
    if unit.type.extras.get("carries") and unit.cargo and not unit.flying and unit.ap >= TABLES.order_costs["unload"]:
        for passenger in unit.cargo:
            for cell in logistics.unload_cells(state, unit):
                if moves.step_price(state, state.units[passenger], cell) is not None:
                    yield {"type": "unload", "unit": unit.id, "passenger": passenger, "to": map_cell_name(cell)}


def _engineering(state: State, unit: Unit) -> Iterator[dict[str, Any]]:
    for cell in [unit.cell, *king_neighbours(unit.cell)]:
        if state.terrain_at(cell) is None:
            continue
        if mines.why_not_demine(state, unit, cell) is None and unit.ap >= TABLES.order_costs["demine"]:
            yield {"type": "demine", "unit": unit.id, "cell": map_cell_name(cell)}
        if mines.why_not_lay(state, unit, cell, TABLES.order_costs["lay_mine"]) is None:
            yield {"type": "lay_mine", "unit": unit.id, "cell": map_cell_name(cell)}
        for kind in TABLES.structures.values():
            if structures.why_not_build(state, unit, kind, cell) is None:
                yield {"type": "build", "unit": unit.id, "kind": kind.id, "cell": map_cell_name(cell)}
        structure = state.structures.get(cell)
        if structure is not None and structure.carcass and cell != unit.cell and unit.ap >= TABLES.clear_ap:
            yield {"type": "clear", "unit": unit.id, "cell": map_cell_name(cell)}

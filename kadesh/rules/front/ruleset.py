"""Front as a ruleset of the core contract. Work in progress (issue 9): complete enough to play
by legal actions and to be tested as a game, not registered until the issue is done.

Orders: move, shoot (a unit, or a work or building with ``"at": "structure"``), board, unload,
resupply, build, clear, demine, end_turn. What each side sees is ``view.side_view``; the
journal's events are addressed to the side that may read them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kadesh.core.dice import Dice
from kadesh.core.errors import GAME_OVER, UNKNOWN_ACTION, RuleError
from kadesh.core.events import Event
from kadesh.core.grid import chebyshev, king_neighbours, map_cell_name
from kadesh.core.ruleset import Ruleset
from kadesh.rules.front import capture, fire, logistics, mines, moves, narration, rules, structures
from kadesh.rules.front.data import TABLES
from kadesh.rules.front.state import SIDES, State, Unit, load_scenario
from kadesh.rules.front.view import side_view
from kadesh.rules.front.vision import as_known_by, refresh_memory

ORDERS = ("move", "shoot", "board", "unload", "resupply", "build", "clear", "demine", "end_turn")
PUBLIC_EVENTS = {"turn_ended", "season", "point"}


class Front(Ruleset):
    name = "front"
    version = "1"
    title = {"fr": "Front", "en": "Front"}
    options_schema = {"scenario": {"type": "choice", "values": ["default", "test_small", "test_mixed"],
                                   "default": "default",
                                   "fr": "Scénario", "en": "Scenario"}}

    def seats(self, options: dict[str, Any]) -> list[str]:
        return list(SIDES)

    def setup(self, options: dict[str, Any]) -> State:
        return load_scenario(options["scenario"])

    def clone(self, state: State) -> State:
        return state.copy()

    def to_act(self, state: State) -> list[str]:
        return [] if capture.winner(state) else [state.active]

    def legal_actions(self, state: State, seat: str) -> Iterator[dict[str, Any]]:
        if capture.winner(state) or seat != state.active:
            return
        with as_known_by(state, seat) as seen:  # drawn from what the side knows: an unseen unit is not there
            actions = [action for unit in [u for u in state.units.values() if u.side == seat]
                       for action in _unit_orders(state, unit, seen)]
        yield from actions
        yield {"type": "end_turn"}

    def apply(self, state: State, seat: str, action: dict[str, Any], dice: Dice) -> list[Event]:
        if capture.winner(state):
            raise RuleError(GAME_OVER, "La bataille est finie.", "The battle is over.")
        kind = action.get("type") if isinstance(action, dict) else None
        if kind not in ORDERS:
            raise RuleError(UNKNOWN_ACTION, f"Ordre inconnu : {kind!r}.", f"Unknown order: {kind!r}.")
        if kind == "end_turn":
            events = rules.end_turn(state, seat, dice)
        elif kind == "shoot":
            events = rules.shoot(state, seat, action, dice)
        else:
            events = getattr(rules, kind)(state, seat, action)
        refresh_memory(state)
        return [_addressed(event, seat) for event in events]

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        if seat is None:  # spectators: the ground as it was at the start, the points, no unit of either side
            return {"turn": state.turn, "active": state.active, "season": state.season, "hour": state.hour,
                    "map": [list(row) for row in state.original],
                    "points": {map_cell_name(c): h for c, h in state.holders.items()}}
        return side_view(state, seat)

    def outcome(self, state: State) -> dict[str, Any] | None:
        winner = capture.winner(state)
        return {"winner": winner, "reason": "victory"} if winner else None

    def narrate(self, event: Event, seat: str | None, lang: str) -> str | None:
        return narration.narrate(event, seat, lang)


def _addressed(event: Event, seat: str) -> Event:
    """A side's own orders are its own business; a turn's end, seasons and points are public."""
    if event.type in PUBLIC_EVENTS or event.audience is not None:
        return event
    return Event(event.type, event.data, (seat,))


def _unit_orders(state: State, unit: Unit, seen: set[str]) -> Iterator[dict[str, Any]]:
    if unit.aboard is not None:
        return
    yield from _moves(state, unit)
    yield from _shots(state, unit, seen)
    yield from _logistics(state, unit)


def _moves(state: State, unit: Unit) -> Iterator[dict[str, Any]]:
    reach = moves.reachable(state, unit)
    fuel = moves.fuel_to_each(state, unit, {unit.cell: 0, **reach}) if unit.fuel is not None else {}
    for cell in reach:
        if cell in state.holders and not capture.may_enter_point(state, unit.type.id, cell):
            continue
        if unit.fuel is not None and fuel[cell] > unit.fuel:
            continue
        yield {"type": "move", "unit": unit.id, "to": map_cell_name(cell)}


def _shots(state: State, unit: Unit, seen: set[str]) -> Iterator[dict[str, Any]]:
    if not unit.type.armed:
        return
    for enemy in state.units.values():
        if enemy.id in seen and fire.why_not_fire(state, unit, enemy.cell) is None:
            yield {"type": "shoot", "unit": unit.id, "target": map_cell_name(enemy.cell)}
    for cell in state.structures:
        if structures.why_not_target(state, unit, cell) is None:
            occupant = state.occupied.pop(cell, None)
            free = fire.why_not_fire(state, unit, cell) is None
            if occupant is not None:
                state.occupied[cell] = occupant
            if free:
                yield {"type": "shoot", "unit": unit.id, "target": map_cell_name(cell), "at": "structure"}


def _logistics(state: State, unit: Unit) -> Iterator[dict[str, Any]]:
    for other in state.units.values():
        if other.side != unit.side or other is unit:
            continue
        if other.type.extras.get("carries") and logistics.why_not_board(state, unit, other) is None:
            yield {"type": "board", "unit": unit.id, "truck": other.id}
        if unit.type.extras.get("supplies") and other.aboard is None and unit.ap >= TABLES.order_costs["resupply"] \
                and chebyshev(other.cell, unit.cell) == 1:
            yield {"type": "resupply", "unit": unit.id, "target": other.id}
    if unit.cargo and unit.ap >= TABLES.order_costs["unload"]:
        for passenger in unit.cargo:
            for cell in logistics.unload_cells(state, unit):
                if moves.step_price(state, state.units[passenger], cell) is not None:
                    yield {"type": "unload", "unit": unit.id, "passenger": passenger, "to": map_cell_name(cell)}
    if unit.type.id != "engineer":
        return
    for cell in [unit.cell, *king_neighbours(unit.cell)]:
        if state.terrain_at(cell) is None:
            continue
        if mines.why_not_demine(state, unit, cell) is None and unit.ap >= TABLES.order_costs["demine"]:
            yield {"type": "demine", "unit": unit.id, "cell": map_cell_name(cell)}
        for kind in TABLES.structures.values():
            if structures.why_not_build(state, unit, kind, cell) is None:
                yield {"type": "build", "unit": unit.id, "kind": kind.id, "cell": map_cell_name(cell)}
        structure = state.structures.get(cell)
        if structure is not None and structure.carcass and cell != unit.cell and unit.ap >= TABLES.clear_ap:
            yield {"type": "clear", "unit": unit.id, "cell": map_cell_name(cell)}

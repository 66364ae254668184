"""What each side may do, checked before anything changes, then done."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kadesh.core.dice import Dice
from kadesh.core.errors import NOT_YOUR_TURN, UNKNOWN_ACTION, RuleError, bad_action
from kadesh.core.events import Event
from kadesh.core.grid import (
    FACINGS,
    Cell,
    board_neighbours,
    cell_index,
    cell_name,
    chebyshev,
    distance_rows,
    facing_nearest,
    facing_towards,
    line_between,
    manhattan,
    orthogonal_neighbours,
    parse_cell,
    step,
)
from kadesh.rules.manoeuvre import combat
from kadesh.rules.manoeuvre.data import RULES, SIDES
from kadesh.rules.manoeuvre.state import BATTLE, DEPLOYMENT, OVER, Element, State, opponent

ACTION_TYPES = ("deploy", "undeploy", "ready", "move", "turn", "attack", "shoot", "end_turn", "resign")
DEPLOY_CELLS = {side: [(x, y) for y in RULES.deploy_rows[side] for x in RULES.deploy_columns] for side in SIDES}
# Every cell's name, written once: the legal actions name a cell per deployment cell for each element, per
# destination for each facing (millions of times over a game's random play).
CELL_NAMES = {(x, y): cell_name((x, y)) for x in range(RULES.width) for y in range(RULES.height)}


def illegal(code: str, fr: str, en: str) -> RuleError:
    return RuleError(code, fr, en)


# -- reading an action ---------------------------------------------------------
def own_element(state: State, side: str, action: dict[str, Any], key: str = "element") -> Element:
    eid = action.get(key)
    element = state.elements.get(eid) if isinstance(eid, str) else None
    if element is None:
        raise bad_action(f"Élément inconnu : {eid!r}.", f"Unknown element: {eid!r}.")
    if element.side != side:
        raise illegal("not_your_element", "Cet élément n'est pas à toi.", "That element is not yours.")
    if not element.alive:
        raise illegal("element_destroyed", "Cet élément a été détruit.", "That element was destroyed.")
    return element


def _target(state: State, side: str, action: dict[str, Any]) -> Element:
    tid = action.get("target")
    target = state.elements.get(tid) if isinstance(tid, str) else None
    if target is None:
        raise bad_action(f"Cible inconnue : {tid!r}.", f"Unknown target: {tid!r}.")
    if target.side == side:
        raise illegal("friendly_target", "On n'attaque pas un ami.", "You cannot attack a friend.")
    if not target.on_field:
        raise illegal("target_absent", "Cette cible n'est pas sur le terrain.", "That target is not on the field.")
    return target


def _cell(action: dict[str, Any], key: str) -> Cell:
    cell = parse_cell(action.get(key), RULES.width, RULES.height)
    if cell is None:
        raise bad_action(f"Case invalide pour « {key} » : {action.get(key)!r}.",
                         f"Invalid cell for '{key}': {action.get(key)!r}.")
    return cell


def _facing(action: dict[str, Any]) -> str:
    facing = action.get("facing")
    if facing not in FACINGS:
        raise bad_action("L'orientation doit être N, E, S ou W.", "Facing must be N, E, S or W.")
    return facing


# -- movement ------------------------------------------------------------------
def reachable(state: State, element: Element) -> dict[Cell, int]:
    """Cells the element can end a move on, with their distance in orthogonal steps.

    Steps go through empty cells; unless the data allows it, a step may end on a cell
    an enemy threatens but never continue from it.
    """
    assert element.cell is not None
    enemy = opponent(element.side)
    found: dict[Cell, int] = {}
    start, board, neighbours = element.cell, state.board, board_neighbours(RULES.width, RULES.height)
    frontier = [start]
    for distance in range(1, element.kind.move + 1):
        next_frontier = []
        for cell in frontier:
            for nxt in neighbours[cell]:
                if nxt in found or nxt == start or nxt in board:
                    continue
                found[nxt] = distance
                if RULES.pass_through_threatened or not state.is_threatened_by(nxt, enemy):
                    next_frontier.append(nxt)
        frontier = next_frontier
    return found


def step_back_cells(state: State, element: Element, threats: list[Element]) -> list[Cell]:
    """For an engaged element: the free cell straight away from each enemy threatening it."""
    assert element.cell is not None
    cells = []
    for enemy in threats:
        assert enemy.cell is not None
        away = facing_towards(enemy.cell, element.cell)
        assert away is not None
        back = step(element.cell, away)
        if (0 <= back[0] < RULES.width and 0 <= back[1] < RULES.height and back not in state.board
                and back not in cells):
            cells.append(back)
    return cells


def line_is_clear(state: State, a: Cell, b: Cell) -> bool:
    return not any(cell in state.board for cell in line_between(a, b))


# -- checks by action ------------------------------------------------------------
def _check_may_act(state: State, element: Element) -> list[Element]:
    """Refuse an element that already acted; return the enemies engaging it."""
    if element.acted:
        raise illegal("already_acted", "Cet élément a déjà agi ce tour-ci.", "That element already acted this turn.")
    return state.threats_against(element)


def _engaged_error() -> RuleError:
    return illegal("engaged", "Engagé, cet élément ne peut qu'affronter la menace, l'attaquer ou reculer "
                   "droit devant elle.", "Engaged, this element may only face the threat, attack it, "
                   "or step straight back from it.")


def check_move(state: State, element: Element, action: dict[str, Any]) -> tuple[Cell, str]:
    to, facing = _cell(action, "to"), _facing(action)
    threats = _check_may_act(state, element)
    if threats:
        if to not in step_back_cells(state, element, threats):
            raise _engaged_error()
    elif to not in reachable(state, element):
        raise illegal("unreachable", f"{cell_name(to)} est hors de portée de ce mouvement.",
                      f"{cell_name(to)} cannot be reached by this move.")
    return to, facing


def check_turn(state: State, element: Element, action: dict[str, Any]) -> str:
    facing = _facing(action)
    threats = _check_may_act(state, element)
    if facing == element.facing:
        raise illegal("same_facing", "Il fait déjà face de ce côté.", "It already faces that way.")
    assert element.cell is not None
    if threats and facing not in {facing_towards(element.cell, t.cell) for t in threats if t.cell}:
        raise _engaged_error()
    return facing


def check_attack(state: State, element: Element, action: dict[str, Any]) -> tuple[Element, Cell]:
    target = _target(state, element.side, action)
    threats = _check_may_act(state, element)
    assert element.cell is not None and target.cell is not None
    origin = element.cell if action.get("from") in (None, cell_name(element.cell)) else _cell(action, "from")
    if threats and (target not in threats or origin != element.cell):
        raise _engaged_error()
    if origin != element.cell and origin not in reachable(state, element):
        raise illegal("unreachable", f"{cell_name(origin)} est hors de portée de ce mouvement.",
                      f"{cell_name(origin)} cannot be reached by this move.")
    if manhattan(origin, target.cell) != 1:
        raise illegal("not_in_contact", "L'attaque se résout au contact : il faut une case voisine de la cible.",
                      "Attacks are resolved in contact: you need a cell next to the target.")
    return target, origin


def check_shoot(state: State, element: Element, action: dict[str, Any]) -> Element:
    if not element.kind.shoots:
        raise illegal("cannot_shoot", "Seul l'archer sait tirer.", "Only an archer can shoot.")
    target = _target(state, element.side, action)
    threats = _check_may_act(state, element)
    assert element.cell is not None and target.cell is not None
    if threats and target not in threats:
        raise illegal("engaged", "Engagé, l'archer ne peut tirer que sur qui le menace.",
                      "Engaged, the archer may only shoot the element threatening it.")
    if chebyshev(element.cell, target.cell) > RULES.shooting_range:
        raise illegal("out_of_range", f"Hors de portée : {RULES.shooting_range} cases au plus.",
                      f"Out of range: {RULES.shooting_range} cells at most.")
    if not line_is_clear(state, element.cell, target.cell):
        raise illegal("no_line_of_sight", "La ligne de vue n'est pas dégagée.", "The line of sight is blocked.")
    return target


def check_deploy(state: State, element: Element, action: dict[str, Any]) -> Cell:
    cell = _cell(action, "cell")
    if cell not in DEPLOY_CELLS[element.side]:
        first, last = (chr(ord("a") + c) for c in (RULES.deploy_columns[0], RULES.deploy_columns[-1]))
        raise illegal("outside_deployment_zone",
                      f"On se déploie sur ses deux rangées, colonnes {first} à {last}.",
                      f"Deploy on your own two rows, columns {first} to {last}.")
    occupant = state.board.get(cell)
    if occupant is not None and occupant is not element:
        raise illegal("cell_occupied", "Cette case est déjà occupée.", "That cell is taken.")
    return cell


# -- apply -----------------------------------------------------------------------
def check_turn_order(state: State, side: str, kind: str) -> None:
    if state.phase == OVER:
        raise illegal("game_over", "La manœuvre est terminée.", "The manoeuvre is over.")
    if state.phase == DEPLOYMENT:
        if kind not in ("deploy", "undeploy", "ready"):
            raise illegal("deployment_phase", "On se déploie encore.", "Deployment is still going on.")
        if state.ready[side]:
            raise illegal(NOT_YOUR_TURN, "Tu t'es déjà déclaré prêt.", "You have already declared yourself ready.")
        return
    if kind in ("deploy", "undeploy", "ready"):
        raise illegal("battle_phase", "Le déploiement est terminé.", "Deployment is over.")
    if state.active != side:
        raise illegal(NOT_YOUR_TURN, "Ce n'est pas ton tour.", "It is not your turn.")


def apply(state: State, side: str, action: dict[str, Any], dice: Dice) -> list[Event]:
    kind = action.get("type")
    if kind not in ACTION_TYPES:
        raise RuleError(UNKNOWN_ACTION, f"Action inconnue : {kind!r}.", f"Unknown action: {kind!r}.")
    if kind == "resign":
        if state.phase == OVER:
            raise illegal("game_over", "La manœuvre est terminée.", "The manoeuvre is over.")
        state.end(opponent(side), "resignation")
        return [Event("resigned", {"side": side, "winner": opponent(side)})]
    check_turn_order(state, side, kind)
    if kind == "ready":
        return _ready(state, side)
    if kind == "end_turn":
        return _end_turn(state, side)
    element = own_element(state, side, action)
    return _ELEMENT_ACTIONS[kind](state, element, action, dice)


def _deploy(state: State, element: Element, action: dict[str, Any], dice: Dice) -> list[Event]:
    cell = check_deploy(state, element, action)
    state.place(element, cell)
    return [Event("deployed", {"element": _ref(element), "cell": cell_name(cell)}, (element.side,))]


def _undeploy(state: State, element: Element, action: dict[str, Any], dice: Dice) -> list[Event]:
    if element.cell is None:
        raise illegal("not_deployed", "Cet élément n'est pas placé.", "That element is not placed.")
    state.place(element, None)
    return [Event("undeployed", {"element": _ref(element)}, (element.side,))]


def _ready(state: State, side: str) -> list[Event]:
    if any(el.cell is None for el in state.side_elements(side)):
        count = len(RULES.army)
        raise illegal("not_all_deployed", f"Place tes {count} éléments avant de te déclarer prêt.",
                      f"Place all {count} elements before declaring yourself ready.")
    state.ready[side] = True
    events = [Event("ready", {"side": side})]
    if all(state.ready.values()):
        state.phase, state.turn, state.active = BATTLE, 1, RULES.first_side
        placement = {el.id: [cell_name(el.cell), el.facing] for el in state.elements.values() if el.cell}
        events.append(Event("battle_started", {"first": RULES.first_side, "placement": placement}))
    return events


def _end_turn(state: State, side: str) -> list[Event]:
    for element in state.side_elements(side):
        element.acted = False
    state.active = opponent(side)
    state.turn += 1
    return [Event("turn_ended", {"side": side, "turn": state.turn - 1})]


def _move(state: State, element: Element, action: dict[str, Any], dice: Dice) -> list[Event]:
    to, facing = check_move(state, element, action)
    origin = element.cell
    assert origin is not None
    state.place(element, to)
    element.facing, element.acted = facing, True
    return [Event("moved", {"element": _ref(element), "from": cell_name(origin), "to": cell_name(to),
                            "facing": facing})]


def _turn(state: State, element: Element, action: dict[str, Any], dice: Dice) -> list[Event]:
    element.facing = check_turn(state, element, action)
    element.acted = True
    assert element.cell is not None
    return [Event("turned", {"element": _ref(element), "cell": cell_name(element.cell),
                             "facing": element.facing})]


def engage(state: State, element: Element, action: dict[str, Any]) -> tuple[Element, Element, bool, list[Event]]:
    """Check an attack or shot and do what comes before the dice: the charge, the turn to face.

    Returns (attacker, target, close combat?, events so far)."""
    if action["type"] == "shoot":
        return close_in(state, element, check_shoot(state, element, action), None)
    target, origin = check_attack(state, element, action)
    return close_in(state, element, target, origin)


def close_in(state: State, element: Element, target: Element,
             origin: Cell | None) -> tuple[Element, Element, bool, list[Event]]:
    """What comes before the dice of a fight already checked: a shot (``origin`` None) turns the archer towards
    its target; an attack from ``origin`` charges there first, facing the target. Returns as ``engage``."""
    assert element.cell is not None and target.cell is not None
    if origin is None:
        element.facing, element.acted = facing_nearest(element.cell, target.cell), True
        return element, target, False, []
    facing = facing_towards(origin, target.cell)
    assert facing is not None
    events = []
    if origin != element.cell:
        events.append(Event("moved", {"element": _ref(element), "from": cell_name(element.cell),
                                      "to": cell_name(origin), "facing": facing, "charge": True}))
        state.place(element, origin)
    element.facing, element.acted = facing, True
    return element, target, True, events


def _fight(state: State, element: Element, action: dict[str, Any], dice: Dice) -> list[Event]:
    attacker, target, close, events = engage(state, element, action)
    return events + combat.resolve(state, attacker, target, close, dice)


_ELEMENT_ACTIONS = {"deploy": _deploy, "undeploy": _undeploy, "move": _move, "turn": _turn,
                    "attack": _fight, "shoot": _fight}


def _ref(element: Element) -> dict[str, str]:
    return {"id": element.id, "side": element.side, "kind": element.kind.name}


# -- legal actions ---------------------------------------------------------------
def legal_actions(state: State, side: str) -> Iterator[dict[str, Any]]:
    if state.phase == OVER:
        return
    if state.phase == DEPLOYMENT:
        if not state.ready[side]:
            yield from _deployment_actions(state, side)
        yield {"type": "resign"}
        return
    if state.active == side:
        for element in state.side_elements(side):
            if element.on_field and not element.acted:
                yield from element_actions(state, element)
        yield {"type": "end_turn"}
    yield {"type": "resign"}


def _deployment_actions(state: State, side: str) -> Iterator[dict[str, Any]]:
    free = [CELL_NAMES[cell] for cell in DEPLOY_CELLS[side] if cell not in state.board]
    all_placed = True
    for element in state.side_elements(side):
        eid = element.id
        yield from [{"type": "deploy", "element": eid, "cell": name} for name in free]
        if element.cell is None:
            all_placed = False
        else:
            yield {"type": "undeploy", "element": element.id}
    if all_placed:
        yield {"type": "ready"}


def element_actions(state: State, element: Element) -> Iterator[dict[str, Any]]:
    """Every legal action of one element that has not acted yet this turn."""
    assert element.cell is not None
    eid = element.id
    threats = state.threats_against(element)
    if threats:
        for enemy in threats:
            assert enemy.cell is not None
            facing = facing_towards(element.cell, enemy.cell)
            if facing != element.facing:
                yield {"type": "turn", "element": eid, "facing": facing}
            yield {"type": "attack", "element": eid, "target": enemy.id}
            if element.kind.shoots:
                yield {"type": "shoot", "element": eid, "target": enemy.id}
        for cell in step_back_cells(state, element, threats):
            to = CELL_NAMES[cell]
            for facing in FACINGS:
                yield {"type": "move", "element": eid, "to": to, "facing": facing}
        return
    destinations = reachable(state, element)
    for cell in destinations:
        to = CELL_NAMES[cell]
        for facing in FACINGS:
            yield {"type": "move", "element": eid, "to": to, "facing": facing}
    for facing in FACINGS:
        if facing != element.facing:
            yield {"type": "turn", "element": eid, "facing": facing}
    enemies = _enemies_on_field(state, element.side)
    yield from _attacks(state, element, destinations, enemies)
    if element.kind.shoots:
        yield from _shots(state, element, enemies)


def fight_actions(state: State, side: str) -> Iterator[dict[str, Any]]:
    """The attacks and shots among ``side``'s legal actions, in the same order, without working
    out the moves of elements that no enemy is near (what a search's quick replies need)."""
    if state.phase != BATTLE or state.active != side:
        return
    enemies = _enemies_on_field(state, side)
    enemy_places = [cell_index(e.cell, RULES.height) for e in enemies if e.cell is not None]
    rows = distance_rows(RULES.width, RULES.height, manhattan)
    for element in state.elements.values():
        if element.side != side or element.acted or not element.on_field:
            continue
        assert element.cell is not None
        threats = state.threats_against(element)
        if threats:
            for enemy in threats:
                yield {"type": "attack", "element": element.id, "target": enemy.id}
                if element.kind.shoots:
                    yield {"type": "shoot", "element": element.id, "target": enemy.id}
            continue
        row, reach = rows[element.cell], element.kind.move + 1
        if enemy_places and min([row[place] for place in enemy_places]) <= reach:
            yield from _attacks(state, element, reachable(state, element), enemies)
        if element.kind.shoots:
            yield from _shots(state, element, enemies)


def _enemies_on_field(state: State, side: str) -> list[Element]:
    return [e for e in state.elements.values() if e.side != side and e.on_field]


def _attacks(state: State, element: Element, destinations: dict[Cell, int],
             enemies: list[Element]) -> Iterator[dict[str, Any]]:
    """``enemies``: those on the field (``_enemies_on_field``)."""
    assert element.cell is not None
    distances = distance_rows(RULES.width, RULES.height, manhattan)[element.cell]
    for enemy in enemies:
        assert enemy.cell is not None
        distance = distances[cell_index(enemy.cell, RULES.height)]
        if distance == 1:
            yield {"type": "attack", "element": element.id, "target": enemy.id}
        if distance > element.kind.move + 1:
            continue
        for cell in orthogonal_neighbours(enemy.cell):
            if cell in destinations:
                yield {"type": "attack", "element": element.id, "target": enemy.id, "from": cell_name(cell)}


def _shots(state: State, element: Element, enemies: list[Element]) -> Iterator[dict[str, Any]]:
    assert element.cell is not None
    x, y = element.cell
    reach = RULES.shooting_range
    for enemy in enemies:
        if (enemy.cell is not None
                and abs(x - enemy.cell[0]) <= reach and abs(y - enemy.cell[1]) <= reach  # Chebyshev distance
                and line_is_clear(state, element.cell, enemy.cell)):
            yield {"type": "shoot", "element": element.id, "target": enemy.id}

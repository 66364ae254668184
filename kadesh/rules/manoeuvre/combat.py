"""Combat and shooting: 1d6 + factor + modifiers, the lower score loses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kadesh.core.dice import Dice
from kadesh.core.events import Event, roll_event
from kadesh.core.grid import DIRECTION, LEFT_OF, OPPOSITE, RIGHT_OF, Cell, cell_name, on_board, step
from kadesh.rules.manoeuvre.data import RULES
from kadesh.rules.manoeuvre.state import Element, State, opponent

FRONT, FLANK, REAR = "front", "flank", "rear"

# Outcomes from the attacker's side, as in the exact-odds tables.
DOUBLE, WIN, TIE, LOSE, DOUBLED = "double", "win", "tie", "lose", "doubled"


def aspect(attacker_cell: Cell, defender: Element) -> str:
    """Where the attacker stands relative to the defender's facing: front, flank or rear.

    In contact this is exact. At a distance the attacker's quadrant decides; an exact
    diagonal ahead counts as front, an exact diagonal behind as flank.
    """
    assert defender.cell is not None
    vx, vy = attacker_cell[0] - defender.cell[0], attacker_cell[1] - defender.cell[1]
    fx, fy = DIRECTION[defender.facing]
    ahead = vx * fx + vy * fy
    across = abs(vx * fy - vy * fx)
    if ahead > 0 and ahead >= across:
        return FRONT
    if ahead < 0 and -ahead > across:
        return REAR
    return FLANK


def has_rear_support(state: State, element: Element) -> bool:
    assert element.cell is not None
    behind = state.board.get(step(element.cell, OPPOSITE[element.facing]))
    return behind is not None and behind.side == element.side and behind.facing == element.facing


def threatened_flanks(state: State, element: Element, opponent_element: Element) -> int:
    """How many of the element's flanks (left, right) another enemy element threatens."""
    assert element.cell is not None
    count = 0
    for side_facing in (LEFT_OF[element.facing], RIGHT_OF[element.facing]):
        other = state.board.get(step(element.cell, side_facing))
        if (other is not None and other is not opponent_element and other.side != element.side
                and other.threatened_cell() == element.cell):
            count += 1
    return count


def modifiers(state: State, element: Element, opponent_element: Element, close: bool,
              attacked_from: str | None = None) -> list[tuple[str, int]]:
    mods: list[tuple[str, int]] = []
    if element.kind.name == "general":
        mods.append(("general", RULES.general_bonus))
    if close and has_rear_support(state, element):
        mods.append(("support", RULES.rear_support_bonus))
    mods.extend([("flank_threat", RULES.flank_threat_penalty)]
                * threatened_flanks(state, element, opponent_element))
    if attacked_from == FLANK:
        mods.append(("attacked_flank", RULES.attacked_flank_penalty))
    elif attacked_from == REAR:
        mods.append(("attacked_rear", RULES.attacked_rear_penalty))
    return mods


def classify(attacker_score: int, defender_score: int) -> str:
    if attacker_score == defender_score:
        return TIE
    if attacker_score > defender_score:
        return DOUBLE if attacker_score >= RULES.double_ratio * defender_score else WIN
    return DOUBLED if defender_score >= RULES.double_ratio * attacker_score else LOSE


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything about a fight that does not depend on the dice."""

    attacker: Element
    defender: Element
    close: bool
    aspect: str
    factors: tuple[int, int]
    modifiers: tuple[list[tuple[str, int]], list[tuple[str, int]]]

    @property
    def bases(self) -> tuple[int, int]:
        return (self.factors[0] + sum(v for _, v in self.modifiers[0]),
                self.factors[1] + sum(v for _, v in self.modifiers[1]))


def prepare(state: State, attacker: Element, defender: Element, close: bool) -> Setup:
    assert attacker.cell is not None
    side_of_defender = aspect(attacker.cell, defender)
    defender_factor = (defender.kind.factor_against(attacker.kind) if close
                       else getattr(defender.kind, RULES.shooting_target_factor))
    return Setup(
        attacker, defender, close, side_of_defender,
        (attacker.kind.factor_against(defender.kind), defender_factor),
        (modifiers(state, attacker, defender, close),
         modifiers(state, defender, attacker, close, side_of_defender)),
    )


def destruction_cause(setup: Setup, outcome: str) -> str | None:
    """Why the loser is destroyed outright, before any recoil, or None if it only recoils."""
    if outcome in (DOUBLE, DOUBLED):
        return "doubled"
    loser, winner = (setup.defender, setup.attacker) if outcome == WIN else (setup.attacker, setup.defender)
    if outcome == WIN and setup.aspect == REAR:
        return "rear"
    if setup.close and loser.kind.shoots and winner.kind.mounted:
        return "bow_vs_mounted"
    return None


def recoil_path(state: State, loser: Element) -> tuple[str, Cell | None, Element | None, Cell | None]:
    """Where a beaten element goes: ("recoil", to, None, None), ("push", to, friend, friend_to),
    or ("blocked" with the reason "edge", "enemy" or "friend")."""
    assert loser.cell is not None
    back = OPPOSITE[loser.facing]
    to = step(loser.cell, back)
    if not on_board(to, RULES.width, RULES.height):
        return ("edge", None, None, None)
    occupant = state.board.get(to)
    if occupant is None:
        return ("recoil", to, None, None)
    if occupant.side != loser.side:
        return ("enemy", None, None, None)
    if occupant.facing == loser.facing:
        friend_to = step(to, back)
        if on_board(friend_to, RULES.width, RULES.height) and friend_to not in state.board:
            return ("push", to, occupant, friend_to)
    return ("friend", None, None, None)


def distribution(state: State, attacker: Element, defender: Element, close: bool) -> tuple[dict, dict]:
    """Exact outcome counts over every pair of dice, without changing the state.

    Returns (score outcomes: double/win/tie/lose/doubled, effects: enemy_destroyed/enemy_recoils/
    tie/own_recoils/own_destroyed), each out of die_sides squared, following ``resolve`` exactly."""
    setup = prepare(state, attacker, defender, close)
    recoils = {side: recoil_path(state, loser)[0] in ("recoil", "push")
               for side, loser in (("enemy", defender), ("own", attacker))}
    # The counts depend on the scores' bases, what destroys outright and who may recoil, nothing else: a search
    # asks for the same few fights again and again.
    key = (setup.bases, setup.aspect == REAR, close and defender.kind.shoots and attacker.kind.mounted,
           close and attacker.kind.shoots and defender.kind.mounted, recoils["enemy"], recoils["own"])
    known = _DISTRIBUTIONS.get(key)
    if known is None:
        known = _DISTRIBUTIONS[key] = _count_outcomes(setup, recoils)
    return dict(known[0]), dict(known[1])


_DISTRIBUTIONS: dict[tuple, tuple[dict, dict]] = {}


def _count_outcomes(setup: Setup, recoils: dict[str, bool]) -> tuple[dict, dict]:
    base_a, base_d = setup.bases
    scores = dict.fromkeys((DOUBLE, WIN, TIE, LOSE, DOUBLED), 0)
    effects = dict.fromkeys(("enemy_destroyed", "enemy_recoils", "tie", "own_recoils", "own_destroyed"), 0)
    faces = range(1, RULES.die_sides + 1)
    for a in faces:
        for d in faces:
            outcome = classify(a + base_a, d + base_d)
            scores[outcome] += 1
            if outcome == TIE:
                effects["tie"] += 1
                continue
            whose = "enemy" if outcome in (DOUBLE, WIN) else "own"
            recoil = destruction_cause(setup, outcome) is None and recoils[whose]
            effects[f"{whose}_{'recoils' if recoil else 'destroyed'}"] += 1
    return scores, effects


def _ref(element: Element) -> dict[str, str]:
    return {"id": element.id, "side": element.side, "kind": element.kind.name}


def destroy(state: State, element: Element) -> list[Event]:
    """Remove an element, count the loss, and break its side at the threshold."""
    state.remove(element)
    state.losses[element.side] += element.kind.loss_value
    if state.losses[element.side] >= RULES.break_losses and state.phase != "over":
        winner = opponent(element.side)
        state.end(winner, "break")
        return [Event("broken", {"side": element.side, "losses": state.losses[element.side],
                                 "winner": winner})]
    return []


def resolve(state: State, attacker: Element, defender: Element, close: bool, dice: Dice) -> list[Event]:
    """Fight it out: roll (attacker first), compare, and apply recoil or destruction."""
    setup = prepare(state, attacker, defender, close)
    purpose = "combat" if close else "shooting"
    attacker_roll = dice.roll(RULES.die_sides)
    defender_roll = dice.roll(RULES.die_sides)
    events = [roll_event(attacker_roll, attacker.side, purpose),
              roll_event(defender_roll, defender.side, purpose)]
    base_a, base_d = setup.bases
    scores = (attacker_roll.value + base_a, defender_roll.value + base_d)
    outcome = classify(*scores)
    data: dict[str, Any] = {
        "mode": "attack" if close else "shot",
        "attacker": _ref(attacker), "defender": _ref(defender), "aspect": setup.aspect,
        "support": close and has_rear_support(state, attacker),
        "rolls": [attacker_roll.value, defender_roll.value], "factors": list(setup.factors),
        "modifiers": [[list(m) for m in mods] for mods in setup.modifiers],
        "scores": list(scores), "outcome": outcome, "loser": None, "result": "tie", "cause": None,
    }
    combat = Event("combat", data)
    events.append(combat)
    if outcome == TIE:
        return events
    loser = defender if outcome in (DOUBLE, WIN) else attacker
    data["loser"] = "defender" if loser is defender else "attacker"
    cause = destruction_cause(setup, outcome)
    if cause is None:
        fate, to, friend, friend_to = recoil_path(state, loser)
        if fate in ("recoil", "push"):
            assert to is not None
            if friend is not None and friend_to is not None:
                state.place(friend, friend_to)
                data["pushed"] = {"element": _ref(friend), "to": cell_name(friend_to)}
            state.place(loser, to)
            data["result"] = "recoil"
            data["recoil_to"] = cell_name(to)
            return events
        cause = fate
    data["result"] = "destroyed"
    data["cause"] = cause
    events.extend(destroy(state, loser))
    return events

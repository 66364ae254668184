"""Who decides what, and when: the generals' actions at each decision point."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kadesh.core.dice import Dice
from kadesh.core.errors import GAME_OVER, NOT_YOUR_TURN, UNKNOWN_ACTION, RuleError, bad_action
from kadesh.core.events import Event
from kadesh.rules.bataille import engine
from kadesh.rules.bataille.data import SIDES
from kadesh.rules.bataille.state import CONTINUE, DEPLOY, OVER, PURSUE, STANCE, STANCES, State

ACTIONS = {DEPLOY: ("ready",), STANCE: ("stance",), PURSUE: ("pursue", "let_go"), CONTINUE: ("pursue", "stop")}


def to_act(state: State) -> list[str]:
    if state.phase == DEPLOY:
        return [s for s in SIDES if not state.ready[s]]
    if state.phase == STANCE:
        return [s for s in SIDES if s not in state.stances]
    if state.phase in (PURSUE, CONTINUE):
        assert state.decider is not None
        return [state.decider]
    return []


def legal_actions(state: State, side: str) -> Iterator[dict[str, Any]]:
    if side not in to_act(state):
        return
    if state.phase == STANCE:
        for stance in STANCES:
            yield {"type": "stance", "stance": stance}
        return
    for kind in ACTIONS[state.phase]:
        yield {"type": kind}


def apply(state: State, side: str, action: dict[str, Any], dice: Dice) -> list[Event]:
    if not isinstance(action, dict):
        raise bad_action("Une action est un objet JSON.", "An action is a JSON object.")
    if state.phase == OVER:
        raise RuleError(GAME_OVER, "La bataille est finie.", "The battle is over.")
    kind = action.get("type")
    if kind not in {k for kinds in ACTIONS.values() for k in kinds}:
        raise RuleError(UNKNOWN_ACTION, f"Action inconnue : {kind!r}.", f"Unknown action: {kind!r}.")
    if side not in to_act(state):
        raise RuleError(NOT_YOUR_TURN, "Ce n'est pas à ce général de décider.", "It is not this general's decision.")
    if kind not in ACTIONS[state.phase]:
        raise bad_action(f"Ici, les décisions possibles sont : {', '.join(ACTIONS[state.phase])}.",
                         f"Here the possible decisions are: {', '.join(ACTIONS[state.phase])}.")
    if set(action) - {"type", "stance"} or (kind == "stance") != ("stance" in action):
        raise bad_action("Champs inattendus dans la décision.", "Unexpected fields in the decision.")
    if kind == "stance" and action["stance"] not in STANCES:
        raise bad_action("Attitude : attack, hold ou withdraw.", "Stance: attack, hold or withdraw.")
    return _decide(state, side, kind, action, dice)


def _decide(state: State, side: str, kind: str, action: dict[str, Any], dice: Dice) -> list[Event]:
    if kind == "ready":
        state.ready[side] = True
        events = [Event("ready", {"side": side})]
        return events + (engine.begin_turn(state, dice) if all(state.ready.values()) else [])
    if kind == "stance":
        state.stances[side] = action["stance"]
        events = [Event("stance_given", {"side": side, "stance": action["stance"]}, (side,))]
        return events + (engine.stances_given(state, dice) if len(state.stances) == len(SIDES) else [])
    if state.phase == PURSUE:
        if kind == "pursue":
            return [Event("pursue", {"side": side})] + engine.pursuit(state, dice, side)
        return engine.decline_pursuit(state, dice, side)
    if kind == "pursue":
        return [Event("pursue", {"side": side})] + engine.pursuit(state, dice, side)
    return engine.stop_pursuit(state, dice, side)

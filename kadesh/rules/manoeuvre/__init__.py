"""Manœuvre: a two-commander training skirmish on a 12×12 field (seed text 000)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kadesh.core.dice import Dice
from kadesh.core.events import Event
from kadesh.core.ruleset import Ruleset
from kadesh.rules.manoeuvre import combat, narration, rules
from kadesh.rules.manoeuvre.data import RULES, SIDES
from kadesh.rules.manoeuvre.marks import marks as board_marks
from kadesh.rules.manoeuvre.placement import suggested_placement
from kadesh.rules.manoeuvre.rules import CELL_NAMES
from kadesh.rules.manoeuvre.state import BATTLE, DEPLOYMENT, OVER, Element, State, initial_state, state_from_view


class Manoeuvre(Ruleset):
    name = "manoeuvre"
    bot_modules = ("kadesh.ai.manoeuvre",)
    version = "1"
    title = {"fr": "Manœuvre", "en": "Manoeuvre"}
    opener_seat = RULES.opener_side
    options_schema = {
        "choice": {"type": "choice", "values": list(RULES.choice_values), "default": RULES.choice_default,
                   "fr": "Douzième élément : archer ou lame", "en": "Twelfth element: archer or blade"},
    }

    def seats(self, options: dict[str, Any]) -> list[str]:
        return list(SIDES)

    def setup(self, options: dict[str, Any]) -> State:
        return initial_state(dict.fromkeys(SIDES, options["choice"]))

    def clone(self, state: State) -> State:
        return state.copy()

    def to_act(self, state: State) -> list[str]:
        if state.phase == DEPLOYMENT:
            return [side for side in SIDES if not state.ready[side]]
        if state.phase == BATTLE and state.active is not None:
            return [state.active]
        return []

    def legal_actions(self, state: State, seat: str) -> Iterator[dict[str, Any]]:
        return rules.legal_actions(state, seat)

    def apply(self, state: State, seat: str, action: dict[str, Any], dice: Dice) -> list[Event]:
        return rules.apply(state, seat, action, dice)

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state.phase != OVER:
            return None
        return {"winner": state.winner, "reason": state.end_reason}

    def narrate(self, event: Event, seat: str | None, lang: str) -> str | None:
        return narration.narrate(event, seat, lang)

    def marks(self, events: list[Event], seat: str | None) -> list[dict[str, Any] | None]:
        """Cells of each battle event, for the page to mark the last turn (``marks.py``)."""
        return board_marks(events)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        hidden = state.phase == DEPLOYMENT
        return {
            "ruleset": self.name,
            "board": {"width": RULES.width, "height": RULES.height},
            "phase": state.phase,
            "turn": state.turn,
            "active": state.active,
            "ready": dict(state.ready),
            "losses": dict(state.losses),
            "break_losses": RULES.break_losses,
            "kinds": {k.name: {"move": k.move, "vs_foot": k.vs_foot, "vs_mounted": k.vs_mounted, "mounted": k.mounted,
                               "shoots": k.shoots, "loss_value": k.loss_value} for k in RULES.kinds.values()},
            "elements": [_element_view(state, el, seat, hidden and el.side != seat)
                         for el in state.elements.values()],
        }

    def preview(self, state: State, seat: str, action: dict[str, Any]) -> dict[str, Any] | None:
        """Before ``ready`` in the deployment phase: a default placement of the elements not yet placed, as the
        ``deploy`` actions to send (``placement.py``), for the page's one click (issue 44). None otherwise."""
        if action != {"type": "ready"} or seat not in SIDES or state.phase != DEPLOYMENT:
            return None
        return {"suggested": suggested_placement(state, seat)}

    def odds(self, state: State, seat: str, action: dict[str, Any]) -> dict[str, Any] | None:
        """Exact chances of an attack or shot over all pairs of dice (the state is left untouched)."""
        if action.get("type") not in ("attack", "shoot"):
            return None
        trial = state.copy()
        rules.check_turn_order(trial, seat, action["type"])
        attacker, target, close, _ = rules.engage(trial, rules.own_element(trial, seat, action), action)
        scores, effects = combat.distribution(trial, attacker, target, close)
        return {"total": RULES.die_sides ** 2, "scores": scores, "effects": effects}

    def state_from_view(self, view: dict[str, Any], seat: str | None) -> State:
        """A state holding exactly what ``view`` shows; what it hides stays off the field."""
        return state_from_view(view)


def _element_view(state: State, element: Element, seat: str | None, hidden: bool) -> dict[str, Any]:
    if hidden:
        return {"id": element.id, "side": element.side, "kind": element.kind.name, "cell": None,
                "facing": None, "alive": True}
    cell = CELL_NAMES[element.cell] if element.cell is not None else None
    out: dict[str, Any] = {"id": element.id, "side": element.side, "kind": element.kind.name,
                           "cell": cell, "facing": element.facing, "alive": element.alive}
    if state.phase == BATTLE and element.on_field:
        threatened = element.threatened_cell()
        out["threatens"] = CELL_NAMES[threatened] if threatened else None
        out["engaged_by"] = [t.id for t in state.threats_against(element)]
        out["acted"] = element.acted
    return out

"""Dudo (Liar's Dice) for Kadesh: the ruleset, as the entry point ``kadesh.rulesets: dudo`` names it.

The class only binds the contract (kadesh.core.Ruleset) to the pure rules (``rules``) and the journal
(``narration``); its computer player is in ``bots`` and its browser view in ``web/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kadesh.core import Dice, Event, Ruleset
from kadesh_dudo import narration, rules
from kadesh_dudo.rules import SEATS, State


class Dudo(Ruleset):
    name = "dudo"
    version = "1"
    title = {"fr": "Dudo", "en": "Liar's Dice"}
    bot_modules = ("kadesh_dudo.bots",)

    def seats(self, options: dict[str, Any]) -> list[str]:
        return list(SEATS)

    def setup(self, options: dict[str, Any]) -> State:
        return rules.initial_state()

    def clone(self, state: State) -> State:
        return state.copy()

    def to_act(self, state: State) -> list[str]:
        return [state.to_act] if state.winner is None else []

    def legal_actions(self, state: State, seat: str) -> Iterator[dict[str, Any]]:
        return rules.legal_actions(state, seat)

    def apply(self, state: State, seat: str, action: dict[str, Any], dice: Dice) -> list[Event]:
        return rules.apply(state, seat, action, dice)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return rules.view(state, seat)

    def outcome(self, state: State) -> dict[str, Any] | None:
        return {"winner": state.winner, "reason": "last_die"} if state.winner is not None else None

    def narrate(self, event: Event, seat: str | None, lang: str) -> str | None:
        return narration.narrate(event, seat, lang)


__all__ = ["Dudo"]

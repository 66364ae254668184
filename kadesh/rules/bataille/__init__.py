"""Bataille: two groups fight a battle sequence of discipline, fire, morale, melee and pursuit
(seed text 001). Each general decides at the decision points; the dice do the rest."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kadesh.core.dice import Dice
from kadesh.core.errors import RuleError
from kadesh.core.events import Event
from kadesh.core.registry import register
from kadesh.core.ruleset import Ruleset
from kadesh.rules.bataille import narration, rules
from kadesh.rules.bataille.data import RULES, SIDES, TROOP_FIELDS
from kadesh.rules.bataille.engine import chance_under, group_from
from kadesh.rules.bataille.state import OVER, State

LIMITS = {"strength": (1, 100_000), "discipline": (1, 30), "morale": (1, 30), "melee": (0, 20),
          "missile": (0, 20), "range": (0, 2_000), "speed": (1, 30)}
DEFAULT_GROUPS = {"north": {"troop": "archers"}, "south": {"troop": "spearmen"}}


def _bad(name: str, fr: str, en: str) -> RuleError:
    return RuleError("bad_options", fr, en, option=name)


@register
class Bataille(Ruleset):
    name = "bataille"
    version = "1"
    title = {"fr": "Bataille", "en": "Battle"}
    options_schema = {
        side: {"type": "group", "default": DEFAULT_GROUPS[side], "troops": sorted(RULES.troops),
               "catalogue": {tid: {"names": t.names, **{f: getattr(t, f) for f in TROOP_FIELDS}}
                             for tid, t in RULES.troops.items()},
               "fields": {f: {"min": lo, "max": hi} for f, (lo, hi) in LIMITS.items()},
               "fr": f"Groupe du {'Nord' if side == 'north' else 'Sud'} : « troop » du catalogue, ou « custom » "
                     "avec toutes les valeurs ; chaque valeur donnée remplace celle du catalogue",
               "en": f"{side.title()}'s group: a catalogue 'troop', or 'custom' with every value; any value "
                     "given replaces the catalogue's"}
        for side in SIDES
    } | {
        "shelter": {"type": "bool", "default": False, "fr": "Un abri (forteresse, fleuve) est à portée des fuyards",
                    "en": "Shelter (a fortress, a river) is at hand for a fleeing group"},
        "events": {"type": "bool", "default": False, "fr": "Un événement (nuit, tempête, renforts) peut finir une "
                   "poursuite", "en": "An event (night, storm, reinforcements) may end a pursuit"},
    }

    def normalize_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise _bad("", "Les options doivent être un objet.", "Options must be an object.")
        unknown = sorted(set(options) - set(self.options_schema))
        if unknown:
            raise _bad(unknown[0], f"Option inconnue : {unknown[0]}.", f"Unknown option: {unknown[0]}.")
        out: dict[str, Any] = {side: _group_option(side, options.get(side, DEFAULT_GROUPS[side])) for side in SIDES}
        for flag in ("shelter", "events"):
            value = options.get(flag, False)
            if not isinstance(value, bool):
                raise _bad(flag, f"Option {flag} : vrai ou faux.", f"Option {flag}: true or false.")
            out[flag] = value
        return out

    def seats(self, options: dict[str, Any]) -> list[str]:
        return list(SIDES)

    def setup(self, options: dict[str, Any]) -> State:
        return State({side: group_from(side, options[side]) for side in SIDES}, options["shelter"], options["events"])

    def clone(self, state: State) -> State:
        return state.copy()

    def to_act(self, state: State) -> list[str]:
        return rules.to_act(state)

    def legal_actions(self, state: State, seat: str) -> Iterator[dict[str, Any]]:
        return rules.legal_actions(state, seat)

    def apply(self, state: State, seat: str, action: dict[str, Any], dice: Dice) -> list[Event]:
        return rules.apply(state, seat, action, dice)

    def outcome(self, state: State) -> dict[str, Any] | None:
        return dict(state.result) if state.phase == OVER and state.result is not None else None

    def narrate(self, event: Event, seat: str | None, lang: str) -> str | None:
        return narration.narrate(event, seat, lang)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        """Both groups are in plain sight; only the other general's stance, until both are given, is not."""
        return {
            "ruleset": self.name,
            "phase": state.phase,
            "turn": state.turn,
            "decider": state.decider,
            "shelter": state.shelter,
            "events": state.events,
            "groups": {side: {"troop": g.troop, "names": RULES.troops[g.troop].names if g.troop in RULES.troops
                              else {"fr": "Troupe", "en": "Troop"}, "initial": g.initial,
                              **{f: getattr(g, f) for f in TROOP_FIELDS}, "morale_modifier": g.morale_modifier(),
                              "discipline_chance": chance_under(g.discipline),
                              "morale_chance": chance_under(g.morale + g.morale_modifier())}
                       for side, g in state.groups.items()},
            "dice": {"sides": RULES.die_sides, "loss_divisor": RULES.loss_divisor,
                     "loss_step_percent": RULES.loss_step_percent},
            "stances_given": sorted(state.stances),
            "your_stance": state.stances.get(seat) if seat else None,
            "result": state.result,
        }


def _group_option(side: str, spec: object) -> dict[str, Any]:
    if not isinstance(spec, dict) or set(spec) - {"troop", *TROOP_FIELDS}:
        raise _bad(side, f"Groupe {side} : un objet avec « troop » et les valeurs {', '.join(TROOP_FIELDS)}.",
                   f"Group {side}: an object with 'troop' and the values {', '.join(TROOP_FIELDS)}.")
    troop = spec.get("troop", "custom")
    if troop != "custom" and troop not in RULES.troops:
        raise _bad(side, f"Troupe inconnue : {troop} (catalogue : {', '.join(RULES.troops)}, ou custom).",
                   f"Unknown troop: {troop} (catalogue: {', '.join(RULES.troops)}, or custom).")
    if troop == "custom" and set(TROOP_FIELDS) - set(spec):
        raise _bad(side, "Une troupe « custom » donne toutes ses valeurs.", "A 'custom' troop gives every value.")
    out: dict[str, Any] = {"troop": troop}
    for field in TROOP_FIELDS:
        value = spec.get(field, getattr(RULES.troops.get(troop), field, None))
        low, high = LIMITS[field]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise _bad(side, f"Groupe {side}, {field} : un entier de {low} à {high}.",
                       f"Group {side}, {field}: a whole number from {low} to {high}.")
        out[field] = value
    return out

"""Bataille: a battle sequence of discipline, fire, morale, melee and pursuit (seed text 001), between
two groups already in contact (the one-against-one battle), or between several groups a side that
manœuvre on a field and engage when they come within range (option ``field``, ``field.py``). Each
general decides at the decision points; the dice do the rest."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from kadesh.core.dice import Dice
from kadesh.core.errors import RuleError
from kadesh.core.events import Event
from kadesh.core.ruleset import Ruleset
from kadesh.rules.bataille import field, narration, rules
from kadesh.rules.bataille.data import RULES, SIDES, TROOP_FIELDS
from kadesh.rules.bataille.engine import chance_under, group_from
from kadesh.rules.bataille.field import FieldState
from kadesh.rules.bataille.field_setup import normalize_field
from kadesh.rules.bataille.state import OVER, Group, State

LIMITS = {"strength": (1, 100_000), "discipline": (1, 30), "morale": (1, 30), "melee": (0, 20),
          "missile": (0, 20), "range": (0, 2_000), "speed": (1, 30)}
DEFAULT_GROUPS = {"north": {"troop": "archers"}, "south": {"troop": "spearmen"}}


def _bad(name: str, fr: str, en: str) -> RuleError:
    return RuleError("bad_options", fr, en, option=name)


class Bataille(Ruleset):
    name = "bataille"
    bot_modules = ("kadesh.ai.bataille",)
    version = "2"  # 2: a shift names the lane it leads to
    title = {"fr": "Bataille", "en": "Battle"}
    options_schema = {
        # a shipped field's name (the card's select), or a whole field through the API; "": one against one
        "field": {"type": "choice", "default": "", "suggested": "kadesh", "values": ["", *RULES.fields],
                  "labels": {"": {"fr": "Un groupe contre un", "en": "One group against one"},
                             **{k: {"fr": f["fr"], "en": f["en"]} for k, f in RULES.fields.items()}},
                  "excludes": [*SIDES, "shelter", "events"], "fields": RULES.fields,
                  "lanes": list(RULES.lanes), "depth": RULES.depth,
                  "fr": "Champ de bataille", "en": "Battlefield"},
    } | {
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
        if options.get("field") in (None, ""):
            options = {k: v for k, v in options.items() if k != "field"}
        else:
            others = sorted(set(options) - {"field"})
            if others:
                raise _bad(others[0], f"Sur un champ, les groupes sont ceux du champ : option {others[0]} en trop.",
                           f"On a field, the groups are the field's: option {others[0]} is not used.")
            return {"field": normalize_field(options["field"], LIMITS)}
        out: dict[str, Any] = {side: _group_option(side, options.get(side, DEFAULT_GROUPS[side])) for side in SIDES}
        for flag in ("shelter", "events"):
            value = options.get(flag, False)
            if not isinstance(value, bool):
                raise _bad(flag, f"Option {flag} : vrai ou faux.", f"Option {flag}: true or false.")
            out[flag] = value
        return out

    def seats(self, options: dict[str, Any]) -> list[str]:
        return list(SIDES)

    def setup(self, options: dict[str, Any]) -> State | FieldState:
        if "field" in options:
            return field.from_setup(options["field"])
        return State({side: group_from(side, options[side]) for side in SIDES}, options["shelter"], options["events"])

    def clone(self, state: State | FieldState) -> State | FieldState:
        return state.copy()

    def to_act(self, state: State | FieldState) -> list[str]:
        return field.to_act(state) if isinstance(state, FieldState) else rules.to_act(state)

    def legal_actions(self, state: State | FieldState, seat: str) -> Iterator[dict[str, Any]]:
        if isinstance(state, FieldState):
            return field.legal_actions(state, seat)
        return rules.legal_actions(state, seat)

    def apply(self, state: State | FieldState, seat: str, action: dict[str, Any], dice: Dice) -> list[Event]:
        if isinstance(state, FieldState):
            return field.apply(state, seat, action, dice)
        return rules.apply(state, seat, action, dice)

    def outcome(self, state: State | FieldState) -> dict[str, Any] | None:
        return dict(state.result) if state.phase == OVER and state.result is not None else None

    def narrate(self, event: Event, seat: str | None, lang: str) -> str | None:
        return narration.narrate(event, seat, lang)

    def narrator(self, options: dict[str, Any]) -> Any:
        """On a field, the journal names each group (« les Archers du Nord »)."""
        if "field" not in options:
            return self.narrate
        names = narration.group_names(options["field"]["groups"])
        return lambda event, seat, lang: narration.narrate(event, seat, lang, names)

    def marks(self, events: list[Event], seat: str | None) -> list[dict[str, Any] | None]:
        """On a field, where a turn's story is cut for the page (issue 59: a turn's fights came in one burst): the
        orders revealed (the turn begins to resolve, and which turn: a field's battle opens on turn 1 without a
        « turn » event), each engagement (a fight, in its lane), the next turn."""
        marks, turn = [], 1
        for event in events:
            if event.type == "turn" and "night" in event.data:
                turn = event.data["turn"]
            marks.append({"kind": "orders", "turn": turn} if event.type == "orders" else _mark(event))
        return marks

    def view(self, state: State | FieldState, seat: str | None) -> dict[str, Any]:
        """Every group on the field is in plain sight; the other general's orders and stance, until
        all are given, and his reinforcements, until they arrive, are not."""
        if isinstance(state, FieldState):
            return field_view(state, seat)
        return {
            "ruleset": self.name,
            "phase": state.phase,
            "turn": state.turn,
            "decider": state.decider,
            "shelter": state.shelter,
            "events": state.events,
            "groups": {side: group_view(g) for side, g in state.groups.items()},
            "dice": DICE,
            "stances_given": sorted(state.stances),
            "your_stance": state.stances.get(seat) if seat else None,
            "result": state.result,
        }


def _mark(event: Event) -> dict[str, Any] | None:
    if event.type == "engagement":
        return {"kind": "fight", "lane": event.data["lane"]}
    if event.type == "turn" and "night" in event.data:  # a field's turn
        return {"kind": "turn", "turn": event.data["turn"]}
    return None


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
    for name in TROOP_FIELDS:
        value = spec.get(name, getattr(RULES.troops.get(troop), name, None))
        low, high = LIMITS[name]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise _bad(side, f"Groupe {side}, {name} : un entier de {low} à {high}.",
                       f"Group {side}, {name}: a whole number from {low} to {high}.")
        out[name] = value
    return out


DICE = {"sides": RULES.die_sides, "loss_divisor": RULES.loss_divisor, "loss_step_percent": RULES.loss_step_percent}


def group_view(g: Group) -> dict[str, Any]:
    """A group's figures and what its rolls need, for the page and the generals."""
    names, fixed = _fixed_figures(g.troop, g.discipline, g.morale, g.melee, g.missile, g.range, g.speed)
    return {"troop": g.troop, "names": names, "initial": g.initial, "strength": g.strength, **fixed}


@lru_cache(maxsize=1024)
def _fixed_figures(troop: str, *figures: int) -> tuple[dict[str, str], dict[str, Any]]:
    """The part of a group's view that no battle changes (all but its strength), worked out once per troop:
    a view is built at every decision of every simulated battle."""
    g = Group("", troop, 0, 0, *figures)
    names = RULES.troops[troop].names if troop in RULES.troops else {"fr": "Troupe", "en": "Troop"}
    return names, {**{f: getattr(g, f) for f in TROOP_FIELDS if f != "strength"},
                   "morale_modifier": g.morale_modifier(), "discipline_chance": chance_under(g.discipline),
                   "morale_chance": chance_under(g.morale + g.morale_modifier())}


def field_view(state: FieldState, seat: str | None) -> dict[str, Any]:
    groups = {}
    for gid, g in state.groups.items():
        where = state.where[gid]
        if where == field.EXPECTED and g.side != seat:
            continue  # the enemy's reinforcements are a surprise until they arrive
        on_field = where == field.ON_FIELD
        orders = field.orders_for(state, g) if on_field else []
        groups[gid] = view = group_view(g)
        view.update({"id": gid, "side": g.side, "lane": g.lane, "pos": g.pos, "where": where,
                     "move": field.move_of(g), "reach": field.reach(state, g),
                     "arrives": state.arrives[gid] if where == field.EXPECTED else None,
                     "ordered": gid in state.orders,
                     "order": state.orders.get(gid) if g.side == seat else None,
                     "orders": orders,
                     "shifts": {o: field.shifted_lane(g.lane, o) for o in orders if o in field.SHIFTS},
                     "in_melee": on_field and field.in_melee(state, g)})
    sub = state.engagement
    engagement = None if sub is None else {
        "lane": state.lane, "north": sub.groups["north"].id, "south": sub.groups["south"].id,
        "distance": sub.distance, "phase": sub.phase, "decider": sub.decider,
        "stances_given": sorted(sub.stances), "your_stance": sub.stances.get(seat) if seat else None}
    return {
        "ruleset": "bataille", "mode": "field",
        "phase": sub.phase if sub is not None else state.phase, "turn": state.turn,
        "field": {"name": state.name, "names": {k: RULES.fields[state.name][k] for k in ("fr", "en")}
                  if state.name in RULES.fields else None, "lanes": list(RULES.lanes), "depth": RULES.depth,
                  "fortress": dict(state.fortress), "river": list(state.river), "night": state.night,
                  "storm": state.storm, "paces_per_speed": RULES.paces_per_speed},
        "groups": groups,
        "orders_done": _orders_done(state) if state.phase == field.ORDERS_PHASE else None,
        "last_orders": dict(state.revealed), "fought": dict(state.fought),
        "pending": list(dict.fromkeys([*state.pending, *(lane for lane, _ in state.volleys)])),  # lanes to fight
        "engagement": engagement,
        "decider": sub.decider if sub is not None else None, "dice": DICE, "result": state.result,
    }


def _orders_done(state: FieldState) -> dict[str, bool]:
    waiting = state.awaiting_orders()
    return {side: side not in waiting for side in SIDES}

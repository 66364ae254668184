"""Who may do what: kingdoms send one order message per turn; Imhotep, the game master,
adjudicates, edits, suspends alliances, sets the deadline, overrides results and ends the campaign.

``apply`` checks the whole action before it changes anything, so a refused action leaves the
state as it was. Adjudication runs by itself when the last kingdom's orders arrive.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from kadesh.core.errors import GAME_OVER, NOT_YOUR_TURN, UNKNOWN_ACTION, RuleError, bad_action
from kadesh.core.events import Event
from kadesh.core.grid import map_cell_name
from kadesh.rules.royaumes import orders
from kadesh.rules.royaumes.adjudicate import adjudicate, private
from kadesh.rules.royaumes.data import GAME_MASTER
from kadesh.rules.royaumes.state import State

KINGDOM_ACTIONS = ("orders",)
GM_ACTIONS = ("adjudicate", "suspend_alliance", "restore_alliance", "edit", "set_deadline", "override",
              "end_campaign")
EDITABLE = ("military_level", "population", "guild_level")
MAX_REASON = 2_000
MAX_VALUE = 10**12


def illegal(code: str, fr: str, en: str) -> RuleError:
    return RuleError(code, fr, en)


def to_act(state: State) -> list[str]:
    """The kingdoms whose orders are still awaited this turn (Imhotep may act at any time)."""
    if state.ended is not None:
        return []
    return [k for k in state.kingdoms if k not in state.orders]


def legal_actions(state: State, seat: str) -> Iterator[dict[str, Any]]:
    """Orders are a free message: the simplest one (an empty order) stands for all of them, and
    ``check`` judges any other. Imhotep's acts are listed with their simplest arguments."""
    if state.ended is not None:
        return
    if seat in state.kingdoms:
        if seat not in state.orders:
            yield {"type": "orders"}
        return
    yield {"type": "adjudicate"}
    yield {"type": "set_deadline", "deadline": None}
    for a in state.kingdoms:
        for b in state.kingdoms:
            if a < b and state.allied(a, b):
                yield {"type": "suspend_alliance", "kingdoms": [a, b]}
    for pair in sorted(sorted(p) for p in state.suspended):
        yield {"type": "restore_alliance", "kingdoms": pair}
    yield {"type": "end_campaign", "winner": None, "reason": ""}


def apply(state: State, seat: str, action: dict[str, Any]) -> list[Event]:
    if not isinstance(action, dict):
        raise bad_action("Une action est un objet JSON.", "An action is a JSON object.")
    if state.ended is not None:
        raise RuleError(GAME_OVER, "La campagne est terminée.", "The campaign is over.")
    kind = action.get("type")
    if seat == GAME_MASTER:
        if kind not in GM_ACTIONS:
            raise _unknown(kind, GM_ACTIONS)
        return _GM[kind](state, action)
    if kind not in KINGDOM_ACTIONS:
        raise _unknown(kind, KINGDOM_ACTIONS)
    return _orders(state, seat, action)


def _unknown(kind: object, known: tuple[str, ...]) -> RuleError:
    return RuleError(UNKNOWN_ACTION, f"Action inconnue : {kind!r} (possibles : {', '.join(known)}).",
                     f"Unknown action: {kind!r} (known: {', '.join(known)}).")


# -- a kingdom's orders -------------------------------------------------------------------------------
def _orders(state: State, kingdom: str, action: dict[str, Any]) -> list[Event]:
    if kingdom in state.orders:
        raise RuleError(NOT_YOUR_TURN, f"Les ordres de ce tour sont déjà arrivés (tour {state.turn}) : seul le "
                        "premier message compte.", f"This turn's orders have already arrived (turn {state.turn}): "
                        "only the first message counts.")
    order = read_orders(state, kingdom, action)
    state.orders[kingdom] = order
    state.arrival.append(kingdom)
    events = [Event("orders_in", {"kingdom": kingdom, "turn": state.turn, "place": len(state.arrival)}),
              Event("orders_received", {"kingdom": kingdom, "turn": state.turn, "order": order}, private(kingdom))]
    if not to_act(state):
        events += adjudicate(state)
    return events


def read_orders(state: State, kingdom: str, action: dict[str, Any]) -> dict[str, Any]:
    """The normalized order of a message in either form; a malformed one raises ``bad_action``."""
    if "text" in action:
        if set(action) != {"type", "text"}:
            raise bad_action("Un message en texte ne porte que « text ».", "A text message carries only 'text'.")
        return orders.from_text(state, kingdom, action["text"])
    return orders.from_json(state, kingdom, action)


# -- Imhotep ----------------------------------------------------------------------------------------
def _adjudicate(state: State, action: dict[str, Any]) -> list[Event]:
    """Imhotep judges the turn now, or the server does at its deadline (``due``: the journal says that he
    waited for it, issue 45; the rules have no clock, so a deadline must be set)."""
    _only(action, {"due"})
    due = action.get("due", False)
    if due not in (True, False) or (due and state.deadline is None):
        raise bad_action("« due » : vrai, quand l'échéance fixée est passée.",
                         "'due': true, once the deadline set has passed.")
    data = {"turn": state.turn, "missing": to_act(state), **({"due": True} if due else {})}
    return [Event("gm_adjudicate", data), *adjudicate(state)]


def _pair(state: State, action: dict[str, Any]) -> tuple[str, str]:
    pair = action.get("kingdoms")
    if (not isinstance(pair, list) or len(pair) != 2 or not all(k in state.kingdoms for k in pair)
            or pair[0] == pair[1]):
        raise bad_action("« kingdoms » : deux royaumes différents.", "'kingdoms': two different kingdoms.")
    return pair[0], pair[1]


def _suspend(state: State, action: dict[str, Any]) -> list[Event]:
    _only(action, {"kingdoms", "reason"})
    a, b = _pair(state, action)
    reason = _reason(action, False)
    if not state.allied(a, b):
        raise illegal("not_allied", "Ces deux royaumes ne sont pas alliés.", "These two kingdoms are not allied.")
    state.suspended.add(frozenset((a, b)))
    return [Event("gm_alliance", {"kingdoms": sorted((a, b)), "suspended": True, "reason": reason})]


def _restore(state: State, action: dict[str, Any]) -> list[Event]:
    _only(action, {"kingdoms", "reason"})
    a, b = _pair(state, action)
    reason = _reason(action, False)
    if frozenset((a, b)) not in state.suspended:
        raise illegal("not_suspended", "Cette alliance n'est pas suspendue.", "This alliance is not suspended.")
    state.suspended.discard(frozenset((a, b)))
    return [Event("gm_alliance", {"kingdoms": sorted((a, b)), "suspended": False, "reason": reason})]


def _edit(state: State, action: dict[str, Any]) -> list[Event]:
    _only(action, {"kingdom", "values", "reason"})
    kingdom = action.get("kingdom")
    values = action.get("values")
    if kingdom not in state.kingdoms or not isinstance(values, dict) or not values:
        raise bad_action("« kingdom » : un royaume ; « values » : les valeurs à changer.",
                         "'kingdom': a kingdom; 'values': the values to change.")
    target = state.kingdoms[kingdom]
    reason = _reason(action, False)
    changes: dict[str, Any] = {}
    for key, value in values.items():
        if key == "resources":
            if not isinstance(value, dict) or not value or any(r not in state.scenario.resources for r in value):
                raise bad_action(f"Ressources connues : {', '.join(state.scenario.resources)}.",
                                 f"Known resources: {', '.join(state.scenario.resources)}.")
            for resource, amount in value.items():
                _amount(amount, resource)
            changes["resources"] = dict(value)
        elif key in EDITABLE:
            changes[key] = _amount(value, key)
        else:
            raise bad_action(f"Valeur non modifiable : {key} (possibles : resources, {', '.join(EDITABLE)}).",
                             f"Not an editable value: {key} (editable: resources, {', '.join(EDITABLE)}).")
    for key, value in changes.items():
        if key == "resources":
            target.resources.update(value)
        else:
            setattr(target, key, value)
    return [Event("gm_edit", {"kingdom": kingdom, "fields": sorted(changes), "reason": reason}),
            Event("gm_edit_values", {"kingdom": kingdom, "values": changes}, private(kingdom))]


def _amount(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_VALUE:
        raise bad_action(f"« {name} » : un entier positif ou nul.", f"'{name}': a whole number, zero or more.")
    return value


def _set_deadline(state: State, action: dict[str, Any]) -> list[Event]:
    _only(action, {"deadline"})
    deadline = action.get("deadline")
    if deadline is not None:
        if not isinstance(deadline, str):
            raise bad_action("« deadline » : une date ISO 8601 avec fuseau, ou null.",
                             "'deadline': an ISO 8601 time with a time zone, or null.")
        try:
            moment = datetime.fromisoformat(deadline.replace("Z", "+00:00"))
        except ValueError:
            moment = None
        if moment is None or moment.tzinfo is None:
            raise bad_action("« deadline » : une date ISO 8601 avec fuseau, ou null.",
                             "'deadline': an ISO 8601 time with a time zone, or null.")
        deadline = moment.isoformat()
    state.deadline = deadline
    return [Event("gm_deadline", {"turn": state.turn, "deadline": deadline})]


def _override(state: State, action: dict[str, Any]) -> list[Event]:
    """Imhotep overrules a result: set a kingdom's number of armies on cells, or a city's fate."""
    _only(action, {"reason", "armies", "cities"})
    reason = _reason(action, True)
    armies, cities = action.get("armies", []), action.get("cities", [])
    if not isinstance(armies, list) or not isinstance(cities, list) or not (armies or cities):
        raise bad_action("« armies » ou « cities » : ce qui change.", "'armies' or 'cities': what changes.")
    army_changes = [_army_change(state, item) for item in armies]
    city_changes = [_city_change(state, item) for item in cities]
    for kingdom, cell, count in army_changes:
        here = sorted((a for a in state.armies.values() if a.kingdom == kingdom and a.cell == cell),
                      key=lambda a: a.id)
        for army in here[count:]:
            del state.armies[army.id]
        for _ in range(count - len(here)):
            army = state.raise_army(kingdom, cell)
            army.created = army.since = state.turn - 1  # as if it had always been there
    for name, owner, destroyed in city_changes:
        city = state.cities[name]
        city.owner, city.destroyed = (None, True) if destroyed else (owner, False)
    return [Event("gm_override", {
        "reason": reason,
        "armies": [{"kingdom": k, "cell": map_cell_name(c), "count": n} for k, c, n in army_changes],
        "cities": [{"city": n, "owner": o, "destroyed": d} for n, o, d in city_changes]})]


def _army_change(state: State, item: object) -> tuple[str, Any, int]:
    if isinstance(item, dict) and item.get("kingdom") in state.kingdoms and set(item) == {"kingdom", "cell", "count"}:
        cell = state.scenario.cell(item["cell"])
        if cell is not None and state.scenario.is_land(cell):
            return item["kingdom"], cell, _bounded(item["count"])
    raise bad_action("Chaque armée : {kingdom, cell (case de terre), count}.",
                     "Each army entry: {kingdom, cell (a land cell), count}.")


def _bounded(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= orders.MAX_ITEMS:
        raise bad_action(f"« count » : de 0 à {orders.MAX_ITEMS}.", f"'count': 0 to {orders.MAX_ITEMS}.")
    return value


def _city_change(state: State, item: object) -> tuple[str, str | None, bool]:
    if isinstance(item, dict) and item.get("city") in state.cities and set(item) <= {"city", "owner", "destroyed"}:
        owner, destroyed = item.get("owner", state.cities[item["city"]].owner), item.get("destroyed", False)
        if isinstance(destroyed, bool) and (owner is None or owner in state.kingdoms):
            if destroyed and state.cities[item["city"]].initial_of is not None:
                raise illegal("initial_city", "Une cité initiale ne peut être détruite.",
                              "An initial city can never be destroyed.")
            return item["city"], owner, destroyed
    raise bad_action("Chaque cité : {city, owner (royaume ou null), destroyed}.",
                     "Each city entry: {city, owner (a kingdom or null), destroyed}.")


def _end_campaign(state: State, action: dict[str, Any]) -> list[Event]:
    _only(action, {"winner", "reason"})
    winner = action.get("winner")
    if winner is not None and winner not in state.kingdoms:
        raise bad_action("« winner » : un royaume ou null.", "'winner': a kingdom or null.")
    reason = _reason(action, False)
    state.ended = {"winner": winner, "reason": reason or "game_master"}
    return [Event("campaign_ended", {"winner": winner, "reason": reason, "turn": state.turn})]


def _only(action: dict[str, Any], allowed: set[str]) -> None:
    unknown = set(action) - allowed - {"type"}
    if unknown:
        raise bad_action(f"Champs inconnus : {', '.join(sorted(unknown))}.",
                         f"Unknown fields: {', '.join(sorted(unknown))}.")


def _reason(action: dict[str, Any], required: bool) -> str:
    reason = action.get("reason", "")
    if not isinstance(reason, str) or len(reason) > MAX_REASON or (required and not reason.strip()):
        raise bad_action("« reason » : la raison, écrite" + (" (obligatoire)." if required else "."),
                         "'reason': the written reason" + (" (required)." if required else "."))
    return reason.strip()


_GM = {"adjudicate": _adjudicate, "suspend_alliance": _suspend, "restore_alliance": _restore, "edit": _edit,
       "set_deadline": _set_deadline, "override": _override, "end_campaign": _end_campaign}

"""An order message read back before it is sent: how Imhotep understands it, line by line, and
what in it cannot be carried out as written (a move from a cell with fewer armies than it asks,
a move onto water, an army raised in a city not one's own).

The message is still accepted as written if sent: these are warnings, so that a kingdom learns
before sending what the adjudication would report after (``move_short``, ``move_refused``); and
the order as it will be carried out (``carried_out``), which a page sums up instead of the order as
written, so that its summary never announces what a warning says will not happen.
"""

from __future__ import annotations

from typing import Any

from kadesh.rules.royaumes.adjudicate import alliance_refusals, move_problem
from kadesh.rules.royaumes.narration import MOVE_REFUSALS, armies_word
from kadesh.rules.royaumes.orders import problem
from kadesh.rules.royaumes.state import City, State


def warnings(state: State, kingdom: str, order: dict[str, Any]) -> list[dict[str, Any]]:
    """What in a normalized order will not be done as written, one warning per item."""
    found = _moves(state, kingdom, order["moves"])[1]
    city = _lost_city(state, kingdom, order)
    if city is not None:
        why = ("cette cité est détruite", "that city is destroyed") if city.destroyed else \
            ("cette cité n'est pas à toi", "that city is not yours")
        found.append(problem(None, "", f"Pas d'armée levée à {city.name} : {why[0]}.",
                             f"No army raised at {city.name}: {why[1]}."))
    return found + _alliance_warnings(state, kingdom, order)


def carried_out(state: State, kingdom: str, order: dict[str, Any]) -> dict[str, Any]:
    """A normalized order as it will be carried out: the moves that will not happen left out, those short of
    armies with the count that will go, no army raised in a city not one's own (each said by a warning)."""
    out = {**order, "moves": _moves(state, kingdom, order["moves"])[0]}
    if _lost_city(state, kingdom, order) is not None:
        out["create"] = None
    return out


def _lost_city(state: State, kingdom: str, order: dict[str, Any]) -> City | None:
    """The city named to raise an army in, where none can be raised: not one's own, or destroyed."""
    city = state.cities.get(order["create"]) if order["create"] else None
    return city if city is not None and (city.owner != kingdom or not city.standing) else None


def _alliance_warnings(state: State, kingdom: str, order: dict[str, Any]) -> list[dict[str, Any]]:
    """« un allié maximum »: an alliance line refused because another alliance is already offered (issue 45)."""
    names = {k: state.scenario.kingdoms[k].names for k in state.kingdoms}
    found = []
    for other, already in alliance_refusals(state, kingdom, order["stances"]).items():
        fr = ", ".join(names[k]["fr"] for k in already)
        en = ", ".join(names[k]["en"] for k in already)
        found.append(problem(None, "", f"L'alliance avec {names[other]['fr']} sera refusée : un allié au plus, et "
                             f"l'alliance est déjà proposée à {fr} (écris « paix : {fr} » pour la retirer).",
                             f"The alliance with {names[other]['en']} will be refused: one ally at most, and an "
                             f"alliance is already offered to {en} (write 'peace: {en}' to withdraw it)."))
    return found


def _moves(state: State, kingdom: str, moves: list[dict[str, Any]]) -> tuple[list[dict[str, Any]],
                                                                               list[dict[str, Any]]]:
    """The moves that will happen (with the count that will go), and a warning for each one not as written."""
    present: dict[Any, int] = {}
    mobile: dict[Any, int] = {}
    for army in state.armies.values():
        if army.kingdom == kingdom:
            present[army.cell] = present.get(army.cell, 0) + 1
            mobile[army.cell] = mobile.get(army.cell, 0) + (army.created < state.turn)
    used: dict[Any, int] = {}
    found, going = [], []
    for move in moves:
        origin, target = state.scenario.cell(move["from"]), state.scenario.cell(move["to"])
        assert origin is not None and target is not None
        start, asked = move["from"], move["count"]
        why = move_problem(state, origin, target)
        if why is not None:
            fr, en = MOVE_REFUSALS[why]
            found.append(problem(move["line"], move["text"], f"Ce mouvement ne se fera pas : {fr}.",
                                 f"This move will not happen: {en}."))
            continue
        left = mobile.get(origin, 0) - used.get(origin, 0)
        used[origin] = used.get(origin, 0) + min(asked, max(left, 0))
        if left > 0:
            going.append({**move, "count": min(asked, left)})
        if left <= 0:
            if used.get(origin, 0) and mobile.get(origin, 0):
                fr = f"toutes tes armées de {start} partent déjà par d'autres lignes"
                en = f"all your armies at {start} already leave by other lines"
            elif present.get(origin, 0):
                fr = f"l'armée levée en {start} ce tour-ci ne bouge qu'au tour suivant"
                en = f"the army raised at {start} this turn moves only next turn"
            else:
                fr, en = f"tu n'as aucune armée en {start}", f"you have no army at {start}"
            found.append(problem(move["line"], move["text"], f"Personne ne partira : {fr}.",
                                 f"Nobody will leave: {en}."))
        elif asked > left:
            found.append(problem(
                move["line"], move["text"],
                f"{armies_word(asked, 'fr')} demandées, mais {left} seulement "
                f"{'peut' if left == 1 else 'peuvent'} partir de {start} : {left} partir{'a' if left == 1 else 'ont'}.",
                f"{armies_word(asked, 'en')} asked, but only {left} can leave {start}: {left} will go."))
    return going, found

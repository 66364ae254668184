"""Imhotep's adjudication of a turn, by the text's « Papyrus des Batailles ».

In order: relations (war, peace, alliance) as restated by the orders; raising armies, building
and spies; every move at once; the battles and sieges of each cell; tribute from occupied
initial cities. Everything runs in the orders' arrival order where order matters, so the same
orders arriving in the same order always give the same result. The work is linear in the
number of armies: armies are grouped by cell once, and each cell is settled on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kadesh.core.events import Event
from kadesh.core.grid import Cell, map_cell_name
from kadesh.rules.royaumes.data import GAME_MASTER, RULES
from kadesh.rules.royaumes.state import ALLY, CONVERT, DESTROY, Army, City, State

Groups = dict[str, list[Army]]


def private(*kingdoms: str) -> tuple[str, ...]:
    """Events only these kingdoms (and Imhotep, who sees everything) may read."""
    return (*kingdoms, GAME_MASTER)


def adjudicate(state: State) -> list[Event]:
    """Resolve the turn from the orders received, then open the next one."""
    turn = state.turn
    arrival = state.order_of_arrival()
    ordered = [k for k in arrival if k in state.orders]
    events = [Event("adjudication", {"turn": turn, "orders": ordered,
                                     "missing": [k for k in arrival if k not in state.orders]})]
    for kingdom in ordered:
        events += _relations(state, kingdom, state.orders[kingdom])
    for kingdom, own in state.kingdoms.items():
        order = state.orders.get(kingdom, {})
        own.conquest = order.get("conquest") or CONVERT  # chosen for this turn: convert unless it says
        own.tribute_resource = order.get("tribute") or own.tribute_resource  # a standing choice
    for kingdom in ordered:
        events += _economy(state, kingdom, state.orders[kingdom])
    before_moves = state.public_map()
    events += _moves(state, ordered)
    after_moves = state.public_map()
    events += _battles(state)
    events += _tribute(state)
    state.history.append({"turn": turn, "before_moves": before_moves, "after_moves": after_moves,
                          "after_battles": state.public_map()})
    state.turn += 1
    state.orders, state.arrival = {}, []
    state.deadline = None  # each turn's deadline is Imhotep's to set
    events.append(Event("turn_began", {"turn": state.turn}))
    return events


# -- relations --------------------------------------------------------------------------------------
def alliance_refusals(state: State, kingdom: str, stances: dict[str, str]) -> dict[str, list[str]]:
    """The alliance lines of an order that « un allié maximum » refuses, each with the kingdoms it has already
    declared allies then: the order's war and peace come first (an order that leaves one ally for another means
    the same in any line order), then its alliance lines in turn. For the ruling and for the preview alike."""
    declared = {k for k, s in state.kingdoms[kingdom].stance.items() if s == ALLY}
    refused: dict[str, list[str]] = {}
    for other, stance in sorted(stances.items(), key=lambda item: item[1] == ALLY):
        if stance != ALLY:
            declared.discard(other)
            continue
        already = [k for k in state.kingdoms[kingdom].stance if k in declared and k != other]
        if len(already) >= RULES.allies_at_most:
            refused[other] = already
        else:
            declared.add(other)
    return refused


def _relations(state: State, kingdom: str, order: dict[str, Any]) -> list[Event]:
    events = []
    own = state.kingdoms[kingdom]
    refused = alliance_refusals(state, kingdom, order["stances"])
    for other, stance in sorted(order["stances"].items(), key=lambda item: item[1] == ALLY):
        if other in refused:
            events.append(Event("ally_refused", {"kingdom": kingdom, "towards": other, "allies": refused[other]},
                                private(kingdom)))
            continue
        if own.stance[other] != stance:
            before = (state.at_war(kingdom, other), state.allied(kingdom, other))
            was = own.stance[other]
            own.stance[other] = stance
            events.append(Event("stance", {"kingdom": kingdom, "towards": other, "stance": stance, "was": was,
                                           "at_war": state.at_war(kingdom, other),
                                           "allied": state.allied(kingdom, other),
                                           "changed": before != (state.at_war(kingdom, other),
                                                                 state.allied(kingdom, other))}))
    return events


# -- raising armies, building, spies -------------------------------------------------------------------
def pay(state: State, kingdom: str, cost: dict[str, int]) -> bool:
    stock = state.kingdoms[kingdom].resources
    if any(stock.get(resource, 0) < amount for resource, amount in cost.items()):
        return False
    for resource, amount in cost.items():
        stock[resource] -= amount
    return True


def _economy(state: State, kingdom: str, order: dict[str, Any]) -> list[Event]:
    own = state.kingdoms[kingdom]
    events: list[Event] = []
    raised = False
    if order["create"]:
        raised, raised_events = _raise(state, kingdom, state.cities[order["create"]])
        events += raised_events
    for building in order["build"]:
        if raised:
            events.append(Event("build_refused", {"kingdom": kingdom, "building": building, "why": "army_raised"},
                                private(kingdom)))
        elif pay(state, kingdom, state.scenario.costs[building]):
            own.guild_level += 1
            events.append(Event("built", {"kingdom": kingdom, "building": building, "level": own.guild_level},
                                private(kingdom)))
        else:
            events.append(Event("build_refused", {"kingdom": kingdom, "building": building, "why": "cost",
                                                  "cost": state.scenario.costs[building]}, private(kingdom)))
    for target in order["spies"]:
        if pay(state, kingdom, state.scenario.costs["spy"]):
            level = state.kingdoms[target].military_level
            own.intelligence[target] = (level, state.turn)
            events.append(Event("spy_report", {"kingdom": kingdom, "target": target, "level": level,
                                               "turn": state.turn}, private(kingdom)))
        else:
            events.append(Event("spy_refused", {"kingdom": kingdom, "target": target,
                                                "cost": state.scenario.costs["spy"]}, private(kingdom)))
    return events


def _raise(state: State, kingdom: str, city: City) -> tuple[bool, list[Event]]:
    """Raise the turn's army in one of the kingdom's cities; in its occupied initial city the
    new army attacks the occupiers at once."""
    if city.owner != kingdom or not city.standing:
        why = "destroyed" if city.destroyed else "not_yours"
        return False, [Event("raise_refused", {"kingdom": kingdom, "city": city.name, "why": why}, private(kingdom))]
    if not pay(state, kingdom, state.scenario.costs["army"]):
        return False, [Event("raise_refused", {"kingdom": kingdom, "city": city.name, "why": "cost",
                                               "cost": state.scenario.costs["army"]}, private(kingdom))]
    state.raise_army(kingdom, city.cell)
    events = [Event("army_raised", {"kingdom": kingdom, "city": city.name, "cell": map_cell_name(city.cell)})]
    groups = _groups_at(state, city.cell)
    bonus = state.kingdoms[kingdom].city_defence() + RULES.occupied_creation_bonus
    for occupier in [k for k in state.order_of_arrival() if k in groups and state.at_war(k, kingdom)]:
        if not groups[kingdom]:
            break
        events += battle(state, city.cell, groups, kingdom, occupier, {kingdom: bonus}, city.name, sortie=True)
    return True, events


def _groups_at(state: State, cell: Cell) -> Groups:
    groups: Groups = {}
    for army in state.armies.values():
        if army.cell == cell:
            groups.setdefault(army.kingdom, []).append(army)
    return groups


# -- moves ------------------------------------------------------------------------------------------
def move_problem(state: State, origin: Cell, target: Cell) -> str | None:
    """Why an army may not go from ``origin`` to ``target`` in one turn, or None."""
    return step_problem(state.scenario.is_land, origin, target)


def step_problem(is_land: Callable[[Cell], bool], origin: Cell, target: Cell) -> str | None:
    """The same on any map, known by its land (a computer kingdom reads it from its view)."""
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    if max(abs(dx), abs(dy)) != 1:
        return "not_adjacent"
    if not is_land(target):
        return "water"
    if dx and dy and not (is_land((origin[0] + dx, origin[1])) or is_land((origin[0], origin[1] + dy))):
        return "no_land_between"
    return None


def _moves(state: State, ordered: list[str]) -> list[Event]:
    """Every ordered move at once: armies are chosen first, then all of them step together."""
    events: list[Event] = []
    mobile: dict[tuple[str, Cell], list[Army]] = {}
    for army in state.armies.values():
        if army.created < state.turn:
            mobile.setdefault((army.kingdom, army.cell), []).append(army)
    steps: list[tuple[Army, Cell]] = []
    for kingdom in ordered:
        order = state.orders[kingdom]
        for move in order["moves"]:
            origin, target = state.scenario.cell(move["from"]), state.scenario.cell(move["to"])
            assert origin is not None and target is not None
            why = move_problem(state, origin, target)
            there = mobile.get((kingdom, origin), [])
            if why is None and not there:
                why = "no_army"
            if why:
                events.append(Event("move_refused", {"kingdom": kingdom, "from": move["from"], "to": move["to"],
                                                     "why": why, "text": move["text"]}, private(kingdom)))
                continue
            chosen, mobile[(kingdom, origin)] = there[:move["count"]], there[move["count"]:]
            if len(chosen) < move["count"]:
                events.append(Event("move_short", {"kingdom": kingdom, "from": move["from"], "to": move["to"],
                                                   "asked": move["count"], "found": len(chosen)}, private(kingdom)))
            steps += [(army, target) for army in chosen]
            events.append(Event("moved", {"kingdom": kingdom, "from": move["from"], "to": move["to"],
                                          "count": len(chosen)}))
        stayed = sorted({map_cell_name(cell) for (k, cell), rest in mobile.items() if k == kingdom and rest})
        unmentioned = [cell for cell in stayed if cell not in order["stay"]]
        if unmentioned:
            events.append(Event("unordered", {"kingdom": kingdom, "cells": unmentioned}, private(kingdom)))
    for army, target in steps:
        army.cell, army.since = target, state.turn
    return events


# -- battles and sieges ---------------------------------------------------------------------------------
def _battles(state: State) -> list[Event]:
    events: list[Event] = []
    cities = {city.cell: city for city in state.cities.values() if city.standing}
    occupied = state.armies_at()
    for cell in sorted(occupied, key=lambda c: (c[1], c[0])):
        groups = occupied[cell]
        city = cities.get(cell)
        contested = city is not None and city.owner is not None and any(
            state.at_war(k, city.owner) for k in groups)
        if len(groups) > 1 or contested:
            events += _settle(state, cell, groups, city)
    return events


def _settle(state: State, cell: Cell, groups: Groups, city: City | None) -> list[Event]:
    """The siege first (the text's order), then every other battle on the cell; a city falls
    only when one attacker is left there with none but its allies (« sans armée dans sa case »)."""
    order = [k for k in state.order_of_arrival() if k in groups]
    events: list[Event] = []
    attackers: list[str] = []
    if city is not None and city.owner is not None:
        attackers = [k for k in order if k != city.owner and state.at_war(k, city.owner)]
        events += _siege(state, cell, groups, city, attackers)
    events += _open_field(state, cell, groups, order)
    taker = next((k for k in attackers if groups.get(k)), None)
    if city is not None and taker is not None and _undefended(state, groups, taker, attackers):
        events += _take(state, city, taker, groups)
    return events


def _undefended(state: State, groups: Groups, taker: str, attackers: list[str]) -> bool:
    """« sans armée dans sa case »: none is left on the cell but the taker's, its allies' and the other attackers'
    (issue 45: an attacker's army is never the city's defence; the first to have sent its orders takes it). A
    third kingdom at peace with the owner still keeps it from falling (R5.8)."""
    return all(other == taker or other in attackers or state.allied(other, taker)
               for other, armies in groups.items() if armies)


def _open_field(state: State, cell: Cell, groups: Groups, order: list[str]) -> list[Event]:
    """The first two present that are at war fight (by arrival of their orders), then the
    survivors, until nobody left on the cell is at war with anybody else there."""
    events: list[Event] = []
    while pair := _first_enemies(state, groups, order):
        events += battle(state, cell, groups, *pair)
    return events


def _first_enemies(state: State, groups: Groups, order: list[str]) -> tuple[str, str] | None:
    present = [k for k in order if groups.get(k)]
    for index, first in enumerate(present):
        for second in present[index + 1:]:
            if state.at_war(first, second):
                return first, second
    return None


def _siege(state: State, cell: Cell, groups: Groups, city: City, attackers: list[str]) -> list[Event]:
    """Attackers at war with each other fight first; then each attacker in turn meets the
    defenders (the owner's ally first, then the owner), who add the city's defence to their
    total, until it has no army left or no defender is left."""
    owner = city.owner
    assert owner is not None
    if not attackers:
        return []
    events = _open_field(state, cell, groups, attackers)
    ally = state.ally_of(owner)
    defenders = [d for d in (ally, owner) if d is not None and groups.get(d)]
    bonus = state.kingdoms[owner].city_defence()
    for attacker in attackers:
        while groups.get(attacker) and defenders:
            defender = defenders[0]
            events += battle(state, cell, groups, attacker, defender, {defender: bonus}, city.name)
            if not groups[defender]:
                defenders.pop(0)
        if groups.get(attacker):
            break  # the defenders are beaten: the city is this attacker's to take if it is left alone
    return events


def _take(state: State, city: City, taker: str, groups: Groups) -> list[Event]:
    name = city.name
    if city.initial_of is not None:
        return [Event("city_occupied", {"city": name, "kingdom": taker, "owner": city.initial_of,
                                        "armies": len(groups[taker])})]
    loser = city.owner
    if len(state.cities_of(taker)) >= RULES.max_cities:
        ally = state.ally_of(taker)
        if ally is not None and groups.get(ally) and len(state.cities_of(ally)) < RULES.max_cities:
            city.owner = ally
            return [Event("city_conquered", {"city": name, "kingdom": ally, "from": loser, "for": taker})]
        city.owner, city.destroyed = None, True
        return [Event("city_destroyed", {"city": name, "kingdom": taker, "from": loser, "why": "max_cities"})]
    if state.kingdoms[taker].conquest == DESTROY:
        city.owner, city.destroyed = None, True
        return [Event("city_destroyed", {"city": name, "kingdom": taker, "from": loser, "why": "chosen"})]
    city.owner = taker
    return [Event("city_conquered", {"city": name, "kingdom": taker, "from": loser})]


def losses_of_winner(armies_winner: int, total_winner: int, total_loser: int) -> int:
    """The loss table (the issue's, the text's being missing): floor(armies_G × total_P / total_G),
    keeping at least one army."""
    return min(armies_winner * total_loser // total_winner, armies_winner - RULES.keep_at_least)


def battle(state: State, cell: Cell, groups: Groups, a: str, b: str, bonus: dict[str, int] | None = None,
           city: str | None = None, sortie: bool = False) -> list[Event]:
    """One battle of the Papyrus: total = military level × armies (+ a defence bonus)."""
    bonus = bonus or {}
    sides = {}
    for kingdom in (a, b):
        level, armies = state.kingdoms[kingdom].military_level, len(groups[kingdom])
        sides[kingdom] = {"kingdom": kingdom, "armies": armies, "level": level, "bonus": bonus.get(kingdom, 0),
                          "total": level * armies + bonus.get(kingdom, 0)}
    ta, tb = sides[a]["total"], sides[b]["total"]
    if ta == tb:
        winner, lost = None, {a: sides[a]["armies"], b: sides[b]["armies"]}
    else:
        winner, loser = (a, b) if ta > tb else (b, a)
        lost = {loser: sides[loser]["armies"],
                winner: losses_of_winner(sides[winner]["armies"], sides[winner]["total"], sides[loser]["total"])}
    for kingdom in (a, b):
        sides[kingdom]["lost"] = lost[kingdom]
        _remove_newest(state, groups[kingdom], lost[kingdom])
    where = {"cell": map_cell_name(cell), "city": city, "sortie": sortie, "winner": winner}
    public = [{k: side[k] for k in ("kingdom", "armies", "lost")} for side in sides.values()]
    events = [Event("battle", {**where, "sides": public})]
    events.append(Event("battle_totals", {**where, "sides": list(sides.values())}, (GAME_MASTER,)))
    for kingdom, side in sides.items():
        events.append(Event("battle_own_total", {**where, "kingdom": kingdom, "level": side["level"],
                                                 "bonus": side["bonus"], "armies": side["armies"],
                                                 "total": side["total"]}, (kingdom,)))
    return events


def _remove_newest(state: State, armies: list[Army], count: int) -> None:
    """The newest armies fall first (any choice would do: armies are alike)."""
    armies.sort(key=lambda army: army.id)
    for army in armies[len(armies) - count:]:
        del state.armies[army.id]
    del armies[len(armies) - count:]


# -- tribute ----------------------------------------------------------------------------------------
def _tribute(state: State) -> list[Event]:
    events: list[Event] = []
    initial = {city.cell: city for city in state.cities.values() if city.initial_of is not None and city.standing}
    staying: dict[Cell, dict[str, int]] = {}
    for army in state.armies.values():
        city = initial.get(army.cell)
        if city is not None and army.since < state.turn and state.at_war(army.kingdom, city.initial_of):
            counts = staying.setdefault(army.cell, {})
            counts[army.kingdom] = counts.get(army.kingdom, 0) + 1
    for cell, counts in staying.items():
        city = initial[cell]
        payer = city.initial_of
        assert payer is not None
        for occupier in [k for k in state.order_of_arrival() if k in counts]:
            events += _pay_tribute(state, city, payer, occupier, counts[occupier])
    return events


def _pay_tribute(state: State, city: City, payer: str, occupier: str, armies: int) -> list[Event]:
    """(population / divisor) × armies, in gold first, then in the payer's chosen resource
    (by default the one it has most of); what the payer does not have is not paid."""
    owed = state.kingdoms[payer].population * armies // RULES.population_divisor
    stock = state.kingdoms[payer].resources
    gold = state.scenario.resources[0]
    paid: dict[str, int] = {}
    paid[gold] = min(owed, stock.get(gold, 0))
    rest = owed - paid[gold]
    if rest:
        others = [r for r in state.scenario.resources if r != gold]
        chosen = state.kingdoms[payer].tribute_resource
        if chosen is None or chosen == gold:
            chosen = max(others, key=lambda r: (stock.get(r, 0), -others.index(r)), default=None)
        if chosen is not None:
            paid[chosen] = min(rest, stock.get(chosen, 0))
    for resource, amount in paid.items():
        stock[resource] -= amount
        receiver = state.kingdoms[occupier].resources
        receiver[resource] = receiver.get(resource, 0) + amount
    return [Event("tribute", {"city": city.name, "payer": payer, "kingdom": occupier, "armies": armies,
                              "owed": owed, "paid": {r: a for r, a in paid.items() if a},
                              "short": owed - sum(paid.values())}, private(payer, occupier))]

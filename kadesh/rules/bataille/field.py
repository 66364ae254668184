"""Bataille on a field: several groups a side manœuvre in three lanes until they come within range,
then each pair resolves the text's sequence between them, one engagement at a time.

« A chaque tour de bataille, chaque général décide de la stratégie qu'il va suivre » : every turn,
each general gives each of his groups an order, in secret. The orders revealed, groups move by their
speed, at once; an advance stops at contact. « Dès que deux groupes s'affrontent (c'est à dire dès
qu'ils arrivent à portée), on doit résoudre le combat » : in each lane, the two front groups engage
when one of them can shoot at the other or they are in contact, and ``engine`` runs the fire,
morale, melee and pursuit sequences between them exactly as in a one-against-one battle, on a
two-group ``State`` that shares the field's ``Group`` objects. What the engagement ends in moves the
groups on the field: a broken group falls back, a faster one gets out of range, one that reaches its
fortress or river is safe. Night ends the day; a storm stops every bow; reinforcements arrive at
their side's edge. Positions are paces from the north edge.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from kadesh.core.dice import Dice
from kadesh.core.errors import GAME_OVER, UNKNOWN_ACTION, RuleError, bad_action
from kadesh.core.events import Event
from kadesh.rules.bataille import engine, rules
from kadesh.rules.bataille.data import OTHER, RULES, SIDES
from kadesh.rules.bataille.state import ATTACK, OVER, Group, State

ORDERS_PHASE, ENGAGE = "orders", "engage"
ORDERS = ("advance", "close", "hold", "withdraw", "west", "east")
SHIFTS = ("west", "east")                   # the orders that take a group into the next lane
ON_FIELD, EXPECTED, SHELTERED, LEFT, DESTROYED = "field", "expected", "sheltered", "left", "destroyed"
AHEAD = {"north": 1, "south": -1}           # the direction a side advances in, in paces from the north edge
RETREATS = {  # how an engagement's end moves its groups: who falls back (the loser, both, nobody)
    "both_fell_back": "both", "fight_over": "both", "both_withdrew": "both",
    "enemy_broke": "loser", "withdrawal": "loser", "pursuit_stopped": "loser", "event": "loser",
    "outran": "out_of_range", "shelter": "sheltered", "destroyed": None, "standoff": None, "melee_goes_on": None,
    "volley": None,
}


@dataclass
class FieldState:
    name: str
    groups: dict[str, Group]                 # every group of the battle, reinforcements included
    where: dict[str, str]                    # on the field, expected, sheltered, left or destroyed
    arrives: dict[str, int]                  # the turn each group arrives (0: there at the start)
    fortress: dict[str, str]                 # side → the lane of its fortress, at its edge
    river: list[str]                         # sides with a river behind their edge
    night: int                               # night falls at the end of this turn
    storm: int | None                        # the turn of the storm, if any
    phase: str = ORDERS_PHASE
    turn: int = 0
    orders: dict[str, str] = field(default_factory=dict)   # this turn's, secret until all are given
    revealed: dict[str, str] = field(default_factory=dict)  # last turn's orders, once revealed
    pending: list[str] = field(default_factory=list)        # lanes still to fight this turn
    fought: dict[str, str] = field(default_factory=dict)    # lane → how this turn's engagement there ended
    engagement: State | None = None          # the engagement waiting for a decision
    lane: str | None = None                  # its lane
    melees: dict[str, list[str]] = field(default_factory=dict)  # lane → the two groups whose melee goes on
    volleys: list[list[str]] = field(default_factory=list)      # [lane, group] shooting over its front, to come
    result: dict[str, Any] | None = None

    def copy(self) -> FieldState:
        return copy.deepcopy(self)

    def on_field(self, side: str | None = None, lane: str | None = None) -> list[Group]:
        where = self.where
        return [g for g in self.groups.values() if where[g.id] == ON_FIELD
                and (side is None or g.side == side) and (lane is None or g.lane == lane)]

    def awaiting_orders(self) -> set[str]:
        """The sides with a group on the field still without its order this turn."""
        return {g.side for g in self.on_field() if g.id not in self.orders}

    def front(self, side: str, lane: str) -> Group | None:
        """The side's most advanced group in a lane (ties: the first named)."""
        groups = self.on_field(side, lane)
        if len(groups) < 2:
            return groups[0] if groups else None
        return max(groups, key=lambda g: (AHEAD[side] * g.pos, -int(g.id[1:])))


def from_setup(spec: dict[str, Any]) -> FieldState:
    groups, where, arrives = {}, {}, {}
    for g in spec["groups"]:
        edge = 0 if g["side"] == "north" else RULES.depth
        start = edge + AHEAD[g["side"]] * (RULES.deploy if g["turn"] == 0 else 0)
        groups[g["id"]] = Group(g["side"], g["troop"], g["strength"], g["strength"], g["discipline"], g["morale"],
                                g["melee"], g["missile"], g["range"], g["speed"], g["id"], g["lane"], start)
        where[g["id"]] = ON_FIELD if g["turn"] == 0 else EXPECTED
        arrives[g["id"]] = g["turn"]
    return FieldState(spec["name"], groups, where, arrives, dict(spec["fortress"]), list(spec["river"]),
                      spec["night"], spec["storm"], turn=1)  # the first turn's orders are due at once


# -- geometry -------------------------------------------------------------------------------------
def move_of(group: Group) -> int:
    return group.speed * RULES.paces_per_speed


def to_edge(group: Group) -> int:
    """Paces between a group and its own side's edge."""
    return group.pos if group.side == "north" else RULES.depth - group.pos


def sheltered_at(state: FieldState, side: str, lane: str) -> bool:
    """Shelter waits at a side's edge in this lane: its fortress there, or a river behind it."""
    return side in state.river or state.fortress.get(side) == lane


def reach(state: FieldState, group: Group) -> int:
    """How far a group can shoot this turn: its range, or nothing in a storm or without missiles."""
    return group.range if group.shoots and state.turn != state.storm else 0


def volleys_over_friends(state: FieldState) -> list[list[str]]:
    """« dès qu'ils arrivent à portée » (issue 45): a group behind its own side's front in a lane that can shoot the
    enemy's front there engages it too, shooting over its friends (as archers do; a group without missiles does
    not), after the fronts' engagement: fire and morale only, since it cannot charge through its own lines."""
    out = []
    for lane in RULES.lanes:
        for side in SIDES:
            front, enemy = state.front(side, lane), state.front(OTHER[side], lane)
            if front is None or enemy is None:
                continue
            out += [[lane, g.id] for g in state.on_field(side, lane)
                    if g is not front and 0 < abs(enemy.pos - g.pos) <= reach(state, g)]
    return out


def engaged_lanes(state: FieldState) -> list[str]:
    """Lanes where the two front groups are in contact or one can shoot at the other."""
    out = []
    for lane in RULES.lanes:
        north, south = state.front("north", lane), state.front("south", lane)
        if north and south:
            gap = max(0, south.pos - north.pos)
            if gap == 0 or max(reach(state, north), reach(state, south)) >= gap:
                out.append(lane)
    return out


# -- who acts, what they may do -------------------------------------------------------------------
def to_act(state: FieldState) -> list[str]:
    if state.phase == ORDERS_PHASE:
        waiting = state.awaiting_orders()
        return [s for s in SIDES if s in waiting]
    if state.phase == ENGAGE:
        assert state.engagement is not None
        return rules.to_act(state.engagement)
    return []


def orders_for(state: FieldState, group: Group) -> list[str]:
    if in_melee(state, group):  # locked in a melee that goes on: it fights on where it stands
        return ["hold"]
    return list(_orders_in(group.lane, group.shoots))


@cache
def _orders_in(lane_name: str, shoots: bool) -> tuple[str, ...]:
    """A free group's orders depend only on its lane and its bows (asked at every decision of a simulation)."""
    lane = RULES.lanes.index(lane_name)
    allowed = {"advance", "hold", "withdraw", *(("close",) if shoots else ())}
    if lane > 0:
        allowed.add("west")
    if lane < len(RULES.lanes) - 1:
        allowed.add("east")
    return tuple(order for order in ORDERS if order in allowed)


def shifted_lane(lane: str, order: str) -> str:
    """Where « west » or « east » takes a group: the next lane that way (from the east, the centre)."""
    return RULES.lanes[RULES.lanes.index(lane) + (-1 if order == "west" else 1)]


def legal_actions(state: FieldState, side: str) -> Iterator[dict[str, Any]]:
    if side not in to_act(state):
        return
    if state.phase == ENGAGE:
        assert state.engagement is not None
        yield from rules.legal_actions(state.engagement, side)
        return
    for group in state.on_field(side):
        if group.id not in state.orders:
            for order in orders_for(state, group):
                yield {"type": "order", "group": group.id, "order": order}


def apply(state: FieldState, side: str, action: dict[str, Any], dice: Dice) -> list[Event]:
    if not isinstance(action, dict):
        raise bad_action("Une action est un objet JSON.", "An action is a JSON object.")
    if state.phase == OVER:
        raise RuleError(GAME_OVER, "La bataille est finie.", "The battle is over.")
    if state.phase == ENGAGE:
        if action.get("type") == "order":
            raise bad_action("Un engagement est en cours : les ordres se donnent au tour suivant.",
                             "An engagement is under way: orders are given next turn.")
        assert state.engagement is not None
        events = _tagged(state, rules.apply(state.engagement, side, action, dice))
        _closing(state)
        return events + _after_decision(state, dice)
    if action.get("type") != "order":
        raise RuleError(UNKNOWN_ACTION, f"Ici, on donne des ordres, pas {action.get('type')!r}.",
                        f"Here, orders are given, not {action.get('type')!r}.")
    return _order(state, side, action, dice)  # a general with every order given is told which one already is


def _order(state: FieldState, side: str, action: dict[str, Any], dice: Dice) -> list[Event]:
    if set(action) != {"type", "group", "order"}:
        raise bad_action("Un ordre : {type: order, group, order}.", "An order: {type: order, group, order}.")
    group = state.groups.get(action["group"]) if isinstance(action["group"], str) else None
    if group is None or group.side != side or state.where[group.id] != ON_FIELD:
        raise bad_action(f"Aucun de tes groupes sur le terrain ne s'appelle {action['group']!r}.",
                         f"None of your groups on the field is called {action['group']!r}.")
    if group.id in state.orders:
        raise bad_action("Ce groupe a déjà reçu son ordre pour ce tour.", "This group already has its order this turn.")
    if action["order"] not in orders_for(state, group):
        raise bad_action(f"Ordres possibles pour ce groupe : {', '.join(orders_for(state, group))}.",
                         f"Orders this group may take: {', '.join(orders_for(state, group))}.")
    state.orders[group.id] = action["order"]
    given = {"side": side, "group": group.id, "order": action["order"]}
    if action["order"] in SHIFTS:  # the journal names the lane it leads to, as the order's button does
        given["to"] = shifted_lane(group.lane, action["order"])
    events = [Event("order_given", given, (side,))]
    if to_act(state):
        return events
    return events + _resolve_turn(state, dice)


# -- the turn -------------------------------------------------------------------------------------
def begin_turn(state: FieldState) -> list[Event]:
    state.turn += 1
    state.phase, state.orders, state.fought = ORDERS_PHASE, {}, {}
    state.melees = {lane: ids for lane, ids in state.melees.items()  # the two still there, still in contact
                    if all(state.where[gid] == ON_FIELD and state.groups[gid].lane == lane for gid in ids)
                    and state.groups[ids[0]].pos == state.groups[ids[1]].pos}
    events = [Event("turn", {"turn": state.turn, "night": state.night})]
    for gid, turn in state.arrives.items():
        if turn == state.turn and state.where[gid] == EXPECTED:
            state.where[gid] = ON_FIELD
            group = state.groups[gid]
            events.append(Event("arrival", {"group": gid, "side": group.side, "lane": group.lane}))
    if state.turn == state.storm:
        events.append(Event("storm", {"turn": state.turn}))
    return events + [Event("decide", {"phase": ORDERS_PHASE, "sides": to_act(state)})]


def _resolve_turn(state: FieldState, dice: Dice) -> list[Event]:
    state.revealed, state.orders = dict(state.orders), {}
    shifts = {gid: shifted_lane(state.groups[gid].lane, order) for gid, order in state.revealed.items()
              if order in SHIFTS}
    events = [Event("orders", {"orders": dict(state.revealed), "shifts": shifts})]
    events += _move(state)
    state.pending, state.volleys = engaged_lanes(state), volleys_over_friends(state)
    return events + _next_engagement(state, dice)


def _move(state: FieldState) -> list[Event]:
    """Shifts first (a lane change takes the turn), then every advance and withdrawal at once."""
    before = {g.id: (g.lane, g.pos) for g in state.on_field()}
    for group in state.on_field():
        order = state.revealed.get(group.id)
        if order in SHIFTS:
            group.lane = shifted_lane(group.lane, order)
            _stop_at_enemy(state, group)
    intended = {g.id: _intended(state, g, state.revealed.get(g.id, "hold")) for g in state.on_field()}
    events = []
    for group in state.on_field():
        target = intended[group.id]
        group.pos = min(max(target, 0), RULES.depth)  # an advance stops at the enemy's edge
        if target != group.pos and state.revealed.get(group.id) == "withdraw":  # past its own edge: it leaves
            events.append(_leave(state, group, SHELTERED if sheltered_at(state, group.side, group.lane) else LEFT))
    for lane in RULES.lanes:
        _contact(state, lane, before)
    for group in state.on_field():
        if (group.lane, group.pos) != before[group.id]:
            events.append(Event("move", {"group": group.id, "order": state.revealed.get(group.id),
                                         "lane": group.lane, "pos": group.pos, "from": list(before[group.id])}))
    return events


def _intended(state: FieldState, group: Group, order: str) -> int:
    ahead, move = AHEAD[group.side], move_of(group)
    if order == "advance":
        return group.pos + ahead * move
    if order == "withdraw":
        return group.pos - ahead * move
    if order == "close":
        enemy = state.front(OTHER[group.side], group.lane)
        if enemy is None:
            return group.pos + ahead * move
        gap = abs(enemy.pos - group.pos)  # to its bow's range, storm or not: it waits there for clear skies
        return group.pos + ahead * max(0, min(move, gap - group.range))
    return group.pos


def _stop_at_enemy(state: FieldState, group: Group) -> None:
    enemy = state.front(OTHER[group.side], group.lane)
    if enemy is not None and AHEAD[group.side] * (enemy.pos - group.pos) < 0:
        group.pos = enemy.pos


def _contact(state: FieldState, lane: str, before: dict[str, tuple[str, int]]) -> None:
    """Groups that would cross stop at contact: where they meet if both came on, else where the
    one that stood (or drew back) now is. No group passes the enemy's front."""
    north, south = state.front("north", lane), state.front("south", lane)
    if north is None or south is None or north.pos < south.pos:
        return
    came = {g.side: AHEAD[g.side] * (g.pos - before[g.id][1]) if before[g.id][0] == lane else 0
            for g in (north, south)}
    if came["north"] > 0 and came["south"] > 0:
        start_n, start_s = before[north.id][1], before[south.id][1]
        meet = start_n + (start_s - start_n) * came["north"] // (came["north"] + came["south"])
    elif came["north"] > 0:
        meet = south.pos
    else:
        meet = north.pos
    for group in state.on_field(lane=lane):
        group.pos = min(group.pos, meet) if group.side == "north" else max(group.pos, meet)


def _leave(state: FieldState, group: Group, how: str) -> Event:
    state.where[group.id] = how
    return Event("group_out", {"group": group.id, "side": group.side, "how": how, "strength": group.strength})


# -- engagements ----------------------------------------------------------------------------------
def in_melee(state: FieldState, group: Group) -> bool:
    return group.id in state.melees.get(group.lane, [])


def _next_pair(state: FieldState) -> tuple[str, Group, Group, str | None] | None:
    """The next engagement to fight: the fronts of a lane, then the groups shooting over their friends (each
    still in range of the enemy's front once the fronts have fought)."""
    while state.pending:
        lane = state.pending.pop(0)
        north, south = state.front("north", lane), state.front("south", lane)
        if north is not None and south is not None:
            return lane, north, south, None
    while state.volleys:
        lane, gid = state.volleys.pop(0)
        shooter = state.groups[gid]
        enemy = state.front(OTHER[shooter.side], lane)
        if state.where[gid] == ON_FIELD and shooter.lane == lane and enemy is not None \
                and shooter is not state.front(shooter.side, lane) \
                and 0 < abs(enemy.pos - shooter.pos) <= reach(state, shooter):
            north, south = (shooter, enemy) if shooter.side == "north" else (enemy, shooter)
            return lane, north, south, shooter.side
    return None


def _next_engagement(state: FieldState, dice: Dice) -> list[Event]:
    events: list[Event] = []
    while (pair := _next_pair(state)) is not None:
        lane, north, south, shooter = pair
        sub = _engagement(state, lane, north, south)
        sub.over_friends = over_friends = shooter is not None
        state.engagement, state.lane = sub, lane
        goes_on = not over_friends and state.melees.pop(lane, None) == [north.id, south.id] and sub.distance == 0
        events.append(Event("engagement", {"lane": lane, "north": north.id, "south": south.id,
                                           "distance": sub.distance, **({"melee": True} if goes_on else {}),
                                           **({"over_friends": True, "shooter": shooter} if over_friends else {})}))
        # « un nouveau tour commençant directement par une séquence de mêlée »: a melee both held goes on
        events += _tagged(state, engine.melee(sub, dice) if goes_on else engine.engage(sub, dice))
        _closing(state)
        if sub.phase != OVER:
            state.phase = ENGAGE
            return events
        events += _settle(state)
        if state.phase == OVER:
            return events
    return events + _end_of_turn(state)


def _engagement(state: FieldState, lane: str, north: Group, south: Group) -> State:
    sub = State({"north": north, "south": south}, shelter=False, events=False)
    sub.distance = max(0, south.pos - north.pos)
    sub.storm = state.turn == state.storm
    sub.standoff_ends = True
    sub.shelter_distance = {g.side: to_edge(g) for g in (north, south) if sheltered_at(state, g.side, lane)}
    sub.field_event = _event_now(state, lane)
    return sub


def _event_now(state: FieldState, lane: str) -> str | None:
    """What ends a pursuit this turn in this lane: nightfall, the storm, or reinforcements arriving."""
    if state.turn == state.night:
        return "night"
    if state.turn == state.storm:
        return "storm"
    if any(turn == state.turn and state.groups[gid].lane == lane for gid, turn in state.arrives.items()):
        return "reinforcements"
    return None


RENAMED = {"battle_over": "engagement_over", "turn": "round"}  # the engine's battle is the field's engagement


def _tagged(state: FieldState, events: list[Event]) -> list[Event]:
    """Engine events name sides; on a field they also carry the lane they happen in and the two groups
    engaged, so that the journal names them."""
    if state.lane is None or state.engagement is None:
        return events
    where = {"lane": state.lane, "engaged": {side: g.id for side, g in state.engagement.groups.items()}}
    return [e if e.type == "roll" else Event(RENAMED.get(e.type, e.type), {**e.data, **where}, e.audience)
            for e in events]


def _after_decision(state: FieldState, dice: Dice) -> list[Event]:
    assert state.engagement is not None
    if state.engagement.phase != OVER:
        return []
    events = _settle(state)
    if state.phase == OVER:
        return events
    state.phase = ORDERS_PHASE  # between engagements; _next_engagement sets ENGAGE again if one waits
    return events + _next_engagement(state, dice)


def _settle(state: FieldState) -> list[Event]:
    """The engagement is over: move its groups as its ending says, then see whether the battle is."""
    sub, lane = state.engagement, state.lane
    assert sub is not None and sub.result is not None and lane is not None
    state.engagement = None
    reason, winner = sub.result["reason"], sub.result["winner"]
    if not (sub.over_friends and lane in state.fought):  # a lane's caption tells its fronts' engagement first
        state.fought[lane] = reason
    groups = sub.groups
    events = [_leave(state, g, DESTROYED) for g in groups.values() if g.strength <= 0]
    if reason == "nightfall":  # the engine's own night: an engagement that nobody ended
        return events + _over(state, "nightfall")
    if reason == "melee_goes_on":
        state.melees[lane] = [groups["north"].id, groups["south"].id]
    how = RETREATS[reason]
    losers = list(SIDES) if how == "both" else [OTHER[winner]] if how and winner else []
    for side in losers:
        group = groups[side]
        if state.where[group.id] != ON_FIELD:
            continue
        if how == "sheltered":
            events.append(_leave(state, group, SHELTERED))
            continue
        paces = max(move_of(group), sub.fled[side])
        if how == "out_of_range":
            paces = max(paces, reach(state, groups[OTHER[side]]) + 1)
        events += _fall_back(state, group, paces)
    state.lane = None
    return events + (_over(state, "field_cleared") if _side_gone(state) else [])


def _closing(state: FieldState) -> None:
    """Once a melee or a pursuit has begun, the two groups stand together on the field (and the page
    shows them so while the engagement goes on)."""
    sub = state.engagement
    if sub is not None and sub.closed and state.lane is not None:
        _close(state, sub, state.lane)
        sub.distance = 0


def _close(state: FieldState, sub: State, lane: str) -> None:
    """A melee or a pursuit brought the two groups together: where the one that stood was, or
    halfway if both charged. Called again, it finds them where they are."""
    north, south = sub.groups["north"], sub.groups["south"]
    chargers = {s for s, stance in sub.stances_taken.items() if stance == ATTACK}
    if not chargers:  # a pursuit straight after fire: the pursuers came on
        pursuers = sub.decider or (sub.result or {}).get("winner")
        chargers = {pursuers} if pursuers else set()
    if chargers == {"north"}:
        meet = south.pos
    elif chargers == {"south"}:
        meet = north.pos
    else:
        meet = (north.pos + south.pos) // 2
    for group in state.on_field(lane=lane):
        group.pos = min(group.pos, meet) if group.side == "north" else max(group.pos, meet)
    north.pos = south.pos = meet


def _fall_back(state: FieldState, group: Group, paces: int) -> list[Event]:
    if paces > to_edge(group):
        group.pos = 0 if group.side == "north" else RULES.depth
        return [_leave(state, group, SHELTERED if sheltered_at(state, group.side, group.lane) else LEFT)]
    group.pos -= AHEAD[group.side] * paces
    return [Event("fall_back", {"group": group.id, "lane": group.lane, "pos": group.pos, "paces": paces})]


def _side_gone(state: FieldState) -> bool:
    return any(not state.on_field(side) for side in SIDES)


def _end_of_turn(state: FieldState) -> list[Event]:
    state.lane = None
    if _side_gone(state):
        return _over(state, "field_cleared")
    if state.turn >= state.night:
        return _over(state, "nightfall")
    return begin_turn(state)


def men_on_field(state: FieldState, side: str) -> int:
    return sum(g.strength for g in state.on_field(side))


def _over(state: FieldState, reason: str) -> list[Event]:
    """The battle ends: the side still on the field holds it; at night, the side with more men there."""
    men = {side: men_on_field(state, side) for side in SIDES}
    if reason == "field_cleared":
        standing = [side for side in SIDES if state.on_field(side)]
        winner = standing[0] if len(standing) == 1 else None
    else:
        winner = None if men["north"] == men["south"] else max(SIDES, key=men.__getitem__)
    state.phase, state.engagement, state.lane, state.pending, state.volleys = OVER, None, None, [], []
    state.result = {"winner": winner, "reason": reason, "strength": men,
                    "sheltered": {side: sum(g.strength for g in state.groups.values()
                                            if g.side == side and state.where[g.id] == SHELTERED) for side in SIDES}}
    return [Event("battle_over", dict(state.result))]

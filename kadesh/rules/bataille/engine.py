"""The battle sequence of the text: fire, morale, melee and pursuit, with discipline rolls where
the text gives them a consequence.

Generals decide at the decision points (``STANCE``, ``PURSUE``, ``CONTINUE``); everything
between two decisions runs here at once, every die rolled and recorded as an event. Rolls are
"under": 1d20 at or under the value passes.
"""

from __future__ import annotations

from typing import Any

from kadesh.core.dice import Dice
from kadesh.core.events import Event, roll_event
from kadesh.rules.bataille.data import OTHER, RULES, SIDES
from kadesh.rules.bataille.state import ATTACK, CONTINUE, HOLD, OVER, PURSUE, STANCE, WITHDRAW, Group, State


# -- rolls ----------------------------------------------------------------------------------------
def roll_under(state: State, dice: Dice, side: str, kind: str, target: int, why: str) -> tuple[bool, list[Event]]:
    """A discipline or morale roll: 1d20 at or under ``target`` passes."""
    roll = dice.roll(RULES.die_sides)
    passed = roll.value <= target
    return passed, [roll_event(roll, side, kind),
                    Event(kind, {"side": side, "roll": roll.value, "target": target, "passed": passed, "why": why})]


def chance_under(target: int) -> float:
    """The chance that a roll at or under ``target`` passes, for the page to show."""
    return min(max(target, 0), RULES.die_sides) / RULES.die_sides


def discipline(state: State, dice: Dice, side: str, why: str) -> tuple[bool, list[Event]]:
    return roll_under(state, dice, side, "discipline", state.groups[side].discipline, why)


def morale(state: State, dice: Dice, side: str, lost: int, before: int, why: str) -> tuple[bool, list[Event]]:
    """Morale, with the text's weapon modifier, less one per step of strength lost in the sequence."""
    group = state.groups[side]
    penalty = (lost * 100 // before) // RULES.loss_step_percent if before else 0
    return roll_under(state, dice, side, "morale", group.morale + group.morale_modifier() - penalty, why)


def attack(state: State, dice: Dice, side: str, weapon: str) -> tuple[int, list[Event]]:
    """One attack roll: floor(strength × attack value × 1d20 / divisor) losses, not yet applied."""
    group, target = state.groups[side], state.groups[OTHER[side]]
    value = group.missile if weapon == "missile" else group.melee
    roll = dice.roll(RULES.die_sides)
    dealt = group.strength * value * roll.value // RULES.loss_divisor
    losses = min(dealt, target.strength)
    return losses, [roll_event(roll, side, "attack"),
                    Event("attack", {"side": side, "weapon": weapon, "strength": group.strength, "value": value,
                                     "roll": roll.value, "dealt": dealt, "losses": losses})]


def apply_losses(state: State, losses: dict[str, int]) -> list[Event]:
    """Losses of a phase, suffered together; ``losses`` is by the side that suffers them."""
    events = []
    for side, count in losses.items():
        group = state.groups[side]
        group.strength -= count
        events.append(Event("losses", {"side": side, "lost": count, "strength": group.strength}))
    return events


# -- the turn -----------------------------------------------------------------------------------------
def begin_turn(state: State, dice: Dice) -> list[Event]:
    """A new turn: fire if either group can, else the generals choose at once."""
    state.turn += 1
    if state.turn > RULES.max_turns:
        return end(state, None, "nightfall")
    return [Event("turn", {"turn": state.turn})] + engage(state, dice)


def engage(state: State, dice: Dice) -> list[Event]:
    """Two groups meet: fire if either can reach the other, else the generals choose at once."""
    if any(can_fire(state, s) for s in SIDES):
        return fire(state, dice)
    return ask_stances(state)


def can_fire(state: State, side: str) -> bool:
    """A group shoots if it has missiles, the sky allows it and the enemy is within its range."""
    group = state.groups[side]
    return group.shoots and not state.storm and group.range >= state.distance


def _night(state: State) -> list[Event] | None:
    """Count a sequence; past the last one, night falls and ends the battle."""
    state.sequences += 1
    return end(state, None, "nightfall") if state.sequences > RULES.max_sequences else None


def fire(state: State, dice: Dice) -> list[Event]:
    """The fire sequence, then morale for both."""
    if (dark := _night(state)) is not None:
        return dark
    before = {s: state.groups[s].strength for s in SIDES}
    events = [Event("phase", {"name": "fire"})]
    shooters = [s for s in SIDES if can_fire(state, s)]
    first = _outranging(state, shooters)
    if len(shooters) == 1 or first is not None:
        leader = shooters[0] if len(shooters) == 1 else first
        assert leader is not None
        events += _volley(state, dice, [leader])
        if len(shooters) == 2 and state.groups[OTHER[leader]].strength > 0:  # only survivors reply
            events += _volley(state, dice, [OTHER[leader]])
    else:
        events += _volley(state, dice, shooters)
    if (done := _destroyed(state)) is not None:
        return events + done
    return events + after_fire(state, dice, before)


def _outranging(state: State, shooters: list[str]) -> str | None:
    """The side whose range is at least 50 % greater fires first."""
    if len(shooters) != 2:
        return None
    a, b = shooters
    if state.groups[a].range >= RULES.range_advantage * state.groups[b].range:
        return a
    if state.groups[b].range >= RULES.range_advantage * state.groups[a].range:
        return b
    return None


def _volley(state: State, dice: Dice, shooters: list[str]) -> list[Event]:
    """Shooters fire at once; their losses are suffered together."""
    events, losses = [], {}
    for side in shooters:
        dealt, rolled = attack(state, dice, side, "missile")
        events += rolled
        losses[OTHER[side]] = dealt
    return events + apply_losses(state, losses)


def after_fire(state: State, dice: Dice, before: dict[str, int]) -> list[Event]:
    events, passed = _both_morale(state, dice, before, "after_fire")
    if not any(passed.values()):
        return events + end(state, None, "both_fell_back")
    if all(passed.values()):
        return events + (end(state, None, "volley") if state.over_friends else ask_stances(state))
    winner = next(s for s in SIDES if passed[s])
    if state.over_friends:  # nobody charges or pursues through its own side's front (issue 45); the journal says so
        return events + end(state, winner, "enemy_broke", told={"over_friends": True})
    return events + ask_pursuit(state, winner)


def _both_morale(state: State, dice: Dice, before: dict[str, int], why: str) -> tuple[list[Event], dict[str, bool]]:
    events, passed = [], {}
    for side in SIDES:
        group = state.groups[side]
        passed[side], rolled = morale(state, dice, side, before[side] - group.strength, before[side], why)
        events += rolled
    return events, passed


def ask_stances(state: State) -> list[Event]:
    state.phase, state.stances, state.decider = STANCE, {}, None
    return [Event("decide", {"phase": STANCE, "sides": list(SIDES)})]


def ask_pursuit(state: State, winner: str) -> list[Event]:
    state.phase, state.decider = PURSUE, winner
    return [Event("decide", {"phase": PURSUE, "sides": [winner], "broken": OTHER[winner]})]


def stances_given(state: State, dice: Dice) -> list[Event]:
    """Both stances are in: a group told to hold must pass discipline or it attacks unbidden."""
    events = [Event("stances", dict(state.stances))]
    chosen, state.stances = dict(state.stances), {}  # read: they are this turn's no longer
    for side in SIDES:
        if chosen[side] == HOLD:
            held, rolled = discipline(state, dice, side, "hold")
            events += rolled
            if not held:
                chosen[side] = ATTACK
                events.append(Event("unbidden_attack", {"side": side}))
    state.stances_taken = chosen
    attackers = [s for s in SIDES if chosen[s] == ATTACK]
    if len(attackers) == 2 or (len(attackers) == 1 and chosen[OTHER[attackers[0]]] == HOLD):
        return events + melee(state, dice)
    if len(attackers) == 1:
        return events + pursuit(state, dice, attackers[0])
    leaving = [s for s in SIDES if chosen[s] == WITHDRAW]
    if len(leaving) == 2:
        return events + end(state, None, "both_withdrew")
    if leaving:
        return events + end(state, OTHER[leaving[0]], "withdrawal")
    if state.standoff_ends:  # on a field, "on passe alors à un autre tour" is the field's next turn
        return events + end(state, None, "standoff")
    return events + begin_turn(state, dice)


def melee(state: State, dice: Dice) -> list[Event]:
    """Melee is simultaneous: both attack, losses come together, then both test morale."""
    if (dark := _night(state)) is not None:
        return dark
    state.closed = True
    before = {s: state.groups[s].strength for s in SIDES}
    events, losses = [Event("phase", {"name": "melee"})], {}
    for side in SIDES:
        dealt, rolled = attack(state, dice, side, "melee")
        events += rolled
        losses[OTHER[side]] = dealt
    events += apply_losses(state, losses)
    if (done := _destroyed(state)) is not None:
        return events + done
    rolled, passed = _both_morale(state, dice, before, "after_melee")
    events += rolled
    if not any(passed.values()):
        return events + end(state, None, "fight_over")
    if all(passed.values()):
        if state.standoff_ends:  # on a field, « un nouveau tour commençant directement par une séquence de
            return events + end(state, None, "melee_goes_on")  # mêlée » is the field's next turn (issue 45)
        state.turn += 1
        if state.turn > RULES.max_turns:
            return events + end(state, None, "nightfall")
        return events + [Event("turn", {"turn": state.turn})] + melee(state, dice)
    return events + ask_pursuit(state, next(s for s in SIDES if passed[s]))


def decline_pursuit(state: State, dice: Dice, side: str) -> list[Event]:
    """Not pursuing takes a passed discipline roll; failed, the group pursues anyway."""
    held, events = discipline(state, dice, side, "no_pursuit")
    if held:
        return events + end(state, side, "enemy_broke")
    return events + [Event("unbidden_pursuit", {"side": side})] + pursuit(state, dice, side)


def pursuit(state: State, dice: Dice, pursuers: str) -> list[Event]:
    """One pursuit sequence, then what ends it or the pursuers' choice to go on."""
    if (dark := _night(state)) is not None:
        return dark
    pursued = OTHER[pursuers]
    state.closed = True
    before = state.groups[pursued].strength
    events = [Event("phase", {"name": "pursuit", "pursuers": pursuers})]
    dealt, rolled = attack(state, dice, pursuers, "melee")
    events += rolled + apply_losses(state, {pursued: dealt})
    if (done := _destroyed(state)) is not None:
        return events + done
    turned, rolled = discipline(state, dice, pursued, "strike_back")
    events += rolled
    if turned:
        dealt, rolled = attack(state, dice, pursued, "melee")
        events += rolled + apply_losses(state, {pursuers: dealt})
        if (done := _destroyed(state)) is not None:
            return events + done
    rallied, rolled = morale(state, dice, pursued, before - state.groups[pursued].strength, before, "rally")
    events += rolled
    if rallied:
        return events + melee(state, dice)
    state.fled[pursued] += state.groups[pursued].speed * RULES.paces_per_speed
    if state.field_event is not None:
        events.append(Event("event", {"kind": state.field_event, "happened": True}))
        return events + end(state, pursuers, "event")
    if state.events:
        roll = dice.roll(RULES.die_sides)
        happened = roll.value <= RULES.event_roll
        events += [roll_event(roll, None, "event"),
                   Event("event", {"roll": roll.value, "target": RULES.event_roll, "happened": happened})]
        if happened:
            return events + end(state, pursuers, "event")
    escape = _escape(state, pursued, pursuers)
    if escape is not None:
        events += _last_fire(state, dice, pursuers, escape)
        return events + (_destroyed(state) or end(state, pursuers, escape))
    state.phase, state.decider = CONTINUE, pursuers
    return events + [Event("decide", {"phase": CONTINUE, "sides": [pursuers]})]


def _escape(state: State, pursued: str, pursuers: str) -> str | None:
    if state.groups[pursued].speed > state.groups[pursuers].speed:
        return "outran"
    if state.shelter_distance is not None:
        away = state.shelter_distance.get(pursued)
        return "shelter" if away is not None and state.fled[pursued] >= away else None
    if state.shelter:
        return "shelter"
    return None


def _last_fire(state: State, dice: Dice, pursuers: str, escape: str) -> list[Event]:
    """Pursuers that can shoot get one last fire sequence at the group getting away; the journal says how it
    gets away (issue 59: a last fire out of nowhere)."""
    if not state.groups[pursuers].shoots or state.storm:
        return []
    return [Event("phase", {"name": "last_fire", "escape": escape, "side": OTHER[pursuers]})] + \
        _volley(state, dice, [pursuers])


def stop_pursuit(state: State, dice: Dice, side: str) -> list[Event]:
    """Stopping takes a passed discipline roll; failed, the pursuit goes on."""
    stopped, events = discipline(state, dice, side, "stop_pursuit")
    if stopped:
        return events + end(state, side, "pursuit_stopped")
    return events + pursuit(state, dice, side)


def _destroyed(state: State) -> list[Event] | None:
    gone = [s for s in SIDES if state.groups[s].strength <= 0]
    if not gone:
        return None
    return end(state, None if len(gone) == 2 else OTHER[gone[0]], "destroyed")


def end(state: State, holder: str | None, reason: str, told: dict[str, Any] | None = None) -> list[Event]:
    """The battle is over; ``holder`` holds the field (None: nobody does). ``told``: what the journal adds."""
    state.phase, state.decider = OVER, None
    state.result = {"winner": holder, "reason": reason,
                    "strength": {s: state.groups[s].strength for s in SIDES}}
    return [Event("battle_over", {**state.result, **(told or {})})]


def group_from(side: str, spec: dict[str, Any]) -> Group:
    troop = RULES.troops.get(spec.get("troop", ""))
    values = {f: spec.get(f, getattr(troop, f) if troop else None) for f in
              ("strength", "discipline", "morale", "melee", "missile", "range", "speed")}
    return Group(side, spec.get("troop", "custom"), values["strength"], values["strength"], values["discipline"],
                 values["morale"], values["melee"], values["missile"], values["range"], values["speed"])

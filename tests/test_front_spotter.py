"""A side's eyes against many enemy units (``vision.spotter``): where it draws the cells in sight once for each pair
of concealments and looks each unit up, it answers as measuring each unit against every eye does, for every enemy
unit, camouflaged or not, as a battle goes on. How many enemy units make it draw (``vision._MANY_ENEMIES``) is set
here to one, so that it draws on every battle, or to more than any has, so that it measures on every one."""

from __future__ import annotations

import random

import pytest

from kadesh.core.dice import SeededDice
from kadesh.core.grid import chebyshev
from kadesh.rules.front import vision
from kadesh.rules.front.ruleset import Front
from kadesh.rules.front.scenario import load
from kadesh.rules.front.state import SIDES, State, Unit

RULES = Front()


def measured(state: State, side: str, enemy: Unit, camouflaged: bool) -> bool:
    """The rule as written: a building's sight less the concealment (a watchtower's whole), a unit's sight less
    the concealment (a drone's less the cover only), and always next to a unit."""
    hidden = vision.concealment(state, enemy, camouflaged)
    for at, sight, through in vision._buildings(state, side):
        if chebyshev(at, enemy.cell) <= (sight if through else sight - hidden):
            return True
    for unit in [u for u in state.units.values() if u.side == side and u.on_map]:
        drone = unit.type.aircraft == "drone"
        concealed = vision.concealment(state, enemy) if drone else hidden
        distance = chebyshev(unit.cell, enemy.cell)
        if distance <= 1 or distance <= vision.vision(state, unit) - concealed:
            return True
    return False


@pytest.fixture(params=["drawn", "measured"])
def drawing(request, monkeypatch):
    monkeypatch.setattr(vision, "_MANY_ENEMIES", 1 if request.param == "drawn" else 10**6)


def test_the_cells_in_sight_drawn_once_spot_the_units_measuring_spots(monkeypatch):
    monkeypatch.setattr(vision, "_MANY_ENEMIES", 1)  # drawn on every battle
    answers = set()
    for scenario in ("default", "skirmish", "mission_hold", "test_air"):
        answers |= _compare_along_a_game(scenario)
    assert answers == {(True, False), (False, False), (True, True), (False, True)}  # seen or not, camouflaged or not


def _compare_along_a_game(scenario: str) -> set[tuple[bool, bool]]:
    rng, dice, state = random.Random(scenario), SeededDice(scenario), load(scenario)
    answers = set()
    for _ in range(30):
        if state.result:
            break
        for side in SIDES:
            enemies = [u for u in state.units.values() if u.side != side and u.on_map]
            sees = vision.spotter(state, side)
            for enemy in enemies:
                for camouflaged in (False, True):
                    answer = sees(enemy, camouflaged)
                    assert answer == measured(state, side, enemy, camouflaged), (scenario, enemy.id, camouflaged)
                    answers.add((answer, camouflaged))
        legal = [a for a in RULES.legal_actions(state, state.active) if a["type"] != "end_turn"]
        action = rng.choice(legal) if legal and rng.random() < 0.85 else {"type": "end_turn"}
        RULES.apply(state, state.active, action, dice)
    return answers


def test_an_enemy_unit_anywhere_is_spotted_as_measured_by_night_and_by_a_drone(drawing):
    """One enemy unit put on every free cell in turn, camouflaged or not, by day and by a winter night (when the
    concealment outweighs a unit's sight and only a unit next to it sees it), without and with a drone of the
    side aloft."""
    state, dice = load("test_air"), SeededDice("spotter")
    sniper = next(u for u in state.units.values() if u.side == "red" and u.type.id == "sniper")
    answers = set()
    for drone in (False, True):
        if drone:
            RULES.apply(state, "blue", {"type": "launch", "unit": "b1", "drone": "b3", "to": "D5"}, dice)
        for season, hour in (("summer", "morning"), ("winter", "night")):
            state.season, state.hour = season, hour
            answers |= _sweep(state, sniper)
    assert answers == {True, False}


def _sweep(state: State, enemy: Unit) -> set[bool]:
    answers = set()
    for cell in [(x, y) for y in range(state.height) for x in range(state.width)]:
        if cell in state.occupied and state.occupied[cell] != enemy.id:
            continue
        state.place(enemy, cell)
        sees = vision.spotter(state, "blue")
        for camouflaged in (False, True):
            answer = sees(enemy, camouflaged)
            assert answer == measured(state, "blue", enemy, camouflaged), (state.hour, cell, camouflaged)
            answers.add(answer)
    return answers

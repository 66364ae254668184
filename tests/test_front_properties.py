"""Front: random legal play, checked after every order: on the small mixed map, on every shipped
scenario, with the shots fired during the enemy's turn (alert, patrol) held to the rules of fire, and
captures that happen when engineers are left on the points."""

from __future__ import annotations

import random
from contextlib import contextmanager
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from kadesh.core.dice import SeededDice
from kadesh.core.game import Game
from kadesh.core.grid import parse_map_cell
from kadesh.rules.front import combat, fire
from kadesh.rules.front.fire import shots_allowed
from kadesh.rules.front.mines import mines_seen_by
from kadesh.rules.front.ruleset import Front
from kadesh.rules.front.scenario import SHIPPED
from kadesh.rules.front.vision import camouflaged_units, spotted

pytestmark = pytest.mark.slow
SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RULES = Front()


def new(seed: int, scenario: str = "test_mixed") -> Game:
    options = RULES.normalize_options({"scenario": scenario})
    return Game(RULES, options, str(seed), SeededDice(str(seed)))


def play(seed: int, actions: int = 120, check=None, scenario: str = "test_mixed", hold_points: bool = False):
    """Random legal orders (an end of turn one time in seven); with ``hold_points``, an engineer that can step
    onto a capture point does so one time in two, and one posted on a point is left there."""
    rng = random.Random(seed)
    game, taken = new(seed, scenario), []
    for _ in range(actions):
        if game.outcome is not None:
            break
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        orders = [a for a in legal if a["type"] != "end_turn"]
        if hold_points:
            orders, onto = _holding(game.state, orders)
            if onto and rng.random() < 0.5:
                orders = onto
        action = rng.choice(orders) if orders and rng.random() < 0.85 else {"type": "end_turn"}
        if action["type"] == "shoot":  # never more often than allowed at the moment of firing
            shooter = game.state.units[action["unit"]]
            assert shooter.shots < shots_allowed(game.state, shooter)
        game.act(seat, action)
        taken.append((seat, action))
        if check:
            check(game)
    return game, taken


def _holding(state, orders: list[dict]) -> tuple[list[dict], list[dict]]:
    posted = {state.occupied.get(point) for point in state.points}
    orders = [a for a in orders if a.get("unit") not in posted]
    onto = [a for a in orders if a["type"] == "move" and parse_map_cell(a["to"], state.width, state.height)
            in state.holders]
    return orders, onto


def sound(game: Game) -> None:
    state = game.state
    for unit in state.units.values():
        assert unit.hp > 0 and unit.ap >= 0 and unit.ammo >= 0 and (unit.fuel is None or unit.fuel >= 0)
        assert all(p in state.units and state.units[p].aboard == unit.id for p in unit.cargo)
        assert unit.shots <= 2
        if unit.aboard is None:
            terrain = state.terrain_at(unit.cell)
            assert terrain is not None and terrain.step_cost(unit.type.movement) is not None \
                or unit.cell in state.structures, f"{unit.id} stands on impassable {terrain.id}"
            assert state.occupied.get(unit.cell) == unit.id
    assert len(set(state.occupied)) == len(state.occupied)


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_random_legal_play_keeps_every_unit_within_its_means(seed):
    play(seed, check=sound)


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_a_side_never_sees_what_it_cannot_see(seed):
    def hidden(game: Game) -> None:
        state = game.state
        camouflaged = frozenset(u.id for u in state.units.values() if u.camouflaged)
        for side in ("blue", "red"):
            view = game.view(side)
            seen = spotted(state, side, camouflaged)
            for unit in view["units"]:
                assert unit["side"] == side or unit["id"] in seen
            mines = {parse_map_cell(c, state.width, state.height) for c in view["mines"]}
            assert mines <= mines_seen_by(state, side)

    play(seed, check=hidden)


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_replaying_the_orders_gives_the_same_journals_and_views(seed):
    game, taken = play(seed)
    again = new(seed)
    for seat, action in taken:
        again.act(seat, action)
    for side in ("blue", "red", None):
        assert again.view(side) == game.view(side)
        assert again.journal(side) == game.journal(side)


# -- what a side does not see changes none of its orders (fog-consistent orders) -----------------------------------
def _answers(state, side: str) -> tuple[list[str], dict[str, tuple]]:
    """A side's legal actions, and the rules' answer to a probe of orders: every own unit moving to and firing
    at every cell, building next to it, firing at every structure."""
    import json

    from kadesh.core.errors import RuleError
    from kadesh.core.grid import king_neighbours, map_cell_name

    legal = sorted(json.dumps(a, sort_keys=True) for a in RULES.legal_actions(state, side))
    cells = [map_cell_name((x, y)) for y in range(state.height) for x in range(state.width)]
    probes = []
    for unit in [u for u in state.units.values() if u.side == side and u.aboard is None]:
        probes += [{"type": "move", "unit": unit.id, "to": c} for c in cells]
        probes += [{"type": "shoot", "unit": unit.id, "target": c} for c in cells]
        probes += [{"type": "shoot", "unit": unit.id, "target": map_cell_name(c), "at": "structure"}
                   for c in state.structures]
        probes += [{"type": "build", "unit": unit.id, "kind": "trench", "cell": map_cell_name(c)}
                   for c in king_neighbours(unit.cell) if state.terrain_at(c) is not None]
    answers = {}
    for action in probes:
        try:
            RULES.check(state, side, action)
            answers[json.dumps(action, sort_keys=True)] = ("accepted",)
        except RuleError as refused:
            answers[json.dumps(action, sort_keys=True)] = (refused.code, refused.en)
    return legal, answers


def _unseen_variants(state, side: str, rng: random.Random):
    """The same battle with one enemy unit the side does not see added, moved or removed."""
    from kadesh.rules.front.data import TABLES
    from kadesh.rules.front.state import Unit

    other = "red" if side == "blue" else "blue"

    def seen(s):
        return spotted(s, side, frozenset(u.id for u in s.units.values() if u.camouflaged))

    def free_cells(s, kind):
        return [(x, y) for y in range(s.height) for x in range(s.width) if (x, y) not in s.occupied
                and s.terrain_at((x, y)).step_cost(kind.movement) is not None]

    done = False
    for name in rng.sample(["sniper", "scout", "infantry", "truck"], 4):  # a sniper in cover hides best
        kind = TABLES.units[name]
        for cell in rng.sample(free_cells(state, kind), len(free_cells(state, kind))):
            added = state.copy()
            unit = Unit(f"{other[0]}99", other, kind, cell, kind.hp, kind.ap, kind.ammo, kind.fuel)
            unit.camouflaged = bool(kind.extras.get("camouflage")) and added.terrain_at(cell).cover > 0
            added.units[unit.id] = unit
            added.occupied[cell] = unit.id
            if unit.id not in seen(added):
                yield "added", added
                done = True
                break
        if done:
            break
    hidden = [u.id for u in state.units.values() if u.side == other and u.aboard is None and not u.cargo
              and u.id not in seen(state)]
    for unit_id in hidden:
        moved = state.copy()
        unit = moved.units[unit_id]
        for cell in rng.sample(free_cells(moved, unit.type), len(free_cells(moved, unit.type))):
            moved.place(unit, cell)
            if unit_id not in seen(moved):
                yield "moved", moved
                break
        removed = state.copy()
        del removed.units[unit_id]
        del removed.occupied[state.units[unit_id].cell]
        if len([u for u in removed.units.values() if u.side == other]) > 0:
            yield "removed", removed
        break


# a failure is told unshrunk: shrinking these games takes minutes
@settings(SETTINGS, max_examples=20, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=80))
def test_an_enemy_unit_a_side_does_not_see_changes_none_of_its_legal_actions_nor_refusals(seed, steps):
    game, _ = play(seed, actions=steps)
    state = game.state
    if game.outcome is not None:
        return
    side = state.active
    before = _answers(state, side)
    view = RULES.view(state, side)
    for how, variant in _unseen_variants(state, side, random.Random(seed)):
        assert RULES.view(variant, side) == view, how  # the side's view is the same: it cannot tell them apart
        legal, answers = _answers(variant, side)
        assert legal == before[0], f"{how}: legal actions differ"
        changed = {a: (before[1][a], answers[a]) for a in answers if answers[a] != before[1][a]}
        assert not changed, f"{how}: {changed}"


# -- every shipped scenario ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("scenario", SHIPPED)
def test_random_legal_play_on_every_shipped_scenario_keeps_every_unit_within_its_means(scenario):
    actions = 60 if scenario == "default" else 150
    for seed in (1, 2):
        play(seed, actions=actions, check=sound, scenario=scenario)


# -- fire during the enemy's turn ------------------------------------------------------------------------------------
@contextmanager
def reaction_shots_held_to_the_rules(fired: list[str]):
    """Every shot fired during the enemy's turn is checked as it is fired: a shot the rules of fire allow
    (fire rate, rounds, action points, range after a move, line of fire), at an enemy its side sees; after
    it, within the fire rate; each side reads of it only what it sees."""
    real = combat.volley

    def checked(state, shooter, target, dice, reaction=None, **given):
        if reaction is None:
            return real(state, shooter, target, dice, reaction, **given)
        assert shooter.side != state.active, "a reaction shot happens in the enemy's turn"
        assert fire.why_not_fire(state, shooter, target.cell) is None
        assert target.id in spotted(state, shooter.side, camouflaged_units(state))
        allowed = fire.shots_allowed(state, shooter)
        seers = {side: spotted(state, side, camouflaged_units(state)) for side in ("blue", "red")}  # as it fires
        events = real(state, shooter, target, dice, reaction, **given)
        assert shooter.shots <= allowed and shooter.ammo >= 0 and shooter.ap >= 0
        for event in events:
            if event.type == "hit" and "by" in event.data:
                assert event.data["by"] in seers[event.audience[0]]
            if event.type == "shot":
                assert event.audience == (shooter.side,)
        fired.append(reaction)
        return events

    with patch.object(combat, "volley", checked):
        yield


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_a_reaction_shot_never_exceeds_the_fire_rate_rounds_or_range_nor_tells_what_is_not_seen(seed):
    with reaction_shots_held_to_the_rules([]):
        play(seed, actions=200, check=sound)


def test_alert_and_patrol_shots_do_happen_in_random_play():
    """The property above is not vacuous: random play on the small map does fire on alert and on patrol."""
    fired: list[str] = []
    with reaction_shots_held_to_the_rules(fired):
        for seed in range(6):
            play(seed, actions=200)
    assert {"alert", "patrol"} <= set(fired)


# -- captures ----------------------------------------------------------------------------------------------------------
@settings(SETTINGS, max_examples=3)
@given(st.integers(min_value=0, max_value=2**32))
def test_points_are_captured_in_random_games_long_enough_to_allow_it(seed):
    """On the default battle, random legal orders where engineers once posted on a point are left there."""
    game, _ = play(seed, actions=250, scenario="default", hold_points=True)
    assert any(event.type == "point" and event.data["change"] == "taken" for _, event in game.events)

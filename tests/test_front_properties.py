"""Front (issue 9, in progress): random legal play on the small map, checked after every order."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kadesh.core.dice import SeededDice
from kadesh.core.game import Game
from kadesh.core.grid import parse_map_cell
from kadesh.rules.front.fire import shots_allowed
from kadesh.rules.front.mines import mines_seen_by
from kadesh.rules.front.ruleset import Front
from kadesh.rules.front.vision import spotted

pytestmark = pytest.mark.slow
SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RULES = Front()


def new(seed: int) -> Game:
    options = RULES.normalize_options({"scenario": "test_mixed"})
    return Game(RULES, options, str(seed), SeededDice(str(seed)))


def play(seed: int, actions: int = 120, check=None) -> tuple[Game, list]:
    rng = random.Random(seed)
    game, taken = new(seed), []
    for _ in range(actions):
        if game.outcome is not None:
            break
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        orders = [a for a in legal if a["type"] != "end_turn"]
        action = rng.choice(orders) if orders and rng.random() < 0.85 else {"type": "end_turn"}
        if action["type"] == "shoot":  # never more often than allowed at the moment of firing
            shooter = game.state.units[action["unit"]]
            assert shooter.shots < shots_allowed(game.state, shooter)
        game.act(seat, action)
        taken.append((seat, action))
        if check:
            check(game)
    return game, taken


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

"""Front (issue 9, in progress): random legal play on the small map, checked after every order."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
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

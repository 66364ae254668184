"""Computer opponents: always legal, never seeing what their seat may not see."""

from __future__ import annotations

import pytest

from kadesh import new_game
from kadesh.ai.base import levels, make_bot, play_turn_of
from kadesh.ai.duel import duel, duel_game, wilson
from kadesh.ai.manoeuvre import deployment_plan, evaluate
from kadesh.rules.manoeuvre.data import OTHER_SIDE


def test_every_level_is_offered():
    assert {"random", "maladroit", "stratege"} <= set(levels("manoeuvre"))
    with pytest.raises(LookupError):
        make_bot("manoeuvre", "grandmaster")


@pytest.mark.slow
@pytest.mark.parametrize("level", ["random", "maladroit"])
def test_bot_actions_are_always_legal_over_seeded_games(level):
    for seed in range(6):
        game = new_game("manoeuvre", seed=seed)
        bots = {seat: make_bot("manoeuvre", level, seed=seed * 2 + i) for i, seat in enumerate(game.seats)}
        while game.outcome is None and game.version < 5000:
            seat = game.to_act()[0]
            action = bots[seat].choose(game.view(seat), seat, game.legal_actions(seat))
            assert action in game.legal(seat)
            game.act(seat, action)
        assert game.outcome is not None


@pytest.mark.slow
def test_stratege_actions_are_legal_with_a_small_budget():
    game = new_game("manoeuvre", seed=4)
    bots = {"north": make_bot("manoeuvre", "stratege", seed=1, iterations=30),
            "south": make_bot("manoeuvre", "maladroit", seed=2)}
    for _ in range(120):
        if game.outcome is not None:
            break
        seat = game.to_act()[0]
        action = bots[seat].choose(game.view(seat), seat, game.legal_actions(seat))
        assert action in game.legal(seat)
        game.act(seat, action)


@pytest.mark.slow
def test_the_evaluation_is_zero_sum_as_the_search_assumes():
    game = new_game("manoeuvre", seed=7)
    bots = {seat: make_bot("manoeuvre", "maladroit", seed=i) for i, seat in enumerate(game.seats)}
    checked = 0
    while game.outcome is None and game.version < 400:
        if game.view(None)["phase"] == "battle":
            for side in game.seats:
                assert evaluate(game.state, side) == pytest.approx(-evaluate(game.state, OTHER_SIDE[side]))
            checked += 1
        seat = game.to_act()[0]
        play_turn_of(game, seat, bots[seat])
    assert checked > 20


def test_a_bot_given_a_seat_view_cannot_reach_the_hidden_deployment():
    game = new_game("manoeuvre", seed=9)
    north = make_bot("manoeuvre", "maladroit", seed=1)
    while "north" in game.to_act():
        play_turn_of(game, "north", north)
    south_view = game.view("south")
    rebuilt = make_bot("manoeuvre", "stratege", seed=3).rules.state_from_view(south_view, "south")
    assert all(el.cell is None for el in rebuilt.elements.values() if el.side == "north")
    assert game.ruleset.state_from_view(south_view, "south").board == {}


def test_bots_deploy_in_formation_not_at_random():
    game = new_game("manoeuvre", seed=1)
    plan = deployment_plan(game.view("north"), "north", mirror=False)
    front = {eid for eid, cell in plan.items() if cell.endswith("2")}
    kinds = {e["id"]: e["kind"] for e in game.view("north")["elements"]}
    assert sorted(kinds[eid] for eid in front) == sorted(["chariot", "chariot", "bow", "bow", "bow", "blade", "blade",
                                                          "blade"])
    assert plan["n1"] == "f1"  # the general stays behind the line


def test_duel_alternates_sides_and_counts_every_game():
    result = duel("manoeuvre", "maladroit", "random", games=2, seed=5)
    assert result.games == 2 and result.a_wins + result.b_wins + result.unfinished == 2


@pytest.mark.slow
def test_a_duel_on_two_processes_plays_the_very_same_games():
    alone = duel("manoeuvre", "maladroit", "random", games=4, seed=3)
    shared = duel("manoeuvre", "maladroit", "random", games=4, seed=3, jobs=2)
    assert (alone.a_wins, alone.b_wins, alone.unfinished) == (shared.a_wins, shared.b_wins, shared.unfinished)
    assert [duel_game("manoeuvre", "maladroit", "random", n, seed=3) for n in range(4)].count("a") == alone.a_wins


def test_wilson_interval():
    p, low, high = wilson(150, 200)
    assert p == 0.75 and 0.68 < low < 0.75 < high < 0.81


def test_duel_command_prints_rates_with_confidence_intervals():
    from typer.testing import CliRunner

    from kadesh.cli import app

    result = CliRunner().invoke(app, ["duel", "manoeuvre", "--a", "maladroit", "--b", "random", "--games", "2"])
    assert result.exit_code == 0, result.output
    assert "95 % CI" in result.output and "maladroit win rate" in result.output


def _battle_for_stratege(seed: int = 21):
    game = new_game("manoeuvre", seed=seed)
    deployer = make_bot("manoeuvre", "maladroit", seed=1)
    while game.view(None)["phase"] == "deployment":
        play_turn_of(game, game.to_act()[0], deployer)
    return game


class FrozenClock:
    """A clock for the search: still (a machine as fast as can be), or leaping ``step`` seconds a reading."""

    def __init__(self, step: float = 0.0) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_strateges_default_is_an_iteration_budget_that_load_does_not_change(monkeypatch):
    """The same iterations whatever the clock says (issue 24): a duel's result does not depend on how busy the
    machine is; only a machine slower than the 1 s ceiling allows cuts the search short."""
    import kadesh.ai.mcts
    from kadesh.ai.manoeuvre import DEFAULT_ITERATIONS

    game = _battle_for_stratege()
    seat = game.to_act()[0]
    chosen = []
    for step in (0.0, 0.0001):  # a quiet machine, then one several times slower: same search, same move
        monkeypatch.setattr(kadesh.ai.mcts.time, "perf_counter", FrozenClock(step))
        stratege = make_bot("manoeuvre", "stratege", seed=5)
        chosen.append(stratege.choose(game.view(seat), seat, game.legal_actions(seat)))
        assert stratege.search.last_iterations == DEFAULT_ITERATIONS
    assert chosen[0] == chosen[1]
    monkeypatch.setattr(kadesh.ai.mcts.time, "perf_counter", FrozenClock(10.0))  # past the ceiling at once
    stratege = make_bot("manoeuvre", "stratege", seed=5)
    stratege.choose(game.view(seat), seat, game.legal_actions(seat))
    assert stratege.search.last_iterations == 2
    timed = make_bot("manoeuvre", "stratege", seed=5, budget=0.5)  # --bot-budget: a time budget, no count
    assert timed.search.iterations is None and timed.search.budget == 0.5

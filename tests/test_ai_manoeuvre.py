"""Computer opponents: always legal, never seeing what their seat may not see."""

from __future__ import annotations

import pytest

from kadesh import new_game
from kadesh.ai.base import levels, make_bot, play_turn_of
from kadesh.ai.duel import duel, duel_game, wilson
from kadesh.ai.manoeuvre import (
    DEEP_MOVES,
    SUPPORT_WEIGHT,
    ManoeuvreKnowledge,
    _fight,
    deployment_plan,
    evaluate,
    fight_gain,
    plausible,
)
from kadesh.rules.manoeuvre import rules
from kadesh.rules.manoeuvre.data import OTHER_SIDE
from kadesh.rules.manoeuvre.state import BATTLE


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
    machine is; only a machine too slow for the decision's share of the turn budget (issue 44) cuts the search
    short."""
    import kadesh.ai.mcts
    from kadesh.ai.manoeuvre import DEFAULT_ITERATIONS

    game = _battle_for_stratege()
    seat = game.to_act()[0]
    chosen, searched = [], []
    for step in (0.0, 0.0001):  # a quiet machine, then one several times slower: same search, same move
        monkeypatch.setattr(kadesh.ai.mcts.time, "perf_counter", FrozenClock(step))
        stratege = make_bot("manoeuvre", "stratege", seed=5)
        chosen.append(stratege.choose(game.view(seat), seat, game.legal_actions(seat)))
        searched.append(stratege.search.last_iterations)
        assert stratege.searches() == (1, 0)  # what bench_ai counts: no decision cut, the quiet machine's play
    assert chosen[0] == chosen[1] and searched[0] == searched[1]
    assert 100 < searched[0] <= DEFAULT_ITERATIONS  # all of them, or as many as could change the choice
    monkeypatch.setattr(kadesh.ai.mcts.time, "perf_counter", FrozenClock(10.0))  # past the ceiling at once
    stratege = make_bot("manoeuvre", "stratege", seed=5)
    stratege.choose(game.view(seat), seat, game.legal_actions(seat))
    assert stratege.search.last_iterations == 2
    assert stratege.searches() == (1, 1)
    timed = make_bot("manoeuvre", "stratege", seed=5, budget=0.5)  # --bot-budget: a time budget, no count
    assert timed.search.iterations is None and timed.search.budget == 0.5


def test_a_turn_clock_shares_what_is_left_of_the_turn_among_the_decisions_left():
    from kadesh.ai.turn_clock import TurnClock

    now = [0.0]
    clock = TurnClock(3.0, 0.02, clock=lambda: now[0])
    clock.begin(("north", 1))
    assert clock.share(4) == pytest.approx(0.75)
    now[0] = 1.5  # the first decisions took half the turn
    clock.begin(("north", 1))
    assert clock.share(3) == pytest.approx(0.5)
    now[0] = 2.99
    assert clock.share(2) == 0.02  # the turn's time spent: the floor
    clock.begin(("north", 3))  # a new turn of the seat: its own allowance again
    assert clock.share(4) == pytest.approx(0.75)
    clock.begin(("north", 3), started=1.49)  # told by the server: the turn began 1.5 s ago
    assert clock.share(3) == pytest.approx(0.5)


def _recorded_budgets(stratege, monkeypatch) -> list:
    budgets = []
    search = stratege.search.best_action

    def best_action(state, seat, legal, started=None, budget=None):
        budgets.append(budget)
        return search(state, seat, legal, started, budget)

    monkeypatch.setattr(stratege.search, "best_action", best_action)
    return budgets


def test_strateges_decisions_share_its_turn_budget(monkeypatch):
    """Each decision of a turn gets what is left of TURN_BUDGET (less the reserve) over the decisions left;
    the first decision of the next turn gets a whole turn's share again (issue 44)."""
    from kadesh.ai.manoeuvre import TURN_BUDGET, TURN_RESERVE, decisions_left

    game = _battle_for_stratege()
    seat = game.to_act()[0]
    clock = FrozenClock(0.001)
    stratege = make_bot("manoeuvre", "stratege", seed=5, iterations=20, clock=clock)
    budgets, lefts, turn = _recorded_budgets(stratege, monkeypatch), [], game.view(seat)["turn"]
    while game.to_act() == [seat] and game.view(seat)["turn"] == turn:
        view, legal = game.view(seat), game.legal_actions(seat)
        lefts.append(decisions_left(view, seat))
        begun = clock.now
        game.act(seat, stratege.choose(view, seat, legal))
        spent = clock.now - begun
        if spent:  # a searched decision: what was left, shared
            assert budgets[-1] == pytest.approx((TURN_BUDGET - TURN_RESERVE - begun - 0.001) / lefts[-1], abs=0.002)
    assert len(budgets) >= 2 and lefts[0] == 12 and budgets[0] == pytest.approx(2.8 / 12, abs=0.002)


def test_a_strateges_whole_turn_stays_within_its_budget_on_a_slow_machine():
    """A clock that leaps 10 ms at each reading: 300 iterations would take 6 s a decision, a turn over a minute.
    The turn budget cuts each decision to its share: the whole turn, from its first decision to its end,
    stays within TURN_BUDGET."""
    from kadesh.ai.manoeuvre import TURN_BUDGET

    game = _battle_for_stratege()
    seat = game.to_act()[0]
    clock = FrozenClock(0.01)
    stratege = make_bot("manoeuvre", "stratege", seed=5, clock=clock)
    begun, decisions, searched = clock.now, 0, []
    while game.to_act() == [seat]:
        game.act(seat, stratege.choose(game.view(seat), seat, game.legal_actions(seat)))
        decisions += 1
        searched.append(stratege.search.last_iterations)
    assert decisions >= 3 and clock.now - begun <= TURN_BUDGET
    assert searched[0] > 2  # the first decisions had time to search, not only the floor


def test_a_strateges_turn_counts_from_when_the_server_says_it_began(monkeypatch):
    """A worker may make a bot again mid-turn (another process played its first decisions): the turn's start
    comes from the store, and a turn that began a whole budget ago leaves only the floor."""
    from kadesh.ai.manoeuvre import DECISION_FLOOR, TURN_BUDGET
    from kadesh.server.worker import turn_began_at

    game = _battle_for_stratege()
    seat = game.to_act()[0]
    game.written_at = list(range(game.version + 1))
    assert turn_began_at(game, seat) == game.turn_began[seat]
    stratege = make_bot("manoeuvre", "stratege", seed=5, iterations=10, clock=FrozenClock(0.0))
    budgets = _recorded_budgets(stratege, monkeypatch)
    stratege.turn_started(TURN_BUDGET)
    stratege.choose(game.view(seat), seat, game.legal_actions(seat))
    fresh = make_bot("manoeuvre", "stratege", seed=5, iterations=10, clock=FrozenClock(0.0))
    fresh_budgets = _recorded_budgets(fresh, monkeypatch)
    fresh.choose(game.view(seat), seat, game.legal_actions(seat))
    assert budgets == [DECISION_FLOOR] and fresh_budgets[0] > 0.2


def test_a_search_stops_once_the_iterations_left_could_not_change_its_choice(monkeypatch):
    """The most visited action is chosen: once its lead is larger than the iterations left, the rest would
    change nothing. The same seed with every iteration run chooses the same."""
    import kadesh.ai.mcts

    game = _battle_for_stratege()
    seat = game.to_act()[0]
    stopping = make_bot("manoeuvre", "stratege", seed=5, clock=FrozenClock(0.0))  # no turn budget binds
    chosen = stopping.choose(game.view(seat), seat, game.legal_actions(seat))
    monkeypatch.setattr(kadesh.ai.mcts, "settled", lambda root, left: False)
    full = make_bot("manoeuvre", "stratege", seed=5, clock=FrozenClock(0.0))
    assert full.choose(game.view(seat), seat, game.legal_actions(seat)) == chosen
    assert stopping.search.last_iterations < full.search.last_iterations == full.search.iterations


def test_the_next_decision_of_a_turn_starts_from_what_the_search_already_knows():
    """After a move (no die decided it), the next decision stands in the position the search had explored under
    that move: it starts from those counts, and the iteration budget counts them. After a fight, or in any other
    position, it starts afresh."""
    from kadesh.ai.manoeuvre import DEFAULT_ITERATIONS

    game = _battle_for_stratege()
    seat = game.to_act()[0]
    stratege = make_bot("manoeuvre", "stratege", seed=5, clock=FrozenClock(0.0))
    first_view, first_legal = game.view(seat), game.legal_actions(seat)
    carried, previous = [], None
    while game.to_act() == [seat]:
        action = stratege.choose(game.view(seat), seat, game.legal_actions(seat))
        if stratege.search.searches and previous is not None:
            carried.append((previous, stratege.search.last_carried))
            assert stratege.search.last_carried <= stratege.search.last_iterations <= DEFAULT_ITERATIONS
        game.act(seat, action)
        previous = action["type"]
    assert any(count > 0 for kind, count in carried if kind in ("move", "turn"))
    assert all(count == 0 for kind, count in carried if kind in ("attack", "shoot"))
    stratege.choose(first_view, seat, first_legal)  # not where its last choice led: nothing to start from
    assert stratege.search.last_carried == 0 and stratege.search.last_iterations > 0


@pytest.mark.parametrize("seed", [0, 3])
def test_the_searchs_fight_gain_is_the_engagements_and_leaves_the_state_as_it_was(seed):
    """``fight_gain`` works on the state itself, without the rules' checks: over every fight of seeded games it
    gives what the checked engagement on a copy gives, and puts the state back."""
    checked = 0
    for state in _battle_positions(seed, 600):
        before = state.copy()
        for action in rules.fight_actions(state, state.active):
            _, _, effects, gain = _fight(state, action)
            assert fight_gain(state, action) == pytest.approx(gain / sum(effects.values()))
            assert state == before and state.board == before.board
            checked += 1
    assert checked > 50


def _battle_positions(seed: int, versions: int):
    """The battle's positions of a seeded game between two Maladroits, up to ``versions`` actions."""
    game = new_game("manoeuvre", seed=seed)
    bots = {side: make_bot("manoeuvre", "maladroit", seed=i) for i, side in enumerate(game.seats)}
    while game.outcome is None and game.version < versions:
        if game.state.phase == "battle":
            yield game.state
        play_turn_of(game, game.to_act()[0], bots[game.to_act()[0]])


@pytest.mark.parametrize("seed", [1, 5])
def test_the_searchs_candidates_below_the_root_read_only_what_they_need_and_are_those_of_every_move(seed):
    """Below the root the candidates take their fights from ``fight_actions`` and read the legal actions lazily;
    over every position of seeded games they are what the whole legal list, weighed in full, gives."""
    knowledge = ManoeuvreKnowledge()
    checked = 0
    for state in _battle_positions(seed, 500):
        side = state.active
        options = plausible(state, side, list(rules.legal_actions(state, side)))
        gains = sorted(((fight_gain(state, a), a) for a in options if a["type"] in ("attack", "shoot")),
                       key=lambda pair: pair[0], reverse=True)
        moves = [a for a in options if a["type"] in ("move", "turn")]
        whole = [a for gain, a in gains if gain > 0] + [{"type": "end_turn"}] + moves[:DEEP_MOVES]
        assert knowledge.candidates(state, side, rules.legal_actions(state, side)) == whole
        checked += 1
    assert checked > 50


def test_a_rear_support_counts_for_the_side_that_has_it():
    """A friend behind, facing the same way (+1 in every close combat), is worth ``SUPPORT_WEIGHT`` points."""
    game = new_game("manoeuvre", seed=0)
    state = game.state
    state.phase, state.turn, state.active = BATTLE, 1, "north"
    north = [e for e in state.elements.values() if e.side == "north" and e.kind.name == "blade"][:2]
    south = next(e for e in state.elements.values() if e.side == "south" and e.kind.name == "blade")
    state.place(north[0], (5, 5))
    state.place(south, (5, 9))
    alone = evaluate(state, "north")
    state.place(north[1], (5, 4))  # behind the first blade, which faces south: the second one faces south too
    assert north[1].facing == north[0].facing == "S"
    supported = evaluate(state, "north")
    state.place(north[1], (4, 4))  # beside, not behind: no support
    beside = evaluate(state, "north")
    assert supported - beside == pytest.approx(SUPPORT_WEIGHT)
    assert supported > alone

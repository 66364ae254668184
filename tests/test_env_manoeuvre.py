"""The Manœuvre PettingZoo environment: PettingZoo's own conformance suites, then the mask and the game."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from kadesh.envs import manoeuvre_v0
from kadesh.envs.manoeuvre_v0 import (
    ACTION_COUNT,
    OBSERVATION_SHAPE,
    RESIGN,
    action_to_index,
    encode_view,
    index_to_action,
)

# api_test's advice for its own classic games: a dict observation, agents named like "player_0".
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:We recommend agents to be named"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
]


def _play(env, policy_seed: int, steps: int | None = None, resign: bool = True):
    """Random masked play through ``agent_iter``; returns the final rewards by agent."""
    rng = np.random.default_rng(policy_seed)
    final = {}
    for agent in env.agent_iter(2**63 if steps is None else steps):
        observation, reward, terminated, truncated, _ = env.last()
        final[agent] = reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = observation["action_mask"].copy()
        if not resign:
            mask[RESIGN] = 0
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return final


def _check_mask(raw) -> int:
    """The mask of the selected agent marks exactly its legal actions; returns how many charges it holds."""
    game, agent = raw.game, raw.agent_selection
    legal = game.legal_actions(agent)
    mask = raw.observe(agent)["action_mask"]
    view = game.view(agent)
    indices = [action_to_index(agent, action, view) for action in legal]
    assert len(set(indices)) == len(legal)
    assert set(np.flatnonzero(mask)) == set(indices)
    for index, action in zip(indices, legal, strict=True):
        assert index_to_action(agent, index, view) == action
    other = "south" if agent == "north" else "north"
    assert not raw.observe(other)["action_mask"].any()
    return sum(1 for action in legal if "from" in action)


# -- PettingZoo's conformance suites -----------------------------------------------------
def test_api_test_passes():
    api_test(manoeuvre_v0.env(), num_cycles=1000)


def test_api_test_passes_through_a_whole_battle_without_resign():
    api_test(manoeuvre_v0.env(allow_resign=False, max_actions=3000), num_cycles=1600)


def test_seed_test_passes():
    seed_test(manoeuvre_v0.env, num_cycles=500)
    seed_test(lambda: manoeuvre_v0.env(allow_resign=False), num_cycles=500)


def test_metadata_and_spaces():
    raw = manoeuvre_v0.raw_env()
    assert raw.metadata == {"name": "manoeuvre_v0", "render_modes": ["ansi"], "is_parallelizable": False}
    assert raw.possible_agents == ["north", "south"]
    assert raw.action_space("north").n == ACTION_COUNT == 9567
    assert raw.observation_space("south")["observation"].shape == OBSERVATION_SHAPE == (12, 12, 51)


# -- the action table and the mask -----------------------------------------------------
def test_action_table_maps_both_ways():
    for seat in ("north", "south"):
        for index in range(ACTION_COUNT):
            action = manoeuvre_v0._TABLES[seat][index]
            if "side" not in action:
                assert action_to_index(seat, index_to_action(seat, index)) == index
    assert index_to_action("north", RESIGN) == {"type": "resign"}
    assert action_to_index("south", {"element": "s5", "type": "undeploy"}) == action_to_index(
        "south", {"type": "undeploy", "element": "s5"})
    with pytest.raises(ValueError):
        action_to_index("north", {"type": "undeploy", "element": "s5"})


def test_mask_is_exactly_the_legal_actions_in_random_positions():
    charges = 0
    for seed in range(4):
        raw = manoeuvre_v0.raw_env(allow_resign=True)
        raw.reset(seed=seed)
        rng = random.Random(seed)
        checkpoints = set(rng.sample(range(1, 1500), 25)) | {0}
        for step in range(1500):
            if raw.game.outcome is not None:
                break
            if step in checkpoints:
                charges += _check_mask(raw)
            mask = raw.observe(raw.agent_selection)["action_mask"]
            mask[RESIGN] = 0
            raw.step(int(rng.choice(list(np.flatnonzero(mask)))))
    assert charges > 0  # attacks with "from" were among the checked actions


def test_resign_may_be_left_out_of_the_mask():
    raw = manoeuvre_v0.raw_env(allow_resign=False)
    raw.reset(seed=1)
    assert raw.observe("north")["action_mask"][RESIGN] == 0
    with pytest.raises(ValueError):
        raw.step(RESIGN)


def test_raw_env_refuses_an_illegal_action_and_env_ends_the_game():
    raw = manoeuvre_v0.raw_env()
    raw.reset(seed=2)
    end_turn = manoeuvre_v0.END_TURN  # not legal while deploying
    with pytest.raises(ValueError):
        raw.step(end_turn)
    wrapped = manoeuvre_v0.env()
    wrapped.reset(seed=2)
    wrapped.step(end_turn)  # TerminateIllegalWrapper logs a warning and ends the game
    assert wrapped.terminations["north"]
    assert wrapped.rewards["north"] == -1


# -- observation, seeding, turn flow -------------------------------------------------------
def test_observation_comes_from_the_view_and_hides_the_enemy_deployment():
    raw = manoeuvre_v0.raw_env()
    raw.reset(seed=5)
    before = raw.observe("south")["observation"]
    for k in range(1, 7):  # north deploys n1..n6
        mask = raw.observe("north")["action_mask"]
        deploys = [raw.action_of("north", i) for i in np.flatnonzero(mask)]
        action = next(a for a in deploys if a["type"] == "deploy" and a["element"] == f"n{k}")
        raw.step(raw.index_of("north", action))
    after = raw.observe("south")["observation"]
    np.testing.assert_array_equal(before[:, :, :50], after[:, :, :50])  # all but the clock
    north = raw.observe("north")["observation"]
    assert north[:, :, :5].sum() == 6
    np.testing.assert_array_equal(north, encode_view(raw.game.view("north"), "north", raw.max_actions))
    assert north.dtype == np.float32 and north.min() >= 0 and north.max() <= 1


def test_same_seed_same_game_and_dice():
    records = []
    for _ in range(2):
        env = manoeuvre_v0.env(allow_resign=False)
        env.reset(seed=11)
        _play(env, policy_seed=3, steps=800, resign=False)
        records.append(env.unwrapped.game.to_record())
    assert records[0] == records[1]
    other = manoeuvre_v0.env()
    other.reset(seed=12)
    assert other.unwrapped.game.seed != records[0]["seed"]


def test_truncation_after_max_actions_gives_no_reward():
    env = manoeuvre_v0.env(max_actions=40, allow_resign=False)
    env.reset(seed=4)
    final = _play(env, policy_seed=4, resign=False)
    assert env.agents == []
    assert final == {"north": 0, "south": 0}
    assert env.unwrapped.game.version == 40 and env.unwrapped.game.outcome is None


def test_render_ansi_draws_the_board():
    env = manoeuvre_v0.env(render_mode="ansi", allow_resign=False)
    env.reset(seed=6)
    policy = 6
    while env.unwrapped.game.view(None)["phase"] != "battle":  # random deployment takes a while
        policy += 1
        _play(env, policy_seed=policy, steps=100, resign=False)
    _play(env, policy_seed=policy, steps=20, resign=False)
    text = env.render()
    assert text.splitlines()[0].split() == list("abcdefghijkl")
    assert "phase battle" in text
    assert any(ch in text for ch in "^>v<")


# -- whole games ----------------------------------------------------------------------------
def test_random_game_with_resign_ends_zero_sum():
    for seed in range(5):
        env = manoeuvre_v0.env()
        env.reset(seed=seed)
        final = _play(env, policy_seed=seed)
        assert env.agents == []
        assert sorted(final.values()) == [-1, 1]


@pytest.mark.slow
def test_random_games_without_resign_end_by_break_zero_sum():
    for seed in range(4):
        env = manoeuvre_v0.env(allow_resign=False, max_actions=20000)
        env.reset(seed=seed)
        final = _play(env, policy_seed=seed, resign=False)
        outcome = env.unwrapped.game.outcome
        assert env.agents == []
        assert outcome is not None and outcome["reason"] == "break"
        assert sum(final.values()) == 0
        assert final[outcome["winner"]] == 1

"""The Front PettingZoo environment: PettingZoo's conformance suites, the (slot, variant, cell) encoding
against the ruleset's legal actions, observations drawn from the view alone, whole games."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from kadesh.core import get_ruleset
from kadesh.envs import front_v0
from kadesh.envs.front_v0 import END_TURN, ORDER_INDEX, ORDERS, Layout, encode_view

pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:We recommend agents to be named"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
]


def _play(env, policy_seed: int, steps: int | None = None):
    """Random masked play through ``agent_iter``; returns the last reward seen by each agent."""
    rng = np.random.default_rng(policy_seed)
    final = {}
    for agent in env.agent_iter(2**63 if steps is None else steps):
        observation, reward, terminated, truncated, _ = env.last()
        final[agent] = reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return final


def _offered(raw) -> set[tuple[int, int, int]]:
    """Every triple the selected agent can build by following the masks from its current step."""
    saved, found = list(raw._choice), set()

    def walk(prefix):
        raw._choice = list(prefix)
        choices = np.flatnonzero(raw.action_mask(raw.agent_selection))
        for choice in choices:
            if len(prefix) == 2:
                found.add((*prefix, int(choice)))
            else:
                walk((*prefix, int(choice)))

    walk(())
    raw._choice = saved
    return found


def _check_encoding(raw) -> set[str]:
    """Each legal order is one triple and back, and the masks offer exactly those triples."""
    agent, layout = raw.agent_selection, raw.layout
    units = front_v0._units(raw.game.view(agent))
    everything = raw.game.legal_actions(agent)
    assert {"type": "resign"} in everything  # legal to the side, never offered to the agent
    legal = [action for action in everything if action["type"] not in front_v0.UNOFFERED]
    triples = [layout.triple(agent, action, units) for action in legal]
    assert len(set(triples)) == len(legal)
    for triple, action in zip(triples, legal, strict=True):
        assert layout.action(agent, triple, units) == action
        assert all(0 <= part < layout.size for part in triple)
    assert _offered(raw) == set(triples)
    assert list(raw.legal(agent).values()) == legal
    other = "red" if agent == "blue" else "blue"
    assert not raw.observe(other)["action_mask"].any()
    return {ORDERS[variant] for _, variant, _ in triples}


# -- PettingZoo's conformance suites -------------------------------------------------------
def test_api_test_passes():
    api_test(front_v0.env(), num_cycles=400)


def test_api_test_passes_three_steps_an_order():
    api_test(front_v0.env(skip_forced=False), num_cycles=300)


def test_seed_test_passes():
    seed_test(front_v0.env, num_cycles=300)


def test_metadata_and_spaces():
    raw = front_v0.raw_env()
    assert raw.metadata == {"name": "front_v0", "render_modes": ["ansi"], "is_parallelizable": False}
    assert raw.possible_agents == ["blue", "red"]
    assert raw.layout == Layout(width=10, height=6, slots=3)
    assert raw.action_space("blue").n == raw.layout.size == 61  # the 60 cells and "no cell"
    shape = raw.observation_space("red")["observation"].shape
    assert shape == raw.layout.observation_shape == (6, 10, 157)  # 154 planes and the 3 slots
    assert front_v0.raw_env(scenario="test_air").layout == Layout(width=14, height=10, slots=10)


# -- the encoding ------------------------------------------------------------------------------
def _orders_checked(scenario: str, seeds: int, actions: int, every: int) -> set[str]:
    """Random masked games of ``scenario``; the encoding checked at every ``every``-th order played."""
    seen: set[str] = set()
    for seed in range(seeds):
        raw = front_v0.raw_env(scenario=scenario)
        raw.reset(seed=seed)
        rng = np.random.default_rng(seed)
        checked = -1
        while raw.game.outcome is None and raw.game.version < actions:
            if not raw._choice and raw.game.version % every == 0 and raw.game.version != checked:
                checked = raw.game.version
                seen |= _check_encoding(raw)
            raw.step(int(rng.choice(np.flatnonzero(raw.action_mask(raw.agent_selection)))))
    return seen


@pytest.mark.parametrize(("scenario", "actions", "every"), [("test_small", 100, 1), ("test_mixed", 120, 2),
                                                            ("test_air", 60, 2), ("mission_general", 24, 3)])
def test_every_legal_order_is_one_triple_and_back(scenario, actions, every):
    assert {"end_turn", "move", "shoot"} <= _orders_checked(scenario, 1, actions, every)


# Left to test_orders_rare_in_random_play_round_trip_too: no random game here destroys a building (clear),
# brings a red kamikaze drone in reach (strike), and no bomb hits an aircraft in flight (bomb_air).
RARE = {"clear", "strike", "strike_air", "bomb_air"}


@pytest.mark.slow
def test_every_legal_order_of_longer_games_is_one_triple_and_back():
    seen = set()
    for scenario, actions in (("test_small", 200), ("test_mixed", 400), ("test_air", 300), ("mission_general", 150)):
        seen |= _orders_checked(scenario, 2, actions, 2)
    assert seen == set(ORDERS) - RARE


def test_orders_rare_in_random_play_round_trip_too():
    layout = Layout(width=10, height=6, slots=5)
    units = {"b1": {"id": "b1", "side": "blue", "type": "engineer", "cell": "C3"},
             "b2": {"id": "b2", "side": "blue", "type": "truck", "cell": "D3", "flying": False},
             "b3": {"id": "b3", "side": "blue", "type": "infantry", "cell": "D3", "aboard": "b2"},
             "b4": {"id": "b4", "side": "blue", "type": "kamikaze_drone", "cell": "E4", "flying": True},
             "b5": {"id": "b5", "side": "blue", "type": "heavy_tank", "cell": "F4"}}
    actions = [{"type": "clear", "unit": "b1", "cell": "C4"},
               {"type": "unload", "unit": "b2", "passenger": "b3", "to": "E3"},
               {"type": "strike", "unit": "b4", "target": "E5", "at": "air"},
               {"type": "strike", "unit": "b4", "target": "E5"},
               {"type": "shoot", "unit": "b5", "target": "H4", "at": "structure", "weapon": "rocket"},
               {"type": "build", "unit": "b1", "kind": "dragons_teeth", "cell": "B2"},
               {"type": "end_patrol", "unit": "b2"},
               {"type": "end_turn"}]
    for action in actions:
        triple = layout.triple("blue", action, units)
        assert layout.action("blue", triple, units) == action
    assert layout.triple("blue", actions[1], units) == (3, ORDER_INDEX["unload"], layout.cell("E3"))
    assert layout.triple("blue", {"type": "end_turn"}, units) == (0, END_TURN, layout.no_cell)
    with pytest.raises(ValueError):
        layout.triple("blue", {"type": "move", "unit": "r1", "to": "A1"}, units)


def test_orders_cover_every_weapon_and_structure_of_the_glossary():
    glossary = get_ruleset("front").glossary
    assert {f"build_{kind}" for kind in glossary["structures"]} <= set(ORDERS)
    assert max(len(unit["weapons"]) for unit in glossary["units"].values()) == 2  # main, and "weapon"


# -- stepping, masks, observations --------------------------------------------------------------
def test_a_choice_off_the_mask_is_refused_and_env_ends_the_game():
    raw = front_v0.raw_env()
    raw.reset(seed=2)
    off = int(np.flatnonzero(raw.action_mask("blue") == 0)[-1])
    with pytest.raises(ValueError):
        raw.step(off)
    wrapped = front_v0.env()
    wrapped.reset(seed=2)
    wrapped.step(off)
    assert wrapped.terminations["blue"] and wrapped.rewards["blue"] == -1


def test_an_order_takes_three_choices_and_changes_the_game_only_then():
    raw = front_v0.raw_env(skip_forced=False)
    raw.reset(seed=3)
    ch = raw.layout.channels
    raw.step(1)  # b1, the infantry
    observation = raw.observe("blue")["observation"]
    assert observation[0, 0, ch["step"] + 1] == 1 and observation[0, 0, ch["chosen_unit"]] == 1  # b1 on A1
    raw.step(ORDER_INDEX["move"])
    assert raw.game.version == 0 and raw.agent_selection == "blue" and raw.rewards == {"blue": 0, "red": 0}
    raw.step(raw.layout.cell("B1"))
    assert raw.game.version == 1 and raw.game.actions[0]["action"] == {"type": "move", "unit": "b1", "to": "B1"}
    raw.step(0)
    raw.step(END_TURN)
    raw.step(raw.layout.no_cell)
    assert raw.agent_selection == "red"


def test_forced_choices_are_played_at_once():
    raw = front_v0.raw_env()
    raw.reset(seed=3)
    raw.step(0)  # the end-turn slot has one completion
    assert raw.game.actions[-1]["action"] == {"type": "end_turn"} and raw.agent_selection == "red"


def test_observation_is_the_view_encoded():
    raw = front_v0.raw_env(scenario="test_mixed")
    raw.reset(seed=4)
    _play(raw, policy_seed=4, steps=60)
    agent = raw.agent_selection
    observation = raw.observe(agent)["observation"]
    choice = tuple(raw._choice)
    expected = encode_view(raw.game.view(agent), agent, raw.layout, choice, raw.max_actions)
    np.testing.assert_array_equal(observation, expected)
    assert observation.dtype == np.float32 and observation.min() >= 0 and observation.max() <= 1
    assert raw.observation_space(agent)["observation"].contains(observation)


def _with_hidden_red(extra: bool) -> str:
    from importlib import resources

    text = resources.files("kadesh.rules.front").joinpath("scenarios", "test_small.toml").read_text("utf-8")
    return text + ('\n[[units]]\nside = "red"\ntype = "infantry"\ncell = "J6"\n' if extra else "")


def test_an_enemy_unit_out_of_sight_changes_nothing_the_agent_gets():
    envs = [front_v0.raw_env(options={"scenario_toml": _with_hidden_red(extra)}) for extra in (False, True)]
    assert envs[0].layout == envs[1].layout  # red's third unit fits the slots blue's three need
    for raw in envs:
        raw.reset(seed=5)
    assert envs[1].game.view("blue")["sight"][5][9] == "0"  # J6 is out of blue's sight
    rng = np.random.default_rng(5)
    while envs[0].agent_selection == "blue":
        first, second = (raw.observe("blue") for raw in envs)
        np.testing.assert_array_equal(first["observation"], second["observation"])
        np.testing.assert_array_equal(first["action_mask"], second["action_mask"])
        choice = int(rng.choice(np.flatnonzero(first["action_mask"])))
        for raw in envs:
            raw.step(choice)
    assert envs[0].game.version > 1


def test_render_ansi_draws_the_side_s_view():
    wrapped = front_v0.env(render_mode="ansi")
    wrapped.reset(seed=6)
    text = wrapped.render()
    assert text.splitlines()[0].split() == list("ABCDEFGHIJ")
    assert "b3" in text and "r1" not in text and "as blue sees it" in text


# -- whole games ---------------------------------------------------------------------------------
def test_random_masked_games_end_zero_sum():
    for seed in range(3):
        wrapped = front_v0.env()
        wrapped.reset(seed=seed)
        final = _play(wrapped, policy_seed=seed)
        outcome = wrapped.unwrapped.game.outcome
        assert wrapped.agents == [] and outcome is not None
        assert sum(final.values()) == 0 and final[outcome["winner"]] == 1


def test_same_seed_same_game():
    records = []
    for _ in range(2):
        wrapped = front_v0.env(scenario="test_mixed")
        wrapped.reset(seed=11)
        _play(wrapped, policy_seed=3, steps=200)
        records.append(wrapped.unwrapped.game.to_record())
    assert records[0] == records[1]


def test_truncation_after_max_actions_gives_no_reward():
    wrapped = front_v0.env(scenario="test_mixed", max_actions=30)
    wrapped.reset(seed=4)
    final = _play(wrapped, policy_seed=4)
    assert wrapped.agents == [] and final == {"blue": 0, "red": 0}
    assert wrapped.unwrapped.game.version == 30 and wrapped.unwrapped.game.outcome is None

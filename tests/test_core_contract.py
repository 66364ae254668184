"""The core contract: dice, grid geometry, records, and a simultaneous-orders ruleset."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from kadesh import RuleError, ScriptedDice, load_game, new_game
from kadesh.cli import app
from kadesh.core import Event, Ruleset, register
from kadesh.core.dice import DiceExhausted, SeededDice, commitment, derive_roll
from kadesh.core.errors import NOT_YOUR_TURN, UNKNOWN_ACTION
from kadesh.core.grid import (
    board_neighbours,
    cell_index,
    chebyshev,
    distance_rows,
    line_between,
    manhattan,
    orthogonal_neighbours,
)


# -- dice -------------------------------------------------------------------------------------------
def test_seeded_rolls_follow_the_documented_derivation():
    assert [derive_roll("42", i, 6) for i in range(10)] == [6, 1, 6, 2, 1, 4, 6, 2, 2, 5]
    digest = hmac.new(b"42", b"0:0", hashlib.sha256).digest()
    assert derive_roll("42", 0, 6) == 1 + int.from_bytes(digest[:8], "big") % 6
    assert [derive_roll("kadesh", i, 20) for i in range(5)] == [13, 10, 5, 19, 17]



@pytest.mark.parametrize("seed", ["", "é" * 40, "k" * 64, "k" * 65, "long seed " * 30])
def test_seeded_rolls_are_hmac_sha256_of_the_seed_for_a_seed_of_any_length(seed):
    """The key hashed once per seed (``derive_roll``) gives what ``hmac.new`` gives, a seed longer than SHA-256's
    block included (hashed first, as RFC 2104 says)."""
    for index in range(8):
        digest = hmac.new(seed.encode(), f"{index}:0".encode(), hashlib.sha256).digest()
        assert derive_roll(seed, index, 1000) == 1 + int.from_bytes(digest[:8], "big") % 1000

def test_seeded_rolls_are_fair_enough():
    counts = Counter(derive_roll("fair", i, 6) for i in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(800 < n < 1200 for n in counts.values())


def test_commitment_is_sha256_of_the_seed():
    assert commitment("abc") == hashlib.sha256(b"abc").hexdigest()


def test_scripted_dice_give_their_values_then_refuse():
    dice = ScriptedDice([3, 5])
    assert [dice.roll(6).value, dice.roll(6).value] == [3, 5]
    with pytest.raises(DiceExhausted):
        dice.roll(6)
    with pytest.raises(ValueError):
        ScriptedDice([7]).roll(6)


def test_a_game_without_a_seed_draws_a_secret_256_bit_one():
    game = new_game("manoeuvre")
    assert len(game.seed) == 64 and isinstance(game.dice, SeededDice)
    assert game.seed not in repr(game.view(None)) + repr(game.view("north"))


# -- grid -------------------------------------------------------------------------------------------
cells = st.tuples(st.integers(-6, 6), st.integers(-6, 6))


@given(cells, cells)
def test_line_between_is_symmetric_and_strictly_between(a, b):
    line = line_between(a, b)
    assert sorted(line) == sorted(line_between(b, a))
    assert a not in line and b not in line
    assert all(chebyshev(a, c) < chebyshev(a, b) and chebyshev(b, c) < chebyshev(a, b) for c in line)


@pytest.mark.parametrize("metric", [chebyshev, manhattan])
def test_a_distance_table_holds_every_distance_of_its_board(metric):
    width, height = 5, 3
    rows = distance_rows(width, height, metric)
    cells = [(x, y) for x in range(width) for y in range(height)]
    assert set(rows) == set(cells)
    for a in cells:
        for b in cells:
            assert rows[a][cell_index(b, height)] == metric(a, b)


def test_board_neighbours_are_the_orthogonal_ones_on_the_board_in_order():
    width, height = 4, 3
    neighbours = board_neighbours(width, height)
    assert neighbours[(0, 0)] == ((1, 0), (0, 1))
    assert neighbours[(1, 1)] == orthogonal_neighbours((1, 1))
    for cell, around in neighbours.items():
        assert around == tuple(c for c in orthogonal_neighbours(cell) if 0 <= c[0] < width and 0 <= c[1] < height)


def test_line_between_examples():
    assert line_between((0, 0), (3, 0)) == ((1, 0), (2, 0))
    assert line_between((0, 0), (2, 2)) == ((1, 1),)
    assert sorted(line_between((0, 0), (2, 1))) == [(1, 0), (1, 1)]  # through a corner: both cells
    assert line_between((0, 0), (1, 1)) == ()


# -- records ----------------------------------------------------------------------------------------
def test_records_replay_with_scripted_dice():
    from tests.manoeuvre_setup import deploy_all

    game = new_game("manoeuvre", seed=9, dice=ScriptedDice([3, 2]))
    deploy_all(game, "north")
    replay = load_game(game.to_record())
    assert replay.view("north") == game.view("north") and replay.version == 12


def test_a_refused_action_leaves_the_record_unchanged():
    game = new_game("manoeuvre", seed=9)
    with pytest.raises(RuleError):
        game.act("north", {"type": "ready"})
    assert game.version == 0 and game.to_record()["actions"] == []


# -- a simultaneous-orders ruleset fits the same contract ------------------------------------------
@register
class SecretDuel(Ruleset):
    """Three seats each send one secret number; a referee seat reveals them, and the highest wins."""

    name = "test_secret_duel"
    version = "1"
    title = {"fr": "Duel secret", "en": "Secret duel"}

    def seats(self, options: dict[str, Any]) -> list[str]:
        return ["a", "b", "c", "referee"]

    def setup(self, options: dict[str, Any]) -> dict:
        return {"orders": {}, "revealed": False, "winner": None}

    def clone(self, state: dict) -> dict:
        return {**state, "orders": dict(state["orders"])}

    def to_act(self, state: dict) -> list[str]:
        if state["revealed"]:
            return []
        waiting = [s for s in ("a", "b", "c") if s not in state["orders"]]
        return waiting or ["referee"]

    def legal_actions(self, state, seat):
        if seat in self.to_act(state):
            if seat == "referee":
                yield {"type": "reveal"}
            else:
                yield from ({"type": "order", "value": v} for v in range(1, 4))

    def apply(self, state, seat, action, dice):
        if not isinstance(action, dict) or action.get("type") not in ("order", "reveal"):  # 422, as in every ruleset
            raise RuleError(UNKNOWN_ACTION, "Action inconnue.", "Unknown action.")
        if action not in list(self.legal_actions(state, seat)):
            raise RuleError(NOT_YOUR_TURN, "Pas maintenant.", "Not now.")
        if seat == "referee":
            roll = dice.roll(6)
            best = max(state["orders"].values())
            leaders = sorted(s for s, v in state["orders"].items() if v == best)
            state["winner"] = leaders[roll.value % len(leaders)]
            state["revealed"] = True
            return [Event("revealed", {"orders": dict(state["orders"]), "winner": state["winner"]})]
        state["orders"][seat] = action["value"]
        return [Event("order", {"seat": seat, "value": action["value"]}, (seat,)), Event("sent", {"seat": seat})]

    def view(self, state, seat):
        visible = state["orders"] if state["revealed"] or seat == "referee" else {
            s: v for s, v in state["orders"].items() if s == seat}
        return {"orders": visible, "sent": sorted(state["orders"])}

    def outcome(self, state):
        return {"winner": state["winner"], "reason": "highest"} if state["revealed"] else None

    def narrate(self, event, seat, lang):
        return f"{event.type}:{event.data.get('seat', '')}"


def test_simultaneous_secret_orders_fit_the_contract():
    game = new_game("test_secret_duel", seed=3)
    assert game.to_act() == ["a", "b", "c"]
    game.act("b", {"type": "order", "value": 3})
    assert game.to_act() == ["a", "c"]
    assert game.view("a") == {"orders": {}, "sent": ["b"], "version": 1, "outcome": None}
    assert game.journal("a") == ["sent:b"] and game.journal("b") == ["order:b", "sent:b"]
    game.act("a", {"type": "order", "value": 3})
    game.act("c", {"type": "order", "value": 1})
    with pytest.raises(RuleError):
        game.act("c", {"type": "order", "value": 2})
    game.act("referee", {"type": "reveal"})
    assert game.outcome["winner"] in ("a", "b")
    assert load_game(game.to_record()).outcome == game.outcome


# -- CLI --------------------------------------------------------------------------------------------
def test_simulate_prints_a_whole_narrated_game():
    result = CliRunner().invoke(app, ["simulate", "manoeuvre", "--seed", "3", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "Both sides are ready" in result.output and "wins" in result.output
    french = CliRunner().invoke(app, ["simulate", "manoeuvre", "--seed", "3"])
    assert "l'emporte" in french.output



def test_cheapest_steps_finds_the_cheapest_way_within_a_budget():
    from kadesh.core.grid import cheapest_steps, within

    # A 5×3 field: road along row 0 costs 1, meadow 2, a wall (None) at (2, 1).
    def cost(_from, to):
        x, y = to
        if not (0 <= x < 5 and 0 <= y < 3) or to == (2, 1):
            return None
        return 1 if y == 0 else 2

    reach = cheapest_steps((0, 1), cost, budget=4)
    assert reach[(0, 1)] == 0 and reach[(1, 0)] == 1 and reach[(3, 0)] == 3  # by the road, diagonally on
    assert (2, 1) not in reach and reach[(3, 1)] == 4 and (4, 1) not in reach
    assert sorted(within((0, 0), 1, 5, 3)) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_a_refusal_crosses_a_process_boundary_whole():
    """A duel's games run in worker processes: a refusal raised there must reach the parent as itself (it once
    failed to unpickle and left the pool waiting forever)."""
    import pickle

    from kadesh.core.errors import RuleError

    refused = pickle.loads(pickle.dumps(RuleError("cannot_fire_range", "Trop loin.", "Too far.", cell="B7")))
    assert isinstance(refused, RuleError)
    assert refused.to_dict() == {"code": "cannot_fire_range", "fr": "Trop loin.", "en": "Too far.", "cell": "B7"}

"""Dudo's rules, through Kadesh's core contract: scripted dice, every case of the text, nothing hidden leaked."""

from __future__ import annotations

import pytest

from kadesh.core import Event, RuleError, ScriptedDice, new_game
from kadesh.core.game import Game
from kadesh.core.registry import get_ruleset


def game_with(dice: list[int]) -> Game:
    """A game whose cups get ``dice`` in order (the North's five, then the South's)."""
    game = new_game("dudo", seed="test")
    game.dice = ScriptedDice(dice)
    return game


def test_shaking_rolls_every_die_and_each_player_sees_only_their_own():
    game = game_with([1, 3, 4, 4, 5, 2, 4, 6, 6, 6])
    game.act("north", {"type": "roll"})
    assert game.view("north")["my_dice"] == [1, 3, 4, 4, 5]
    assert game.view("south")["my_dice"] == [2, 4, 6, 6, 6]
    assert game.view(None)["my_dice"] == []
    north_lines = " ".join(line for _, line in game.journal_entries("north", "fr"))
    assert "1, 3, 4, 4, 5" in north_lines and "2, 4, 6, 6, 6" not in north_lines
    rolls = [event for _, event in game.events if event.type == "roll"]
    assert len(rolls) == 10 and all(event.audience == (event.data["seat"],) for event in rolls)


def test_a_bid_must_be_higher_and_on_a_face_from_two_to_six():
    game = game_with([1, 3, 4, 4, 5, 2, 4, 6, 6, 6])
    game.act("north", {"type": "roll"})
    game.act("north", {"type": "bid", "quantity": 3, "face": 4})
    for refused in ({"type": "bid", "quantity": 3, "face": 3}, {"type": "bid", "quantity": 2, "face": 6},
                    {"type": "bid", "quantity": 4, "face": 1}, {"type": "bid", "quantity": 11, "face": 2},
                    {"type": "bid", "quantity": "4", "face": 5}):
        with pytest.raises(RuleError):
            game.act("south", refused)
    with pytest.raises(RuleError):
        game.act("north", {"type": "bid", "quantity": 5, "face": 5})  # not its turn
    game.act("south", {"type": "bid", "quantity": 3, "face": 5})  # as many, of a higher face
    assert game.view("north")["bid"] == [3, 5]


def test_dudo_on_a_bid_that_holds_costs_the_caller_a_die_and_ones_are_wild():
    game = game_with([1, 3, 4, 4, 5, 2, 4, 6, 6, 6])
    game.act("north", {"type": "roll"})
    game.act("north", {"type": "bid", "quantity": 4, "face": 4})  # 4, 4, 4 and the 1: four
    game.act("south", {"type": "dudo"})
    view = game.view("north")
    assert view["counts"] == {"north": 5, "south": 4} and view["phase"] == "roll" and view["to_act"] == "south"
    assert any("L'annonce tient" in line for _, line in game.journal_entries("north", "fr"))


def test_dudo_on_a_bluff_costs_the_bidder_a_die_and_the_last_die_ends_the_game():
    game = game_with([2, 2, 2, 2, 2, 3, 3, 3, 3, 3])
    game.state.counts = {"north": 1, "south": 5}
    game.dice = ScriptedDice([2, 3, 3, 3, 3, 3])
    game.act("north", {"type": "roll"})
    game.act("north", {"type": "bid", "quantity": 2, "face": 2})  # only one 2
    game.act("south", {"type": "dudo"})
    assert game.outcome == {"winner": "south", "reason": "last_die"}
    assert get_ruleset("dudo").to_act(game.state) == []


def test_the_counter_calls_a_bid_it_cannot_believe():
    from kadesh.ai.base import make_bot

    game = game_with([2, 3, 4, 5, 6, 2, 3, 4, 5, 6])
    game.act("north", {"type": "roll"})
    game.act("north", {"type": "bid", "quantity": 9, "face": 6})
    bot = make_bot("dudo", "compteur", seed=1)
    assert bot.choose(game.view("south"), "south", game.legal_actions("south")) == {"type": "dudo"}


def test_what_a_seat_may_not_see_changes_nothing_it_sees():
    """The other cup's dice are hidden: change them, and the North's view and journal stay the same."""
    game = game_with([1, 3, 4, 4, 5, 2, 4, 6, 6, 6])
    game.act("north", {"type": "roll"})
    seen = (game.view("north"), game.journal_entries("north", "fr"), game.view(None))
    game.state.cups["south"] = [5, 5, 5, 5, 5]
    game.events = [(version, Event(event.type, {**event.data, "dice": [5, 5, 5, 5, 5]}, event.audience)
                    if event.audience == ("south",) and event.type == "shaken" else event)
                   for version, event in game.events]
    assert (game.view("north"), game.journal_entries("north", "fr"), game.view(None)) == seen

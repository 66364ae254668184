"""Exact odds over all 36 dice pairs, computed by the engine itself."""

from kadesh import new_game
from kadesh.rules.manoeuvre.combat import classify
from tests.manoeuvre_setup import battle


def test_exact_odds_blade_against_skirmisher_four_against_two():
    game = battle({"n5": "c3 S", "s12": "c4 N"})
    odds = game.odds("north", {"type": "attack", "element": "n5", "target": "s12"})
    assert odds["scores"] == {"double": 9, "win": 17, "tie": 4, "lose": 6, "doubled": 0}
    assert odds["total"] == 36


def test_exact_odds_chariot_against_chariot_three_against_three():
    game = battle({"n2": "c3 S", "s2": "c4 N"})
    odds = game.odds("north", {"type": "attack", "element": "n2", "target": "s2"})
    assert odds["scores"] == {"double": 2, "win": 13, "tie": 6, "lose": 13, "doubled": 2}


def test_odds_effects_follow_the_outcome_table():
    game = battle({"n5": "c3 S", "s12": "c4 S"})  # from the rear: every win destroys
    effects = game.odds("north", {"type": "attack", "element": "n5", "target": "s12"})["effects"]
    assert effects["enemy_recoils"] == 0 and sum(effects.values()) == 36


def test_odds_leave_the_game_untouched():
    game = battle({"n5": "c3 S", "s12": "c4 N"})
    before = repr(game.state)
    game.odds("north", {"type": "attack", "element": "n5", "target": "s12"})
    assert repr(game.state) == before and game.dice.index == 0


def test_classify_counts_match_by_direct_enumeration():
    counts = {}
    for a in range(1, 7):
        for d in range(1, 7):
            key = classify(a + 4, d + 2)
            counts[key] = counts.get(key, 0) + 1
    assert counts == {"double": 9, "win": 17, "tie": 4, "lose": 6}
    assert new_game("manoeuvre", seed=0).odds("north", {"type": "resign"}) is None

"""Exact odds over all 36 dice pairs, computed by the engine itself."""

from kadesh import get_ruleset, new_game
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


def _positions(count: int, seed: int = 3):
    import random

    rng = random.Random(seed)
    found = 0
    while found < count:
        game = new_game("manoeuvre", seed=rng.randrange(10**6))
        while game.outcome is None and found < count:
            seat = game.to_act()[0]
            legal = [a for a in game.legal_actions(seat) if a["type"] != "resign"]
            fights = [a for a in legal if a["type"] in ("attack", "shoot")]
            if fights and game.view(None)["phase"] == "battle":
                found += 1
                yield game, seat, fights
            game.act(seat, rng.choice(legal))


def test_odds_match_brute_force_over_all_dice_pairs_in_random_positions():
    from kadesh import ScriptedDice

    rules = get_ruleset("manoeuvre")
    for game, seat, fights in _positions(25):
        for action in fights[:4]:
            brute = dict.fromkeys(("enemy_destroyed", "enemy_recoils", "tie", "own_recoils", "own_destroyed"), 0)
            for a in range(1, 7):
                for d in range(1, 7):
                    trial = rules.clone(game.state)
                    fight = next(e.data for e in rules.apply(trial, seat, action, ScriptedDice([a, d]))
                                 if e.type == "combat")
                    whose = "enemy" if fight["loser"] == "defender" else "own"
                    key = "tie" if fight["result"] == "tie" else (
                        f"{whose}_destroyed" if fight["result"] == "destroyed" else f"{whose}_recoils")
                    brute[key] += 1
            assert game.odds(seat, action)["effects"] == brute, action


def test_a_state_rebuilt_from_a_full_view_shows_the_same_view():
    rules = get_ruleset("manoeuvre")
    for game, seat, _ in _positions(10, seed=8):
        view = rules.view(game.state, seat)
        rebuilt = rules.state_from_view({**view, "outcome": None}, seat)
        assert rules.view(rebuilt, seat) == view

"""Bataille, branch by branch, with scripted dice (1d20, roll under).

The groups used (tests read their numbers from the catalogue in rules.toml):
archers 100 men, discipline 10, morale 10 (+1: missile and melee), melee 1, missile 4, range 180;
spearmen 100, discipline 12, morale 12 (−2: melee only), melee 4; guards 60, discipline 15,
morale 15 (−2), melee 6; nubian bowmen 80, missile 5, range 200; slingers 80, missile 3,
range 110; chariots 50, morale 13 (+1), melee 6, missile 3, range 150, speed 8.
Losses = strength × attack value × roll // 400.
"""

from __future__ import annotations

import pytest

from kadesh import RuleError, new_game
from kadesh.core.dice import ScriptedDice


def battle(north: str | dict, south: str | dict, rolls: list[int], **settings):
    groups = {side: {"troop": g} if isinstance(g, str) else g for side, g in (("north", north), ("south", south))}
    game = new_game("bataille", options={**groups, **settings}, dice=ScriptedDice(rolls))
    game.act("north", {"type": "ready"})
    game.act("south", {"type": "ready"})
    return game


def stances(game, north: str, south: str):
    game.act("north", {"type": "stance", "stance": north})
    return game.act("south", {"type": "stance", "stance": south})


def of(game, kind: str) -> list[dict]:
    return [event.data for _, event in game.events if event.type == kind]


def strength(game, side: str) -> int:
    return game.view(None)["groups"][side]["strength"]


# -- 2. fire ------------------------------------------------------------------------------------------
def test_fire_a_lone_missile_group_fires_without_reply():
    game = battle("archers", "spearmen", [10, 1, 1])
    assert [(a["side"], a["weapon"], a["losses"]) for a in of(game, "attack")] == [("north", "missile", 10)]
    assert strength(game, "south") == 90 and strength(game, "north") == 100


def test_fire_both_groups_fire_simultaneously():
    game = battle("archers", "nubian_bowmen", [10, 10, 1, 1])  # 180 against 200: not 50 % more
    north, south = of(game, "attack")
    assert south["strength"] == 80  # fired at full strength: the losses come together
    assert strength(game, "north") == 90 and strength(game, "south") == 70


def test_fire_a_range_50_percent_greater_fires_first_and_only_survivors_reply():
    game = battle("nubian_bowmen", "slingers", [20, 10, 1, 1])  # 200 >= 1.5 × 110
    first, reply = of(game, "attack")
    assert (first["side"], first["losses"]) == ("north", 20)
    assert (reply["side"], reply["strength"], reply["losses"]) == ("south", 60, 4)


def test_fire_a_group_wiped_out_by_the_first_fire_never_replies():
    game = battle({"troop": "nubian_bowmen", "strength": 400}, "slingers", [20])
    assert [a["side"] for a in of(game, "attack")] == ["north"]
    assert game.outcome["reason"] == "destroyed" and game.outcome["winner"] == "north"


def test_fire_morale_is_tested_after_fire_with_the_weapon_modifiers():
    game = battle("archers", "spearmen", [12, 1, 1])
    targets = {m["side"]: m["target"] for m in of(game, "morale")}
    assert targets == {"north": 10 + 1, "south": 12 - 2 - 1}  # and −1 for losing 12 % of its men
    only_missile = {"troop": "custom", "strength": 100, "discipline": 10, "morale": 10, "melee": 0, "missile": 4,
                    "range": 180, "speed": 4}
    game = battle(only_missile, "spearmen", [12, 1, 1])
    assert {m["side"]: m["target"] for m in of(game, "morale")}["north"] == 10 + 4


# -- 3. after fire ------------------------------------------------------------------------------------------
def test_after_fire_both_fail_morale_both_fall_back():
    game = battle("archers", "spearmen", [10, 20, 20])
    assert game.outcome == {"winner": None, "reason": "both_fell_back", "strength": {"north": 100, "south": 90}}


def test_after_fire_one_fails_the_other_may_decline_pursuit_with_a_passed_discipline_roll():
    game = battle("archers", "spearmen", [10, 1, 20, 5])
    assert game.to_act() == ["north"] and {"type": "let_go"} in game.legal_actions("north")
    game.act("north", {"type": "let_go"})
    assert game.outcome["winner"] == "north" and game.outcome["reason"] == "enemy_broke"


def test_after_fire_declining_pursuit_with_a_failed_discipline_roll_pursues_anyway():
    game = battle("archers", "spearmen", [10, 1, 20, 15, 10, 20, 20])
    game.act("north", {"type": "let_go"})
    assert of(game, "unbidden_pursuit") == [{"side": "north"}]
    assert of(game, "phase")[-1] == {"name": "pursuit", "pursuers": "north"}
    assert game.to_act() == ["north"] and game.view(None)["phase"] == "continue"


def test_after_fire_both_pass_and_both_hold_a_new_turn_begins():
    game = battle("archers", "spearmen", [10, 1, 1, 1, 1, 10, 1, 1])
    assert game.view(None)["phase"] == "stance"
    stances(game, "hold", "hold")
    assert [d["passed"] for d in of(game, "discipline")] == [True, True]
    assert game.view(None)["turn"] == 2 and game.view(None)["phase"] == "stance"
    assert strength(game, "south") == 80  # the new turn opened with fire again


def test_after_fire_a_group_that_fails_to_hold_attacks_without_orders():
    game = battle("archers", "spearmen", [10, 1, 1, 20, 1, 10, 10, 20, 20])
    stances(game, "hold", "hold")
    assert of(game, "unbidden_attack") == [{"side": "north"}]
    assert {"name": "melee"} in of(game, "phase") and game.outcome["reason"] == "fight_over"


def test_after_fire_one_attacks_the_other_withdraws_pursuit():
    game = battle("archers", "spearmen", [10, 1, 1, 10, 20, 20])
    stances(game, "attack", "withdraw")
    assert of(game, "phase")[-1] == {"name": "pursuit", "pursuers": "north"}


def test_after_fire_both_attack_melee():
    game = battle("archers", "spearmen", [10, 1, 1, 10, 10, 20, 20])
    stances(game, "attack", "attack")
    assert of(game, "phase")[-1] == {"name": "melee"} and game.outcome["reason"] == "fight_over"


def test_after_fire_a_withdrawal_without_attack_leaves_the_field_to_the_other():
    game = battle("archers", "spearmen", [10, 1, 1, 1])
    stances(game, "hold", "withdraw")
    assert game.outcome["winner"] == "north" and game.outcome["reason"] == "withdrawal"


# -- 4. melee ----------------------------------------------------------------------------------------------
def test_melee_is_simultaneous_and_losses_come_together():
    game = battle("spearmen", "guards", [10, 10, 20, 20])  # nobody shoots: the generals decide at once
    stances(game, "attack", "attack")
    north, south = of(game, "attack")
    assert (north["losses"], south["strength"], south["losses"]) == (10, 60, 9)
    assert strength(game, "north") == 91 and strength(game, "south") == 50
    assert [m["side"] for m in of(game, "morale")] == ["north", "south"]


def test_melee_both_fail_morale_the_fight_is_over():
    game = battle("spearmen", "guards", [10, 10, 20, 20])
    stances(game, "attack", "attack")
    assert game.outcome["winner"] is None and game.outcome["reason"] == "fight_over"


def test_melee_one_fails_pursuit_is_compulsory_when_discipline_fails():
    game = battle("spearmen", "guards", [10, 10, 1, 20, 20, 10, 20, 20])
    stances(game, "attack", "attack")
    assert game.to_act() == ["north"] and game.view(None)["phase"] == "pursue"
    game.act("north", {"type": "let_go"})
    assert of(game, "unbidden_pursuit") == [{"side": "north"}] and game.view(None)["phase"] == "continue"


def test_melee_both_pass_a_new_turn_begins_directly_with_melee():
    game = battle("spearmen", "guards", [10, 10, 1, 1, 10, 10, 20, 20])
    stances(game, "attack", "attack")
    assert [p["name"] for p in of(game, "phase")] == ["melee", "melee"]
    assert of(game, "turn")[-1] == {"turn": 2} and not of(game, "decide")[1:]


# -- 5. pursuit -----------------------------------------------------------------------------------------------
def _pursuit(rolls: list[int], south: str = "guards", **settings):
    game = battle("spearmen", south, rolls, **settings)
    stances(game, "attack", "withdraw")
    return game


def test_pursuit_pursuers_attack_first_and_the_pursued_strike_back_after_a_passed_discipline_roll():
    game = _pursuit([10, 1, 10, 20])
    assert [(a["side"], a["losses"]) for a in of(game, "attack")] == [("north", 10), ("south", 7)]
    assert of(game, "discipline")[-1]["why"] == "strike_back"


def test_pursuit_the_pursued_do_not_strike_back_after_a_failed_discipline_roll():
    game = _pursuit([10, 20, 20])
    assert [a["side"] for a in of(game, "attack")] == ["north"]


def test_pursuit_going_on_is_a_new_pursuit_sequence():
    game = _pursuit([10, 20, 20, 10, 20, 20])
    game.act("north", {"type": "pursue"})
    assert [p["name"] for p in of(game, "phase")] == ["pursuit", "pursuit"]


def test_pursuit_stops_when_the_pursuers_pass_a_discipline_roll():
    game = _pursuit([10, 20, 20, 5])
    game.act("north", {"type": "stop"})
    assert game.outcome["winner"] == "north" and game.outcome["reason"] == "pursuit_stopped"


def test_pursuit_goes_on_when_the_pursuers_fail_to_stop():
    game = _pursuit([10, 20, 20, 20, 10, 20, 20])
    game.act("north", {"type": "stop"})
    assert game.outcome is None and [p["name"] for p in of(game, "phase")] == ["pursuit", "pursuit"]


def test_pursuit_faster_pursued_get_away_and_pursuers_that_can_shoot_fire_once_more():
    game = battle("archers", "chariots", [1, 1, 1, 1, 10, 20, 20, 10])
    stances(game, "attack", "withdraw")
    last = of(game, "attack")[-1]
    assert {"name": "last_fire", "escape": "outran", "side": "south"} in of(game, "phase")
    assert (last["side"], last["weapon"]) == ("north", "missile")
    assert game.outcome["reason"] == "outran" and game.outcome["winner"] == "north"
    # issue 59: the last fire says why it comes, in both languages
    assert "Le Sud, plus rapide, se met hors de portée : le Nord a droit à une dernière séquence de tir." \
        in game.journal(None)
    assert "South, faster, gets out of range: North gets one last fire sequence." in game.journal(None, "en")


def test_pursuit_ends_when_the_pursued_reach_shelter():
    game = _pursuit([10, 20, 20], shelter=True)
    assert game.outcome["reason"] == "shelter" and {"name": "last_fire"} not in of(game, "phase")


def test_pursuit_the_pursued_rally_with_a_passed_morale_roll_back_to_melee():
    game = _pursuit([10, 20, 1, 10, 10, 20, 20])
    assert [p["name"] for p in of(game, "phase")] == ["pursuit", "melee"]


def test_pursuit_an_event_ends_it():
    game = _pursuit([10, 20, 20, 1], events=True)
    assert of(game, "event") == [{"roll": 1, "target": 1, "happened": True}] and game.outcome["reason"] == "event"
    game = _pursuit([10, 20, 20, 2], events=True)
    assert game.outcome is None and game.view(None)["phase"] == "continue"
    assert "Pas d'événement : 2 sur 1d20, il fallait 1 ou moins." in game.journal(None)


# -- decisions, secrecy, journal -------------------------------------------------------------------------------
def test_decisions_out_of_turn_or_out_of_place_are_refused_and_change_nothing():
    game = battle("spearmen", "guards", [])
    before = repr(game.state)
    for seat, action in (("north", {"type": "pursue"}), ("north", {"type": "stance", "stance": "flee"}),
                         ("north", {"type": "stance"}), ("south", {"type": "teleport"})):
        with pytest.raises(RuleError):
            game.act(seat, action)
    assert repr(game.state) == before
    game.act("north", {"type": "stance", "stance": "attack"})
    with pytest.raises(RuleError):
        game.act("north", {"type": "stance", "stance": "hold"})


def test_a_stance_stays_secret_until_both_are_given():
    game = battle("spearmen", "guards", [10, 10, 20, 20])
    game.act("north", {"type": "stance", "stance": "attack"})
    assert game.view("south")["your_stance"] is None and game.view("south")["stances_given"] == ["north"]
    assert "Ton ordre : attaquer." not in game.journal("south") and "Ton ordre : attaquer." in game.journal("north")
    game.act("south", {"type": "stance", "stance": "attack"})
    assert "Nord : attaquer" in " ".join(game.journal("south"))


def test_the_journal_shows_every_roll_with_its_target_number():
    game = battle("archers", "spearmen", [12, 1, 20])
    journal = game.journal(None)
    assert "Le Nord tire : jet 12, 100 × 4 × 12 / 400 = 12 pertes." in journal
    assert "Le Sud : jet de moral après le tir, 20 pour 9 ou moins (1d20) — raté." in journal
    assert "South: morale roll after fire, rolled 20, needs 9 or less (1d20) — failed." in game.journal(None, "en")


def test_a_pursuit_that_nobody_can_end_ends_at_nightfall():
    unbreakable = {"troop": "custom", "strength": 100, "discipline": 1, "morale": 30, "melee": 0, "missile": 0,
                   "range": 0, "speed": 4}
    hopeless = {**unbreakable, "morale": 1}
    game = battle(unbreakable, hopeless, [20] * 200)
    stances(game, "attack", "withdraw")
    while game.outcome is None:
        game.act("north", {"type": "pursue"})
    assert game.outcome["reason"] == "nightfall" and game.state.sequences == 61


def test_a_last_fire_that_wipes_out_the_pursued_ends_in_their_destruction():
    game = battle({"troop": "archers", "strength": 1000}, "chariots", [1, 1, 1, 1, 1, 20, 20, 20])
    stances(game, "attack", "withdraw")
    assert game.outcome["reason"] == "destroyed" and game.outcome["strength"]["south"] == 0


def test_the_journal_says_when_losses_are_capped_at_what_is_left():
    game = battle({"troop": "archers", "strength": 1000}, "spearmen", [20])
    assert "Le Nord tire : jet 20, 1000 × 4 × 20 / 400 = 200, soit les 100 hommes qui restent." in game.journal(None)


def test_bad_options_are_refused_clearly():
    for options in ({"north": {"troop": "elephants"}}, {"north": {"troop": "custom", "strength": 10}},
                    {"south": {"troop": "guards", "morale": 99}}, {"shelter": "yes"}, {"weather": 1}):
        with pytest.raises(RuleError) as refused:
            new_game("bataille", options=options)
        assert refused.value.code == "bad_options"


def test_the_view_gives_each_roll_its_chance_so_the_page_never_works_it_out():
    """Discipline and morale pass on 1d20 at or under their value (with the weapons' modifier):
    the view carries the dice and each group's chance of passing, counted over the die's faces."""
    view = new_game("bataille", options={"north": {"troop": "archers"}, "south": {"troop": "chariots"}}).view("north")
    sides = view["dice"]["sides"]
    assert sides == 20 and view["dice"]["loss_divisor"] == 400 and view["dice"]["loss_step_percent"] == 10
    for group in view["groups"].values():
        morale = group["morale"] + group["morale_modifier"]
        assert group["discipline_chance"] == sum(face <= group["discipline"] for face in range(1, sides + 1)) / sides
        assert group["morale_chance"] == sum(face <= morale for face in range(1, sides + 1)) / sides

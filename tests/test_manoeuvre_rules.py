"""Manœuvre, rule by rule: each test quotes the text (seed 000) or the issue's numbered point."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from kadesh import RuleError, ScriptedDice, new_game
from kadesh.rules.manoeuvre.data import RULES
from tests.manoeuvre_setup import NORTH_ROWS, SOUTH_ROWS, battle, cell_of, combat_event, deploy_all, facing_of

WORKED_EXAMPLE_FR = ("Ta lame (4) attaque de face le tirailleur (2), sans soutien : 3 + 4 = 7 contre 2 + 2 = 4. "
                     "7 n'atteint pas le double de 4 : le tirailleur recule en c5.")


def kinds(game, side):
    return [e["kind"] for e in game.view(side)["elements"] if e["side"] == side]


def alive(game, eid):
    return next(e["alive"] for e in game.view(None)["elements"] if e["id"] == eid)


# -- 1. Armies ------------------------------------------------------------------------------------
def test_r01_each_side_fields_the_same_twelve_elements():
    """« un général sur char léger, trois chars légers, trois lames, trois archers, un choix … et un tirailleur »"""
    game = new_game("manoeuvre", seed=1)
    expected = ["general"] + ["chariot"] * 3 + ["blade"] * 3 + ["bow"] * 4 + ["skirmisher"]
    assert kinds(game, "north") == kinds(game, "south") == expected


def test_r01_choice_option_fields_a_blade_instead_of_the_fourth_bow():
    game = new_game("manoeuvre", seed=1, options={"choice": "blade"})
    assert kinds(game, "north").count("blade") == 4 and kinds(game, "north").count("bow") == 3
    with pytest.raises(RuleError) as err:
        new_game("manoeuvre", seed=1, options={"choice": "elephant"})
    assert err.value.code == "bad_options"


def test_r01_factors_and_moves_are_the_table_of_the_text():
    table = {"general": (2, 3, 3), "chariot": (2, 3, 3), "blade": (1, 4, 3), "bow": (1, 3, 2), "skirmisher": (1, 2, 2)}
    for name, (move, vs_foot, vs_mounted) in table.items():
        kind = RULES.kinds[name]
        assert (kind.move, kind.vs_foot, kind.vs_mounted) == (move, vs_foot, vs_mounted)
    assert {n for n, k in RULES.kinds.items() if k.mounted} == {"general", "chariot"}


# -- 2. Deployment --------------------------------------------------------------------------------
def test_r02_deploy_only_on_own_two_rows_in_the_eight_central_columns():
    game = new_game("manoeuvre", seed=1)
    for bad in ("a1", "b2", "k1", "l2", "c3", "c11"):
        with pytest.raises(RuleError) as err:
            game.act("north", {"type": "deploy", "element": "n1", "cell": bad})
        assert err.value.code == "outside_deployment_zone"
    legal_cells = {a["cell"] for a in game.legal_actions("north") if a["type"] == "deploy" and a["element"] == "n1"}
    assert legal_cells == set(NORTH_ROWS)
    legal_south = {a["cell"] for a in game.legal_actions("south") if a["type"] == "deploy" and a["element"] == "s1"}
    assert legal_south == set(SOUTH_ROWS)


def test_r02_placing_moving_and_removing_are_free_until_ready():
    game = new_game("manoeuvre", seed=1)
    game.act("north", {"type": "deploy", "element": "n1", "cell": "c1"})
    game.act("north", {"type": "deploy", "element": "n1", "cell": "d2"})
    assert cell_of(game, "n1") == "d2"
    game.act("north", {"type": "undeploy", "element": "n1"})
    assert cell_of(game, "n1") is None
    with pytest.raises(RuleError) as err:
        game.act("north", {"type": "ready"})
    assert err.value.code == "not_all_deployed"
    deploy_all(game, "north")
    game.act("north", {"type": "ready"})
    with pytest.raises(RuleError) as err:
        game.act("north", {"type": "deploy", "element": "n1", "cell": "c2"})
    assert err.value.code == "not_your_turn"


def test_r02_placement_hidden_until_both_ready_then_north_starts():
    game = new_game("manoeuvre", seed=1)
    deploy_all(game, "north")
    game.act("north", {"type": "ready"})
    south_view = game.view("south")
    assert all(e["cell"] is None and e["facing"] is None for e in south_view["elements"] if e["side"] == "north")
    assert all(e["cell"] is None for e in game.view(None)["elements"])
    assert game.to_act() == ["south"]
    deploy_all(game, "south")
    game.act("south", {"type": "ready"})
    assert cell_of(game, "n1") == "c1" and game.view("south")["phase"] == "battle"
    assert game.to_act() == ["north"]


def test_r02_elements_first_face_the_enemy():
    game = new_game("manoeuvre", seed=1)
    deploy_all(game, "north")
    deploy_all(game, "south")
    game.act("north", {"type": "ready"})
    game.act("south", {"type": "ready"})
    view = game.view(None)["elements"]
    assert {e["facing"] for e in view if e["side"] == "north"} == {"S"}
    assert {e["facing"] for e in view if e["side"] == "south"} == {"N"}


# -- 3. Turns, moves, attacks ---------------------------------------------------------------------
def test_r03_each_element_acts_once_then_the_turn_passes():
    game = battle({"n5": "e5 S", "s5": "h9 N"})
    game.act("north", {"type": "move", "element": "n5", "to": "e6", "facing": "S"})
    with pytest.raises(RuleError) as err:
        game.act("north", {"type": "turn", "element": "n5", "facing": "E"})
    assert err.value.code == "already_acted"
    with pytest.raises(RuleError) as err:
        game.act("south", {"type": "move", "element": "s5", "to": "h8", "facing": "N"})
    assert err.value.code == "not_your_turn"
    game.act("north", {"type": "end_turn"})
    assert game.to_act() == ["south"]
    game.act("south", {"type": "end_turn"})
    game.act("north", {"type": "turn", "element": "n5", "facing": "E"})


def test_r03_move_allowance_two_for_mounted_one_for_foot_by_orthogonal_steps():
    game = battle({"n2": "e5 S", "n5": "h5 S"})
    chariot = {a["to"] for a in game.legal_actions("north") if a["type"] == "move" and a["element"] == "n2"}
    assert chariot == {"e4", "e3", "e6", "e7", "d5", "c5", "f5", "g5", "d4", "f4", "d6", "f6"}
    blade = {a["to"] for a in game.legal_actions("north") if a["type"] == "move" and a["element"] == "n5"}
    assert blade == {"h4", "h6", "g5", "i5"}
    with pytest.raises(RuleError):
        game.act("north", {"type": "move", "element": "n5", "to": "i6", "facing": "S"})


def test_r03_moves_go_through_empty_cells_only_and_then_choose_facing():
    game = battle({"n2": "e5 S", "n5": "e6 S", "n6": "d5 S", "n7": "f5 S", "n8": "e4 S"})
    assert not [a for a in game.legal_actions("north") if a["type"] == "move" and a["element"] == "n2"]
    game2 = battle({"n2": "e5 S"})
    game2.act("north", {"type": "move", "element": "n2", "to": "e7", "facing": "W"})
    assert (cell_of(game2, "n2"), facing_of(game2, "n2")) == ("e7", "W")


def test_r03_a_move_stops_on_a_threatened_cell():
    # choice: a move may end on a cell an enemy threatens but not pass through it.
    game = battle({"n2": "e5 S", "s5": "f6 W"})  # s5 threatens e6
    moves = {a["to"] for a in game.legal_actions("north") if a["type"] == "move" and a["element"] == "n2"}
    assert "e6" in moves and "e7" not in moves


def test_r03_turn_in_place():
    game = battle({"n5": "e5 S"})
    game.act("north", {"type": "turn", "element": "n5", "facing": "W"})
    assert facing_of(game, "n5") == "W"
    game2 = battle({"n5": "e5 S"})
    with pytest.raises(RuleError) as err:
        game2.act("north", {"type": "turn", "element": "n5", "facing": "S"})
    assert err.value.code == "same_facing"


def test_r03_attack_with_a_charge_moves_then_fights_facing_the_target():
    game = battle({"n2": "e5 S", "s12": "g6 N"}, dice=[6, 1])
    events = game.act("north", {"type": "attack", "element": "n2", "target": "s12", "from": "f6"})
    assert events[0].type == "moved" and events[0].data["to"] == "f6"
    assert (cell_of(game, "n2"), facing_of(game, "n2")) == ("f6", "E")
    assert combat_event(events)["aspect"] == "flank"


def test_r03_attack_without_from_needs_contact_and_turns_to_face():
    game = battle({"n5": "e5 S", "s12": "f5 N"}, dice=[3, 3])
    game.act("north", {"type": "attack", "element": "n5", "target": "s12"})
    assert facing_of(game, "n5") == "E"
    far = battle({"n5": "e5 S", "s12": "g5 N"})
    with pytest.raises(RuleError) as err:
        far.act("north", {"type": "attack", "element": "n5", "target": "s12"})
    assert err.value.code == "not_in_contact"


def test_r03_a_charge_beyond_the_allowance_is_refused():
    game = battle({"n5": "e5 S", "s12": "e8 N"})
    with pytest.raises(RuleError) as err:
        game.act("north", {"type": "attack", "element": "n5", "target": "s12", "from": "e7"})
    assert err.value.code == "unreachable"


def test_r03_only_the_bow_shoots_and_without_moving():
    game = battle({"n5": "e5 S", "n8": "g5 S", "s12": "e7 N"}, dice=[3, 3])
    with pytest.raises(RuleError) as err:
        game.act("north", {"type": "shoot", "element": "n5", "target": "s12"})
    assert err.value.code == "cannot_shoot"
    game.act("north", {"type": "shoot", "element": "n8", "target": "s12"})
    assert cell_of(game, "n8") == "g5"


# -- 4. Threat and engagement ---------------------------------------------------------------------
def test_r04_each_element_threatens_the_cell_in_front_of_it():
    game = battle({"n5": "e5 S", "s5": "h9 N"})
    threats = {e["id"]: e["threatens"] for e in game.view("north")["elements"] if e["cell"]}
    assert threats == {"n5": "e6", "s5": "h8"}


def test_r04_engaged_element_may_only_face_attack_or_step_straight_back():
    # s5 at e6 faces W and threatens d6? No: s5 faces N, threatening e5 where n5 stands, from the south.
    game = battle({"n5": "e5 E", "s5": "e6 N"})
    actions = [a for a in game.legal_actions("north") if a.get("element") == "n5"]
    kinds_ = {(a["type"], a.get("facing"), a.get("to")) for a in actions}
    assert ("turn", "S", None) in kinds_
    assert {a["to"] for a in actions if a["type"] == "move"} == {"e4"}
    assert {a["type"] for a in actions} == {"turn", "attack", "move"}
    assert [a["target"] for a in actions if a["type"] == "attack"] == ["s5"]


def test_r07_engaged_element_cannot_sidestep_or_slip_behind():
    game = battle({"n5": "e5 E", "s5": "e6 N"})
    for to in ("d5", "f5"):
        with pytest.raises(RuleError) as err:
            game.act("north", {"type": "move", "element": "n5", "to": to, "facing": "S"})
        assert err.value.code == "engaged"
    with pytest.raises(RuleError) as err:
        game.act("north", {"type": "turn", "element": "n5", "facing": "W"})
    assert err.value.code == "engaged"
    game.act("north", {"type": "move", "element": "n5", "to": "e4", "facing": "S"})
    assert cell_of(game, "n5") == "e4"


def test_r04_engaged_element_attacks_only_the_threat():
    game = battle({"n5": "e5 E", "s5": "e6 N", "s6": "f5 N"})
    with pytest.raises(RuleError) as err:
        game.act("north", {"type": "attack", "element": "n5", "target": "s6"})
    assert err.value.code == "engaged"


# -- 5. Combat and modifiers ----------------------------------------------------------------------
def test_r05_attacker_die_is_drawn_first():
    game = battle({"n5": "c3 S", "s12": "c4 N"}, dice=[3, 2])
    events = game.act("north", {"type": "attack", "element": "n5", "target": "s12"})
    rolls = [e.data for e in events if e.type == "roll"]
    assert [(r["seat"], r["value"], r["index"]) for r in rolls] == [("north", 3, 0), ("south", 2, 1)]


def test_r05_general_fights_with_plus_one():
    game = battle({"n1": "e5 S", "s5": "e6 N"}, dice=[3, 3])
    fight = combat_event(game.act("north", {"type": "attack", "element": "n1", "target": "s5"}))
    assert fight["modifiers"][0] == [["general", 1]] and fight["scores"] == [7, 6]


def test_r05_rear_support_in_close_combat():
    game = battle({"n5": "e5 S", "n6": "e4 S", "s5": "e6 N"}, dice=[3, 3])
    fight = combat_event(game.act("north", {"type": "attack", "element": "n5", "target": "s5"}))
    assert fight["modifiers"][0] == [["support", 1]] and fight["support"] is True


def test_r05_support_must_face_the_same_way():
    game = battle({"n5": "e5 S", "n6": "e4 E", "s5": "e6 N"}, dice=[3, 3])
    fight = combat_event(game.act("north", {"type": "attack", "element": "n5", "target": "s5"}))
    assert fight["modifiers"][0] == []


def test_r05_each_flank_threatened_by_another_enemy_costs_one():
    # s5 attacks n5 from the front; s6 (west of n5, facing E) and s7 (east, facing W) threaten its flanks.
    game = battle({"n5": "e5 S", "s5": "e6 N", "s6": "d5 E", "s7": "f5 W"}, active="south", dice=[3, 3])
    fight = combat_event(game.act("south", {"type": "attack", "element": "s5", "target": "n5"}))
    assert fight["modifiers"][1] == [["flank_threat", -1], ["flank_threat", -1]]


def test_r05_defender_attacked_in_the_flank_or_rear_loses_one():
    flank = battle({"n5": "d6 E", "s5": "e6 N"}, dice=[3, 3])
    fight = combat_event(flank.act("north", {"type": "attack", "element": "n5", "target": "s5"}))
    assert fight["aspect"] == "flank" and fight["modifiers"][1] == [["attacked_flank", -1]]
    rear = battle({"n5": "e5 S", "s5": "e6 S"}, dice=[3, 3])
    fight = combat_event(rear.act("north", {"type": "attack", "element": "n5", "target": "s5"}))
    assert fight["aspect"] == "rear" and fight["modifiers"][1] == [["attacked_rear", -1]]


# -- 6. Outcomes ----------------------------------------------------------------------------------
def test_r06_worked_example_recoil_only():
    """« ta lame (facteur 4) attaque un tirailleur (facteur 2) de face, sans soutien … recule seulement »"""
    game = battle({"n5": "c3 S", "s12": "c4 N"}, dice=[3, 2])
    fight = combat_event(game.act("north", {"type": "attack", "element": "n5", "target": "s12"}))
    assert fight["scores"] == [7, 4] and fight["result"] == "recoil"
    assert (cell_of(game, "s12"), facing_of(game, "s12"), cell_of(game, "n5")) == ("c5", "N", "c3")
    assert game.journal("north")[-1] == WORKED_EXAMPLE_FR


def test_r06_worked_example_from_the_rear_destroys():
    """« Le même assaut porté de dos l'aurait éliminé d'un coup. »"""
    game = battle({"n5": "c3 S", "s12": "c4 S"}, dice=[3, 2])
    fight = combat_event(game.act("north", {"type": "attack", "element": "n5", "target": "s12"}))
    assert fight["result"] == "destroyed" and not alive(game, "s12")


def test_r06_beaten_from_the_rear_is_destroyed_even_without_doubling():
    game = battle({"n5": "c3 S", "s12": "c4 S"}, dice=[2, 4])  # 6 against 4 + 2 - 1 = 5
    fight = combat_event(game.act("north", {"type": "attack", "element": "n5", "target": "s12"}))
    assert fight["scores"] == [6, 5] and fight["cause"] == "rear"


def test_r06_tie_nothing_happens():
    game = battle({"n5": "c3 S", "s5": "c4 N"}, dice=[3, 3])
    fight = combat_event(game.act("north", {"type": "attack", "element": "n5", "target": "s5"}))
    assert fight["result"] == "tie" and (cell_of(game, "n5"), cell_of(game, "s5")) == ("c3", "c4")


def test_r06_doubled_loser_is_destroyed():
    game = battle({"n5": "c3 S", "s12": "c4 N"}, dice=[6, 1])  # 10 against 3
    fight = combat_event(game.act("north", {"type": "attack", "element": "n5", "target": "s12"}))
    assert fight["cause"] == "doubled" and not alive(game, "s12")
    assert game.view(None)["losses"] == {"north": 0, "south": 1}


def test_r06_losing_attacker_recoils_and_winner_stays():
    game = battle({"n12": "c3 S", "s5": "c4 N"}, dice=[2, 3])  # 4 against 7
    fight = combat_event(game.act("north", {"type": "attack", "element": "n12", "target": "s5"}))
    assert fight["loser"] == "attacker" and fight["result"] == "recoil"
    assert (cell_of(game, "n12"), facing_of(game, "n12"), cell_of(game, "s5")) == ("c2", "S", "c4")


def test_r06_bow_beaten_in_close_combat_by_mounted_is_destroyed():
    game = battle({"n2": "c3 S", "s8": "c4 N"}, dice=[3, 4])  # 6 against 6? no: bow vs mounted 2: 6 against 6
    fight = combat_event(game.act("north", {"type": "attack", "element": "n2", "target": "s8"}))
    assert fight["result"] == "tie"
    game = battle({"n2": "c3 S", "s8": "c4 N"}, dice=[4, 4])  # 7 against 6
    fight = combat_event(game.act("north", {"type": "attack", "element": "n2", "target": "s8"}))
    assert fight["cause"] == "bow_vs_mounted"


def test_r06_recoil_blocked_by_edge_destroys():
    game = battle({"n5": "c11 S", "s12": "c12 N"}, dice=[3, 3])  # 7 against 5: recoil into the edge
    fight = combat_event(game.act("north", {"type": "attack", "element": "n5", "target": "s12"}))
    assert (fight["result"], fight["cause"]) == ("destroyed", "edge")


def test_r06_recoil_into_an_enemy_destroys():
    game = battle({"n5": "c3 S", "s12": "c4 N", "n6": "c5 N"}, dice=[3, 3])
    fight = combat_event(game.act("north", {"type": "attack", "element": "n5", "target": "s12"}))
    assert (fight["result"], fight["cause"]) == ("destroyed", "enemy")


def test_r06_recoil_pushes_a_friend_facing_the_same_way():
    game = battle({"n5": "c3 S", "s12": "c4 N", "s5": "c5 N"}, dice=[3, 3])
    fight = combat_event(game.act("north", {"type": "attack", "element": "n5", "target": "s12"}))
    assert fight["result"] == "recoil" and fight["pushed"]["to"] == "c6"
    assert (cell_of(game, "s12"), cell_of(game, "s5")) == ("c5", "c6")


def test_r06_recoil_into_a_friend_that_cannot_give_way_destroys():
    blocked = battle({"n5": "c3 S", "s12": "c4 N", "s5": "c5 N", "s6": "c6 N"}, dice=[3, 3])
    fight = combat_event(blocked.act("north", {"type": "attack", "element": "n5", "target": "s12"}))
    assert (fight["result"], fight["cause"]) == ("destroyed", "friend")
    other_facing = battle({"n5": "c3 S", "s12": "c4 N", "s5": "c5 E"}, dice=[3, 3])
    fight = combat_event(other_facing.act("north", {"type": "attack", "element": "n5", "target": "s12"}))
    assert (fight["result"], fight["cause"]) == ("destroyed", "friend")


# -- 7. Shooting ----------------------------------------------------------------------------------
def test_r07_shooting_range_is_three_cells():
    game = battle({"n8": "e5 S", "s5": "h8 N", "s6": "i8 N"})
    targets = {a["target"] for a in game.legal_actions("north") if a["type"] == "shoot"}
    assert targets == {"s5"}
    with pytest.raises(RuleError) as err:
        game.act("north", {"type": "shoot", "element": "n8", "target": "s6"})
    assert err.value.code == "out_of_range"


def test_r07_line_of_sight_blocked_by_any_element():
    game = battle({"n8": "e5 S", "n5": "e6 S", "s5": "e8 N"})
    with pytest.raises(RuleError) as err:
        game.act("north", {"type": "shoot", "element": "n8", "target": "s5"})
    assert err.value.code == "no_line_of_sight"


def test_r07_bow_turns_to_face_its_target_and_target_uses_factor_against_foot():
    game = battle({"n8": "e5 S", "s2": "h5 N"}, dice=[3, 3])  # chariot target: 3 against foot
    fight = combat_event(game.act("north", {"type": "shoot", "element": "n8", "target": "s2"}))
    assert facing_of(game, "n8") == "E"
    assert fight["factors"] == [2, 3] and fight["mode"] == "shot"


def test_r07_no_rear_support_when_shooting():
    game = battle({"n8": "e5 S", "n5": "e4 S", "s5": "e7 N"}, dice=[3, 3])
    fight = combat_event(game.act("north", {"type": "shoot", "element": "n8", "target": "s5"}))
    assert fight["modifiers"][0] == []


def test_r07_losing_bow_recoils_or_is_destroyed_by_the_same_table():
    game = battle({"n8": "e5 S", "s5": "e7 N"}, dice=[1, 6])  # 4 against 10: doubled
    fight = combat_event(game.act("north", {"type": "shoot", "element": "n8", "target": "s5"}))
    assert fight["loser"] == "attacker" and fight["cause"] == "doubled"
    game = battle({"n8": "e5 S", "s5": "e7 N"}, dice=[2, 4])  # 5 against 7: recoil
    fight = combat_event(game.act("north", {"type": "shoot", "element": "n8", "target": "s5"}))
    assert fight["result"] == "recoil" and cell_of(game, "n8") == "e4"


def test_r07_engaged_bow_may_shoot_only_its_threat():
    game = battle({"n8": "e5 S", "s5": "e6 N", "s6": "g5 N"}, dice=[3, 3])
    with pytest.raises(RuleError) as err:
        game.act("north", {"type": "shoot", "element": "n8", "target": "s6"})
    assert err.value.code == "engaged"
    game.act("north", {"type": "shoot", "element": "n8", "target": "s5"})


# -- 8. End ---------------------------------------------------------------------------------------
def test_r08_side_breaks_at_four_losses():
    game = battle({"n5": "c3 S", "s12": "c4 N", "s5": "h8 N"}, dice=[6, 1])
    game.state.losses["south"] = 3
    events = game.act("north", {"type": "attack", "element": "n5", "target": "s12"})
    assert events[-1].type == "broken"
    assert game.outcome == {"winner": "north", "reason": "break"} and game.to_act() == []


def test_r08_losing_the_general_counts_two():
    game = battle({"n5": "c3 S", "s1": "c4 S", "s5": "h8 N"}, dice=[6, 1])  # from the rear
    game.act("north", {"type": "attack", "element": "n5", "target": "s1"})
    assert game.view(None)["losses"]["south"] == RULES.kinds["general"].loss_value == 2


def test_r08_resign_at_any_time_even_out_of_turn():
    game = battle({"n5": "c3 S", "s5": "h8 N"})
    game.act("south", {"type": "resign"})
    assert game.outcome == {"winner": "north", "reason": "resignation"}
    during_deployment = new_game("manoeuvre", seed=1)
    during_deployment.act("north", {"type": "resign"})
    assert during_deployment.outcome["winner"] == "south"
    with pytest.raises(RuleError) as err:
        during_deployment.act("south", {"type": "resign"})
    assert err.value.code == "game_over"


# -- 9. Journal -----------------------------------------------------------------------------------
def test_r09_journal_keeps_every_roll_with_its_numbers_in_both_languages():
    game = battle({"n5": "c3 S", "s12": "c4 N"}, dice=[3, 2])
    game.act("north", {"type": "attack", "element": "n5", "target": "s12"})
    assert game.journal("south")[-1].startswith("La lame (4) attaque de face ton tirailleur (2)")
    assert game.journal(None)[-1].startswith("La lame du Nord (4) attaque de face le tirailleur du Sud (2)")
    assert game.journal("north", lang="en")[-1] == (
        "Your blade (4) attacks the skirmisher (2) from the front, without support: 3 + 4 = 7 against 2 + 2 = 4. "
        "7 is not double 4: the skirmisher recoils to c5.")


def test_r09_deployment_lines_are_read_only_by_their_own_side():
    game = new_game("manoeuvre", seed=1)
    game.act("north", {"type": "deploy", "element": "n5", "cell": "e2"})
    assert game.journal("north") == ["Tu places ta lame en e2."]
    assert game.journal("south") == [] and game.journal(None) == []


# -- 10. Values in data ---------------------------------------------------------------------------
def test_r10_every_value_comes_from_the_data_file():
    raw = tomllib.loads(resources.files("kadesh.rules.manoeuvre").joinpath("rules.toml").read_text("utf-8"))
    assert RULES.shooting_range == raw["shooting"]["max_range"] == 3
    assert RULES.break_losses == raw["victory"]["break_losses"] == 4
    assert RULES.double_ratio == raw["combat"]["double_ratio"] == 2
    assert RULES.kinds["blade"].vs_foot == raw["kinds"]["blade"]["vs_foot"]


# -- Contract -------------------------------------------------------------------------------------
def test_illegal_actions_are_refused_with_a_code_in_both_languages():
    game = battle({"n5": "c3 S"})
    for action, code in [({"type": "fly"}, "unknown_action"), ({"type": "move", "element": "zz"}, "bad_action"),
                         ({"type": "move", "element": "n5", "to": "z99", "facing": "S"}, "bad_action"),
                         ({"type": "move", "element": "n5", "to": "c4", "facing": "Q"}, "bad_action"),
                         ({"type": "move", "element": "s5", "to": "c4", "facing": "S"}, "not_your_element")]:
        with pytest.raises(RuleError) as err:
            game.act("north", action)
        assert err.value.code == code and err.value.fr and err.value.en
    with pytest.raises(RuleError) as err:
        game.act("east", {"type": "end_turn"})
    assert err.value.code == "unknown_seat"


def test_scripted_dice_and_records_replay_exactly():
    game = new_game("manoeuvre", seed=5, dice=ScriptedDice([3, 2]))
    record = game.to_record()
    assert record["dice"] == {"kind": "scripted", "values": [3, 2]}


# -- Choices where the text is silent ---------------------------------------------------------------
def test_choice_shot_aspect_by_quadrant_at_a_distance():
    from kadesh.core.grid import parse_cell
    from kadesh.rules.manoeuvre.combat import aspect

    game = battle({"s5": "e8 N"})
    defender = game.state.elements["s5"]
    cases = {"e5": "front", "g6": "front", "h8": "flank", "f9": "flank", "f10": "rear", "e11": "rear", "b8": "flank"}
    for cell, expected in cases.items():
        assert aspect(parse_cell(cell, 12, 12), defender) == expected, cell


def test_choice_shooter_on_an_exact_diagonal_faces_north_or_south():
    game = battle({"n8": "e5 W", "s5": "g7 N"}, dice=[3, 3])
    game.act("north", {"type": "shoot", "element": "n8", "target": "s5"})
    assert facing_of(game, "n8") == "S"


def test_choice_a_shot_into_the_rear_destroys_a_beaten_target():
    game = battle({"n8": "e5 S", "s5": "e7 S"}, dice=[4, 2])  # 7 against 4 + 2 - 1 = 5: beaten from the rear
    fight = combat_event(game.act("north", {"type": "shoot", "element": "n8", "target": "s5"}))
    assert fight["aspect"] == "rear" and fight["cause"] == "rear"


def test_choice_a_bow_beaten_by_a_chariot_it_shot_only_recoils():
    game = battle({"n8": "e5 S", "s2": "e6 N"}, dice=[2, 3])  # 2 + 2 = 4 against 3 + 3 = 6: beaten, not doubled
    fight = combat_event(game.act("north", {"type": "shoot", "element": "n8", "target": "s2"}))
    assert fight["result"] == "recoil" and cell_of(game, "n8") == "e4"


def test_choice_a_defender_beaten_in_the_flank_recoils_straight_back_from_its_own_facing():
    game = battle({"n5": "d6 E", "s5": "e6 N"}, dice=[5, 2])  # 5 + 4 = 9 against 2 + 4 - 1 = 5
    fight = combat_event(game.act("north", {"type": "attack", "element": "n5", "target": "s5"}))
    assert fight["result"] == "recoil" and (cell_of(game, "s5"), facing_of(game, "s5")) == ("e7", "N")


def test_choice_the_turn_counter_counts_each_side_turn():
    game = battle({"n5": "c3 S", "s5": "h8 N"})
    assert game.view(None)["turn"] == 1
    game.act("north", {"type": "end_turn"})
    game.act("south", {"type": "end_turn"})
    assert game.view(None)["turn"] == 3 and game.view(None)["active"] == "north"

"""Royaumes rule cases, numbered like Diplomacy's DATC: R<point of the issue>.<case>.

Each case sets up a small campaign (tests/royaumes_cases.py), sends orders in a given arrival
order, and checks Imhotep's ruling. The kingdoms are a, b, c, d; A1 is a's initial city, F1
b's, A6 c's, F6 d's, unless a case says otherwise.
"""

from __future__ import annotations

import pytest

from kadesh.core.errors import NOT_YOUR_TURN, RuleError
from kadesh.rules.royaumes import narration, rules, view
from kadesh.rules.royaumes.adjudicate import losses_of_winner
from kadesh.rules.royaumes.orders import from_text
from kadesh.rules.royaumes.state import ALLY, PEACE, WAR
from tests.royaumes_cases import ally, armies, campaign, gm, move, of_type, play_turn, war


# -- R1: orders ----------------------------------------------------------------------------------------
def test_r1_1_only_the_first_order_message_counts():
    state = campaign(a={"armies": ["C3"]})
    rules.apply(state, "a", {"type": "orders", "moves": [move("C3", "C4")]})
    before = repr(state)
    with pytest.raises(RuleError) as refused:
        rules.apply(state, "a", {"type": "orders", "moves": [move("C3", "D4")]})
    assert refused.value.code == NOT_YOUR_TURN and "premier message" in refused.value.fr
    assert repr(state) == before


def test_r1_2_armies_without_a_clear_order_stay_and_the_report_says_why():
    state = campaign(a={"armies": ["C3", "D4", "E5"]})
    events = play_turn(state, {"a": "C3 -> C4\nD4 -> Z99\nE5 reste"})
    assert armies(state, "a", "C4") == 1 and armies(state, "a", "D4") == 1 and armies(state, "a", "E5") == 1
    received = of_type(events, "orders_received")[0]["order"]
    assert [p["line"] for p in received["problems"]] == [2]
    assert of_type(events, "unordered") == [{"kingdom": "a", "cells": ["D4"]}]


def test_r1_3_a_malformed_message_is_refused_and_may_be_sent_again():
    state = campaign(a={"armies": ["C3"]})
    for bad in ({"type": "orders", "moves": "C3->C4"}, {"type": "orders", "moves": [{"from": "C3"}]},
                {"type": "orders", "text": 5}, {"type": "orders", "teleport": True},
                {"type": "orders", "text": "C3 -> C4", "moves": []}):
        with pytest.raises(RuleError):
            rules.apply(state, "a", bad)
    assert "a" not in state.orders
    rules.apply(state, "a", {"type": "orders", "moves": [move("C3", "C4")]})
    assert "a" in state.orders


def test_r1_4_orders_restate_war_and_peace():
    state = campaign()
    events = play_turn(state, {"a": "guerre: B\npaix: C", "b": {"peace": ["a"]}})
    assert state.at_war("a", "b") and not state.at_war("a", "c")
    assert [(e["kingdom"], e["towards"], e["stance"]) for e in of_type(events, "stance")] == [("a", "b", WAR)]


# -- R2: moves ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("target", ["B2", "C2", "D2", "B3", "D3", "B4", "C4", "D4"])
def test_r2_1_one_cell_in_any_of_the_eight_directions(target):
    state = campaign(a={"armies": ["C3"]})
    play_turn(state, {"a": {"moves": [move("C3", target)]}})
    assert armies(state, "a", target) == 1


def test_r2_2_never_two_cells_and_never_onto_water():
    rows = ["......", "..~...", "......", "......", "......", "......"]
    state = campaign(rows, a={"armies": ["C4", "B2"]})
    events = play_turn(state, {"a": {"moves": [move("C4", "C6"), move("B2", "C2")]}})
    assert armies(state, "a", "C4") == 1 and armies(state, "a", "B2") == 1
    assert [e["why"] for e in of_type(events, "move_refused")] == ["not_adjacent", "water"]


def test_r2_3_a_diagonal_needs_land_on_one_of_the_two_cells_it_cuts_between():
    rows = ["......", ".~....", "~.~...", ".~....", "......", "......"]
    state = campaign(rows, a={"armies": ["B3", "A4"]})
    # B3 -> C4: cuts C3 (water) and B4 (water): refused. A4 -> B5: cuts B4 (water) and A5 (land): allowed.
    rows_ok = state.scenario.is_land(state.scenario.cell("A5"))
    assert rows_ok
    events = play_turn(state, {"a": {"moves": [move("B3", "C4"), move("A4", "B5")]}})
    assert [e["why"] for e in of_type(events, "move_refused")] == ["no_land_between"]
    assert armies(state, "a", "B3") == 1 and armies(state, "a", "B5") == 1


def test_r2_4_moves_are_simultaneous_armies_that_cross_do_not_fight():
    state = campaign(a={"armies": ["C3"]}, b={"armies": ["C4"]})
    war(state, "a", "b")
    events = play_turn(state, {"a": {"moves": [move("C3", "C4")]}, "b": {"moves": [move("C4", "C3")]}})
    assert armies(state, "a", "C4") == 1 and armies(state, "b", "C3") == 1 and not of_type(events, "battle")


def test_r2_5_only_kingdoms_at_war_fight_on_the_same_cell():
    state = campaign(a={"armies": ["C3"]}, b={"armies": ["D3"]})
    events = play_turn(state, {"a": {"moves": [move("C3", "C4")]}, "b": {"moves": [move("D3", "C4")]}})
    assert not of_type(events, "battle") and armies(state, "a", "C4") == armies(state, "b", "C4") == 1


# -- R3: battle ------------------------------------------------------------------------------------------
def _meet(levels: tuple[int, int], counts: tuple[int, int]):
    state = campaign(a={"armies": ["C3"] * counts[0], "level": levels[0]},
                     b={"armies": ["D3"] * counts[1], "level": levels[1]})
    war(state, "a", "b")
    events = play_turn(state, {"a": {"moves": [move("C3", "C4", counts[0])]},
                               "b": {"moves": [move("D3", "C4", counts[1])]}})
    return state, events


def test_r3_1_the_lower_total_loses_every_army_the_winner_loses_by_the_table():
    state, events = _meet((2, 1), (3, 2))  # totals 6 and 2: G loses floor(3 × 2 / 6) = 1
    assert armies(state, "b") == 0 and armies(state, "a", "C4") == 2
    assert of_type(events, "battle")[0]["winner"] == "a"


def test_r3_2_equal_totals_destroy_every_army():
    state, events = _meet((2, 1), (2, 4))  # 4 against 4
    assert armies(state, "a") == armies(state, "b") == 0
    assert of_type(events, "battle")[0]["winner"] is None


@pytest.mark.parametrize(("armies_g", "total_g", "total_p", "lost"), [
    (3, 6, 2, 1), (4, 8, 6, 3), (5, 10, 9, 4), (1, 3, 2, 0), (10, 30, 1, 0), (6, 12, 11, 5)])
def test_r3_3_the_loss_table(armies_g, total_g, total_p, lost):
    assert losses_of_winner(armies_g, total_g, total_p) == lost


# -- R4: three belligerents or more ------------------------------------------------------------------------
def _three_way(arrival):
    state = campaign(a={"armies": ["B3", "B3"]}, b={"armies": ["C2"]}, c={"armies": ["D3"] * 3})
    for x, y in (("a", "b"), ("a", "c"), ("b", "c")):
        war(state, x, y)
    orders = {"a": {"moves": [move("B3", "C3", 2)]}, "b": {"moves": [move("C2", "C3")]},
              "c": {"moves": [move("D3", "C3", 3)]}}
    events = play_turn(state, orders, arrival)
    return state, [(s["sides"][0]["kingdom"], s["sides"][1]["kingdom"]) for s in of_type(events, "battle")]


def test_r4_1_the_first_two_to_arrive_fight_first_then_the_survivors():
    state, battles = _three_way(["c", "a", "b"])  # c (3) beats a (2), keeps 1; then 1 against b's 1: all die
    assert battles == [("c", "a"), ("c", "b")]
    assert armies(state, "a") == armies(state, "b") == armies(state, "c") == 0


def test_r4_2_another_arrival_order_gives_another_result():
    state, battles = _three_way(["b", "a", "c"])  # a (2) beats b, keeps 1; c (3) beats it, keeps 2
    assert battles == [("b", "a"), ("a", "c")]
    assert armies(state, "c", "C3") == 2 and armies(state, "a") == armies(state, "b") == 0


# -- R5: cities ---------------------------------------------------------------------------------------------
def test_r5_1_a_defended_city_adds_its_defence_to_the_defenders_total():
    state = campaign(a={"armies": ["A1"]}, b={"armies": ["B2", "B2"]})
    war(state, "b", "a")
    events = play_turn(state, {"b": {"moves": [move("B2", "A1", 2)]}})  # 2 against 1 + 2
    assert armies(state, "b") == 0 and armies(state, "a", "A1") == 1
    assert of_type(events, "battle")[0]["city"] == "Alpha"


def test_r5_2_the_builders_guild_raises_the_city_defence():
    state = campaign(a={"armies": ["A1"], "guild": 1}, b={"armies": ["B2"] * 4, "level": 1})
    war(state, "b", "a")
    play_turn(state, {"b": {"moves": [move("B2", "A1", 4)]}})  # 4 against 1 + 2 + 1: equal, all perish
    assert armies(state, "a") == armies(state, "b") == 0


def test_r5_3_an_undefended_city_is_conquered():
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")]}, b={"armies": ["D2"]})
    war(state, "b", "a")
    events = play_turn(state, {"b": {"moves": [move("D2", "C1")]}})
    assert state.cities["Aleph"].owner == "b"
    assert of_type(events, "city_conquered") == [{"city": "Aleph", "kingdom": "b", "from": "a"}]


def test_r5_4_the_winner_may_choose_to_destroy_the_city():
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")]}, b={"armies": ["D2"]})
    war(state, "b", "a")
    play_turn(state, {"b": "D2 -> C1\nconquête: détruire"})
    assert state.cities["Aleph"].destroyed and state.cities["Aleph"].owner is None


B_AT_MAXIMUM = [("Beta", "F1"), ("B2", "F2"), ("B3", "F3"), ("B4", "F4")]


def test_r5_4b_convert_or_destroy_is_chosen_each_turn_convert_by_default():
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1"), ("Alef", "E3")]}, b={"armies": ["D2", "F4"]})
    war(state, "b", "a")
    play_turn(state, {"b": "D2 -> C1\nconquête: détruire"})
    play_turn(state, {"b": "F4 -> E3"})
    assert state.cities["Aleph"].destroyed and state.cities["Alef"].owner == "b"


def test_r5_5_at_the_maximum_of_4_cities_a_conquest_is_destroyed():
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")]}, b={"cities": B_AT_MAXIMUM, "armies": ["D2"]})
    war(state, "b", "a")
    events = play_turn(state, {"b": {"moves": [move("D2", "C1")]}})
    assert state.cities["Aleph"].destroyed
    assert of_type(events, "city_destroyed")[0]["why"] == "max_cities"


def test_r5_6_at_the_maximum_the_city_stands_if_the_winners_ally_has_an_army_there():
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")]},
                     b={"cities": B_AT_MAXIMUM, "armies": ["D2"]}, c={"armies": ["B2"]})
    war(state, "b", "a")
    ally(state, "b", "c")
    play_turn(state, {"b": {"moves": [move("D2", "C1")]}, "c": {"moves": [move("B2", "C1")]}}, ["b", "c"])
    assert not state.cities["Aleph"].destroyed and state.cities["Aleph"].owner == "c"


def test_r5_7_an_initial_city_is_never_destroyed_only_its_defenders_are():
    state = campaign(a={"armies": ["A1"]}, b={"cities": B_AT_MAXIMUM, "armies": ["B2"] * 4})
    war(state, "b", "a")
    events = play_turn(state, {"b": {"moves": [move("B2", "A1", 4)]}})  # 4 against 3
    city = state.cities["Alpha"]
    assert armies(state, "a") == 0 and not city.destroyed and city.owner == "a"
    assert of_type(events, "city_occupied")[0]["kingdom"] == "b"


def test_r5_8_a_third_kingdoms_army_on_the_city_is_fought_before_the_city_falls():
    # c, at peace with a and at war with b, stands on a's undefended city: the city is not
    # « sans armée dans sa case ». b fights c first; the city falls only to b left alone there.
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")]}, c={"armies": ["C1"] * 2},
                     b={"armies": ["D2"]})
    war(state, "b", "a")
    war(state, "c", "b")
    events = play_turn(state, {"b": {"moves": [move("D2", "C1")]}})
    assert [b["winner"] for b in of_type(events, "battle")] == ["c"]
    assert state.cities["Aleph"].owner == "a" and not of_type(events, "city_conquered")
    assert armies(state, "b") == 0 and armies(state, "c", "C1") == 1  # c loses 2 × 1 // 2


def test_r5_8b_the_attacker_left_alone_after_the_battles_takes_the_city():
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")]}, c={"armies": ["C1"]},
                     b={"armies": ["D2"] * 3})
    war(state, "b", "a")
    war(state, "b", "c")
    events = play_turn(state, {"b": {"moves": [move("D2", "C1", 3)]}})
    assert [b["winner"] for b in of_type(events, "battle")] == ["b"]  # 3 against 1: b keeps 2
    assert of_type(events, "city_conquered") == [{"city": "Aleph", "kingdom": "b", "from": "a"}]
    assert events.index(next(e for e in events if e.type == "battle")) < \
        events.index(next(e for e in events if e.type == "city_conquered"))


def test_r5_8c_an_army_at_peace_with_the_attacker_keeps_the_city_from_falling():
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")]}, c={"armies": ["C1"]},
                     b={"armies": ["D2"] * 3})
    war(state, "b", "a")
    events = play_turn(state, {"b": {"moves": [move("D2", "C1", 3)]}})
    assert not of_type(events, "battle") and not of_type(events, "city_conquered")
    assert state.cities["Aleph"].owner == "a"


@pytest.mark.parametrize("arrival", [["b", "c"], ["c", "b"]])
def test_r5_3c_two_attackers_at_peace_with_each_other_take_an_undefended_city_by_arrival_of_their_orders(arrival):
    """« Si une armée ennemie attaque une cité non défendue, c'est à dire sans armée dans sa case, alors la cité est
    conquise par l'armée attaquante, sauf si le royaume attaquant a déjà atteint son maximum de cités : dans ce cas,
    la cité est simplement détruite. » An attacker's army is not the city's defence (issue 45); with several, « l'un
    des deux assaillants combat d'abord … C'est lui dans ce cas qui peut récupérer la cité », by arrival of the
    orders. Here b holds four cities, c one; their alliance is suspended: c's army saves nothing."""
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")]}, b={"cities": B_AT_MAXIMUM, "armies": ["D2"]},
                     c={"armies": ["B2"]})
    war(state, "b", "a")
    war(state, "c", "a")
    ally(state, "b", "c")
    gm(state, {"type": "suspend_alliance", "kingdoms": ["b", "c"], "reason": "trop fort"})
    events = play_turn(state, {"b": {"moves": [move("D2", "C1")]}, "c": {"moves": [move("B2", "C1")]}}, arrival)
    aleph = state.cities["Aleph"]
    if arrival[0] == "b":  # at its maximum, b destroys it
        assert aleph.destroyed and of_type(events, "city_destroyed")[0]["why"] == "max_cities"
    else:
        assert aleph.owner == "c" and of_type(events, "city_conquered") == [{"city": "Aleph", "kingdom": "c",
                                                                               "from": "a"}]
    assert not of_type(events, "battle")


def test_r5_9_at_the_maximum_with_an_ally_at_its_maximum_too_the_city_is_destroyed():
    # « sauf si son allié possède encore une armée au moins sur la case »: the ally can take the
    # city only below its own maximum; when both hold 4 cities, the city is destroyed (documented).
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")]},
                     b={"cities": B_AT_MAXIMUM, "armies": ["D2"]},
                     c={"cities": [("Gamma", "A6"), ("G2", "B6"), ("G3", "C6"), ("G4", "D6")], "armies": ["B2"]})
    war(state, "b", "a")
    ally(state, "b", "c")
    events = play_turn(state, {"b": {"moves": [move("D2", "C1")]}, "c": {"moves": [move("B2", "C1")]}}, ["b", "c"])
    assert state.cities["Aleph"].destroyed and state.cities["Aleph"].owner is None
    assert of_type(events, "city_destroyed") == [{"city": "Aleph", "kingdom": "b", "from": "a", "why": "max_cities"}]
    assert len(state.cities_of("b")) == len(state.cities_of("c")) == 4


# -- R6: allies --------------------------------------------------------------------------------------------
def test_r6_1_at_most_one_ally():
    state = campaign()
    events = play_turn(state, {"a": "alliance: B, C", "b": "alliance: A", "c": "ally: A"})
    assert state.allied("a", "b") and not state.allied("a", "c")
    assert of_type(events, "ally_refused")[0]["towards"] == "c"


def test_r6_1b_changing_ally_means_the_same_in_any_line_order():
    for text in ("alliance: B\npaix: C", "paix: C\nalliance: B"):
        state = campaign()
        ally(state, "a", "c")
        play_turn(state, {"a": text, "b": "alliance: A"})
        assert state.allied("a", "b") and not state.allied("a", "c"), text


def test_r6_2_an_allied_army_defends_first_with_its_level_and_the_protected_citys_defence():
    # a's city defence is 2 + 1 (guild); c's army (level 1) defends it: 1 + 3 = 4 against b's 4 armies.
    # With c's own defence (2) it would lose 3 to 4; with a's army first, a would lose.
    state = campaign(a={"armies": ["A1"], "guild": 1}, b={"armies": ["B2"] * 3},
                     c={"armies": ["A2"]})
    war(state, "b", "a")
    ally(state, "a", "c")
    events = play_turn(state, {"b": {"moves": [move("B2", "A1", 3)]}, "c": {"moves": [move("A2", "A1")]}})
    battles = of_type(events, "battle")
    assert [(b["sides"][0]["kingdom"], b["sides"][1]["kingdom"]) for b in battles] == [("b", "c")]
    assert armies(state, "b") == 0 and armies(state, "c", "A1") == 1 and armies(state, "a", "A1") == 1


def test_r6_3_two_allied_attackers_the_first_fights_on_while_it_has_armies_and_takes_the_city():
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")], "armies": ["C1"]},
                     c={"armies": ["C2"]}, b={"armies": ["D1"] * 7}, d={"armies": ["D2", "D2"]})
    for attacker in ("b", "d"):
        war(state, attacker, "a")
    ally(state, "a", "c")
    ally(state, "b", "d")
    events = play_turn(state, {"b": {"moves": [move("D1", "C1", 7)]}, "d": {"moves": [move("D2", "C1", 2)]},
                               "c": {"moves": [move("C2", "C1")]}}, ["b", "d", "c"])
    # b (7) beats c (1 + 2), keeps 4; then b (4) beats a (1 + 2), keeps 1, and takes the city.
    battles = [(b["sides"][0]["kingdom"], b["sides"][1]["kingdom"]) for b in of_type(events, "battle")]
    assert battles == [("b", "c"), ("b", "a")]
    assert state.cities["Aleph"].owner == "b" and armies(state, "b", "C1") == 1 and armies(state, "d", "C1") == 2


def test_r6_4_two_allied_attackers_the_second_takes_over_when_the_first_has_none_left():
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")], "armies": ["C1"]},
                     b={"armies": ["D1"] * 2}, d={"armies": ["D2"] * 4})
    for attacker in ("b", "d"):
        war(state, attacker, "a")
    ally(state, "b", "d")
    events = play_turn(state, {"b": {"moves": [move("D1", "C1", 2)]}, "d": {"moves": [move("D2", "C1", 4)]}},
                       ["b", "d"])
    battles = [(b["sides"][0]["kingdom"], b["sides"][1]["kingdom"]) for b in of_type(events, "battle")]
    assert battles == [("b", "a"), ("d", "a")]  # b (2) loses to 3; d (4) beats 3, keeps 1
    assert state.cities["Aleph"].owner == "d"


def test_r6_5_two_enemy_attackers_fight_each_other_first_then_attack_the_city():
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")], "armies": ["C1"]},
                     b={"armies": ["D1"] * 3}, d={"armies": ["D2"] * 2})
    for x, y in (("b", "a"), ("d", "a"), ("b", "d")):
        war(state, x, y)
    events = play_turn(state, {"d": {"moves": [move("D2", "C1", 2)]}, "b": {"moves": [move("D1", "C1", 3)]}},
                       ["d", "b"])
    battles = [(b["sides"][0]["kingdom"], b["sides"][1]["kingdom"]) for b in of_type(events, "battle")]
    assert battles == [("d", "b"), ("b", "a")]  # b keeps 1 of 3, then loses to 1 + 2
    assert state.cities["Aleph"].owner == "a" and armies(state, "a", "C1") == 1


# -- R7: the occupied initial city -------------------------------------------------------------------------------
def _occupied(resources, tribute_line=""):
    state = campaign(a={"population": 100, "resources": resources}, b={"armies": ["B2", "B2"]})
    war(state, "b", "a")
    first = play_turn(state, {"b": {"moves": [move("B2", "A1", 2)]}, "a": tribute_line})
    second = play_turn(state, {"b": "A1 reste"})
    return state, first, second


def test_r7_1_tribute_for_armies_that_stay_paid_in_gold_first():
    state, first, second = _occupied({"gold": 50, "wheat": 10, "stone": 10})
    assert not of_type(first, "tribute")  # the turn of arrival: they have not stayed yet
    paid = of_type(second, "tribute")[0]
    assert (paid["owed"], paid["paid"], paid["short"]) == (20, {"gold": 20}, 0)  # 100 / 10 × 2
    assert state.kingdoms["b"].resources["gold"] == 1020 and state.kingdoms["a"].resources["gold"] == 30


def test_r7_2_gold_short_the_rest_in_the_resource_it_has_most_of():
    state, _, second = _occupied({"gold": 15, "wheat": 3, "stone": 40})
    assert of_type(second, "tribute")[0]["paid"] == {"gold": 15, "stone": 5}


def test_r7_3_gold_short_the_rest_in_the_resource_of_its_choice():
    state, _, second = _occupied({"gold": 15, "wheat": 3, "stone": 40}, "tribut: blé")
    paid = of_type(second, "tribute")[0]
    assert paid["paid"] == {"gold": 15, "wheat": 3} and paid["short"] == 2


def test_r7_4_an_army_raised_in_the_occupied_city_attacks_at_once_with_the_city_bonus_plus_2():
    state = campaign(a={"level": 1}, b={"armies": ["A1", "A1", "A1", "A1"], "level": 1})
    war(state, "b", "a")
    for army in state.armies.values():
        army.since = 0
    events = play_turn(state, {"a": "créer armée à Alpha"})  # 1 + 2 + 2 = 5 against 4
    battle = of_type(events, "battle")[0]
    assert battle["sortie"] and battle["winner"] == "a"
    assert armies(state, "b") == 0 and armies(state, "a", "A1") == 1


# -- R8: raising an army ---------------------------------------------------------------------------------------
def test_r8_1_one_army_per_turn_in_a_city_of_the_chiefs_choice():
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")]})
    events = play_turn(state, {"a": "créer armée à Aleph\ncreate army at Alpha"})
    assert armies(state, "a", "C1") == 1 and armies(state, "a") == 1
    assert "Une seule armée" in of_type(events, "orders_received")[0]["order"]["problems"][0]["fr"]
    assert state.kingdoms["a"].resources["gold"] == 900


def test_r8_2_no_building_the_turn_an_army_is_raised():
    state = campaign()
    events = play_turn(state, {"a": "créer armée à Alpha\nconstruire: guilde"})
    assert state.kingdoms["a"].guild_level == 0
    assert of_type(events, "build_refused")[0]["why"] == "army_raised"
    play_turn(state, {"a": "construire: guilde"})
    assert state.kingdoms["a"].guild_level == 1


def test_r8_3_a_new_army_cannot_move_before_the_next_turn():
    state = campaign(a={"armies": ["A1"]})
    events = play_turn(state, {"a": "créer armée à Alpha\n2 x A1 -> B2"})
    assert armies(state, "a", "B2") == 1 and armies(state, "a", "A1") == 1
    assert of_type(events, "move_short")[0]["found"] == 1
    play_turn(state, {"a": "A1 -> B2"})
    assert armies(state, "a", "B2") == 2


def test_r8_2b_the_guild_grows_one_level_a_turn():
    state = campaign()
    events = play_turn(state, {"a": {"build": ["guild", "guild", "guild"]}})
    assert state.kingdoms["a"].guild_level == 1
    assert "un niveau par tour" in of_type(events, "orders_received")[0]["order"]["problems"][0]["fr"]


def test_r8_4_only_in_ones_own_city_and_if_it_can_be_paid():
    state = campaign(a={"resources": {"gold": 50, "wheat": 0, "stone": 0}})
    events = play_turn(state, {"a": "créer armée à Alpha", "b": "créer armée à Alpha"})
    assert [e["why"] for e in of_type(events, "raise_refused")] == ["cost", "not_yours"]
    assert not state.armies


# -- R9: secrets ------------------------------------------------------------------------------------------------
def test_r9_1_a_kingdom_learns_anothers_military_level_only_from_a_spy_as_of_that_turn():
    state = campaign(a={"level": 7})
    assert "military_level" not in repr({k: v for k, v in view(state, "b").items() if k != "you"})
    assert view(state, "b")["you"]["intelligence"] == {}
    play_turn(state, {"b": "espion: A"})
    assert view(state, "b")["you"]["intelligence"] == {"a": {"level": 7, "turn": 1}}
    assert state.kingdoms["b"].resources["gold"] == 950
    gm(state, {"type": "edit", "kingdom": "a", "values": {"military_level": 9}})
    assert view(state, "b")["you"]["intelligence"]["a"] == {"level": 7, "turn": 1}  # pay again to know more
    assert view(state, "c")["you"]["intelligence"] == {}


def test_r9_2_orders_stay_secret_until_adjudication():
    state = campaign(a={"armies": ["C3"]})
    events = rules.apply(state, "a", {"type": "orders", "moves": [move("C3", "C4")]})
    for seat in ("b", "c", "d", None):
        assert "C4" not in repr(view(state, seat))
        assert all("order" not in e.data for e in events if e.visible_to(seat))
    assert view(state, "a")["you"]["orders"]["moves"][0]["to"] == "C4"
    assert view(state, "imhotep")["secrets"]["a"]["orders"]["moves"][0]["to"] == "C4"
    assert view(state, "b")["kingdoms"][0]["orders_in"] is True  # that they arrived is public


# -- R10: Imhotep's powers --------------------------------------------------------------------------------------
def test_r10_1_adjudicate_at_the_deadline_missing_orders_move_nothing_and_raise_nothing():
    state = campaign(a={"armies": ["C3"]}, b={"armies": ["D3"]})
    rules.apply(state, "b", {"type": "orders", "moves": [move("D3", "D4")]})
    gm(state, {"type": "set_deadline", "deadline": "2026-12-01T18:00:00Z"})
    events = gm(state, {"type": "adjudicate"})
    assert of_type(events, "gm_adjudicate")[0]["missing"] == ["a", "c", "d"]
    assert armies(state, "a", "C3") == 1 and armies(state, "b", "D4") == 1 and state.turn == 2
    assert state.deadline is None  # the next turn's deadline is set anew


def test_r10_2_a_deadline_must_be_a_time_with_a_zone():
    state = campaign()
    for bad in ("tomorrow", "2026-12-01T18:00:00", 5):
        with pytest.raises(RuleError):
            gm(state, {"type": "set_deadline", "deadline": bad})
    gm(state, {"type": "set_deadline", "deadline": "2026-12-01T18:00:00+01:00"})
    assert state.deadline == "2026-12-01T18:00:00+01:00"


def test_r10_3_suspending_an_alliance_stops_the_ally_defending():
    # Issue 22: the suspended ally's army does not defend, but it stands on the cell, so the city
    # is not « sans armée dans sa case »: b, at peace with c, may not take it past c.
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")]}, c={"armies": ["C1"]},
                     b={"armies": ["D1"] * 2})
    war(state, "b", "a")
    ally(state, "a", "c")
    gm(state, {"type": "suspend_alliance", "kingdoms": ["a", "c"], "reason": "trop fort"})
    assert not state.allied("a", "c")
    events = play_turn(state, {"b": {"moves": [move("D1", "C1", 2)]}})
    assert not of_type(events, "battle")  # c's army stood by: it is not a's defender any more
    assert state.cities["Aleph"].owner == "a" and armies(state, "b", "C1") == 2 and armies(state, "c", "C1") == 1
    gm(state, {"type": "restore_alliance", "kingdoms": ["a", "c"]})
    assert state.allied("a", "c")


def test_r10_3b_a_suspended_ally_at_war_with_the_attacker_fights_it_before_the_city_falls():
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")]}, c={"armies": ["C1"] * 2},
                     b={"armies": ["D1"] * 2})
    war(state, "b", "a")
    war(state, "c", "b")
    ally(state, "a", "c")
    gm(state, {"type": "suspend_alliance", "kingdoms": ["a", "c"], "reason": "trop fort"})
    events = play_turn(state, {"b": {"moves": [move("D1", "C1", 2)]}})
    assert [b["winner"] for b in of_type(events, "battle")] == [None]  # 2 against 2: all perish
    assert state.cities["Aleph"].owner == "a" and not of_type(events, "city_conquered")


def test_r10_4_edit_override_and_end_are_in_the_journal_with_their_reason():
    state = campaign(a={"armies": ["C3"]})
    with pytest.raises(RuleError):
        gm(state, {"type": "override", "armies": [{"kingdom": "a", "cell": "C3", "count": 0}]})  # no reason
    with pytest.raises(RuleError):
        gm(state, {"type": "edit", "kingdom": "a", "values": {"military_level": -1}})
    events = gm(state, {"type": "edit", "kingdom": "a", "values": {"resources": {"gold": 7}}, "reason": "fête"})
    assert state.kingdoms["a"].resources["gold"] == 7
    events += gm(state, {"type": "override", "reason": "litige réglé",
                         "armies": [{"kingdom": "a", "cell": "C3", "count": 3}],
                         "cities": [{"city": "Beta", "owner": "a"}]})
    assert armies(state, "a", "C3") == 3 and state.cities["Beta"].owner == "a"
    events += gm(state, {"type": "end_campaign", "winner": "a", "reason": "paix des braves"})
    lines = [narration.narrate(e, None, "fr") for e in events if e.visible_to(None)]
    assert any("fête" in line for line in lines) and any("litige réglé" in line for line in lines)
    assert any("paix des braves" in line for line in lines) and state.ended["winner"] == "a"
    with pytest.raises(RuleError):
        play_turn(state, {})


def test_r10_6_a_refused_act_of_imhotep_changes_nothing():
    state = campaign()
    ally(state, "a", "b")
    before = repr(state)
    for bad in ({"type": "edit", "kingdom": "a", "values": {"military_level": 9}, "reason": 5},
                {"type": "suspend_alliance", "kingdoms": ["a", "b"], "reason": "x" * 3000},
                {"type": "edit", "kingdom": "a", "values": {"military_level": 9, "charisma": 3}}):
        with pytest.raises(RuleError):
            gm(state, bad)
        assert repr(state) == before


def test_r10_5_an_initial_city_cannot_be_destroyed_even_by_imhotep():
    state = campaign()
    with pytest.raises(RuleError):
        gm(state, {"type": "override", "reason": "non", "cities": [{"city": "Alpha", "destroyed": True}]})


# -- R11: orders as text ---------------------------------------------------------------------------------------
def test_r11_1_the_french_and_english_forms_mean_the_same():
    state = campaign(a={"cities": [("Alpha", "A1"), ("Aleph", "C1")]})
    french = from_text(state, "a", "C4 -> D5\n2 x C3 → C2\nE5 reste\nguerre: B\npaix: Ç\nalliance: D\n"
                                   "créer armée à Aleph\nespion: B\nconstruire: guilde\nconquête: détruire\n"
                                   "tribut: blé  # en blé s'il le faut")
    english = from_text(state, "a", "c4 to d5\n2 x c3 -> c2\nE5 stays\nwar: b\npeace: C\nally: d\n"
                                    "create army at ALEPH\nspy: B\nbuild: guild\nconquest: destroy\ntribute: wheat")
    for order in (french, english):
        for move_ in order["moves"]:
            move_.pop("line"), move_.pop("text")
    assert french == english
    assert french["moves"] == [{"from": "C4", "to": "D5", "count": 1}, {"from": "C3", "to": "C2", "count": 2}]
    assert french["stances"] == {"b": WAR, "c": PEACE, "d": ALLY} and french["problems"] == []


def test_r11_2_each_line_not_understood_is_explained():
    state = campaign()
    order = from_text(state, "a", "C4 -> D5\nattaquez Thèbes !\n\nguerre: Atlantide\nC4 -> Z77\ncréer armée à Rome")
    assert [p["line"] for p in order["problems"]] == [2, 4, 5, 6]
    assert all(p["fr"] and p["en"] for p in order["problems"])


# -- R12: the turn report ---------------------------------------------------------------------------------------
def test_r12_1_each_kingdom_reads_only_what_it_may_see():
    state = campaign(a={"armies": ["C3"], "level": 5}, b={"armies": ["D3"], "level": 2})
    war(state, "a", "b")
    events = play_turn(state, {"a": "C3 -> C4\nespion: C", "b": "D3 -> C4"})

    def report(seat, lang="fr"):
        return "\n".join(line for e in events if e.visible_to(seat)
                         if (line := narration.narrate(e, seat, lang)))

    assert "Bataille à C4" in report("c") and "5 ×" not in report("c") and "Ton total" not in report("c")
    assert "niveau 5 × 1" in report("a") and "niveau 2" not in report("a")
    assert "niveau 2 × 1" in report("b") and "niveau 5" not in report("b")
    assert ("Totals at C4: a level 5 × 1 army = 5; b level 2 × 1 army = 2. The winner loses no army of 1: "
            "its losses follow the balance of forces (2 against 5), rounded down.") in report("imhotep", "en")
    assert "Rapport d'espion" in report("a") and "Rapport d'espion" not in report("b")

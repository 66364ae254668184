"""Bataille on a field (issue 23), rule by rule, with scripted dice (1d20, roll under).

The field: three lanes, 600 paces deep; groups start 100 paces in front of their own edge (so 400
paces apart) and move speed × 25 paces a turn. Figures used (rules.toml): archers range 180, speed 4;
slingers range 110; spearmen 100 men, discipline 12, morale 12 (−2), melee 4, speed 4; levies 150,
discipline 7, morale 7 (−2), melee 2; chariots 50 men, discipline 12, morale 13 (+1), melee 6,
missile 3, range 150, speed 8. ``RUNNER`` is a chariot without bows (melee only, morale 13 − 2).
"""

from __future__ import annotations

import random

import pytest

from kadesh import RuleError, new_game
from kadesh.core.dice import ScriptedDice

RUNNER = {"troop": "custom", "strength": 50, "discipline": 12, "morale": 13, "melee": 6, "missile": 0, "range": 0,
          "speed": 8}


def field(groups: list[tuple], rolls: list[int] | None = None, **settings):
    """``groups``: (side, lane, troop or values[, turn]) in the order they are named (n1, n2…, s1…)."""
    specs = []
    for side, lane, troop, *turn in groups:
        spec = {"troop": troop} if isinstance(troop, str) else dict(troop)
        specs.append({"side": side, "lane": lane, **spec, **({"turn": turn[0]} if turn else {})})
    return new_game("bataille", options={"field": {"groups": specs, **settings}}, dice=ScriptedDice(rolls or []))


def order(game, **orders: str):
    """Give these orders (group id → order), north's first, then south's."""
    for gid, what in sorted(orders.items()):
        side = "north" if gid.startswith("n") else "south"
        game.act(side, {"type": "order", "group": gid, "order": what})


def stances(game, north: str, south: str):
    game.act("north", {"type": "stance", "stance": north})
    game.act("south", {"type": "stance", "stance": south})


def of(game, kind: str) -> list[dict]:
    return [event.data for _, event in game.events if event.type == kind]


def group(game, gid: str, seat: str | None = None) -> dict:
    return game.view(seat)["groups"][gid]


def gap(game, north: str, south: str) -> int:
    return group(game, south)["pos"] - group(game, north)["pos"]


# -- « chaque général décide de la stratégie qu'il va suivre » -------------------------------------------
def test_each_general_gives_each_group_an_order_in_secret_until_all_are_given():
    game = field([("north", "west", "archers"), ("north", "east", "spearmen"), ("south", "centre", "levies")])
    assert game.to_act() == ["north", "south"]
    assert {a["group"] for a in game.legal_actions("north")} == {"n1", "n2"}
    assert {a["order"] for a in game.legal_actions("north") if a["group"] == "n1"} == \
        {"advance", "close", "hold", "withdraw", "east"}  # archers close to their range; no lane west of west
    assert {a["order"] for a in game.legal_actions("north") if a["group"] == "n2"} == {"advance", "hold", "withdraw",
                                                                                      "west"}
    order(game, n1="advance")
    assert group(game, "n1", "north")["order"] == "advance"
    assert group(game, "n1", "south")["order"] is None and group(game, "n1", "south")["ordered"] is True
    assert all("advance" not in line for line in game.journal("south"))
    order(game, n2="hold", s1="hold")
    assert of(game, "orders")[0]["orders"] == {"n1": "advance", "n2": "hold", "s1": "hold"}


def test_a_turn_may_be_only_manoeuvres_without_any_fight():
    game = field([("north", "centre", "spearmen"), ("south", "centre", "levies")])  # no dice at all
    order(game, n1="advance", s1="hold")
    assert gap(game, "n1", "s1") == 300 and of(game, "engagement") == [] and game.view(None)["turn"] == 2


def test_advancing_groups_meet_and_stop_at_contact():
    game = field([("north", "centre", "spearmen"), ("south", "centre", "levies")])
    order(game, n1="advance", s1="advance")
    order(game, n1="advance", s1="advance")  # 200 apart, 100 paces each: they meet halfway
    assert group(game, "n1")["pos"] == group(game, "s1")["pos"] == 300
    assert of(game, "engagement") == [{"lane": "centre", "north": "n1", "south": "s1", "distance": 0}]
    assert game.view(None)["phase"] == "stance"  # nobody shoots: the generals choose at once


def test_groups_in_different_lanes_never_meet():
    game = field([("north", "west", "spearmen"), ("south", "east", "levies")])
    for _ in range(3):
        order(game, n1="advance", s1="advance")
    assert of(game, "engagement") == [] and group(game, "n1")["pos"] == 400 and group(game, "s1")["pos"] == 200


def test_the_journal_names_the_lane_a_shift_leads_to_as_the_orders_button_does():
    """The play-test of issue 59: « Passer au centre » from the east was told « se décaler d'un couloir vers
    l'ouest »; the order given and the orders revealed name the lane the group goes to."""
    game = field([("north", "west", "spearmen"), ("south", "east", "levies")])
    order(game, n1="east", s1="west")
    assert "Ton ordre pour les Lanciers du Nord : passer au centre." in game.journal("north")
    assert "Your order to the North's Spearmen: move to the centre." in game.journal("north", "en")
    assert "décaler" not in " ".join(game.journal(None))
    # the page's story of the turn starts at the orders revealed, which name the turn (the first has no « turn »)
    ((_, revealed, mark),) = [entry for entry in game.journal_marked(None) if entry[1].startswith("Ordres")]
    assert revealed == ("Ordres du Nord — les Lanciers du Nord : passer au centre. "
                        "Ordres du Sud — les Levées du Sud : passer au centre.")
    assert mark == {"kind": "orders", "turn": 1}


# -- « dès qu'ils arrivent à portée, on doit résoudre le combat » ---------------------------------------
def test_manoeuvre_into_range_a_group_closes_to_its_range_and_the_fight_begins_there():
    game = field([("north", "centre", "archers"), ("south", "centre", "spearmen")], [10, 1, 1])
    order(game, n1="close", s1="hold")
    order(game, n1="close", s1="hold")
    assert gap(game, "n1", "s1") == 200 and of(game, "engagement") == []
    order(game, n1="close", s1="hold")  # 20 paces on, to its 180
    assert gap(game, "n1", "s1") == 180
    assert of(game, "engagement")[0]["distance"] == 180
    (shot,) = of(game, "attack")
    assert (shot["side"], shot["weapon"], shot["losses"]) == ("north", "missile", 10)


def test_who_fires_first_the_longer_range_fires_alone_while_the_enemy_is_beyond_its_own():
    game = field([("north", "centre", "archers"), ("south", "centre", "slingers")], [10, 1, 1])
    for _ in range(3):
        order(game, n1="close", s1="hold")
    assert gap(game, "n1", "s1") == 180  # within the archers' 180, beyond the slingers' 110
    assert [(a["side"], a["weapon"]) for a in of(game, "attack")] == [("north", "missile")]
    assert group(game, "s1")["strength"] == 70
    journal = game.journal("south")  # the story names the groups, the reader's own orders first
    assert "Les Archers du Nord tirent : jet 10, 100 × 4 × 10 / 400 = 10 pertes." in journal
    assert "Les Frondeurs du Sud perdent 10 hommes ; il en reste 70." in journal
    assert journal[1].startswith("Ordres du Sud — les Frondeurs du Sud : tenir. Ordres du Nord — ")


def test_groups_out_of_range_of_each_other_do_not_fight():
    game = field([("north", "centre", "archers"), ("south", "centre", "slingers")])
    order(game, n1="close", s1="hold")
    order(game, n1="close", s1="hold")
    assert gap(game, "n1", "s1") == 200 and of(game, "engagement") == [] and of(game, "attack") == []


def test_both_hold_ends_the_engagement_until_the_next_turn():
    game = field([("north", "centre", "archers"), ("south", "centre", "slingers")], [10, 1, 1, 1, 1])
    for _ in range(3):
        order(game, n1="close", s1="hold")
    stances(game, "hold", "hold")
    assert of(game, "engagement_over")[-1]["reason"] == "standoff"
    assert game.view(None)["phase"] == "orders" and game.view(None)["turn"] == 4
    assert gap(game, "n1", "s1") == 180  # nobody moved


def test_a_charge_from_range_closes_on_the_group_that_stood_and_the_broken_group_falls_back():
    rolls = [10, 1, 1,   # the archers shoot from 180 paces; both keep their morale
             1,          # north holds (discipline)
             1, 1,       # melee
             20, 1,      # north breaks, south stands
             1]          # south lets it go (discipline)
    game = field([("north", "centre", "archers"), ("south", "centre", "spearmen")], rolls)
    for _ in range(3):
        order(game, n1="close", s1="hold")
    assert group(game, "n1")["pos"] == 320
    stances(game, "hold", "attack")
    assert group(game, "s1")["pos"] == 320 and game.view(None)["engagement"]["distance"] == 0  # shown together
    game.act("south", {"type": "let_go"})
    assert of(game, "engagement_over")[-1]["reason"] == "enemy_broke"
    assert group(game, "s1")["pos"] == 320 and group(game, "n1")["pos"] == 220
    assert of(game, "fall_back")[-1] == {"group": "n1", "lane": "centre", "pos": 220, "paces": 100}


# -- escape, shelter ---------------------------------------------------------------------------------------
def test_escape_by_speed_a_faster_pursued_group_gets_out_of_range():
    game = field([("north", "centre", RUNNER), ("south", "centre", "spearmen")], [4, 20, 20])
    order(game, n1="advance", s1="advance")  # 200 and 100 paces on: 100 apart
    order(game, n1="advance", s1="advance")  # they meet where their speeds bring them: 300 + 100 × 200 / 300
    assert group(game, "n1")["pos"] == 366
    stances(game, "withdraw", "attack")
    assert game.outcome is None and of(game, "engagement_over")[-1]["reason"] == "outran"
    assert group(game, "n1")["where"] == "field" and group(game, "n1")["pos"] == 166  # 200 paces back
    assert group(game, "n1")["strength"] == 46 and group(game, "s1")["pos"] == 366


def test_shelter_a_pursued_group_that_reaches_its_river_is_safe_after_the_last_fire():
    rolls = [1, 1, 1,          # the chariots fire (0 losses); morale: both pass
             4, 20, 20,        # pursuit: the chariots strike (3), no strike back, no rally
             8]                # the last fire at the levies getting away: 50 × 3 × 8 / 400 = 3
    game = field([("north", "centre", "levies"), ("south", "centre", "chariots")], rolls, river=["north"])
    order(game, n1="hold", s1="advance")
    assert gap(game, "n1", "s1") == 200
    order(game, n1="hold", s1="advance")
    stances(game, "withdraw", "attack")
    assert [e["name"] for e in of(game, "phase")] == ["fire", "pursuit", "last_fire"]
    assert of(game, "engagement_over")[-1]["reason"] == "shelter"
    # issue 59: the last fire says the pursued took shelter, in both languages
    assert "Les Levées du Nord se mettent à l'abri : les Chars du Sud ont droit à une dernière séquence de tir." \
        in game.journal(None)
    assert "The North's Levies reach shelter: the South's Chariots get one last fire sequence." \
        in game.journal(None, "en")
    assert group(game, "n1")["where"] == "sheltered" and group(game, "n1")["strength"] == 150 - 3 - 3
    assert game.outcome["winner"] == "south" and game.outcome["sheltered"] == {"north": 144, "south": 0}


def test_without_shelter_the_pursuers_decide_whether_to_go_on():
    game = field([("north", "centre", "levies"), ("south", "centre", "chariots")], [1, 1, 1, 4, 20, 20])
    order(game, n1="hold", s1="advance")
    order(game, n1="hold", s1="advance")
    stances(game, "withdraw", "attack")
    assert game.view("south")["phase"] == "continue" and game.to_act() == ["south"]


def test_shelter_further_away_takes_more_pursuit_sequences():
    rolls = [1, 1, 1, 4, 20, 20,  # first pursuit sequence: 100 paces fled, the river is 200 away
             4, 20, 20, 8]         # on again: 200 fled, the river reached, last fire
    game = field([("north", "centre", "levies"), ("south", "centre", "chariots")], rolls, river=["north"])
    order(game, n1="advance", s1="hold")  # the levies step 100 paces out: 200 from their river
    order(game, n1="hold", s1="advance")
    stances(game, "withdraw", "attack")
    assert game.view("south")["phase"] == "continue"
    game.act("south", {"type": "pursue"})
    assert group(game, "n1")["where"] == "sheltered"


def test_a_fortress_shelters_only_in_its_lane_and_a_withdrawal_past_the_edge_leaves_the_field():
    game = field([("north", "west", "spearmen"), ("north", "centre", "spearmen"), ("south", "east", "levies")],
                 fortress={"north": "west"})
    order(game, n1="withdraw", n2="withdraw", s1="hold")  # both reach their edge
    order(game, n1="withdraw", n2="withdraw", s1="hold")  # and go past it
    assert group(game, "n1")["where"] == "sheltered" and group(game, "n2")["where"] == "left"
    assert game.outcome["winner"] == "south" and game.outcome["reason"] == "field_cleared"


# -- events on the field ------------------------------------------------------------------------------------
def test_reinforcements_arrive_at_their_edge_unseen_by_the_enemy_until_then():
    game = field([("north", "centre", "spearmen"), ("south", "centre", "levies"),
                  ("north", "west", "guards", 3)])
    assert "n2" in game.view("north")["groups"] and "n2" not in game.view("south")["groups"]
    assert "n2" not in game.view(None)["groups"]
    order(game, n1="hold", s1="hold")
    assert {a["group"] for a in game.legal_actions("north")} == {"n1"}
    order(game, n1="hold", s1="hold")
    assert of(game, "arrival") == [{"group": "n2", "side": "north", "lane": "west"}]
    assert group(game, "n2", "south")["pos"] == 0 and group(game, "n2", "south")["where"] == "field"
    assert {a["group"] for a in game.legal_actions("north")} == {"n1", "n2"}


def test_reinforcements_arriving_in_a_lane_end_a_pursuit_there():
    game = field([("north", "centre", RUNNER), ("south", "centre", "spearmen"), ("south", "centre", "guards", 2)],
                 [4, 20, 20])
    order(game, n1="advance", s1="hold")
    order(game, n1="advance", s1="hold", s2="hold")  # turn 2: the guards arrived behind; the runner meets the spearmen
    stances(game, "withdraw", "attack")
    assert of(game, "event")[-1] == {"kind": "reinforcements", "happened": True, "lane": "centre",
                                     "engaged": {"north": "n1", "south": "s1"}}
    assert of(game, "engagement_over")[-1]["reason"] == "event"


def test_a_storm_stops_every_bow_and_ends_a_pursuit():
    game = field([("north", "centre", "chariots"), ("south", "centre", "spearmen")], [4, 20, 20], storm=2)
    order(game, n1="hold", s1="advance")  # 300 apart: beyond the chariots' 150
    order(game, n1="advance", s1="advance")  # contact: the chariots could shoot, but not in the storm
    assert of(game, "phase") == [] and game.view(None)["phase"] == "stance"
    stances(game, "attack", "withdraw")
    assert of(game, "event")[-1]["kind"] == "storm"


def test_nightfall_ends_the_battle_and_the_side_with_more_men_on_the_field_holds_it():
    game = field([("north", "centre", "spearmen"), ("south", "centre", "levies")], night=2)
    order(game, n1="hold", s1="hold")
    order(game, n1="hold", s1="hold")
    assert game.outcome == {"winner": "south", "reason": "nightfall", "strength": {"north": 100, "south": 150},
                            "sheltered": {"north": 0, "south": 0}}
    assert "la nuit tombe" in game.journal(None)[-1]


# -- several engagements ---------------------------------------------------------------------------------------
def test_several_engagements_in_one_turn_are_fought_one_after_the_other():
    game = field([("north", "west", RUNNER), ("north", "east", RUNNER), ("south", "west", "spearmen"),
                  ("south", "east", "spearmen")], [1, 1])
    order(game, n1="advance", n2="advance", s1="advance", s2="advance")
    order(game, n1="advance", n2="advance", s1="advance", s2="advance")
    assert [e["lane"] for e in of(game, "engagement")] == ["west"]
    assert game.view("north")["engagement"]["lane"] == "west"
    stances(game, "withdraw", "withdraw")
    assert [e["lane"] for e in of(game, "engagement")] == ["west", "east"]
    assert game.view("north")["engagement"]["lane"] == "east" and game.view(None)["turn"] == 2
    stances(game, "hold", "hold")
    assert [(e["lane"], e["reason"]) for e in of(game, "engagement_over")] == [("west", "both_withdrew"),
                                                                                ("east", "standoff")]
    assert game.view(None)["fought"] == {} and game.view(None)["turn"] == 3


def test_only_the_front_groups_of_a_lane_engage():
    game = field([("north", "centre", "spearmen"), ("north", "centre", "levies"), ("south", "centre", "guards")])
    order(game, n1="advance", n2="hold", s1="advance")
    order(game, n1="advance", n2="hold", s1="advance")
    assert of(game, "engagement") == [{"lane": "centre", "north": "n1", "south": "s1", "distance": 0}]


# -- bad input ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("seat", "action", "fragment"), [
    ("north", {"type": "order", "group": "s1", "order": "hold"}, "Aucun de tes groupes"),
    ("north", {"type": "order", "group": "n1", "order": "west"}, "Ordres possibles"),
    ("north", {"type": "order", "group": "n1", "order": "close"}, "Ordres possibles"),
    ("north", {"type": "order", "group": "n1"}, "Un ordre"),
    ("north", {"type": "stance", "stance": "attack"}, "on donne des ordres"),
    ("north", {"type": "order", "group": 3, "order": "hold"}, "Aucun de tes groupes"),
])
def test_a_bad_order_is_refused_and_changes_nothing(seat, action, fragment):
    game = field([("north", "west", "spearmen"), ("south", "west", "levies")])
    before = game.view(None)
    with pytest.raises(RuleError) as refused:
        game.act(seat, action)
    assert fragment in refused.value.message("fr") and game.view(None) == before


def test_a_group_gets_one_order_a_turn_and_orders_wait_for_the_engagement():
    game = field([("north", "west", RUNNER), ("south", "west", "spearmen")])
    order(game, n1="advance", s1="advance")
    order(game, n1="advance")
    with pytest.raises(RuleError) as refused:
        order(game, n1="hold")
    assert "déjà reçu" in refused.value.message("fr")
    order(game, s1="advance")
    with pytest.raises(RuleError) as refused:
        order(game, n1="hold")
    assert "engagement est en cours" in refused.value.message("fr")


@pytest.mark.parametrize(("spec", "where"), [
    ("nowhere", "field.name"),
    ({"groups": []}, "field.groups"),
    ({"groups": [{"side": "north", "lane": "west", "troop": "archers"}]}, "field.groups"),
    ({"groups": [{"side": "north", "lane": "middle", "troop": "archers"}]}, "field.groups[0].lane"),
    ({"groups": [{"side": "east", "lane": "west", "troop": "archers"}]}, "field.groups[0].side"),
    ({"groups": [{"side": "north", "lane": "west", "troop": "elephants"}]}, "field.groups[0].troop"),
    ({"groups": [{"side": "north", "lane": "west", "troop": "archers", "turn": 1}]}, "field.groups[0].turn"),
    ({"groups": [{"side": "north", "lane": "west", "troop": "archers", "speed": 0}]}, "field.groups[0].speed"),
    ({"groups": [{"side": "north", "lane": "west", "troop": "custom"}]}, "field.groups[0].troop"),
    ({"night": 1, "groups": []}, "field.night"),
    ({"storm": 9, "night": 8, "groups": []}, "field.storm"),
    ({"fortress": {"north": "up"}, "groups": [{"side": "north", "lane": "west", "troop": "archers"},
                                              {"side": "south", "lane": "west", "troop": "archers"}]},
     "field.fortress"),
    ({"river": ["west"], "groups": [{"side": "north", "lane": "west", "troop": "archers"},
                                    {"side": "south", "lane": "west", "troop": "archers"}]}, "field.river"),
    ({"hills": 3}, "field.hills"),
])
def test_a_bad_field_is_refused_naming_the_value(spec, where):
    with pytest.raises(RuleError) as refused:
        new_game("bataille", options={"field": spec})
    assert refused.value.code == "bad_options" and refused.value.details["option"] == where


def test_a_field_takes_no_one_against_one_group():
    with pytest.raises(RuleError) as refused:
        new_game("bataille", options={"field": "kadesh", "north": {"troop": "archers"}})
    assert "en trop" in refused.value.message("fr")


def test_the_one_against_one_battle_stays_the_smallest_set_up():
    game = new_game("bataille", options={"field": ""})
    assert game.options == new_game("bataille").options and "field" not in game.options


# -- the whole battle ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["kadesh", "gue"])
def test_random_generals_always_finish_a_shipped_field_and_the_journal_tells_it(name):
    for seed in range(6):
        game = new_game("bataille", seed=seed, options={"field": name})
        rng = random.Random(seed)
        while game.outcome is None:
            seat = game.to_act()[0]
            game.act(seat, rng.choice(game.legal_actions(seat)))
        for lang in ("fr", "en"):
            journal = game.journal(None, lang)
            assert journal and all(line and "{" not in line and "_" not in line for line in journal)
            assert not any(gid in line.split() for line in journal for gid in ("n1", "s1", "n2"))
        assert game.outcome["reason"] in ("nightfall", "field_cleared")


def test_a_field_battle_replays_from_its_record_and_its_options_normalise_to_themselves():
    from kadesh.core import load_game
    from kadesh.core.registry import get_ruleset

    game = new_game("bataille", seed="replay", options={"field": "kadesh"})
    rng = random.Random(1)
    for _ in range(40):
        seat = game.to_act()[0]
        game.act(seat, rng.choice(game.legal_actions(seat)))
    assert get_ruleset("bataille").normalize_options(game.options) == game.options
    again = load_game(game.to_record())
    assert again.view("north") == game.view("north") and again.version == game.version


def test_kadesh_odds_simulates_a_field_and_refuses_an_unknown_one():
    from typer.testing import CliRunner

    from kadesh.cli import app

    result = CliRunner().invoke(app, ["odds", "bataille", "--field", "gue", "--games", "40", "--lang", "en"])
    assert result.exit_code == 0 and "40 battles: The ford" in result.output and "North" in result.output
    refused = CliRunner().invoke(app, ["odds", "bataille", "--field", "nowhere", "--games", "2"])
    assert refused.exit_code == 1 and "nowhere" in refused.output


def test_the_generals_command_a_whole_side_on_a_field_with_legal_orders_only():
    from kadesh.ai.base import make_bot

    for seed in range(8):
        game = new_game("bataille", seed=seed, options={"field": "kadesh"})
        generals = {"north": make_bot("bataille", "careful"), "south": make_bot("bataille", "bold")}
        while game.outcome is None:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            action = generals[seat].choose(game.view(seat), seat, legal)
            assert action in legal
            game.act(seat, action)


def test_no_view_ever_shows_the_other_generals_orders_before_they_are_revealed_or_his_coming_reinforcements():
    for seed in range(5):
        game = new_game("bataille", seed=seed, options={"field": "kadesh"})
        rng = random.Random(seed)
        while game.outcome is None:
            for seat, other in (("north", "south"), ("south", "north")):
                view = game.view(seat)
                theirs = [g for g in view["groups"].values() if g["side"] == other]
                assert all(g["order"] is None and g["where"] != "expected" for g in theirs)
                assert all(e.data["side"] == seat for _, e in game.events
                           if e.type == "order_given" and e.visible_to(seat))
            seat = game.to_act()[0]
            game.act(seat, rng.choice(game.legal_actions(seat)))



def test_a_groups_view_and_orders_are_at_every_step_what_the_plain_rules_give():
    """The view works out what no battle changes once per troop, and a free group's orders once per lane and bow
    (a simulation builds a view at every decision): at every step of random battles on a field of catalogue and
    custom troops, each group's figures, orders and whose orders are awaited are still those the rules give."""
    from kadesh.rules.bataille.data import RULES, TROOP_FIELDS
    from kadesh.rules.bataille.engine import chance_under
    from kadesh.rules.bataille.field import ORDERS

    groups = [{"side": "north", "lane": "west", "troop": "archers"}, {"side": "north", "lane": "centre", **RUNNER},
              {"side": "north", "lane": "east", "troop": "chariots", "morale": 30},
              {"side": "south", "lane": "west", "troop": "levies", "turn": 2},
              {"side": "south", "lane": "centre", "troop": "slingers"}, {"side": "south", "lane": "east", **STEADY}]
    for seed in range(2):  # the second locks two groups in a melee that goes on
        game = new_game("bataille", seed=seed, options={"field": {"groups": groups}})
        rng = random.Random(seed)
        while game.outcome is None:
            state = game.state
            for seat in ("north", "south"):
                view = game.view(seat)
                for gid, shown in view["groups"].items():
                    g = state.groups[gid]
                    modifier = g.morale_modifier()
                    names = RULES.troops[g.troop].names if g.troop in RULES.troops else {"fr": "Troupe", "en": "Troop"}
                    assert shown["names"] == names and shown["initial"] == g.initial
                    assert all(shown[f] == getattr(g, f) for f in TROOP_FIELDS)
                    assert (shown["morale_modifier"], shown["discipline_chance"], shown["morale_chance"]) == (
                        modifier, chance_under(g.discipline), chance_under(g.morale + modifier))
                    lane = RULES.lanes.index(g.lane)
                    free = [o for o in ORDERS if (o != "close" or g.shoots) and (o != "west" or lane > 0)
                            and (o != "east" or lane < len(RULES.lanes) - 1)]
                    expected = ["hold"] if gid in state.melees.get(g.lane, []) else free
                    assert shown["orders"] == (expected if shown["where"] == "field" else [])
                if view["orders_done"] is not None:
                    assert view["orders_done"] == {
                        side: all(g.id in state.orders for g in state.on_field(side)) for side in ("north", "south")}
            seat = game.to_act()[0]
            game.act(seat, rng.choice(game.legal_actions(seat)))


# -- « Si les deux le réussissent, on passe à un nouveau tour commençant directement par une séquence de mêlée » ---
STEADY = {"troop": "custom", "strength": 300, "discipline": 20, "morale": 20, "melee": 1, "missile": 0, "range": 0,
          "speed": 8}


def test_a_melee_both_sides_hold_goes_on_at_the_next_field_turn_and_the_fields_night_ends_the_day():
    """Issue 45: two steady groups meeting in melee on turn 2 of 8 went through 13 melee rounds inside turn 2, then
    the engagement's own « night » ended the whole battle. On a field, the new turn is the field's: the melee goes
    on at its next turn, first thing, between the same two groups; the day ends at the field's night."""
    game = new_game("bataille", seed=45, options={"field": {"groups": [
        {"side": "north", "lane": "centre", **STEADY}, {"side": "south", "lane": "centre", **STEADY}], "night": 8}})
    while not of(game, "engagement"):
        order(game, n1="advance", s1="advance")
    stances(game, "attack", "attack")
    assert of(game, "engagement_over")[-1]["reason"] == "melee_goes_on" and game.outcome is None
    assert game.view(None)["phase"] == "orders" and game.view(None)["turn"] < 8
    assert [a["order"] for a in game.legal_actions("north")] == ["hold"]  # locked in the melee, it fights on
    before = len(game.events)
    order(game, n1="hold", s1="hold")
    resumed = [event for _, event in game.events[before:]]
    engagement = next(e for e in resumed if e.type == "engagement")
    assert engagement.data["melee"] is True and engagement.data["distance"] == 0
    phases = [e.data["name"] for e in resumed if e.type == "phase"]
    assert phases[0] == "melee" and "fire" not in phases
    while game.outcome is None:  # each side holds its orders; an engagement's choices, the first offered
        seat = game.to_act()[0]
        if game.view(None)["phase"] == "orders":
            order(game, **{g: "hold" for g in ("n1", "s1") if game.view(None)["groups"].get(g, {}).get("where",
                                                                                                "field") == "field"})
        else:
            game.act(seat, next(iter(game.legal_actions(seat))))
    assert game.outcome["reason"] in ("nightfall", "field_cleared")
    assert len([e for e in of(game, "engagement") if e.get("melee")]) >= 1
    melee_rounds_a_turn = {}
    for version, event in game.events:
        if event.type == "phase" and event.data.get("name") == "melee":
            melee_rounds_a_turn[version] = melee_rounds_a_turn.get(version, 0) + 1
    assert max(melee_rounds_a_turn.values()) == 1  # one melee sequence a field turn, never 13 in one


# -- « Dès que deux groupes s'affrontent (c'est à dire dès qu'ils arrivent à portée), on doit résoudre le combat » --
def test_a_group_behind_its_front_within_range_of_the_enemy_shoots_over_its_friends():
    """Issue 45: North's archers closing to their range (180 paces) behind North's spearmen had no engagement,
    no die, the order achieved nothing. Range is the trigger: they shoot over their own ranks (fire and morale; no
    melee through their own lines); a group behind without missiles, none."""
    rolls = [10, 1, 1]  # the archers' volley; both keep their morale
    game = field([("north", "centre", "spearmen"), ("north", "centre", "archers"), ("north", "centre", "levies"),
                  ("south", "centre", "spearmen")], rolls)
    for _ in range(3):
        order(game, n1="advance", n2="close", n3="hold", s1="hold")
    assert (group(game, "n1")["pos"], group(game, "n2")["pos"], group(game, "s1")["pos"]) == (400, 320, 500)
    assert of(game, "engagement") == [{"lane": "centre", "north": "n2", "south": "s1", "distance": 180,
                                       "over_friends": True, "shooter": "north"}]
    assert of(game, "engagement_over")[-1]["reason"] == "volley"
    assert group(game, "s1")["strength"] < 100 and group(game, "n1")["pos"] == 400  # hit; nobody moved
    assert "tirent par-dessus leurs rangs" in " ".join(game.journal(None))


def test_a_group_broken_by_a_volley_over_friends_is_not_pursued_and_the_journal_says_why():
    """Issue 59: « ne sont pas poursuivis » said no why: nobody charges through its own lines."""
    rolls = [20, 1, 20]  # the archers' volley (100 × 4 × 20 / 400 = 20); they keep their morale, the spearmen break
    game = field([("north", "centre", "spearmen"), ("north", "centre", "archers"),
                  ("south", "centre", "spearmen")], rolls)
    for _ in range(3):
        order(game, n1="advance", n2="close", s1="hold")
    over = of(game, "engagement_over")[-1]
    assert (over["reason"], over["winner"], over["over_friends"]) == ("enemy_broke", "north", True)
    assert "Fin de l'engagement au centre : les Lanciers du Sud ont rompu ; les Archers du Nord tiraient par-dessus " \
        "leurs propres rangs et ne les poursuivent pas à travers leurs lignes." in game.journal(None)
    assert "the South's Spearmen broke; the North's Archers were shooting over their own ranks and do not pursue " \
        "them through their own lines." in " ".join(game.journal(None, "en"))
    assert game.view(None)["phase"] == "orders" and game.view(None)["turn"] == 4

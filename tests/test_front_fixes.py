"""Front, part 2 (issue 16): the ground rules that did not hold, one rule case per fix (f01 … f13),
each quoting the text it checks. Maps: ``tests/front_support.py``."""

from __future__ import annotations

import pytest

from kadesh import new_game
from kadesh.core.errors import RuleError
from kadesh.rules.front import capture, fire, mines, moves, rules
from kadesh.rules.front.data import TABLES
from kadesh.rules.front.ruleset import Front
from kadesh.rules.front.vision import as_known_by, refresh_memory, spotted
from tests.front_support import build, clear_side, dice, mixed, put, small

FRONT = Front()


# f01 « Posté dessus, il le prend au bout de 2 fins de tour de son camp d'affilée, sans ennemi à 4 cases ou moins. »
def test_f01_an_engineer_posted_on_a_point_takes_it_at_its_sides_second_end_of_turn():
    game = new_game("front", seed=1, options={"scenario": "test_mixed"})
    game.act("blue", {"type": "move", "unit": "b4", "to": "E5"})  # the engineer onto the point
    game.act("blue", {"type": "end_turn"})  # the red engineer and sniper are still within 4: no count
    game.act("red", {"type": "move", "unit": "r3", "to": "J6"})
    game.act("red", {"type": "move", "unit": "r2", "to": "J3"})
    game.act("red", {"type": "end_turn"})
    assert game.view("blue")["points"] == {"E5": None}
    game.act("blue", {"type": "end_turn"})  # first end of turn with no enemy within 4
    game.act("red", {"type": "end_turn"})   # the other side's end of turn does not undo the count
    assert game.view("blue")["points"] == {"E5": None}
    game.act("blue", {"type": "end_turn"})  # the second: taken
    assert game.view("red")["points"] == {"E5": "blue"}
    assert "Point E5 : pris par Bleu." in game.journal("red")


# f02 « s'il part … tout reprend à zéro »
def test_f02_leaving_the_point_and_coming_back_within_the_turn_restarts_the_count():
    state = small()
    engineer = put(state, "b9", "blue", "engineer", (4, 4))  # on the point E5
    state.points, state.holders = [(4, 4)], {(4, 4): None}
    state.place(state.units["r2"], (9, 2))  # every enemy 5 cells away
    capture.end_of_side_turn(state, "blue")
    assert state.progress[(4, 4)] == ("b9", 1)
    rules.move(state, "blue", {"unit": "b9", "to": "D5"}, dice())
    rules.move(state, "blue", {"unit": "b9", "to": "E5"}, dice())
    assert engineer.cell == (4, 4) and (4, 4) not in state.progress
    assert capture.end_of_side_turn(state, "blue") == [] and state.progress[(4, 4)] == ("b9", 1)
    assert state.holders[(4, 4)] is None


# f03 « Un point pris redevient neutre dès qu'un ennemi arrive à 4 cases »
def test_f03_a_taken_point_is_neutral_the_moment_an_enemy_comes_within_4_even_if_it_leaves_again():
    state = small()
    state.points, state.holders = [(4, 4)], {(4, 4): "blue"}
    state.active = "red"
    events = rules.move(state, "red", {"unit": "r1", "to": "H2"}, dice())  # 4 cells from E5
    assert state.holders[(4, 4)] is None
    assert [(e.type, e.data, e.audience) for e in events if e.type == "point"] == [
        ("point", {"change": "neutral", "cell": "E5", "side": "blue"}, None)]  # public, as the points are
    rules.move(state, "red", {"unit": "r1", "to": "J1"}, dice())  # and away again within the turn
    capture.end_of_side_turn(state, "red")
    assert state.holders[(4, 4)] is None


# f04 « Seul un ingénieur y entre »: no way but an engineer's crosses a point
def test_f04_no_way_but_an_engineers_crosses_a_capture_point():
    state = small()
    state.points, state.holders = [(2, 1)], {(2, 1): None}  # on the road at C2
    engineer = put(state, "b9", "blue", "engineer", (1, 0))
    assert moves.way(state, engineer, (3, 1)) == [(2, 1), (3, 1)]  # an engineer may cross it
    state.remove(engineer)
    infantry = state.units["b1"]
    with as_known_by(state, "blue"):
        assert (2, 1) not in moves.way(state, infantry, (3, 1))
    events = rules.move(state, "blue", {"unit": "b1", "to": "D2"}, dice())
    assert events[0].data["ap"] == 5 and infantry.ap == 3  # round by the forest, not 3 along the road
    with pytest.raises(RuleError) as refused:
        rules.move(state, "blue", {"unit": "b3", "to": "C2"}, dice())
    assert "ingénieur" in refused.value.fr


# f05 « Le couvert cache aussi une unité » (« … ouvrage ou bâtiment »)
def test_f05_a_work_hides_the_unit_in_it_and_a_sniper_in_a_trench_camouflages():
    state = small()
    sniper = state.units["r2"]
    state.place(sniper, (7, 3))  # meadow at H4
    state.place(state.units["b1"], (2, 3))  # 5 cells away, sight 6
    assert "r2" in spotted(state, "blue")
    build(state, "trench", (7, 3), "red")
    assert "r2" not in spotted(state, "blue")  # a small unit in cover hides 2 cells: 6 − 2 < 5
    state.active = "red"
    rules.end_turn(state, "red", dice(6))
    assert sniper.camouflaged


# f06 « Les obus … creusent un cratère dans la prairie qu'ils frappent », aimed at a structure too
def test_f06_a_shell_aimed_at_a_structure_lands_on_its_cell_craters_burns_and_blasts():
    state = small()
    put(state, "b8", "blue", "cannon", (0, 5))
    build(state, "trench", (6, 5), "red")  # meadow at G6
    enemy = state.units["r1"]
    state.place(enemy, (7, 5))  # beside it, in the blast
    refresh_memory(state)  # blue's infantry at A1 sees it: 6 cells
    events = rules.shoot(state, "blue", {"unit": "b8", "target": "G6", "at": "structure"}, dice(1))
    assert state.terrain_at((6, 5)).id == "crater"
    assert enemy.hp == 10 - 7 // 2  # half the cannon's 7 against a small unit
    assert any(e.type == "crater" for e in events)
    mortar = put(state, "b7", "blue", "mortar", (0, 4))
    build(state, "trench", (2, 0), "red")  # in the forest at C1
    refresh_memory(state)
    rules.shoot(state, "blue", {"unit": "b7", "target": "C1", "at": "structure"}, dice(1))
    assert (2, 0) in state.fires and mortar.ammo == 5


# f07 « On ne voit que ce que voient ses unités et ses bâtiments »
def test_f07_every_finished_building_sees_and_the_watchtower_keeps_its_12():
    state = small()
    clear_side(state, "blue", keep=("b2",))  # a truck at A2, 9 cells from J1
    state.hour = "night"  # buildings are not touched by the night
    assert "r1" not in spotted(state, "blue")
    hospital = build(state, "hospital", (7, 3), "blue", complete=False)
    assert "r1" not in spotted(state, "blue")  # a site does not see
    hospital.steps = hospital.type.steps
    assert "r1" in spotted(state, "blue")  # J1 is 3 cells from H4: within the hospital's 4
    assert "r2" not in spotted(state, "blue")  # the sniper on its hill hides 2 cells: 4 − 2 < 1 + 2
    del state.structures[(7, 3)]
    build(state, "watchtower", (0, 5), "blue")
    assert {"r1", "r2"} <= spotted(state, "blue", frozenset({"r2"}))


# f08 Passengers are where their truck is; aboard, they spot and command nothing
def test_f08_an_engineer_aboard_spots_no_mine_and_a_general_aboard_gives_no_bonus():
    state = small()
    put(state, "b9", "blue", "engineer", (1, 0))
    rules.board(state, "blue", {"unit": "b9", "truck": "b2"})
    rules.move(state, "blue", {"unit": "b2", "to": "H2"}, dice())
    state.mines[(2, 2)] = "red"  # 2 cells from where it boarded
    assert state.units["b9"].cell == (7, 1)  # where its truck is
    assert (2, 2) not in mines.mines_seen_by(state, "blue")
    other = small()
    general = put(other, "b9", "blue", "general", (1, 0))
    infantry = other.units["b1"]
    assert fire.cover_points(other, infantry) == 1 and fire.shots_allowed(other, infantry) == 2
    rules.board(other, "blue", {"unit": "b9", "truck": "b2"})
    assert general.cell == (0, 1)
    assert fire.cover_points(other, infantry) == 0 and fire.shots_allowed(other, infantry) == 1


# f09 A unit carried and unloaded has moved this turn
def test_f09_a_unit_unloaded_has_moved_half_range_and_no_still_only_fire():
    state = small()
    put(state, "b8", "blue", "rocket_launcher", (1, 1))
    put(state, "b9", "blue", "infantry", (1, 0))
    rules.board(state, "blue", {"unit": "b8", "truck": "b2"})
    rules.board(state, "blue", {"unit": "b9", "truck": "b2"})
    rules.move(state, "blue", {"unit": "b2", "to": "G2"}, dice())
    rules.unload(state, "blue", {"unit": "b2", "passenger": "b8", "to": "H2"}, dice())
    rules.unload(state, "blue", {"unit": "b2", "passenger": "b9", "to": "H3"}, dice())
    assert state.units["b8"].moved and state.units["b9"].moved
    with pytest.raises(RuleError) as still:
        rules.shoot(state, "blue", {"unit": "b8", "target": "J1"}, dice(1))
    assert still.value.code == "cannot_fire_moved"
    with pytest.raises(RuleError) as short:
        rules.shoot(state, "blue", {"unit": "b9", "target": "J1"}, dice(1))  # 2 cells: range 3 halved is 1
    assert short.value.code == "cannot_fire_range"


# f10 The view lists only the fires the side sees now or remembers
def test_f10_a_side_sees_the_fires_it_sees_and_remembers_those_it_saw():
    state = small()
    state.fires[(8, 4)] = (3, True)  # the forest at I5: 8 cells from every blue unit
    refresh_memory(state)
    assert FRONT.view(state, "blue")["fires"] == [] and FRONT.view(state, "red")["fires"] == ["I5"]
    clear_side(state, "red")
    put(state, "r9", "red", "infantry", (0, 5))  # 8 cells from I5
    del state.fires[(8, 4)]  # it burns out unseen
    refresh_memory(state)
    assert FRONT.view(state, "red")["fires"] == ["I5"]  # still burning, as far as red knows
    state.place(state.units["r9"], (6, 5))
    refresh_memory(state)
    assert FRONT.view(state, "red")["fires"] == []


# f11 An enemy mine an engineer spotted stays known until cleared or seen gone; no way leads onto it
def test_f11_a_spotted_enemy_mine_stays_in_view_and_no_way_leads_onto_it():
    state = mixed()
    engineer = state.units["b4"]
    state.place(engineer, (4, 2))  # 2 cells from the red mine at G3
    refresh_memory(state)
    state.place(engineer, (1, 5))
    refresh_memory(state)
    assert "G3" in FRONT.view(state, "blue")["mines"]
    infantry = state.units["b1"]
    state.place(infantry, (6, 1))
    legal = list(FRONT.legal_actions(state, "blue"))
    assert {"type": "move", "unit": "b1", "to": "G4"} in legal
    assert {"type": "move", "unit": "b1", "to": "G3"} not in legal
    with as_known_by(state, "blue"):
        assert all((6, 2) not in moves.way(state, infantry, to) for to in moves.reachable(state, infantry))
    with pytest.raises(RuleError) as refused:
        rules.move(state, "blue", {"unit": "b1", "to": "G3"}, dice())
    assert "mine" in refused.value.en
    del state.mines[(6, 2)]  # gone (cleared by the enemy, say): still known until an engineer looks
    refresh_memory(state)
    assert "G3" in FRONT.view(state, "blue")["mines"]
    state.place(engineer, (4, 2))
    refresh_memory(state)
    assert "G3" not in FRONT.view(state, "blue")["mines"]


# f12 Engineers lay mines with an order; tow costs what units.toml says
def test_f12_an_engineer_lays_a_mine_by_order_and_towing_costs_the_tow_order():
    from kadesh.rules.front.data import TABLES

    state = mixed()
    engineer = state.units["b4"]
    assert {"type": "lay_mine", "unit": "b4", "cell": "C6"} in list(FRONT.legal_actions(state, "blue"))
    rules.lay_mine(state, "blue", {"unit": "b4", "cell": "C6"})
    assert state.mines[(2, 5)] == "blue" and engineer.ap == 8 - TABLES.order_costs["lay_mine"]
    assert engineer.mines == TABLES.units["engineer"].extras["mines"] - 1
    assert "C6" in FRONT.view(state, "blue")["mines"] and "C6" not in FRONT.view(state, "red")["mines"]
    state.active = "red"
    state.place(state.units["r4"], (9, 2))  # the red truck beside the cannon at J4
    rules.board(state, "red", {"unit": "r5", "truck": "r4"})
    assert state.units["r5"].ap == 6 - TABLES.order_costs["tow"] and TABLES.order_costs["tow"] != \
        TABLES.order_costs["board"]


# f13 « elles infligent 3 dégâts à qui entre sur leur case »: own units too; a side's ways avoid its own
def test_f13_a_mine_hurts_whoever_enters_and_a_sides_ways_go_round_its_own_mines():
    state = small()
    state.mines[(1, 1)] = "blue"  # on the road at B2
    events = rules.move(state, "blue", {"unit": "b1", "to": "C2"}, dice())
    infantry = state.units["b1"]
    assert events[0].data["ap"] == 3 and infantry.hp == 10  # round it by the meadow, not along the road
    state.place(infantry, (1, 1))
    assert mines.trigger(state, infantry) == 3 and infantry.hp == 7 and (1, 1) not in state.mines


# The works and buildings a side knows: its own as they are, the others as it last saw them
def test_a_side_sees_its_own_works_and_the_enemys_once_seen_and_remembers_them():
    state = small()
    state.hour = "night"  # sight 2 shorter
    build(state, "bunker", (9, 5), "red")  # J6: 6 cells and more from every blue unit
    build(state, "trench", (0, 5), "blue")
    refresh_memory(state)
    blue = FRONT.view(state, "blue")["structures"]
    assert blue == [{"cell": "A6", "kind": "trench", "side": "blue", "complete": True, "carcass": False, "hp": 10,
                     "steps": 1}]  # its own site tells its build orders
    state.place(state.units["b1"], (5, 5))  # 4 cells from J6
    refresh_memory(state)
    assert [s["cell"] for s in FRONT.view(state, "blue")["structures"]] == ["A6", "J6"]
    state.place(state.units["b1"], (0, 0))
    del state.structures[(9, 5)]  # gone out of blue's sight: still there, as far as blue knows
    refresh_memory(state)
    assert [s["cell"] for s in FRONT.view(state, "blue")["structures"]] == ["A6", "J6"]
    assert [s["cell"] for s in FRONT.view(state, "red")["structures"]] == []  # red never saw the trench (8 cells)


def test_an_engineer_aboard_neither_builds_nor_clears_nor_lays_mines():
    state = mixed()
    engineer = state.units["b4"]
    state.place(engineer, (1, 0))  # B1, beside the truck at A2
    rules.board(state, "blue", {"unit": "b4", "truck": "b2"})
    for order, action in ((rules.build, {"unit": "b4", "kind": "trench", "cell": "B1"}),
                          (rules.lay_mine, {"unit": "b4", "cell": "B1"})):
        with pytest.raises(RuleError):
            order(state, "blue", action)
    assert (1, 0) not in state.structures and (1, 0) not in state.mines


@pytest.mark.parametrize(("order", "field"), [("move", "unit"), ("board", "truck"), ("unload", "passenger"),
                                              ("resupply", "target"), ("build", "kind")])
def test_an_order_naming_something_with_a_list_or_a_number_is_refused_plainly(order, field):
    state = mixed()
    action = {"type": order, "unit": "b2" if order in ("unload", "resupply") else "b4", "to": "B1", "truck": "b2",
              "passenger": "b1", "target": "b1", "kind": "trench", "cell": "C6"}
    for odd in (["b1"], 7, {"id": "b1"}):
        with pytest.raises(RuleError):
            FRONT.apply(state, "blue", {**action, field: odd}, dice(1))


# A side plans on the works, buildings and ground it knows of; the ground answers when it walks
def test_an_unseen_enemy_site_changes_none_of_a_sides_orders_and_stops_the_move_that_meets_it():
    state, plain = small(), small()
    for battle in (state, plain):
        battle.hour = "night"  # blue sees 3 or 4 cells
    build(state, "hospital", (6, 1), "red", complete=False)  # on the road at G2, out of blue's sight
    refresh_memory(state)
    assert FRONT.view(state, "blue")["structures"] == []
    assert list(FRONT.legal_actions(state, "blue")) == list(FRONT.legal_actions(plain, "blue"))
    events = rules.move(state, "blue", {"unit": "b2", "to": "H2"}, dice())
    assert state.units["b2"].cell == (5, 1) and [e.type for e in events] == ["moved", "seen_moving", "blocked"]
    assert events[2].audience == ("blue",) and events[2].data == {"unit": "b2", "cell": "G2"}  # red saw it come
    refresh_memory(state)
    assert [s["cell"] for s in FRONT.view(state, "blue")["structures"]] == ["G2"]


def test_a_side_plans_on_the_ground_as_it_last_saw_it():
    state = small()
    state.hour = "night"
    state.set_terrain((5, 1), TABLES.terrain["water"])  # the bridge is down, out of blue's sight
    refresh_memory(state)
    assert FRONT.view(state, "blue")["map"][1][5] == "bridge" and FRONT.view(state, "red")["map"][1][5] == "water"
    assert {"type": "move", "unit": "b2", "to": "H2"} in list(FRONT.legal_actions(state, "blue"))
    events = rules.move(state, "blue", {"unit": "b2", "to": "H2"}, dice())
    assert state.units["b2"].cell == (4, 1) and events[-1].type == "blocked"
    refresh_memory(state)
    assert FRONT.view(state, "blue")["map"][1][5] == "water"

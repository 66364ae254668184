"""Front's data tables (issue 9, in progress): terrain and units as the starting values give them."""

from __future__ import annotations

import pytest

from kadesh.core import all_rulesets
from kadesh.core.dice import ScriptedDice
from kadesh.core.errors import RuleError
from kadesh.core.grid import cheapest_steps
from kadesh.rules.front.data import CLASSES, TABLES
from kadesh.rules.front.vision import refresh_memory


def test_terrain_costs_follow_the_starting_values():
    terrain = TABLES.terrain
    assert terrain["road"].step_cost("wheel") == 1 and terrain["meadow"].step_cost("wheel") == 3
    assert terrain["swamp"].step_cost("wheel") is None and terrain["ruins"].step_cost("track") is None
    assert all(terrain["water"].step_cost(c) is None for c in CLASSES)  # water only by bridge
    assert terrain["forest"].blocks_fire and terrain["hill"].blocks_fire and terrain["ruins"].ruin
    assert (TABLES.fuel_road, TABLES.fuel_other) == (1, 2)


def test_units_follow_the_starting_values():
    units = TABLES.units
    assert (units["infantry"].hp, units["infantry"].ap, units["infantry"].range) == (10, 8, 3)
    assert units["heavy_tank"].shots == 2 and units["general"].shots == 2 and units["infantry"].shots == 1
    assert units["mortar"].indirect and units["cannon"].min_range == 3 and units["truck"].fuel == 40
    assert units["sniper"].shot_cost == 3 and units["scout"].shot_cost == 5  # half the AP, rounded up
    assert not units["observer"].armed


def test_a_road_detour_is_cheaper_for_a_truck():
    # Meadow straight ahead (3 per step for wheels) or the road around (1 per step).
    rows = ["rrrrr", "mmmmm"]
    kinds = {"r": TABLES.terrain["road"], "m": TABLES.terrain["meadow"]}

    def cost(_from, to):
        x, y = to
        if not (0 <= x < 5 and 0 <= y < 2):
            return None
        return kinds[rows[y][x]].step_cost("wheel")

    reach = cheapest_steps((0, 1), cost, budget=14)
    assert reach[(4, 1)] == 6  # up onto the road, along it, down again: 1 + 1 + 1 + 3, not 4 × 3


def test_front_is_offered_and_plays_through_the_core_contract():
    from kadesh import load_game, new_game

    assert "front" in all_rulesets()
    game = new_game("front", seed=3, options={"scenario": "test_small"})
    game.act("blue", {"type": "move", "unit": "b1", "to": "B1"})
    game.act("blue", {"type": "end_turn"})
    again = load_game(game.to_record())
    assert again.view("blue") == game.view("blue") and again.journal("red") == game.journal("red")
    assert "Bleu 1 (infanterie) va de A1 à B1 (2 PA)." in game.journal("blue")
    seen_by_red = " ".join(game.journal("red"))  # red saw the move (issue 44), not what it cost
    assert "Bleu 1 (infanterie) va de A1 à B1." in seen_by_red and "PA" not in seen_by_red


# -- moving (rules 3 and 5) ---------------------------------------------------------------------------
def _small():
    from kadesh.rules.front.scenario import load as load_scenario

    return load_scenario("test_small")


def test_the_small_scenario_loads_its_map_units_and_points():
    state = _small()
    assert (state.width, state.height) == (10, 6) and len(state.units) == 5 and state.points == [(4, 4)]
    assert state.terrain_at((5, 1)).id == "bridge" and state.terrain_at((5, 0)).id == "water"
    assert state.units["b2"].type.id == "truck" and state.units["b2"].fuel == 40


def test_water_is_crossed_only_by_the_bridge_and_ruins_only_on_foot():
    from kadesh.rules.front.moves import reachable

    state = _small()
    truck = state.units["b2"]  # on the road at A2: 14 AP, 1 per road cell
    reach = reachable(state, truck)
    assert (5, 1) in reach and (6, 1) in reach  # over the bridge
    assert not any(state.terrain_at(c).id == "water" for c in reach)
    infantry = state.units["b1"]
    state.place(infantry, (7, 2))
    assert (8, 2) in reachable(state, infantry)  # ruins: foot only
    state.place(truck, (7, 1))
    assert (8, 2) not in reachable(state, truck)


def test_a_wounded_unit_pays_every_step_double():
    from kadesh.rules.front.moves import step_price

    state = _small()
    infantry = state.units["b1"]
    assert step_price(state, infantry, (1, 0)) == 2  # meadow, foot
    infantry.hp = 5  # half of 10
    assert step_price(state, infantry, (1, 0)) == 4


def test_nobody_enters_or_crosses_an_occupied_cell():
    from kadesh.rules.front.moves import reachable

    state = _small()
    assert (0, 1) not in reachable(state, state.units["b1"])  # the truck stands there


def test_a_vehicle_burns_little_fuel_on_the_road_and_more_off_it():
    from kadesh.rules.front.moves import fuel_for, way

    state = _small()
    truck = state.units["b2"]
    road = way(state, truck, (4, 1))
    assert road == [(1, 1), (2, 1), (3, 1), (4, 1)] and fuel_for(state, road) == 4
    off_road = way(state, truck, (0, 2))
    assert fuel_for(state, off_road) == 2


# -- fire (rules 2, 6, 7, 8) ---------------------------------------------------------------------------------
def test_a_unit_fires_once_twice_beside_a_supply_truck_or_near_its_general_and_the_tank_twice():
    from kadesh.rules.front.fire import shots_allowed
    from kadesh.rules.front.state import Unit

    state = _small()
    infantry, tank = state.units["b1"], state.units["b3"]
    assert shots_allowed(state, infantry) == 1 and shots_allowed(state, tank) == 2
    from kadesh.rules.front.data import TABLES

    supply = Unit("b9", "blue", TABLES.units["supply_truck"], (1, 0), 15, 14, 0, 40)
    state.units["b9"] = supply
    state.place(supply, (1, 0))
    assert shots_allowed(state, infantry) == 2  # in contact with a supply truck


def test_range_halves_after_a_move_and_still_only_weapons_do_not_fire_after_one():
    from kadesh.rules.front.fire import fire_range, why_not_fire

    state = _small()
    sniper = state.units["r2"]  # I1, range 8
    assert fire_range(sniper) == 8
    sniper.moved = True
    assert fire_range(sniper) == 4 and why_not_fire(state, sniper, (4, 0)) == "moved"


def test_a_unit_a_forest_or_a_hill_stops_a_direct_shot_one_ruin_does_not_two_do():
    from kadesh.rules.front.fire import line_is_open

    state = _small()
    assert not line_is_open(state, (0, 0), (4, 0))  # the forest at C1
    assert line_is_open(state, (0, 4), (3, 4))      # open meadow
    assert not line_is_open(state, (0, 2), (2, 2))  # the tank at B3 stands between
    ruins = state.terrain_at((8, 2))
    state.terrain[5][3] = ruins
    assert line_is_open(state, (1, 5), (5, 5))      # one ruin
    state.terrain[5][4] = ruins
    assert not line_is_open(state, (1, 5), (6, 5))  # two ruins


def test_without_ammunition_a_unit_no_longer_fires():
    from kadesh.rules.front.fire import why_not_fire

    state = _small()
    infantry = state.units["b1"]
    state.place(infantry, (3, 4))
    assert why_not_fire(state, infantry, (3, 2)) is None
    infantry.ammo = 0
    assert why_not_fire(state, infantry, (3, 2)) == "no_ammo"


def test_cover_softens_damage_and_adds_up_with_the_general_nearby():
    from kadesh.rules.front.data import TABLES
    from kadesh.rules.front.fire import damage
    from kadesh.rules.front.state import Unit

    state = _small()
    tank, enemy = state.units["b3"], state.units["r1"]  # tank: 5 against a small unit
    assert damage(state, tank, enemy, luck=0) == 5
    state.place(enemy, (8, 4))  # forest: one cover point
    assert damage(state, tank, enemy, luck=0) == 4  # 5 × 85 %
    general = Unit("r9", "red", TABLES.units["general"], (9, 5), 12, 8, 8, None)
    state.units["r9"] = general
    state.place(general, (9, 5))
    assert damage(state, tank, enemy, luck=10) == 3  # 5 × 70 % × 110 %


# -- vision (rules 13–15) -----------------------------------------------------------------------------------
def test_night_and_weather_shorten_sight():
    from kadesh.rules.front.vision import vision

    state = _small()
    scout_like = state.units["r2"]  # sniper: vision 8
    assert vision(state, scout_like) == 8
    state.hour = "dusk"
    assert vision(state, scout_like) == 7
    state.hour, state.season = "night", "winter"
    assert vision(state, scout_like) == 5


def test_cover_hides_small_units_better_and_camouflage_more_and_adjacent_is_always_seen():
    from kadesh.rules.front.vision import spotted

    state = _small()
    sniper = state.units["r2"]
    for unit in list(state.units.values()):
        if unit.side == "blue" and unit.id != "b1":
            state.occupied.pop(unit.cell)
            del state.units[unit.id]
    infantry = state.units["b1"]  # vision 6
    state.place(sniper, (8, 4))  # forest: a small unit hides 2 cells
    state.place(infantry, (3, 4))  # 5 cells away
    assert "r2" not in spotted(state, "blue")
    state.place(infantry, (4, 5))  # 4 cells away: 6 − 2 = 4
    assert "r2" in spotted(state, "blue")
    assert "r2" not in spotted(state, "blue", camouflaged=frozenset({"r2"}))
    state.place(infantry, (7, 4))
    assert "r2" in spotted(state, "blue", camouflaged=frozenset({"r2"}))  # adjacent


# -- capture points and victory (rules 16 and 17) ------------------------------------------------------------
def _engineer_on_point():
    from kadesh.rules.front.data import TABLES
    from kadesh.rules.front.state import Unit

    state = _small()
    engineer = Unit("b9", "blue", TABLES.units["engineer"], (4, 4), 10, 8, 6, None)
    state.units["b9"] = engineer
    state.place(engineer, (4, 4))  # the point at E5
    for enemy in ("r1", "r2"):
        state.place(state.units[enemy], (9, 0) if enemy == "r1" else (9, 1))  # 5 cells from the point
    return state, engineer


def test_only_an_engineer_enters_a_capture_point():
    from kadesh.rules.front.capture import may_enter_point

    state = _small()
    assert may_enter_point(state, "engineer", (4, 4)) and not may_enter_point(state, "infantry", (4, 4))
    assert may_enter_point(state, "infantry", (3, 4))


def test_a_point_is_taken_after_two_ends_of_turn_with_no_enemy_within_4():
    from kadesh.rules.front.capture import end_of_side_turn

    state, _ = _engineer_on_point()
    assert end_of_side_turn(state, "blue") == [] and state.progress[(4, 4)] == ("b9", 1)
    assert end_of_side_turn(state, "blue") == [("taken", (4, 4), "blue")]
    assert state.holders[(4, 4)] == "blue"


def test_an_enemy_near_restarts_the_count_and_makes_a_taken_point_neutral():
    from kadesh.rules.front.capture import arrived, end_of_side_turn

    state, _ = _engineer_on_point()
    end_of_side_turn(state, "blue")
    state.place(state.units["r1"], (8, 5))  # 4 cells from E5
    assert arrived(state, state.units["r1"]) == [("interrupted", (4, 4), "blue")] and (4, 4) not in state.progress
    assert end_of_side_turn(state, "blue") == [] and (4, 4) not in state.progress  # an enemy near: no count
    state.place(state.units["r1"], (9, 0))
    end_of_side_turn(state, "blue")
    end_of_side_turn(state, "blue")
    assert state.holders[(4, 4)] == "blue"
    state.place(state.units["r1"], (8, 5))
    assert arrived(state, state.units["r1"]) == [("neutral", (4, 4), "blue")]  # the moment it arrives


def test_victory_by_destroying_every_enemy_unit():
    from kadesh.rules.front.capture import winner

    state = _small()
    assert winner(state) is None
    for unit_id in [u.id for u in state.units.values() if u.side == "red"]:
        state.occupied.pop(state.units[unit_id].cell)
        del state.units[unit_id]
    assert winner(state) == "blue"


# -- forest fires (rule 10, sentence by sentence) -------------------------------------------------------------
def test_a_shell_sets_a_forest_ablaze_and_a_unit_staying_there_loses_hp():
    from kadesh.rules.front.forest import end_of_side_turn, ignite

    state = _small()
    assert not ignite(state, (0, 5))  # meadow
    assert ignite(state, (2, 0))      # the forest at C1
    state.place(state.units["b1"], (2, 0))
    assert end_of_side_turn(state, "blue") == {"b1": 2} and state.units["b1"].hp == 8
    assert end_of_side_turn(state, "red") == {}


def test_a_fire_leaves_burnt_ground():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front.forest import end_of_round, ignite

    state = _small()
    state.season = "spring"
    ignite(state, (8, 4), spreads=False)
    for _ in range(3):
        end_of_round(state, ScriptedDice([]))
    assert state.terrain_at((8, 4)).id == "burnt" and (8, 4) not in state.fires


def test_after_a_turn_the_fire_reaches_neighbouring_forests_and_goes_no_further():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front.forest import end_of_round, ignite

    state = _small()
    state.season = "spring"
    ignite(state, (2, 2))  # C3: forest; C2 is road now, C1 forest is two cells away
    started = end_of_round(state, ScriptedDice([]))
    assert started == []  # no forest next to C3
    state = _small()
    state.season = "spring"
    state.terrain[1][2] = state.terrain[0][2]  # make C2 forest again: C1–C2–C3 in a row
    ignite(state, (2, 0))
    assert end_of_round(state, ScriptedDice([])) == [(2, 1)]
    assert end_of_round(state, ScriptedDice([])) == []  # C2 does not pass it on to C3


def test_autumn_rain_stops_the_spreading():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front.forest import end_of_round, ignite

    state = _small()
    state.season = "autumn"
    state.terrain[1][2] = state.terrain[0][2]
    ignite(state, (2, 0))
    assert end_of_round(state, ScriptedDice([])) == []


def test_in_summer_a_forest_catches_fire_by_itself_one_turn_in_six():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front.forest import end_of_round

    state = _small()
    assert end_of_round(state, ScriptedDice([2])) == []        # 2 on 1d6: nothing
    assert end_of_round(state, ScriptedDice([1, 1])) == [(2, 0)]  # 1 on 1d6: the first forest burns


def test_in_spring_burnt_ground_grows_back_except_under_works_or_mines():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front.data import TABLES
    from kadesh.rules.front.forest import end_of_round

    state = _small()
    state.season = "spring"
    for cell in ((0, 5), (1, 5), (2, 5)):
        state.terrain[cell[1]][cell[0]] = TABLES.terrain["burnt"]
        state.burnt[cell] = 0
    state.works.add((1, 5))
    state.mines[(2, 5)] = "red"
    for _ in range(4):
        end_of_round(state, ScriptedDice([]))
    assert [state.terrain_at(c).id for c in ((0, 5), (1, 5), (2, 5))] == ["forest", "burnt", "burnt"]


# -- mines (rule 12) ------------------------------------------------------------------------------------------
def test_mines_are_invisible_to_the_enemy_until_an_engineer_comes_within_2():
    from kadesh.rules.front.data import TABLES
    from kadesh.rules.front.mines import mines_seen_by
    from kadesh.rules.front.state import Unit

    state = _small()
    state.mines[(6, 3)] = "red"
    assert mines_seen_by(state, "red") == {(6, 3)} and mines_seen_by(state, "blue") == set()
    engineer = Unit("b9", "blue", TABLES.units["engineer"], (3, 3), 10, 8, 6, None)
    state.units["b9"] = engineer
    state.place(engineer, (3, 3))
    assert mines_seen_by(state, "blue") == set()  # 3 cells away
    state.place(engineer, (4, 3))
    assert mines_seen_by(state, "blue") == {(6, 3)}


def test_a_mine_deals_3_damage_to_whoever_enters_and_an_engineer_demines():
    from kadesh.rules.front.data import TABLES
    from kadesh.rules.front.mines import trigger, why_not_demine
    from kadesh.rules.front.state import Unit

    state = _small()
    state.mines[(6, 3)] = "red"
    state.mines[(7, 3)] = "red"
    infantry = state.units["b1"]
    state.place(infantry, (6, 3))
    assert trigger(state, infantry) == 3 and infantry.hp == 7 and (6, 3) not in state.mines
    engineer = Unit("b9", "blue", TABLES.units["engineer"], (8, 4), 10, 8, 6, None)
    state.units["b9"] = engineer
    state.place(engineer, (8, 4))
    assert why_not_demine(state, engineer, (7, 3)) is None
    assert why_not_demine(state, infantry, (7, 3)) == "not_engineer"


# -- orders: move, fire, end of turn (rules 1, 2, 6, 8) ---------------------------------------------------------
def test_a_move_pays_its_action_points_and_fuel_and_a_mine_stops_it():
    from kadesh.rules.front import rules

    state = _small()
    events = rules.move(state, "blue", {"unit": "b2", "to": "E2"}, ScriptedDice([]))
    truck = state.units["b2"]
    assert truck.cell == (4, 1) and truck.ap == 14 - 4 and truck.fuel == 40 - 4
    assert events[0].data["ap"] == 4 and truck.moved
    state.mines[(1, 1)] = "red"
    # by the road at B2, where the mine is
    events = rules.move(state, "blue", {"unit": "b1", "to": "C1"}, ScriptedDice([]))
    infantry = state.units["b1"]
    assert infantry.cell == (1, 1) and infantry.hp == 7 and infantry.ap == 8 - 1
    assert [e.type for e in events] == ["moved", "seen_moving", "mine"]  # red's sniper at I1 sees the road


def test_orders_out_of_turn_or_out_of_reach_are_refused_and_change_nothing():
    from kadesh.core.errors import RuleError
    from kadesh.rules.front import rules

    state = _small()
    before = repr(state)
    for side, action in (("red", {"unit": "r1", "to": "J2"}), ("blue", {"unit": "r1", "to": "J2"}),
                         ("blue", {"unit": "b1", "to": "J6"}), ("blue", {"unit": "b1", "to": "Z99"})):
        with pytest.raises(RuleError):
            rules.move(state, side, action, ScriptedDice([]))
    assert repr(state) == before


def test_a_shot_costs_half_the_action_points_and_a_round_and_the_turn_refills_them():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules

    state = _small()
    state.place(state.units["b1"], (7, 1))  # the road at H2, next to the enemy infantry at J1? two cells
    events = rules.shoot(state, "blue", {"unit": "b1", "target": "J1"}, ScriptedDice([1]))
    infantry, enemy = state.units["b1"], state.units["r1"]
    assert infantry.ap == 8 - 4 and infantry.ammo == 11 and infantry.shots == 1 and enemy.hp == 10 - 4
    assert events[-1].data["damage"] == 4
    with pytest.raises(RuleError):
        rules.shoot(state, "blue", {"unit": "b1", "target": "J1"}, ScriptedDice([1]))  # once a turn
    rules.end_turn(state, "blue", ScriptedDice([]))
    rules.end_turn(state, "red", ScriptedDice([6]))  # summer: 6 on 1d6, no fire starts by itself
    assert state.units["b1"].ap == 8 and state.units["b1"].shots == 0 and state.turn == 2


# -- the view of a side and camouflage (rules 13 and 14) ------------------------------------------------------
def test_a_side_sees_only_what_it_spots_and_never_an_enemy_mine():
    from kadesh.rules.front.view import side_view

    state = _small()
    state.mines[(6, 3)] = "red"
    state.mines[(1, 5)] = "blue"
    blue = side_view(state, "blue")
    ids = {u["id"] for u in blue["units"]}
    assert {"b1", "b2", "b3"} <= ids and "r1" not in ids and "r2" not in ids  # 7+ cells away
    assert blue["mines"] == ["B6"] and "F4" not in repr(blue["mines"])
    assert all("ap" not in u for u in blue["units"] if u["side"] == "red")


def test_a_still_sniper_in_cover_is_camouflaged_and_spotted_2_cells_closer():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules
    from kadesh.rules.front.view import side_view

    state = _small()
    state.active = "red"
    sniper = state.units["r2"]
    state.place(sniper, (8, 4))  # forest
    state.place(state.units["b1"], (4, 5))  # 4 cells away, vision 6: 6 − 2 (small in cover) = 4
    assert "r2" in {u["id"] for u in side_view(state, "blue")["units"]}
    rules.end_turn(state, "red", ScriptedDice([6]))
    assert sniper.camouflaged
    assert "r2" not in {u["id"] for u in side_view(state, "blue")["units"]}  # 6 − 2 − 2 = 2


def test_hours_and_seasons_advance_with_the_turns():
    from kadesh.rules.front.clock import advance

    state = _small()  # summer, morning
    hours = []
    for _ in range(6):
        advance(state)
        hours.append(state.hour)
    assert hours == ["afternoon", "dusk", "night", "night", "dawn", "morning"]
    changed = [advance(state) for _ in range(6)]
    assert changed == [False] * 5 + [True] and state.season == "autumn"  # two days a season


# -- the cannon's blast, craters, shells in forests (rules 9 and 10) -------------------------------------------------
def _with(state, unit_id, side, kind, cell):
    from kadesh.rules.front.data import TABLES
    from kadesh.rules.front.state import Unit

    unit_type = TABLES.units[kind]
    unit = Unit(unit_id, side, unit_type, cell, unit_type.hp, unit_type.ap, unit_type.ammo, unit_type.fuel)
    state.units[unit_id] = unit
    state.place(unit, cell)
    return unit


def test_the_cannons_shell_blasts_2_cells_around_friend_or_foe_and_digs_a_crater_in_meadow():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules

    state = _small()
    _with(state, "b8", "blue", "cannon", (0, 5))
    _with(state, "r8", "red", "infantry", (6, 5))     # the target, in meadow
    _with(state, "r9", "red", "infantry", (8, 5))     # 2 cells away: half the damage
    _with(state, "b7", "blue", "infantry", (4, 4))    # a friend 2 cells away: half too
    _with(state, "b6", "blue", "scout", (3, 3))       # the eye that sees the target, out of the blast
    events = rules.shoot(state, "blue", {"unit": "b8", "target": "G6"}, ScriptedDice([1]))
    damage = {e.data["target"]: e.data["damage"] for e in events if e.type == "shot"}
    assert damage["r8"] == 7 and damage["r9"] == 3 and damage["b7"] == 2  # b7 stands on a hill: cover
    assert state.terrain_at((6, 5)).id == "crater"


def test_indirect_fire_needs_a_friendly_eye_on_the_target():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules

    state = _small()
    _with(state, "b8", "blue", "mortar", (0, 5))
    _with(state, "r8", "red", "infantry", (7, 5))
    with pytest.raises(RuleError) as refused:
        rules.shoot(state, "blue", {"unit": "b8", "target": "H6"}, ScriptedDice([1]))
    assert refused.value.code == "cannot_fire_unseen"


def test_a_tank_shell_in_a_forest_sets_it_ablaze():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules

    state = _small()
    tank = state.units["b3"]
    state.place(tank, (6, 4))
    _with(state, "r8", "red", "infantry", (8, 4))  # in the forest at I5
    rules.shoot(state, "blue", {"unit": "b3", "target": "I5"}, ScriptedDice([1]))
    assert (8, 4) in state.fires


# -- transport, resupply, healing (rules 3, 4, 8) ------------------------------------------------------------------
def test_a_unit_boards_a_neighbouring_truck_if_it_has_not_moved_and_a_truck_carries_two_small_or_one_medium():
    from kadesh.rules.front.logistics import board, why_not_board

    state = _small()
    infantry, truck = state.units["b1"], state.units["b2"]  # A1 beside A2
    assert why_not_board(state, infantry, truck) is None
    board(state, infantry, truck)
    assert infantry.aboard == "b2" and (0, 0) not in state.occupied and infantry.ap == 8 - 2
    second = _with(state, "b7", "blue", "medic", (1, 0))
    assert why_not_board(state, second, truck) is None
    board(state, second, truck)
    third = _with(state, "b6", "blue", "scout", (1, 1))
    assert why_not_board(state, third, truck) == "full"
    cannon = _with(state, "b5", "blue", "cannon", (0, 2))
    assert why_not_board(state, cannon, truck) == "full"  # a medium unit alone
    third.moved = True
    assert why_not_board(state, third, truck) == "moved"


def test_a_supply_truck_refills_rounds_and_fuel():
    from kadesh.rules.front.logistics import resupply

    state = _small()
    supplier = _with(state, "b9", "blue", "supply_truck", (2, 2))
    tank = state.units["b3"]
    tank.ammo, tank.fuel = 0, 3
    resupply(state, supplier, tank)
    assert (tank.ammo, tank.fuel, supplier.ap) == (8, 30, 14 - 2)


def test_foot_units_heal_beside_a_medic_and_vehicles_are_repaired_by_an_engineer():
    from kadesh.rules.front.logistics import heal_and_repair

    state = _small()
    infantry, truck = state.units["b1"], state.units["b2"]
    infantry.hp, truck.hp = 4, 10
    assert heal_and_repair(state, "blue") == {}
    _with(state, "b9", "blue", "medic", (1, 0))
    assert heal_and_repair(state, "blue") == {"b1": 3}
    _with(state, "b8", "blue", "engineer", (1, 2))
    assert heal_and_repair(state, "blue") == {"b1": 3, "b2": 3}


def test_board_ride_and_unload_through_the_orders_and_aboard_nobody_fires():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules

    state = _small()
    rules.board(state, "blue", {"unit": "b1", "truck": "b2"})
    with pytest.raises(RuleError) as refused:
        rules.shoot(state, "blue", {"unit": "b1", "target": "J1"}, ScriptedDice([1]))
    assert refused.value.code == "cannot_fire_aboard"
    rules.move(state, "blue", {"unit": "b2", "to": "E2"}, ScriptedDice([]))
    rules.unload(state, "blue", {"unit": "b2", "passenger": "b1", "to": "E1"}, ScriptedDice([]))
    assert state.units["b1"].cell == (4, 0) and state.units["b2"].cargo == []
    with pytest.raises(RuleError):
        rules.resupply(state, "blue", {"unit": "b2", "target": "b1"})  # a plain truck does not resupply


# -- works and buildings (rule 11, sentence by sentence; rule 5's buildings and sites) -------------------------------
def _engineer(state, cell=(3, 3)):
    return _with(state, "b9", "blue", "engineer", cell)


def test_an_engineer_builds_a_work_and_a_building_step_by_step_and_nobody_crosses_a_building_or_site():
    from kadesh.rules.front import rules
    from kadesh.rules.front.moves import step_price

    state = _small()
    engineer = _engineer(state)
    rules.build(state, "blue", {"unit": "b9", "kind": "trench", "cell": "E4"})
    trench = state.structures[(4, 3)]
    assert trench.complete and engineer.ap == 8 - 4
    assert step_price(state, state.units["b1"], (4, 3)) == 3 and step_price(state, state.units["b2"], (4, 3)) is None
    rules.build(state, "blue", {"unit": "b9", "kind": "watchtower", "cell": "C5"})
    site = state.structures[(2, 4)]
    assert not site.complete and step_price(state, state.units["b1"], (2, 4)) is None  # a site blocks too
    engineer.ap = 8
    rules.build(state, "blue", {"unit": "b9", "kind": "watchtower", "cell": "C5"})
    engineer.ap = 8
    rules.build(state, "blue", {"unit": "b9", "kind": "watchtower", "cell": "C5"})
    assert site.complete and step_price(state, state.units["b1"], (2, 4)) is None


def test_an_enemy_building_takes_full_damage_without_cover_and_leaves_a_carcass_to_clear():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules
    from kadesh.rules.front.data import TABLES
    from kadesh.rules.front.state import Structure

    state = _small()
    state.structures[(6, 5)] = Structure(TABLES.structures["storage"], "red", 5, 3)
    tank = state.units["b3"]
    state.place(tank, (3, 5))
    refresh_memory(state)  # the tank sees it: a side aims only at what it knows of and sees
    events = rules.shoot(state, "blue", {"unit": "b3", "target": "G6", "at": "structure"}, ScriptedDice([1]))
    assert events[1].data["damage"] == 7 and state.structures[(6, 5)].carcass  # tank against large: 7
    engineer = _engineer(state, (5, 5))
    from kadesh.rules.front.moves import step_price

    assert step_price(state, engineer, (6, 5)) is None  # a carcass blocks the way
    rules.clear(state, "blue", {"unit": "b9", "cell": "G6"})
    assert (6, 5) not in state.structures


def test_a_site_destroyed_leaves_nothing_and_a_neutral_bridge_can_be_targeted():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules
    from kadesh.rules.front.data import TABLES
    from kadesh.rules.front.state import Structure

    state = _small()
    state.structures[(6, 5)] = Structure(TABLES.structures["hospital"], "red", 3, 1)  # a site
    state.structures[(5, 1)] = Structure(TABLES.structures["bridge"], None, 5, 3)
    tank = state.units["b3"]
    state.place(tank, (3, 5))
    refresh_memory(state)
    rules.shoot(state, "blue", {"unit": "b3", "target": "G6", "at": "structure"}, ScriptedDice([1]))
    assert (6, 5) not in state.structures
    tank.shots = 0
    tank.ap = 10
    state.place(tank, (3, 1))
    rules.shoot(state, "blue", {"unit": "b3", "target": "F2", "at": "structure"}, ScriptedDice([1]))
    assert state.terrain_at((5, 1)).id == "water"  # the bridge is down


def test_under_a_unit_only_finished_trenches_bunkers_and_teeth_can_be_targeted():
    from kadesh.rules.front.data import TABLES
    from kadesh.rules.front.state import Structure
    from kadesh.rules.front.structures import why_not_target

    state = _small()
    enemy = state.units["r1"]  # at J1
    state.structures[(9, 0)] = Structure(TABLES.structures["trench"], "red", 10, 1)
    assert why_not_target(state, state.units["b3"], (9, 0)) is None
    state.structures[(9, 0)] = Structure(TABLES.structures["trench"], "red", 10, 0)  # unfinished
    assert why_not_target(state, state.units["b3"], (9, 0)) == "under_a_unit"
    state.structures[(9, 0)] = Structure(TABLES.structures["watchtower"], "red", 10, 3)
    assert why_not_target(state, state.units["b3"], (9, 0)) == "under_a_unit"
    assert enemy.cell == (9, 0)


def test_fire_at_a_unit_also_wears_its_cells_work_except_a_weapon_of_1_damage():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules
    from kadesh.rules.front.data import TABLES
    from kadesh.rules.front.state import Structure

    state = _small()
    state.structures[(9, 0)] = Structure(TABLES.structures["trench"], "red", 10, 1)
    state.place(state.units["b1"], (7, 1))
    rules.shoot(state, "blue", {"unit": "b1", "target": "J1"}, ScriptedDice([1]))
    assert state.structures[(9, 0)].hp < 10
    medic = _with(state, "b7", "blue", "medic", (8, 1))
    before = state.structures[(9, 0)].hp
    rules.shoot(state, "blue", {"unit": "b7", "target": "J1"}, ScriptedDice([1]))
    assert state.structures[(9, 0)].hp == before and medic.shots == 1


def test_a_hospital_heals_a_workshop_repairs_and_a_storage_refills():
    from kadesh.rules.front.data import TABLES
    from kadesh.rules.front.logistics import heal_and_repair
    from kadesh.rules.front.state import Structure

    state = _small()
    infantry, truck, tank = state.units["b1"], state.units["b2"], state.units["b3"]
    infantry.hp, truck.hp, tank.ammo = 4, 10, 0
    state.structures[(1, 0)] = Structure(TABLES.structures["hospital"], "blue", 20, 3)
    state.structures[(1, 1)] = Structure(TABLES.structures["workshop"], "blue", 20, 3)
    state.structures[(2, 3)] = Structure(TABLES.structures["storage"], "blue", 20, 3)
    assert heal_and_repair(state, "blue") == {"b1": 3, "b2": 3} and tank.ammo == 8
    state.structures[(2, 3)] = Structure(TABLES.structures["storage"], "red", 20, 3)
    tank.ammo = 0
    heal_and_repair(state, "blue")
    assert tank.ammo == 0  # the enemy's storage does not serve


def test_a_watchtower_sees_12_cells_through_night_and_camouflage():
    from kadesh.rules.front.data import TABLES
    from kadesh.rules.front.state import Structure
    from kadesh.rules.front.vision import spotted

    state = _small()
    state.hour = "night"
    for unit_id in ("b1", "b2", "b3"):
        state.occupied.pop(state.units[unit_id].cell)
        del state.units[unit_id]
    assert spotted(state, "blue") == set()
    state.structures[(0, 5)] = Structure(TABLES.structures["watchtower"], "blue", 15, 3)
    assert spotted(state, "blue", camouflaged=frozenset({"r2"})) == {"r1", "r2"}


def test_the_default_scenario_is_32_by_24_with_about_80_units_and_5_points():
    from kadesh.rules.front.scenario import load as load_scenario

    state = load_scenario("default")
    assert (state.width, state.height) == (32, 24) and 75 <= len(state.units) <= 85 and len(state.points) == 5
    assert all(state.terrain_at(u.cell).step_cost(u.type.movement) is not None
               for u in state.units.values() if not u.type.flies)
    landed = [u for u in state.units.values() if u.type.aircraft == "helicopter"]  # the air war: on meadow or pad
    assert landed and all(not u.flying and (state.terrain_at(u.cell).id == "meadow" or u.cell in state.structures)
                          for u in landed)
    drones = [u for u in state.units.values() if u.type.aircraft == "drone"]
    assert drones and all(state.units[u.aboard].type.id == "drone_operator" for u in drones)


def test_a_side_remembers_the_ground_as_it_last_saw_it():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules
    from kadesh.rules.front.ruleset import Front
    from kadesh.rules.front.view import side_view

    state = _small()
    tank = state.units["b3"]
    state.place(tank, (3, 5))
    _with(state, "r8", "red", "infantry", (6, 5))
    rules.shoot(state, "blue", {"unit": "b3", "target": "G6"}, ScriptedDice([1]))  # a crater at G6
    from kadesh.rules.front.vision import refresh_memory, sees_cell

    state.hour = "night"  # red's one eye left, at J1, sees 4 cells tonight: not G6
    state.occupied.pop(state.units["r2"].cell)
    del state.units["r2"]

    state.units["r8"].hp = 99
    state.occupied.pop((6, 5))
    del state.units["r8"]
    refresh_memory(state)
    assert not sees_cell(state, "red", (6, 5)) and sees_cell(state, "blue", (6, 5))
    assert side_view(state, "blue")["map"][5][6] == "crater" and side_view(state, "red")["map"][5][6] == "meadow"
    assert Front().view(state, None)["map"][5][6] == "meadow"  # spectators see the map as it began


def test_a_destroyed_vehicle_leaves_a_wreck_and_a_truck_tows_a_cannon():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules
    from kadesh.rules.front.logistics import why_not_board

    state = _small()
    enemy_truck = _with(state, "r8", "red", "truck", (6, 5))
    enemy_truck.hp = 1
    state.place(state.units["b3"], (3, 5))
    events = rules.shoot(state, "blue", {"unit": "b3", "target": "G6"}, ScriptedDice([1]))
    assert "wreck" in [e.type for e in events] and state.terrain_at((6, 5)).id == "wreck"
    cannon = _with(state, "b8", "blue", "cannon", (1, 1))
    assert why_not_board(state, cannon, state.units["b2"]) is None  # the truck at A2 tows it


def test_victory_by_holding_4_of_the_5_points():
    from kadesh.rules.front.capture import winner
    from kadesh.rules.front.scenario import load as load_scenario

    state = load_scenario("default")
    points = list(state.holders)
    for cell in points[:3]:
        state.holders[cell] = "red"
    assert winner(state) is None
    state.holders[points[3]] = "red"
    assert winner(state) == "red"


def test_sight_is_10_cells_at_most():
    import dataclasses

    from kadesh.rules.front.vision import vision

    state = _small()
    eagle = state.units["b1"]
    eagle.type = dataclasses.replace(eagle.type, vision=15)
    assert vision(state, eagle) == 10


def test_firing_then_withdrawing_costs_nothing_more():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules

    state = _small()
    state.place(state.units["b1"], (7, 1))
    rules.shoot(state, "blue", {"unit": "b1", "target": "J1"}, ScriptedDice([1]))
    assert state.units["b1"].ap == 4
    rules.move(state, "blue", {"unit": "b1", "to": "F2"}, ScriptedDice([]))  # back along the road: 2 steps of 1
    assert state.units["b1"].ap == 2


# -- what a side does not see, its orders do not reveal (found by tests/test_hidden_information.py) -----------------
def test_a_unit_the_side_does_not_see_is_refused_as_a_target_exactly_like_an_empty_cell():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules

    state = _small()
    state.place(state.units["r1"], (7, 5))  # H6: in the tank's range (6), out of every blue unit's sight
    answers = []
    for cell in ("H6", "G6"):  # the unseen infantry, an empty meadow
        with pytest.raises(RuleError) as refused:
            rules.shoot(state, "blue", {"unit": "b3", "target": cell}, ScriptedDice([1]))
        answers.append((refused.value.code, refused.value.en))
    assert answers[0] == answers[1] and answers[0][0] == "cannot_fire_unseen"
    assert state.units["r1"].hp == state.units["r1"].type.hp and state.units["b3"].shots == 0


def test_a_blast_tells_the_shooter_nothing_of_a_unit_its_side_does_not_see():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules

    state = _small()
    _with(state, "b8", "blue", "cannon", (0, 5))
    _with(state, "b7", "blue", "infantry", (1, 5))    # the eye on the target, 7 cells from r9
    _with(state, "r8", "red", "infantry", (6, 5))     # the target
    _with(state, "r9", "red", "infantry", (8, 5))     # in the blast, seen by nobody on blue's side
    events = rules.shoot(state, "blue", {"unit": "b8", "target": "G6"}, ScriptedDice([1]))
    assert {e.data["target"] for e in events if e.type == "shot" and e.visible_to("blue")} == {"r8"}
    (unseen,) = [e for e in events if e.type == "shot" and e.data["target"] == "r9"]  # once over, the public's
    assert unseen.audience == () and not any(unseen.visible_to(reader) for reader in ("blue", "red", None))
    assert all("r9" not in repr(e.data) for e in events if e.audience is None)  # addressed to blue by the ruleset
    assert any(e.type == "hit" and e.data["unit"] == "r9" and e.audience == ("red",) for e in events)
    assert state.units["r9"].hp == state.units["r9"].type.hp - 3  # hit all the same


def test_a_second_build_step_is_legal_on_a_copy_of_the_state_too():
    from kadesh.core import get_ruleset
    from kadesh.rules.front import rules

    state = _small()
    engineer = _with(state, "b9", "blue", "engineer", (3, 5))
    rules.build(state, "blue", {"unit": "b9", "kind": "storage", "cell": "E6"})
    engineer.ap = engineer.type.ap
    get_ruleset("front").check(state, "blue", {"type": "build", "unit": "b9", "kind": "storage", "cell": "E6"})


def test_a_unit_already_aboard_does_not_board_again():
    from kadesh.rules.front import rules

    state = _small()
    rules.board(state, "blue", {"unit": "b1", "truck": "b2"})
    with pytest.raises(RuleError):
        rules.board(state, "blue", {"unit": "b1", "truck": "b2"})
    assert state.units["b2"].cargo == ["b1"]


# -- fog-consistent orders: planned on what the side knows, the ground answers when it acts --------------------------
def test_a_move_into_an_unseen_enemy_stops_on_the_cell_before_pays_only_the_steps_made_and_reveals_the_contact():
    from kadesh.rules.front import rules
    from kadesh.rules.front.narration import narrate
    from kadesh.rules.front.ruleset import Front
    from kadesh.rules.front.vision import spotted

    state, plain = _small(), _small()
    for battle in (state, plain):
        battle.place(battle.units["r1"], (8, 1))  # I2, on the road: 7 cells and more from every blue unit
    assert "r1" not in spotted(state, "blue")
    assert {"type": "move", "unit": "b2", "to": "I2"} in list(Front().legal_actions(state, "blue"))
    events = rules.move(state, "blue", {"unit": "b2", "to": "I2"}, ScriptedDice([]))  # along the road, into r1
    rules.move(plain, "blue", {"unit": "b2", "to": "H2"}, ScriptedDice([]))  # the same steps, stopping there of itself
    truck = state.units["b2"]
    assert truck.cell == (7, 1) and (truck.ap, truck.fuel) == (plain.units["b2"].ap, plain.units["b2"].fuel)
    assert truck.ap > 14 - 8  # the step into I2 was not paid
    assert [(e.type, e.audience) for e in events] == [("moved", None), ("seen_moving", ("red",)),
                                                      ("contact", ("blue",)), ("found", ("red",))]
    assert events[0].data["to"] == "H2" and events[2].data == {"unit": "b2", "cell": "I2"}
    assert events[3].data == {"unit": "r1", "by": "b2", "cell": "H2"}
    assert "r1" in spotted(state, "blue") and "b2" in spotted(state, "red")  # next to each other now
    assert narrate(events[2], "blue", "en") == "Blue 2 runs into an enemy unit at I2 and stops just short of it."
    assert narrate(events[3], "red", "fr") == "Rouge 1 est découvert par Bleu 2, arrivé en H2."


def _night_shot():
    """Winter night (sight less 3): the tank on C6 aims at r8 on I6, which b7 sees; r9 on F6 stands in the line
    of fire, seen by nobody of blue's side."""
    state = _small()
    state.season, state.hour = "winter", "night"
    state.place(state.units["b3"], (2, 5))
    _with(state, "b7", "blue", "infantry", (9, 2))  # 3 cells from r8, 4 from r9: sees 3
    _with(state, "r8", "red", "infantry", (8, 5))
    _with(state, "r9", "red", "infantry", (5, 5))
    return state


def test_a_target_behind_an_unseen_unit_is_legal_and_the_shot_is_spent_and_stopped():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules
    from kadesh.rules.front.narration import narrate
    from kadesh.rules.front.ruleset import Front
    from kadesh.rules.front.vision import spotted

    state = _night_shot()
    assert "r8" in spotted(state, "blue") and "r9" not in spotted(state, "blue")
    assert {"type": "shoot", "unit": "b3", "target": "I6"} in list(Front().legal_actions(state, "blue"))
    tank = state.units["b3"]
    events = rules.shoot(state, "blue", {"unit": "b3", "target": "I6"}, ScriptedDice([]))  # no luck rolled
    assert (tank.ap, tank.ammo, tank.shots) == (tank.type.ap - tank.type.shot_cost, tank.type.ammo - 1, 1)
    assert state.units["r8"].hp == 10 and state.units["r9"].hp == 10
    assert [(e.type, e.audience, e.data) for e in events] == [("shot_stopped", ("blue",),
                                                               {"unit": "b3", "target": "I6"})]
    assert narrate(events[0], "blue", "en") == "Blue 3's shot at I6 is stopped by something in the way."
    state.place(state.units["b7"], (6, 4))  # now blue sees r9 (and r8): the tank's second shot is refused
    with pytest.raises(RuleError) as refused:
        rules.shoot(state, "blue", {"unit": "b3", "target": "I6"}, ScriptedDice([]))
    assert refused.value.code == "cannot_fire_blocked" and tank.shots == 1


def test_a_sides_legal_actions_are_the_same_whether_an_unseen_enemy_unit_stands_somewhere_or_not():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front.ruleset import Front

    with_it, without = _night_shot(), _night_shot()
    del without.units["r9"], without.occupied[(5, 5)]
    moved = _night_shot()
    moved.place(moved.units["r9"], (4, 1))  # on the road, in the truck's way, still out of sight
    front = Front()
    legal = [sorted(map(repr, front.legal_actions(s, "blue"))) for s in (with_it, without, moved)]
    assert legal[0] == legal[1] == legal[2]
    assert front.view(with_it, "blue") == front.view(without, "blue") == front.view(moved, "blue")
    for action in ({"type": "move", "unit": "b2", "to": "F2"}, {"type": "shoot", "unit": "b3", "target": "I6"},
                   {"type": "move", "unit": "b3", "to": "F6"}):
        for battle in (with_it, without, moved):
            front.check(battle, "blue", action)  # accepted everywhere: the ground answers when it is carried out
    assert front.apply(moved.copy(), "blue", {"type": "move", "unit": "b2", "to": "F2"}, ScriptedDice([]))[2].type \
        == "contact"  # after the move and what red saw of it


def test_a_unit_destroyed_out_of_sight_is_told_to_the_other_side_without_its_id_or_cell():
    from kadesh.core.dice import ScriptedDice
    from kadesh.rules.front import rules
    from kadesh.rules.front.narration import narrate

    state = _small()
    _with(state, "b8", "blue", "cannon", (0, 5))
    _with(state, "b7", "blue", "infantry", (1, 5))    # the eye on the target, 7 cells from r9
    _with(state, "r8", "red", "infantry", (6, 5))     # the target, seen
    _with(state, "r9", "red", "infantry", (8, 5))     # in the blast, seen by nobody on blue's side
    state.units["r8"].hp = state.units["r9"].hp = 1
    events = rules.shoot(state, "blue", {"unit": "b8", "target": "G6"}, ScriptedDice([1]))
    lost = [(e.data, e.audience) for e in events if e.type == "destroyed"]
    assert ({"unit": "r8", "side": "red", "cell": "G6"}, ("blue", "red")) in lost
    assert ({"unit": "r9", "side": "red", "cell": "I6"}, ("red",)) in lost
    assert ({"side": "red"}, ("blue",)) in lost and len(lost) == 3
    unseen = next(e for e in events if e.type == "destroyed" and "cell" not in e.data)
    assert narrate(unseen, "blue", "en") == "A red unit is destroyed, out of sight."
    assert narrate(unseen, "blue", "fr") == "Une unité rouge est détruite, hors de vue."

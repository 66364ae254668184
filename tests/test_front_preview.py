"""Front told before it is played (issue 19): a move's way and cost, a shot's damage and chance of destroying,
the cells a side sees, the names of the ruleset's words. All of it on what the side knows, never more."""

from __future__ import annotations

import pytest

from kadesh.core.errors import RuleError
from kadesh.core.grid import map_cell_name
from kadesh.rules.front import rules
from kadesh.rules.front.ruleset import Front
from kadesh.rules.front.vision import sees_cell
from tests.front_support import air_ground, clear_side, dice, mixed, put, small
from tests.kadesh_http import make_client

FRONT = Front()


@pytest.fixture
def client(db):
    yield from make_client(db)


def refusal(call, *args):
    with pytest.raises(RuleError) as refused:
        call(*args)
    return refused.value.code


def test_a_moves_preview_is_the_way_the_move_takes_with_the_action_points_and_fuel_it_pays():
    state = small()
    tank = state.units["b3"]
    action = {"type": "move", "unit": "b3", "to": "E2"}
    shown = FRONT.preview(state, "blue", action)
    ap, fuel = tank.ap, tank.fuel
    FRONT.apply(state, "blue", action, dice())
    assert shown["kind"] == "move" and shown["path"][-1] == "E2" == map_cell_name(tank.cell)
    assert (shown["ap"], shown["fuel"]) == (ap - tank.ap, fuel - tank.fuel) and shown["ap_left"] == tank.ap
    assert all(isinstance(cell, str) for cell in shown["path"])


def test_a_preview_refuses_what_the_order_refuses_and_changes_nothing():
    state = small()
    before = FRONT.view(state, "blue")
    for action in ({"type": "move", "unit": "b3", "to": "F1"}, {"type": "move", "unit": "r1", "to": "I2"},
                   {"type": "shoot", "unit": "b1", "target": "J1"}):
        with pytest.raises(RuleError) as shown:
            FRONT.preview(state, "blue", action)
        with pytest.raises(RuleError) as played:
            FRONT.apply(state.copy(), "blue", action, dice(1))
        assert shown.value.code == played.value.code
    assert FRONT.view(state, "blue") == before


def test_a_shots_odds_give_each_damage_with_its_chance_and_the_chance_of_destroying_cover_included():
    state = small()
    clear_side(state, "red", keep=("r1",))
    infantry = state.units["r1"]
    state.place(infantry, (3, 1))  # D2, on the road: no cover
    action = {"type": "shoot", "unit": "b3", "target": "D2"}
    odds = FRONT.odds(state, "blue", action)
    assert odds["kind"] == "shot" and odds["cover"] == 0 and odds["hp"] == 10
    assert abs(sum(c["chance"] for c in odds["chances"]) - 1) < 1e-3
    low, high = odds["damage"]
    for roll, expected in ((1, low), (11, high)):  # luck 0 % and 10 %
        trial = state.copy()
        rules.shoot(trial, "blue", action, dice(roll))
        assert 10 - trial.units["r1"].hp == expected
    infantry.hp = low
    assert FRONT.odds(state, "blue", action)["destroy"] == 1.0
    infantry.hp = high + 1
    assert FRONT.odds(state, "blue", action)["destroy"] == 0.0
    state.place(infantry, (2, 0))  # C1, in the forest: one cover point, less damage
    covered = FRONT.odds(state, "blue", {**action, "target": "C1"})
    assert covered["cover"] == 1 and covered["damage"][1] < high


def test_odds_count_the_enemy_generals_reassurance_only_if_the_side_sees_that_general():
    state = small()
    clear_side(state, "red", keep=("r1",))
    state.place(state.units["r1"], (3, 1))
    action = {"type": "shoot", "unit": "b3", "target": "D2"}
    alone = FRONT.odds(state, "blue", action)
    general = put(state, "r9", "red", "general", (8, 5))  # I6: within 5 of D2, out of blue's sight
    assert FRONT.odds(state, "blue", action) == alone
    state.place(general, (4, 2))  # E3: seen now
    reassured = FRONT.odds(state, "blue", action)
    assert reassured["cover"] == alone["cover"] + 1
    assert reassured["reassured"] and "reassured" not in alone  # a page says where that point comes from (issue 44)


def test_odds_at_a_target_the_side_does_not_see_are_refused_as_the_shot_is():
    state = small()
    clear_side(state, "red", keep=("r1",))
    state.hour = "night"  # blue's sight falls short of J1
    action = {"type": "shoot", "unit": "b3", "target": "J1"}
    code = refusal(FRONT.odds, state, "blue", action)
    assert code == refusal(rules.shoot, state.copy(), "blue", action, dice(1)) == "cannot_fire_unseen"


def test_a_drone_in_flight_is_brought_down_for_certain_and_a_blast_warns_of_friends_in_it():
    state = air_ground()
    drone = put(state, "r20", "red", "surveillance_drone", (6, 7), operator="r1")  # G8, aloft
    odds = FRONT.odds(state, "blue", {"type": "shoot", "unit": "b9", "target": "G8", "at": "air"})
    assert odds["destroy"] == 1.0 and odds["damage"] == [drone.hp, drone.hp]
    state = mixed()
    cannon, target = state.units["r5"], state.units["b3"]
    state.active = "red"
    put(state, "r9", "red", "scout", (5, 3))  # an eye on the tank
    state.place(cannon, (9, 5))
    enemy = put(state, "b9", "blue", "infantry", (target.cell[0] + 1, target.cell[1] + 1))
    friend = put(state, "r10", "red", "infantry", (target.cell[0] + 2, target.cell[1]))
    odds = FRONT.odds(state, "red", {"type": "shoot", "unit": "r5", "target": map_cell_name(target.cell)})
    caught = {b["cell"]: b["friend"] for b in odds["blast"]}
    assert caught[map_cell_name(friend.cell)] is True and caught[map_cell_name(enemy.cell)] is False


def test_a_side_sees_the_cells_its_view_marks_in_sight_and_counts_only_its_own_captures():
    state = mixed()
    view = FRONT.view(state, "blue")
    rows = view["sight"]
    assert len(rows) == state.height and all(len(row) == state.width for row in rows)
    assert all((rows[y][x] == "1") == sees_cell(state, "blue", (x, y))
               for y in range(state.height) for x in range(state.width))
    assert "0" in "".join(rows)
    engineer = state.units["r3"]
    state.progress[(4, 4)] = (engineer.id, 1)
    assert FRONT.view(state, "red")["counting"] == [{"cell": "E5", "unit": "r3", "ends": 1, "needed": 2}]
    assert FRONT.view(state, "blue")["counting"] == []


def test_the_rulesets_words_are_named_by_the_server(client):
    listed = {r["name"]: r for r in client.get("/api/rulesets").json()}
    words = listed["front"]["glossary"]
    assert words["units"]["heavy_tank"]["fr"] == "char lourd" and words["units"]["attack_helicopter"]["aircraft"] \
        == "helicopter"
    assert words["terrain"]["ruins"]["en"] == "ruined village" and words["structures"]["heliport"]["fr"] == "héliport"
    assert words["weapons"]["rocket"] == {"fr": "roquette", "en": "rocket"}


def test_previews_and_odds_over_http(client):
    made = client.post("/api/games", json={"ruleset": "front", "options": {"scenario": "test_air"}}).json()
    auth = {"Authorization": f"Bearer {made['seats']['blue']['token']}"}
    url = f"/api/games/{made['id']}"
    moved = client.post(f"{url}/preview", headers=auth, json={"action": {"type": "move", "unit": "b9", "to": "F8"}})
    assert moved.status_code == 200 and moved.json()["preview"]["path"] == ["F8"]
    shot = {"type": "shoot", "unit": "b9", "target": "K5", "at": "air", "weapon": "rocket"}
    odds = client.post(f"{url}/odds", headers=auth, json={"action": shot})
    assert odds.status_code == 200 and odds.json()["odds"]["hp"] == 18
    refused = client.post(f"{url}/odds", headers=auth, json={"action": {**shot, "target": "A1"}})
    assert refused.status_code in (409, 422) and refused.json()["code"] == "cannot_fire_unseen"
    assert client.get(url, headers=auth).json()["version"] == 0


def test_the_journal_names_each_unit_with_its_type():
    state = small()
    clear_side(state, "red", keep=("r1",))
    state.place(state.units["r1"], (3, 1))  # D2
    events = FRONT.apply(state, "blue", {"type": "shoot", "unit": "b3", "target": "D2"}, dice(1))
    shot = next(e for e in events if e.type == "shot")
    french = "Bleu 3 (char lourd) tire (canon) sur Rouge 1 (infanterie) en D2 : "
    assert FRONT.narrate(shot, "blue", "fr").startswith(french)
    assert FRONT.narrate(shot, "blue", "en").startswith("Blue 3 (heavy tank) fires (gun) at Red 1 (infantry) at D2: ")
    hit = next(e for e in events if e.type == "hit")
    assert FRONT.narrate(hit, "red", "en").startswith("Red 1 (infantry) is hit by Blue 3 (heavy tank) from B3")


def test_a_side_reads_its_units_sight_now_and_where_each_turn_ended():
    state = small()
    assert {u["id"]: u.get("sight") for u in FRONT.view(state, "blue")["units"]}["b1"] == 6
    enemies = [u for u in FRONT.view(state, "red")["units"] if u["side"] == "blue"]
    assert enemies and all("sight" not in u for u in enemies)  # an enemy's sight is not told
    state.hour = "night"
    own = {u["id"]: u for u in FRONT.view(state, "blue")["units"]}
    assert own["b1"]["sight"] == 6 - 2
    events = FRONT.apply(state, "blue", {"type": "end_turn"}, dice())
    marks = FRONT.marks(events, "blue")
    assert {"kind": "turn_ended", "side": "blue"} in marks and marks.count(None) == len(events) - 1

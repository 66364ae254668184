"""Front, part 2 (issue 16): fire during the enemy's turn, sentence by sentence, with scripted dice.

« Une unité en alerte garde son tir pour le tour adverse et fait feu sur qui bouge ou surgit à
portée. Ni le sniper, ni le général, ni l'observateur ne se mettent en alerte. »
« Une unité à tir tendu, hors sniper, général, observateur et hélicoptères, reçoit une zone de 2
cases de rayon : à chaque fin de tour, elle y fait sa ronde et tire sur l'ennemi qui passe à portée. »
"""

from __future__ import annotations

import pytest

from kadesh.core.errors import RuleError
from kadesh.rules.front import rules
from kadesh.rules.front.data import TABLES
from kadesh.rules.front.ruleset import Front
from tests.front_support import clear_side, dice, put, small

FRONT = Front()


def _on_alert(cell=(6, 1)):
    """Blue infantry b1 on alert on the road at G2, three cells from the red infantry at J1; red to play."""
    state = small()
    infantry = state.units["b1"]
    state.place(infantry, cell)
    rules.alert(state, "blue", {"unit": "b1"})
    rules.end_turn(state, "blue", dice())
    return state, infantry


# -- alert: « garde son tir pour le tour adverse » ---------------------------------------------------------------
def test_alert_keeps_a_shot_for_the_enemys_turn_and_is_the_units_last_order():
    state = small()
    state.place(state.units["b1"], (6, 1))
    assert {"type": "alert", "unit": "b1"} in list(FRONT.legal_actions(state, "blue"))
    rules.alert(state, "blue", {"unit": "b1"})
    infantry = state.units["b1"]
    assert infantry.alert and infantry.ap == 8 - TABLES.order_costs["alert"] and infantry.shots == 0
    assert not [a for a in FRONT.legal_actions(state, "blue") if a.get("unit") == "b1"]
    with pytest.raises(RuleError) as refused:
        rules.move(state, "blue", {"unit": "b1", "to": "F2"}, dice())
    assert refused.value.code == "on_alert"
    assert FRONT.view(state, "blue")["units"][0]["alert"] is True
    seen_by_red = [u for u in FRONT.view(state, "red")["units"] if u["side"] == "blue"]
    assert seen_by_red and all("alert" not in u for u in seen_by_red)  # the enemy is not told


def test_alert_needs_a_shot_left_rounds_and_the_action_points_of_a_shot():
    state = small()
    infantry = state.units["b1"]
    state.place(infantry, (7, 1))
    rules.shoot(state, "blue", {"unit": "b1", "target": "J1"}, dice(1))  # its one shot of the turn
    with pytest.raises(RuleError) as refused:
        rules.alert(state, "blue", {"unit": "b1"})
    assert refused.value.code == "cannot_alert_fired"
    tank = state.units["b3"]
    tank.ap = TABLES.order_costs["alert"] + tank.type.shot_cost - 1
    with pytest.raises(RuleError) as short:
        rules.alert(state, "blue", {"unit": "b3"})
    assert short.value.code == "cannot_alert_no_ap"


# -- alert: « et fait feu sur qui bouge ou surgit à portée » -----------------------------------------------------
def test_alert_fires_at_the_first_enemy_that_moves_within_range_and_the_move_stops_there():
    state, infantry = _on_alert()
    enemy = state.units["r1"]
    events = rules.move(state, "red", {"unit": "r1", "to": "J3"}, dice(1))  # J2 is 3 cells from G2: in range
    assert enemy.cell == (9, 1) and enemy.hp == 10 - 4 and enemy.ap == 8 - 1  # stopped on the road at J2
    assert not infantry.alert and infantry.shots == 1 and infantry.ammo == 11
    assert infantry.ap == 8 - TABLES.order_costs["alert"] - infantry.type.shot_cost
    shot = next(e for e in events if e.type == "shot")
    assert shot.audience == ("blue",) and shot.data["reaction"] == "alert" and shot.data["target"] == "r1"
    hit = next(e for e in events if e.type == "hit")
    assert hit.audience == ("red",) and hit.data["by"] == "b1" and hit.data["from"] == "G2"  # red sees b1
    assert next(e for e in events if e.type == "roll").audience == ("blue",)
    assert FRONT.narrate(hit, "red", "fr") == "Rouge 1 est touché par Bleu 1 depuis G2 : 4 dégâts (reste 6 PV)."
    rules.move(state, "red", {"unit": "r2", "to": "H2"}, dice())  # the alert is spent: nothing more
    assert state.units["r2"].hp == 8


def test_the_moving_side_learns_where_the_shot_came_from_only_if_it_sees_the_shooter():
    state = small()
    clear_side(state, "red", keep=("r1",))
    state.hour = "night"  # sight 6 − 2; the infantry in the forest hides 2 more
    infantry = state.units["b1"]
    state.place(infantry, (8, 4))  # the forest at I5
    rules.alert(state, "blue", {"unit": "b1"})
    rules.end_turn(state, "blue", dice())
    events = rules.move(state, "red", {"unit": "r1", "to": "J3"}, dice(1))
    hit = next(e for e in events if e.type == "hit")
    assert "by" not in hit.data and "from" not in hit.data
    assert hit.data["cell"] == "J2" and hit.data["bearing"] == "S"  # I5 from J2: a bearing, no shooter (issue 44)
    assert FRONT.narrate(hit, "red", "en") == \
        "Red 1 is hit by an unseen shooter, fire from the south: 4 damage (6 HP left)."
    assert not any(e.type == "shot" and e.visible_to("red") for e in events)


def test_alert_fires_at_a_unit_that_appears_unloaded_within_range():
    state, infantry = _on_alert()
    truck = put(state, "r8", "red", "truck", (9, 3))
    passenger = put(state, "r9", "red", "infantry", (9, 4))
    rules.board(state, "red", {"unit": "r9", "truck": "r8"})
    events = rules.unload(state, "red", {"unit": "r8", "passenger": "r9", "to": "I3"}, dice(1))
    assert passenger.cell == (8, 2) and passenger.hp < 10 and not infantry.alert  # ruins: cover
    assert [e.type for e in events][:2] == ["unloaded", "roll"] and truck.cargo == []


def test_an_alert_not_fired_ends_when_its_sides_turn_begins():
    state, infantry = _on_alert()
    rules.end_turn(state, "red", dice(6))
    assert not infantry.alert and infantry.ap == 8


def test_neither_the_sniper_nor_the_general_nor_the_observer_goes_on_alert():
    state = small()
    for unit_id, kind in (("b7", "sniper"), ("b8", "general"), ("b9", "observer")):
        put(state, unit_id, "blue", kind, (3 + int(unit_id[1]) - 7, 5))
        with pytest.raises(RuleError) as refused:
            rules.alert(state, "blue", {"unit": unit_id})
        assert refused.value.code == "cannot_alert"
    alerts = [a["unit"] for a in FRONT.legal_actions(state, "blue") if a["type"] == "alert"]
    assert not {"b7", "b8", "b9"} & set(alerts)


# -- patrol ------------------------------------------------------------------------------------------------------
def _on_patrol():
    """Blue infantry b1 patrols 2 cells around G2; red to play."""
    state = small()
    state.place(state.units["b1"], (6, 1))
    rules.patrol(state, "blue", {"unit": "b1"})
    rules.end_turn(state, "blue", dice())
    return state, state.units["b1"]


def test_a_direct_fire_unit_gets_a_patrol_zone_of_2_cells_that_only_its_side_sees():
    state = small()
    state.place(state.units["b1"], (6, 1))
    events = rules.patrol(state, "blue", {"unit": "b1"})
    assert events[0].data == {"unit": "b1", "cell": "G2", "radius": 2}
    assert state.units["b1"].ap == 8 - TABLES.order_costs["patrol"]
    assert FRONT.view(state, "blue")["patrols"] == [{"unit": "b1", "cell": "G2", "radius": 2}]
    assert FRONT.view(state, "red")["patrols"] == []


def test_neither_indirect_fire_nor_the_sniper_general_or_observer_patrols():
    state = small()
    for unit_id, kind in (("b6", "mortar"), ("b7", "sniper"), ("b8", "general"), ("b9", "observer")):
        put(state, unit_id, "blue", kind, (int(unit_id[1]) - 4, 5))
        with pytest.raises(RuleError) as refused:
            rules.patrol(state, "blue", {"unit": unit_id})
        assert refused.value.code == "cannot_patrol"


def test_at_the_end_of_the_enemys_turn_a_patrol_fires_at_the_nearest_enemy_in_its_zone():
    state, infantry = _on_patrol()
    enemy = state.units["r1"]
    rules.move(state, "red", {"unit": "r1", "to": "I3"}, dice())  # ruins, 2 cells from G2: in the zone
    events = rules.end_turn(state, "red", dice(1, 6))  # the patrol's luck, then summer's fire roll
    assert enemy.hp == 10 - 3  # 4 less 15 % for the ruins' cover, rounded down
    shot = next(e for e in events if e.type == "shot")
    assert shot.data["reaction"] == "patrol" and shot.audience == ("blue",)
    assert infantry.patrol == (6, 1) and infantry.shots == 0 and infantry.ap == 8  # its side's turn has begun
    assert infantry.ammo == 11


def test_a_patrol_does_not_fire_outside_its_zone_nor_at_its_own_end_of_turn():
    state, infantry = _on_patrol()
    state.place(state.units["r2"], (9, 4))  # 3 cells from G2: in range, out of the zone; J1 is 3 away too
    rules.end_turn(state, "red", dice(6))
    assert infantry.ammo == 12
    state.place(state.units["r1"], (8, 2))  # now in the zone, during blue's own turn
    events = rules.end_turn(state, "blue", dice())
    assert not any(e.type == "shot" for e in events) and infantry.ammo == 12


def test_a_patrol_shot_counts_against_the_turns_fire_rate():
    state = small()
    infantry = state.units["b1"]
    state.place(infantry, (7, 1))
    rules.patrol(state, "blue", {"unit": "b1"})
    rules.shoot(state, "blue", {"unit": "b1", "target": "J1"}, dice(1))  # its one shot of the turn
    rules.end_turn(state, "blue", dice())
    state.place(state.units["r2"], (8, 2))
    rules.end_turn(state, "red", dice(6))
    assert infantry.ammo == 11 and state.units["r2"].hp == 8  # no shot kept: no patrol fire


def test_a_move_out_of_the_zone_ends_the_patrol_and_end_patrol_too():
    state = small()
    state.place(state.units["b1"], (6, 1))
    rules.patrol(state, "blue", {"unit": "b1"})
    rules.move(state, "blue", {"unit": "b1", "to": "H2"}, dice())  # still in the zone
    assert state.units["b1"].patrol == (6, 1)
    events = rules.move(state, "blue", {"unit": "b1", "to": "D2"}, dice())  # 3 cells from G2
    assert state.units["b1"].patrol is None and "patrol_ended" in [e.type for e in events]
    state.units["b1"].ap = 8
    rules.patrol(state, "blue", {"unit": "b1"})
    rules.end_patrol(state, "blue", {"unit": "b1"})
    assert state.units["b1"].patrol is None


def test_a_still_only_weapon_that_has_moved_does_not_go_on_alert():
    state = small()
    launcher = put(state, "b8", "blue", "rocket_launcher", (3, 5))
    rules.move(state, "blue", {"unit": "b8", "to": "E6"}, dice())
    with pytest.raises(RuleError) as refused:
        rules.alert(state, "blue", {"unit": "b8"})
    assert refused.value.code == "cannot_alert_moved" and launcher.ap == 6 - 2


def test_a_side_is_not_told_who_hit_it_if_the_unit_that_saw_the_shooter_is_lost_in_the_same_order():
    """Two tanks on alert fire at the same step: the first leaves the red infantry standing, the second
    destroys it. The infantry saw both tanks as they fired, but red, with no eye left on them when its move
    is over, is not told where the first shot came from (found by tests/test_hidden_information.py)."""
    state = small()
    clear_side(state, "red", keep=("r1",))
    put(state, "r8", "red", "medic", (9, 5))  # far from the tanks: red sees them only through r1
    infantry = state.units["r1"]
    state.place(infantry, (9, 1))  # J2, on the road: 7 cells from the tanks, out of its sight of 6
    tank = state.units["b3"]
    state.place(tank, (2, 1))
    put(state, "b9", "blue", "heavy_tank", (2, 0))
    rules.alert(state, "blue", {"unit": "b3"})
    rules.alert(state, "blue", {"unit": "b9"})
    rules.end_turn(state, "blue", dice())
    events = FRONT.apply(state, "red", {"type": "move", "unit": "r1", "to": "H2"}, dice(1, 1))
    hits = [e for e in events if e.type == "hit"]
    assert [h.data["hp"] for h in hits] == [5, 0] and "r1" not in state.units
    assert all("by" not in h.data and "from" not in h.data for h in hits)
    assert FRONT.narrate(hits[0], "red", "fr") == \
        "Rouge 1 (infanterie) est touché par un tireur hors de vue, tir venu de l'ouest : 5 dégâts (reste 5 PV)."

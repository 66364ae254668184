"""Front, the air war (issue 18): the rule cases, sentence by sentence, with scripted dice.

« Un drone reste à 8 cases de son droniste, 12 avec un drone de surveillance en l'air ou à 8 cases
d'une tour de garde achevée, sinon il s'écrase. Sa batterie dure quelques tours : posé près du
droniste, il se recharge. »
« Infanterie, lance-roquettes, sniper, éclaireur, char lourd et batterie anti-aérienne abattent un
drone d'un tir ; le brouilleur les détruit à 6 cases. Un drone qui tombe fait 1 dégât là où il
s'écrase. »
« Un hélicoptère vole par-dessus tout et brûle du carburant à chaque tour en vol, même immobile.
Abattu ou à sec en vol, il s'écrase avec sa cargaison jusqu'à 2 cases plus loin et fait 1 dégât à
ce qui s'y trouve. »
« Un hélicoptère en vol peut s'arrêter au-dessus d'une unité ou d'un bâtiment, ami ou ennemi, mais
ne s'y pose jamais. Une unité au sol passe et s'arrête sous lui. Feu, mines, souffle des obus et
bombes de drone ne touchent que le sol, jamais un appareil en vol. »
« L'ordre Se poser le pose sur une prairie, une terre brûlée ou la plateforme de son héliport :
posé, il ne consomme rien, ne tire pas et redécolle en bougeant. Il ne se ravitaille que posé,
auprès d'un ravitailleur, d'un stockage ou sur la plateforme. »
« En vol, seuls le lance-roquettes, la roquette du char lourd, la batterie anti-aérienne, les
drones kamikazes et les autres hélicoptères armés l'abattent ; posé, tout tir le touche, sauf ceux
du sniper et de la batterie anti-aérienne, qui ne visent pas si bas. »
And the other sentences that name aircraft: the fire rate (« une arme par tir »), camouflage
(« Tours de garde et drones le voient quand même »), night (« Bâtiments et drones ne sont pas
touchés »), patrol (« hors … hélicoptères »).
"""

from __future__ import annotations

import pytest

from kadesh.core.errors import BAD_ACTION, RuleError
from kadesh.core.grid import parse_map_cell
from kadesh.rules.front import capture, forest, scenario, victory
from kadesh.rules.front.ruleset import Front
from kadesh.rules.front.state import Objective
from kadesh.rules.front.vision import vision
from tests.front_support import build, clear_side, dice, put

FRONT = Front()

# The air cases' ground: 20 × 12 cells of meadow, two forests at A1 and B1; at the bottom a road
# (row 11) between water, and a row of every other ground (row 12: forest, burnt ground, road,
# ruins, hill, swamp, water); a capture point at T12. Spring: no summer fire roll at a round's end.
GROUND = """
[scenario]
id = "air_cases"
season = "spring"
hour = "morning"

[legend]
"." = "meadow"
"=" = "road"
"f" = "forest"
"b" = "burnt"
"v" = "ruins"
"h" = "hill"
"s" = "swamp"
"~" = "water"

[map]
rows = [
  "ff..................",
  "....................",
  "....................",
  "....................",
  "....................",
  "....................",
  "....................",
  "....................",
  "....................",
  "~~~~~~~~~~..........",
  "==========..........",
  "fb=vhs~~~~..........",
]

[[units]]
side = "blue"
type = "infantry"
cell = "T1"

[[units]]
side = "red"
type = "infantry"
cell = "T2"

[[points]]
cell = "T12"
"""

MIDDLE_OF_9 = 5    # a drone falls on one of the 9 cells within 1 of it, in map order: the 5th is its own
MIDDLE_OF_25 = 13  # a helicopter on one of the 25 within 2: the 13th is its own


def field():
    """The air cases' ground with no unit on it; blue to play."""
    state = scenario.parse(GROUND)
    clear_side(state, "blue")
    clear_side(state, "red")
    return state


def at(name):
    cell = parse_map_cell(name, 20, 12)
    assert cell is not None
    return cell


def unit(state, unit_id, side, kind, name, **extra):
    return put(state, unit_id, side, kind, at(name), **extra)


def red_to_play(state):
    state.active = "red"
    return state


def order(state, side, action, rolls=()):
    return FRONT.apply(state, side, action, dice(*rolls))


def refused(state, side, action, rolls=()):
    """The code of the refusal of ``action`` (the battle is left as it was)."""
    with pytest.raises(RuleError) as refusal:
        FRONT.apply(state, side, action, dice(*rolls))
    return refusal.value.code


def move(unit_id, to):
    return {"type": "move", "unit": unit_id, "to": to}


def shoot(unit_id, target, **extra):
    return {"type": "shoot", "unit": unit_id, "target": target, **extra}


def end_turn():
    return {"type": "end_turn"}


def of_type(events, kind):
    return [e for e in events if e.type == kind]


def crash(events, reader=None):
    """The crash as ``reader`` reads it (one event a side), by default as the aircraft's own side (with its cargo)."""
    (crashed,) = [e for e in of_type(events, "crashed") if e.visible_to(reader or e.data["side"])]
    return crashed.data


def seen_by(state, side):
    return {u["id"] for u in FRONT.view(state, side)["units"]}


# -- « Un drone reste à 8 cases de son droniste, 12 avec un drone de surveillance en l'air ou à 8 cases d'une tour de
#    garde achevée, sinon il s'écrase. » ----------------------------------------------------------------------------
def _leashed():
    """Blue operator b1 at B6 with its bomb drone b2 aloft at C6; a red infantry far away at T1."""
    state = field()
    unit(state, "b1", "blue", "drone_operator", "B6")
    unit(state, "b2", "blue", "bomb_drone", "C6", operator="b1")
    unit(state, "r1", "red", "infantry", "T1")
    return state


def test_a_drone_flies_8_cells_from_its_operator_and_no_further():
    state = _leashed()
    assert refused(state, "blue", move("b2", "K6")) == "cannot_move_leash"  # 9 cells from B6
    order(state, "blue", move("b2", "J6"))  # 8 cells
    assert state.units["b2"].cell == at("J6") and state.units["b2"].ap == 12 - 7
    assert {"type": "move", "unit": "b2", "to": "K6"} not in list(FRONT.legal_actions(state, "blue"))


def test_a_surveillance_drone_of_its_side_aloft_stretches_the_leash_to_12():
    state = _leashed()
    unit(state, "b3", "blue", "surveillance_drone", "B5", operator="b1")
    assert refused(state, "blue", move("b2", "O6")) == "cannot_move_leash"  # 13 cells from B6
    order(state, "blue", move("b2", "N6"))  # 12 cells
    assert state.units["b2"].cell == at("N6")


def test_a_surveillance_drone_aloft_is_its_own_relay_and_flies_12_cells_from_its_operator():
    state = field()
    unit(state, "b1", "blue", "drone_operator", "B6")
    unit(state, "r1", "red", "infantry", "T1")
    relay = unit(state, "b3", "blue", "surveillance_drone", "C6", operator="b1")
    order(state, "blue", move("b3", "N6"))  # 12 cells from its operator at B6: no other drone relays it
    assert relay.cell == at("N6") and relay.flying
    assert refused(state, "blue", move("b3", "O6")) == "cannot_move_leash"


def test_a_surveillance_drone_landed_does_not_stretch_the_leash():
    state = _leashed()
    relay = unit(state, "b3", "blue", "surveillance_drone", "B5", operator="b1")
    order(state, "blue", {"type": "recover", "unit": "b3"})
    assert relay.aboard == "b1" and not relay.flying
    assert refused(state, "blue", move("b2", "K6")) == "cannot_move_leash"


@pytest.mark.parametrize(("side", "complete", "stretched"), [("blue", True, True), ("blue", False, False),
                                                             ("red", True, False)])
def test_within_8_of_a_finished_watchtower_of_its_side_a_drone_flies_12_cells_from_its_operator(
        side, complete, stretched):
    state = _leashed()
    build(state, "watchtower", at("P6"), side, complete=complete)  # 2 cells from N6
    if stretched:
        order(state, "blue", move("b2", "N6"))  # 12 cells from B6
        assert state.units["b2"].cell == at("N6")
    else:
        assert refused(state, "blue", move("b2", "N6")) == "cannot_move_leash"


def test_a_watchtower_further_than_8_from_the_drone_does_not_stretch_its_leash():
    state = _leashed()
    build(state, "watchtower", at("A12"), "blue")  # 12 cells from N6
    assert refused(state, "blue", move("b2", "N6")) == "cannot_move_leash"


def test_a_drone_whose_operator_moves_beyond_its_leash_falls_after_that_order():
    state = field()
    unit(state, "b1", "blue", "drone_operator", "E6")
    drone = unit(state, "b2", "blue", "bomb_drone", "M6", operator="b1")  # 8 cells
    unit(state, "r1", "red", "infantry", "T1")
    order(state, "blue", move("b1", "F6"))  # closer: nothing happens
    assert drone.id in state.units
    events = order(state, "blue", move("b1", "D6"), [MIDDLE_OF_9])  # 9 cells from M6
    assert [e.type for e in events][0] == "moved"  # the order, then the fall
    assert crash(events) == {"unit": "b2", "side": "blue", "cell": "M6", "at": "M6", "why": "leash", "with": [],
                             "unit_type": "bomb_drone"}
    assert "b2" not in state.units and at("M6") not in state.air


def test_a_drone_whose_operator_is_destroyed_falls():
    state = red_to_play(field())
    operator = unit(state, "b1", "blue", "drone_operator", "E6")
    operator.hp = 1
    unit(state, "b2", "blue", "bomb_drone", "H6", operator="b1")
    unit(state, "b3", "blue", "infantry", "A9")
    unit(state, "r1", "red", "infantry", "E8")
    events = order(state, "red", shoot("r1", "E6"), [1, MIDDLE_OF_9])  # the luck roll, then the fall
    assert "b1" not in state.units and "b2" not in state.units
    assert crash(events)["why"] == "leash"


def test_a_drone_beyond_8_cells_falls_when_the_surveillance_drone_relaying_it_is_recovered():
    state = _leashed()
    unit(state, "b3", "blue", "surveillance_drone", "C5", operator="b1")
    state.place(state.units["b2"], at("L6"))  # 10 cells from B6, on the relay
    events = order(state, "blue", {"type": "recover", "unit": "b3"}, [MIDDLE_OF_9])
    assert [e.type for e in events][0] == "recovered"
    assert crash(events) == {"unit": "b2", "side": "blue", "cell": "L6", "at": "L6", "why": "leash", "with": [],
                             "unit_type": "bomb_drone"}


# -- « Sa batterie dure quelques tours : posé près du droniste, il se recharge. » ------------------------------------
def test_a_drone_aloft_spends_1_battery_at_each_end_of_its_sides_turn_and_falls_when_it_has_none():
    state = _leashed()
    drone = state.units["b2"]
    assert drone.battery == 5  # the bomb drone's
    drone.battery = 1
    order(state, "blue", end_turn())
    assert drone.battery == 0
    order(state, "red", end_turn())  # the other side's end of turn costs it nothing
    assert drone.battery == 0
    events = order(state, "blue", end_turn(), [MIDDLE_OF_9])
    assert crash(events)["why"] == "battery" and "b2" not in state.units


def test_a_drone_landed_by_its_operator_recharges_3_a_turn_and_gets_its_bombs_back():
    state = _leashed()
    operator, drone = state.units["b1"], state.units["b2"]
    drone.battery, drone.ammo = 1, 0
    order(state, "blue", {"type": "recover", "unit": "b2"})
    assert drone.aboard == "b1" and operator.cargo == ["b2"] and not drone.flying and at("C6") not in state.air
    order(state, "blue", end_turn())
    assert (drone.battery, drone.ammo) == (4, 2)
    order(state, "red", end_turn())
    order(state, "blue", end_turn())
    assert drone.battery == 5  # full, no more
    order(state, "red", end_turn())
    order(state, "blue", {"type": "launch", "unit": "b1", "drone": "b2", "to": "B7"})
    assert drone.flying and drone.cell == at("B7") and state.air[at("B7")] == "b2"


def test_a_drone_is_recovered_only_beside_its_operator_and_launched_only_with_battery():
    state = _leashed()
    state.place(state.units["b2"], at("D6"))  # 2 cells from B6
    assert refused(state, "blue", {"type": "recover", "unit": "b2"}) == "cannot_recover_too_far"
    state.place(state.units["b2"], at("C6"))
    order(state, "blue", {"type": "recover", "unit": "b2"})
    state.units["b2"].battery = 0
    assert refused(state, "blue", {"type": "launch", "unit": "b1", "drone": "b2", "to": "C6"}) \
        == "cannot_launch_battery"


# -- « Infanterie, lance-roquettes, sniper, éclaireur, char lourd et batterie anti-aérienne abattent un drone d'un
#    tir » -----------------------------------------------------------------------------------------------------------
def _red_drone_over_k6():
    """A red bomb drone r2 over K6, its operator r1 at M6."""
    state = field()
    unit(state, "r1", "red", "drone_operator", "M6")
    unit(state, "r2", "red", "bomb_drone", "K6", operator="r1")
    return state


@pytest.mark.parametrize(("kind", "weapon"), [("infantry", None), ("rocket_launcher", None), ("sniper", None),
                                              ("scout", None), ("heavy_tank", None), ("heavy_tank", "rocket"),
                                              ("aa_battery", None)])
def test_infantry_rocket_launcher_sniper_scout_heavy_tank_and_aa_battery_bring_a_drone_down_in_one_shot(kind, weapon):
    state = _red_drone_over_k6()
    unit(state, "b1", "blue", kind, "I6")
    named = {"weapon": weapon} if weapon else {}
    events = order(state, "blue", shoot("b1", "K6", at="air", **named), [MIDDLE_OF_9])  # no luck roll: the fall's
    assert "r2" not in state.units and crash(events)["why"] == "shot_down"
    assert [e.data["purpose"] for e in of_type(events, "roll")] == ["fall"]


def test_one_hit_brings_a_drone_down_whatever_the_damage():
    state = _red_drone_over_k6()
    state.units["r2"].hp = 99  # more than any weapon deals
    unit(state, "b1", "blue", "infantry", "I6")
    events = order(state, "blue", shoot("b1", "K6", at="air"), [MIDDLE_OF_9])
    assert "r2" not in state.units and of_type(events, "shot")[0].data["hp"] == 0


@pytest.mark.parametrize(("kind", "cell", "weapon"), [
    ("engineer", "I6", None), ("general", "I6", None), ("medic", "J6", None), ("mortar", "H6", None),
    ("cannon", "G6", None), ("attack_helicopter", "I6", None), ("attack_helicopter", "I6", "rocket")])
def test_no_other_weapon_brings_a_drone_down(kind, cell, weapon):
    state = _red_drone_over_k6()
    unit(state, "b1", "blue", kind, cell, flying=True if kind == "attack_helicopter" else None)
    named = {"weapon": weapon} if weapon else {}
    assert refused(state, "blue", shoot("b1", "K6", at="air", **named)) == "cannot_fire_not_that_target"
    assert "r2" in state.units


def test_a_kamikaze_drone_does_not_strike_a_drone():
    state = _red_drone_over_k6()
    unit(state, "b1", "blue", "drone_operator", "H6")
    unit(state, "b2", "blue", "kamikaze_drone", "J6", operator="b1")
    assert refused(state, "blue", {"type": "strike", "unit": "b2", "target": "K6", "at": "air"}) \
        == "cannot_strike_not_that_target"


# -- « le brouilleur les détruit à 6 cases » ---------------------------------------------------------------------------
def _jamming():
    """Blue jammer b1 at F6; red drones r2 at L6 (6 cells) and r3 at M7 (7 cells), their operator r1 at M6; a blue
    drone b3 at F7 with its operator b2 at F8; a red attack helicopter r4 over I6."""
    state = field()
    unit(state, "b1", "blue", "jammer", "F6")
    unit(state, "r1", "red", "drone_operator", "M6")
    unit(state, "r2", "red", "surveillance_drone", "L6", operator="r1")
    unit(state, "r3", "red", "kamikaze_drone", "M7", operator="r1")
    unit(state, "b2", "blue", "drone_operator", "F8")
    unit(state, "b3", "blue", "bomb_drone", "F7", operator="b2")
    unit(state, "r4", "red", "attack_helicopter", "I6", flying=True)
    return state


def test_the_jammer_destroys_every_enemy_drone_aloft_within_6_cells_and_nothing_else():
    state = _jamming()
    events = order(state, "blue", {"type": "jam", "unit": "b1"}, [MIDDLE_OF_9])
    assert of_type(events, "jammed")[0].data == {"unit": "b1", "cell": "F6", "radius": 6, "unit_type": "jammer"}
    assert crash(events)["unit"] == "r2" and crash(events)["why"] == "jammed"
    assert "r2" not in state.units
    assert {"r3", "b3", "r4"} <= set(state.units) and state.units["r4"].hp == 18  # 7 cells; its own; not a drone
    assert state.units["b1"].ap == 10 - 4


def test_the_jammer_jams_once_a_turn_and_only_the_jammer_jams():
    state = _jamming()
    order(state, "blue", {"type": "jam", "unit": "b1"}, [MIDDLE_OF_9])
    assert refused(state, "blue", {"type": "jam", "unit": "b1"}) == "cannot_jam_jammed"
    unit(state, "b4", "blue", "infantry", "A1")
    assert refused(state, "blue", {"type": "jam", "unit": "b4"}) == "cannot_jam_cannot_jam"
    order(state, "blue", end_turn())
    order(state, "red", end_turn())
    state.place(state.units["r3"], at("L7"))  # 6 cells now
    events = order(state, "blue", {"type": "jam", "unit": "b1"}, [MIDDLE_OF_9])
    assert crash(events)["unit"] == "r3"


# -- « Un drone qui tombe fait 1 dégât là où il s'écrase. » -----------------------------------------------------------
def test_a_falling_drone_deals_1_damage_on_the_cell_it_falls_on_up_to_1_cell_away():
    state = _red_drone_over_k6()
    unit(state, "b1", "blue", "infantry", "I8")
    below = unit(state, "r3", "red", "infantry", "K6")
    struck = unit(state, "b2", "blue", "infantry", "L7")
    events = order(state, "blue", shoot("b1", "K6", at="air"), [9])  # J5 K5 L5 / J6 K6 L6 / J7 K7 L7: the 9th
    (roll,) = of_type(events, "roll")
    assert (roll.data["sides"], roll.data["value"], roll.data["purpose"]) == (9, 9, "fall")
    assert crash(events)["cell"] == "K6" and crash(events)["at"] == "L7"
    assert struck.hp == 10 - 1 and below.hp == 10
    assert of_type(events, "crash_hit")[0].data == {"unit": "b2", "by": "r2", "cell": "L7", "damage": 1, "hp": 9,
                                                    "unit_type": "infantry", "by_type": "bomb_drone"}
    assert state.terrain_at(at("L7")).id == "meadow"  # a drone leaves no wreck


def test_a_drone_at_the_edge_falls_on_the_cells_of_the_map_within_1():
    state = field()
    unit(state, "b1", "blue", "drone_operator", "B2")
    drone = unit(state, "b2", "blue", "surveillance_drone", "A1", operator="b1")
    unit(state, "r1", "red", "infantry", "T1")
    drone.battery = 0
    events = order(state, "blue", end_turn(), [3])  # A1 B1 / A2 B2: the 3rd
    (roll,) = of_type(events, "roll")
    assert roll.data["sides"] == 4 and crash(events)["at"] == "A2"


# -- « Un hélicoptère vole par-dessus tout et brûle du carburant à chaque tour en vol, même immobile. » ----------------
def test_a_helicopter_flies_over_everything_at_its_step_a_cell():
    state = field()
    heli = unit(state, "b1", "blue", "attack_helicopter", "F9", flying=True)
    unit(state, "b2", "blue", "infantry", "F11")
    unit(state, "r1", "red", "infantry", "T1")
    order(state, "blue", move("b1", "G12"))  # over the water, a unit on the road, onto the water: 3 cells
    assert heli.cell == at("G12") and heli.ap == 16 - 3 * 2 and heli.fuel == 12


def test_a_helicopter_in_flight_burns_2_fuel_at_each_end_of_its_sides_turn_even_when_still():
    state = field()
    aloft = unit(state, "b1", "blue", "attack_helicopter", "E6", flying=True)
    landed = unit(state, "b2", "blue", "transport_helicopter", "H6")
    unit(state, "r1", "red", "infantry", "T1")
    order(state, "blue", end_turn())
    assert (aloft.fuel, landed.fuel) == (10, 12)
    order(state, "red", end_turn())  # the other side's end of turn costs it nothing
    assert aloft.fuel == 10
    order(state, "blue", end_turn())
    assert (aloft.fuel, landed.fuel) == (8, 12)


def test_moving_a_helicopter_burns_no_fuel_by_the_cell():
    state = field()
    heli = unit(state, "b1", "blue", "attack_helicopter", "E6", flying=True)
    unit(state, "r1", "red", "infantry", "T1")
    events = order(state, "blue", move("b1", "J6"))
    assert heli.fuel == 12 and heli.ap == 16 - 5 * 2
    assert of_type(events, "moved")[0].data["fuel"] == 0


# -- « Abattu ou à sec en vol, il s'écrase avec sa cargaison jusqu'à 2 cases plus loin et fait 1 dégât à ce qui s'y
#    trouve. » -------------------------------------------------------------------------------------------------------
def test_a_helicopter_dry_in_flight_crashes_up_to_2_cells_away_with_its_passengers():
    state = field()
    transport = unit(state, "b1", "blue", "transport_helicopter", "J6")
    unit(state, "b2", "blue", "infantry", "J7")
    unit(state, "b3", "blue", "scout", "K7")
    unit(state, "b4", "blue", "infantry", "A1")
    struck = unit(state, "r1", "red", "infantry", "H3")
    order(state, "blue", {"type": "board", "unit": "b2", "truck": "b1"})
    order(state, "blue", {"type": "board", "unit": "b3", "truck": "b1"})
    order(state, "blue", move("b1", "J5"))
    transport.fuel = 1  # less than the 2 a turn aloft burns
    events = order(state, "blue", end_turn(), [1])  # H3 is the first of the 25 cells within 2 of J5
    assert of_type(events, "roll")[0].data["sides"] == 25
    assert crash(events) == {"unit": "b1", "side": "blue", "cell": "J5", "at": "H3", "why": "fuel",
                             "with": ["b2", "b3"], "unit_type": "transport_helicopter"}
    # Red, whose infantry it falls on, never saw the cargo: the crash without it, each passenger lost once, unnamed
    assert crash(events, "red") == {"unit": "b1", "side": "blue", "cell": "J5", "at": "H3", "why": "fuel",
                                    "unit_type": "transport_helicopter"}
    red_losses = [e.data for e in of_type(events, "destroyed") if e.visible_to("red")]
    assert red_losses == [{"side": "blue"}, {"side": "blue"}]
    assert FRONT.narrate(next(e for e in of_type(events, "crashed") if e.visible_to("red")), "red", "en") \
        == "Blue 1 (transport helicopter) crashes at H3 (out of fuel)."
    assert not {"b1", "b2", "b3"} & set(state.units)
    lost = [e.data for e in of_type(events, "destroyed") if "aboard" in e.data]
    assert [d["unit"] for d in lost] == ["b2", "b3"] and all(d["aboard"] == "b1" for d in lost)
    assert struck.hp == 10 - 1 and state.terrain_at(at("H3")).id == "wreck"


def test_a_helicopter_shot_down_crashes_up_to_2_cells_away_and_deals_1_damage_there():
    state = field()
    heli = unit(state, "r1", "red", "attack_helicopter", "K6", flying=True)
    heli.hp = 1
    unit(state, "b1", "blue", "rocket_launcher", "K9")
    struck = unit(state, "b2", "blue", "infantry", "M8")
    events = order(state, "blue", shoot("b1", "K6", at="air"), [1, 25])  # luck, then the 25th cell: M8
    assert crash(events)["why"] == "shot_down" and crash(events)["at"] == "M8"
    assert "r1" not in state.units and at("K6") not in state.air
    assert struck.hp == 10 - 1 and state.terrain_at(at("M8")).id == "wreck"


def test_a_crashing_helicopter_falls_on_the_cells_of_the_map_within_2_taken_row_by_row():
    state = field()
    heli = unit(state, "b1", "blue", "transport_helicopter", "A1", flying=True)
    unit(state, "b2", "blue", "infantry", "T12")
    unit(state, "r1", "red", "infantry", "T1")
    heli.fuel = 0
    events = order(state, "blue", end_turn(), [4])  # A1 B1 C1 / A2 B2 C2 / A3 B3 C3: the 4th is A2
    assert of_type(events, "roll")[0].data["sides"] == 9 and crash(events)["at"] == "A2"


def test_a_helicopter_crashing_in_a_forest_sets_it_ablaze():
    state = field()
    heli = unit(state, "b1", "blue", "transport_helicopter", "B2", flying=True)
    unit(state, "b2", "blue", "infantry", "T12")
    unit(state, "r1", "red", "infantry", "T1")
    heli.fuel = 0
    events = order(state, "blue", end_turn(), [1])  # A1, the first of the 16 cells within 2 of B2
    assert crash(events)["at"] == "A1" and at("A1") in state.fires and of_type(events, "fire_started")


# -- « Un hélicoptère en vol peut s'arrêter au-dessus d'une unité ou d'un bâtiment, ami ou ennemi, mais ne s'y pose
#    jamais. Une unité au sol passe et s'arrête sous lui. » ------------------------------------------------------------
def test_a_helicopter_in_flight_stops_over_a_unit_or_a_building_friend_or_foe_but_never_lands_there():
    state = field()
    heli = unit(state, "b1", "blue", "attack_helicopter", "E6", flying=True)
    unit(state, "b2", "blue", "infantry", "G6")
    unit(state, "r1", "red", "infantry", "I6")
    build(state, "storage", at("K6"), "red")
    build(state, "storage", at("L6"), "blue")
    for cell in ("G6", "I6"):
        order(state, "blue", move("b1", cell))
        assert heli.cell == at(cell) and state.air[at(cell)] == "b1" and at(cell) in state.occupied
        assert refused(state, "blue", {"type": "land", "unit": "b1"}) == "cannot_land_occupied"
    for cell in ("K6", "L6"):
        order(state, "blue", move("b1", cell))
        assert heli.cell == at(cell)
        assert refused(state, "blue", {"type": "land", "unit": "b1"}) == "cannot_land_ground"
    assert heli.ap == 16 - 7 * 2 and heli.flying


def test_a_unit_on_the_ground_passes_under_a_helicopter_and_stops_under_one():
    state = field()
    infantry = unit(state, "b1", "blue", "infantry", "A11")  # on the road between the water
    unit(state, "b2", "blue", "attack_helicopter", "C11", flying=True)
    unit(state, "r1", "red", "transport_helicopter", "E11", flying=True)
    order(state, "blue", move("b1", "D11"))  # under C11 on the way
    assert infantry.cell == at("D11") and infantry.ap == 8 - 3
    order(state, "blue", move("b1", "E11"))
    assert infantry.cell == at("E11") and state.occupied[at("E11")] == "b1" and state.air[at("E11")] == "r1"


# -- « Feu, mines, souffle des obus et bombes de drone ne touchent que le sol, jamais un appareil en vol. » ------------
def test_a_burning_forest_burns_the_unit_in_it_never_an_aircraft_over_it():
    state = red_to_play(field())
    on_the_ground = unit(state, "r1", "red", "infantry", "A12")
    heli = unit(state, "r2", "red", "attack_helicopter", "A12", flying=True)
    unit(state, "r3", "red", "drone_operator", "C1")
    drone = unit(state, "r4", "red", "surveillance_drone", "A1", operator="r3")
    unit(state, "b1", "blue", "infantry", "T1")
    forest.ignite(state, at("A12"))
    forest.ignite(state, at("A1"))
    events = order(state, "red", end_turn())
    assert [e.data["unit"] for e in of_type(events, "burnt")] == ["r1"]
    assert on_the_ground.hp == 10 - 2 and heli.hp == 18 and drone.hp == 3


def test_a_mine_never_touches_an_aircraft_in_flight_over_it_but_goes_off_under_one_that_lands():
    state = field()
    heli = unit(state, "b1", "blue", "transport_helicopter", "F6", flying=True)
    unit(state, "b2", "blue", "drone_operator", "F8")
    drone = unit(state, "b3", "blue", "bomb_drone", "F7", operator="b2")
    unit(state, "r1", "red", "infantry", "T1")
    state.mines[at("H6")] = "red"
    state.mines[at("H7")] = "red"
    order(state, "blue", move("b3", "H7"))
    order(state, "blue", move("b1", "H6"))
    assert heli.hp == 16 and drone.hp == 3 and {at("H6"), at("H7")} <= set(state.mines)
    events = order(state, "blue", {"type": "land", "unit": "b1"})
    assert of_type(events, "mine")[0].data == {"unit": "b1", "cell": "H6", "damage": 3,
                                               "unit_type": "transport_helicopter"}
    assert heli.hp == 16 - 3 and at("H6") not in state.mines


def test_a_cannons_blast_never_touches_an_aircraft_in_flight_but_a_landed_helicopter():
    state = red_to_play(field())
    unit(state, "r1", "red", "cannon", "F2")
    target = unit(state, "b1", "blue", "infantry", "F6")
    over_it = unit(state, "b2", "blue", "attack_helicopter", "G6", flying=True)
    operator = unit(state, "b4", "blue", "drone_operator", "F8")
    drone = unit(state, "b3", "blue", "bomb_drone", "F6", operator="b4")  # over the target itself
    landed = unit(state, "b5", "blue", "transport_helicopter", "E7")
    order(state, "red", shoot("r1", "F6"), [1])
    assert target.hp == 10 - 7 and operator.hp == 8 - 3 and landed.hp == 16 - 2  # the blast: half
    assert over_it.hp == 18 and drone.hp == 3 and drone.flying


def test_a_drones_bomb_strikes_only_the_ground_under_a_helicopter():
    state = field()
    unit(state, "b1", "blue", "drone_operator", "I6")
    bomber = unit(state, "b2", "blue", "bomb_drone", "K6", operator="b1")
    on_the_ground = unit(state, "r1", "red", "infantry", "L6")
    heli = unit(state, "r2", "red", "attack_helicopter", "L6", flying=True)
    bomb = {"type": "bomb", "unit": "b2", "target": "L6"}
    assert refused(state, "blue", {**bomb, "at": "air"}) == BAD_ACTION
    order(state, "blue", bomb, [1])
    assert on_the_ground.hp == 10 - 4 and heli.hp == 18 and bomber.ammo == 1


def test_a_drones_bomb_at_a_cell_with_only_a_helicopter_over_it_is_refused_as_at_an_empty_cell():
    state = field()
    unit(state, "b1", "blue", "drone_operator", "I6")
    unit(state, "b2", "blue", "bomb_drone", "K6", operator="b1")
    unit(state, "r2", "red", "attack_helicopter", "L6", flying=True)
    over_nothing = refused(state, "blue", {"type": "bomb", "unit": "b2", "target": "L6"})
    assert over_nothing == refused(state, "blue", {"type": "bomb", "unit": "b2", "target": "L7"}) \
        == "cannot_bomb_unseen"
    assert state.units["r2"].hp == 18


def test_a_drones_bomb_strikes_the_unit_under_it():
    state = field()
    unit(state, "b1", "blue", "drone_operator", "I6")
    unit(state, "b2", "blue", "bomb_drone", "K6", operator="b1")
    below = unit(state, "r1", "red", "infantry", "K6")
    order(state, "blue", {"type": "bomb", "unit": "b2", "target": "K6"}, [1])
    assert below.hp == 10 - 4


# -- « L'ordre Se poser le pose sur une prairie, une terre brûlée ou la plateforme de son héliport » -------------------
def _helicopter_over(name, setup=None):
    state = field()
    if setup is not None:
        setup(state)
    heli = unit(state, "b1", "blue", "transport_helicopter", name, flying=True)
    unit(state, "r1", "red", "infantry", "T1")
    return state, heli


@pytest.mark.parametrize(("name", "setup"), [
    ("F6", None), ("B12", None), ("S2", lambda s: build(s, "heliport", at("S2"), "blue"))])
def test_land_puts_a_helicopter_down_on_meadow_burnt_ground_or_its_own_heliports_pad(name, setup):
    state, heli = _helicopter_over(name, setup)
    events = order(state, "blue", {"type": "land", "unit": "b1"})
    assert not heli.flying and state.occupied[at(name)] == "b1" and at(name) not in state.air
    assert heli.ap == 16 - 2 and of_type(events, "landed")[0].data == {"unit": "b1", "cell": name,
                                                                      "unit_type": "transport_helicopter"}


@pytest.mark.parametrize(("name", "setup"), [
    ("A12", None), ("C12", None), ("D12", None), ("E12", None), ("F12", None), ("G12", None),  # forest to water
    ("T12", None),                                                                          # a capture point
    ("S2", lambda s: build(s, "heliport", at("S2"), "red")),                               # the enemy's pad
    ("S2", lambda s: build(s, "heliport", at("S2"), "blue", complete=False)),              # a pad not finished
    ("S2", lambda s: build(s, "storage", at("S2"), "blue")),                               # a building
    ("S2", lambda s: build(s, "trench", at("S2"), "blue")),                                # a work
])
def test_a_helicopter_lands_nowhere_else(name, setup):
    state, heli = _helicopter_over(name, setup)
    assert refused(state, "blue", {"type": "land", "unit": "b1"}) == "cannot_land_ground"
    assert heli.flying


def test_only_a_helicopter_in_flight_lands():
    state, heli = _helicopter_over("F6")
    order(state, "blue", {"type": "land", "unit": "b1"})
    assert refused(state, "blue", {"type": "land", "unit": "b1"}) == "cannot_land_landed"
    unit(state, "b2", "blue", "drone_operator", "H6")
    unit(state, "b3", "blue", "bomb_drone", "H7", operator="b2")
    assert refused(state, "blue", {"type": "land", "unit": "b3"}) == "cannot_land_not_helicopter"


# -- « posé, il ne consomme rien, ne tire pas et redécolle en bougeant » ----------------------------------------------
def test_a_landed_helicopter_burns_no_fuel_and_does_not_fire():
    state = field()
    heli = unit(state, "b1", "blue", "attack_helicopter", "F6")
    unit(state, "r1", "red", "infantry", "F8")
    assert refused(state, "blue", shoot("b1", "F8")) == "cannot_fire_landed"
    assert refused(state, "blue", shoot("b1", "F8", weapon="rocket")) == "cannot_fire_landed"
    order(state, "blue", end_turn())
    assert heli.fuel == 12


def test_a_landed_helicopter_takes_off_by_moving():
    state = field()
    heli = unit(state, "b1", "blue", "attack_helicopter", "F6")
    unit(state, "r1", "red", "infantry", "T1")
    events = order(state, "blue", move("b1", "F5"))
    assert of_type(events, "took_off")[0].data == {"unit": "b1", "cell": "F6", "unit_type": "attack_helicopter"}
    assert heli.flying and state.air[at("F5")] == "b1" and at("F6") not in state.occupied
    assert heli.ap == 16 - 2


def test_a_landed_helicopter_without_the_fuel_of_a_turn_aloft_does_not_take_off():
    state = field()
    heli = unit(state, "b1", "blue", "attack_helicopter", "F6")
    unit(state, "r1", "red", "infantry", "T1")
    heli.fuel = 1
    assert refused(state, "blue", move("b1", "F5")) == "cannot_take_off_fuel"
    assert not [a for a in FRONT.legal_actions(state, "blue") if a["type"] == "move"]
    heli.fuel = 2
    order(state, "blue", move("b1", "F5"))
    assert heli.flying


# -- « Il ne se ravitaille que posé, auprès d'un ravitailleur, d'un stockage ou sur la plateforme. » -----------------
def _spent(heli):
    heli.fuel, heli.ammo, heli.rockets = 4, 0, 0
    return heli


def test_a_supply_truck_refills_a_landed_helicopter_never_one_in_flight():
    state = field()
    unit(state, "b1", "blue", "supply_truck", "F7")
    heli = _spent(unit(state, "b2", "blue", "attack_helicopter", "F6", flying=True))
    unit(state, "r1", "red", "infantry", "T1")
    resupply = {"type": "resupply", "unit": "b1", "target": "b2"}
    assert refused(state, "blue", resupply) == "cannot_resupply_in_flight"
    assert {"type": "resupply", "unit": "b1", "target": "b2"} not in list(FRONT.legal_actions(state, "blue"))
    order(state, "blue", {"type": "land", "unit": "b2"})
    order(state, "blue", resupply)
    assert (heli.fuel, heli.ammo, heli.rockets) == (12, 8, 4)


def test_a_storage_refills_a_helicopter_landed_beside_it_at_the_end_of_its_sides_turn_not_one_in_flight():
    state = field()
    build(state, "storage", at("K6"), "blue")
    aloft = _spent(unit(state, "b1", "blue", "attack_helicopter", "K7", flying=True))
    landed = _spent(unit(state, "b2", "blue", "attack_helicopter", "J6"))
    unit(state, "r1", "red", "infantry", "T1")
    order(state, "blue", end_turn())
    assert (aloft.fuel, aloft.ammo) == (2, 0) and (landed.fuel, landed.ammo, landed.rockets) == (12, 8, 4)


def test_a_helicopter_landed_on_its_pad_refuels_and_rearms_at_the_end_of_its_sides_turn_not_one_over_it():
    state = field()
    build(state, "heliport", at("S2"), "blue")
    build(state, "heliport", at("S4"), "blue")
    landed = _spent(unit(state, "b1", "blue", "transport_helicopter", "S2"))
    aloft = _spent(unit(state, "b2", "blue", "attack_helicopter", "S4", flying=True))
    unit(state, "r1", "red", "infantry", "T12")
    order(state, "blue", end_turn())
    assert landed.fuel == 12 and (aloft.fuel, aloft.ammo) == (2, 0)


# -- « En vol, seuls le lance-roquettes, la roquette du char lourd, la batterie anti-aérienne, les drones kamikazes et
#    les autres hélicoptères armés l'abattent » ---------------------------------------------------------------------
def _red_helicopter_over_k6(flying=True):
    state = field()
    heli = unit(state, "r1", "red", "attack_helicopter" if flying else "transport_helicopter", "K6", flying=flying)
    return state, heli


@pytest.mark.parametrize(("kind", "weapon"), [("rocket_launcher", None), ("heavy_tank", "rocket"),
                                              ("aa_battery", None), ("attack_helicopter", None),
                                              ("attack_helicopter", "rocket")])
def test_in_flight_the_rocket_launcher_the_tanks_rocket_the_aa_battery_and_armed_helicopters_hit_a_helicopter(
        kind, weapon):
    state, heli = _red_helicopter_over_k6()
    unit(state, "b1", "blue", kind, "K9", flying=True if kind == "attack_helicopter" else None)
    named = {"weapon": weapon} if weapon else {}
    events = order(state, "blue", shoot("b1", "K6", at="air", **named), [1])
    assert heli.hp < 18 and of_type(events, "shot")[0].data["target"] == "r1"


def test_in_flight_a_kamikaze_drone_strikes_a_helicopter_and_is_spent():
    state, heli = _red_helicopter_over_k6()
    unit(state, "b1", "blue", "drone_operator", "K9")
    unit(state, "b2", "blue", "kamikaze_drone", "K7", operator="b1")
    events = order(state, "blue", {"type": "strike", "unit": "b2", "target": "K6", "at": "air"}, [1])
    assert heli.hp == 18 - 8  # the charge against a large target
    assert of_type(events, "expended")[0].data == {"unit": "b2", "cell": "K7", "unit_type": "kamikaze_drone"}
    assert "b2" not in state.units and at("K7") not in state.air


@pytest.mark.parametrize(("kind", "cell", "weapon"), [
    ("infantry", "K8", None), ("sniper", "K8", None), ("scout", "K8", None), ("heavy_tank", "K8", None),
    ("heavy_tank", "K8", "gun"), ("engineer", "K8", None), ("general", "K8", None), ("medic", "K7", None),
    ("mortar", "K9", None), ("cannon", "K10", None)])
def test_in_flight_no_other_weapon_hits_a_helicopter(kind, cell, weapon):
    state, heli = _red_helicopter_over_k6()
    unit(state, "b1", "blue", kind, cell)
    named = {"weapon": weapon} if weapon else {}
    assert refused(state, "blue", shoot("b1", "K6", at="air", **named)) == "cannot_fire_not_that_target"
    assert heli.hp == 18


def test_a_helicopter_in_flight_has_no_cover_even_over_a_forest():
    state = field()
    heli = unit(state, "r1", "red", "attack_helicopter", "A12", flying=True)
    unit(state, "b1", "blue", "rocket_launcher", "A9")
    order(state, "blue", shoot("b1", "A12", at="air"), [1])
    assert heli.hp == 18 - 8  # the full damage against a large target, luck 0


# -- « posé, tout tir le touche, sauf ceux du sniper et de la batterie anti-aérienne, qui ne visent pas si bas » ------
@pytest.mark.parametrize(("kind", "cell", "weapon"), [
    ("infantry", "K8", None), ("scout", "K8", None), ("engineer", "K8", None), ("general", "K8", None),
    ("medic", "K7", None), ("rocket_launcher", "K8", None), ("heavy_tank", "K8", None), ("heavy_tank", "K8", "rocket"),
    ("mortar", "K8", None), ("cannon", "K10", None), ("attack_helicopter", "K8", None),
    ("attack_helicopter", "K8", "rocket")])
def test_a_landed_helicopter_is_hit_by_any_shot(kind, cell, weapon):
    state, heli = _red_helicopter_over_k6(flying=False)
    unit(state, "b1", "blue", kind, cell, flying=True if kind == "attack_helicopter" else None)
    named = {"weapon": weapon} if weapon else {}
    order(state, "blue", shoot("b1", "K6", **named), [1])
    assert heli.hp < 16


def test_a_landed_helicopter_is_hit_by_a_drones_bomb_and_a_kamikazes_charge():
    state, heli = _red_helicopter_over_k6(flying=False)
    unit(state, "b1", "blue", "drone_operator", "K9")
    unit(state, "b2", "blue", "bomb_drone", "K7", operator="b1")
    unit(state, "b3", "blue", "kamikaze_drone", "L7", operator="b1")
    order(state, "blue", {"type": "bomb", "unit": "b2", "target": "K6"}, [1])
    order(state, "blue", {"type": "strike", "unit": "b3", "target": "K6"}, [1])
    assert heli.hp == 16 - 3 - 8


@pytest.mark.parametrize("kind", ["sniper", "aa_battery"])
def test_neither_the_sniper_nor_the_aa_battery_aims_as_low_as_a_landed_helicopter(kind):
    state, heli = _red_helicopter_over_k6(flying=False)
    unit(state, "b1", "blue", kind, "K8")
    assert refused(state, "blue", shoot("b1", "K6")) == "cannot_fire_too_low"
    assert heli.hp == 16


# -- « le char lourd, l'hélico d'attaque, la batterie anti-aérienne et le général tirent deux fois d'office, une arme
#    par tir » ----------------------------------------------------------------------------------------------------
def test_the_aa_battery_fires_twice_a_turn():
    state = field()
    unit(state, "b1", "blue", "aa_battery", "F6")
    unit(state, "r1", "red", "drone_operator", "L6")
    unit(state, "r2", "red", "surveillance_drone", "K6", operator="r1")
    unit(state, "r3", "red", "kamikaze_drone", "K7", operator="r1")
    unit(state, "r4", "red", "attack_helicopter", "J5", flying=True)
    order(state, "blue", shoot("b1", "K6", at="air"), [MIDDLE_OF_9])
    order(state, "blue", shoot("b1", "K7", at="air"), [MIDDLE_OF_9])
    assert not {"r2", "r3"} & set(state.units)
    assert refused(state, "blue", shoot("b1", "J5", at="air")) == "cannot_fire_fired"


def test_the_attack_helicopter_fires_twice_a_turn_one_weapon_a_shot():
    state = field()
    heli = unit(state, "b1", "blue", "attack_helicopter", "F6", flying=True)
    unit(state, "r1", "red", "infantry", "F9")
    first = order(state, "blue", shoot("b1", "F9"), [1])
    second = order(state, "blue", shoot("b1", "F9", weapon="rocket"), [1])
    assert of_type(first, "shot")[0].data["weapon"] == "machine_gun"
    assert of_type(second, "shot")[0].data["weapon"] == "rocket"
    assert (heli.ammo, heli.rockets) == (7, 3)
    assert refused(state, "blue", shoot("b1", "F9")) == "cannot_fire_fired"


def test_the_heavy_tank_fires_its_gun_then_its_rocket_which_spends_its_rockets():
    state = field()
    tank = unit(state, "b1", "blue", "heavy_tank", "F6")
    unit(state, "r1", "red", "infantry", "F9")
    assert (tank.ammo, tank.rockets) == (8, 2)
    order(state, "blue", shoot("b1", "F9"), [1])
    assert (tank.ammo, tank.rockets) == (7, 2)
    events = order(state, "blue", shoot("b1", "F9", weapon="rocket"), [1])
    assert (tank.ammo, tank.rockets) == (7, 1) and of_type(events, "shot")[0].data["weapon"] == "rocket"


def test_a_weapon_out_of_rounds_no_longer_fires_but_the_other_does():
    state = field()
    tank = unit(state, "b1", "blue", "heavy_tank", "F6")
    unit(state, "r1", "red", "infantry", "F9")
    tank.rockets = 0
    assert refused(state, "blue", shoot("b1", "F9", weapon="rocket")) == "cannot_fire_no_ammo"
    order(state, "blue", shoot("b1", "F9", weapon="gun"), [1])
    assert tank.ammo == 7


@pytest.mark.parametrize(("kind", "weapon"), [("heavy_tank", "laser"), ("heavy_tank", 3), ("infantry", "rocket")])
def test_a_weapon_the_unit_does_not_have_is_refused_as_a_bad_action(kind, weapon):
    state = field()
    unit(state, "b1", "blue", kind, "F6")
    unit(state, "r1", "red", "infantry", "F8")
    assert refused(state, "blue", shoot("b1", "F8", weapon=weapon)) == BAD_ACTION


# -- « Tours de garde et drones le voient quand même » ; « Bâtiments et drones ne sont pas touchés » -------------------
def test_a_drone_sees_a_camouflaged_sniper_the_other_units_do_not():
    state = red_to_play(field())
    sniper = unit(state, "r1", "red", "sniper", "A1")  # in the forest
    unit(state, "b1", "blue", "infantry", "E5")       # 4 cells: sight 6, less 2 for the forest, 2 for camouflage
    unit(state, "b2", "blue", "drone_operator", "I3")
    order(state, "red", end_turn())
    assert sniper.camouflaged and "r1" not in seen_by(state, "blue")
    unit(state, "b3", "blue", "bomb_drone", "E3", operator="b2")  # 4 cells, the same sight 6
    assert "r1" in seen_by(state, "blue")


def test_night_and_rain_do_not_shorten_a_drones_sight_but_a_helicopters():
    state = field()
    state.hour, state.season = "night", "autumn"
    unit(state, "b1", "blue", "drone_operator", "F9")
    drone = unit(state, "b2", "blue", "bomb_drone", "F6", operator="b1")
    heli = unit(state, "b3", "blue", "attack_helicopter", "F2", flying=True)
    unit(state, "r1", "red", "infantry", "L6")   # 6 cells from the drone
    unit(state, "r2", "red", "infantry", "M1")   # 7 cells from the helicopter and the drone
    assert vision(state, drone) == 6 and vision(state, heli) == 8 - 2 - 1
    assert "r1" in seen_by(state, "blue") and "r2" not in seen_by(state, "blue")
    state.hour, state.season = "morning", "spring"
    assert "r2" in seen_by(state, "blue")


# -- the fog of war over aircraft -------------------------------------------------------------------------------------
def test_an_enemy_aircraft_the_side_does_not_see_is_not_in_its_view():
    state = field()
    unit(state, "b1", "blue", "infantry", "F6")
    heli = unit(state, "r1", "red", "attack_helicopter", "P6", flying=True)  # 10 cells
    unit(state, "r2", "red", "drone_operator", "T6")
    drone = unit(state, "r3", "red", "surveillance_drone", "P7", operator="r2")
    assert not {"r1", "r2", "r3"} & seen_by(state, "blue")
    state.place(heli, at("J6"))
    state.place(drone, at("J7"))
    shown = {u["id"]: u for u in FRONT.view(state, "blue")["units"]}
    assert shown["r1"]["flying"] is True and shown["r3"]["flying"] is True and "r2" not in shown


def test_a_shot_at_an_aircraft_the_side_does_not_see_is_refused_as_at_an_empty_cell():
    state = field()
    unit(state, "b1", "blue", "aa_battery", "F6")   # sight 6, range 8
    heli = unit(state, "r1", "red", "attack_helicopter", "N6", flying=True)  # 8 cells: unseen
    with pytest.raises(RuleError) as at_the_helicopter:
        order(state, "blue", shoot("b1", "N6", at="air"))
    with pytest.raises(RuleError) as at_nothing:
        order(state, "blue", shoot("b1", "N7", at="air"))
    assert at_the_helicopter.value.code == "cannot_fire_unseen"
    assert at_the_helicopter.value.to_dict() == at_nothing.value.to_dict()
    assert heli.hp == 18


def test_a_fall_out_of_the_other_sides_sight_tells_it_only_that_a_unit_of_that_side_was_lost():
    state = red_to_play(field())
    unit(state, "b1", "blue", "infantry", "A1")
    unit(state, "r1", "red", "drone_operator", "L8")
    unit(state, "r2", "red", "bomb_drone", "T8", operator="r1")  # 8 cells
    events = order(state, "red", move("r1", "K8"), [MIDDLE_OF_9])  # 9 cells: it falls, far from blue's eyes
    told_blue = [(e.type, e.data) for e in events if e.audience is None or "blue" in e.audience]
    assert told_blue == [("destroyed", {"side": "red"})]
    assert crash(events)["why"] == "leash"


# -- kamikaze drones --------------------------------------------------------------------------------------------------
def test_a_kamikaze_drone_strikes_a_unit_on_the_ground_under_it_and_is_spent():
    state = red_to_play(field())
    unit(state, "r1", "red", "drone_operator", "M6")
    unit(state, "r2", "red", "kamikaze_drone", "K6", operator="r1")
    target = unit(state, "b1", "blue", "infantry", "K6")
    events = order(state, "red", {"type": "strike", "unit": "r2", "target": "K6"}, [1])
    assert target.hp == 10 - 6 and "r2" not in state.units and at("K6") not in state.air
    assert of_type(events, "expended")[0].data == {"unit": "r2", "cell": "K6", "unit_type": "kamikaze_drone"}


# -- the transport helicopter -----------------------------------------------------------------------------------------
def test_a_transport_helicopter_takes_on_passengers_only_when_landed():
    state = field()
    transport = unit(state, "b1", "blue", "transport_helicopter", "F6", flying=True)
    unit(state, "b2", "blue", "infantry", "F7")
    unit(state, "r1", "red", "infantry", "T1")
    board = {"type": "board", "unit": "b2", "truck": "b1"}
    assert refused(state, "blue", board) == "cannot_board_in_flight"
    order(state, "blue", {"type": "land", "unit": "b1"})
    order(state, "blue", board)
    assert transport.cargo == ["b2"]


def test_a_transport_helicopter_sets_down_only_when_landed():
    state = field()
    transport = unit(state, "b1", "blue", "transport_helicopter", "F6")
    unit(state, "b2", "blue", "infantry", "F7")
    unit(state, "r1", "red", "infantry", "T1")
    order(state, "blue", {"type": "board", "unit": "b2", "truck": "b1"})
    order(state, "blue", move("b1", "H6"))
    unload = {"type": "unload", "unit": "b1", "passenger": "b2", "to": "H7"}
    assert refused(state, "blue", unload) == "cannot_unload_in_flight"
    order(state, "blue", {"type": "land", "unit": "b1"})
    order(state, "blue", unload)
    assert transport.cargo == [] and state.units["b2"].cell == at("H7")


def test_an_aircraft_does_not_board():
    state = field()
    unit(state, "b1", "blue", "truck", "F6")
    unit(state, "b2", "blue", "attack_helicopter", "F7")
    unit(state, "r1", "red", "infantry", "T1")
    assert refused(state, "blue", {"type": "board", "unit": "b2", "truck": "b1"}) == "cannot_board_aircraft"


def test_an_operator_boards_a_truck_with_its_landed_drones_which_do_not_fly_from_aboard():
    state = field()
    truck = unit(state, "b1", "blue", "truck", "F6")
    operator = unit(state, "b2", "blue", "drone_operator", "F7")
    drone = unit(state, "b3", "blue", "bomb_drone", "F8", operator="b2")
    unit(state, "r1", "red", "infantry", "T1")
    order(state, "blue", {"type": "recover", "unit": "b3"})
    order(state, "blue", {"type": "board", "unit": "b2", "truck": "b1"})
    order(state, "blue", move("b1", "I6"))
    assert operator.cell == drone.cell == truck.cell == at("I6") and drone.aboard == "b2"
    assert refused(state, "blue", {"type": "launch", "unit": "b2", "drone": "b3", "to": "I7"}) \
        == "cannot_launch_aboard"


# -- « hors sniper, général, observateur et hélicoptères » ; drones neither alert nor patrol -------------------------
def test_helicopters_do_not_patrol_and_drones_neither_alert_nor_patrol():
    state = field()
    unit(state, "b1", "blue", "attack_helicopter", "F6", flying=True)
    unit(state, "b2", "blue", "drone_operator", "H6")
    unit(state, "b3", "blue", "bomb_drone", "H7", operator="b2")
    unit(state, "b4", "blue", "kamikaze_drone", "H5", operator="b2")
    unit(state, "r1", "red", "infantry", "T1")
    assert refused(state, "blue", {"type": "patrol", "unit": "b1"}) == "cannot_patrol"
    for drone in ("b3", "b4"):
        assert refused(state, "blue", {"type": "alert", "unit": drone}) == "cannot_alert"
        assert refused(state, "blue", {"type": "patrol", "unit": drone}) == "cannot_patrol"
    order(state, "blue", {"type": "alert", "unit": "b1"})  # an attack helicopter in flight keeps a shot
    assert state.units["b1"].alert


# -- scenarios: `drones` and `flying` --------------------------------------------------------------------------------
HELIPORTS = """
[[structures]]
kind = "heliport"
cell = "S2"
side = "blue"

[[structures]]
kind = "heliport"
cell = "S4"
side = "red"
"""


def _scenario(blue_unit):
    """The air cases' ground with one blue unit given as TOML keys, and the heliports S2 (blue) and S4 (red)."""
    head, units = GROUND.split("[[units]]", 1)
    return scenario.parse(f"{head}{HELIPORTS}\n[[units]]\n{blue_unit}\n[[units]]{units}")


def test_a_scenarios_drone_operator_starts_with_its_drones_landed_by_it():
    state = _scenario('side = "blue"\ntype = "drone_operator"\ncell = "F6"\n'
                      'drones = ["surveillance_drone", "kamikaze_drone"]')
    operator = state.units["b1"]
    assert operator.cargo == ["b2", "b3"]
    for drone_id, kind in (("b2", "surveillance_drone"), ("b3", "kamikaze_drone")):
        drone = state.units[drone_id]
        assert drone.type.id == kind and drone.aboard == "b1" and drone.operator == "b1" and not drone.flying
        assert drone.battery == drone.type.battery


@pytest.mark.parametrize(("keys", "at_fault"), [
    ('type = "infantry"\ncell = "F6"\ndrones = ["bomb_drone"]', "drones"),               # only on an operator
    ('type = "drone_operator"\ncell = "F6"\ndrones = ["bomb_drone", "bomb_drone", "bomb_drone"]', "drones"),  # 2
    ('type = "drone_operator"\ncell = "F6"\ndrones = ["infantry"]', "drones"),            # drones only
    ('type = "bomb_drone"\ncell = "F6"', "type"),                                         # never on its own
    ('type = "infantry"\ncell = "F6"\nflying = true', "flying"),                          # only a helicopter
    ('type = "transport_helicopter"\ncell = "A12"', "cell"),                              # landed on a forest
    ('type = "transport_helicopter"\ncell = "C12"', "cell"),                              # landed on a road
    ('type = "transport_helicopter"\ncell = "S4"', "cell"),                               # on the enemy's pad
])
def test_a_scenarios_drones_and_flying_keys_are_checked(keys, at_fault):
    with pytest.raises(RuleError) as refusal:
        _scenario(f'side = "blue"\n{keys}')
    assert refusal.value.code == "bad_scenario" and f"units[1].{at_fault}" in refusal.value.en


@pytest.mark.parametrize(("keys", "flying"), [
    ('type = "transport_helicopter"\ncell = "F6"', False),                                # landed on meadow
    ('type = "transport_helicopter"\ncell = "B12"', False),                               # on burnt ground
    ('type = "transport_helicopter"\ncell = "S2"', False),                                # on its own pad
    ('type = "attack_helicopter"\ncell = "A12"\nflying = true', True),                    # in flight over anything
])
def test_a_scenarios_helicopter_starts_landed_on_landing_ground_or_in_flight_anywhere(keys, flying):
    state = _scenario(f'side = "blue"\n{keys}')
    heli = state.units["b1"]
    assert heli.flying is flying and (heli.cell in state.air) is flying and (heli.cell in state.occupied) is not flying


# -- « ennemi », without exception (issue 45): an enemy aircraft near a capture point counts -------------------------
def test_un_point_pris_redevient_neutre_des_qu_un_ennemi_arrive_a_4_cases_un_appareil_en_vol_aussi():
    """« Un point pris redevient neutre dès qu'un ennemi arrive à 4 cases » : a helicopter flying in, too."""
    state = red_to_play(field())
    state.holders[at("T12")] = "blue"
    unit(state, "r1", "red", "attack_helicopter", "T6", flying=True)
    events = order(state, "red", move("r1", "T8"))  # four cells from T12
    assert state.holders[at("T12")] is None
    assert {"change": "neutral", "cell": "T12", "side": "blue"} in [e.data for e in of_type(events, "point")]


def test_poste_dessus_il_ne_le_prend_pas_avec_un_appareil_ennemi_a_4_cases_ou_moins():
    """« Posté dessus, il le prend au bout de 2 fins de tour de son camp d'affilée, sans ennemi à 4 cases ou
    moins » : a drone hovering three cells away keeps it from being taken, as it would on the ground."""
    state = field()
    unit(state, "b1", "blue", "engineer", "T12")
    unit(state, "r9", "red", "drone_operator", "L12")  # eight cells away: not near
    unit(state, "r1", "red", "surveillance_drone", "T9", operator="r9")
    for _ in range(2):
        capture.end_of_side_turn(state, "blue")
    assert state.holders[at("T12")] is None
    state.remove(state.units["r1"])
    for _ in range(2):
        capture.end_of_side_turn(state, "blue")
    assert state.holders[at("T12")] == "blue"


def test_an_enemy_aircraft_over_a_cell_to_hold_breaks_the_hold():
    state = field()
    unit(state, "r1", "red", "attack_helicopter", "C3", flying=True)
    assert victory._hold_broken(state, Objective("hold", "blue", cells=(at("C3"),)))
    assert not victory._hold_broken(state, Objective("hold", "blue", cells=(at("C4"),)))

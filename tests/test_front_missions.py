"""Front, part 2 (issue 16): missions, and scenarios of one's own.

« Détruire toutes les unités adverses, ou tenir 4 des 5 points de victoire de la carte. Les
missions fixent parfois leurs propres objectifs : tenir jusqu'à un tour donné, escorter un
convoi, abattre un général… »
"""

from __future__ import annotations

from importlib import resources

import pytest

from kadesh import new_game
from kadesh.core.errors import RuleError
from kadesh.rules.front import scenario
from kadesh.rules.front.ruleset import Front
from kadesh.rules.front.victory import settle

FRONT = Front()

GROUND = """
[scenario]
id = "case"
fr = "Cas d'école"
en = "Test case"
season = "spring"
hour = "morning"

[legend]
"." = "meadow"
"=" = "road"
"f" = "forest"
"~" = "water"

[map]
rows = [
  "........",
  "========",
  "........",
  "........",
  "..f.....",
]
"""


def battle(units: str, victory: str = "", extra: str = "") -> str:
    return GROUND + units + extra + victory


def unit(side: str, kind: str, cell: str, tag: str | None = None) -> str:
    marked = f'tag = "{tag}"\n' if tag else ""
    return f'\n[[units]]\nside = "{side}"\ntype = "{kind}"\ncell = "{cell}"\n{marked}'


def game_of(text: str, seed: int = 1):
    return new_game("front", seed=seed, options={"scenario_toml": text})


def end_turns(game, count: int) -> None:
    for _ in range(count):
        if game.outcome is not None:
            return
        game.act(game.to_act()[0], {"type": "end_turn"})


# -- « tenir jusqu'à un tour donné » -----------------------------------------------------------------------------
HOLD = """
[victory]
default = false

[[victory.objectives]]
kind = "hold"
side = "red"
cells = ["H3"]
until = 2
"""


def test_hold_a_position_until_the_turn_given_and_the_holding_side_wins():
    game = game_of(battle(unit("blue", "infantry", "A3") + unit("red", "infantry", "H5"), HOLD))
    end_turns(game, 3)
    assert game.outcome is None and game.state.turn == 2
    end_turns(game, 1)  # the end of round 2
    assert game.outcome == {"winner": "red", "reason": "held"}
    assert "Fin de la bataille : Rouge a tenu jusqu'au bout." in game.journal("blue")
    assert game.view(None)["victory"]["objectives"] == [{"kind": "hold", "side": "red", "cells": ["H3"], "until": 2}]


def test_an_enemy_still_on_the_position_at_the_holders_end_of_turn_breaks_the_hold():
    game = game_of(battle(unit("blue", "infantry", "F3") + unit("red", "infantry", "A5"), HOLD))
    game.act("blue", {"type": "move", "unit": "b1", "to": "H3"})
    game.act("blue", {"type": "end_turn"})
    assert game.outcome is None  # the holder has its turn to throw it out
    game.act("red", {"type": "end_turn"})
    assert game.outcome == {"winner": "blue", "reason": "hold_broken"}
    with pytest.raises(RuleError) as over:
        game.act("blue", {"type": "end_turn"})
    assert over.value.code == "game_over"


# -- « escorter un convoi » ----------------------------------------------------------------------------------------
ESCORT = """
[victory]
default = false

[[victory.objectives]]
kind = "escort"
side = "blue"
tag = "convoy"
exit = ["H1", "H2", "H3"]
survivors = 2
by = 2
"""
CONVOY = (unit("blue", "truck", "A2", "convoy") + unit("blue", "truck", "B1", "convoy")
          + unit("blue", "infantry", "A4") + unit("red", "infantry", "D5"))


def test_an_escorted_unit_on_the_exit_leaves_the_map_and_enough_of_them_win():
    game = game_of(battle(CONVOY, ESCORT))
    events = game.act("blue", {"type": "move", "unit": "b1", "to": "H2"})
    assert "b1" not in {u["id"] for u in game.view("blue")["units"]}
    assert game.view("red")["escaped"] == {"blue": {"convoy": 1}, "red": {}}
    assert any(e.type == "escaped" for e in events) and game.outcome is None
    game.act("blue", {"type": "move", "unit": "b2", "to": "H1"})
    assert game.outcome == {"winner": "blue", "reason": "escorted"}


def test_the_escort_fails_when_too_few_are_left_or_when_its_time_is_up():
    game = game_of(battle(CONVOY, ESCORT))
    end_turns(game, 4)
    assert game.outcome == {"winner": "red", "reason": "escort_late"}
    state = game_of(battle(CONVOY, ESCORT)).state
    state.remove(state.units["b2"])  # one truck lost: two can no longer get out
    assert settle(state) == ("red", "convoy_lost")


# -- « abattre un général » -------------------------------------------------------------------------------------
GENERAL = """
[victory]

[[victory.objectives]]
kind = "destroy"
side = "red"
target = "general"
by = 2
"""


def test_destroying_the_enemy_general_wins_and_keeping_it_alive_past_the_deadline_wins_for_the_other():
    text = battle(unit("blue", "general", "A5") + unit("blue", "infantry", "A1") + unit("red", "heavy_tank", "E5"),
                  GENERAL)
    game = game_of(text)
    end_turns(game, 4)
    assert game.outcome == {"winner": "blue", "reason": "target_survived"}
    state = game_of(text).state
    state.remove(state.units["b1"])  # the general
    assert settle(state) == ("red", "target_destroyed")


def test_a_tank_shoots_the_general_down_through_the_orders():
    text = battle(unit("blue", "general", "C3") + unit("blue", "infantry", "A1") + unit("red", "heavy_tank", "F3"),
                  GENERAL)
    game = game_of(text, seed=3)
    game.act("blue", {"type": "end_turn"})
    for _ in range(2):  # the tank fires twice a turn: 5 and 5 against the 12 of the general, and again next turn
        game.act("red", {"type": "shoot", "unit": "r1", "target": "C3"})
    game.act("red", {"type": "end_turn"})
    game.act("blue", {"type": "end_turn"})
    for _ in range(2):
        if game.outcome is None:
            game.act("red", {"type": "shoot", "unit": "r1", "target": "C3"})
    assert game.outcome == {"winner": "red", "reason": "target_destroyed"}


def test_the_default_victory_may_be_dropped_but_a_side_with_no_unit_left_always_loses():
    text = battle(unit("blue", "infantry", "A3") + unit("red", "infantry", "H5"), HOLD)
    state = game_of(text).state
    state.holders = {(x, 0): "blue" for x in range(4)}  # four points held: no victory without the default
    assert settle(state) is None
    state.remove(state.units["r1"])
    assert settle(state) == ("blue", "annihilation")


# -- scenarios of one's own ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", scenario.SHIPPED)
def test_every_shipped_scenario_loads_through_the_same_door_as_ones_own(name):
    text = resources.files("kadesh.rules.front").joinpath("scenarios", f"{name}.toml").read_text(encoding="utf-8")
    own, shipped = game_of(text), new_game("front", seed=1, options={"scenario": name})
    for seat in ("blue", "red", None):
        assert own.view(seat) == shipped.view(seat)
    assert own.legal_actions("blue") == shipped.legal_actions("blue")


BAD = [
    ("[scenario\n", "line 1"),
    (GROUND.replace('season = "spring"', 'season = "monsoon"'), "scenario.season"),
    (GROUND.replace('hour = "morning"', 'hour = "morning"\nweather = "rain"'), "scenario.weather"),
    (GROUND.replace('"f" = "forest"', '"f" = "jungle"'), "legend.f"),
    (GROUND.replace('"..f.....",', '"..f....",'), "map.rows[5]"),
    (GROUND.replace('"..f.....",', '"..f....X",'), "map.rows[5]"),
    (battle(unit("blue", "infantry", "A3")), "units"),  # red has none
    (battle(unit("blue", "infantry", "Z9") + unit("red", "infantry", "A1")), "units[1].cell"),
    (battle(unit("blue", "tank", "A3") + unit("red", "infantry", "A1")), "units[1].type"),
    (battle(unit("blue", "infantry", "A3") + unit("red", "infantry", "A3")), "units[2].cell"),
    (battle(unit("blue", "infantry", "A3") + unit("red", "infantry", "A1") + '\n[[units]]\nside = "red"\n'),
     "units[3].cell"),
    (battle(unit("blue", "infantry", "A3") + unit("red", "infantry", "A1"),
            HOLD.replace('cells = ["H3"]', 'cells = ["H33"]')), "victory.objectives[1].cells[1]"),
    (battle(unit("blue", "infantry", "A3") + unit("red", "infantry", "A1"), ESCORT), "victory.objectives[1]"),
    (battle(unit("blue", "infantry", "A3") + unit("red", "infantry", "A1"),
            GENERAL.replace('target = "general"', 'target = "general"\ntag = "x"')), "victory.objectives[1]"),
    (battle(unit("blue", "infantry", "A3") + unit("red", "infantry", "A1"), "\n[victory]\ndefault = false\n"),
     "victory.default"),
    (battle(unit("blue", "infantry", "A3") + unit("red", "infantry", "A1"), "",
            '\n[[points]]\ncell = "A3"\n'), "units[1].cell"),  # only an engineer stands on a point
    (battle(unit("blue", "infantry", "A3", "c\\n") + unit("red", "infantry", "A1")), "units[1].tag"),
    (GROUND + "deep = " + "[" * 600 + "]" * 600 + "\n", "nested too deep"),
    (battle(unit("blue", "truck", "A2", "c") + unit("red", "truck", "B2", "c"),
            ESCORT.replace('tag = "convoy"', 'tag = "c"')), "victory.objectives[1].survivors"),
]


@pytest.mark.parametrize(("text", "where"), BAD, ids=[where for _, where in BAD])
def test_a_bad_scenario_is_refused_naming_the_line_or_the_key_at_fault(text, where):
    with pytest.raises(RuleError) as refused:
        game_of(text)
    assert refused.value.code == "bad_scenario"
    assert where in refused.value.en
    assert refused.value.fr.startswith("Scénario refusé")
    if where == "units" or "[" in where or "." in where or where.startswith("line"):  # a key or a line: as it is
        assert where in refused.value.fr


def test_a_scenario_is_refused_when_too_long_or_not_text():
    with pytest.raises(RuleError) as long:
        FRONT.normalize_options({"scenario_toml": "#" * (scenario.MAX_TEXT + 1)})
    assert long.value.code == "bad_scenario" and "60000" in long.value.en  # as every fault of the text (issue 45)
    with pytest.raises(RuleError) as odd:
        FRONT.normalize_options({"scenario_toml": ["not", "text"]})
    assert odd.value.code == "bad_options"


def test_a_unit_can_only_start_on_ground_it_could_enter():
    water = battle(unit("blue", "infantry", "A3") + unit("red", "infantry", "A1"),
                   extra='\n[[units]]\nside = "red"\ntype = "truck"\ncell = "A4"\n').replace('"........",\n  "..f',
                                                                                              '"~.......",\n  "..f')
    with pytest.raises(RuleError) as refused:
        game_of(water)
    assert "units[3].cell" in refused.value.en


def test_the_example_of_docs_scenarios_md_is_a_valid_scenario():
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = re.search(r"```toml\n(.*?)```", page, flags=re.S).group(1)
    state = scenario.parse(example)
    assert (state.width, state.height, state.title["en"]) == (12, 4, "Hold the ford")
    assert [u.tag for u in state.units.values()] == [None, "convoy", None] and state.mines == {(6, 0): "red"}
    assert state.victory.objectives[0].cells == ((7, 1), (8, 1)) and not state.victory.default


def test_a_truck_that_gets_out_takes_its_passengers_and_a_unit_set_down_on_the_exit_gets_out():
    text = battle(unit("blue", "truck", "A2", "convoy") + unit("blue", "infantry", "A1", "convoy")
                  + unit("blue", "truck", "F3", "convoy") + unit("red", "infantry", "D5"), ESCORT)
    game = game_of(text)
    game.act("blue", {"type": "board", "unit": "b2", "truck": "b1"})
    events = game.act("blue", {"type": "move", "unit": "b1", "to": "H2"})
    assert game.view("blue")["escaped"]["blue"] == {"convoy": 2}  # the truck and its tagged passenger
    assert "Bleu 1 (camion) quitte la carte en H2 avec Bleu 2." in game.journal("blue") and events[-1].type == "victory"
    assert game.outcome == {"winner": "blue", "reason": "escorted"}


def test_escorts_of_both_sides_count_apart():
    both = ESCORT + ESCORT.replace('side = "blue"', 'side = "red"').replace("[victory]\ndefault = false\n", "")
    text = battle(unit("blue", "truck", "A2", "convoy") + unit("blue", "truck", "B1", "convoy")
                  + unit("red", "truck", "G2", "convoy") + unit("red", "truck", "G4", "convoy"), both)
    game = game_of(text)
    game.act("blue", {"type": "end_turn"})
    game.act("red", {"type": "move", "unit": "r1", "to": "H2"})
    assert game.view("blue")["escaped"] == {"blue": {}, "red": {"convoy": 1}} and game.outcome is None

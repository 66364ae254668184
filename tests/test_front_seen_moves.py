"""Front: what a side sees of the other side's turn (issue 44). An enemy move is told to the side that saw
it, cell by cell where it saw the unit, never a cell out of its sight; a hit from an unseen shooter says
the direction the fire came from; the journal's marks carry both for the map.
"""

from __future__ import annotations

from kadesh import new_game
from kadesh.core.grid import compass
from kadesh.rules.front import rules
from kadesh.rules.front.ruleset import Front
from kadesh.rules.front.vision import spotted
from tests.front_support import clear_side, dice, small

FRONT = Front()


def _night_road(blue_at: tuple[int, int], red_to_play: bool = True):
    """``test_small`` at night: blue's truck b2 alone (sight 5 − 2), red's infantry r1 alone at I2 on the
    road (row 2) (sight 6 − 2); red to play, or blue."""
    state = small()
    state.hour = "night"
    clear_side(state, "blue", keep=("b2",))
    clear_side(state, "red", keep=("r1",))
    state.place(state.units["b2"], blue_at)
    state.place(state.units["r1"], (8, 1))
    if red_to_play:
        rules.end_turn(state, "blue", dice())
    return state


def _seen(events):
    return [e for e in events if e.type == "seen_moving"]


def test_a_move_through_the_sides_sight_is_told_only_where_it_was_seen():
    state = _night_road((4, 4))  # E5: the road is in sight from B2 to H2, not at I2 nor A2
    events = rules.move(state, "red", {"unit": "r1", "to": "A2"}, dice())
    [seen] = _seen(events)
    assert seen.audience == ("blue",)
    assert seen.data == {"unit": "r1", "side": "red", "cells": ["H2", "G2", "F2", "E2", "D2", "C2", "B2"],
                         "seen_leaving": False, "seen_arriving": False}
    assert FRONT.narrate(seen, "blue", "fr") == "Rouge 1 passe en vue de H2 à B2, puis disparaît."
    assert FRONT.narrate(seen, "blue", "en") == "Red 1 passes in sight from H2 to B2, then vanishes."
    assert "r1" not in spotted(state, "blue")  # where it ended, blue does not see it


def test_a_move_out_of_sight_tells_nothing_and_a_side_is_not_told_its_own_moves():
    state = _night_road((4, 5))  # E6: four rows from the road, one more than the truck sees at night
    assert not _seen(rules.move(state, "red", {"unit": "r1", "to": "A2"}, dice()))
    state = _night_road((4, 5), red_to_play=False)
    [seen] = _seen(rules.move(state, "blue", {"unit": "b2", "to": "G5"}, dice()))  # into r1's sight at I2
    assert seen.audience == ("red",) and seen.data["unit"] == "b2"


def test_a_unit_seen_leaving_and_arriving_and_one_coming_out_of_the_fog():
    state = _night_road((5, 3))  # F4: the road in sight from C2 to I2
    [seen] = _seen(rules.move(state, "red", {"unit": "r1", "to": "E2"}, dice()))
    assert seen.data["cells"] == ["I2", "H2", "G2", "F2", "E2"]
    assert seen.data["seen_leaving"] and seen.data["seen_arriving"]
    assert FRONT.narrate(seen, "blue", "fr") == "Rouge 1 va de I2 à E2."
    state = _night_road((0, 4))  # A5: only A2 to D2 of the road
    [seen] = _seen(rules.move(state, "red", {"unit": "r1", "to": "C2"}, dice()))
    assert seen.data["cells"] == ["D2", "C2"] and not seen.data["seen_leaving"] and seen.data["seen_arriving"]
    assert FRONT.narrate(seen, "blue", "en") == "Red 1 comes out of the fog at D2 and goes on to C2."


def test_the_seen_ways_and_the_shots_are_marks_for_the_map_in_the_other_sides_journal():
    game = new_game("front", seed=3, options={"scenario": "test_small"})
    game.act("blue", {"type": "move", "unit": "b1", "to": "B1"})
    game.act("blue", {"type": "end_turn"})
    marks = [mark for _, _, mark in game.journal_marked("red") if mark]
    assert {"kind": "moved", "unit": "b1", "side": "blue", "cells": ["A1", "B1"]} in marks
    assert not any(mark["kind"] == "moved" for _, _, mark in game.journal_marked("blue") if mark)
    assert not game.journal_marked(None) or all(mark is None or mark["kind"] != "moved"
                                                for _, _, mark in game.journal_marked(None))


def test_a_bearing_is_the_nearest_point_of_the_compass_towards_the_shooter():
    assert compass((5, 5), (5, 0)) == "N" and compass((5, 5), (9, 1)) == "NE" and compass((5, 5), (9, 5)) == "E"
    assert compass((5, 5), (6, 9)) == "S" and compass((5, 5), (0, 9)) == "SW" and compass((5, 5), (1, 4)) == "W"
    assert compass((5, 5), (5, 5)) is None

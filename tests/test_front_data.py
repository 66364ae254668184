"""Front's data tables (issue 9, in progress): terrain and units as the starting values give them."""

from __future__ import annotations

from kadesh.core import all_rulesets
from kadesh.core.grid import cheapest_steps
from kadesh.rules.front.data import CLASSES, TABLES


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


def test_front_is_not_offered_until_its_engine_is_complete():
    assert "front" not in all_rulesets()

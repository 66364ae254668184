"""Front's moves drawn on price tables (``moves.cheapest_costs``, by buckets of cost) answer as the generic search
(``grid.cheapest_steps`` asking ``moves.step_price`` for each step) does: the same cells, the same costs, in the
same order (the order of the legal moves), for every unit as the battle goes on, wounded or not, its tables shared
with the units of its kind or drawn for it alone, its search made anew or remembered from an earlier one on the same
window of prices (``moves._window_search``: a window too small, or a memory that ignored it, fails here); and the fuel
to each cell, and the cells within a vehicle's fuel, are the same."""

from __future__ import annotations

import dataclasses
import random

import pytest

from kadesh.core.dice import SeededDice
from kadesh.core.grid import cheapest_steps, chebyshev, king_neighbours
from kadesh.rules.front import moves
from kadesh.rules.front.data import TABLES
from kadesh.rules.front.ruleset import Front
from kadesh.rules.front.scenario import load
from kadesh.rules.front.state import State, Unit
from kadesh.rules.front.vision import as_known_by

RULES = Front()


def generic(state: State, unit: Unit) -> list[tuple[tuple[int, int], int]]:
    leash = moves._leash(state, unit)
    reach = cheapest_steps(unit.cell, lambda _from, to: moves.step_price(state, unit, to, leash), unit.ap)
    return list(reach.items())


def fuel_by_step_price(state: State, unit: Unit, reach: dict) -> dict:
    """``moves.fuel_to_each`` as it was written before the price tables: ``step_price`` for each cell."""
    fuel = {unit.cell: 0}
    for cell in sorted(reach, key=reach.__getitem__):
        if cell == unit.cell:
            continue
        price = moves.step_price(state, unit, cell)
        before = next(c for c in king_neighbours(cell) if c in fuel and reach[c] + price == reach[cell])
        fuel[cell] = fuel[before] + (TABLES.fuel_road if state.terrain_at(cell).road else TABLES.fuel_other)
    return fuel


def compare_fuel(state: State, unit: Unit, reach: dict, tables: moves.Tables) -> None:
    """The fuel to each cell, and the cells within the vehicle's fuel (in the order of the reach), with its
    fuel as it is and nearly none (where the cells beyond it are left out)."""
    fuel = fuel_by_step_price(state, unit, reach)
    assert moves.fuel_to_each(state, unit, reach, tables) == fuel
    ends = {cell: cost for cell, cost in reach.items() if cell != unit.cell}
    left = unit.fuel
    try:
        for unit.fuel in (left, 3):
            assert list(moves.within_fuel(state, unit, ends, tables).items()) == \
                [(cell, cost) for cell, cost in ends.items() if fuel[cell] <= unit.fuel]
    finally:
        unit.fuel = left


def compare(state: State, side: str) -> int:
    """Every unit of ``side`` on the map, as it is and every other one wounded (so that a wounded unit and a
    sound one of a kind share the tables), on what the side knows; the units compared."""
    compared = 0
    with as_known_by(state, side):
        for wounded in (None, 0, 1):
            tables: moves.Tables = {}
            for index, unit in enumerate([u for u in state.units.values() if u.side == side and u.on_map]):
                hp = unit.hp
                if index % 2 == wounded:
                    unit.hp = unit.type.hp // 2
                try:
                    expected = generic(state, unit)
                    assert list(moves.cheapest_costs(state, unit).items()) == expected, unit.id
                    assert list(moves.cheapest_costs(state, unit, tables).items()) == expected, unit.id
                    if unit.type.burns_per_step:
                        compare_fuel(state, unit, dict(expected), tables)
                finally:
                    unit.hp = hp
                compared += 1
    return compared


@pytest.mark.parametrize("scenario", ["test_mixed", "test_air", "mission_hold", "mission_general"])
def test_the_moves_drawn_on_price_tables_are_those_of_the_generic_search(scenario):
    rng, dice = random.Random(scenario), SeededDice(scenario)
    state = load(scenario)
    compared = 0
    for _ in range(40):
        if state.result:
            break
        side = state.active
        compared += compare(state, side)
        legal = [a for a in RULES.legal_actions(state, side) if a["type"] != "end_turn"]
        action = rng.choice(legal) if legal and rng.random() < 0.85 else {"type": "end_turn"}
        RULES.apply(state, side, action, dice)
    assert compared > 100


def test_a_step_that_costs_nothing_is_searched_the_generic_way():
    state = load("test_small")
    unit = state.units["b1"]
    state.set_terrain((1, 0), dataclasses.replace(TABLES.terrain["meadow"], cost={"foot": 0}))
    assert moves.price_table(state, unit) is None
    assert list(moves.cheapest_costs(state, unit).items()) == generic(state, unit)


def test_a_drone_is_searched_within_its_leash():
    state, dice = load("test_air"), SeededDice("leash")
    RULES.apply(state, "blue", {"type": "launch", "unit": "b1", "drone": "b3", "to": "D5"}, dice)
    drone, operator = state.units["b3"], state.units["b1"]
    assert drone.flying and drone.ap > 9  # it could fly beyond its leash of 8 cells, were it not for it
    assert max(chebyshev(cell, operator.cell) for cell in moves.cheapest_costs(state, drone)) == 8
    assert compare(state, "blue")

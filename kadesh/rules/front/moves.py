"""Moving on the ground: action points by terrain and movement class, double when wounded, fuel
for vehicles.

Choices (docs/rules/front.md lists them): a unit never enters or crosses a cell where
another unit stands (boarding a truck is its own order); the way taken is the cheapest in
action points, and its fuel is counted along that way. A side plans on the units it knows of
(``vision.as_known_by``): ``rules.move`` stops before an enemy unit it did not see (bump). Its
ways never cross nor end on a mine it knows of (``State.avoid``), and only an engineer's way
crosses or ends on a capture point.
"""

from __future__ import annotations

from collections.abc import Callable

from kadesh.core.grid import Cell, cheapest_steps, king_neighbours
from kadesh.rules.front import aircraft, capture, structures
from kadesh.rules.front.data import TABLES, UnitType
from kadesh.rules.front.state import State, Unit


def ground_price(state: State, kind: UnitType, to: Cell) -> int | None:
    """What the ground of ``to`` asks of a unit of ``kind`` for one step (units and mines aside), or None
    if it cannot go there: the terrain's cost, or a work's; never a building or a site; a capture point
    for an engineer only (« Seul un ingénieur y entre »)."""
    terrain = state.terrain_at(to)
    if terrain is None or not capture.may_enter_point(state, kind.id, to):
        return None
    cost = terrain.step_cost(kind.movement)
    structure = state.structures.get(to)
    if structure is not None:
        over = structures.step_cost(structure, kind.movement)
        if over is None:
            return None
        if over >= 0:  # a work replaces the terrain's cost (a bridge, -1, keeps it)
            cost = over
    return cost


def flight_price(state: State, unit: Unit, to: Cell, leash: set[Cell] | None = None) -> int | None:
    """An aircraft « vole par-dessus tout »: one cell of flight costs its ``step``, whatever lies below, on any
    cell of the map with no aircraft it knows of in the air; a drone never beyond its leash (``leash``: the
    cells within it, when the caller has them already)."""
    if state.terrain_at(to) is None or to in state.air:
        return None
    if unit.type.aircraft == "drone" and not (to in leash if leash is not None else aircraft.on_leash(state, unit, to)):
        return None
    return unit.type.extras.get("step", 1)


def step_price(state: State, unit: Unit, to: Cell, leash: set[Cell] | None = None) -> int | None:
    """Action points for one step onto ``to``, or None if the unit cannot go there."""
    if unit.type.flies:
        cost = flight_price(state, unit, to, leash)
        return None if cost is None else 2 * cost if unit.wounded else cost
    if to in state.occupied or to in state.avoid:
        return None
    cost = ground_price(state, unit.type, to)
    if cost is None:
        return None
    return 2 * cost if unit.wounded else cost


def _leash(state: State, unit: Unit) -> set[Cell] | None:
    return aircraft.leash_area(state, unit) if unit.type.aircraft == "drone" else None


_UNPRICED = object()


def _prices(state: State, unit: Unit) -> Callable[[Cell, Cell], int | None]:
    """``step_price`` for one search, each cell priced once: the search asks again for a cell from each of its
    neighbours, and the price of a step depends only on where it ends."""
    leash = _leash(state, unit)
    known: dict[Cell, int | None] = {}

    def price(_from: Cell, to: Cell) -> int | None:
        cost = known.get(to, _UNPRICED)
        if cost is _UNPRICED:
            cost = known[to] = step_price(state, unit, to, leash)
        return cost

    return price


def reachable(state: State, unit: Unit) -> dict[Cell, int]:
    """Every cell the unit can reach with its action points left, with the cheapest cost."""
    reach = cheapest_steps(unit.cell, _prices(state, unit), unit.ap)
    reach.pop(unit.cell)
    return reach


def way(state: State, unit: Unit, to: Cell) -> list[Cell] | None:
    """The cheapest way (without the start), or None if ``to`` is out of reach."""
    price_of = _prices(state, unit)
    reach = cheapest_steps(unit.cell, price_of, unit.ap)
    if to not in reach or to == unit.cell:
        return None
    path = [to]
    while path[-1] != unit.cell:
        here = path[-1]
        price = price_of(here, here)
        assert price is not None
        before = next(c for c in king_neighbours(here) if c in reach and reach[c] + price == reach[here])
        path.append(before)
    return list(reversed(path[:-1]))


def fuel_to_each(state: State, unit: Unit, reach: dict[Cell, int]) -> dict[Cell, int]:
    """Fuel burnt to reach each cell by its cheapest way, for all of them at once (cheapest first)."""
    fuel = {unit.cell: 0}
    for cell in sorted(reach, key=reach.__getitem__):
        if cell == unit.cell:
            continue
        price = step_price(state, unit, cell)
        assert price is not None
        before = next(c for c in king_neighbours(cell) if c in fuel and reach[c] + price == reach[cell])
        terrain = state.terrain_at(cell)
        assert terrain is not None
        fuel[cell] = fuel[before] + (TABLES.fuel_road if terrain.road else TABLES.fuel_other)
    return fuel


def fuel_for(state: State, way_cells: list[Cell]) -> int:
    """Fuel a vehicle burns along a way: little on road and bridge, more anywhere else."""
    total = 0
    for cell in way_cells:
        terrain = state.terrain_at(cell)
        assert terrain is not None
        total += TABLES.fuel_road if terrain.road else TABLES.fuel_other
    return total

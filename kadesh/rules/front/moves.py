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

from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

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


# -- the search --------------------------------------------------------------------------------------------------
# Every cell a unit may reach is asked for every unit at every legal-action list: the search runs on a flat
# table of step prices (one per cell, with a closed border around the map) rather than calling ``step_price``
# per step, and by buckets of cost rather than by a heap. It visits the cells in the very order of
# ``grid.cheapest_steps`` (cheapest first, then by cell), so the reach comes out in the same order: what the
# legal moves are listed in (tests/test_front_data.py compares the two).

Tables = dict[tuple[object, ...], "list[int] | None"]
"""Price tables shared by the searches of one state as it is (``legal_actions`` draws every unit's moves on
one): keyed by what a step's price depends on besides the cell."""

CLOSED = 1 << 40
"""A price table's price for a step nobody may make (off the map, a unit there, impassable): beyond any budget,
even doubled, so that the search needs no other test."""


@lru_cache(maxsize=16)
def _layout(width: int, height: int) -> tuple[int, tuple[Cell | None, ...], tuple[int, ...]]:
    """The flat table's stride (a column of the map and its border), each index's cell (None on the border),
    and the eight steps of ``king_neighbours`` as index offsets, in its order. A column after another keeps
    the indices in the order of the cells: (x, y) before (x, y + 1) before (x + 1, 0)."""
    stride = height + 2
    cells: list[Cell | None] = [None] * ((width + 2) * stride)
    for x in range(width):
        for y in range(height):
            cells[(x + 1) * stride + y + 1] = (x, y)
    offsets = tuple(dx * stride + dy for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0),
                                                     (1, -1), (1, 1), (-1, 1), (-1, -1)))
    return stride, tuple(cells), offsets


def _index(cell: Cell, stride: int) -> int:
    return (cell[0] + 1) * stride + cell[1] + 1


def _table_key(unit: Unit) -> tuple[object, ...] | None:
    """What a step's price depends on besides the cell and the state (None: the unit's own, a drone's leash)."""
    kind = unit.type
    if kind.aircraft == "drone":
        return None
    if kind.flies:
        return ("air", kind.extras.get("step", 1), unit.wounded)
    return ("ground", kind.movement, _captures(kind), unit.wounded)


def _captures(kind: UnitType) -> bool:
    return bool(TABLES.units[kind.id].extras.get("captures"))


def price_table(state: State, unit: Unit, tables: Tables | None = None) -> list[int] | None:
    """``step_price`` of every cell for ``unit``, at its flat index (``_layout``), ``CLOSED`` for None; None when
    a step would cost less than 1 (the search by buckets needs every step to cost something:
    ``grid.cheapest_steps`` then)."""
    key = _table_key(unit) if tables is not None else None
    if key is not None and key in tables:
        return tables[key]
    table: list[int] | None = _air_table(state, unit) if unit.type.flies else _ground_table(state, unit)
    if unit.wounded:
        table = [2 * price for price in table]  # CLOSED doubled is still beyond any budget
    if min(table) < 1:
        table = None
    if key is not None:
        tables[key] = table
    return table


def _on_map(state: State, cells: Iterable[Cell]) -> Iterator[Cell]:
    width, height = state.width, state.height
    return (cell for cell in cells if 0 <= cell[0] < width and 0 <= cell[1] < height)


def _ground_table(state: State, unit: Unit) -> list[int]:
    """``ground_price`` cell by cell, less the cells taken and the mines avoided (``step_price``)."""
    stride, cells, _ = _layout(state.width, state.height)
    movement, height, table = unit.type.movement, state.height, [CLOSED] * len(cells)
    assert len(state.terrain) == height  # a column's slice below is the map's height
    for x, column in enumerate(zip(*state.terrain, strict=True)):
        top = (x + 1) * stride + 1
        table[top:top + height] = [terrain.cost.get(movement, CLOSED) for terrain in column]
    for cell in _on_map(state, state.structures):
        over = structures.step_cost(state.structures[cell], movement)
        if over is None or over >= 0:  # a work replaces the terrain's cost (a bridge, -1, keeps it)
            table[_index(cell, stride)] = CLOSED if over is None else over
    closed = [*state.occupied, *state.avoid]
    if not _captures(unit.type):  # « Seul un ingénieur y entre » (``capture.may_enter_point``)
        closed += state.holders
    for cell in _on_map(state, closed):
        table[_index(cell, stride)] = CLOSED
    return table


def _air_table(state: State, unit: Unit) -> list[int]:
    """``flight_price`` cell by cell: any cell of the map free in the air (a drone's, on its leash)."""
    stride, cells, _ = _layout(state.width, state.height)
    step = unit.type.extras.get("step", 1)
    leash = _leash(state, unit)
    table = [CLOSED if cell is None or (leash is not None and cell not in leash) else step for cell in cells]
    for cell in _on_map(state, state.air):
        table[_index(cell, stride)] = CLOSED
    return table


def cheapest_costs(state: State, unit: Unit, tables: Tables | None = None) -> dict[Cell, int]:
    """``grid.cheapest_steps`` from the unit's cell with its action points, on the price table: the same cells
    with the same costs, in the same order (the start first, at 0).

    As every step costs 1 at least, the search reads only the prices within its budget and one cell more around
    its start: that window and where it lies are all it depends on, and a search already made on the same window
    is not made again (``_window_search``): the units that nothing came near since the last list of orders, the
    same unit's moves checked one after another."""
    table = price_table(state, unit, tables)
    width, height = state.width, state.height
    start, budget = unit.cell, unit.ap
    if table is None or not (0 <= start[0] < width and 0 <= start[1] < height):
        return cheapest_steps(start, _prices(state, unit), budget)
    if budget < 1:
        return {start: 0}
    stride = height + 2  # the table's, with its closed border (``_layout``)
    x, y = start[0] + 1, start[1] + 1
    left, right = max(0, x - budget - 1), min(width + 2, x + budget + 2)
    top, bottom = max(0, y - budget - 1), min(stride, y + budget + 2)
    window: list[int] = []
    for column in range(left * stride, right * stride, stride):
        window += table[column + top:column + bottom]
    rows = bottom - top
    return dict(_window_search(tuple(window), rows, (x - left) * rows + y - top, budget, (left - 1, top - 1)))


@lru_cache(maxsize=512)
def _window_search(window: tuple[int, ...], rows: int, origin: int, budget: int,
                   corner: Cell) -> tuple[tuple[Cell, int], ...]:
    """The search by buckets of cost on a window of the price table (``rows`` cells a column, ``corner`` the cell
    of its first index): each cell reached and its cost, in the order first reached. Among the cells of one cost
    it goes by cell, as the heap of ``cheapest_steps`` does, and a window's indices keep the cells' order."""
    offsets = tuple(dx * rows + dy for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0),
                                                   (1, -1), (1, 1), (-1, 1), (-1, -1)))  # ``king_neighbours``
    beyond = budget + 1
    best = [beyond] * len(window)  # beyond: not reached (yet)
    best[origin] = 0
    found = [origin]
    buckets: list[list[int]] = [[] for _ in range(beyond)]
    buckets[0].append(origin)
    for spent, bucket in enumerate(buckets):  # a step costs 1 at least: nothing joins the bucket being drawn
        bucket.sort()
        for index in bucket:
            if best[index] != spent:
                continue  # a cheaper way to this cell was found after it was put here
            for offset in offsets:
                after = index + offset
                total = spent + window[after]
                if total < best[after]:
                    if best[after] == beyond:
                        found.append(after)
                    best[after] = total
                    buckets[total].append(after)
    left, top = corner
    return tuple(((left + index // rows, top + index % rows), best[index]) for index in found)


def reachable(state: State, unit: Unit, tables: Tables | None = None) -> dict[Cell, int]:
    """Every cell the unit can reach with its action points left, with the cheapest cost."""
    reach = cheapest_costs(state, unit, tables)
    reach.pop(unit.cell)
    return reach


def way(state: State, unit: Unit, to: Cell) -> list[Cell] | None:
    """The cheapest way (without the start), or None if ``to`` is out of reach."""
    return way_within(state, unit, to, cheapest_costs(state, unit))


def way_within(state: State, unit: Unit, to: Cell, reach: dict[Cell, int]) -> list[Cell] | None:
    """``way`` from the unit's search already made (``reach``, the start in it at 0)."""
    if to not in reach or to == unit.cell:
        return None
    price_of = _prices(state, unit)
    path = [to]
    while path[-1] != unit.cell:
        here = path[-1]
        price = price_of(here, here)
        assert price is not None
        before = next(c for c in king_neighbours(here) if c in reach and reach[c] + price == reach[here])
        path.append(before)
    return list(reversed(path[:-1]))


def fuel_to_each(state: State, unit: Unit, reach: dict[Cell, int], tables: Tables | None = None) -> dict[Cell, int]:
    """Fuel burnt to reach each cell by its cheapest way, for all of them at once (cheapest first)."""
    table = price_table(state, unit, tables)
    stride = _layout(state.width, state.height)[0]
    fuel = {unit.cell: 0}
    for cell in sorted(reach, key=reach.__getitem__):
        if cell == unit.cell:
            continue
        price = step_price(state, unit, cell) if table is None else table[_index(cell, stride)]
        assert price is not None and price < CLOSED
        before = next(c for c in king_neighbours(cell) if c in fuel and reach[c] + price == reach[cell])
        terrain = state.terrain_at(cell)
        assert terrain is not None
        fuel[cell] = fuel[before] + (TABLES.fuel_road if terrain.road else TABLES.fuel_other)
    return fuel


def within_fuel(state: State, unit: Unit, reach: dict[Cell, int], tables: Tables | None = None) -> dict[Cell, int]:
    """The cells of ``reach`` (without the start) a vehicle has the fuel to get to by their cheapest way. When
    every step costs an action point at least, a way has no more steps than the unit has action points: with the
    fuel of that many steps anywhere, every cell is within its fuel, and the fuel of each is not worked out."""
    most = unit.ap * max(TABLES.fuel_road, TABLES.fuel_other, 0)
    if unit.fuel is not None and unit.fuel >= most and price_table(state, unit, tables) is not None:
        return reach
    fuel = fuel_to_each(state, unit, {unit.cell: 0, **reach}, tables)
    return {cell: cost for cell, cost in reach.items() if fuel[cell] <= unit.fuel}


def fuel_for(state: State, way_cells: list[Cell]) -> int:
    """Fuel a vehicle burns along a way: little on road and bridge, more anywhere else."""
    total = 0
    for cell in way_cells:
        terrain = state.terrain_at(cell)
        assert terrain is not None
        total += TABLES.fuel_road if terrain.road else TABLES.fuel_other
    return total

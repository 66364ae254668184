"""Square-grid geometry shared by every ruleset: cells, directions, distances, lines.

A cell is ``(x, y)``: x grows from west to east, y from north to south, both from 0.
Names like ``c5`` (column letter, row number from 1) are parsed and written here too.
"""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

Cell = tuple[int, int]

# Facings, clockwise from north; the index is the facing's number.
FACINGS = ("N", "E", "S", "W")
DIRECTION: dict[str, Cell] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
LEFT_OF = {"N": "W", "E": "N", "S": "E", "W": "S"}
RIGHT_OF = {"N": "E", "E": "S", "S": "W", "W": "N"}

_CELL_NAME = re.compile(r"^([a-zA-Z])([1-9][0-9]?)$")


def cell_name(cell: Cell, upper: bool = False) -> str:
    letter = chr((ord("A") if upper else ord("a")) + cell[0])
    return f"{letter}{cell[1] + 1}"


def parse_cell(name: object, width: int, height: int) -> Cell | None:
    """The cell called ``name`` (``c5`` or ``C5``) on a width×height board, or None."""
    if not isinstance(name, str):
        return None
    return _parse_cell(name, width, height)


@lru_cache(maxsize=1 << 12)  # every cell named in every action a search weighs; a board holds a few hundred
def _parse_cell(name: str, width: int, height: int) -> Cell | None:
    match = _CELL_NAME.match(name)
    if not match:
        return None
    x = ord(match.group(1).lower()) - ord("a")
    y = int(match.group(2)) - 1
    return (x, y) if 0 <= x < width and 0 <= y < height else None


_MAP_CELL_NAME = re.compile(r"^([A-Za-z]{1,3})([1-9][0-9]{0,3})$")


def column_letters(x: int) -> str:
    """Column ``x`` as on a paper map or a spreadsheet: A … Z, AA, AB …"""
    letters = ""
    x += 1
    while x:
        x, rest = divmod(x - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


@lru_cache(maxsize=1 << 16)  # named over and over (every move order of every legal action); a few thousand cells
def map_cell_name(cell: Cell) -> str:
    """``(2, 3)`` → ``C4``: upper-case columns beyond Z too, for maps larger than 26 columns."""
    return f"{column_letters(cell[0])}{cell[1] + 1}"


def parse_map_cell(name: object, width: int, height: int) -> Cell | None:
    """The cell called ``name`` (``C4``, ``c4``, ``AB12``) on a width×height map, or None."""
    if not isinstance(name, str):
        return None
    return _parse_map_cell(name, width, height)


@lru_cache(maxsize=1 << 16)
def _parse_map_cell(name: str, width: int, height: int) -> Cell | None:
    match = _MAP_CELL_NAME.match(name.strip())
    if not match:
        return None
    x = 0
    for letter in match.group(1).upper():
        x = x * 26 + ord(letter) - ord("A") + 1
    x, y = x - 1, int(match.group(2)) - 1
    return (x, y) if 0 <= x < width and 0 <= y < height else None


def king_neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The eight cells around ``cell`` (orthogonal first, then diagonal)."""
    x, y = cell
    return ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y),
            (x + 1, y - 1), (x + 1, y + 1), (x - 1, y + 1), (x - 1, y - 1))


def step(cell: Cell, facing: str, count: int = 1) -> Cell:
    dx, dy = DIRECTION[facing]
    return (cell[0] + dx * count, cell[1] + dy * count)


def on_board(cell: Cell, width: int, height: int) -> bool:
    return 0 <= cell[0] < width and 0 <= cell[1] < height


def orthogonal_neighbours(cell: Cell) -> tuple[Cell, ...]:
    x, y = cell
    return (x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)


@lru_cache(maxsize=8)
def board_neighbours(width: int, height: int) -> dict[Cell, tuple[Cell, ...]]:
    """Each cell's ``orthogonal_neighbours`` that lie on a width×height board, in the same order."""
    return {(x, y): tuple((nx, ny) for nx, ny in orthogonal_neighbours((x, y)) if 0 <= nx < width and 0 <= ny < height)
            for x in range(width) for y in range(height)}


def chebyshev(a: Cell, b: Cell) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def manhattan(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


@lru_cache(maxsize=8)
def distance_rows(width: int, height: int, metric: Callable[[Cell, Cell], int]) -> dict[Cell, tuple[int, ...]]:
    """Each cell's ``metric`` distance to every cell of a width×height board, at ``cell_index``: a search asks
    for its nearest enemy so often that a look-up beats the arithmetic."""
    cells = [(x, y) for x in range(width) for y in range(height)]
    return {cell: tuple(metric(cell, other) for other in cells) for cell in cells}


def cell_index(cell: Cell, height: int) -> int:
    """Where ``cell`` stands in a row of ``distance_rows``."""
    return cell[0] * height + cell[1]


def facing_towards(origin: Cell, target: Cell) -> str | None:
    """The facing that points from ``origin`` straight at an orthogonally aligned ``target``."""
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    if dx == 0 and dy < 0:
        return "N"
    if dx == 0 and dy > 0:
        return "S"
    if dy == 0 and dx > 0:
        return "E"
    if dy == 0 and dx < 0:
        return "W"
    return None


COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")  # the eight points, clockwise from north


def compass(origin: Cell, target: Cell) -> str | None:
    """The point of the compass (``COMPASS``) nearest the direction from ``origin`` to ``target``; None on
    the same cell. A bearing without a distance: where fire came from, when the shooter was not seen."""
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    if dx == dy == 0:
        return None
    degrees = math.degrees(math.atan2(dx, -dy)) % 360  # clockwise from north; y grows southwards
    return COMPASS[round(degrees / 45) % len(COMPASS)]


def facing_nearest(origin: Cell, target: Cell) -> str:
    """The facing closest to the direction from ``origin`` to ``target``.

    On an exact diagonal the north-south facing wins, so the choice never depends on order.
    """
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    if abs(dy) >= abs(dx) and dy != 0:
        return "S" if dy > 0 else "N"
    return "E" if dx > 0 else "W"


def _axis_cells(start: int, delta: int, t: int, n: int) -> tuple[int, ...]:
    """Coordinate(s) at t/n of the way along one axis; both cells when it falls on a boundary."""
    twice = 2 * delta * t
    if twice % (2 * n) == n:  # an odd multiple of n/2: exactly on a cell edge
        low = start + (twice - n) // (2 * n)
        return (low, low + 1)
    return (start + (twice + n) // (2 * n),)


@lru_cache(maxsize=1 << 16)  # every line of sight of every shot a search weighs; a few thousand pairs of cells
def line_between(a: Cell, b: Cell) -> tuple[Cell, ...]:
    """The cells strictly between ``a`` and ``b`` on the straight line joining their centres.

    At each of the ``n = chebyshev(a, b)`` steps the line's point is rounded to its cell;
    where it falls exactly on the edge between two cells, both are included. The rule is
    symmetric: ``line_between(a, b)`` and ``line_between(b, a)`` hold the same cells.
    """
    return tuple(cell for step in line_steps(a, b) for cell in step)


def line_steps(a: Cell, b: Cell) -> list[list[Cell]]:
    """The line from ``a`` to ``b`` step by step: at each step the one cell it crosses, or the two
    it runs exactly between (for a rule where passing either of them is enough)."""
    n = chebyshev(a, b)
    dx, dy = b[0] - a[0], b[1] - a[1]
    return [[(x, y) for x in _axis_cells(a[0], dx, t, n) for y in _axis_cells(a[1], dy, t, n)]
            for t in range(1, n)]


def cheapest_steps(start: Cell, step_cost: Callable[[Cell, Cell], int | None], budget: int,
                   neighbours: Callable[[Cell], Iterable[Cell]] = king_neighbours) -> dict[Cell, int]:
    """Every cell reachable from ``start`` for at most ``budget``, with its cheapest cost (Dijkstra).

    ``step_cost(from, to)`` is the price of one step, or None where the step is impossible
    (off the map, impassable terrain, an occupied cell). ``start`` itself costs 0."""
    best = {start: 0}
    frontier = [(0, start)]
    pop, push, best_of, beyond = heapq.heappop, heapq.heappush, best.get, budget + 1  # the hot loop of every move
    while frontier:
        spent, cell = pop(frontier)
        if spent > best[cell]:
            continue  # a cheaper way to this cell was found after this entry was queued
        for nxt in neighbours(cell):
            price = step_cost(cell, nxt)
            if price is None:
                continue
            total = spent + price
            if total < best_of(nxt, beyond):
                best[nxt] = total
                push(frontier, (total, nxt))
    return best


def within(center: Cell, radius: int, width: int, height: int) -> Iterator[Cell]:
    """The cells of the map at Chebyshev distance ``radius`` or less from ``center``."""
    x0, y0 = center
    for y in range(max(0, y0 - radius), min(height, y0 + radius + 1)):
        for x in range(max(0, x0 - radius), min(width, x0 + radius + 1)):
            yield (x, y)

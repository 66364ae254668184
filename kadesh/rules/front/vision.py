"""What a side sees (rules 13–15): its units' and its buildings' sight, shortened by night and
weather for units only, against the enemy's concealment in cover; and what it remembers of what
it saw (changed ground, fires, enemy mines its engineers found).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from kadesh.core.grid import Cell, chebyshev
from kadesh.rules.front import mines, structures
from kadesh.rules.front.data import TABLES, TIME, Terrain
from kadesh.rules.front.state import SIDES, State, Unit


def vision(state: State, unit: Unit) -> int:
    """A unit's sight now: its vision, at most 10, less the hour's and the season's penalty (but a drone's:
    « Bâtiments et drones ne sont pas touchés »)."""
    penalty = TIME["vision_penalty"]["hour"].get(state.hour, 0) + TIME["vision_penalty"]["season"].get(state.season, 0)
    if unit.type.aircraft == "drone":
        penalty = 0
    return max(1, min(unit.type.vision, TIME["max_vision"]) - penalty)


def concealment(state: State, unit: Unit, camouflaged: bool = False) -> int:
    """How many cells closer an enemy must come to spot ``unit``: in cover (terrain, work or building),
    the smaller it is the better it hides; a camouflaged one hides 2 cells more. An aircraft in flight
    has no cover to hide in."""
    if unit.flying:
        return 0
    hidden = TIME["concealment"][unit.type.size] if structures.ground_cover(state, unit.cell) > 0 else 0
    return hidden + (TIME["concealment"]["camouflage"] if camouflaged else 0)


def _buildings(state: State, side: str) -> list[tuple[Cell, int, bool]]:
    """The finished buildings of ``side`` that see: (cell, sight, sees through cover and camouflage)."""
    return [(cell, s.type.vision, s.type.sees_through) for cell, s in state.structures.items()
            if s.owner == side and s.type.vision and structures.standing(s)]


def sees_cell(state: State, side: str, cell: Cell) -> bool:
    """Whether ``side`` has eyes on a cell now: a unit on the map or a finished building within its sight."""
    if any(chebyshev(at, cell) <= sight for at, sight, _ in _buildings(state, side)):
        return True
    return any(u.side == side and u.on_map and chebyshev(u.cell, cell) <= vision(state, u)
               for u in state.units.values())


def sight_test(state: State, side: str) -> Callable[[Cell], bool]:
    """``sees_cell`` for ``side``, for asking about many cells while nothing moves (a side's orders being drawn):
    its sight is drawn once, at the first question (``_sight_rows``), rather than every unit asked again for each
    cell (each shooter asking about each work: 200 × 354 × 400 units on the largest battle). A cell off the map
    is asked of ``sees_cell`` itself."""
    drawn: list[list[bytearray]] = []

    def sees(cell: Cell) -> bool:
        if state.terrain_at(cell) is None:
            return sees_cell(state, side, cell)
        if not drawn:
            drawn.append(_sight_rows(state, side))
        return _seen(drawn[0], cell)

    return sees


def witnesses(state: State, cell: Cell, *also: str) -> tuple[str, ...]:
    """The sides that see ``cell`` now, and ``also``."""
    return tuple(side for side in SIDES if side in also or sees_cell(state, side, cell))


def _eyes(state: State, side: str) -> list[tuple[Cell, int]]:
    """Where ``side`` looks from, and how far: its finished buildings that see, and its units on the map."""
    eyes = [(at, sight) for at, sight, _ in _buildings(state, side)]
    eyes += [(u.cell, vision(state, u)) for u in state.units.values() if u.side == side and u.on_map]
    return eyes


def sight_of(state: State, side: str) -> set[Cell]:
    """Every cell ``side`` has eyes on now (``sees_cell`` for the whole map at once): what its view shades. Drawn
    on ``_sight_rows``, each cell once (the squares of a side's eyes overlap: each cell of each was a set's)."""
    return {(x, y) for y, row in enumerate(_sight_rows(state, side)) for x, seen in enumerate(row) if seen}


_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def sight_lines(state: State, side: str) -> list[str]:
    """``sight_of`` row by row as text, « 1 » in sight and « 0 » out of it: the view's ``sight``."""
    return [row.translate(_DIGITS).decode() for row in _sight_rows(state, side)]


def spotted(state: State, side: str, camouflaged: frozenset[str] = frozenset()) -> set[str]:
    """The enemy units ``side`` sees now (aircraft in flight as any unit): within a unit's or a building's
    sight less their concealment, or adjacent to one of its units; a watchtower sees 12 cells whatever the
    cover or camouflage; a drone sees through camouflage (« Tours de garde et drones le voient quand même »)."""
    sees = spotter(state, side)
    return {enemy.id for enemy in state.units.values()
            if enemy.side != side and enemy.on_map and sees(enemy, enemy.id in camouflaged)}


def spotter(state: State, side: str) -> Callable[[Unit, bool], bool]:
    """``spotted`` for one enemy unit at a time (``sees(enemy, camouflaged)``), ``side``'s eyes drawn once:
    also for following an enemy unit along its move, step by step, while ``side``'s own units stand still.

    Where many enemy units are asked about, the cells within sight are drawn once for each pair of concealments
    (``_in_sight``) and each unit is a look-up, rather than each unit measured against every eye."""
    watchers = [(u.cell, vision(state, u), u.type.aircraft == "drone") for u in state.units.values()
                if u.side == side and u.on_map]
    buildings = _buildings(state, side)
    width, height = state.width, state.height
    drawn: dict[tuple[int, int], list[bytearray]] = {}
    many = sum(1 for u in state.units.values() if u.side != side and u.on_map) >= _MANY_ENEMIES

    def sees(enemy: Unit, camouflaged: bool) -> bool:
        hidden = concealment(state, enemy, camouflaged)
        in_cover = concealment(state, enemy) if camouflaged else hidden  # what a drone sees through
        ex, ey = enemy.cell
        if many and 0 <= ex < width and 0 <= ey < height:
            rows = drawn.get((hidden, in_cover))
            if rows is None:
                rows = drawn[hidden, in_cover] = _in_sight(state, buildings, watchers, hidden, in_cover)
            return rows[ey][ex] == 1
        if any(max(abs(x - ex), abs(y - ey)) <= (sight if through else sight - hidden)  # Chebyshev, inlined:
               for (x, y), sight, through in buildings):  # asked of every watcher for every enemy unit
            return True
        for (x, y), sight, drone in watchers:
            distance = max(abs(x - ex), abs(y - ey))
            if distance <= 1 or distance <= sight - (in_cover if drone else hidden):
                return True
        return False

    return sees


_MANY_ENEMIES = 24  # from how many enemy units on the map drawing the cells in sight is cheaper than measuring


def _in_sight(state: State, buildings: list[tuple[Cell, int, bool]], watchers: list[tuple[Cell, int, bool]],
              hidden: int, in_cover: int) -> list[bytearray]:
    """The cells where ``spotter`` sees an enemy unit of these concealments, as rows of flags (1: seen): within
    a building's sight (less ``hidden`` but for a watchtower's), within a watcher's sight less ``hidden`` (less
    ``in_cover`` for a drone's), or next to a watcher."""
    eyes = [(at, sight if through else sight - hidden) for at, sight, through in buildings]
    eyes += [(at, max(1, sight - (in_cover if drone else hidden))) for at, sight, drone in watchers]
    rows = [bytearray(state.width) for _ in range(state.height)]
    for (cx, cy), reach in eyes:
        left, right = max(0, cx - reach), min(state.width, cx + reach + 1)
        if reach < 0 or left >= right:
            continue
        for y in range(max(0, cy - reach), min(state.height, cy + reach + 1)):
            rows[y][left:right] = b"\x01" * (right - left)
    return rows


def camouflaged_units(state: State) -> frozenset[str]:
    return frozenset(u.id for u in state.units.values() if u.camouflaged)


def _sight_rows(state: State, side: str) -> list[bytearray]:
    """``sight_of`` as one row of flags per map row (1: seen), each eye drawn a row's span at a time: for
    ``refresh_memory``, which asks about every changed cell, fire and structure (``sees_cell`` for each went
    through every unit: 1,354 works and 400 units took a quarter of a second)."""
    width, height = state.width, state.height
    rows = [bytearray(width) for _ in range(height)]
    for (cx, cy), sight in _eyes(state, side):
        left, right = max(0, cx - sight), min(width, cx + sight + 1)
        top, bottom = max(0, cy - sight), min(height, cy + sight + 1)
        if left >= right or top >= bottom:
            continue
        span = b"\x01" * (right - left)  # made once for all the eye's rows
        for row in rows[top:bottom]:
            row[left:right] = span
    return rows


def _seen(rows: list[bytearray], cell: Cell) -> bool:
    x, y = cell
    return 0 <= y < len(rows) and 0 <= x < len(rows[y]) and rows[y][x] == 1


def refresh_memory(state: State) -> None:
    """What each side sees now of the changed cells and of the fires becomes what it remembers; its
    engineers' finds (and finds of nothing) update the enemy mines it knows."""
    for side in SIDES:
        rows = _sight_rows(state, side)  # nothing below changes what the side sees
        remembered = state.memory[side]
        for cell in remembered:
            if _seen(rows, cell):
                remembered[cell] = state.terrain[cell[1]][cell[0]].id
        fires = state.fires_seen[side]
        for cell in set(state.fires) | fires:
            if _seen(rows, cell):
                if cell in state.fires:
                    fires.add(cell)
                else:
                    fires.discard(cell)
        mines.refresh_known(state, side)
        _refresh_structures(state, side, rows)


def _refresh_structures(state: State, side: str, rows: list[bytearray]) -> None:
    """The works and buildings not its own that a side sees now are what it remembers of them."""
    remembered = state.structures_seen[side]
    for cell in set(state.structures) | set(remembered):
        structure = state.structures.get(cell)
        if structure is not None and structure.owner == side:
            remembered.pop(cell, None)
        elif _seen(rows, cell):
            if structure is None:
                remembered.pop(cell, None)
            else:
                remembered[cell] = structure.copy()


@contextmanager
def as_known_by(state: State, side: str) -> Iterator[set[str]]:
    """Plan on what ``side`` knows (docs/rules/front.md, "fog-consistent orders"): inside, the enemy units it
    does not spot now are off ``state.occupied``, so their cells look free to its ways and lines of fire; the
    works and buildings are those it knows of, as it last saw them (``State.structures_known_by``); the ground
    is as it last saw it (``remembered_ground``); and the mines it knows of (its own, and the enemy's its
    engineers found) are cells its ways avoid.
    Orders are checked and legal actions drawn in here; they are carried out on the truth, outside.
    Yields the enemy units the side spots (as its view shows them)."""
    seen = spotted(state, side, camouflaged_units(state))
    truth, aloft, built, avoided = state.occupied, state.air, state.structures, state.avoid

    def known(cells: dict[Cell, str]) -> dict[Cell, str]:
        return {cell: unit_id for cell, unit_id in cells.items()
                if unit_id not in state.units or state.units[unit_id].side == side or unit_id in seen}

    state.occupied, state.air = known(truth), known(aloft)
    ground = state.terrain
    state.structures = state.structures_known_by(side)
    state.terrain = remembered_ground(state, side)
    state.avoid = mines.mines_seen_by(state, side)
    try:
        yield seen
    finally:
        state.occupied, state.air, state.structures, state.terrain, state.avoid = truth, aloft, built, ground, avoided


def remembered_ground(state: State, side: str) -> list[list[Terrain]]:
    """The map as ``side`` last saw it: the cells whose ground changed out of its sight (a crater, a fire burnt
    out, a bridge down) as it remembers them."""
    remembered = state.memory[side]
    if not remembered:
        return state.terrain
    rows = [list(row) for row in state.terrain]
    for (x, y), terrain_id in remembered.items():
        rows[y][x] = TABLES.terrain[terrain_id]
    return rows

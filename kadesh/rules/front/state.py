"""A Front battle: the map, the units, whose turn it is. Work in progress (issue 9)."""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from kadesh.core.grid import Cell, parse_map_cell
from kadesh.rules.front.data import TABLES, StructureType, Terrain, UnitType

SIDES = ("blue", "red")


@dataclass(slots=True)
class Unit:
    id: str
    side: str
    type: UnitType
    cell: Cell
    hp: int
    ap: int
    ammo: int
    fuel: int | None
    moved: bool = False      # this turn: range is halved after a move, some units fire only still
    shots: int = 0           # fired this turn
    camouflaged: bool = False  # a sniper or observer in cover, still since its last turn
    aboard: str | None = None  # the truck carrying it (it is then off the map: it neither fires nor is hit)
    cargo: list[str] = field(default_factory=list)  # a truck's passengers, or the cannon it tows

    @property
    def wounded(self) -> bool:
        """At half its hit points or less, every step costs double."""
        return 2 * self.hp <= self.type.hp


@dataclass(slots=True)
class Structure:
    type: StructureType
    owner: str | None        # a side, or None for a neutral work such as a bridge
    hp: int
    steps: int               # Build orders received; complete at type.steps
    carcass: bool = False    # a finished building destroyed: an engineer must clear it

    @property
    def complete(self) -> bool:
        return self.steps >= self.type.steps


@dataclass
class State:
    width: int
    height: int
    terrain: list[list[Terrain]]   # [y][x]
    units: dict[str, Unit]
    points: list[Cell]
    season: str
    hour: str
    active: str = SIDES[0]
    turn: int = 1
    occupied: dict[Cell, str] = field(default_factory=dict)  # cell → unit id
    holders: dict[Cell, str | None] = field(default_factory=dict)   # capture point → side holding it
    progress: dict[Cell, tuple[str, int]] = field(default_factory=dict)  # point → (engineer id, ends held)
    fires: dict[Cell, tuple[int, bool]] = field(default_factory=dict)   # burning forest → (turns left, spreads)
    burnt: dict[Cell, int] = field(default_factory=dict)                # burnt ground → spring turns since
    mines: dict[Cell, str] = field(default_factory=dict)                # cell → the side that laid it
    works: set[Cell] = field(default_factory=set)                       # cells with a work or a building
    structures: dict[Cell, Structure] = field(default_factory=dict)     # works, buildings, sites, carcasses
    day_turn: int = 0                # turns since the season began (a day is six turns)
    hour_index: int = -1             # where ``hour`` stands in the day (two turns are night)
    memory: dict[str, dict[Cell, str]] = field(default_factory=lambda: {side: {} for side in SIDES})
    original: list[list[str]] = field(default_factory=list)  # the map as the scenario gives it
    # ^ for cells whose terrain changed: the terrain each side last saw there (the map is known at the start)

    def copy(self) -> State:
        return copy.deepcopy(self)

    def terrain_at(self, cell: Cell) -> Terrain | None:
        x, y = cell
        return self.terrain[y][x] if 0 <= x < self.width and 0 <= y < self.height else None

    def set_terrain(self, cell: Cell, terrain: Terrain) -> None:
        """Change a cell's ground (crater, fire, bridge); a side that does not see it keeps the old one
        in mind (``memory``) until it looks again (``vision.refresh_memory``)."""
        x, y = cell
        old = self.terrain[y][x].id
        for remembered in self.memory.values():
            remembered.setdefault(cell, old)
        self.terrain[y][x] = terrain

    def place(self, unit: Unit, cell: Cell) -> None:
        self.occupied.pop(unit.cell, None)
        unit.cell = cell
        self.occupied[cell] = unit.id


def scenario_state(raw: dict[str, Any]) -> State:
    """A battle as a scenario file describes it (see ``scenarios/test_small.toml``)."""
    legend = {mark: TABLES.terrain[name] for mark, name in raw["legend"].items()}
    rows = raw["map"]["rows"]
    width, height = len(rows[0]), len(rows)
    if any(len(row) != width for row in rows):
        raise ValueError("map rows must all have the same width")
    terrain = [[legend[mark] for mark in row] for row in rows]
    state = State(width, height, terrain, {}, [], raw["scenario"]["season"], raw["scenario"]["hour"])
    state.original = [[t.id for t in row] for row in terrain]
    counts = dict.fromkeys(SIDES, 0)
    for spec in raw.get("units", []):
        kind = TABLES.units[spec["type"]]
        cell = parse_map_cell(spec["cell"], width, height)
        if cell is None or cell in state.occupied:
            raise ValueError(f"unit on {spec['cell']!r}: not a free cell of the map")
        counts[spec["side"]] += 1
        unit = Unit(f"{spec['side'][0]}{counts[spec['side']]}", spec["side"], kind, cell, kind.hp, kind.ap,
                    kind.ammo, kind.fuel)
        state.units[unit.id] = unit
        state.occupied[cell] = unit.id
    for mine in raw.get("mines", []):
        cell = parse_map_cell(mine["cell"], width, height)
        if cell is None:
            raise ValueError(f"mine on {mine['cell']!r}: not a cell of the map")
        state.mines[cell] = mine["side"]
    for point in raw.get("points", []):
        cell = parse_map_cell(point["cell"], width, height)
        if cell is None:
            raise ValueError(f"point on {point['cell']!r}: not a cell of the map")
        state.points.append(cell)
        state.holders[cell] = None
    return state


def load_scenario(name: str) -> State:
    text = resources.files(__package__).joinpath("scenarios", f"{name}.toml").read_text(encoding="utf-8")
    return scenario_state(tomllib.loads(text))

"""A Front battle: the map, the units, whose turn it is, what each side remembers, and the terms of its
victory (``Victory``, a mission's ``Objective``s: ``victory.settle`` judges them)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter

from kadesh.core.grid import Cell
from kadesh.rules.front.data import StructureType, Terrain, UnitType

SIDES = ("blue", "red")
OBJECTIVE_KINDS = ("hold", "escort", "destroy")


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
    tag: str | None = None     # a scenario's mark (a convoy, a target of a mission)
    alert: bool = False        # on alert: it keeps its fire for the enemy's turn (overwatch)
    patrol: Cell | None = None  # the centre of its patrol zone (radius 2), while it patrols
    mines: int = 0             # mines an engineer still carries
    rockets: int = 0           # rounds of its second weapon (``rocket``), if it has one
    flying: bool = False       # an aircraft in the air (the flying layer), not landed
    battery: int | None = None  # a drone's turns aloft left
    operator: str | None = None  # a drone's operator (when it lands, it is carried by it: ``aboard``)

    def copy(self) -> Unit:
        twin = Unit(*_unit_fields(self))  # field by field (``copy.copy`` goes through pickling's protocol: slower)
        twin.cargo = list(self.cargo)
        return twin

    @property
    def on_map(self) -> bool:
        """Aboard a truck (or a landed drone in its operator's kit) a unit is off the map: it neither
        sees, fires, commands nor is hit."""
        return self.aboard is None

    @property
    def on_ground(self) -> bool:
        """On the map and not in the air: what fire on the ground, mines, blasts and bombs can touch."""
        return self.aboard is None and not self.flying

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

    def copy(self) -> Structure:
        return Structure(*_structure_fields(self))  # its fields are values or a shared table entry

    @property
    def complete(self) -> bool:
        return self.steps >= self.type.steps


_unit_fields = attrgetter(*(spec.name for spec in fields(Unit)))  # every field, in the order __init__ takes them
_structure_fields = attrgetter(*(spec.name for spec in fields(Structure)))


@dataclass(frozen=True, slots=True)
class Objective:
    """A mission's objective for one side (docs/scenarios.md; ``victory`` says how each is judged)."""
    kind: str
    side: str
    cells: tuple[Cell, ...] = ()   # hold: the cells held; escort: the exit
    turn: int | None = None        # hold: until; escort and destroy: by
    tag: str | None = None         # escort and destroy: the units concerned
    target: str | None = None      # destroy: a unit type
    survivors: int = 0             # escort: how many must get out

    def marks(self, unit: Unit) -> bool:
        return (self.tag is not None and unit.tag == self.tag) or (self.target is not None
                                                                     and unit.type.id == self.target)


@dataclass(frozen=True, slots=True)
class Victory:
    default: bool = True
    points_to_win: int = 4       # « tenir 4 des 5 points de victoire »
    objectives: tuple[Objective, ...] = ()


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
    occupied: dict[Cell, str] = field(default_factory=dict)  # cell → unit id, on the ground
    air: dict[Cell, str] = field(default_factory=dict)       # cell → aircraft id, in flight over it
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
    fires_seen: dict[str, set[Cell]] = field(default_factory=lambda: {side: set() for side in SIDES})
    # ^ the burning forests each side saw burning when it last looked
    mines_known: dict[str, set[Cell]] = field(default_factory=lambda: {side: set() for side in SIDES})
    # ^ the enemy mines each side's engineers spotted, until cleared or seen gone
    structures_seen: dict[str, dict[Cell, Structure]] = field(default_factory=lambda: {side: {} for side in SIDES})
    # ^ the other side's and neutral works and buildings as each side last saw them (copies)
    victory: Victory = field(default_factory=Victory)
    result: tuple[str | None, str] | None = None   # (winner, reason) once the battle is decided
    escaped: dict[str, dict[str, int]] = field(default_factory=lambda: {side: {} for side in SIDES})
    # ^ escort: by side, the units of each tag that got out
    days_per_season: int = 2
    avoid: set[Cell] = field(default_factory=set)  # while a side plans: the mines it knows, which its ways avoid
    scenario_id: str = "custom"
    title: dict[str, str] = field(default_factory=dict)

    def copy(self) -> State:
        """A copy that shares nothing that an order changes: every order checked is tried on one, so this is
        written out rather than left to ``copy.deepcopy`` (five times slower). What is shared is immutable: the
        tables' entries, tuples, strings, the frozen ``Victory``. A new mutable field must be copied here
        (tests/test_front_state_copy.py fails until it is)."""
        twin = object.__new__(State)  # what ``copy.copy`` makes, without its detour through pickling's protocol
        twin.__dict__.update(self.__dict__)
        twin.terrain = [list(row) for row in self.terrain]
        twin.units = {unit_id: unit.copy() for unit_id, unit in self.units.items()}
        twin.points = list(self.points)
        for name in ("occupied", "air", "holders", "progress", "fires", "burnt", "mines", "title"):
            setattr(twin, name, dict(getattr(self, name)))
        twin.works, twin.avoid = set(self.works), set(self.avoid)
        twin.structures = {cell: structure.copy() for cell, structure in self.structures.items()}
        twin.memory = {side: dict(cells) for side, cells in self.memory.items()}
        twin.original = [list(row) for row in self.original]
        twin.fires_seen = {side: set(cells) for side, cells in self.fires_seen.items()}
        twin.mines_known = {side: set(cells) for side, cells in self.mines_known.items()}
        twin.structures_seen = {side: {cell: structure.copy() for cell, structure in seen.items()}
                                for side, seen in self.structures_seen.items()}
        twin.escaped = {side: dict(tags) for side, tags in self.escaped.items()}
        return twin

    def structures_known_by(self, side: str) -> dict[Cell, Structure]:
        """The works and buildings ``side`` knows of: its own as they are, the others as it last saw them."""
        known = {cell: s for cell, s in self.structures.items() if s.owner == side}
        known.update(self.structures_seen[side])
        return known

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

    def layer(self, unit: Unit) -> dict[Cell, str]:
        """The cells of the layer ``unit`` is in: the air for an aircraft in flight, else the ground."""
        return self.air if unit.flying else self.occupied

    def place(self, unit: Unit, cell: Cell) -> None:
        """Put a unit on ``cell`` in its layer; its passengers (and theirs) are where it is."""
        self.lift(unit)
        unit.cell = cell
        self.layer(unit)[cell] = unit.id
        self._carry(unit, cell)

    def _carry(self, unit: Unit, cell: Cell) -> None:
        for passenger in unit.cargo:
            self.units[passenger].cell = cell
            self._carry(self.units[passenger], cell)

    def lift(self, unit: Unit) -> None:
        """Take ``unit`` off the cell it holds in its layer (before it moves, takes off or lands)."""
        for cells in (self.occupied, self.air):
            if cells.get(unit.cell) == unit.id:
                del cells[unit.cell]

    def passengers(self, unit: Unit) -> list[str]:
        """Every unit ``unit`` carries, and those they carry (an operator's drones aboard a truck)."""
        found = []
        for passenger in unit.cargo:
            if passenger in self.units:
                found += [passenger, *self.passengers(self.units[passenger])]
        return found

    def remove(self, unit: Unit) -> None:
        """Take a unit off the battle (destroyed, or gone off the map), with its passengers (and theirs)."""
        for passenger in list(unit.cargo):
            if passenger in self.units:
                self.remove(self.units[passenger])
        del self.units[unit.id]
        self.lift(unit)


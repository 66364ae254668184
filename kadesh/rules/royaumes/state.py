"""The campaign's state: kingdoms, cities, armies, relations, and this turn's orders."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from kadesh.core.grid import Cell, map_cell_name
from kadesh.rules.royaumes.data import RULES, Scenario

WAR, PEACE, ALLY = "war", "peace", "ally"
STANCES = (WAR, PEACE, ALLY)
CONVERT, DESTROY = "convert", "destroy"


@dataclass(slots=True)
class Army:
    id: int
    kingdom: str
    cell: Cell
    created: int  # the turn it was raised in: it may not move before the next one
    since: int    # the turn whose adjudication brought it to its cell (tribute is for staying)


@dataclass(slots=True)
class City:
    name: str
    cell: Cell
    owner: str | None
    initial_of: str | None  # the kingdom whose initial city this is: it can never be destroyed
    destroyed: bool = False

    @property
    def standing(self) -> bool:
        return not self.destroyed


@dataclass(slots=True)
class Kingdom:
    id: str
    military_level: int
    population: int
    guild_level: int
    resources: dict[str, int]
    stance: dict[str, str]                   # towards each other kingdom: war, peace or ally
    intelligence: dict[str, tuple[int, int]] = field(default_factory=dict)  # spied: (level, turn)
    conquest: str = CONVERT                  # what to do with a city it takes
    tribute_resource: str | None = None      # what it pays tribute in when gold runs short

    def city_defence(self) -> int:
        return RULES.city_defence_bonus + RULES.guild_bonus_per_level * self.guild_level


@dataclass
class State:
    scenario: Scenario
    turn: int
    kingdoms: dict[str, Kingdom]
    cities: dict[str, City]
    armies: dict[int, Army]
    next_army: int
    orders: dict[str, dict[str, Any]] = field(default_factory=dict)  # this turn's, by kingdom
    arrival: list[str] = field(default_factory=list)                 # kingdoms, in order of arrival
    suspended: set[frozenset[str]] = field(default_factory=set)      # alliances Imhotep suspended
    deadline: str | None = None
    ended: dict[str, Any] | None = None
    history: list[dict[str, Any]] = field(default_factory=list)  # each adjudicated turn's public maps

    def copy(self) -> State:
        return copy.deepcopy(self, {id(self.scenario): self.scenario})  # the scenario is immutable

    # -- relations ------------------------------------------------------------
    def at_war(self, a: str, b: str) -> bool:
        """War is declared, not agreed: one kingdom's declaration is enough."""
        return a != b and (self.kingdoms[a].stance[b] == WAR or self.kingdoms[b].stance[a] == WAR)

    def allied(self, a: str, b: str) -> bool:
        """An alliance needs both kingdoms' word, and holds unless Imhotep suspended it."""
        return (a != b and self.kingdoms[a].stance[b] == ALLY and self.kingdoms[b].stance[a] == ALLY
                and frozenset((a, b)) not in self.suspended)

    def ally_of(self, kingdom: str) -> str | None:
        return next((other for other in self.kingdoms if self.allied(kingdom, other)), None)

    # -- the map --------------------------------------------------------------
    def city_at(self, cell: Cell) -> City | None:
        return next((c for c in self.cities.values() if c.cell == cell and c.standing), None)

    def cities_of(self, kingdom: str) -> list[City]:
        return [c for c in self.cities.values() if c.owner == kingdom and c.standing]

    def armies_at(self) -> dict[Cell, dict[str, list[Army]]]:
        """Every occupied cell, with each kingdom's armies there (oldest first)."""
        cells: dict[Cell, dict[str, list[Army]]] = {}
        for army in self.armies.values():
            cells.setdefault(army.cell, {}).setdefault(army.kingdom, []).append(army)
        return cells

    def raise_army(self, kingdom: str, cell: Cell) -> Army:
        army = Army(self.next_army, kingdom, cell, created=self.turn, since=self.turn)
        self.armies[army.id] = army
        self.next_army += 1
        return army

    def public_map(self) -> dict[str, Any]:
        """What everyone sees of the map: armies counted by kingdom and cell, and the cities."""
        counts: dict[tuple[str, Cell], int] = {}
        for army in self.armies.values():
            counts[(army.kingdom, army.cell)] = counts.get((army.kingdom, army.cell), 0) + 1
        return {
            "armies": [{"kingdom": k, "cell": map_cell_name(c), "count": n} for (k, c), n in counts.items()],
            "cities": [{"name": c.name, "owner": c.owner, "destroyed": c.destroyed} for c in self.cities.values()],
        }

    def order_of_arrival(self) -> list[str]:
        """Kingdoms by the arrival of their orders this turn; those without orders last, in seat order."""
        return self.arrival + [k for k in self.kingdoms if k not in self.arrival]


def initial_state(scenario: Scenario) -> State:
    kingdoms = {
        kid: Kingdom(kid, spec.military_level, spec.population, spec.guild_level, dict(spec.resources),
                     stance={other: PEACE for other in scenario.kingdoms if other != kid})
        for kid, spec in scenario.kingdoms.items()
    }
    cities = {}
    for kid, spec in scenario.kingdoms.items():
        for index, city in enumerate(spec.cities):
            cities[city.name] = City(city.name, city.cell, kid, kid if index == 0 else None)
    state = State(scenario, 1, kingdoms, cities, {}, 1)
    for kid, spec in scenario.kingdoms.items():
        for cell in spec.armies:
            army = state.raise_army(kid, cell)
            army.created = army.since = 0
    return state

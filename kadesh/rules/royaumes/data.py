"""The Royaumes numbers (``rules.toml``), loaded once, and the shape of a scenario (the maps are read
and checked in ``scenario.py``)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from kadesh.core.grid import Cell, parse_map_cell

GAME_MASTER = "imhotep"
LAND, WATER = ".", "~"


@dataclass(frozen=True, slots=True)
class Rules:
    city_defence_bonus: int
    guild_bonus_per_level: int
    occupied_creation_bonus: int
    keep_at_least: int
    max_cities: int
    population_divisor: int
    allies_at_most: int
    computer_turn_pause: float


@dataclass(frozen=True, slots=True)
class CitySpec:
    name: str
    cell: Cell


@dataclass(frozen=True, slots=True)
class KingdomSpec:
    id: str
    names: dict[str, str]          # {"fr": ..., "en": ...}
    aliases: tuple[str, ...]
    colour: str
    cities: tuple[CitySpec, ...]   # the initial city first
    armies: tuple[Cell, ...]
    military_level: int
    population: int
    guild_level: int
    resources: dict[str, int]


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    names: dict[str, str]
    width: int
    height: int
    water: frozenset[Cell]
    resources: tuple[str, ...]     # gold first
    resource_names: dict[str, dict[str, str]]
    costs: dict[str, dict[str, int]]
    kingdoms: dict[str, KingdomSpec]
    # Drawn on the map for the eye, never read by the rules: rivers (a path of cells) and the
    # names of seas and lakes ({"kind", "names", "path" or "label"}).
    features: tuple[dict[str, Any], ...] = ()

    def is_land(self, cell: Cell) -> bool:
        x, y = cell
        return 0 <= x < self.width and 0 <= y < self.height and cell not in self.water

    def cell(self, name: object) -> Cell | None:
        return parse_map_cell(name, self.width, self.height)


def _load_rules() -> Rules:
    raw = tomllib.loads(resources.files(__package__).joinpath("rules.toml").read_text(encoding="utf-8"))
    return Rules(
        city_defence_bonus=raw["battle"]["city_defence_bonus"],
        guild_bonus_per_level=raw["battle"]["guild_bonus_per_level"],
        occupied_creation_bonus=raw["battle"]["occupied_creation_bonus"],
        keep_at_least=raw["loss_table"]["keep_at_least"],
        max_cities=raw["cities"]["max_cities"],
        population_divisor=raw["tribute"]["population_divisor"],
        allies_at_most=raw["orders"]["allies_at_most"],
        computer_turn_pause=float(raw["table"]["computer_turn_pause"]),
    )


RULES = _load_rules()

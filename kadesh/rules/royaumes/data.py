"""The Royaumes numbers (``rules.toml``) and scenarios (``scenarios/*.toml``), loaded once."""

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
    )


RULES = _load_rules()


def scenario_from_dict(raw: dict[str, Any]) -> Scenario:
    """Build a scenario from its TOML structure (also how tests and benches make their own maps)."""
    rows = raw["map"]["rows"]
    width, height = len(rows[0]), len(rows)
    if any(len(row) != width for row in rows) or any(set(row) - {LAND, WATER} for row in rows):
        raise ValueError("map rows must have one width and use only '.' (land) and '~' (water)")
    water = frozenset((x, y) for y, row in enumerate(rows) for x, mark in enumerate(row) if mark == WATER)

    def cell(name: str) -> Cell:
        found = parse_map_cell(name, width, height)
        if found is None or found in water:
            raise ValueError(f"{name!r} is not a land cell of the map")
        return found

    kingdoms = {}
    for kid, spec in raw["kingdoms"].items():
        kingdoms[kid] = KingdomSpec(
            id=kid, names={"fr": spec["fr"], "en": spec["en"]},
            aliases=tuple(spec.get("aliases", ())), colour=spec.get("colour", "#888888"),
            cities=tuple(CitySpec(c["name"], cell(c["cell"])) for c in spec["cities"]),
            armies=tuple(cell(a) for a in spec.get("armies", ())),
            military_level=spec["military_level"], population=spec["population"],
            guild_level=spec.get("guild_level", 0), resources=dict(spec["resources"]),
        )
    info = raw["scenario"]
    names = raw.get("resource_names", {})
    return Scenario(id=info["id"], names={"fr": info["fr"], "en": info["en"]}, width=width, height=height,
                    water=water, resources=tuple(info["resources"]),
                    resource_names={r: names.get(r, {"fr": r, "en": r}) for r in info["resources"]},
                    costs=raw["costs"], kingdoms=kingdoms,
                    features=tuple(_feature(f, width, height) for f in raw["map"].get("features", ())))


def _feature(raw: dict[str, Any], width: int, height: int) -> dict[str, Any]:
    cells = [*raw.get("path", ()), *([raw["label"]] if "label" in raw else [])]
    if raw.get("kind") not in ("river", "sea", "lake") or any(parse_map_cell(c, width, height) is None for c in cells):
        raise ValueError(f"map feature {raw!r}: a kind (river, sea, lake) and cells of the map")
    out: dict[str, Any] = {"kind": raw["kind"], "names": {"fr": raw.get("fr", ""), "en": raw.get("en", "")}}
    if "path" in raw:
        out["path"] = list(raw["path"])
    if "label" in raw:
        out["label"] = raw["label"]
    return out


def _load_scenarios() -> dict[str, Scenario]:
    found = {}
    for entry in resources.files(__package__).joinpath("scenarios").iterdir():
        if entry.name.endswith(".toml"):
            scenario = scenario_from_dict(tomllib.loads(entry.read_text(encoding="utf-8")))
            found[scenario.id] = scenario
    return found


SCENARIOS = _load_scenarios()
DEFAULT_SCENARIO = "nil"

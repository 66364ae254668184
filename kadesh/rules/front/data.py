"""Front's numbers: terrain, works and buildings (``terrain.toml``), units and the cost of
orders (``units.toml``), loaded once."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

SIZES = ("S", "M", "L")
CLASSES = ("foot", "wheel", "track")


@dataclass(frozen=True, slots=True)
class Terrain:
    id: str
    names: dict[str, str]
    cost: dict[str, int]          # by movement class; a missing class cannot enter
    cover: int
    road: bool = False
    blocks_fire: bool = False
    ruin: bool = False

    def step_cost(self, movement: str) -> int | None:
        return self.cost.get(movement)


@dataclass(frozen=True, slots=True)
class UnitType:
    id: str
    names: dict[str, str]
    size: str
    movement: str
    hp: int
    ap: int
    vision: int
    range: int = 0
    min_range: int = 0
    indirect: bool = False
    ammo: int = 0
    fuel: int | None = None
    damage: dict[str, int] = field(default_factory=dict)
    shots: int = 1
    extras: dict[str, Any] = field(default_factory=dict)  # heals, repairs, carries, camouflage…

    @property
    def armed(self) -> bool:
        return self.range > 0 and self.ammo > 0

    @property
    def shot_cost(self) -> int:
        """A shot costs half the unit's action points, rounded up."""
        return -(-self.ap // 2)


@dataclass(frozen=True, slots=True)
class StructureType:
    id: str
    category: str                  # "work" or "building"
    names: dict[str, str]
    hp: int
    steps: int                     # Build orders to complete it
    cost: dict[str, int] | None    # a work's step cost by movement class (None: nobody enters)
    cover: int = 0
    vision: int = 0                # a finished building's sight (cells); 0 for works
    sees_through: bool = False     # the watchtower: concealment and camouflage do not hide from it
    serves: tuple[str, ...] = ()   # "heals", "repairs", "supplies": what it does for its side's units beside it


@dataclass(frozen=True, slots=True)
class Tables:
    terrain: dict[str, Terrain]
    fuel_road: int
    fuel_other: int
    units: dict[str, UnitType]
    order_costs: dict[str, int]
    structures: dict[str, StructureType]
    build_ap: int
    clear_ap: int


_UNIT_FIELDS = {"size", "class", "hp", "ap", "vision", "range", "min_range", "indirect", "ammo", "fuel", "damage",
                "shots", "fr", "en"}


def _read(name: str) -> dict[str, Any]:
    return tomllib.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


def _load() -> Tables:
    raw_terrain, raw_units = _read("terrain.toml"), _read("units.toml")
    terrain = {tid: Terrain(tid, {"fr": t["fr"], "en": t["en"]}, dict(t["cost"]), t["cover"], t.get("road", False),
                            t.get("blocks_fire", False), t.get("ruin", False))
               for tid, t in raw_terrain["terrain"].items()}
    units = {}
    for uid, u in raw_units["units"].items():
        if u["size"] not in SIZES or u["class"] not in CLASSES:
            raise ValueError(f"unit {uid}: size must be one of {SIZES}, class one of {CLASSES}")
        units[uid] = UnitType(
            uid, {"fr": u["fr"], "en": u["en"]}, u["size"], u["class"], u["hp"], u["ap"], u["vision"],
            u.get("range", 0), u.get("min_range", 0), u.get("indirect", False), u.get("ammo", 0), u.get("fuel"),
            dict(u.get("damage", {})), u.get("shots", 1), {k: v for k, v in u.items() if k not in _UNIT_FIELDS})
    structures = {}
    for category, key in (("work", "works"), ("building", "buildings")):
        for sid, spec in raw_terrain[key].items():
            structures[sid] = StructureType(sid, category, {"fr": spec["fr"], "en": spec["en"]}, spec["hp"],
                                            spec["steps"], dict(spec["cost"]) if "cost" in spec else None,
                                            spec.get("cover", 0), spec.get("vision", 0),
                                            spec.get("sees_through", False),
                                            tuple(k for k in ("heals", "repairs", "supplies") if spec.get(k)))
    return Tables(terrain, raw_terrain["fuel_road"], raw_terrain["fuel_other"], units, dict(raw_units["orders"]),
                  structures, raw_terrain["build_ap"], raw_terrain["clear_ap"])


TABLES = _load()

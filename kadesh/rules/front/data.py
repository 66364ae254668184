"""Front's numbers: terrain, works and buildings (``terrain.toml``), units and the cost of
orders (``units.toml``), hours, seasons, sight and forest fires (``time.toml``), loaded once."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

SIZES = ("S", "M", "L")
CLASSES = ("foot", "wheel", "track", "air")
AIRCRAFT = ("drone", "helicopter")   # what flies: an ``air`` unit's ``aircraft`` kind


class TableEntry:
    """A line of the tables: loaded once and never changed, so a copy of a battle shares it instead of
    copying it (a battle's deep copy, made for every order checked, spent most of its time copying these)."""

    __slots__ = ()

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


@dataclass(frozen=True, slots=True)
class Terrain(TableEntry):
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
class Weapon(TableEntry):
    """One of a unit's weapons (« une arme par tir »: each shot names the one it fires).

    ``air``: the aircraft in flight it brings down (« drone », « helicopter »); ``ground``: whether it
    fires at units on the ground at all (the AA battery does not); ``hits_landed``: whether it hits a
    landed helicopter (the sniper and the AA battery « ne visent pas si bas »); ``order``: the order that
    fires it (``shoot``, a drone's ``bomb`` or ``strike``)."""
    id: str
    names: dict[str, str]
    range: int
    ammo: int
    damage: dict[str, int]
    min_range: int = 0
    indirect: bool = False
    shell: bool = False
    blast: int = 0
    air: tuple[str, ...] = ()
    ground: bool = True
    hits_landed: bool = True
    order: str = "shoot"


@dataclass(frozen=True, slots=True)
class UnitType(TableEntry):
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
    weapons: tuple[Weapon, ...] = ()   # the main one first (its numbers are also the fields above)
    aircraft: str | None = None        # "drone" or "helicopter" for an ``air`` unit
    battery: int | None = None         # a drone's turns aloft

    @property
    def armed(self) -> bool:
        return self.range > 0 and self.ammo > 0

    @property
    def flies(self) -> bool:
        return self.movement == "air"

    @property
    def burns_per_step(self) -> bool:
        """A ground vehicle burns fuel at every cell; a helicopter burns it by the turn aloft."""
        return self.fuel is not None and not self.flies

    def weapon(self, weapon_id: str | None = None) -> Weapon | None:
        """The weapon a shot names (the main one when it names none)."""
        if not self.weapons:
            return None
        if weapon_id is None:
            return self.weapons[0]
        return next((w for w in self.weapons if w.id == weapon_id), None)

    @property
    def shot_cost(self) -> int:
        """A shot costs half the unit's action points, rounded up."""
        return -(-self.ap // 2)


@dataclass(frozen=True, slots=True)
class StructureType(TableEntry):
    id: str
    category: str                  # "work" or "building"
    names: dict[str, str]
    hp: int
    steps: int                     # Build orders to complete it
    cost: dict[str, int] | None    # a work's step cost by movement class (None: nobody enters)
    cover: int = 0
    vision: int = 0                # a finished building's sight (cells); 0 for works
    sees_through: bool = False     # the watchtower: concealment and camouflage do not hide from it
    serves: tuple[str, ...] = ()   # "heals", "repairs", "supplies" (its side's units beside it), "pad" (a heliport)


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
    air: dict[str, Any] = field(default_factory=dict)   # the air war's numbers (units.toml [air])


_UNIT_FIELDS = {"size", "class", "hp", "ap", "vision", "range", "min_range", "indirect", "ammo", "fuel", "damage",
                "shots", "fr", "en", "weapon", "rocket", "air", "ground", "hits_landed", "order", "aircraft",
                "battery", "shell", "blast"}
_WEAPON_NAMES = {"main": {"fr": "arme", "en": "weapon"}}


def _weapon(weapon_id: str, spec: dict[str, Any], names: dict[str, str]) -> Weapon:
    return Weapon(weapon_id, names, spec.get("range", 0), spec.get("ammo", 0), dict(spec.get("damage", {})),
                  spec.get("min_range", 0), spec.get("indirect", False), spec.get("shell", False),
                  spec.get("blast", 0), tuple(spec.get("air", ())), spec.get("ground", True),
                  spec.get("hits_landed", True), spec.get("order", "shoot"))


def _weapons(uid: str, u: dict[str, Any]) -> tuple[Weapon, ...]:
    """The main weapon (the unit's own fields, named by ``weapon``) and a second one (``[units.x.rocket]``)."""
    weapons = []
    if u.get("range", 0) > 0:
        main = u.get("weapon", {"id": "main", **_WEAPON_NAMES["main"]})
        weapons.append(_weapon(main["id"], u, {"fr": main["fr"], "en": main["en"]}))
    if "rocket" in u:
        rocket = u["rocket"]
        weapons.append(_weapon("rocket", rocket, {"fr": rocket["fr"], "en": rocket["en"]}))
    for weapon in weapons:
        if not set(weapon.air) <= set(AIRCRAFT) or weapon.order not in ("shoot", "bomb", "strike"):
            raise ValueError(f"unit {uid}: a weapon's air is among {AIRCRAFT}, its order shoot, bomb or strike")
    return tuple(weapons)


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
            dict(u.get("damage", {})), u.get("shots", 1), {k: v for k, v in u.items() if k not in _UNIT_FIELDS},
            _weapons(uid, u), u.get("aircraft"), u.get("battery"))
        if (u["class"] == "air") != (u.get("aircraft") in AIRCRAFT):
            raise ValueError(f"unit {uid}: an air unit, and only one, names its aircraft kind {AIRCRAFT}")
    structures = {}
    for category, key in (("work", "works"), ("building", "buildings")):
        for sid, spec in raw_terrain[key].items():
            structures[sid] = StructureType(sid, category, {"fr": spec["fr"], "en": spec["en"]}, spec["hp"],
                                            spec["steps"], dict(spec["cost"]) if "cost" in spec else None,
                                            spec.get("cover", 0), spec.get("vision", 0),
                                            spec.get("sees_through", False),
                                            tuple(k for k in ("heals", "repairs", "supplies", "pad") if spec.get(k)))
    return Tables(terrain, raw_terrain["fuel_road"], raw_terrain["fuel_other"], units, dict(raw_units["orders"]),
                  structures, raw_terrain["build_ap"], raw_terrain["clear_ap"], dict(raw_units["air"]))


TABLES = _load()
TIME = _read("time.toml")   # the hours and seasons, sight and concealment, forest fires


def weapon_names() -> dict[str, dict[str, str]]:
    """Each weapon's name by its id, as the first unit that has it names it (the heavy tank's « roquette »)."""
    names: dict[str, dict[str, str]] = {}
    for kind in TABLES.units.values():
        for weapon in kind.weapons:
            names.setdefault(weapon.id, dict(weapon.names))
    return names

"""The Bataille numbers and troop catalogue, loaded once from ``rules.toml``."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

SIDES = ("north", "south")
OTHER = {"north": "south", "south": "north"}
TROOP_FIELDS = ("strength", "discipline", "morale", "melee", "missile", "range", "speed")


@dataclass(frozen=True, slots=True)
class Troop:
    id: str
    names: dict[str, str]
    strength: int
    discipline: int
    morale: int
    melee: int
    missile: int
    range: int
    speed: int


@dataclass(frozen=True, slots=True)
class Rules:
    die_sides: int
    missile_only: int
    missile_and_melee: int
    melee_only: int
    loss_step_percent: int
    loss_divisor: int
    range_advantage: float
    max_turns: int
    max_sequences: int
    event_roll: int
    troops: dict[str, Troop]
    lanes: tuple[str, ...]
    depth: int
    deploy: int
    paces_per_speed: int
    night: int
    max_groups: int
    fields: dict[str, dict]           # the shipped set-ups, as written in rules.toml


def _load() -> Rules:
    raw = tomllib.loads(resources.files(__package__).joinpath("rules.toml").read_text(encoding="utf-8"))
    troops = {tid: Troop(tid, {"fr": t["fr"], "en": t["en"]}, *(t[f] for f in TROOP_FIELDS))
              for tid, t in raw["troops"].items()}
    return Rules(
        die_sides=raw["dice"]["sides"],
        missile_only=raw["morale"]["missile_only"], missile_and_melee=raw["morale"]["missile_and_melee"],
        melee_only=raw["morale"]["melee_only"], loss_step_percent=raw["morale"]["loss_step_percent"],
        loss_divisor=raw["attack"]["loss_divisor"], range_advantage=raw["fire"]["range_advantage"],
        max_turns=raw["battle"]["max_turns"], max_sequences=raw["battle"]["max_sequences"],
        event_roll=raw["battle"]["event_roll"], troops=troops,
        lanes=tuple(raw["field"]["lanes"]), depth=raw["field"]["depth"], deploy=raw["field"]["deploy"],
        paces_per_speed=raw["field"]["paces_per_speed"], night=raw["field"]["night"],
        max_groups=raw["field"]["max_groups"], fields=raw["fields"],
    )


RULES = _load()

"""The Manœuvre numbers, loaded once from ``rules.toml``."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

SIDES = ("north", "south")
OTHER_SIDE = {"north": "south", "south": "north"}


@dataclass(frozen=True, slots=True)
class Kind:
    name: str
    move: int
    vs_foot: int
    vs_mounted: int
    mounted: bool
    shoots: bool
    loss_value: int

    def factor_against(self, opponent: Kind) -> int:
        return self.vs_mounted if opponent.mounted else self.vs_foot


@dataclass(frozen=True, slots=True)
class Rules:
    width: int
    height: int
    deploy_columns: range
    first_side: str
    opener_side: str
    deploy_rows: dict[str, tuple[int, ...]]
    start_facing: dict[str, str]
    army: tuple[str, ...]
    choice_values: tuple[str, ...]
    choice_default: str
    formation: tuple[tuple[str, ...], tuple[str, ...]]  # the default placement: front row, back row, West to East
    kinds: dict[str, Kind]
    die_sides: int
    general_bonus: int
    rear_support_bonus: int
    flank_threat_penalty: int
    attacked_flank_penalty: int
    attacked_rear_penalty: int
    double_ratio: int
    shooting_range: int
    shooting_target_factor: str
    pass_through_threatened: bool
    break_losses: int


def _column(letter: str) -> int:
    return ord(letter) - ord("a")


def _load(raw: dict[str, Any]) -> Rules:
    board = raw["board"]
    combat = raw["combat"]
    return Rules(
        width=board["width"],
        height=board["height"],
        deploy_columns=range(_column(board["deploy_first_column"]), _column(board["deploy_last_column"]) + 1),
        first_side=board["first_side"],
        opener_side=board["opener_side"],
        deploy_rows={side: tuple(r - 1 for r in raw["sides"][side]["rows"]) for side in SIDES},
        start_facing={side: raw["sides"][side]["facing"] for side in SIDES},
        army=tuple(raw["army"]["order"]),
        choice_values=tuple(raw["army"]["choice_values"]),
        choice_default=raw["army"]["choice_default"],
        formation=(tuple(raw["formation"]["front"]), tuple(raw["formation"]["back"])),
        kinds={name: Kind(name=name, **spec) for name, spec in raw["kinds"].items()},
        die_sides=combat["die_sides"],
        general_bonus=combat["general_bonus"],
        rear_support_bonus=combat["rear_support_bonus"],
        flank_threat_penalty=combat["flank_threat_penalty"],
        attacked_flank_penalty=combat["attacked_flank_penalty"],
        attacked_rear_penalty=combat["attacked_rear_penalty"],
        double_ratio=combat["double_ratio"],
        shooting_range=raw["shooting"]["max_range"],
        shooting_target_factor=raw["shooting"]["target_factor"],
        pass_through_threatened=raw["movement"]["pass_through_threatened"],
        break_losses=raw["victory"]["break_losses"],
    )


def load_rules() -> Rules:
    text = resources.files(__package__).joinpath("rules.toml").read_text(encoding="utf-8")
    return _load(tomllib.loads(text))


RULES = load_rules()

"""A battle between two groups: their figures, where the sequence stands, who must decide."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from kadesh.rules.bataille.data import RULES, SIDES

# Phases: where the battle waits.
DEPLOY = "deploy"          # both generals confirm their group
STANCE = "stance"          # both pass morale: each general chooses attack, hold or withdraw (in secret)
PURSUE = "pursue"          # the enemy broke: the winner's general may pursue
CONTINUE = "continue"      # after a pursuit sequence: the pursuers' general goes on or stops
OVER = "over"

ATTACK, HOLD, WITHDRAW = "attack", "hold", "withdraw"
STANCES = (ATTACK, HOLD, WITHDRAW)


@dataclass(slots=True)
class Group:
    side: str
    troop: str            # a catalogue id, or "custom"
    strength: int
    initial: int
    discipline: int
    morale: int
    melee: int
    missile: int
    range: int
    speed: int
    id: str = ""          # on a field: the group's name in orders ("n1", "s2"); empty in a duel
    lane: str = ""        # on a field: west, centre or east
    pos: int = 0          # on a field: paces from the north edge

    @property
    def shoots(self) -> bool:
        return self.missile > 0 and self.range > 0 and self.strength > 0

    def morale_modifier(self) -> int:
        """The text's weapon modifiers to the morale roll (a group with no weapon at all gets none)."""
        missile, melee = self.missile > 0 and self.range > 0, self.melee > 0
        if missile and melee:
            return RULES.missile_and_melee
        if missile:
            return RULES.missile_only
        return RULES.melee_only if melee else 0


@dataclass
class State:
    groups: dict[str, Group]
    shelter: bool                    # a fortress or a river at hand for a group that flees
    events: bool                     # night, storm or reinforcements may end a pursuit
    phase: str = DEPLOY
    turn: int = 0
    sequences: int = 0               # fire, melee and pursuit sequences so far (night ends an endless one)
    ready: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(SIDES, False))
    stances: dict[str, str] = field(default_factory=dict)  # this turn's, secret until both are given
    decider: str | None = None       # who must decide in PURSUE and CONTINUE
    result: dict[str, Any] | None = None
    # On a field (kadesh/rules/bataille/field.py) the same sequence runs as one engagement; these
    # keep their one-against-one values in a duel.
    distance: int = 0                # paces between the two groups; 0 = in contact
    storm: bool = False              # no group can shoot in a storm
    shelter_distance: dict[str, int] | None = None  # paces from each side's group to its shelter
    fled: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))  # paces run in a pursuit
    field_event: str | None = None   # night, storm or reinforcements: ends a pursuit this turn
    standoff_ends: bool = False      # both hold, or both stand after a melee: the engagement ends until the
    #                                  next field turn (the melee then goes on at once, ``field.melee_goes_on``)
    closed: bool = False             # a melee or a pursuit brought the groups into contact
    over_friends: bool = False       # a group shooting over its own side's front: fire and morale, no melee
    stances_taken: dict[str, str] = field(default_factory=dict)  # the last stances, after discipline

    def copy(self) -> State:
        return copy.deepcopy(self)

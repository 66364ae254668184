"""What a side sees: its units' vision, shortened by night and weather, against the enemy's
concealment in cover. Work in progress (issue 9): rules 13–15 on the ground (buildings and
watchtowers come with the buildings).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources

from kadesh.core.grid import chebyshev
from kadesh.rules.front.state import State, Unit

TIME = tomllib.loads(resources.files(__package__).joinpath("time.toml").read_text(encoding="utf-8"))


def vision(state: State, unit: Unit) -> int:
    """A unit's sight tonight: its vision, at most 10, less the hour's and the season's penalty."""
    penalty = TIME["vision_penalty"]["hour"].get(state.hour, 0) + TIME["vision_penalty"]["season"].get(state.season, 0)
    return max(1, min(unit.type.vision, TIME["max_vision"]) - penalty)


def concealment(state: State, unit: Unit, camouflaged: bool = False) -> int:
    """How many cells closer an enemy must come to spot ``unit``: smaller hides better in cover."""
    terrain = state.terrain_at(unit.cell)
    hidden = TIME["concealment"][unit.type.size] if terrain is not None and terrain.cover > 0 else 0
    return hidden + (TIME["concealment"]["camouflage"] if camouflaged else 0)


def sees_cell(state: State, side: str, cell: tuple[int, int]) -> bool:
    """Whether ``side`` has eyes on a cell now: a unit within its sight, or a finished watchtower."""
    if any(s.owner == side and s.complete and not s.carcass and s.type.vision
           and chebyshev(c, cell) <= TIME["watchtower_vision"] for c, s in state.structures.items()):
        return True
    return any(u.side == side and u.aboard is None and chebyshev(u.cell, cell) <= vision(state, u)
               for u in state.units.values())


def refresh_memory(state: State) -> None:
    """What each side sees of the changed cells becomes what it remembers of them."""
    for side, remembered in state.memory.items():
        for cell in remembered:
            if sees_cell(state, side, cell):
                remembered[cell] = state.terrain[cell[1]][cell[0]].id


def spotted(state: State, side: str, camouflaged: frozenset[str] = frozenset()) -> set[str]:
    """The enemy units ``side`` sees now: within a watcher's sight less their concealment, or adjacent;
    a finished watchtower sees 12 cells, whatever the hour, the weather or camouflage."""
    watchers = [u for u in state.units.values() if u.side == side and u.aboard is None]
    towers = [c for c, s in state.structures.items()
              if s.owner == side and s.complete and not s.carcass and s.type.vision]
    seen = set()
    for enemy in state.units.values():
        if enemy.side == side or enemy.aboard is not None:
            continue
        if any(chebyshev(c, enemy.cell) <= TIME["watchtower_vision"] for c in towers):
            seen.add(enemy.id)
            continue
        hidden = concealment(state, enemy, enemy.id in camouflaged)
        for watcher in watchers:
            distance = chebyshev(watcher.cell, enemy.cell)
            if distance <= 1 or distance <= vision(state, watcher) - hidden:
                seen.add(enemy.id)
                break
    return seen


@contextmanager
def as_known_by(state: State, side: str) -> Iterator[set[str]]:
    """Plan on what ``side`` knows (docs/rules/front.md, "fog-consistent orders"): inside, the enemy units it
    does not spot now are off ``state.occupied``, so their cells look free to its ways and lines of fire.
    Orders are checked and legal actions drawn in here; they are carried out on the truth, outside.
    Yields the enemy units the side spots (as its view shows them)."""
    seen = spotted(state, side, frozenset(u.id for u in state.units.values() if u.camouflaged))
    truth = state.occupied
    state.occupied = {cell: unit_id for cell, unit_id in truth.items()
                      if unit_id not in state.units or state.units[unit_id].side == side or unit_id in seen}
    try:
        yield seen
    finally:
        state.occupied = truth

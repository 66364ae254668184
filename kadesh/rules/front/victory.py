"""Victory (rule 17): the default one, and a mission's own objectives.

« Détruire toutes les unités adverses, ou tenir 4 des 5 points de victoire de la carte. Les
missions fixent parfois leurs propres objectifs : tenir jusqu'à un tour donné, escorter un
convoi, abattre un général… »

A scenario's ``[victory]`` (docs/scenarios.md) keeps the default (``default = true``) or drops
it, and lists objectives, each for one side:

- ``hold``: the side keeps the enemy off the given cells (and off the given capture points) until
  turn ``until`` is over. It is broken if, at the end of the holding side's turn or of a round,
  an enemy unit stands on one of the cells (or an enemy aircraft flies over it) or the enemy holds one of the
  points: the enemy wins.
  Still unbroken when round ``until`` ends: the side wins.
- ``escort``: units of the side with ``tag`` that end a move on an exit cell leave the map;
  ``survivors`` of them out wins. The enemy wins once too few are left to make it, or when round
  ``by`` ends first.
- ``destroy``: every enemy unit of type ``target`` (or with ``tag``) destroyed wins; with ``by``,
  the enemy wins if any is still there when round ``by`` ends.

The objectives are judged first, in their order, then the default victory; then a side left with
no unit on the map loses, whatever the victory: the battle cannot go on without it (a convoy whose
last units get out has won first). The result is settled after every order and kept in the state
(``State.result``). The terms themselves, ``Victory`` and its ``Objective``s, are the battle's data
(``state``).
"""

from __future__ import annotations

from kadesh.rules.front.state import Objective, State, Unit


def _other(side: str) -> str:
    return "red" if side == "blue" else "blue"


def settle(state: State, ended: str | None = None, round_over: bool = False) -> tuple[str | None, str] | None:
    """Who has won now, and why, or None: after an order (``ended`` None), at the end of ``ended``'s
    turn, and at the end of a round (``round_over``, the turn counter already moved on)."""
    for objective in state.victory.objectives:
        result = _objective(state, objective, ended, round_over)
        if result is not None:
            return result
    if state.victory.default:
        for side in ("blue", "red"):
            if sum(1 for holder in state.holders.values() if holder == side) >= state.victory.points_to_win:
                return side, "points"
    present = {side: any(u.side == side for u in state.units.values()) for side in ("blue", "red")}
    if not any(present.values()):
        return None, "mutual_destruction"
    for side in ("blue", "red"):
        if not present[_other(side)]:
            return side, "annihilation"
    return None


def _objective(state: State, objective: Objective, ended: str | None, round_over: bool) -> tuple[str, str] | None:
    side, enemy = objective.side, _other(objective.side)
    deadline_passed = round_over and objective.turn is not None and state.turn > objective.turn
    if objective.kind == "hold":
        if (ended == side or round_over) and _hold_broken(state, objective):
            return enemy, "hold_broken"
        return (side, "held") if deadline_passed else None
    marked = [u for u in state.units.values() if objective.marks(u)]
    if objective.kind == "escort":
        out = state.escaped[side].get(objective.tag or "", 0)
        if out >= objective.survivors:
            return side, "escorted"
        if out + sum(1 for u in marked if u.side == side) < objective.survivors:
            return enemy, "convoy_lost"
        return (enemy, "escort_late") if deadline_passed else None
    if not any(u.side == enemy for u in marked):
        return side, "target_destroyed"
    return (enemy, "target_survived") if deadline_passed else None


def _hold_broken(state: State, objective: Objective) -> bool:
    enemy = _other(objective.side)
    for cell in objective.cells:
        for layer in (state.occupied, state.air):  # an enemy aircraft over a cell holds it too (issue 45)
            unit_id = layer.get(cell)
            if unit_id is not None and state.units[unit_id].side == enemy:
                return True
        if state.holders.get(cell) == enemy:
            return True
    return False


def exit_of(state: State, unit: Unit) -> Objective | None:
    """The escort objective whose exit ``unit`` stands on, if it is one of the units escorted."""
    for objective in state.victory.objectives:
        if objective.kind == "escort" and unit.side == objective.side and objective.marks(unit) \
                and unit.cell in objective.cells:
            return objective
    return None

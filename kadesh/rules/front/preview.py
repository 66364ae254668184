"""What an order would do, told before it is given (Advance Wars shows the damage of a shot before it is
fired): a move's way with its action points and fuel, a shot's damage and its chance of destroying.

Everything here is worked out on what the side knows, as its orders are (``vision.as_known_by``): its
target is a unit it sees, the cover is the ground and works as it knows them, and the enemy general's
reassurance counts only if the side sees that general. A structure's hit points are not in a side's
view, so a shot at a structure tells its damage, not its chance of bringing it down. An answer names no
unit the order did not name: the page knows what it asked (and a unit's id beside another's would tie them
together where the side's view does not).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from kadesh.core.errors import bad_action
from kadesh.core.grid import chebyshev, map_cell_name
from kadesh.rules.front import fire, moves, rules, structures
from kadesh.rules.front.aircraft import downed_by_one_shot
from kadesh.rules.front.data import Weapon
from kadesh.rules.front.state import State, Unit
from kadesh.rules.front.vision import as_known_by

LUCKS = range(fire.LUCK_PERCENT + 1)   # the luck roll: 0 to 10 %, each as likely


def preview(state: State, seat: str, action: dict[str, Any]) -> dict[str, Any] | None:
    """A move's way and cost, or a shot's odds; None for the other orders (their cost is in the data)."""
    if not isinstance(action, dict):
        raise bad_action("Une action est un objet JSON.", "An action is a JSON object.")
    kind = action.get("type")
    if kind == "move":
        return _move(state, seat, action)
    if kind in ("shoot", "bomb", "strike"):
        return odds(state, seat, action)
    return None


def _move(state: State, seat: str, action: dict[str, Any]) -> dict[str, Any]:
    unit, path, reach = rules.plan_move(state, seat, action)
    fuel = moves.fuel_for(state, path) if unit.type.burns_per_step else 0
    return {"kind": "move", "path": [map_cell_name(c) for c in path], "ap": reach[path[-1]], "fuel": fuel,
            "ap_left": unit.ap - reach[path[-1]]}


def odds(state: State, seat: str, action: dict[str, Any]) -> dict[str, Any] | None:
    """A shot's damage, each value with its chance over the luck roll, and its chance of destroying the
    target; the cannon's blast on the other units the side knows of around it."""
    kind = action.get("type")
    if kind not in ("shoot", "bomb", "strike"):
        return None
    if action.get("at") == "structure":
        return _structure_odds(state, seat, action)
    shooter, target, weapon, _ = rules.aim(state, seat, action, kind)
    with as_known_by(state, seat) as seen:
        if downed_by_one_shot(target):
            outcome = _chances(target, [target.hp] * len(LUCKS), cover=(0, False))
        else:
            cover = known_cover(state, target, seen, seat)
            outcome = _chances(target, [_damage(weapon, target, cover[0], luck) for luck in LUCKS], cover)
        blast = [] if target.flying else _blast(state, shooter, weapon, target, seen)
    return {"kind": "shot", "weapon": weapon.id, **outcome, "blast": blast}


def known_cover(state: State, target: Unit, seen: set[str], seat: str) -> tuple[int, bool]:
    """The target's cover points as the side knows them: the ground and works of its cell (as the side knows
    them: call inside ``as_known_by``), the general's reassurance only from a general the side knows of (its
    own, or an enemy it sees); and whether that reassurance is one of them."""
    return fire.cover_parts(state, target, seen | {u.id for u in state.units.values() if u.side == seat})


def _damage(weapon: Weapon, target: Unit, cover: int, luck: int) -> int:
    return fire.damage_of(weapon.damage.get(target.type.size, 0), cover, luck)


def _chances(target: Unit, damages: list[int], cover: tuple[int, bool]) -> dict[str, Any]:
    """``cover``: its points, and whether its general's reassurance is one (``reassured``: the cell's card
    shows the ground's cover only)."""
    counts = Counter(damages)
    points, reassured = cover
    return {"cover": points, **({"reassured": True} if reassured else {}), "hp": target.hp,
            "damage": [min(damages), max(damages)],
            "chances": [{"damage": d, "chance": round(n / len(damages), 4)} for d, n in sorted(counts.items())],
            "destroy": round(sum(n for d, n in counts.items() if d >= target.hp) / len(damages), 4)}


def _blast(state: State, shooter: Unit, weapon: Weapon, target: Unit, seen: set[str]) -> list[dict[str, Any]]:
    """The units the side knows of within the shell's blast (its own and the enemies it sees), half damage."""
    if not weapon.blast:
        return []
    around = [u for u in state.units.values() if u is not target and u.on_ground
              and (u.side == shooter.side or u.id in seen) and chebyshev(u.cell, target.cell) <= weapon.blast]
    hurt = []
    for unit in sorted(around, key=lambda u: (u.cell[1], u.cell[0])):
        cover = known_cover(state, unit, seen, shooter.side)
        damages = [_damage(weapon, unit, cover[0], luck) // 2 for luck in LUCKS]
        hurt.append({"cell": map_cell_name(unit.cell), "friend": unit.side == shooter.side,
                     **_chances(unit, damages, cover)})
    return hurt


def _structure_odds(state: State, seat: str, action: dict[str, Any]) -> dict[str, Any]:
    """A shot at a work or building: its full damage, with luck (its hit points are not the side's to know)."""
    rules.check_turn(state, seat)
    shooter = rules.own_unit(state, seat, action)
    cell = rules.cell_of(state, action, "target")
    weapon = rules.aim_at_structure(state, seat, shooter, cell, rules.weapon_named(state, seat, action))
    damages = [structures.full_damage(weapon) * (100 + luck) // 100 for luck in LUCKS]
    return {"kind": "structure", "weapon": weapon.id, "damage": [min(damages), max(damages)]}

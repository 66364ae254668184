"""Fire on the ground: who may shoot, how far, through what, and for how much damage: rules 2
(fire rate), 6 (range after moving, still-only weapons), 7 (line of fire), 8 (ammunition), 13
(cover) and the damage of the starting values. A unit aboard a truck is off the ground: it
neither fires, nor is hit, nor gives its bonus (a supply truck's or a general's).
"""

from __future__ import annotations

from kadesh.core.grid import Cell, chebyshev, line_steps
from kadesh.rules.front import structures
from kadesh.rules.front.data import Weapon
from kadesh.rules.front.state import State, Unit

COVER_STEP_PERCENT = 15   # each cover point takes 15 % off the damage
MAX_COVER = 4
LUCK_PERCENT = 10         # a seeded luck of 0–10 % more damage
RUINS_THAT_BLOCK = 2      # "une ruine de village seule ne l'arrête pas, deux oui"
_NO_WEAPON = Weapon("none", {}, 0, 0, {})


def shots_allowed(state: State, unit: Unit) -> int:
    """Once a turn; twice beside a friendly supply truck or within 5 cells of its general, or by default
    for the heavy tank and the general."""
    if unit.type.shots > 1:
        return unit.type.shots
    for friend in state.units.values():
        if friend.side != unit.side or friend is unit or not friend.on_map:
            continue
        if friend.type.extras.get("supplies") and chebyshev(friend.cell, unit.cell) <= 1:
            return 2
        radius = friend.type.extras.get("command_radius")
        if radius is not None and chebyshev(friend.cell, unit.cell) <= radius:
            return 2
    return 1


def fire_range(unit: Unit, weapon: Weapon | None = None) -> int:
    """After a move the range falls by half (rounded down, at least 1)."""
    reach = (weapon or unit.type.weapon() or _NO_WEAPON).range
    return max(1, reach // 2) if unit.moved else reach


def rounds(unit: Unit, weapon: Weapon) -> int:
    """Rounds left for ``weapon``: the main weapon's are ``ammo``, a second weapon's ``rockets``."""
    return unit.rockets if weapon.id == "rocket" else unit.ammo


def why_not_fire(state: State, unit: Unit, target: Cell, weapon_id: str | None = None,
                 aiming: str | None = None, order: str = "shoot", allowed: int | None = None) -> str | None:
    """Why ``unit`` may not fire ``weapon_id`` (its main weapon when None) at ``target`` now, or None if it
    may. ``aiming``: what the shot aims at (``aircraft.target_kind``): a ``drone`` or ``helicopter`` in flight, a
    ``landed`` helicopter, or None for anything else on the ground (a unit, a structure). ``order``: the
    order that fires (a drone's weapon fires by its own order, ``bomb`` or ``strike``). ``allowed``: the unit's
    ``shots_allowed`` (a pass over every unit), when the caller asks about many targets and knows it already."""
    kind = unit.type
    weapon = kind.weapon(weapon_id)
    if weapon is None or weapon.order != order or weapon.ammo <= 0:
        return "unarmed"
    if unit.aboard is not None:
        return "aboard"
    if kind.flies and not unit.flying:
        return "landed"  # « posé, il … ne tire pas »
    if rounds(unit, weapon) <= 0:
        return "no_ammo"
    if unit.shots >= (shots_allowed(state, unit) if allowed is None else allowed):
        return "fired"
    if unit.ap < kind.shot_cost:
        return "no_ap"
    if kind.extras.get("fires_only_still") and unit.moved:
        return "moved"
    why = why_not_aim(weapon, aiming)
    if why is not None:
        return why
    aloft = aiming in ("drone", "helicopter")
    distance = chebyshev(unit.cell, target)
    nearest = 0 if unit.flying and weapon.order != "shoot" else max(1, weapon.min_range)  # a bomb: under it too
    if distance > fire_range(unit, weapon) or distance < nearest:
        return "range"
    if not weapon.indirect and not aloft and not unit.flying and not line_is_open(state, unit.cell, target):
        return "blocked"  # a shot from or at an aircraft in flight passes over everything
    return None


def why_not_aim(weapon: Weapon, aiming: str | None) -> str | None:
    """Whether ``weapon`` may be aimed at what ``aiming`` names (``aircraft.target_kind``), wherever it stands."""
    aloft = aiming in ("drone", "helicopter")
    if aiming == "landed" and not weapon.hits_landed:
        return "too_low"  # « sauf ceux du sniper et de la batterie anti-aérienne, qui ne visent pas si bas »
    if (aloft and aiming not in weapon.air) or (not aloft and not weapon.ground):
        return "not_that_target"
    return None


def first_weapon(state: State, unit: Unit, target: Cell, aiming: str | None) -> Weapon | None:
    """The first of its weapons (the main one first) that ``unit`` may fire at ``target`` now, by a Fire order."""
    return next((w for w in unit.type.weapons
                 if why_not_fire(state, unit, target, w.id, aiming) is None), None)


def line_is_open(state: State, a: Cell, b: Cell) -> bool:
    """A direct shot passes unless a unit, a forest, a hill or two ruins stand between. Where the
    line runs exactly between two cells, it passes if either of them is open."""
    ruins = 0
    for cells in line_steps(a, b):
        kinds = [_obstacle(state, cell) for cell in cells]
        if all(kind == "wall" for kind in kinds):
            return False
        if all(kind in ("wall", "ruin") for kind in kinds):
            ruins += 1
            if ruins >= RUINS_THAT_BLOCK:
                return False
    return True


def _obstacle(state: State, cell: Cell) -> str | None:
    structure = state.structures.get(cell)
    if cell in state.occupied or (structure is not None and structure.type.category == "building"
                                  and structure.complete and not structure.carcass):
        return "wall"
    terrain = state.terrain_at(cell)
    if terrain is None:
        return None
    if terrain.blocks_fire:
        return "wall"
    return "ruin" if terrain.ruin else None


def cover_points(state: State, target: Unit, known: set[str] | None = None) -> int:
    """The cell's cover (terrain and structure), one more within 5 cells of its own general, at most 4.
    An aircraft in flight has none: nothing stands between it and the shot. ``known``: only a general in it
    counts (a preview counts the generals its side knows of)."""
    return cover_parts(state, target, known)[0]


def cover_parts(state: State, target: Unit, known: set[str] | None = None) -> tuple[int, bool]:
    """``cover_points``, and whether its general's reassurance is one of them (a page says where cover comes
    from: the cell's ground and works, or the general; issue 44)."""
    if target.flying:
        return 0, False
    points = structures.ground_cover(state, target.cell)
    reassured = points < MAX_COVER and _reassured(state, target, known)
    return min(points + reassured, MAX_COVER), reassured


def _reassured(state: State, target: Unit, known: set[str] | None) -> bool:
    for friend in state.units.values():
        radius = friend.type.extras.get("command_radius")
        if friend.side == target.side and friend is not target and radius is not None and friend.on_map \
                and (known is None or friend.id in known) and chebyshev(friend.cell, target.cell) <= radius:
            return True
    return False


def damage(state: State, shooter: Unit, target: Unit, luck: int, weapon: Weapon | None = None) -> int:
    """Base damage of the weapon by the target's size, less 15 % a cover point, plus ``luck`` % (0–10)."""
    base = (weapon or shooter.type.weapon() or _NO_WEAPON).damage.get(target.type.size, 0)
    return damage_of(base, cover_points(state, target), luck)


def damage_of(base: int, cover: int, luck: int) -> int:
    """Base damage less 15 % a cover point, plus ``luck`` %, rounded down."""
    return max(0, base * (100 - COVER_STEP_PERCENT * cover) * (100 + luck) // 10_000)

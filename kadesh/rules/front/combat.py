"""A shot carried out, and what it leaves: damage with its luck roll, the cannon's blast, the
structure of the cell, the shell's crater or fire, the units destroyed (``losses``). Used by the Fire order
and by the shots fired during the enemy's turn (alert and patrol, ``reaction``).

Every event here names who may read it: the firing side reads what it sees; a side that is hit
learns it was hit, and by whom and from where only if it sees the shooter; the ground's changes
go to the sides that see them.
"""

from __future__ import annotations

from kadesh.core.dice import Dice
from kadesh.core.events import Event, roll_event
from kadesh.core.grid import Cell, chebyshev, compass, map_cell_name
from kadesh.rules.front import fire, forest, structures
from kadesh.rules.front.aircraft import downed_by_one_shot
from kadesh.rules.front.data import TABLES, Weapon
from kadesh.rules.front.losses import destroy
from kadesh.rules.front.state import SIDES, State, Unit
from kadesh.rules.front.vision import camouflaged_units, spotted, witnesses


def spend_a_shot(unit: Unit, weapon: Weapon | None = None) -> None:
    unit.ap -= unit.type.shot_cost
    if weapon is not None and weapon.id == "rocket":
        unit.rockets -= 1
    else:
        unit.ammo -= 1
    unit.shots += 1
    unit.camouflaged = False


def blast_victims(state: State, weapon: Weapon, cell: Cell, spared: Unit | None) -> list[Unit]:
    """The cannon's shell: every unit on the ground within 2 cells of where it lands, friend or foe (never
    an aircraft in flight)."""
    if not weapon.blast:
        return []
    return [other for other in state.units.values()
            if other is not spared and other.on_ground and chebyshev(other.cell, cell) <= weapon.blast]


def volley(state: State, shooter: Unit, target: Unit, dice: Dice, reaction: str | None = None,
           seen: set[str] | None = None, weapon: Weapon | None = None) -> list[Event]:
    """``shooter`` fires ``weapon`` (its main one by default) at ``target`` (checked already). At a drone in
    flight: one shot brings it down. At a helicopter in flight: a luck roll and the damage, nothing else.
    At a unit on the ground: a luck roll, the damage, the blast, the cell's structure worn down, the shell
    landing. Then the units destroyed. ``seen``: the enemy units the shooter's side sees, if the caller
    knows them already."""
    weapon = weapon or shooter.type.weapon()
    assert weapon is not None
    side, cell = shooter.side, target.cell
    if seen is None:
        seen = spotted(state, side, camouflaged_units(state))
    spend_a_shot(shooter, weapon)
    shooter_seen = _seen_by_the_other_side(state, shooter)  # after the shot: firing ends camouflage
    if downed_by_one_shot(target):
        dealt = target.hp
        target.hp = 0
        events = hit_events(shooter, target, dealt, 0, seen, shooter_seen, blast=False, reaction=reaction,
                            weapon=weapon)
        return events + destroy(state, target, dice)
    luck = dice.roll(fire.LUCK_PERCENT + 1)
    hits = [(target, fire.damage(state, shooter, target, luck.value - 1, weapon))]
    if target.on_ground:
        hits += [(other, fire.damage(state, shooter, other, luck.value - 1, weapon) // 2)
                 for other in blast_victims(state, weapon, cell, target)]
    events = [roll_event(luck, side, "luck", (side,))]
    for hit, dealt in hits:
        hit.hp -= dealt
        events += hit_events(shooter, hit, dealt, luck.value - 1, seen, shooter_seen, blast=hit is not target,
                             reaction=reaction, weapon=weapon)
    if not target.on_ground:  # fire at an aircraft in flight leaves nothing on the ground
        return events + _aftermath(state, shooter, cell, hits, None, dice)
    events += _fallen(state, cell, side, structures.splash(state, weapon, cell, hits[0][1]))
    return events + _aftermath(state, shooter, cell, hits, weapon, dice)


def structure_volley(state: State, shooter: Unit, cell: Cell, dice: Dice, weapon: Weapon | None = None) -> list[Event]:
    """``shooter`` fires at the work or building on ``cell`` (checked already): full damage without cover
    (plus luck); a shell lands on the cell (crater, fire) and the cannon's blast hurts the units around."""
    weapon = weapon or shooter.type.weapon()
    assert weapon is not None
    side = shooter.side
    seen = spotted(state, side, camouflaged_units(state))
    luck = dice.roll(fire.LUCK_PERCENT + 1)
    dealt = structures.full_damage(weapon) * (100 + luck.value - 1) // 100
    spend_a_shot(shooter, weapon)
    events = [roll_event(luck, side, "luck", (side,)),
              Event("structure_hit", {"unit": shooter.id, "cell": map_cell_name(cell), "damage": dealt}, (side,))]
    events += _fallen(state, cell, side, structures.hit(state, cell, dealt))
    blasted = [(other, fire.damage(state, shooter, other, luck.value - 1, weapon) // 2)
               for other in blast_victims(state, weapon, cell, None)]
    shooter_seen = _seen_by_the_other_side(state, shooter)
    for other, hurt in blasted:
        other.hp -= hurt
        events += hit_events(shooter, other, hurt, luck.value - 1, seen, shooter_seen, blast=True, reaction=None)
    return events + _aftermath(state, shooter, cell, blasted, weapon, dice)


def _fallen(state: State, cell: Cell, side: str, fate: str | None) -> list[Event]:
    """A structure brought down (to a carcass, or gone): told to the shooter and to the sides that see it."""
    if not fate:
        return []
    return [Event("structure_fell", {"cell": map_cell_name(cell), "left": fate}, witnesses(state, cell, side))]


def _aftermath(state: State, shooter: Unit, cell: Cell, hits: list[tuple[Unit, int]], weapon: Weapon | None,
               dice: Dice) -> list[Event]:
    """A shell lands where it was aimed (crater, fire); the units left without hit points are destroyed."""
    events = shell_lands(state, cell, shooter.side) if weapon is not None and weapon.shell else []
    for hit, _ in hits:
        if hit.hp <= 0:
            events += destroy(state, hit, dice)
    return events


def _seen_by_the_other_side(state: State, shooter: Unit) -> bool:
    """Whether the side under fire sees the shooter as it fires (camouflage is lost by firing)."""
    other = SIDES[0] if shooter.side == SIDES[1] else SIDES[1]
    return shooter.id in spotted(state, other, camouflaged_units(state))


def hit_events(shooter: Unit, hit: Unit, dealt: int, luck: int, seen: set[str], shooter_seen: bool, blast: bool,
               reaction: str | None, weapon: Weapon | None = None) -> list[Event]:
    """What each side reads of a unit hit: the firing side, if it sees the unit; the unit's side, with the
    shooter and its cell if it sees the shooter (``shooter_seen``); once the battle is over, the public, the shot.
    A weapon other than a unit's only one is named (``weapon``)."""
    side = shooter.side
    extra: dict[str, object] = {"reaction": reaction} if reaction else {}
    if weapon is not None and weapon.id != "main":
        extra["weapon"] = weapon.id
    # the shooter learns nothing of a unit its side does not see: then the shot is read by nobody while the battle
    # runs, and once it is over by the public, who reads the whole battle (``Front.visible_once_over``)
    told = (side,) if hit.side == side or hit.id in seen else ()
    events = [Event("shot", {"unit": shooter.id, "target": hit.id, "cell": map_cell_name(hit.cell), "damage": dealt,
                             "luck": luck, "hp": max(0, hit.hp), "blast": blast, **extra}, told)]
    if hit.side != side:  # the victim's side learns it was hit; by whom and from where only if it sees the shooter
        data = {"unit": hit.id, "cell": map_cell_name(hit.cell), "damage": dealt, "hp": max(0, hit.hp), **extra}
        if shooter_seen:
            data.update({"by": shooter.id, "from": map_cell_name(shooter.cell)})
        else:
            data.update(bearing(hit.cell, shooter.cell))
        events.append(Event("hit", data, (hit.side,)))
    return events


def bearing(hit: Cell, shooter: Cell) -> dict[str, str]:
    """An unseen shooter still gives away the direction its fire came from (issue 44): a bearing, no distance."""
    point = compass(hit, shooter)
    return {"bearing": point} if point else {}


def shell_lands(state: State, cell: Cell, side: str) -> list[Event]:
    """A cannon, mortar or tank shell digs a crater in meadow and sets a forest ablaze, wherever it lands
    (on a unit or on a structure)."""
    terrain = state.terrain_at(cell)
    if terrain is not None and terrain.id == "meadow":
        state.set_terrain(cell, TABLES.terrain["crater"])
        return [Event("crater", {"cell": map_cell_name(cell)}, witnesses(state, cell, side))]
    if forest.ignite(state, cell):
        return [Event("fire_started", {"cell": map_cell_name(cell)}, witnesses(state, cell, side))]
    return []

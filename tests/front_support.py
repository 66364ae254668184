"""Small helpers for Front's rule cases: shipped battles, a unit or a structure put down by hand."""

from __future__ import annotations

from kadesh.core.dice import ScriptedDice
from kadesh.rules.front.data import TABLES
from kadesh.rules.front.scenario import load as load_scenario
from kadesh.rules.front.state import State, Structure, Unit


def small() -> State:
    """``test_small``: blue b1 infantry A1, b2 truck A2, b3 heavy tank B3; red r1 infantry J1, r2 sniper I1."""
    return load_scenario("test_small")


def mixed() -> State:
    """``test_mixed``: blue b1 infantry A1, b2 truck A2, b3 tank B3, b4 engineer B6, b5 supply truck D2,
    b6 mortar A5; red r1 infantry J1, r2 sniper I1, r3 engineer I6, r4 truck J2, r5 cannon J4, r6 medic J5;
    a red mine at G3; one point, E5."""
    return load_scenario("test_mixed")


def air_ground() -> State:
    """``test_air``: every aircraft, on both sides (docs/rules/front.md, the air war)."""
    return load_scenario("test_air")


def put(state: State, unit_id: str, side: str, kind: str, cell: tuple[int, int], flying: bool | None = None,
        operator: str | None = None) -> Unit:
    """A unit put down by hand: an aircraft in the air with ``flying`` (a drone flies unless told otherwise),
    a drone with its ``operator``; rounds, rockets, mines and battery full."""
    from kadesh.rules.front.logistics import refill

    unit_type = TABLES.units[kind]
    aloft = flying if flying is not None else unit_type.aircraft == "drone"
    unit = Unit(unit_id, side, unit_type, cell, unit_type.hp, unit_type.ap, unit_type.ammo, unit_type.fuel,
                flying=aloft, battery=unit_type.battery, operator=operator)
    refill(unit)
    state.units[unit_id] = unit
    state.place(unit, cell)
    return unit


def clear_side(state: State, side: str, keep: tuple[str, ...] = ()) -> None:
    """Take every unit of ``side`` off the battle, but ``keep``."""
    for unit in [u for u in state.units.values() if u.side == side and u.id not in keep]:
        state.remove(unit)


def build(state: State, kind: str, cell: tuple[int, int], side: str | None, complete: bool = True) -> Structure:
    structure_type = TABLES.structures[kind]
    structure = Structure(structure_type, side, structure_type.hp, structure_type.steps if complete else 1)
    state.structures[cell] = structure
    state.works.add(cell)
    return structure


def dice(*values: int) -> ScriptedDice:
    return ScriptedDice(list(values))

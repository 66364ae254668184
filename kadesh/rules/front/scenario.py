"""Front scenarios: the TOML format (docs/scenarios.md), read and checked key by key.

The shipped scenarios and a player's own (``options["scenario_toml"]``) come through the same
door, ``parse``: a scenario that is not well-formed TOML, that has an unknown or missing key, a
value of the wrong kind, or a cell off the map or on ground its unit cannot stand on, is refused
with a ``RuleError`` ``bad_scenario`` that names the line or the key at fault.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from importlib import resources
from typing import Any

from kadesh.core.grid import Cell, map_cell_name, parse_map_cell
from kadesh.core.tomlcheck import Checker
from kadesh.rules.front import logistics
from kadesh.rules.front.aircraft import why_not_land
from kadesh.rules.front.data import TABLES, TIME
from kadesh.rules.front.moves import ground_price
from kadesh.rules.front.state import OBJECTIVE_KINDS, SIDES, Objective, State, Structure, Unit, Victory
from kadesh.rules.front.vision import refresh_memory

SHIPPED = ("default", "skirmish", "test_small", "test_mixed", "test_air", "mission_hold", "mission_escort",
           "mission_general")
OFFERED = ("default", "skirmish", "mission_hold", "mission_escort", "mission_general")  # to players; others: tests
MAX_SIDE = 64            # cells: a map is at most 64 × 64
MAX_UNITS = 400
MAX_TEXT = 60_000        # characters of TOML
TAG = re.compile(r"[a-z0-9_-]{1,32}")
HOURS = tuple(dict.fromkeys(TIME["hours"]))
SEASONS = tuple(TIME["seasons"])

_SECTIONS = {"scenario", "legend", "map", "units", "mines", "points", "structures", "victory"}
_KEYS = {
    "scenario": ({"season", "hour"}, {"id", "fr", "en", "days_per_season"}),
    "map": ({"rows"}, set()),
    "units": ({"side", "type", "cell"}, {"tag", "drones", "flying"}),
    "mines": ({"side", "cell"}, set()),
    "points": ({"cell"}, set()),
    "structures": ({"kind", "cell"}, {"side", "complete"}),
    "victory": (set(), {"default", "points_to_win", "objectives"}),
}
_OBJECTIVE_KEYS = {
    "hold": ({"kind", "side", "cells", "until"}, set()),
    "escort": ({"kind", "side", "tag", "exit", "survivors", "by"}, set()),
    "destroy": ({"kind", "side"}, {"target", "tag", "by"}),
}


CHECK = Checker("bad_scenario", {"fr": "Scénario refusé", "en": "Scenario refused"},
                {"fr": "du scénario", "en": "scenario's"})
bad = CHECK.bad  # a scenario refused, naming the key (``units[3].cell``) or the line at fault


LONG_BATTLE = 30  # units a side from which a menu says a battle is long (issue 44: the first game's wall)


def titles() -> dict[str, dict[str, str]]:
    """The title of every shipped scenario, in French and English, for menus, with its size: a newcomer sees
    which battle is long (« 40 unités par camp, une longue bataille »)."""
    shown = {}
    for name in SHIPPED:
        text = resources.files(__package__).joinpath("scenarios", f"{name}.toml").read_text(encoding="utf-8")
        head = tomllib.loads(text)["scenario"]
        sides = [unit.side for unit in load(name).units.values()]  # drones launched from their operators too
        counts = sorted((sides.count(side) for side in set(sides)), reverse=True)
        if not counts:
            shown[name] = {lang: head.get(lang, name) for lang in ("fr", "en")}
            continue
        even = len(set(counts)) == 1
        fr = f"{counts[0]} unités par camp" if even else " contre ".join(map(str, counts)) + " unités"
        en = f"{counts[0]} units a side" if even else " against ".join(map(str, counts)) + " units"
        if counts[0] >= LONG_BATTLE:
            fr, en = f"{fr}, une longue bataille", f"{en}, a long battle"
        shown[name] = {"fr": f"{head.get('fr', name)} ({fr})", "en": f"{head.get('en', name)} ({en})"}
    return shown


def load(name: str) -> State:
    """A shipped scenario, by name (``scenarios/<name>.toml``)."""
    text = resources.files(__package__).joinpath("scenarios", f"{name}.toml").read_text(encoding="utf-8")
    return parse(text)


def parse(text: object) -> State:
    """A battle from a scenario's TOML text, checked whole (RuleError ``bad_scenario``)."""
    return _build(CHECK.parse(text, MAX_TEXT))


# -- reading values ---------------------------------------------------------------------------------------------
_keys, _text, _int, _bool, _one_of, _list = (CHECK.keys, CHECK.text, CHECK.integer, CHECK.boolean, CHECK.one_of,
                                             CHECK.items)


def _cell(state: State, raw: object, where: str) -> Cell:
    cell = parse_map_cell(raw, state.width, state.height)
    if cell is None:
        raise bad(where, f"« {raw} » n'est pas une case de la carte (A1 à {_corner(state)}).",
                  f"'{raw}' is not a cell of the map (A1 to {_corner(state)}).")
    return cell


def _corner(state: State) -> str:
    return map_cell_name((state.width - 1, state.height - 1))


def _each(raw: dict[str, Any], section: str, most: int, read: Callable[[dict[str, Any], str], None]) -> None:
    for index, item in enumerate(_list(raw.get(section, []), section, most), start=1):
        where = f"{section}[{index}]"
        required, optional = _KEYS[section]
        read(_keys(item, where, required, optional), where)


# -- building the state -----------------------------------------------------------------------------------------
def _build(raw: dict[str, Any]) -> State:
    _keys(raw, "", {"scenario", "legend", "map"}, _SECTIONS - {"scenario", "legend", "map"})
    head = _keys(raw["scenario"], "scenario", *_KEYS["scenario"])
    state = _ground(raw, head)
    state.scenario_id = _text(head.get("id", "custom"), "scenario.id")
    state.title = {lang: _text(head.get(lang, state.scenario_id), f"scenario.{lang}") for lang in ("fr", "en")}
    state.days_per_season = _int(head.get("days_per_season", TIME["days_per_season"]), "scenario.days_per_season",
                                 1, 30)
    _each(raw, "structures", MAX_SIDE * MAX_SIDE, lambda item, where: _structure(state, item, where))
    _each(raw, "points", 26, lambda item, where: _point(state, item, where))
    counts = dict.fromkeys(SIDES, 0)
    _each(raw, "units", MAX_UNITS, lambda item, where: _unit(state, item, where, counts))
    for side in SIDES:
        if counts[side] == 0:
            raise bad("units", f"le camp {side} n'a aucune unité.", f"side {side} has no unit.")
    _each(raw, "mines", MAX_SIDE * MAX_SIDE, lambda item, where: _mine(state, item, where))
    state.victory = _victory(state, raw.get("victory", {}))
    for side in SIDES:  # neutral works (bridges) are part of the map everyone has
        state.structures_seen[side].update({cell: s.copy() for cell, s in state.structures.items()
                                            if s.owner is None})
    refresh_memory(state)  # what each side sees from where it starts
    return state


def _ground(raw: dict[str, Any], head: dict[str, Any]) -> State:
    legend_raw = raw["legend"]
    if not isinstance(legend_raw, dict) or not legend_raw:
        raise bad("legend", "une table « caractère = terrain » est attendue.",
                  "a 'character = terrain' table is expected.")
    legend = {}
    for mark, name in legend_raw.items():
        if len(mark) != 1:
            raise bad(f"legend.{mark}", "une clé d'un seul caractère est attendue.", "a one-character key is expected.")
        legend[mark] = TABLES.terrain[_one_of(name, f"legend.{mark}", list(TABLES.terrain))]
    rows = _list(_keys(raw["map"], "map", *_KEYS["map"])["rows"], "map.rows", MAX_SIDE)
    if not rows:
        raise bad("map.rows", "la carte n'a aucune ligne.", "the map has no row.")
    width = len(rows[0]) if isinstance(rows[0], str) else 0
    if not 1 <= width <= MAX_SIDE:
        raise bad("map.rows[1]", f"une ligne de 1 à {MAX_SIDE} caractères est attendue.",
                  f"a row of 1 to {MAX_SIDE} characters is expected.")
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, str) or len(row) != width:
            raise bad(f"map.rows[{number}]", f"toutes les lignes ont {width} caractères.",
                      f"every row has {width} characters.", _row_end(row, width, number))
        for column, mark in enumerate(row):
            if mark not in legend:
                raise bad(f"map.rows[{number}]", f"« {mark} » n'est pas dans la légende.",
                          f"'{mark}' is not in the legend.", map_cell_name((column, number - 1)))
    terrain = [[legend[mark] for mark in row] for row in rows]
    season = _one_of(head["season"], "scenario.season", SEASONS)
    hour = _one_of(head["hour"], "scenario.hour", HOURS)
    state = State(width, len(rows), terrain, {}, [], season, hour)
    state.original = [[t.id for t in row] for row in terrain]
    return state


def _row_end(row: object, width: int, number: int) -> str:
    """The cell where a row of the wrong length goes wrong: the first it lacks, or the map's last of that row."""
    length = len(row) if isinstance(row, str) else 0
    return map_cell_name((min(length, width - 1), number - 1))


def _structure(state: State, item: dict[str, Any], where: str) -> None:
    kind = TABLES.structures[_one_of(item["kind"], f"{where}.kind", list(TABLES.structures))]
    cell = _cell(state, item["cell"], f"{where}.cell")
    owner = _one_of(item["side"], f"{where}.side", SIDES) if "side" in item else None
    if owner is None and kind.category == "building":
        raise bad(f"{where}.side", "un bâtiment appartient à un camp.", "a building belongs to a side.")
    complete = _bool(item.get("complete", True), f"{where}.complete")
    on_water = state.terrain_at(cell).id == "water"
    if cell in state.structures or (kind.id == "bridge") != on_water:
        raise bad(f"{where}.cell", "case déjà bâtie, ou pont hors de l'eau, ou ouvrage sur l'eau.",
                  "a structure is already there, or a bridge off water, or a structure on water.")
    state.structures[cell] = Structure(kind, owner, kind.hp, kind.steps if complete else 1)
    state.works.add(cell)
    if complete and kind.id == "bridge":
        state.terrain[cell[1]][cell[0]] = TABLES.terrain["bridge"]
        state.original[cell[1]][cell[0]] = "bridge"


def _point(state: State, item: dict[str, Any], where: str) -> None:
    cell = _cell(state, item["cell"], f"{where}.cell")
    if cell in state.holders or cell in state.structures or state.terrain_at(cell).step_cost("foot") is None:
        raise bad(f"{where}.cell", "un point se pose sur un sol où un ingénieur entre, une fois.",
                  "a point stands once, on ground an engineer can enter.")
    state.points.append(cell)
    state.holders[cell] = None


def _unit(state: State, item: dict[str, Any], where: str, counts: dict[str, int]) -> None:
    """A unit where the scenario puts it: on the ground, or in the air for a helicopter with ``flying = true``;
    a drone operator with its ``drones`` (landed by it, carried), which come with it and nowhere else."""
    side = _one_of(item["side"], f"{where}.side", SIDES)
    kind = TABLES.units[_one_of(item["type"], f"{where}.type", list(TABLES.units))]
    cell = _cell(state, item["cell"], f"{where}.cell")
    if kind.aircraft == "drone":
        raise bad(f"{where}.type", "un drone vient avec son droniste : « drones = [...] » sur le droniste.",
                  "a drone comes with its operator: 'drones = [...]' on the operator.")
    flying = _bool(item.get("flying", False), f"{where}.flying")
    if flying and not kind.flies:
        raise bad(f"{where}.flying", "seul un hélicoptère est en vol.", "only a helicopter is in flight.")
    tag = item.get("tag")
    if tag is not None and (not isinstance(tag, str) or not TAG.fullmatch(tag)):
        raise bad(f"{where}.tag", "de 1 à 32 lettres minuscules, chiffres, « _ » ou « - ».",
                  "1 to 32 lower-case letters, digits, '_' or '-'.")
    counts[side] += 1
    unit = Unit(f"{side[0]}{counts[side]}", side, kind, cell, kind.hp, kind.ap, kind.ammo, kind.fuel, tag=tag,
                mines=kind.extras.get("mines", 0), flying=flying)
    logistics.refill(unit)
    if not _stands(state, unit):
        raise bad(f"{where}.cell", f"une unité y est déjà, ou l'unité ({kind.names['fr']}) ne peut s'y tenir.",
                  f"a unit is already there, or a {kind.names['en']} cannot stand there.")
    state.units[unit.id] = unit
    state.place(unit, cell)
    _drones(state, unit, item.get("drones", []), f"{where}.drones", counts)


def _stands(state: State, unit: Unit) -> bool:
    """Whether ``unit`` may start on its cell: in the air, over any cell with no other aircraft; landed,
    where it could land; on the ground, where it could step."""
    if unit.flying:
        return unit.cell not in state.air
    if unit.type.flies:
        unit.flying = True  # asked as if it were landing there
        free = why_not_land(state, unit) is None
        unit.flying = False
        return free
    return unit.cell not in state.occupied and ground_price(state, unit.type, unit.cell) is not None


def _drones(state: State, operator: Unit, raw: object, where: str, counts: dict[str, int]) -> None:
    if raw and not operator.type.extras.get("operates"):
        raise bad(where, "seul un droniste porte des drones.", "only a drone operator carries drones.")
    kinds = _list(raw, where, operator.type.extras.get("operates", 0))
    drones = [u.id for u in TABLES.units.values() if u.aircraft == "drone"]
    for index, raw_kind in enumerate(kinds, start=1):
        kind = TABLES.units[_one_of(raw_kind, f"{where}[{index}]", drones)]
        counts[operator.side] += 1
        drone = Unit(f"{operator.side[0]}{counts[operator.side]}", operator.side, kind, operator.cell, kind.hp,
                     kind.ap, kind.ammo, kind.fuel, aboard=operator.id, battery=kind.battery, operator=operator.id)
        state.units[drone.id] = drone
        operator.cargo.append(drone.id)


def _mine(state: State, item: dict[str, Any], where: str) -> None:
    side = _one_of(item["side"], f"{where}.side", SIDES)
    cell = _cell(state, item["cell"], f"{where}.cell")
    if cell in state.mines or cell in state.occupied or state.terrain_at(cell).id == "water":
        raise bad(f"{where}.cell", "une mine se pose une fois, sur une case libre hors de l'eau.",
                  "a mine is laid once, on a free cell off water.")
    state.mines[cell] = side


def _victory(state: State, raw: object) -> Victory:
    section = _keys(raw, "victory", *_KEYS["victory"])
    default = _bool(section.get("default", True), "victory.default")
    points = _int(section.get("points_to_win", 4), "victory.points_to_win", 1, 26)
    objectives = []
    for index, item in enumerate(_list(section.get("objectives", []), "victory.objectives", 8), start=1):
        where = f"victory.objectives[{index}]"
        kind = _one_of(item.get("kind") if isinstance(item, dict) else None, f"{where}.kind", OBJECTIVE_KINDS)
        item = _keys(item, where, *_OBJECTIVE_KEYS[kind])
        objectives.append(_objective(state, kind, item, where))
    if not default and not objectives:
        raise bad("victory.default", "sans la victoire par défaut, il faut au moins un objectif.",
                  "without the default victory, at least one objective is needed.")
    return Victory(default, points, tuple(objectives))


def _objective(state: State, kind: str, item: dict[str, Any], where: str) -> Objective:
    side = _one_of(item["side"], f"{where}.side", SIDES)
    turns = {key: _int(item[key], f"{where}.{key}", 1, 999) for key in ("until", "by") if key in item}
    cells = tuple(_cell(state, c, f"{where}.{key}[{n}]")
                  for key in ("cells", "exit") if key in item
                  for n, c in enumerate(_list(item[key], f"{where}.{key}", 64), start=1))
    if kind in ("hold", "escort") and not cells:
        raise bad(f"{where}.{'cells' if kind == 'hold' else 'exit'}", "au moins une case.", "at least one cell.")
    tag = item.get("tag")
    if tag is not None and (not isinstance(tag, str) or not TAG.fullmatch(tag)):
        raise bad(f"{where}.tag", "une étiquette d'unités du scénario.", "a tag of the scenario's units.")
    target = None
    if kind == "destroy":
        if ("target" in item) == ("tag" in item):
            raise bad(where, "il faut « target » (un type d'unité) ou « tag », l'un des deux.",
                      "it takes 'target' (a unit type) or 'tag', one of the two.")
        if "target" in item:
            target = _one_of(item["target"], f"{where}.target", list(TABLES.units))
    marked = [u for u in state.units.values() if (tag is not None and u.tag == tag) or u.type.id == target]
    escorted = kind == "escort"
    if kind != "hold" and not [u for u in marked if (u.side == side) == escorted]:
        whose = "à lui" if escorted else "ennemie"
        raise bad(where, f"aucune unité {whose} ne porte cette marque.", "no unit of the right side has that mark.")
    survivors = _int(item["survivors"], f"{where}.survivors", 1, MAX_UNITS) if escorted else 0
    if escorted and survivors > sum(1 for u in marked if u.side == side):
        raise bad(f"{where}.survivors", "plus que d'unités escortées.", "more than the units escorted.")
    return Objective(kind, side, cells, turns.get("until", turns.get("by")), tag, target, survivors)

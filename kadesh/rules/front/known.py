"""A battle rebuilt from one side's view alone (``Front.state_from_view``), for bots that plan.

Everything the view shows is there as shown: the ground as the side last saw it, its own units in full,
the enemy units it spots now, the works and buildings it knows of, the mines it knows of, the fires it
saw, the points and the mission. What the view hides is assumed, never read from the real battle
(docs/rules/front.md, « Bots »):

- an enemy unit seen has its type's full action points, ammunition, rockets and fuel, is not on alert,
  and carries nothing;
- every mine the side knows of is taken for its own (the view does not say whose): its ways avoid it,
  its engineers may lift it, which is what the side may do with any mine it knows;
- a fire seen burns as if it had just started; the days already spent in the season are unknown and
  counted from zero (the view gives the hour and the season).

Inside this rebuilt battle an enemy unit the side does not spot is simply not there, so that the legal
orders drawn from it are exactly those of the real battle (``tests/test_front_known.py``).
"""

from __future__ import annotations

from typing import Any

from kadesh.core.grid import parse_map_cell
from kadesh.rules.front import logistics
from kadesh.rules.front.data import TABLES, TIME
from kadesh.rules.front.forest import FIRE
from kadesh.rules.front.scenario import MAX_SIDE
from kadesh.rules.front.state import SIDES, Objective, State, Structure, Unit, Victory

HOURS = TIME["hours"]


def state_from_view(view: dict[str, Any], side: str) -> State:
    terrain = [[TABLES.terrain[terrain_id] for terrain_id in row] for row in view["map"]]
    state = State(len(terrain[0]), len(terrain), terrain, {}, [], view["season"], view["hour"],
                  active=view["active"], turn=view["turn"])
    state.original = [list(row) for row in view["map"]]
    state.hour_index = HOURS.index(state.hour)
    state.scenario_id = view["scenario"]["id"]
    state.title = {lang: view["scenario"].get(lang, state.scenario_id) for lang in ("fr", "en")}
    for name, holder in view["points"].items():
        point = cell(name)
        state.points.append(point)
        state.holders[point] = holder
    state.victory = _victory(view["victory"])
    state.escaped = {s: dict(view["escaped"].get(s, {})) for s in SIDES}
    _structures(state, view, side)
    _units(state, view, side)
    state.mines = {cell(name): side for name in view["mines"]}
    state.fires = {cell(name): (FIRE["burns_turns"], False) for name in view["fires"]}
    state.fires_seen[side] = set(state.fires)
    state.progress = {cell(c["cell"]): (c["unit"], c["ends"]) for c in view.get("counting", [])}
    return state


def cell(name: str) -> tuple[int, int]:
    """A cell's name in a view (« B7 ») as a cell; views only name cells of their map."""
    found = parse_map_cell(name, MAX_SIDE, MAX_SIDE)
    assert found is not None, name
    return found


def _victory(shown: dict[str, Any]) -> Victory:
    objectives = []
    for item in shown["objectives"]:
        cells = item.get("exit", item.get("cells", []))
        objectives.append(Objective(item["kind"], item["side"], tuple(cell(c) for c in cells),
                                    item.get("until", item.get("by")), item.get("tag"), item.get("target"),
                                    item.get("survivors", 0)))
    return Victory(shown["default"], shown["points_to_win"], tuple(objectives))


def _structures(state: State, view: dict[str, Any], side: str) -> None:
    for item in view["structures"]:
        kind = TABLES.structures[item["kind"]]
        steps = item.get("steps", kind.steps if item["complete"] else 1)
        built = Structure(kind, item["side"], item.get("hp", kind.hp), steps, item["carcass"])
        at = cell(item["cell"])
        state.structures[at] = built
        state.works.add(at)
        if item["side"] != side:
            state.structures_seen[side][at] = built.copy()


def _units(state: State, view: dict[str, Any], side: str) -> None:
    for item in view["units"]:
        unit = _own(item) if item["side"] == side else _enemy(item)
        state.units[unit.id] = unit
    for unit in state.units.values():  # on the map once every unit is known (cargo is carried with its carrier)
        if unit.on_map:
            state.place(unit, unit.cell)


def _enemy(item: dict[str, Any]) -> Unit:
    kind = TABLES.units[item["type"]]
    unit = Unit(item["id"], item["side"], kind, cell(item["cell"]), item["hp"], kind.ap, kind.ammo,
                kind.fuel, tag=item.get("tag"), flying=item.get("flying", False), battery=kind.battery)
    logistics.refill(unit)
    return unit


def _own(item: dict[str, Any]) -> Unit:
    kind = TABLES.units[item["type"]]
    patrol = item.get("patrol")
    return Unit(item["id"], item["side"], kind, cell(item["cell"]), item["hp"], item["ap"], item["ammo"],
                item["fuel"], moved=item["moved"], shots=item["shots"], camouflaged=item["camouflaged"],
                aboard=item["aboard"], cargo=list(item.get("cargo", [])), tag=item.get("tag"), alert=item["alert"],
                patrol=cell(patrol) if patrol else None, mines=item.get("mines", 0),
                rockets=item.get("rockets", 0), flying=item.get("flying", False), battery=item.get("battery"),
                operator=item.get("operator"))

"""Front's legal actions and shot checks, made cheap on large battles (issue 40), answer as before: a side's sight
drawn once (``vision.sight_test``) says what ``sees_cell`` says of every cell; the shots at works drawn with it
and with each shooter's fire rate asked once are those the rules accept; and a Fire, Bomb or Strike order checked
without firing it (``Front.check``) is refused, or accepted, exactly as firing it on a copy of the battle is, and a
Move order planned without making it as making it on a copy."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from kadesh.core.dice import SeededDice
from kadesh.core.errors import RuleError
from kadesh.core.grid import chebyshev, map_cell_name
from kadesh.core.ruleset import Ruleset
from kadesh.rules.front import fire
from kadesh.rules.front.ruleset import Front
from kadesh.rules.front.scenario import parse
from kadesh.rules.front.state import SIDES, State
from kadesh.rules.front.vision import as_known_by, sees_cell, sight_test

RULES = Front()
ARMED = ("infantry", "heavy_tank", "sniper", "mortar", "general", "engineer", "scout", "aa_battery",
         "attack_helicopter")
OTHERS = ("supply_truck", "observer", "drone_operator", "truck")


def battle(seed: int) -> State:
    """A random battle at night in winter (sight 3 or 4 cells for most units), 30 × 16 cells: a dozen units a
    side, works of every owner, buildings (that see 4 cells), and a watchtower (12 cells) in a corner."""
    rng = random.Random(seed)
    width, height = 30, 16
    ground = [[rng.choice("....fhv=") for _ in range(width)] for _ in range(height)]
    cells = [(x, y) for y in range(height) for x in range(width) if (x, y) != (0, 0)]
    rng.shuffle(cells)
    open_ground = [c for c in cells if ground[c[1]][c[0]] in ".="]
    units = []
    for index, cell in enumerate(open_ground[:26]):
        side = SIDES[index % 2]
        kind = rng.choice(ARMED if index % 5 else OTHERS)
        units.append({"side": side, "type": kind, "cell": map_cell_name(cell),
                      **({"drones": ["bomb_drone", "kamikaze_drone"]} if kind == "drone_operator" else {}),
                      **({"flying": True} if kind == "attack_helicopter" else {})})
    under = [{"kind": "trench", "cell": u["cell"]} for u in units if u["type"] == "infantry"]  # shot at under a unit
    structures = [{"kind": "watchtower", "cell": "A1", "side": "blue"}]
    for cell in [c for c in cells if c not in open_ground[:26]][:60]:
        kind = rng.choice(("trench", "trench", "bunker", "dragons_teeth", "hospital", "storage"))
        side = rng.choice(SIDES) if kind in ("hospital", "storage") else rng.choice((*SIDES, None))
        structures.append({"kind": kind, "cell": map_cell_name(cell), "complete": rng.random() < 0.8,
                           **({"side": side} if side else {})})
    structures += under
    legend = {".": "meadow", "f": "forest", "h": "hill", "v": "ruins", "=": "road"}
    text = "\n".join([  # the arrays first: TOML's tables come last
        "structures = [", *(_inline(s) + "," for s in structures), "]",
        "units = [", *(_inline(u) + "," for u in units), "]",
        '[scenario]\nseason = "winter"\nhour = "night"',
        "[legend]", *(f'"{mark}" = "{terrain}"' for mark, terrain in legend.items()),
        "[map]", "rows = [", *(f'  "{"".join(row)}",' for row in ground), "]",
    ])
    return parse(text)


def _inline(table: dict) -> str:
    return "{ " + ", ".join(f"{key} = {json.dumps(value)}" for key, value in table.items()) + " }"


def positions(seed: int, orders: int = 24, scenario: str | None = None):
    """The battle (``battle``, or a shipped ``scenario``) after each of ``orders`` random legal orders (shots,
    moves, ends of turn), and the side to act."""
    rng = random.Random(seed)
    state = battle(seed) if scenario is None else RULES.setup(RULES.normalize_options({"scenario": scenario}))
    dice = SeededDice(str(seed))
    for _ in range(orders):
        if state.result:
            return
        side = state.active
        yield state, side
        legal = list(RULES.legal_actions(state, side))
        shots = [a for a in legal if a["type"] in ("shoot", "bomb", "strike")]
        others = [a for a in legal if a["type"] not in ("end_turn", "resign")]
        roll = rng.random()
        action = rng.choice(shots) if shots and roll < 0.5 else rng.choice(others) if others and roll < 0.9 \
            else {"type": "end_turn"}
        RULES.apply(state, side, action, dice)


def answer(check, state: State, side: str, action: dict) -> tuple:
    try:
        check(state, side, action)
    except RuleError as refused:
        return refused.code, refused.fr, refused.en, refused.details
    return ("accepted",)


@pytest.mark.parametrize("seed", range(3))
def test_a_sides_sight_drawn_once_says_what_sees_cell_says_of_every_cell(seed):
    told = set()
    for state, _ in positions(seed, orders=8):
        for side in SIDES:
            for known in (False, True):
                if known:
                    with as_known_by(state, side):
                        sees = sight_test(state, side)
                        answers = [(c, sees(c), sees_cell(state, side, c)) for c in _every_cell(state)]
                else:
                    sees = sight_test(state, side)
                    answers = [(c, sees(c), sees_cell(state, side, c)) for c in _every_cell(state)]
                assert all(drawn == asked for _, drawn, asked in answers)
                told |= {(drawn, state.terrain_at(cell) is not None) for cell, drawn, _ in answers}
    assert told == {(True, True), (False, True), (True, False), (False, False)}  # on and off the map, seen or not


def _every_cell(state: State):
    """The map's cells and a border of two cells around it."""
    return [(x, y) for y in range(-2, state.height + 2) for x in range(-2, state.width + 2)]


@pytest.mark.parametrize("seed", range(3))
def test_the_legal_shots_at_works_are_those_the_rules_accept(seed):
    drawn = 0
    for state, side in positions(seed):
        legal = {json.dumps(a, sort_keys=True) for a in RULES.legal_actions(state, side) if a.get("at") == "structure"}
        accepted = set()
        for unit in [u for u in state.units.values() if u.side == side]:
            for weapon in unit.type.weapons:
                named = {"weapon": weapon.id} if weapon is not unit.type.weapons[0] else {}
                for cell in state.structures:
                    action = {"type": "shoot", "unit": unit.id, "target": map_cell_name(cell), "at": "structure",
                              **named}
                    if answer(RULES.check, state, side, action) == ("accepted",):
                        accepted.add(json.dumps(action, sort_keys=True))
        assert legal == accepted
        drawn += len(legal)
    assert drawn  # the battles give shots at works to check


@pytest.mark.parametrize("seed", range(2))
def test_a_units_fire_rate_told_once_answers_as_asked_each_time(seed):
    for state, _ in positions(seed):
        for unit in state.units.values():
            allowed = fire.shots_allowed(state, unit)
            for cell in [c for c in state.structures] + [u.cell for u in state.units.values()]:
                for weapon in unit.type.weapons:
                    assert fire.why_not_fire(state, unit, cell, weapon.id, None, weapon.order, allowed) \
                        == fire.why_not_fire(state, unit, cell, weapon.id, None, weapon.order)


@pytest.mark.parametrize("seed", range(3))
def test_a_shot_checked_without_firing_is_answered_as_firing_it_on_a_copy(seed):
    rng = random.Random(seed)
    kinds = set()
    for state, _ in positions(seed, orders=10):
        probes = _probes(state, rng)
        before = pickle.dumps(state)
        for action in probes:
            for seat in SIDES:
                fired = answer(lambda s, seat_, a: Ruleset.check(RULES, s, seat_, a), state, seat, action)
                assert answer(RULES.check, state, seat, action) == fired, (action, seat)
                kinds.add(fired[0])
        assert pickle.dumps(state) == before  # checking changed nothing
    assert "accepted" in kinds and len(kinds) > 5


@pytest.mark.parametrize("scenario", ["test_mixed", "test_air"])  # mines, capture points, aircraft, fuel
def test_a_move_checked_without_making_it_is_answered_as_making_it_on_a_copy(scenario):
    rng = random.Random(scenario)
    kinds = set()
    for state, side in positions(1, 30, scenario):
        probes = [{"type": "move", "unit": unit.id, "to": map_cell_name(cell)} for unit in state.units.values()
                  for cell in rng.sample(_near(state, unit.cell, 4), 3)]
        probes += [{"type": "move", "unit": next(iter(state.units)), "to": "Z99"}, {"type": "move", "unit": "nobody"}]
        before = pickle.dumps(state)
        for action in probes:
            made = answer(lambda s, seat_, a: Ruleset.check(RULES, s, seat_, a), state, side, action)
            assert answer(RULES.check, state, side, action) == made, action
            kinds.add(made[2] if len(made) > 1 else "accepted")  # the refusal in English
        assert pickle.dumps(state) == before  # checking changed nothing
    assert {"accepted", "Pick one of your units.", "That cell is out of reach with the action points left."} <= kinds


def _near(state: State, cell: tuple[int, int], distance: int) -> list[tuple[int, int]]:
    return [(x, y) for y in range(state.height) for x in range(state.width) if chebyshev((x, y), cell) <= distance]


def _probes(state: State, rng: random.Random) -> list[dict]:
    """Fire, Bomb and Strike orders of every unit at the cells near it, at a unit, a work or the air, with its
    weapons or another's; and a few malformed ones."""
    probes = []
    for unit in state.units.values():
        near = [(x, y) for y in range(state.height) for x in range(state.width)
                if chebyshev((x, y), unit.cell) <= 6]
        for cell in rng.sample(near, min(6, len(near))) + [c for c in state.structures if chebyshev(c, unit.cell) <= 6]:
            order = rng.choice(("shoot", "shoot", "shoot", "bomb", "strike"))
            action = {"type": order, "unit": unit.id, "target": map_cell_name(cell)}
            at = rng.choice((None, None, "structure", "structure", "air", "ground"))
            if at:
                action["at"] = at
            if rng.random() < 0.3:
                action["weapon"] = rng.choice(("rocket", "gun", "main", "machine_gun", "bomb", "none", 3))
            probes.append(action)
    unit = next(iter(state.units))
    probes += [{"type": "shoot", "unit": unit, "target": "Z99", "at": "structure"},
               {"type": "shoot", "unit": "nobody", "target": "A1"},
               {"type": "shoot", "unit": unit, "target": ["A1"], "at": "structure"},
               {"type": "bomb", "unit": unit, "target": "A1", "at": None}]
    return probes

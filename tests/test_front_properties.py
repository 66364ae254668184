"""Front: random legal play, checked after every order: on the small mixed map, on every shipped
scenario, with the shots fired during the enemy's turn (alert, patrol) held to the rules of fire, and
captures that happen when engineers are left on the points."""

from __future__ import annotations

import random
from contextlib import contextmanager
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from kadesh.core.dice import SeededDice
from kadesh.core.game import Game
from kadesh.core.grid import map_cell_name, parse_map_cell
from kadesh.rules.front import air, combat, fire
from kadesh.rules.front.fire import shots_allowed
from kadesh.rules.front.mines import mines_seen_by
from kadesh.rules.front.ruleset import Front
from kadesh.rules.front.scenario import SHIPPED
from kadesh.rules.front.vision import camouflaged_units, spotted

pytestmark = pytest.mark.slow
SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RULES = Front()


def new(seed: int, scenario: str = "test_mixed") -> Game:
    options = RULES.normalize_options({"scenario": scenario})
    return Game(RULES, options, str(seed), SeededDice(str(seed)))


def play(seed: int, actions: int = 120, check=None, scenario: str = "test_mixed", hold_points: bool = False):
    """Random legal orders (an end of turn one time in seven); with ``hold_points``, an engineer that can step
    onto a capture point does so one time in two, and one posted on a point is left there."""
    rng = random.Random(seed)
    game, taken = new(seed, scenario), []
    for _ in range(actions):
        if game.outcome is not None:
            break
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        orders = [a for a in legal if a["type"] not in ("end_turn", "resign")]
        if hold_points:
            orders, onto = _holding(game.state, orders)
            if onto and rng.random() < 0.5:
                orders = onto
        action = rng.choice(orders) if orders and rng.random() < 0.85 else {"type": "end_turn"}
        if action["type"] == "shoot":  # never more often than allowed at the moment of firing
            shooter = game.state.units[action["unit"]]
            assert shooter.shots < shots_allowed(game.state, shooter)
        game.act(seat, action)
        taken.append((seat, action))
        if check:
            check(game)
    return game, taken


def _holding(state, orders: list[dict]) -> tuple[list[dict], list[dict]]:
    posted = {state.occupied.get(point) for point in state.points}
    orders = [a for a in orders if a.get("unit") not in posted]
    points = {map_cell_name(cell) for cell in state.holders}  # as a move names its cell: not each one parsed
    onto = [a for a in orders if a["type"] == "move" and a["to"] in points]
    return orders, onto


def sound(game: Game) -> None:
    state = game.state
    for unit in state.units.values():
        assert unit.hp > 0 and unit.ap >= 0 and unit.ammo >= 0 and (unit.fuel is None or unit.fuel >= 0)
        assert all(p in state.units and state.units[p].aboard == unit.id for p in unit.cargo)
        assert unit.shots <= 2
        if unit.flying:  # in the air over any cell of the map (the air war's properties check the rest)
            assert state.terrain_at(unit.cell) is not None and state.air.get(unit.cell) == unit.id
        elif unit.aboard is None:
            terrain = state.terrain_at(unit.cell)
            assert terrain is not None and (terrain.step_cost(unit.type.movement) is not None or unit.type.flies) \
                or unit.cell in state.structures, f"{unit.id} stands on impassable {terrain.id}"
            assert state.occupied.get(unit.cell) == unit.id
    assert len(set(state.occupied)) == len(state.occupied)


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_random_legal_play_keeps_every_unit_within_its_means(seed):
    play(seed, check=sound)


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_a_side_never_sees_what_it_cannot_see(seed):
    def hidden(game: Game) -> None:
        state = game.state
        camouflaged = frozenset(u.id for u in state.units.values() if u.camouflaged)
        for side in ("blue", "red"):
            view = game.view(side)
            seen = spotted(state, side, camouflaged)
            for unit in view["units"]:
                assert unit["side"] == side or unit["id"] in seen
            mines = {parse_map_cell(c, state.width, state.height) for c in view["mines"]}
            assert mines <= mines_seen_by(state, side)

    play(seed, check=hidden)


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_replaying_the_orders_gives_the_same_journals_and_views(seed):
    game, taken = play(seed)
    again = new(seed)
    for seat, action in taken:
        again.act(seat, action)
    for side in ("blue", "red", None):
        assert again.view(side) == game.view(side)
        assert again.journal(side) == game.journal(side)


# -- what a side does not see changes none of its orders (fog-consistent orders) -----------------------------------
def _answers(state, side: str) -> tuple[list[str], dict[str, tuple]]:
    """A side's legal actions, and the rules' answer to a probe of orders: every own unit moving to and firing
    at every cell, building next to it, firing at every structure."""
    import json

    from kadesh.core.errors import RuleError
    from kadesh.core.grid import king_neighbours

    legal = sorted(json.dumps(a, sort_keys=True) for a in RULES.legal_actions(state, side))
    cells = [map_cell_name((x, y)) for y in range(state.height) for x in range(state.width)]
    probes = []
    for unit in [u for u in state.units.values() if u.side == side and u.aboard is None]:
        probes += [{"type": "move", "unit": unit.id, "to": c} for c in cells]
        probes += [{"type": "shoot", "unit": unit.id, "target": c} for c in cells]
        probes += [{"type": "shoot", "unit": unit.id, "target": map_cell_name(c), "at": "structure"}
                   for c in state.structures]
        probes += [{"type": "build", "unit": unit.id, "kind": "trench", "cell": map_cell_name(c)}
                   for c in king_neighbours(unit.cell) if state.terrain_at(c) is not None]
    answers = {}
    for action in probes:
        try:
            RULES.check(state, side, action)
            answers[json.dumps(action, sort_keys=True)] = ("accepted",)
        except RuleError as refused:
            answers[json.dumps(action, sort_keys=True)] = (refused.code, refused.en)
    return legal, answers


def _unseen_variants(state, side: str, rng: random.Random):
    """The same battle with one enemy unit the side does not see added, moved or removed."""
    from kadesh.rules.front.data import TABLES
    from kadesh.rules.front.state import Unit

    other = "red" if side == "blue" else "blue"

    def seen(s):
        return spotted(s, side, frozenset(u.id for u in s.units.values() if u.camouflaged))

    def free_cells(s, kind):
        return [(x, y) for y in range(s.height) for x in range(s.width) if (x, y) not in s.occupied
                and s.terrain_at((x, y)).step_cost(kind.movement) is not None]

    done = False
    for name in rng.sample(["sniper", "scout", "infantry", "truck"], 4):  # a sniper in cover hides best
        kind = TABLES.units[name]
        for cell in rng.sample(free_cells(state, kind), len(free_cells(state, kind))):
            added = state.copy()
            unit = Unit(f"{other[0]}99", other, kind, cell, kind.hp, kind.ap, kind.ammo, kind.fuel)
            unit.camouflaged = bool(kind.extras.get("camouflage")) and added.terrain_at(cell).cover > 0
            added.units[unit.id] = unit
            added.occupied[cell] = unit.id
            if unit.id not in seen(added):
                yield "added", added
                done = True
                break
        if done:
            break
    hidden = [u.id for u in state.units.values() if u.side == other and u.aboard is None and not u.cargo
              and u.id not in seen(state)]
    for unit_id in hidden:
        moved = state.copy()
        unit = moved.units[unit_id]
        for cell in rng.sample(free_cells(moved, unit.type), len(free_cells(moved, unit.type))):
            moved.place(unit, cell)
            if unit_id not in seen(moved):
                yield "moved", moved
                break
        removed = state.copy()
        del removed.units[unit_id]
        del removed.occupied[state.units[unit_id].cell]
        if len([u for u in removed.units.values() if u.side == other]) > 0:
            yield "removed", removed
        break


# a failure is told unshrunk: shrinking these games takes minutes
@settings(SETTINGS, max_examples=20, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=80))
def test_an_enemy_unit_a_side_does_not_see_changes_none_of_its_legal_actions_nor_refusals(seed, steps):
    game, _ = play(seed, actions=steps)
    state = game.state
    if game.outcome is not None:
        return
    side = state.active
    before = _answers(state, side)
    view = RULES.view(state, side)
    for how, variant in _unseen_variants(state, side, random.Random(seed)):
        assert RULES.view(variant, side) == view, how  # the side's view is the same: it cannot tell them apart
        legal, answers = _answers(variant, side)
        assert legal == before[0], f"{how}: legal actions differ"
        changed = {a: (before[1][a], answers[a]) for a in answers if answers[a] != before[1][a]}
        assert not changed, f"{how}: {changed}"


# -- every shipped scenario ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("scenario", SHIPPED)
def test_random_legal_play_on_every_shipped_scenario_keeps_every_unit_within_its_means(scenario):
    actions = 60 if scenario == "default" else 150
    for seed in (1, 2):
        play(seed, actions=actions, check=sound, scenario=scenario)


# -- fire during the enemy's turn ------------------------------------------------------------------------------------
@contextmanager
def reaction_shots_held_to_the_rules(fired: list[str]):
    """Every shot fired during the enemy's turn is checked as it is fired: a shot the rules of fire allow
    (fire rate, rounds, action points, range after a move, line of fire), at an enemy its side sees; after
    it, within the fire rate; each side reads of it only what it sees."""
    real = combat.volley

    def checked(state, shooter, target, dice, reaction=None, **given):
        if reaction is None:
            return real(state, shooter, target, dice, reaction, **given)
        assert shooter.side != state.active, "a reaction shot happens in the enemy's turn"
        weapon = given.get("weapon")  # « une arme par tir »: the weapon the shot names, each with its rounds
        aiming = air.target_kind(target)
        assert fire.why_not_fire(state, shooter, target.cell, weapon.id if weapon else None, aiming) is None
        assert target.id in spotted(state, shooter.side, camouflaged_units(state))
        allowed = fire.shots_allowed(state, shooter)
        seers = {side: spotted(state, side, camouflaged_units(state)) for side in ("blue", "red")}  # as it fires
        events = real(state, shooter, target, dice, reaction, **given)
        assert shooter.shots <= allowed and shooter.ammo >= 0 and shooter.rockets >= 0 and shooter.ap >= 0
        for event in events:
            if event.type == "hit" and "by" in event.data:
                assert event.data["by"] in seers[event.audience[0]]
            if event.type == "shot":  # to the shooter's side if it sees the unit hit, else to nobody while it runs
                assert event.audience in ((shooter.side,), ())
                assert event.audience == (shooter.side,) or event.data["target"] not in seers[shooter.side]
        fired.append(reaction)
        return events

    with patch.object(combat, "volley", checked):
        yield


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_a_reaction_shot_never_exceeds_the_fire_rate_rounds_or_range_nor_tells_what_is_not_seen(seed):
    with reaction_shots_held_to_the_rules([]):
        play(seed, actions=200, check=sound)


def test_alert_and_patrol_shots_do_happen_in_random_play():
    """The property above is not vacuous: random play on the small map does fire on alert and on patrol."""
    fired: list[str] = []
    with reaction_shots_held_to_the_rules(fired):
        for seed in range(6):
            play(seed, actions=200)
    assert {"alert", "patrol"} <= set(fired)


# -- captures ----------------------------------------------------------------------------------------------------------
@settings(SETTINGS, max_examples=3)
@given(st.integers(min_value=0, max_value=2**32))
def test_points_are_captured_in_random_games_long_enough_to_allow_it(seed):
    """On the default battle, random legal orders where engineers once posted on a point are left there."""
    game, _ = play(seed, actions=250, scenario="default", hold_points=True)
    assert any(event.type == "point" and event.data["change"] == "taken" for _, event in game.events)


# -- the air war (issue 18) ------------------------------------------------------------------------------------------
AIR_KINDS = ("launch", "recover", "land", "jam", "bomb", "strike", "shoot_air", "shoot_rocket")
GROUND_HARM = ("mine", "burnt", "crash_hit")  # what the ground's dangers do; never to an aircraft in flight


def air_kind(action: dict) -> str | None:
    """The air order an action is (``shoot_air``: a shot at an aircraft in flight; ``shoot_<weapon>``: a second
    weapon), or None."""
    if action["type"] in AIR_KINDS:
        return action["type"]
    if action["type"] == "shoot" and action.get("at") == "air":
        return "shoot_air"
    if action["type"] == "shoot" and "weapon" in action:
        return f"shoot_{action['weapon']}"
    return None


def _closing(state, flights: list[dict]) -> dict:
    """The flight that ends nearest an enemy unit on the map (first in order of unit and cell if several)."""
    from kadesh.core.grid import chebyshev

    def gap(action: dict) -> tuple:
        unit = state.units[action["unit"]]
        cell = parse_map_cell(action["to"], state.width, state.height)
        enemies = [chebyshev(cell, e.cell) for e in state.units.values() if e.side != unit.side and e.on_map]
        return min(enemies, default=0), action["unit"], action["to"]

    return min(flights, key=gap)


def _aloft(state) -> dict[str, tuple]:
    """Every aircraft: (flying, fuel, battery, hp, ammo, rockets)."""
    return {u.id: (u.flying, u.fuel or 0, u.battery or 0, u.hp, u.ammo, u.rockets)
            for u in state.units.values() if u.type.flies}


def play_air(seed: int, actions: int = 150, check=None, scenario: str = "test_air"):
    """Random legal orders, biased to the air war: an end of turn one time in seven; else about two times in
    five an air order (its kind drawn first, so that a rare one, a strike, comes as often as a jam), else one
    time in two a flight of an aircraft (half of them the one that closes on the enemy most), else any order.
    ``check(game, before, action, events)`` after every order, ``before`` the aircraft as they were
    (``_aloft``). Returns the game, the orders given, and how many air orders of each kind were given."""
    rng = random.Random(seed)
    game, taken, done = new(seed, scenario), [], {}
    for _ in range(actions):
        if game.outcome is not None:
            break
        seat = game.to_act()[0]
        orders = [a for a in game.legal_actions(seat) if a["type"] not in ("end_turn", "resign")]
        aerial = [a for a in orders if air_kind(a)]
        flights = [a for a in orders if a["type"] == "move" and game.state.units[a["unit"]].type.flies]
        roll = rng.random()
        if roll < 1 / 7 or not orders:
            action = {"type": "end_turn"}
        elif aerial and roll < 0.55:
            kind = rng.choice(sorted({air_kind(a) for a in aerial}))
            action = rng.choice([a for a in aerial if air_kind(a) == kind])
        elif flights and roll < 0.8:
            action = rng.choice(flights) if rng.random() < 0.5 else _closing(game.state, flights)
        else:
            action = rng.choice(orders)
        before = _aloft(game.state)
        events = game.act(seat, action)
        taken.append((seat, action))
        if air_kind(action):
            done[air_kind(action)] = done.get(air_kind(action), 0) + 1
        if check:
            check(game, before, action, events)
    return game, taken, done


def drones_on_their_leash(game: Game, before, action, events) -> None:
    """(a) A drone aloft is never out of its leash (it falls first), and a drone is either in the air, over its
    cell, or landed in its operator's kit."""
    from kadesh.rules.front import air

    state = game.state
    for drone in [u for u in state.units.values() if air.is_drone(u)]:
        if drone.flying:
            assert air.on_leash(state, drone), f"{drone.id} aloft at {drone.cell} out of its leash after {action}"
            assert state.air.get(drone.cell) == drone.id and drone.aboard is None, \
                f"{drone.id} aloft at {drone.cell}, the air there holds {state.air.get(drone.cell)} after {action}"
        else:
            operator = state.units.get(drone.aboard or "")
            assert operator is not None and drone.aboard == drone.operator and drone.id in operator.cargo, \
                f"{drone.id} neither aloft nor with its operator after {action}"
            assert drone.cell == operator.cell


def never_refuelled_in_flight(game: Game, before, action, events) -> None:
    """(b) An aircraft in flight before and after an order has neither more fuel or battery, nor more rounds
    (« Il ne se ravitaille que posé »), nor more hit points (neither healed nor repaired up there); and no
    aircraft ever has less than nothing left."""
    for unit in game.state.units.values():
        if unit.type.flies:
            assert (unit.fuel or 0) >= 0 and (unit.battery or 0) >= 0 and unit.ammo >= 0 and unit.rockets >= 0, \
                f"{unit.id}: fuel {unit.fuel}, battery {unit.battery}, rounds {unit.ammo}/{unit.rockets} after {action}"
    for unit_id, (flying, fuel, battery, hp, ammo, rockets) in before.items():
        unit = game.state.units.get(unit_id)
        if not flying or unit is None or not unit.flying:
            continue
        assert (unit.fuel or 0) <= fuel and (unit.battery or 0) <= battery, f"{unit_id} refuelled in flight: {action}"
        assert unit.ammo <= ammo and unit.rockets <= rockets, f"{unit_id} rearmed in flight: {action}"
        assert unit.hp <= hp, f"{unit_id} healed in flight: {action}"


def untouched_by_the_ground(game: Game, before, action, events) -> None:
    """(c) An aircraft in flight before and after an order loses hit points only to shots aimed at it: neither
    mine, blast, forest fire, a fall's damage nor a bomb touches it."""
    for unit_id, (flying, _, _, hp, _, _) in before.items():
        unit = game.state.units.get(unit_id)
        if not flying or unit is None or not unit.flying:
            continue
        named = [e for e in events if e.data.get("unit") == unit_id and e.type in GROUND_HARM]
        assert not named, f"{unit_id} in flight: {[(e.type, e.data) for e in named]} after {action}"
        shots = [e for e in events if e.type == "shot" and e.data["target"] == unit_id]
        assert all(not e.data["blast"] and e.data.get("weapon") != "bomb" and e.data.get("unit") for e in shots), \
            f"{unit_id} in flight: {[e.data for e in shots]} after {action}"
        assert hp - unit.hp == sum(e.data["damage"] for e in shots), \
            f"{unit_id} in flight lost {hp - unit.hp} HP, shots at it say {[e.data for e in shots]}: {action}"


def views_show_only_aircraft_seen(game: Game, before, action, events) -> None:
    """(d) A side's view shows no enemy unit it does not spot now, and never an enemy drone in its operator's kit."""
    state = game.state
    seen = {side: spotted(state, side, camouflaged_units(state)) for side in ("blue", "red")}
    for side in ("blue", "red"):
        for shown in RULES.view(state, side)["units"]:
            if shown["side"] == side:
                continue
            assert shown["id"] in seen[side], f"{side} sees {shown} after {action}"
            unit = state.units[shown["id"]]
            assert unit.on_map, f"{side} sees {shown['id']} aboard {unit.aboard} after {action}"


def layers_sound(game: Game, before, action, events) -> None:
    """(e) The ground and the air hold each unit once: an aircraft in flight over its cell in the air only, every
    unit on the ground (a landed helicopter too) on its cell of the ground, nobody aboard on either."""
    state = game.state
    for layer, name in ((state.occupied, "ground"), (state.air, "air")):
        assert len(set(layer.values())) == len(layer), f"a unit twice in the {name} after {action}"
        for cell, unit_id in layer.items():
            unit = state.units.get(unit_id)
            assert unit is not None and unit.cell == cell and unit.on_map, \
                f"{name} {cell}: {unit_id} is not there after {action}"
            assert unit.flying == (name == "air"), f"{unit_id} in the {name} (flying {unit.flying}) after {action}"
    for unit in state.units.values():
        if unit.flying:
            assert state.air.get(unit.cell) == unit.id, \
                f"{unit.id} flying at {unit.cell}, the air there holds {state.air.get(unit.cell)} after {action}"
        elif unit.on_map:
            assert state.occupied.get(unit.cell) == unit.id, \
                f"{unit.id} on the ground at {unit.cell}, the ground there holds {state.occupied.get(unit.cell)} " \
                f"after {action}"


def every_air_check(game: Game, before, action, events) -> None:
    for check in (drones_on_their_leash, never_refuelled_in_flight, untouched_by_the_ground,
                  views_show_only_aircraft_seen, layers_sound):
        check(game, before, action, events)


AIR_SETTINGS = settings(SETTINGS, max_examples=4, phases=[Phase.explicit, Phase.reuse, Phase.generate])


@AIR_SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
@example(3)  # a landed helicopter took off under its side's drone (issue 18)
def test_a_drone_aloft_never_stays_out_of_its_leash_and_is_aloft_or_with_its_operator(seed):
    play_air(seed, check=drones_on_their_leash)


@AIR_SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_an_aircraft_is_never_refuelled_rearmed_nor_repaired_in_flight(seed):
    play_air(seed, check=never_refuelled_in_flight)


@AIR_SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_an_aircraft_in_flight_loses_hit_points_only_to_shots_aimed_at_it(seed):
    play_air(seed, check=untouched_by_the_ground)


@AIR_SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_a_view_never_shows_an_aircraft_its_side_does_not_see(seed):
    play_air(seed, check=views_show_only_aircraft_seen)


@AIR_SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
@example(9)  # a landed helicopter took off under an enemy helicopter (issue 18)
def test_the_ground_and_the_air_hold_each_unit_once_where_it_is(seed):
    play_air(seed, check=layers_sound)


@settings(AIR_SETTINGS, max_examples=3)
@given(st.integers(min_value=0, max_value=2**32))
def test_replaying_an_air_war_gives_the_same_journals_in_both_languages_and_the_same_views(seed):
    from kadesh.core.game import load_game

    game, _, _ = play_air(seed)
    again = load_game(game.to_record())
    for side in ("blue", "red", None):
        for lang in ("fr", "en"):
            assert again.journal(side, lang) == game.journal(side, lang), (side, lang)
        assert again.view(side) == game.view(side)


@settings(AIR_SETTINGS, max_examples=1)
@given(st.integers(min_value=0, max_value=2**32))
@example(4)  # a landed helicopter took off under an enemy drone (issue 18)
def test_the_air_war_on_the_default_battle_keeps_every_air_rule(seed):
    play_air(seed, actions=60, check=every_air_check, scenario="default")


def test_air_orders_do_happen_in_the_biased_random_play():
    """The properties above are not vacuous: the biased play launches and recovers drones, lands helicopters,
    jams, bombs, strikes, fires at aircraft and with rockets; drones and helicopters fall for every reason."""
    done, falls, reasons = set(), set(), {"shot_down", "jammed", "leash", "battery", "fuel"}
    for seed in range(20):  # until everything has happened (six games are enough today)
        game, _, kinds = play_air(seed)
        done |= set(kinds)
        falls |= {event.data["why"] for _, event in game.events if event.type == "crashed"}
        if set(AIR_KINDS) <= done and reasons <= falls:
            break
    assert set(AIR_KINDS) <= done
    assert reasons <= falls

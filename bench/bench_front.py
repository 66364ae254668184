"""Front: a full turn of random legal play on the default map (about 80 units), the end-of-turn
processing, a side's end of turn with every patrol zone of the other side active, and vision
recomputation; and the air war (issue 18): a turn of random play where air orders are favoured,
a side's legal actions with its drones and helicopters aloft (each drone's flight ways drawn within
its leash), and the end-of-turn upkeep of the aircraft aloft; as ratios to a baseline run in the
same process (building one small order dict).

    python bench/bench_front.py [--turns 6]
"""

from __future__ import annotations

import argparse
import random
import time

from kadesh.core.dice import SeededDice
from kadesh.core.game import Game
from kadesh.core.grid import chebyshev, parse_map_cell, within
from kadesh.rules.front import air, moves
from kadesh.rules.front.reaction import may_patrol
from kadesh.rules.front.ruleset import Front
from kadesh.rules.front.vision import as_known_by, spotted

AIR_ORDERS = ("launch", "recover", "land", "jam", "bomb", "strike")


def baseline_seconds(count: int) -> float:
    start = time.perf_counter()
    for i in range(count):
        _ = {"type": "move", "unit": "b1", "to": i}
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=6)
    args = parser.parse_args()
    per_dict = baseline_seconds(200_000) / 200_000
    rules = Front()
    game = Game(rules, rules.normalize_options({}), "bench", SeededDice("bench"))
    rng = random.Random(1)
    turn_seconds, end_seconds, orders, legal_seconds, legal_count = [], [], 0, 0.0, 0
    for _ in range(args.turns):
        start = time.perf_counter()
        for _ in range(40):  # about one order per unit of the side to play
            seat = game.to_act()[0]
            tick = time.perf_counter()
            legal = [a for a in game.legal_actions(seat) if a["type"] != "end_turn"]
            legal_seconds += time.perf_counter() - tick
            legal_count += 1
            if not legal or game.outcome:
                break
            game.act(seat, rng.choice(legal))
            orders += 1
        tick = time.perf_counter()
        game.act(game.to_act()[0], {"type": "end_turn"})
        end_seconds.append(time.perf_counter() - tick)
        turn_seconds.append(time.perf_counter() - start)
    state = game.state
    start, looks = time.perf_counter(), 0
    while time.perf_counter() - start < 1.0:
        spotted(state, "blue")
        spotted(state, "red")
        looks += 2
    vision = looks / (time.perf_counter() - start)
    patrols, patrol_seconds, patrol_shots = patrolled_end_of_turn(rules)
    turn = sum(turn_seconds) / len(turn_seconds)
    print(f"Front, default map, {len(state.units)} units left, {orders} orders over {args.turns} side-turns")
    print(f"a side's turn of random legal play (40 orders, legal actions each time): {turn * 1000:,.0f} ms "
          f"= {turn / per_dict:,.0f} baseline dicts")
    print(f"legal actions of a side: {legal_seconds / legal_count * 1000:,.1f} ms each")
    print(f"end-of-turn processing (fires, healing, capture, clock): "
          f"{sum(end_seconds) / len(end_seconds) * 1000:,.2f} ms")
    print(f"vision recomputation: {vision:,.0f} per second (one side's spotted set)")
    print(f"a side's end of turn with {patrols} patrol zones of the other side active: "
          f"{patrol_seconds * 1000:,.2f} ms = {patrol_seconds / per_dict:,.0f} baseline dicts "
          f"({patrol_shots} patrol shots a turn on average)")
    air_war(rules, args.turns, per_dict)


def patrolled_end_of_turn(rules: Front, rounds: int = 20) -> tuple[int, float, float]:
    """Every red unit that may patrol does, on the default map, and blue units are put in their zones (one
    in each zone where a cell is free); then blue's end of turn, where every red patrol looks for a target."""
    seconds, shots, patrols = [], 0, 0
    for index in range(rounds):
        game = Game(rules, rules.normalize_options({}), f"patrol{index}", SeededDice(f"patrol{index}"))
        state = game.state
        patrollers = [u for u in state.units.values() if u.side == "red" and may_patrol(u.type)]
        blue = [u for u in state.units.values() if u.side == "blue" and u.type.movement == "foot"]
        for unit in patrollers:
            unit.patrol = unit.cell
            free = [cell for cell in within(unit.cell, 2, state.width, state.height)
                    if cell not in state.occupied and cell not in state.holders
                    and state.terrain_at(cell).step_cost("foot") is not None]
            if free and blue:
                state.place(blue.pop(), free[index % len(free)])
        patrols = len(patrollers)
        before = len(game.events)
        tick = time.perf_counter()
        game.act("blue", {"type": "end_turn"})
        seconds.append(time.perf_counter() - tick)
        shots += sum(1 for _, event in game.events[before:] if event.type == "shot")
    return patrols, sum(seconds) / len(seconds), shots / rounds


def _air_kind(action: dict) -> str | None:
    if action["type"] in AIR_ORDERS:
        return action["type"]
    if action["type"] == "shoot" and (action.get("at") == "air" or "weapon" in action):
        return "shoot_air" if action.get("at") == "air" else "shoot_" + action["weapon"]
    return None


def _air_choice(state, legal: list[dict], rng: random.Random) -> dict:
    """Air orders favoured: two times in five an air order (its kind drawn first), else one time in two a
    flight of an aircraft (half of them the one that ends nearest an enemy), else any order."""
    aerial = [a for a in legal if _air_kind(a)]
    flights = [a for a in legal if a["type"] == "move" and state.units[a["unit"]].type.flies]
    roll = rng.random()
    if aerial and roll < 0.4:
        kind = rng.choice(sorted({_air_kind(a) for a in aerial}))
        return rng.choice([a for a in aerial if _air_kind(a) == kind])
    if flights and roll < 0.7:
        if rng.random() < 0.5:
            return rng.choice(flights)

        def gap(action: dict) -> tuple:
            unit = state.units[action["unit"]]
            cell = parse_map_cell(action["to"], state.width, state.height)
            return min((chebyshev(cell, e.cell) for e in state.units.values() if e.side != unit.side and e.on_map),
                       default=0), action["unit"], action["to"]

        return min(flights, key=gap)
    return rng.choice(legal)


def all_aloft(rules: Front) -> tuple[Game, Game]:
    """The default battle at its start (every aircraft landed) and the same battle a round later, with every
    drone launched and every helicopter in the air (a flight of a cell or two on each side's first turn)."""
    start = Game(rules, rules.normalize_options({}), "aloft", SeededDice("aloft"))
    game = Game(rules, rules.normalize_options({}), "aloft", SeededDice("aloft"))
    for _ in range(2):
        side = game.to_act()[0]
        for _ in range(10):
            legal = game.legal_actions(side)
            launch = [a for a in legal if a["type"] == "launch"]
            up = [a for a in legal if a["type"] == "move" and game.state.units[a["unit"]].type.flies
                  and not game.state.units[a["unit"]].flying]
            if not launch and not up:
                break
            game.act(side, (launch or up)[0])
        game.act(side, {"type": "end_turn"})
    return start, game


def _mean_seconds(run, least: float = 0.5) -> float:
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < least:
        run()
        count += 1
    return (time.perf_counter() - start) / count


def air_war(rules: Front, turns: int, per_dict: float) -> None:
    """The air war's figures: random play with air orders favoured; a side's legal actions with its aircraft
    aloft against the same side's at the start, every aircraft landed; each drone's flight ways; the upkeep."""
    game = Game(rules, rules.normalize_options({}), "air", SeededDice("air"))
    rng = random.Random(2)
    turn_seconds, orders, aerial = [], 0, 0
    for _ in range(turns):
        start = time.perf_counter()
        for _ in range(40):
            seat = game.to_act()[0]
            legal = [a for a in game.legal_actions(seat) if a["type"] != "end_turn"]
            if not legal or game.outcome:
                break
            action = _air_choice(game.state, legal, rng)
            game.act(seat, action)
            orders += 1
            aerial += bool(_air_kind(action) or action["type"] == "move"
                           and game.state.units.get(action["unit"]) is not None
                           and game.state.units[action["unit"]].type.flies)
        if game.outcome:
            break
        game.act(game.to_act()[0], {"type": "end_turn"})
        turn_seconds.append(time.perf_counter() - start)
    turn = sum(turn_seconds) / len(turn_seconds)
    up = sum(1 for u in game.state.units.values() if u.flying)
    print(f"air war, {orders} orders over {len(turn_seconds)} side-turns, {aerial} of them air orders or flights, "
          f"{up} aircraft aloft at the end")
    print(f"a side's turn of random legal play, air orders favoured (40 orders): {turn * 1000:,.0f} ms "
          f"= {turn / per_dict:,.0f} baseline dicts")

    landed, aloft = all_aloft(rules)
    side = aloft.state.active
    flying = [u for u in aloft.state.units.values() if u.side == side and u.flying]
    drones = [u for u in flying if air.is_drone(u)]
    before = _mean_seconds(lambda: list(rules.legal_actions(landed.state, side)))
    after = _mean_seconds(lambda: list(rules.legal_actions(aloft.state, side)))
    print(f"legal actions of a side, every aircraft landed: {before * 1000:,.1f} ms; with its {len(drones)} drones "
          f"and {len(flying) - len(drones)} helicopters aloft: {after * 1000:,.1f} ms ({after / before:,.2f} ×)")
    state = aloft.state
    with as_known_by(state, side):
        ways = _mean_seconds(lambda: [moves.reachable(state, d) for d in drones]) / len(drones)
        ground = [u for u in state.units.values() if u.side == side and u.on_ground and u.type.movement == "foot"]
        foot = _mean_seconds(lambda: moves.reachable(state, ground[0]))
    print(f"flight ways of one drone aloft (within its leash): {ways * 1000:,.2f} ms = {ways / per_dict:,.0f} "
          f"baseline dicts (a foot unit's ways: {foot * 1000:,.2f} ms)")
    copies = [state.copy() for _ in range(200)]
    tick = time.perf_counter()
    for copy in copies:
        air.upkeep(copy, side, SeededDice("upkeep"))
    upkeep = (time.perf_counter() - tick) / len(copies)
    ends = {}
    for name, battle in (("landed", landed.state), ("aloft", state)):
        copies = [battle.copy() for _ in range(50)]
        tick = time.perf_counter()
        for index, copy in enumerate(copies):
            rules.apply(copy, side, {"type": "end_turn"}, SeededDice(f"end{index}"))
        ends[name] = (time.perf_counter() - tick) / len(copies)
    aircraft = sum(1 for u in state.units.values() if u.flying)
    print(f"end-of-turn upkeep of a side's {len(flying)} aircraft aloft: {upkeep * 1000:,.3f} ms = "
          f"{upkeep / per_dict:,.0f} baseline dicts; the side's whole end of turn with {aircraft} aircraft aloft: "
          f"{ends['aloft'] * 1000:,.2f} ms, every aircraft landed: {ends['landed'] * 1000:,.2f} ms")


if __name__ == "__main__":
    main()

"""Front: a full turn of random legal play on the default map (about 80 units), the end-of-turn
processing, a side's end of turn with every patrol zone of the other side active, and vision
recomputation, as ratios to a baseline run in the same process (building one small order dict).

    python bench/bench_front.py [--turns 6]
"""

from __future__ import annotations

import argparse
import random
import time

from kadesh.core.dice import SeededDice
from kadesh.core.game import Game
from kadesh.core.grid import within
from kadesh.rules.front.reaction import may_patrol
from kadesh.rules.front.ruleset import Front
from kadesh.rules.front.vision import spotted


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


if __name__ == "__main__":
    main()

"""Royaumes: time for Imhotep to adjudicate one turn of 4 kingdoms on a 200×200 map, for 100,
1,000 and 10,000 armies, every army ordered to move and the four kingdoms at war.

Printed per army, and as ratios to a baseline run in the same process (building one small
dict per army, what reading any order at all costs), so that near-linear growth shows as a
flat time per army.

    python bench/bench_royaumes.py [--size 200] [--armies 100,1000,10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import time

from kadesh.core.grid import map_cell_name
from kadesh.rules.royaumes import rules
from kadesh.rules.royaumes.scenario import from_dict as scenario_from_dict
from kadesh.rules.royaumes.state import WAR, State, initial_state

KINGDOMS = ("north", "east", "south", "west")


def big_campaign(size: int, armies: int, seed: int) -> State:
    """A size×size map (about one cell in ten is water) with ``armies`` armies spread over the
    four kingdoms' quarters, 40 cities each, every kingdom at war with every other."""
    rng = random.Random(seed)
    rows = ["".join("~" if rng.random() < 0.1 else "." for _ in range(size)) for _ in range(size)]
    land = [(x, y) for y in range(size) for x in range(size) if rows[y][x] == "."]
    half = size // 2
    quarters = {k: [c for c in land if (c[0] < half) == (i % 2 == 0) and (c[1] < half) == (i < 2)]
                for i, k in enumerate(KINGDOMS)}
    raw = {"scenario": {"id": "bench", "fr": "Banc", "en": "Bench", "resources": ["gold", "wheat"]},
           "map": {"rows": rows}, "costs": {"army": {"gold": 1}, "spy": {"gold": 1}, "guild": {"gold": 1}},
           "kingdoms": {}}
    for k in KINGDOMS:
        cities = rng.sample(quarters[k], 40)
        raw["kingdoms"][k] = {
            "fr": k, "en": k, "cities": [{"name": f"{k}-{i}", "cell": map_cell_name(c)} for i, c in enumerate(cities)],
            "armies": [map_cell_name(rng.choice(quarters[k])) for _ in range(armies // 4)],
            "military_level": rng.randint(1, 5), "population": 1000, "resources": {"gold": 10**6, "wheat": 10**6}}
    state = initial_state(scenario_from_dict(raw))
    for a in KINGDOMS:
        for b in KINGDOMS:
            if a != b:
                state.kingdoms[a].stance[b] = WAR
    return state


def random_orders(state: State, seed: int) -> dict[str, dict]:
    rng = random.Random(seed)
    orders: dict[str, dict] = {k: {"moves": []} for k in KINGDOMS}
    for army in state.armies.values():
        x, y = army.cell
        to = (min(max(x + rng.choice((-1, 0, 1)), 0), state.scenario.width - 1),
              min(max(y + rng.choice((-1, 0, 1)), 0), state.scenario.height - 1))
        orders[army.kingdom]["moves"].append({"from": map_cell_name(army.cell), "to": map_cell_name(to)})
    return orders


def adjudication_seconds(size: int, armies: int, repeat: int) -> float:
    """The best of ``repeat`` runs: orders are read as they arrive, the last one adjudicates."""
    best = float("inf")
    for run in range(repeat):
        state = big_campaign(size, armies, seed=run)
        orders = random_orders(state, seed=run)
        for kingdom in KINGDOMS[:-1]:
            rules.apply(state, kingdom, {"type": "orders", **orders[kingdom]})
        last = {"type": "orders", **orders[KINGDOMS[-1]]}
        start = time.perf_counter()
        rules.apply(state, KINGDOMS[-1], last)
        best = min(best, time.perf_counter() - start)
    return best


def baseline_seconds(count: int) -> float:
    start = time.perf_counter()
    for i in range(count):
        _ = {"from": "C4", "to": "D5", "count": i}
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--armies", default="100,1000,10000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    counts = [int(n) for n in args.armies.split(",")]
    per_army_base = min(baseline_seconds(100_000) for _ in range(3)) / 100_000
    first = None
    print(f"Royaumes adjudication, 4 kingdoms, {args.size}×{args.size} map, best of {args.repeat}")
    for count in counts:
        seconds = adjudication_seconds(args.size, count, args.repeat)
        per_army = seconds / count
        first = first or per_army
        print(f"{count:>7,} armies: {seconds * 1000:9.1f} ms, {per_army * 1e6:6.1f} µs per army "
              f"= {per_army / per_army_base:,.0f} baseline dicts; per army ×{per_army / first:.2f} of the smallest")


if __name__ == "__main__":
    main()
